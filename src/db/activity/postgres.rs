//! The activity log on PostgreSQL: the same entries as SQLite's, from the same declarations.
//!
//! SQLite's triggers are each connection's own and ask Rust who writes. PostgreSQL's triggers are
//! the database's, shared by every app server, so they are made at each start (in the migration's
//! transaction, under its lock) from the declarations ([`Audited`]) and the tables' columns as the catalogue lists
//! them, and they read who writes from three transaction-local settings that
//! [`declare_writer`] sets at the start of each write. The changes are spelled as SQLite's are
//! (serde_json's compact text, the fields in column order), so the History tabs read the same
//! text from both engines; `tests/engine_parity.rs` compares the two logs after the same writes.

use super::super::actor::Actor;
use super::super::sql::{Connection, Result};
use super::{ALWAYS_QUIET, Audited, INSERT, SECRET_COLUMNS, STATE_COLUMNS, action, wire_name};

/// Tells this transaction's triggers who writes: [`Actor::writing`], as SQLite's triggers would
/// ask. Settings made with `set_config(…, true)` end with the transaction. Nothing on SQLite,
/// whose triggers ask the thread.
pub fn declare_writer(tx: &Connection) -> Result<()> {
    if tx.sqlite().is_some() {
        return Ok(());
    }
    let actor = Actor::writing();
    let id = actor.id.map(|id| id.to_string()).unwrap_or_default();
    // Nothing reads its answer: it goes with the transaction's next statement.
    tx.execute_later(
        "SELECT set_config('perkdesk.actor_kind', ?1, true), set_config('perkdesk.actor_id', ?2, true),
                set_config('perkdesk.actor_name', ?3, true)",
        (actor.kind.as_str(), id, &actor.name),
    )
}

/// Runs `work` on `conn`'s open write as `actor` (a sign-in's session is the user's own, though
/// the request's caller is not known yet): what it writes is recorded as theirs on either engine,
/// and the writer before is declared again after it.
pub fn write_as<T, E: From<super::super::sql::Error>>(
    conn: &Connection,
    actor: Actor,
    work: impl FnOnce() -> std::result::Result<T, E>,
) -> std::result::Result<T, E> {
    let value = actor.enter(|| {
        declare_writer(conn)?;
        work()
    });
    declare_writer(conn)?;
    value
}

/// Makes (again) the functions and triggers of the log on PostgreSQL; the triggers of an earlier
/// version go first, so a declaration removed or renumbered leaves nothing behind.
pub(super) fn install(conn: &Connection, audited: &[Audited]) -> Result<()> {
    let mut sql = String::from(
        "DO $$ DECLARE t record; BEGIN
             FOR t IN SELECT tgname, tgrelid::regclass AS tab FROM pg_trigger WHERE tgname LIKE 'activity\\_%' LOOP
                 EXECUTE format('DROP TRIGGER %I ON %s', t.tgname, t.tab);
             END LOOP;
         END $$;\n",
    );
    sql.push_str(&helpers());
    for (index, audited) in audited.iter().enumerate() {
        let columns = columns_of(conn, audited.recorded.table)?;
        if !columns.is_empty() {
            sql.push_str(&trigger(index, audited, &columns));
        }
    }
    conn.execute_batch(&sql)
}

/// A column as the catalogue lists it: its name and type.
struct Column {
    name: String,
    kind: String,
}

fn columns_of(conn: &Connection, table: &str) -> Result<Vec<Column>> {
    let mut statement = conn.prepare(
        "SELECT attname::text, format_type(atttypid, atttypmod) FROM pg_attribute
         WHERE attrelid = to_regclass(?1) AND attnum > 0 AND NOT attisdropped ORDER BY attnum",
    )?;
    let columns = statement.query_map([table], |row| Ok(Column { name: row.get(0)?, kind: row.get(1)? }))?;
    columns.collect()
}

/// The writer as [`declare_writer`] set it, else the server itself; and the action an update's
/// changes name, as `action_of` does (`tests/engine_parity.rs` holds them equal).
fn helpers() -> String {
    let went = |field: &str, old_null: bool, new_null: bool| {
        let is = |null: bool| if null { "=" } else { "<>" };
        format!("c -> '{field}' -> 0 {} 'null' AND c -> '{field}' -> 1 {} 'null'", is(old_null), is(new_null))
    };
    let states = STATE_COLUMNS.iter().map(|c| format!("'{c}'")).collect::<Vec<_>>().join(", ");
    format!(
        "CREATE OR REPLACE FUNCTION activity_actor_kind() RETURNS text LANGUAGE sql STABLE
             RETURN COALESCE(NULLIF(current_setting('perkdesk.actor_kind', true), ''), 'system');
         CREATE OR REPLACE FUNCTION activity_actor_id() RETURNS bigint LANGUAGE sql STABLE
             RETURN NULLIF(current_setting('perkdesk.actor_id', true), '')::bigint;
         CREATE OR REPLACE FUNCTION activity_actor_name() RETURNS text LANGUAGE sql STABLE
             RETURN CASE WHEN NULLIF(current_setting('perkdesk.actor_kind', true), '') IS NULL THEN 'system'
                         ELSE current_setting('perkdesk.actor_name', true) END;
         CREATE OR REPLACE FUNCTION activity_action(c jsonb) RETURNS text LANGUAGE sql IMMUTABLE
             RETURN CASE
                 WHEN {deleted} THEN '{delete}'
                 WHEN {restored} THEN '{restore}'
                 WHEN {revoked} THEN '{key_revoked}'
                 WHEN c ? 'totpSecret' THEN '{authenticator_reset}'
                 WHEN c -> 'mustSetUpAuthenticator' -> 1 = '1' THEN '{recovery_code_used}'
                 WHEN c ? 'passwordHash' THEN '{password_change}'
                 WHEN c -> 'isConfirmed' -> 1 = '1' THEN '{approve}'
                 WHEN NOT EXISTS (SELECT FROM jsonb_object_keys(c) AS k (field) WHERE field <> ALL (ARRAY[{states}]))
                     THEN '{status_change}'
                 ELSE '{update}'
             END;\n",
        deleted = went("deletedAt", true, false),
        restored = went("deletedAt", false, true),
        revoked = went("revokedAt", true, false),
        delete = action::DELETE,
        restore = action::RESTORE,
        key_revoked = action::KEY_REVOKED,
        authenticator_reset = action::AUTHENTICATOR_RESET,
        recovery_code_used = action::RECOVERY_CODE_USED,
        password_change = action::PASSWORD_CHANGE,
        approve = action::APPROVE,
        status_change = action::STATUS_CHANGE,
        update = action::UPDATE,
    )
}

/// A value as serde_json writes it: bytes as `"changed"` (as SQLite's log records a blob), a
/// whole real with its `.0`, everything else as PostgreSQL's `to_json` (the same escapes).
fn json_of(value: &str, column: &Column) -> String {
    match column.kind.as_str() {
        "bytea" => format!("CASE WHEN {value} IS NULL THEN 'null' ELSE '\"changed\"' END"),
        "double precision" | "real" => format!(
            "CASE WHEN {value} IS NULL THEN 'null' WHEN {value} = trunc({value}) AND abs({value}) < 1e15
                  THEN trunc({value})::numeric::text || '.0' ELSE to_json({value})::text END"
        ),
        _ => format!("COALESCE(to_json({value})::text, 'null')"),
    }
}

/// One audited table's trigger function and trigger.
fn trigger(index: usize, audited: &Audited, columns: &[Column]) -> String {
    let Audited { resource, recorded } = audited;
    let table = recorded.table;
    let name = format!("activity_{index}_{table}");
    let record = |row: &str| recorded.record.replace("{row}", row);
    let only = |row: &str| {
        // A null test is no match, as in SQLite's WHEN.
        recorded
            .rows
            .map(|rows| format!("IF NOT COALESCE({}, false) THEN RETURN NULL; END IF;", rows.replace("{row}", row)))
    };
    let entry = |row: &str, action: &str, changes: &str| {
        format!(
            "{} VALUES (activity_actor_kind(), activity_actor_id(), activity_actor_name(), '{resource}', {}, {action}, {changes});",
            INSERT,
            record(row)
        )
    };
    let mut events = Vec::new();
    let mut body = String::new();
    if let Some(created) = recorded.created {
        events.push("INSERT");
        body.push_str(&format!(
            "IF TG_OP = 'INSERT' THEN {} {} RETURN NULL; END IF;\n",
            only("NEW").unwrap_or_default(),
            entry("NEW", &format!("'{created}'"), "NULL")
        ));
    }
    if !recorded.events_only {
        events.extend(["UPDATE", "DELETE"]);
        let changes: String = columns
            .iter()
            .filter(|c| !ALWAYS_QUIET.contains(&c.name.as_str()) && !recorded.quiet.contains(&c.name.as_str()))
            .map(|column| {
                let c = &column.name;
                let field = if SECRET_COLUMNS.contains(&c.as_str()) {
                    format!("'\"{}\":\"changed\"'", wire_name(c))
                } else {
                    format!(
                        "'\"{}\":[' || {} || ',' || {} || ']'",
                        wire_name(c),
                        json_of(&format!("OLD.{c}"), column),
                        json_of(&format!("NEW.{c}"), column)
                    )
                };
                format!("IF OLD.{c} IS DISTINCT FROM NEW.{c} THEN fields := array_append(fields, {field}); END IF;\n")
            })
            .collect();
        body.push_str(&format!(
            "IF TG_OP = 'UPDATE' THEN {}
                 {changes}
                 IF cardinality(fields) > 0 THEN
                     changed := '{{' || array_to_string(fields, ',') || '}}';
                     {}
                 END IF;
                 RETURN NULL;
             END IF;
             {} {}\n",
            only("NEW").unwrap_or_default(),
            entry("NEW", "activity_action(changed::jsonb)", "changed"),
            only("OLD").unwrap_or_default(),
            entry("OLD", &format!("'{}'", action::PURGE), "NULL"),
        ));
    }
    format!(
        "CREATE OR REPLACE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS $$
         DECLARE
             fields text[] := '{{}}';
             changed text;
         BEGIN
             {body}
             RETURN NULL;
         END $$;
         CREATE TRIGGER {name} AFTER {} ON {table} FOR EACH ROW EXECUTE FUNCTION {name}();\n",
        events.join(" OR ")
    )
}
