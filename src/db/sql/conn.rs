//! Connections, transactions, statements and rows, the same for every module whichever engine is
//! behind them. The methods keep the names and shapes the code was written with (`query_row`,
//! `prepare_cached`, `execute`, `row.get(0)`), so a module reads as plain SQL work.

use super::error::{Error, Result};
use super::params::{Binder, Params};
use super::value::{FromSql, ValueRef};

/// An open connection to the database.
pub struct Connection {
    engine: Engine,
}

enum Engine {
    Sqlite(rusqlite::Connection),
}

impl Connection {
    pub(in crate::db) fn from_sqlite(conn: rusqlite::Connection) -> Connection {
        Connection { engine: Engine::Sqlite(conn) }
    }

    /// A private database in memory, gone when the connection closes.
    pub fn open_in_memory() -> Result<Connection> {
        Ok(Connection::from_sqlite(rusqlite::Connection::open_in_memory()?))
    }

    /// The SQLite connection beneath, for the engine's own settings (functions, PRAGMAs).
    pub(in crate::db) fn sqlite(&self) -> &rusqlite::Connection {
        match &self.engine {
            Engine::Sqlite(conn) => conn,
        }
    }

    pub(in crate::db) fn sqlite_mut(&mut self) -> &mut rusqlite::Connection {
        match &mut self.engine {
            Engine::Sqlite(conn) => conn,
        }
    }

    /// Runs one statement; returns how many rows it changed.
    pub fn execute(&self, sql: &str, params: impl Params) -> Result<usize> {
        self.prepare(sql)?.execute(params)
    }

    /// Runs statements that take no parameters and return no rows, one after the other.
    pub fn execute_batch(&self, sql: &str) -> Result<()> {
        match &self.engine {
            Engine::Sqlite(conn) => Ok(conn.execute_batch(sql)?),
        }
    }

    /// The first row of a query, read by `read`; [`Error::NoRows`] when there is none.
    pub fn query_row<T>(&self, sql: &str, params: impl Params, read: impl FnOnce(&Row<'_>) -> Result<T>) -> Result<T> {
        self.prepare(sql)?.query_row(params, read)
    }

    /// A statement compiled for one use.
    pub fn prepare(&self, sql: &str) -> Result<Statement<'_>> {
        match &self.engine {
            Engine::Sqlite(conn) => Ok(Statement { conn: self, inner: StatementInner::Sqlite(conn.prepare(sql)?) }),
        }
    }

    /// A statement kept compiled on this connection for the next use of the same text.
    pub fn prepare_cached(&self, sql: &str) -> Result<Statement<'_>> {
        match &self.engine {
            Engine::Sqlite(conn) => {
                Ok(Statement { conn: self, inner: StatementInner::SqliteCached(conn.prepare_cached(sql)?) })
            }
        }
    }

    /// Runs an INSERT of one row and returns the new row's `id`. The id comes from the statement
    /// itself, never from the session (a trigger's own insert cannot be taken for it).
    pub fn insert(&self, sql: &str, params: impl Params) -> Result<i64> {
        self.prepare(sql)?.insert(params)
    }

    /// True outside a transaction (or after the database rolled one back on its own).
    pub fn is_autocommit(&self) -> bool {
        match &self.engine {
            Engine::Sqlite(conn) => conn.is_autocommit(),
        }
    }

    /// A transaction that takes the write lock when it first writes (reads see one snapshot).
    pub fn transaction(&mut self) -> Result<Transaction<'_>> {
        Transaction::begin(self, "BEGIN")
    }

    /// A transaction that takes the write lock at once, so its reads and writes cannot be
    /// overtaken by another writer between them.
    pub fn write_transaction(&mut self) -> Result<Transaction<'_>> {
        Transaction::begin(self, "BEGIN IMMEDIATE")
    }

    /// Runs each statement of `sql` in turn, handing every row's values to `row`.
    pub fn each_statement_row(
        &self,
        sql: &str,
        mut row: impl FnMut(&[ValueRef<'_>]) -> anyhow::Result<()>,
    ) -> anyhow::Result<()> {
        use fallible_iterator::FallibleIterator;
        match &self.engine {
            Engine::Sqlite(conn) => {
                let mut batch = rusqlite::Batch::new(conn, sql);
                while let Some(mut statement) = batch.next()? {
                    let columns = statement.column_count();
                    let mut rows = statement.raw_query();
                    while let Some(found) = rows.next()? {
                        let values = (0..columns)
                            .map(|index| found.get_ref(index).map(from_sqlite))
                            .collect::<rusqlite::Result<Vec<_>>>()?;
                        row(&values)?;
                    }
                }
                Ok(())
            }
        }
    }
}

/// A transaction: rolled back when dropped unless committed.
pub struct Transaction<'c> {
    conn: &'c Connection,
    open: bool,
}

impl<'c> Transaction<'c> {
    fn begin(conn: &'c mut Connection, begin: &str) -> Result<Transaction<'c>> {
        conn.execute_batch(begin)?;
        Ok(Transaction { conn, open: true })
    }

    pub fn commit(mut self) -> Result<()> {
        self.open = false;
        self.conn.execute_batch("COMMIT")
    }

    pub fn rollback(mut self) -> Result<()> {
        self.open = false;
        self.conn.execute_batch("ROLLBACK")
    }
}

impl std::ops::Deref for Transaction<'_> {
    type Target = Connection;

    fn deref(&self) -> &Connection {
        self.conn
    }
}

impl Drop for Transaction<'_> {
    fn drop(&mut self) {
        if self.open
            && !self.conn.is_autocommit()
            && let Err(error) = self.conn.execute_batch("ROLLBACK")
        {
            tracing::error!(%error, "cannot roll back a transaction");
        }
    }
}

/// A compiled statement.
pub struct Statement<'c> {
    conn: &'c Connection,
    inner: StatementInner<'c>,
}

enum StatementInner<'c> {
    Sqlite(rusqlite::Statement<'c>),
    SqliteCached(rusqlite::CachedStatement<'c>),
}

/// Binds a statement's parameters by position, and checks that every one was given.
struct SqliteBinder<'s, 'c> {
    statement: &'s mut rusqlite::Statement<'c>,
    given: usize,
}

impl Binder for SqliteBinder<'_, '_> {
    fn bind(&mut self, value: ValueRef<'_>) -> Result<()> {
        self.given += 1;
        if self.given > self.statement.parameter_count() {
            return Err(Error::ParameterCount { expected: self.statement.parameter_count(), given: self.given });
        }
        Ok(self.statement.raw_bind_parameter(self.given, ToSqlite(value))?)
    }
}

/// A value handed to SQLite as it is, without a copy.
struct ToSqlite<'a>(ValueRef<'a>);

impl rusqlite::ToSql for ToSqlite<'_> {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        use rusqlite::types::ValueRef as Sqlite;
        Ok(rusqlite::types::ToSqlOutput::Borrowed(match self.0 {
            ValueRef::Null => Sqlite::Null,
            ValueRef::Integer(n) => Sqlite::Integer(n),
            ValueRef::Real(x) => Sqlite::Real(x),
            ValueRef::Text(text) => Sqlite::Text(text),
            ValueRef::Blob(bytes) => Sqlite::Blob(bytes),
        }))
    }
}

fn from_sqlite(value: rusqlite::types::ValueRef<'_>) -> ValueRef<'_> {
    use rusqlite::types::ValueRef as Sqlite;
    match value {
        Sqlite::Null => ValueRef::Null,
        Sqlite::Integer(n) => ValueRef::Integer(n),
        Sqlite::Real(x) => ValueRef::Real(x),
        Sqlite::Text(text) => ValueRef::Text(text),
        Sqlite::Blob(bytes) => ValueRef::Blob(bytes),
    }
}

impl<'c> Statement<'c> {
    fn sqlite(&mut self) -> &mut rusqlite::Statement<'c> {
        match &mut self.inner {
            StatementInner::Sqlite(statement) => statement,
            StatementInner::SqliteCached(statement) => statement,
        }
    }

    /// Binds `params`, refusing too few or too many.
    fn bind(&mut self, params: impl Params) -> Result<()> {
        let statement = self.sqlite();
        let mut binder = SqliteBinder { statement, given: 0 };
        params.bind_to(&mut binder)?;
        let expected = binder.statement.parameter_count();
        if binder.given != expected {
            return Err(Error::ParameterCount { expected, given: binder.given });
        }
        Ok(())
    }

    /// Runs the statement; returns how many rows it changed.
    pub fn execute(&mut self, params: impl Params) -> Result<usize> {
        self.bind(params)?;
        Ok(self.sqlite().raw_execute()?)
    }

    /// Runs an INSERT of one row and returns the new row's `id`.
    pub fn insert(&mut self, params: impl Params) -> Result<i64> {
        match self.execute(params)? {
            1 => match &self.conn.engine {
                Engine::Sqlite(conn) => Ok(conn.last_insert_rowid()),
            },
            changed => Err(Error::InsertedRows(changed)),
        }
    }

    /// The rows of the query, one at a time.
    pub fn query(&mut self, params: impl Params) -> Result<Rows<'_>> {
        self.bind(params)?;
        Ok(Rows { inner: RowsInner::Sqlite(self.sqlite().raw_query()) })
    }

    /// Each row of the query read by `read`.
    pub fn query_map<T, F>(&mut self, params: impl Params, read: F) -> Result<MappedRows<'_, F>>
    where
        F: FnMut(&Row<'_>) -> Result<T>,
    {
        Ok(MappedRows { rows: self.query(params)?, read })
    }

    /// The first row, read by `read`; [`Error::NoRows`] when there is none.
    pub fn query_row<T>(&mut self, params: impl Params, read: impl FnOnce(&Row<'_>) -> Result<T>) -> Result<T> {
        let mut rows = self.query(params)?;
        match rows.next()? {
            Some(row) => read(&row),
            None => Err(Error::NoRows),
        }
    }

    pub fn column_count(&self) -> usize {
        match &self.inner {
            StatementInner::Sqlite(statement) => statement.column_count(),
            StatementInner::SqliteCached(statement) => statement.column_count(),
        }
    }
}

/// The rows of a running query.
pub struct Rows<'s> {
    inner: RowsInner<'s>,
}

enum RowsInner<'s> {
    Sqlite(rusqlite::Rows<'s>),
}

impl Rows<'_> {
    /// The next row, or `None` after the last. Not an `Iterator`: each row borrows the cursor
    /// (rusqlite's and SQLite's own shape), which `Iterator::next` cannot express.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Result<Option<Row<'_>>> {
        match &mut self.inner {
            RowsInner::Sqlite(rows) => Ok(rows.next()?.map(|row| Row { inner: RowInner::Sqlite(row) })),
        }
    }
}

/// The rows of a query, each read as its caller asked.
pub struct MappedRows<'s, F> {
    rows: Rows<'s>,
    read: F,
}

impl<T, F> Iterator for MappedRows<'_, F>
where
    F: FnMut(&Row<'_>) -> Result<T>,
{
    type Item = Result<T>;

    fn next(&mut self) -> Option<Result<T>> {
        match self.rows.next() {
            Ok(Some(row)) => Some((self.read)(&row)),
            Ok(None) => None,
            Err(error) => Some(Err(error)),
        }
    }
}

/// One row of a query's result.
pub struct Row<'r> {
    inner: RowInner<'r>,
}

enum RowInner<'r> {
    Sqlite(&'r rusqlite::Row<'r>),
}

impl Row<'_> {
    /// Column `index` (from 0) read as `T`.
    pub fn get<T: FromSql>(&self, index: usize) -> Result<T> {
        T::from_sql(self.get_ref(index)?).map_err(|error| Error::column(index, std::any::type_name::<T>(), error))
    }

    /// Column `index` (from 0) as it is stored.
    pub fn get_ref(&self, index: usize) -> Result<ValueRef<'_>> {
        match &self.inner {
            RowInner::Sqlite(row) => Ok(from_sqlite(row.get_ref(index)?)),
        }
    }
}
