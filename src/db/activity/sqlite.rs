//! The activity log's triggers on SQLite: in the database file, made from the declarations and the
//! tables' columns, rewritten only when they differ from what the file holds (an open beside a
//! running server, `perkdesk sql`, then changes no schema).

use super::super::sql::{Connection, OptionalExtension, Result};
use super::{ALWAYS_QUIET, Audited, INSERT, SECRET_COLUMNS, action, wire_name};

/// Makes the triggers of `audited` the activity triggers of the database (`activity_...`).
pub(super) fn install(conn: &Connection, audited: &[Audited]) -> Result<()> {
    // A database before migration 13 (a test stopping short) has no log to record into yet.
    let logged: Option<i64> = conn
        .query_row("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'activity'", [], |row| row.get(0))
        .optional()?;
    if logged.is_none() {
        return Ok(());
    }
    let mut wanted = Vec::new();
    for (index, audited) in audited.iter().enumerate() {
        let columns = columns_of(conn, audited.recorded.table)?;
        if !columns.is_empty() {
            wanted.extend(triggers(index, audited, &columns));
        }
    }
    super::super::triggers::sync_sqlite(conn, "activity_", &wanted)
}

fn columns_of(conn: &Connection, table: &str) -> Result<Vec<String>> {
    let mut statement = conn.prepare("SELECT name FROM pragma_table_info(?1, 'main') ORDER BY cid")?;
    statement.query_map([table], |r| r.get::<String>(0))?.collect()
}

/// The insert, update and delete triggers of one audited table: each one's name and its
/// `CREATE TRIGGER` statement, spelled as SQLite keeps it in `sqlite_schema.sql`.
fn triggers(index: usize, audited: &Audited, columns: &[String]) -> Vec<(String, String)> {
    let Audited { resource, recorded } = audited;
    let table = recorded.table;
    let values = |row: &str, action: &str, changes: &str| {
        format!(
            "activity_actor(0), activity_actor(1), activity_actor(2), '{resource}', {}, {action}, {changes}",
            recorded.record.replace("{row}", row)
        )
    };
    // `CREATE TRIGGER name AFTER event ON table [WHEN ...] BEGIN body; END`, single-spaced.
    let trigger = |suffix: &str, event: &str, row: &str, body: String| {
        let name = format!("activity_{index}_{table}_{suffix}");
        let when = recorded.rows.map(|rows| format!(" WHEN {}", rows.replace("{row}", row))).unwrap_or_default();
        let create = format!("CREATE TRIGGER {name} AFTER {event} ON {table}{when} BEGIN {body}; END");
        (name, create)
    };
    let mut made = Vec::new();
    if let Some(created) = recorded.created {
        // VALUES, not SELECT: an INSERT ... SELECT in a trigger builds a temporary table for its
        // rows at every firing, which cost the inbound write more than the entry itself.
        made.push(trigger(
            "ai",
            "INSERT",
            "NEW",
            format!("{INSERT} VALUES ({})", values("NEW", &format!("'{created}'"), "NULL")),
        ));
    }
    if recorded.events_only {
        return made;
    }
    let recorded: Vec<String> = columns
        .iter()
        .filter(|c| !ALWAYS_QUIET.contains(&c.as_str()) && !recorded.quiet.contains(&c.as_str()))
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
