//! Everything SQLite and PostgreSQL spell differently for the layers above `db`, one function each
//! with one implementation per engine (`sqlite.rs`, `postgres.rs`), as Directus keeps a helper per
//! difference: how a text column sorts and continues from a remembered row, how a column is tested
//! for holding a term, which search index (if any) answers a search of a table, whether other app
//! servers share the database, how a write transaction begins and what the change clock reads.
//! Callers ask the connection's [`Dialect`] and never which engine it is. What an engine builds in
//! its own schema (the counts' ledger, the activity log's and the trash's triggers) is spelled by
//! that engine's file beside the code that installs it (`activity/{sqlite,postgres}.rs`,
//! `trash.rs`), and its migrations are its own (`migrations/`, `migrations/postgres/`).

mod postgres;
mod sqlite;

use super::sql::{Connection, Value};

pub use sqlite::SearchIndex;

/// How a write transaction is kept apart from the writes beside it (PostgreSQL's; SQLite runs one
/// writer at a time, so any of them is the same there).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Isolation {
    /// As if alone: any read-then-write is safe, and a write that loses to a concurrent one is
    /// undone and its request run again (`app::retry`). For writes whose reads may decide on rows
    /// another writer changes at the same moment, with no lock of their own.
    #[default]
    Serializable,
    /// Read committed: each statement sees what was committed before it began, and the write
    /// takes the rows its decision rests on with row locks ([`Dialect::lock_rows`]) or changes them
    /// in single statements (upserts, conditional updates). Writers of other rows never fail each
    /// other, and writers of the same rows wait for each other instead of failing: for the
    /// writes many servers make at once (a discount's use).
    RowLocks,
}

/// The SQL spelling of one engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Dialect {
    /// The default engine: one file.
    #[default]
    Sqlite,
    Postgres,
}

impl Dialect {
    pub fn of(conn: &Connection) -> Dialect {
        if conn.is_postgres() { Dialect::Postgres } else { Dialect::Sqlite }
    }

    /// The ORDER BY term of a text column, spelled as its sort index is built (the Azerbaijani
    /// alphabet: SQLite's sort key `az_key(column)`, PostgreSQL's ICU collation).
    pub fn text_order(self, column: &str) -> String {
        match self {
            Dialect::Sqlite => sqlite::text_order(column),
            Dialect::Postgres => postgres::text_order(column),
        }
    }

    /// What a statement reads as a row's text sort value, to continue from that row later.
    pub fn text_anchor(self, column: &str) -> String {
        match self {
            Dialect::Sqlite => sqlite::text_order(column),
            Dialect::Postgres => column.to_string(),
        }
    }

    /// The remembered row (its text sort `value` and `id`) and the rows after it in the order
    /// (`comparison` `>=` or `<=`), with the condition's parameters, so the sort index is sought
    /// rather than walked.
    pub fn text_at_or_after(
        self,
        column: &str,
        id: &str,
        comparison: &str,
        value: Value,
        anchor: i64,
    ) -> (String, Vec<Value>) {
        match self {
            Dialect::Sqlite => sqlite::text_at_or_after(column, id, comparison, value, anchor),
            Dialect::Postgres => postgres::text_at_or_after(column, id, comparison, value, anchor),
        }
    }

    /// The test that `column` holds `term` (case and Azerbaijani letters folded, wildcards taken
    /// literally), with its one parameter.
    pub fn contains(self, column: &str, term: &str) -> (String, Value) {
        match self {
            Dialect::Sqlite => sqlite::contains(column, term),
            Dialect::Postgres => postgres::contains(column, term),
        }
    }

    /// The index that answers searches of `table` on its own (SQLite's trigram FTS5 tables),
    /// or `None` where a row test is served by the table's own indexes (PostgreSQL's trigram GIN
    /// indexes on the folded columns).
    pub fn search_index(self, table: &str) -> Option<SearchIndex> {
        match self {
            Dialect::Sqlite => sqlite::search_index(table),
            Dialect::Postgres => None,
        }
    }

    /// The statement that begins a write transaction: SQLite takes the one write lock at once
    /// (no upgrade from a read lock to fail later), whatever the isolation asked, since its
    /// writers never overlap; PostgreSQL runs it serializable, or read committed for a write that
    /// takes the rows it decides on with row locks ([`Isolation::RowLocks`]).
    pub fn begin_write(self, isolation: Isolation) -> &'static str {
        match (self, isolation) {
            (Dialect::Sqlite, _) => "BEGIN IMMEDIATE",
            (Dialect::Postgres, Isolation::Serializable) => "BEGIN ISOLATION LEVEL SERIALIZABLE",
            (Dialect::Postgres, Isolation::RowLocks) => "BEGIN ISOLATION LEVEL READ COMMITTED",
        }
    }

    /// What ends a SELECT whose rows the write then decides on (`alias` the row's table): on
    /// PostgreSQL under [`Isolation::RowLocks`] the rows are locked until the commit, so a
    /// concurrent writer of the same rows waits and then reads what this one wrote (`NO KEY`: rows
    /// that refer to them may still be written); SQLite's writers never overlap.
    pub fn lock_rows(self, alias: &str) -> String {
        match self {
            Dialect::Sqlite => String::new(),
            Dialect::Postgres => format!("FOR NO KEY UPDATE OF {alias}"),
        }
    }

    /// The change clock's query, one value (column 0) that differs after any commit of another
    /// connection: SQLite's `data_version`, an integer, read by the pragma itself (its table
    /// function, `pragma_data_version`, prepares the pragma anew at every read, a third of a list's
    /// cost of reading the clock); PostgreSQL's current snapshot as text, whose upper bound only
    /// grows and under one bound the in-progress ids only leave.
    pub fn change_clock(self) -> &'static str {
        match self {
            Dialect::Sqlite => "PRAGMA data_version",
            Dialect::Postgres => "SELECT pg_current_snapshot()::text AS clock",
        }
    }

    /// What ends a SELECT of rows to claim (`alias` the claimed table's): PostgreSQL locks them
    /// and skips the rows another server is claiming, instead of waiting for it; SQLite has one
    /// writer at a time, so nothing to skip.
    pub fn skip_locked(self, alias: &str) -> String {
        match self {
            Dialect::Sqlite => String::new(),
            Dialect::Postgres => format!("FOR UPDATE OF {alias} SKIP LOCKED"),
        }
    }

    /// Whether other app servers may share the database (a PostgreSQL cluster): their writes can
    /// conflict with this one's, and shared upkeep is done by one of them.
    pub fn is_shared(self) -> bool {
        self == Dialect::Postgres
    }
}
