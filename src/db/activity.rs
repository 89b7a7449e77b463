//! The activity log: who changed what, recorded by the database in the transaction of the change.
//!
//! The tables of [`AUDITED`] carry triggers in the database itself (made from the tables' columns
//! as they are, so a new column is recorded without a line here, and rewritten by [`install`] at
//! each open when this binary's declarations differ from what the file holds). They read the
//! writer of the moment through functions every perkdesk connection registers
//! ([`register`]), so they record every write whatever made it (a screen, the inbound API, the
//! CLI, an import), and a connection without those functions cannot write an audited table at
//! all: SQLite refuses the statement ("no such function"). Triggers that were each connection's
//! own (temporary ones) could be lost without a word: SQLite deletes a connection's temporary
//! triggers when its `temp_store` changes, which an export's spill to disk did, and the log then
//! stopped for every write that connection made.
//!
//! Who writes is an [`Actor`]: a request names it when its caller is known ([`Actor::identify`],
//! by the staff session or API key extractors), `Db::write` carries it to the writer's thread, and
//! the triggers read it there. A process without a request (the CLI) writes as its default actor.

use std::cell::RefCell;
use std::future::Future;
use std::sync::{Arc, Mutex, OnceLock};

use super::sql::OptionalExtension as _;
use rusqlite::functions::{Context, FunctionFlags};
use rusqlite::types::{Value as SqlValue, ValueRef};
use rusqlite::{Connection, OptionalExtension};
use serde_json::{Map, Value};

use super::lock;

mod postgres;
pub use postgres::{declare_writer, write_as};

/// Who makes a change, by kind, id and name as they were when it was made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Actor {
    pub kind: ActorKind,
    pub id: Option<i64>,
    pub name: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ActorKind {
    /// A signed-in staff member (the id is the user's).
    User,
    /// An inbound API client (the id is the client's).
    Client,
    /// An operator at the command line.
    Cli,
    /// The server's own work (retention, the demo's set-up).
    System,
    /// A caller who is not signed in: a registration, a reset link, a merchant's application, a
    /// failed sign-in (named by the e-mail typed).
    Public,
}

impl ActorKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ActorKind::User => "user",
            ActorKind::Client => "client",
            ActorKind::Cli => "cli",
            ActorKind::System => "system",
            ActorKind::Public => "public",
        }
    }
}

tokio::task_local! {
    /// The caller of the request running on this task, once an extractor has named it.
    static REQUEST: Arc<Mutex<Option<Actor>>>;
}

thread_local! {
    /// The actor of the write running on this thread, read by the triggers' functions.
    static WRITING_AS: RefCell<Option<Actor>> = const { RefCell::new(None) };
}

/// Who writes outside any request: `cli` for the command line, `system` for the server.
static PROCESS: OnceLock<Actor> = OnceLock::new();

impl Actor {
    pub fn user(id: i64, name: impl Into<String>) -> Actor {
        Actor { kind: ActorKind::User, id: Some(id), name: name.into() }
    }

    pub fn client(id: i64, name: impl Into<String>) -> Actor {
        Actor { kind: ActorKind::Client, id: Some(id), name: name.into() }
    }

    pub fn cli() -> Actor {
        Actor { kind: ActorKind::Cli, id: None, name: "cli".into() }
    }

    pub fn system() -> Actor {
        Actor { kind: ActorKind::System, id: None, name: "system".into() }
    }

    pub fn public(name: impl Into<String>) -> Actor {
        Actor { kind: ActorKind::Public, id: None, name: name.into() }
    }

    /// Sets who writes outside requests in this process (once; later calls are ignored).
    pub fn set_process_default(actor: Actor) {
        let _ = PROCESS.set(actor);
    }

    /// Runs a request with a caller yet to be named: until an extractor names one, it is public.
    pub async fn scope<F: Future>(request: F) -> F::Output {
        REQUEST.scope(Arc::new(Mutex::new(None)), request).await
    }

    /// Names the caller of the request running on this task (nothing outside a request).
    pub fn identify(actor: Actor) {
        let _ = REQUEST.try_with(|caller| *lock(caller) = Some(actor));
    }

    /// Who the work started now is done for: the request's caller, else the thread's writer, else
    /// the process's default.
    pub fn current() -> Actor {
        match REQUEST.try_with(|caller| lock(caller).clone()) {
            Ok(caller) => caller.unwrap_or_else(|| Actor::public("")),
            Err(_) => WRITING_AS.with(|writing| writing.borrow().clone()).unwrap_or_else(Actor::process),
        }
    }

    /// Who the statement running on this thread writes for: the write's actor on a writer's
    /// thread, the request's caller in a request's own task, else the process's default.
    fn writing() -> Actor {
        WRITING_AS.with(|writing| writing.borrow().clone()).unwrap_or_else(Actor::current)
    }

    fn process() -> Actor {
        PROCESS.get().cloned().unwrap_or_else(Actor::system)
    }

    /// Runs `work` (on a blocking thread) as this actor: what it writes is recorded as theirs.
    pub fn enter<T>(self, work: impl FnOnce() -> T) -> T {
        let _entered = Entered(WRITING_AS.with(|writing| writing.replace(Some(self))));
        work()
    }
}

/// Puts the thread's previous writer back however the work ends (a panic included), so a pooled
/// thread never writes as the last request's caller.
struct Entered(Option<Actor>);

impl Drop for Entered {
    fn drop(&mut self) {
        let before = self.0.take();
        WRITING_AS.with(|writing| *writing.borrow_mut() = before);
    }
}

/// A table whose changes are recorded, and as which resource.
pub struct Audited {
    pub table: &'static str,
    /// The resource as the API spells its path: the History tab asks `GET /api/{resource}/{id}/history`.
    pub resource: &'static str,
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

impl Audited {
    const fn resource(table: &'static str, resource: &'static str) -> Audited {
        Audited {
            table,
            resource,
            rows: None,
            record: "{row}.id",
            quiet: &[],
            created: Some(action::CREATE),
            events_only: false,
        }
    }

    const fn quiet(mut self, columns: &'static [&'static str]) -> Audited {
        self.quiet = columns;
        self
    }
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
}

/// Columns whose values are never recorded, only that they changed.
pub const SECRET_COLUMNS: [&str; 4] = ["password_hash", "totp_secret", "totp_pending_secret", "key_hash"];

/// Columns whose change is a change of state, not an edit: an update of only these is a status change.
const STATE_COLUMNS: [&str; 4] = ["isActive", "status", "notificationStatus", "isRead"];

/// Bookkeeping every table has: never recorded.
const ALWAYS_QUIET: [&str; 2] = ["created_at", "updated_at"];

/// The recorded tables. A login of the HR portal is a `users` row recorded as its HR account.
pub const AUDITED: &[Audited] = &[
    Audited { rows: Some("{row}.kind = 'staff'"), ..Audited::resource("users", "user") }.quiet(&[
        "kind",
        "totp_last_step",
        "totp_pending_secret",
    ]),
    Audited {
        rows: Some("{row}.kind = 'hr'"),
        record: "(SELECT id FROM hr_accounts WHERE user_id = {row}.id)",
        // The HR account's own row records its creation, deletion and state.
        created: None,
        ..Audited::resource("users", "humanResource")
    }
    .quiet(&[
        "kind",
        "totp_last_step",
        "deleted_at",
        "is_active",
        "role_id",
        "totp_pending_secret",
        "must_set_up_authenticator",
    ]),
    Audited::resource("hr_accounts", "humanResource"),
    Audited::resource("cities", "city"),
    Audited::resource("assets", "asset"),
    Audited::resource("partners", "partner"),
    Audited::resource("merchants", "partner/merchant"),
    Audited::resource("campaign_categories", "campaign/category"),
    Audited::resource("campaigns", "campaign"),
    Audited::resource("notifications", "notification"),
    Audited::resource("employees", "employee"),
    Audited::resource("wish_list_requests", "wishList"),
    Audited::resource("merchant_applications", "apply"),
    Audited::resource("usage_history", "usageHistory"),
    Audited::resource("complaints", "complaint"),
    Audited::resource("promo_codes", "promoCode"),
    Audited { created: Some(action::KEY_CREATED), ..Audited::resource("api_clients", "apiClient") }
        .quiet(&["last_used_at"]),
    Audited {
        record: "{row}.user_id",
        created: Some(action::SIGN_IN),
        events_only: true,
        ..Audited::resource("sessions", "user")
    },
    Audited {
        record: "(SELECT id FROM users WHERE kind = 'staff' AND email = {row}.email AND deleted_at IS NULL)",
        created: Some(action::SIGN_IN_FAILED),
        events_only: true,
        ..Audited::resource("sign_in_failures", "user")
    },
];

/// The resource a table's rows are recorded as (its first declaration), for the History tabs' routes.
pub fn resource_of(table: &str) -> Option<&'static str> {
    AUDITED.iter().find(|audited| audited.table == table).map(|audited| audited.resource)
}

/// Makes the database's activity triggers follow this binary's declarations, in the caller's
/// transaction (the migrations'). On SQLite they are rewritten only when they differ from what
/// the file holds, so an open beside a running server (`perkdesk sql`, a second process) changes
/// no schema; PostgreSQL makes them again at each start.
pub(super) fn install(conn: &super::sql::Connection) -> super::sql::Result<()> {
    if conn.is_postgres() {
        return postgres::install(conn);
    }
    // A database before migration 13 (a test stopping short) has no log to record into yet.
    let logged: Option<i64> = conn
        .query_row("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'activity'", [], |row| row.get(0))
        .optional()?;
    if logged.is_none() {
        return Ok(());
    }
    let mut wanted = Vec::new();
    for (index, audited) in AUDITED.iter().enumerate() {
        let columns = columns_of(conn, audited.table)?;
        if !columns.is_empty() {
            wanted.extend(triggers(index, audited, &columns));
        }
    }
    let mut held: Vec<(String, String)> = conn
        .prepare("SELECT name, sql FROM sqlite_schema WHERE type = 'trigger' AND name LIKE 'activity\\_%' ESCAPE '\\'")?
        .query_map([], |row| Ok((row.get(0)?, row.get(1)?)))?
        .collect::<super::sql::Result<_>>()?;
    held.sort();
    let mut sorted = wanted.clone();
    sorted.sort();
    if held == sorted {
        return Ok(());
    }
    let mut sql: String = held.iter().map(|(name, _)| format!("DROP TRIGGER \"{name}\";\n")).collect();
    for (_, create) in &wanted {
        sql.push_str(create);
        sql.push_str(";\n");
    }
    conn.execute_batch(&sql)
}

/// Whether the database has the table (a database before its migrations may not).
pub(super) fn has_table(conn: &Connection, table: &str) -> rusqlite::Result<bool> {
    conn.query_row("SELECT 1 FROM main.sqlite_schema WHERE type = 'table' AND name = ?1", [table], |_| Ok(()))
        .optional()
        .map(|found| found.is_some())
}

fn columns_of(conn: &super::sql::Connection, table: &str) -> super::sql::Result<Vec<String>> {
    let mut statement = conn.prepare("SELECT name FROM pragma_table_info(?1, 'main') ORDER BY cid")?;
    statement.query_map([table], |r| r.get::<String>(0))?.collect()
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
const INSERT: &str = "INSERT INTO activity (actor_kind, actor_id, actor_name, resource, record_id, action, changes)";

/// The insert, update and delete triggers of one audited table: each one's name and its
/// `CREATE TRIGGER` statement, spelled as SQLite keeps it in `sqlite_schema.sql`.
fn triggers(index: usize, audited: &Audited, columns: &[String]) -> Vec<(String, String)> {
    let Audited { table, resource, .. } = audited;
    let values = |row: &str, action: &str, changes: &str| {
        format!(
            "activity_actor(0), activity_actor(1), activity_actor(2), '{resource}', {}, {action}, {changes}",
            audited.record.replace("{row}", row)
        )
    };
    // `CREATE TRIGGER name AFTER event ON table [WHEN ...] BEGIN body; END`, single-spaced.
    let trigger = |suffix: &str, event: &str, row: &str, body: String| {
        let name = format!("activity_{index}_{table}_{suffix}");
        let when = audited.rows.map(|rows| format!(" WHEN {}", rows.replace("{row}", row))).unwrap_or_default();
        let create = format!("CREATE TRIGGER {name} AFTER {event} ON {table}{when} BEGIN {body}; END");
        (name, create)
    };
    let mut made = Vec::new();
    if let Some(created) = audited.created {
        // VALUES, not SELECT: an INSERT ... SELECT in a trigger builds a temporary table for its
        // rows at every firing, which cost the inbound write more than the entry itself.
        made.push(trigger(
            "ai",
            "INSERT",
            "NEW",
            format!("{INSERT} VALUES ({})", values("NEW", &format!("'{created}'"), "NULL")),
        ));
    }
    if audited.events_only {
        return made;
    }
    let recorded: Vec<String> = columns
        .iter()
        .filter(|c| !ALWAYS_QUIET.contains(&c.as_str()) && !audited.quiet.contains(&c.as_str()))
        .map(|c| {
            let shown = if SECRET_COLUMNS.contains(&c.as_str()) { format!("*{}", wire_name(c)) } else { wire_name(c) };
            format!("'{shown}', OLD.{c}, NEW.{c}")
        })
        .collect();
    made.push(trigger(
        "au",
        "UPDATE",
        "NEW",
        format!(
            "{INSERT} SELECT {} FROM (SELECT activity_changes({}) AS c) WHERE c IS NOT NULL",
            values("NEW", "activity_action(c)", "c"),
            recorded.join(", ")
        ),
    ));
    made.push(trigger(
        "ad",
        "DELETE",
        "OLD",
        format!("{INSERT} VALUES ({})", values("OLD", &format!("'{}'", action::PURGE), "NULL")),
    ));
    made
}

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
