//! The activity log: who changed what, recorded by the database in the transaction of the change.
//!
//! The tables the resources declare as recorded ([`Audited`], handed down at start-up in
//! `triggers::Declared`) carry triggers in the database itself, made from the tables' columns as
//! they are (so a new column is recorded without a line of code) and rewritten by [`install`] at
//! an open when the declarations differ from what the database holds (`sqlite.rs`,
//! `postgres.rs`). On SQLite they read the writer of the moment through functions every perkdesk
//! connection registers ([`register`]), so they record every write whatever made it (a screen,
//! the inbound API, the CLI, an import), and a connection without those functions cannot write an
//! audited table at all: SQLite refuses the statement ("no such function"). Triggers that were
//! each connection's own (temporary ones) could be lost without a word: SQLite deletes a
//! connection's temporary triggers when its `temp_store` changes, which an export's spill to disk
//! did, and the log then stopped for every write that connection made.
//!
//! Who writes is an [`Actor`] (`db::actor`).

use rusqlite::functions::{Context, FunctionFlags};
use rusqlite::types::{Value as SqlValue, ValueRef};
use rusqlite::{Connection, OptionalExtension};
use serde_json::{Map, Value};

use super::actor::Actor;

mod postgres;
mod sqlite;
pub use postgres::{declare_writer, write_as};

/// A table whose changes are recorded, as its resource declares it.
#[derive(Clone, Copy, Debug)]
pub struct Recorded {
    pub table: &'static str,
    /// Which of the table's rows are this resource's (`{row}` is NEW or OLD); all when `None`.
    pub rows: Option<&'static str>,
    /// The record's id (`{row}` is NEW or OLD).
    pub record: &'static str,
    /// Columns never recorded, whose change alone is no entry (bookkeeping, not a change of record).
    pub quiet: &'static [&'static str],
    /// The action of an insert; `None` when inserts are recorded by another table.
    pub created: Option<&'static str>,
    /// Only inserts are recorded: each row is an event (a sign-in), not a record that changes.
    pub events_only: bool,
}

impl Recorded {
    /// Every row of `table`, recorded as the resource that declares it.
    pub const fn table(table: &'static str) -> Recorded {
        Recorded {
            table,
            rows: None,
            record: "{row}.id",
            quiet: &[],
            created: Some(action::CREATE),
            events_only: false,
        }
    }

    /// Columns never recorded, whose change alone is no entry.
    pub const fn quiet(mut self, columns: &'static [&'static str]) -> Recorded {
        self.quiet = columns;
        self
    }
}

/// A recorded table and the resource its entries name, as the API spells its path: the History
/// tab asks `GET /api/{resource}/{id}/history`.
#[derive(Clone, Copy, Debug)]
pub struct Audited {
    pub resource: &'static str,
    pub recorded: Recorded,
}

/// Every action an entry may name, as the API spells it.
pub mod action {
    pub const CREATE: &str = "create";
    pub const UPDATE: &str = "update";
    pub const DELETE: &str = "delete";
    pub const RESTORE: &str = "restore";
    pub const STATUS_CHANGE: &str = "statusChange";
    pub const APPROVE: &str = "approve";
    pub const PASSWORD_CHANGE: &str = "passwordChange";
    pub const AUTHENTICATOR_RESET: &str = "authenticatorReset";
    pub const SIGN_IN: &str = "signIn";
    pub const SIGN_IN_FAILED: &str = "signInFailed";
    pub const KEY_CREATED: &str = "keyCreated";
    pub const KEY_REVOKED: &str = "keyRevoked";
    pub const PURGE: &str = "purge";
    /// A sign-in with a recovery code (the account is then asked for a new authenticator).
    pub const RECOVERY_CODE_USED: &str = "recoveryCodeUsed";
    pub const BACKUP_MADE: &str = "backupMade";
    pub const BACKUP_FAILED: &str = "backupFailed";
    /// A redemption code given to an employee (an event of its campaign; the code is not recorded).
    pub const REDEMPTION_CODE_ISSUED: &str = "redemptionCodeIssued";
    /// A partner's till refused a redemption code (the code is not recorded).
    pub const REDEMPTION_REFUSED: &str = "redemptionRefused";
}

/// Columns whose values are never recorded, only that they changed.
pub const SECRET_COLUMNS: [&str; 6] =
    ["password_hash", "totp_secret", "totp_pending_secret", "key_hash", "signing_secret", "previous_signing_secret"];

/// Columns whose change is a change of state, not an edit: an update of only these is a status change.
pub(super) const STATE_COLUMNS: [&str; 4] = ["isActive", "status", "notificationStatus", "isRead"];

/// Bookkeeping every table has: never recorded.
pub(super) const ALWAYS_QUIET: [&str; 2] = ["created_at", "updated_at"];

/// Makes the database's activity triggers follow the declarations (`audited`), in the caller's
/// transaction (the migrations').
pub(super) fn install(conn: &super::sql::Connection, audited: &[Audited]) -> super::sql::Result<()> {
    if conn.is_postgres() { postgres::install(conn, audited) } else { sqlite::install(conn, audited) }
}

/// Whether the database has the table (a database before its migrations may not).
pub(super) fn has_table(conn: &Connection, table: &str) -> rusqlite::Result<bool> {
    conn.query_row("SELECT 1 FROM main.sqlite_schema WHERE type = 'table' AND name = ?1", [table], |_| Ok(()))
        .optional()
        .map(|found| found.is_some())
}

/// `first_name` → `firstName`: the field as the rows' JSON spells it.
pub fn wire_name(column: &str) -> String {
    let mut name = String::with_capacity(column.len());
    let mut upper = false;
    for c in column.chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            name.extend(c.to_uppercase());
            upper = false;
        } else {
            name.push(c);
        }
    }
    name
}

/// The entry every trigger writes.
pub(super) const INSERT: &str =
    "INSERT INTO activity (actor_kind, actor_id, actor_name, resource, record_id, action, changes)";

/// Registers the functions the triggers call, on one SQLite connection (every connection
/// perkdesk opens: `db::register_functions`).
pub(super) fn register(conn: &Connection) -> rusqlite::Result<()> {
    // Not deterministic: the writer changes from one statement to the next.
    conn.create_scalar_function("activity_actor", 1, FunctionFlags::SQLITE_UTF8, |ctx| {
        let actor = Actor::writing();
        Ok(match ctx.get::<i64>(0)? {
            0 => SqlValue::Text(actor.kind.as_str().to_string()),
            1 => actor.id.map_or(SqlValue::Null, SqlValue::Integer),
            _ => SqlValue::Text(actor.name),
        })
    })?;
    conn.create_scalar_function(
        "activity_changes",
        -1,
        FunctionFlags::SQLITE_UTF8 | FunctionFlags::SQLITE_DETERMINISTIC,
        changes,
    )?;
    conn.create_scalar_function(
        "activity_action",
        1,
        FunctionFlags::SQLITE_UTF8 | FunctionFlags::SQLITE_DETERMINISTIC,
        |ctx| Ok(action_of(ctx.get_raw(0).as_str().unwrap_or("{}"))),
    )
}

/// `activity_changes(name, old, new, ...)`: the changed fields as a JSON object, or NULL when
/// none changed. A name starting with `*` is a secret: recorded as `"changed"`, never its value.
fn changes(ctx: &Context<'_>) -> rusqlite::Result<Option<String>> {
    let mut changed = Map::new();
    for first in (0..ctx.len().saturating_sub(2)).step_by(3) {
        let (old, new) = (ctx.get_raw(first + 1), ctx.get_raw(first + 2));
        if same(old, new) {
            continue;
        }
        let name = ctx.get_raw(first).as_str().unwrap_or_default();
        match name.strip_prefix('*') {
            Some(secret) => changed.insert(secret.to_string(), Value::from("changed")),
            None => changed.insert(name.to_string(), Value::Array(vec![json(old), json(new)])),
        };
    }
    Ok((!changed.is_empty()).then(|| Value::Object(changed).to_string()))
}

/// SQL's `IS`: equal values, or both NULL (an integer equals the same real).
fn same(a: ValueRef<'_>, b: ValueRef<'_>) -> bool {
    match (a, b) {
        (ValueRef::Integer(x), ValueRef::Real(y)) | (ValueRef::Real(y), ValueRef::Integer(x)) => (x as f64) == y,
        _ => a == b,
    }
}

fn json(value: ValueRef<'_>) -> Value {
    match value {
        ValueRef::Null => Value::Null,
        ValueRef::Integer(n) => Value::from(n),
        ValueRef::Real(x) => Value::from(x),
        ValueRef::Text(bytes) => Value::from(String::from_utf8_lossy(bytes).into_owned()),
        ValueRef::Blob(_) => Value::from("changed"),
    }
}

/// What an update was, from the fields it changed.
fn action_of(changes: &str) -> &'static str {
    let Ok(Value::Object(changed)) = serde_json::from_str::<Value>(changes) else { return action::UPDATE };
    let went = |field: &str| match changed.get(field).and_then(Value::as_array).map(Vec::as_slice) {
        Some([old, new]) => Some((old.is_null(), new.is_null())),
        _ => None,
    };
    match went("deletedAt") {
        Some((true, false)) => return action::DELETE,
        Some((false, true)) => return action::RESTORE,
        _ => {}
    }
    if went("revokedAt") == Some((true, false)) {
        return action::KEY_REVOKED;
    }
    if changed.contains_key("totpSecret") {
        return action::AUTHENTICATOR_RESET;
    }
    if changed
        .get("mustSetUpAuthenticator")
        .and_then(Value::as_array)
        .and_then(|pair| pair.get(1))
        .and_then(Value::as_i64)
        == Some(1)
    {
        return action::RECOVERY_CODE_USED;
    }
    if changed.contains_key("passwordHash") {
        return action::PASSWORD_CHANGE;
    }
    if changed.get("isConfirmed").and_then(Value::as_array).and_then(|pair| pair.get(1)).and_then(Value::as_i64)
        == Some(1)
    {
        return action::APPROVE;
    }
    if changed.keys().all(|field| STATE_COLUMNS.contains(&field.as_str())) {
        return action::STATUS_CHANGE;
    }
    action::UPDATE
}

/// The resource of the server's own events (a scheduled backup), which are no table's rows.
pub const BACKUP_RESOURCE: &str = "backup";

/// The resource of a refused redemption code's entry: no record is named (the code may be none).
pub const REDEMPTION_RESOURCE: &str = "redemption";

/// Records an event that is no row's change (a scheduled backup made or failed), as `actor`, with
/// what to show of it as fields (`{"file": [null, "perkdesk-....db"]}`).
pub fn record_event(
    conn: &super::sql::Connection,
    actor: &Actor,
    resource: &str,
    action: &str,
    fields: &[(&str, Value)],
) -> super::sql::Result<()> {
    let changes: Map<String, Value> =
        fields.iter().map(|(name, value)| (name.to_string(), Value::Array(vec![Value::Null, value.clone()]))).collect();
    conn.prepare_cached(
        "INSERT INTO activity (actor_kind, actor_id, actor_name, resource, action, changes) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?
    .execute((actor.kind.as_str(), actor.id, &actor.name, resource, action, Value::Object(changes).to_string()))?;
    Ok(())
}

/// Deletes the entries older than `days` days among the oldest `limit` (retention runs in steps,
/// so a long-untended log does not hold the writer in one long transaction); returns how many
/// went. What goes is always a prefix of the log: the oldest entries up to the first one inside
/// the window. The ids then stay one unbroken span, which is how the Activity list counts its
/// entries without a counter (`crud::Total::IdSpan`); an entry stamped out of order (a clock set
/// back) waits for the entries before it.
pub fn prune(conn: &super::sql::Connection, days: u32, limit: u32) -> super::sql::Result<usize> {
    let cutoff = super::format_iso(time::OffsetDateTime::now_utc() - time::Duration::days(i64::from(days)));
    conn.prepare_cached(
        "WITH oldest AS (SELECT id, at FROM activity ORDER BY id LIMIT ?2)
         DELETE FROM activity
         WHERE id < COALESCE((SELECT MIN(id) FROM oldest WHERE at >= ?1), (SELECT MAX(id) + 1 FROM oldest))",
    )?
    .execute((cutoff, limit))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_update_is_named_by_what_it_changed() {
        assert_eq!(action_of(r#"{"deletedAt":[null,"2026-01-01"]}"#), action::DELETE);
        assert_eq!(action_of(r#"{"deletedAt":["2026-01-01",null]}"#), action::RESTORE);
        assert_eq!(action_of(r#"{"isActive":[1,0]}"#), action::STATUS_CHANGE);
        assert_eq!(action_of(r#"{"isActive":[1,0],"name":["a","b"]}"#), action::UPDATE);
        assert_eq!(action_of(r#"{"passwordHash":"changed"}"#), action::PASSWORD_CHANGE);
        assert_eq!(action_of(r#"{"totpSecret":"changed","passwordHash":"changed"}"#), action::AUTHENTICATOR_RESET);
        assert_eq!(action_of(r#"{"isConfirmed":[0,1]}"#), action::APPROVE);
        assert_eq!(action_of(r#"{"revokedAt":[null,"x"]}"#), action::KEY_REVOKED);
        assert_eq!(action_of(r#"{"mustSetUpAuthenticator":[0,1]}"#), action::RECOVERY_CODE_USED);
    }

    #[test]
    fn wire_names_are_camel_case() {
        assert_eq!(wire_name("first_name"), "firstName");
        assert_eq!(wire_name("campaign_category_id"), "campaignCategoryId");
        assert_eq!(wire_name("id"), "id");
    }
}
