//! Connections, transactions, statements and rows, the same for every module whichever engine is
//! behind them. The methods keep the names and shapes the code was written with (`query_row`,
//! `prepare_cached`, `execute`, `row.get(0)`), so a module reads as plain SQL work.

use super::error::{Error, Result};
use super::params::{Binder, Params};
use super::pg::{Column, Param, Pg};
use super::value::{FromSql, Value, ValueRef};

/// An open connection to the database.
pub struct Connection {
    engine: Engine,
}

enum Engine {
    Sqlite(rusqlite::Connection),
    // Boxed: a client is three times a SQLite handle, and the pool holds SQLite ones.
    Postgres(Box<Pg>),
}

impl Connection {
    pub(in crate::db) fn from_sqlite(conn: rusqlite::Connection) -> Connection {
        Connection { engine: Engine::Sqlite(conn) }
    }

    /// A private SQLite database in memory, gone when the connection closes.
    pub fn open_in_memory() -> Result<Connection> {
        Ok(Connection::from_sqlite(rusqlite::Connection::open_in_memory()?))
    }

    /// A connection to the PostgreSQL server at `url` (`postgres://user@host:port/db`).
    pub fn connect_postgres(url: &str) -> Result<Connection> {
        Ok(Connection { engine: Engine::Postgres(Box::new(Pg::connect(url)?)) })
    }

    /// Whether the connection to the server is gone (never, for SQLite's file).
    pub fn is_closed(&self) -> bool {
        match &self.engine {
            Engine::Sqlite(_) => false,
            Engine::Postgres(pg) => pg.call(|client| client.is_closed()).unwrap_or(true),
        }
    }

    /// Whether the database is PostgreSQL: for the few statements the engines spell apart (the
    /// lists' searches, answered by SQLite's FTS5 tables or PostgreSQL's trigram indexes).
    pub fn is_postgres(&self) -> bool {
        matches!(self.engine, Engine::Postgres(_))
    }

    /// The SQLite connection beneath, for that engine's own settings (functions, PRAGMAs); `None`
    /// on another engine.
    pub(in crate::db) fn sqlite(&self) -> Option<&rusqlite::Connection> {
        match &self.engine {
            Engine::Sqlite(conn) => Some(conn),
            Engine::Postgres(_) => None,
        }
    }

    pub(in crate::db) fn sqlite_mut(&mut self) -> Option<&mut rusqlite::Connection> {
        match &mut self.engine {
            Engine::Sqlite(conn) => Some(conn),
            Engine::Postgres(_) => None,
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
            Engine::Postgres(pg) => {
                let sql = sql.to_string();
                Ok(pg.call(move |client| client.batch_execute(&sql))??)
            }
        }
    }

    /// The first row of a query, read by `read`; [`Error::NoRows`] when there is none.
    pub fn query_row<T>(&self, sql: &str, params: impl Params, read: impl FnOnce(&Row<'_>) -> Result<T>) -> Result<T> {
        self.prepare(sql)?.query_row(params, read)
    }

    /// A statement compiled for one use.
    pub fn prepare(&self, sql: &str) -> Result<Statement<'_>> {
        let inner = match &self.engine {
            Engine::Sqlite(conn) => StatementInner::Sqlite(conn.prepare(sql)?),
            Engine::Postgres(pg) => StatementInner::Postgres(pg.prepare(sql, false)?, sql.to_string()),
        };
        Ok(Statement { conn: self, inner })
    }

    /// A statement kept compiled on this connection for the next use of the same text.
    pub fn prepare_cached(&self, sql: &str) -> Result<Statement<'_>> {
        let inner = match &self.engine {
            Engine::Sqlite(conn) => StatementInner::SqliteCached(conn.prepare_cached(sql)?),
            Engine::Postgres(pg) => StatementInner::Postgres(pg.prepare(sql, true)?, sql.to_string()),
        };
        Ok(Statement { conn: self, inner })
    }

    /// Runs an INSERT of one row and returns the new row's `id`. The id comes from the statement
    /// itself, never from the session, so a trigger's own insert cannot be taken for it.
    pub fn insert(&self, sql: &str, params: impl Params) -> Result<i64> {
        match &self.engine {
            Engine::Sqlite(conn) => match self.prepare_cached(sql)?.execute(params)? {
                1 => Ok(conn.last_insert_rowid()),
                changed => Err(Error::InsertedRows(changed)),
            },
            Engine::Postgres(_) => {
                let mut statement = self.prepare_cached(&format!("{sql} RETURNING id"))?;
                let mut rows = statement.query(params)?;
                let id = match rows.next()? {
                    Some(row) => row.get::<i64>(0)?,
                    None => return Err(Error::InsertedRows(0)),
                };
                let mut inserted = 1;
                while rows.next()?.is_some() {
                    inserted += 1;
                }
                if inserted == 1 { Ok(id) } else { Err(Error::InsertedRows(inserted)) }
            }
        }
    }

    /// True outside a transaction (or after the database rolled one back on its own).
    pub fn is_autocommit(&self) -> bool {
        match &self.engine {
            Engine::Sqlite(conn) => conn.is_autocommit(),
            Engine::Postgres(pg) => !pg.in_transaction.get(),
        }
    }

    /// A transaction that takes the write lock when it first writes (reads see one snapshot).
    pub fn transaction(&mut self) -> Result<Transaction<'_>> {
        Transaction::begin(self, "BEGIN")
    }

    /// A transaction whose reads and writes no other writer can come between: SQLite takes its
    /// one write lock at once; PostgreSQL runs it serializable.
    pub fn write_transaction(&mut self) -> Result<Transaction<'_>> {
        let begin = self.begin_write_sql();
        Transaction::begin(self, begin)
    }

    fn begin_write_sql(&self) -> &'static str {
        match self.engine {
            Engine::Sqlite(_) => "BEGIN IMMEDIATE",
            Engine::Postgres(_) => "BEGIN ISOLATION LEVEL SERIALIZABLE",
        }
    }

    /// Begins a write transaction (as [`Connection::write_transaction`]) that stays open across
    /// calls, for a writer that shares it (the group commit); end it with [`Connection::commit`]
    /// or [`Connection::rollback`].
    pub fn begin_write(&self) -> Result<()> {
        self.execute_batch(self.begin_write_sql())?;
        self.set_in_transaction(true);
        Ok(())
    }

    /// Commits the open transaction. On PostgreSQL a transaction that a failed statement aborted
    /// would answer COMMIT by rolling back without an error; here that is an error, and the
    /// transaction is rolled back.
    pub fn commit(&self) -> Result<()> {
        self.set_in_transaction(false);
        match &self.engine {
            Engine::Sqlite(_) => self.execute_batch("COMMIT"),
            // The probe fails in an aborted transaction, which stops the batch before the COMMIT.
            Engine::Postgres(_) => self.execute_batch("SELECT 1; COMMIT").inspect_err(|_| {
                if let Err(error) = self.execute_batch("ROLLBACK") {
                    tracing::error!(%error, "cannot roll back a transaction that failed to commit");
                }
            }),
        }
    }

    /// Runs `work` in a savepoint of the open transaction: its failure undoes only its own work
    /// and leaves the transaction usable, so the caller may go on after it. SQLite undoes just a
    /// failed statement anyway; PostgreSQL aborts the whole transaction on one unless a savepoint
    /// holds it. Nested ones share the name: both engines end the innermost of that name.
    pub fn savepoint<T, E: From<Error>>(
        &self,
        work: impl FnOnce(&Connection) -> std::result::Result<T, E>,
    ) -> std::result::Result<T, E> {
        let outcome = self.execute_batch("SAVEPOINT attempt").map_err(E::from).and_then(|()| work(self));
        self.execute_batch(match outcome {
            Ok(_) => "RELEASE attempt",
            Err(_) => "ROLLBACK TO attempt; RELEASE attempt",
        })?;
        outcome
    }

    /// Rolls the open transaction back.
    pub fn rollback(&self) -> Result<()> {
        self.set_in_transaction(false);
        self.execute_batch("ROLLBACK")
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
            // The simple protocol answers every value as text, as psql shows it.
            Engine::Postgres(pg) => {
                let sql = sql.to_string();
                for message in pg.call(move |client| client.simple_query(&sql))?? {
                    if let postgres::SimpleQueryMessage::Row(found) = message {
                        let values: Vec<ValueRef<'_>> = (0..found.len())
                            .map(|index| {
                                found.get(index).map_or(ValueRef::Null, |text| ValueRef::Text(text.as_bytes()))
                            })
                            .collect();
                        row(&values)?;
                    }
                }
                Ok(())
            }
        }
    }

    /// The PostgreSQL connection, for an exchange with its client.
    fn pg(&self) -> Result<&Pg> {
        match &self.engine {
            Engine::Postgres(pg) => Ok(pg),
            Engine::Sqlite(_) => Err(Error::Engine("a PostgreSQL statement on a SQLite connection")),
        }
    }

    /// Declares a cursor over `sql` with `values` and answers its name and its FETCH statement.
    /// Inside a transaction the cursor lives as long as it; outside one it is held past the
    /// statement (the server keeps the result, spilling to disk past `work_mem`), and the rows
    /// close it either way.
    fn declare_cursor(&self, sql: &str, values: &[Value]) -> Result<(String, postgres::Statement)> {
        let Engine::Postgres(pg) = &self.engine else {
            return Err(Error::Engine("a PostgreSQL cursor on a SQLite connection"));
        };
        let name = pg.next_cursor_name();
        let hold = if pg.in_transaction.get() { "WITHOUT HOLD" } else { "WITH HOLD" };
        let declare = pg.prepare(&format!("DECLARE {name} NO SCROLL CURSOR {hold} FOR {sql}"), false)?;
        let values = values.to_vec();
        pg.call(move |client| with_pg_params(&values, |params| client.execute(&declare, params)))??;
        let fetch = pg.prepare(&format!("FETCH {CURSOR_BATCH} FROM {name}"), false)?;
        Ok((name, fetch))
    }

    fn set_in_transaction(&self, open: bool) {
        if let Engine::Postgres(pg) = &self.engine {
            pg.in_transaction.set(open);
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
        conn.set_in_transaction(true);
        Ok(Transaction { conn, open: true })
    }

    pub fn commit(mut self) -> Result<()> {
        self.open = false;
        self.conn.commit()
    }

    pub fn rollback(mut self) -> Result<()> {
        self.open = false;
        self.conn.rollback()
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
        if self.open && !self.conn.is_autocommit() {
            self.conn.set_in_transaction(false);
            if let Err(error) = self.conn.execute_batch("ROLLBACK") {
                tracing::error!(%error, "cannot roll back a transaction");
            }
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
    /// The compiled statement and its text, for a cursor over it.
    Postgres(postgres::Statement, String),
}

/// A statement as its engine holds it.
enum Side<'s, 'c> {
    Sqlite(&'s mut rusqlite::Statement<'c>),
    Postgres(&'s postgres::Statement, &'c Connection),
}

/// Binds `params` to a SQLite statement, refusing too few or too many.
fn bind_sqlite(statement: &mut rusqlite::Statement<'_>, params: impl Params) -> Result<()> {
    let mut binder = SqliteBinder { statement, given: 0 };
    params.bind_to(&mut binder)?;
    let expected = binder.statement.parameter_count();
    if binder.given != expected {
        return Err(Error::ParameterCount { expected, given: binder.given });
    }
    Ok(())
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

/// Gathers a PostgreSQL statement's values (copied: they are sent after binding ends).
struct OwnedBinder {
    values: Vec<Value>,
}

impl Binder for OwnedBinder {
    fn bind(&mut self, value: ValueRef<'_>) -> Result<()> {
        self.values.push(value.to_owned());
        Ok(())
    }
}

/// The values of `params` for a PostgreSQL statement, checked against its parameter count.
fn gather(statement: &postgres::Statement, params: impl Params) -> Result<Vec<Value>> {
    let mut binder = OwnedBinder { values: Vec::new() };
    params.bind_to(&mut binder)?;
    let expected = statement.params().len();
    if binder.values.len() != expected {
        return Err(Error::ParameterCount { expected, given: binder.values.len() });
    }
    Ok(binder.values)
}

/// Runs `work` with the values as the driver takes them.
fn with_pg_params<T>(values: &[Value], work: impl FnOnce(&[&(dyn postgres::types::ToSql + Sync)]) -> T) -> T {
    let params: Vec<Param<'_>> = values.iter().map(|value| Param(ValueRef::from(value))).collect();
    let refs: Vec<&(dyn postgres::types::ToSql + Sync)> =
        params.iter().map(|param| param as &(dyn postgres::types::ToSql + Sync)).collect();
    work(&refs)
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
    /// The engine's statement, with the connection a PostgreSQL one runs on.
    fn side(&mut self) -> Side<'_, 'c> {
        match &mut self.inner {
            StatementInner::Sqlite(statement) => Side::Sqlite(statement),
            StatementInner::SqliteCached(statement) => Side::Sqlite(statement),
            StatementInner::Postgres(statement, _) => Side::Postgres(statement, self.conn),
        }
    }

    /// Runs the statement; returns how many rows it changed.
    pub fn execute(&mut self, params: impl Params) -> Result<usize> {
        match self.side() {
            Side::Sqlite(statement) => {
                bind_sqlite(statement, params)?;
                Ok(statement.raw_execute()?)
            }
            Side::Postgres(statement, conn) => {
                let values = gather(statement, params)?;
                let statement = statement.clone();
                let changed = conn
                    .pg()?
                    .call(move |client| with_pg_params(&values, |params| client.execute(&statement, params)))??;
                Ok(changed as usize)
            }
        }
    }

    /// The rows of the query, one at a time.
    pub fn query(&mut self, params: impl Params) -> Result<Rows<'_>> {
        match self.side() {
            Side::Sqlite(statement) => {
                bind_sqlite(statement, params)?;
                Ok(Rows { inner: RowsInner::Sqlite(statement.raw_query()) })
            }
            Side::Postgres(statement, conn) => {
                let values = gather(statement, params)?;
                // The rows are read whole: the driver's row stream borrows the connection for as
                // long as it is read, which a row handed back through the seam would outlive.
                let statement = statement.clone();
                let rows = conn
                    .pg()?
                    .call(move |client| with_pg_params(&values, |params| client.query(&statement, params)))??;
                Ok(Rows { inner: RowsInner::Postgres { rows: rows.into_iter(), current: None } })
            }
        }
    }

    /// The rows of a query too large to hold at once (an export, a report): on PostgreSQL read
    /// through a cursor, [`CURSOR_BATCH`] rows per exchange, so memory holds one batch; on
    /// SQLite the same as [`Statement::query`], which steps through the rows one at a time.
    pub fn query_in_batches(&mut self, params: impl Params) -> Result<Rows<'_>> {
        let StatementInner::Postgres(statement, text) = &self.inner else {
            return self.query(params);
        };
        let values = gather(statement, params)?;
        let (name, fetch) = self.conn.declare_cursor(text, &values)?;
        Ok(Rows {
            inner: RowsInner::PostgresCursor {
                conn: self.conn,
                name,
                fetch,
                batch: Vec::new().into_iter(),
                current: None,
                done: false,
            },
        })
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
            StatementInner::Postgres(statement, _) => statement.columns().len(),
        }
    }
}

/// The rows of a running query.
pub struct Rows<'s> {
    inner: RowsInner<'s>,
}

enum RowsInner<'s> {
    Sqlite(rusqlite::Rows<'s>),
    Postgres {
        rows: std::vec::IntoIter<postgres::Row>,
        current: Option<postgres::Row>,
    },
    /// A cursor read a batch at a time; `done` once a batch came back short.
    PostgresCursor {
        conn: &'s Connection,
        name: String,
        fetch: postgres::Statement,
        batch: std::vec::IntoIter<postgres::Row>,
        current: Option<postgres::Row>,
        done: bool,
    },
}

/// Rows a cursor hands over per exchange: few enough that a batch of wide rows stays small in
/// memory, many enough that the round trips cost little beside the rows.
pub const CURSOR_BATCH: usize = 1000;

impl Drop for Rows<'_> {
    /// A cursor is closed however the reading ends. A failure is left unsaid: the transaction it
    /// lived in has failed (and the cursor with it), or the connection is gone.
    fn drop(&mut self) {
        if let RowsInner::PostgresCursor { conn, name, .. } = &self.inner
            && let Ok(pg) = conn.pg()
        {
            let close = format!("CLOSE {name}");
            let _ = pg.call(move |client| client.batch_execute(&close));
        }
    }
}

impl Rows<'_> {
    /// The next row, or `None` after the last. Not an `Iterator`: each row borrows the cursor
    /// (rusqlite's and SQLite's own shape), which `Iterator::next` cannot express.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Result<Option<Row<'_>>> {
        match &mut self.inner {
            RowsInner::Sqlite(rows) => Ok(rows.next()?.map(|row| Row { inner: RowInner::Sqlite(row) })),
            RowsInner::Postgres { rows, current } => {
                *current = rows.next();
                Ok(current.as_ref().map(|row| Row { inner: RowInner::Postgres(row) }))
            }
            RowsInner::PostgresCursor { conn, fetch, batch, current, done, .. } => {
                *current = batch.next();
                if current.is_none() && !*done {
                    let statement = fetch.clone();
                    let rows = conn.pg()?.call(move |client| client.query(&statement, &[]))??;
                    *done = rows.len() < CURSOR_BATCH;
                    *batch = rows.into_iter();
                    *current = batch.next();
                }
                Ok(current.as_ref().map(|row| Row { inner: RowInner::Postgres(row) }))
            }
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
    Postgres(&'r postgres::Row),
}

impl Row<'_> {
    /// The column `index` names (its name in the statement, or its place from 0) read as `T`.
    pub fn get<T: FromSql>(&self, index: impl RowIndex) -> Result<T> {
        T::from_sql(self.get_ref(index)?)
            .map_err(|error| Error::column(index.to_string(), std::any::type_name::<T>(), error))
    }

    /// The column `index` names as it is stored.
    pub fn get_ref(&self, index: impl RowIndex) -> Result<ValueRef<'_>> {
        match (&self.inner, index.place()) {
            (RowInner::Sqlite(row), Place::At(at)) => Ok(from_sqlite(row.get_ref(at)?)),
            (RowInner::Sqlite(row), Place::Named(name)) => Ok(from_sqlite(row.get_ref(name)?)),
            (RowInner::Postgres(row), Place::At(at)) => Ok(row.try_get::<_, Column<'_>>(at)?.0),
            (RowInner::Postgres(row), Place::Named(name)) => Ok(row.try_get::<_, Column<'_>>(name)?.0),
        }
    }
}

/// Which column of a row: its name in the statement (`"first_name"`, an alias), or its place from 0.
pub trait RowIndex: Copy + std::fmt::Display {
    #[doc(hidden)]
    fn place(self) -> Place<'static>;
}

#[doc(hidden)]
pub enum Place<'a> {
    At(usize),
    Named(&'a str),
}

impl RowIndex for usize {
    fn place(self) -> Place<'static> {
        Place::At(self)
    }
}

impl RowIndex for &'static str {
    fn place(self) -> Place<'static> {
        Place::Named(self)
    }
}
