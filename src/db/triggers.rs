//! What the resources declare that the database keeps by its own triggers (the activity log's
//! entries, the trash's rows), handed down to `db` as data at start-up ([`Declared`]) and made
//! into triggers in the migrations' transaction. `db` names no resource: a new recorded or
//! trashed resource is a line of its declaration, not of this layer.

use super::sql::{Connection, Result};

/// The resources' declarations the database's triggers are made from.
#[derive(Clone, Debug, Default)]
pub struct Declared {
    /// The tables whose changes the activity log records, and as which resource.
    pub recorded: Vec<super::activity::Audited>,
    /// The kinds of record whose soft-deleted rows the trash holds.
    pub trashed: Vec<super::trash::Trashed>,
}

/// Makes the triggers named `prefix…` of a SQLite database exactly `wanted` (name, `CREATE
/// TRIGGER` text as SQLite keeps it), in the caller's transaction; nothing is rewritten when they
/// already are, so an open beside a running server changes no schema.
pub(super) fn sync_sqlite(conn: &Connection, prefix: &str, wanted: &[(String, String)]) -> Result<()> {
    let pattern = format!("{}%", prefix.replace('_', "\\_"));
    let mut held: Vec<(String, String)> = conn
        .prepare("SELECT name, sql FROM sqlite_schema WHERE type = 'trigger' AND name LIKE ?1 ESCAPE '\\'")?
        .query_map([pattern], |row| Ok((row.get(0)?, row.get(1)?)))?
        .collect::<Result<_>>()?;
    held.sort();
    let mut sorted = wanted.to_vec();
    sorted.sort();
    if held == sorted {
        return Ok(());
    }
    let mut sql: String = held.iter().map(|(name, _)| format!("DROP TRIGGER \"{name}\";\n")).collect();
    for (_, create) in wanted {
        sql.push_str(create);
        sql.push_str(";\n");
    }
    conn.execute_batch(&sql)
}

/// The tables of `db`'s own that the activity log does not record, with the reason: each table has
/// a history decision (`tests/history_decisions.rs`), and these are this layer's.
pub fn unrecorded() -> Vec<(String, &'static str)> {
    let mut tables: Vec<(String, &'static str)> = vec![
        ("schema_migrations".into(), "the migrations applied, written by the runner"),
        ("collations".into(), "which collation built the sort indexes, written at an open"),
        ("complaint_reasons".into(), "reference rows the migrations make"),
    ];
    for counts in [
        "row_counts",
        "asset_counts",
        "partner_counts",
        "state_counts",
        "usage_category_counts",
        "usage_month_counts",
        "campaign_counts",
        "usage_verified_month_counts",
    ] {
        tables.push((counts.into(), "totals the recorded tables' triggers keep"));
    }
    for (_, index, _) in super::search_queue::INDEXES {
        for part in ["", "_config", "_data", "_docsize", "_idx", "_queue"] {
            tables.push((format!("{index}{part}"), "a search index the recorded tables' triggers keep"));
        }
    }
    tables
}
