//! `perkdesk copy-to-postgres`: moves an installation from its SQLite file to an empty PostgreSQL
//! database in one transaction: every table's rows (images included, they are rows of `files`),
//! the maintained counts as they stand, and the id sequences, each continuing after the highest
//! id copied. Both sides' totals are
//! compared before the commit; any difference rolls it all back.
//!
//! The tables are PostgreSQL's (SQLite's search tables have no counterpart: PostgreSQL searches
//! the tables themselves), taken parents first so every foreign key holds as rows arrive. The
//! copy runs with the tables' own triggers off: the rows are history, not new writes, so they add
//! neither activity entries nor count deltas; the counts come over as SQLite kept them.

use std::collections::{BTreeMap, BTreeSet};

use anyhow::{Context, bail};

use super::sql::{Connection, Value, params_from_iter};

/// Parameters of one multi-row insert at most (PostgreSQL's limit is 65,535).
const MAX_PARAMETERS: usize = 30_000;
/// Bytes of values held for one insert at most: a batch of images stays a few megabytes.
const MAX_BATCH_BYTES: usize = 16 * 1024 * 1024;
/// Rows of one insert at most.
const MAX_BATCH_ROWS: usize = 1_000;
/// PostgreSQL's tables that are each engine's own, never copied: the migrations applied, and the
/// count ledger's unfolded deltas (emptied instead: the counts arrive folded).
const SUFFIX_DELTAS: &str = "_deltas";
const SUFFIX_FOLDED: &str = "_folded";
const OWN_TABLES: &[&str] = &["schema_migrations"];
/// Tables whose rows mean the database is in use: the copy goes into an empty one only.
const DATA_TABLES: &[&str] = &["users", "partners", "assets", "campaigns", "employees", "files"];

/// What a copy tells as it goes.
pub enum Progress<'a> {
    /// Both databases are checked and the copy begins.
    Started,
    /// A table is done.
    Copied(&'a Copied),
}

/// One table's rows on each side.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Copied {
    pub table: String,
    pub sqlite_rows: i64,
    pub postgres_rows: i64,
}

/// One maintained count on each side (a name of `row_counts`, a month's uses, ...).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CountCompared {
    pub table: String,
    pub key: String,
    pub sqlite: i64,
    pub postgres: i64,
}

#[derive(Debug, Default)]
pub struct CopyReport {
    pub tables: Vec<Copied>,
    pub counts: Vec<CountCompared>,
}

/// Copies everything in `from` (SQLite) into `to` (PostgreSQL, migrated to the same version and
/// holding no data yet). `progress` hears of the start once both are checked, then of each table
/// as it is done.
pub fn copy_to_postgres(
    from: &Connection,
    to: &mut Connection,
    mut progress: impl FnMut(Progress<'_>),
) -> anyhow::Result<CopyReport> {
    anyhow::ensure!(!from.is_postgres() && to.is_postgres(), "the copy goes from a SQLite file to PostgreSQL");
    let versions = |conn: &Connection| -> anyhow::Result<i64> {
        Ok(conn.query_row("SELECT COALESCE(MAX(version), 0) FROM schema_migrations", [], |r| r.get(0))?)
    };
    let (source_version, target_version) = (versions(from)?, versions(to)?);
    anyhow::ensure!(
        source_version == target_version,
        "the file is at schema version {source_version} and the PostgreSQL database at {target_version}: \
         open both with this perkdesk first"
    );
    for table in DATA_TABLES {
        let rows: i64 = to.query_row(&format!("SELECT COUNT(*) FROM {table}"), [], |r| r.get(0))?;
        if rows > 0 {
            bail!("the PostgreSQL database already holds data ({rows} rows in {table}): copy into an empty database");
        }
    }
    let tables = tables_parents_first(to)?;
    progress(Progress::Started);
    // One snapshot of the file, however long the copy takes.
    from.execute_batch("BEGIN")?;
    let outcome = copy_in_one_transaction(from, to, &tables, &mut progress);
    if let Err(error) = from.execute_batch("COMMIT") {
        tracing::warn!(%error, "cannot end the read of the SQLite file");
    }
    outcome
}

fn copy_in_one_transaction(
    from: &Connection,
    to: &mut Connection,
    tables: &[String],
    progress: &mut impl FnMut(Progress<'_>),
) -> anyhow::Result<CopyReport> {
    let tx = to.transaction()?;
    for table in tables {
        tx.execute_batch(&format!("ALTER TABLE {table} DISABLE TRIGGER USER"))?;
    }
    // What the migrations seeded (roles' rows, settings, the first signing key) gives way to the
    // installation's own rows; children first.
    for table in tables.iter().rev() {
        tx.execute_batch(&format!("DELETE FROM {table}"))?;
    }
    let mut report = CopyReport::default();
    let mut filled = Vec::new();
    for table in tables {
        if table.ends_with(SUFFIX_DELTAS) {
            continue;
        }
        let source = table.strip_suffix(SUFFIX_FOLDED).unwrap_or(table);
        let columns = columns_of(&tx, table)?;
        let sqlite_rows = copy_table(from, &tx, source, table, &columns)
            .with_context(|| format!("cannot copy the table {source}"))?;
        continue_sequence(from, &tx, source, table, &columns)?;
        let postgres_rows: i64 = tx.query_row(&format!("SELECT COUNT(*) FROM {table}"), [], |r| r.get(0))?;
        if postgres_rows > 0 {
            filled.push(table.as_str());
        }
        let copied = Copied { table: source.to_string(), sqlite_rows, postgres_rows };
        progress(Progress::Copied(&copied));
        report.tables.push(copied);
    }
    for table in tables {
        tx.execute_batch(&format!("ALTER TABLE {table} ENABLE TRIGGER USER"))?;
    }
    report.counts = compare_counts(from, &tx, tables)?;
    let differs: Vec<String> = report
        .tables
        .iter()
        .filter(|t| t.sqlite_rows != t.postgres_rows)
        .map(|t| format!("{} ({} / {})", t.table, t.sqlite_rows, t.postgres_rows))
        .chain(
            report
                .counts
                .iter()
                .filter(|c| c.sqlite != c.postgres)
                .map(|c| format!("{} {} ({} / {})", c.table, c.key, c.sqlite, c.postgres)),
        )
        .collect();
    if !differs.is_empty() {
        bail!("the copy differs from the file, nothing was kept: {}", differs.join(", "));
    }
    tx.commit()?;
    // The planner's statistics for the new rows now, not at autovacuum's next round: until then a
    // list of a million rows may be planned as if its table were empty (measured: the first page
    // sorted by name at 23 requests/s instead of 2,500). Only the tables that received rows: a
    // table measured empty is planned as empty (a sequential scan, cheapest over no rows) by every
    // connection that prepares a statement on it before autovacuum measures it again, which it
    // does only after 50 changes and within its next round (a minute), and the plan is kept
    // however the table grows meanwhile; the stored x-requestid answers' look-up then read every
    // answer stored since (measured: 2.8 ms a look-up eight seconds after a copy). A table never
    // measured is planned as one of some pages, through its indexes.
    if !filled.is_empty() {
        to.execute_batch(&format!("ANALYZE {}", filled.join(", ")))?;
    }
    Ok(report)
}

/// PostgreSQL's tables (but its own), every table after the tables it refers to.
fn tables_parents_first(conn: &Connection) -> anyhow::Result<Vec<String>> {
    let names: BTreeSet<String> = conn
        .prepare("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")?
        .query_map([], |r| r.get::<String>(0))?
        .filter(|name| name.as_ref().map_or(true, |name| !OWN_TABLES.contains(&name.as_str())))
        .collect::<Result<_, _>>()?;
    let mut parents: BTreeMap<String, BTreeSet<String>> = names.iter().map(|n| (n.clone(), BTreeSet::new())).collect();
    let edges: Vec<(String, String)> = conn
        .prepare(
            "SELECT conrelid::regclass::text, confrelid::regclass::text FROM pg_constraint
             WHERE contype = 'f' AND connamespace = 'public'::regnamespace",
        )?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<Result<_, _>>()?;
    for (child, parent) in edges {
        if child != parent
            && let Some(of_child) = parents.get_mut(&child)
        {
            of_child.insert(parent);
        }
    }
    let mut ordered = Vec::with_capacity(names.len());
    let mut placed: BTreeSet<String> = BTreeSet::new();
    while placed.len() < names.len() {
        let ready: Vec<String> = names
            .iter()
            .filter(|name| !placed.contains(*name))
            .filter(|name| parents[*name].iter().all(|parent| placed.contains(parent) || !names.contains(parent)))
            .cloned()
            .collect();
        anyhow::ensure!(!ready.is_empty(), "the tables' foreign keys go round in a circle");
        placed.extend(ready.iter().cloned());
        ordered.extend(ready);
    }
    Ok(ordered)
}

/// A PostgreSQL table's columns, in order, and whether each is its identity column.
fn columns_of(conn: &Connection, table: &str) -> anyhow::Result<Vec<(String, bool)>> {
    Ok(conn
        .prepare(
            "SELECT column_name, is_identity = 'YES' FROM information_schema.columns
             WHERE table_schema = 'public' AND table_name = ?1 ORDER BY ordinal_position",
        )?
        .query_map([table], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<Result<_, _>>()?)
}

/// The columns of a PostgreSQL table's primary key.
fn primary_key_of(conn: &Connection, table: &str) -> anyhow::Result<Vec<String>> {
    Ok(conn
        .prepare(
            "SELECT a.attname::text FROM pg_index i
             JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey)
             WHERE i.indrelid = CAST(?1 AS text)::regclass AND i.indisprimary ORDER BY a.attnum",
        )?
        .query_map([table], |r| r.get(0))?
        .collect::<Result<_, _>>()?)
}

/// Copies the rows of `source` (SQLite) into `target`, in batches; answers how many there were.
fn copy_table(
    from: &Connection,
    to: &Connection,
    source: &str,
    target: &str,
    columns: &[(String, bool)],
) -> anyhow::Result<i64> {
    let names: Vec<&str> = columns.iter().map(|(name, _)| name.as_str()).collect();
    let list = names.join(", ");
    let mut read = from.prepare(&format!("SELECT {list} FROM {source}"))?;
    let mut rows = read.query([])?;
    let per_row = names.len().max(1);
    let most_rows = (MAX_PARAMETERS / per_row).clamp(1, MAX_BATCH_ROWS);
    let mut batch: Vec<Value> = Vec::new();
    let (mut batch_bytes, mut copied) = (0usize, 0i64);
    let flush = |batch: &mut Vec<Value>| -> anyhow::Result<()> {
        if batch.is_empty() {
            return Ok(());
        }
        let count = batch.len() / per_row;
        let tuples: Vec<String> = (0..count)
            .map(|row| {
                let marks: Vec<String> = (1..=per_row).map(|column| format!("?{}", row * per_row + column)).collect();
                format!("({})", marks.join(", "))
            })
            .collect();
        let overriding = if columns.iter().any(|(_, identity)| *identity) { " OVERRIDING SYSTEM VALUE" } else { "" };
        to.execute(
            &format!("INSERT INTO {target} ({list}){overriding} VALUES {}", tuples.join(", ")),
            params_from_iter(batch.drain(..)),
        )?;
        Ok(())
    };
    while let Some(row) = rows.next()? {
        for index in 0..per_row {
            let value: Value = row.get(index)?;
            batch_bytes += match &value {
                Value::Text(text) => text.len(),
                Value::Blob(bytes) => bytes.len(),
                _ => 8,
            };
            batch.push(value);
        }
        copied += 1;
        if batch.len() / per_row >= most_rows || batch_bytes >= MAX_BATCH_BYTES {
            flush(&mut batch)?;
            batch_bytes = 0;
        }
    }
    flush(&mut batch)?;
    Ok(copied)
}

/// Sets the table's identity sequence after the highest id copied (SQLite gives the next row
/// the highest id plus one: none of its tables is AUTOINCREMENT).
fn continue_sequence(
    from: &Connection,
    to: &Connection,
    source: &str,
    target: &str,
    columns: &[(String, bool)],
) -> anyhow::Result<()> {
    let Some((identity, _)) = columns.iter().find(|(_, identity)| *identity) else { return Ok(()) };
    let highest: Option<i64> = from.query_row(&format!("SELECT MAX({identity}) FROM {source}"), [], |r| r.get(0))?;
    if let Some(last) = highest.filter(|last| *last > 0) {
        to.query_row("SELECT setval(pg_get_serial_sequence(?1, ?2), ?3)", (target, identity.as_str(), last), |_| {
            Ok(())
        })?;
    }
    Ok(())
}

/// The maintained counts on both sides, key by key: SQLite's tables and PostgreSQL's views over
/// the ledger (the folded rows just copied, no deltas).
fn compare_counts(from: &Connection, to: &Connection, tables: &[String]) -> anyhow::Result<Vec<CountCompared>> {
    let mut compared = Vec::new();
    for folded in tables.iter().filter(|t| t.ends_with(SUFFIX_FOLDED)) {
        let view = folded.trim_end_matches(SUFFIX_FOLDED);
        let keys = primary_key_of(to, folded)?;
        let key = keys.iter().map(|k| format!("CAST({k} AS TEXT)")).collect::<Vec<_>>().join(" || '/' || ");
        let values: Vec<String> =
            columns_of(to, folded)?.into_iter().map(|(name, _)| name).filter(|name| !keys.contains(name)).collect();
        for value in &values {
            let read = |conn: &Connection| -> anyhow::Result<BTreeMap<String, i64>> {
                Ok(conn
                    .prepare(&format!("SELECT {key}, {value} FROM {view} WHERE {value} <> 0"))?
                    .query_map([], |r| Ok((r.get::<String>(0)?, r.get::<i64>(1)?)))?
                    .collect::<Result<_, _>>()?)
            };
            let (sqlite, postgres) = (read(from)?, read(to)?);
            let keys: BTreeSet<&String> = sqlite.keys().chain(postgres.keys()).collect();
            for name in keys {
                compared.push(CountCompared {
                    table: view.to_string(),
                    key: if values.len() > 1 { format!("{name} {value}") } else { name.clone() },
                    sqlite: sqlite.get(name).copied().unwrap_or(0),
                    postgres: postgres.get(name).copied().unwrap_or(0),
                });
            }
        }
    }
    Ok(compared)
}
