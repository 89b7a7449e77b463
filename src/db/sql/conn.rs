//! Connections and transactions, the same for every module whichever engine is behind them (the
//! statements and rows they make are `statement.rs`'s). The methods keep the names and shapes the
//! code was written with (`query_row`, `prepare_cached`, `execute`), so a module reads as plain SQL
//! work.

use super::error::{Error, Result};
use super::params::Params;
use super::pg::Pg;
use super::statement::{CURSOR_BATCH, Row, Statement, StatementInner, from_sqlite, with_pg_params};
use super::value::{Value, ValueRef};
use crate::db::dialect::Isolation;

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
        Connection::connect_postgres_sharing(url, std::sync::Arc::default())
    }

    /// [`Connection::connect_postgres`] for a pool, whose connections share the ids they take
    /// ahead.
    pub(super) fn connect_postgres_sharing(url: &str, ids: std::sync::Arc<super::TakenIds>) -> Result<Connection> {
        Ok(Connection { engine: Engine::Postgres(Box::new(Pg::connect(url, ids)?)) })
    }

    /// An id of `table` no row has, for an insert sent with [`Connection::execute_later`]: on
    /// PostgreSQL inside a transaction, taken ahead from its sequence (`ids.rs`); `None` elsewhere,
    /// where an insert is answered at once and SQLite numbers the row itself.
    pub fn take_id(&self, table: &str) -> Result<Option<i64>> {
        match &self.engine {
            Engine::Postgres(pg) if pg.in_transaction.get() => pg.ids.next(self, table).map(Some),
            _ => Ok(None),
        }
    }

    /// Whether the connection to the server is gone (never, for SQLite's file).
    pub fn is_closed(&self) -> bool {
        match &self.engine {
            Engine::Sqlite(_) => false,
            Engine::Postgres(pg) => pg.is_closed(),
        }
    }

    /// Whether the server answered on this connection within `recently` (always, for SQLite's
    /// file).
    pub fn answered_within(&self, recently: std::time::Duration) -> bool {
        match &self.engine {
            Engine::Sqlite(_) => true,
            Engine::Postgres(pg) => pg.answered_within(recently),
        }
    }

    /// Whether the database is PostgreSQL: for `db` alone (its dialect, its opening); the layers
    /// above ask `is_shared` or the dialect.
    pub fn is_postgres(&self) -> bool {
        matches!(self.engine, Engine::Postgres(_))
    }

    /// Whether other app servers may share this connection's database (see `Db::is_shared`).
    pub fn is_shared(&self) -> bool {
        crate::db::dialect::Dialect::of(self).is_shared()
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

    /// The SQLite connection itself, to hand on (the pool's first); `None` for PostgreSQL's.
    pub(in crate::db) fn into_sqlite(self) -> Option<rusqlite::Connection> {
        match self.engine {
            Engine::Sqlite(conn) => Some(conn),
            Engine::Postgres(_) => None,
        }
    }

    /// Runs one statement; returns how many rows it changed.
    pub fn execute(&self, sql: &str, params: impl Params) -> Result<usize> {
        self.prepare(sql)?.execute(params)
    }

    /// Runs a statement whose answer nobody reads, inside the open transaction: on PostgreSQL it
    /// is sent with the next statement that is read (or the commit), in the same round trip, and
    /// a failure of it is answered there; on SQLite, and outside a transaction, it runs now.
    pub fn execute_later(&self, sql: &str, params: impl Params) -> Result<()> {
        match &self.engine {
            Engine::Postgres(pg) if pg.in_transaction.get() => self.execute_ahead(sql, params),
            _ => self.prepare_cached(sql)?.execute(params).map(drop),
        }
    }

    /// Runs a statement whose answer nobody reads with the next exchange, in a transaction or
    /// out of one (a lock taken before a transaction begins: `Db::claim_then_look_up`); on
    /// SQLite it runs now.
    pub fn execute_ahead(&self, sql: &str, params: impl Params) -> Result<()> {
        match &self.engine {
            Engine::Postgres(pg) => {
                let statement = pg.prepare(sql, true)?;
                let values = super::statement::gather(&statement, params)?;
                pg.defer(statement, values);
                Ok(())
            }
            Engine::Sqlite(_) => self.prepare_cached(sql)?.execute(params).map(drop),
        }
    }

    /// [`Connection::execute_later`] for statements that take no parameters (a savepoint's).
    pub fn execute_batch_later(&self, sql: &str) -> Result<()> {
        match &self.engine {
            Engine::Postgres(pg) if pg.in_transaction.get() => {
                pg.defer_text(sql);
                Ok(())
            }
            _ => self.execute_batch(sql),
        }
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

    /// A statement compiled for one use. On PostgreSQL it is kept as [`Connection::prepare_cached`]
    /// keeps one: compiling is a round trip of its own there, which the next use of the same text
    /// is spared.
    pub fn prepare(&self, sql: &str) -> Result<Statement<'_>> {
        let inner = match &self.engine {
            Engine::Sqlite(conn) => StatementInner::Sqlite(conn.prepare(sql)?),
            Engine::Postgres(pg) => StatementInner::Postgres(pg.prepare(sql, true)?, sql.to_string()),
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
        let begin = self.begin_write_sql(Isolation::Serializable);
        Transaction::begin(self, begin)
    }

    fn begin_write_sql(&self, isolation: Isolation) -> &'static str {
        crate::db::dialect::Dialect::of(self).begin_write(isolation)
    }

    /// Begins a write transaction (as [`Connection::write_transaction`]) that stays open across
    /// calls, for a writer that shares it (the group commit); end it with [`Connection::commit`]
    /// or [`Connection::rollback`].
    pub fn begin_write(&self, isolation: Isolation) -> Result<()> {
        self.begin(self.begin_write_sql(isolation))
    }

    /// Begins a transaction with `begin`; on PostgreSQL the statement goes with the transaction's
    /// first exchange.
    fn begin(&self, begin: &str) -> Result<()> {
        match &self.engine {
            Engine::Sqlite(_) => self.execute_batch(begin)?,
            Engine::Postgres(pg) => pg.defer_text(begin),
        }
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
        // On PostgreSQL these go with the next statement read (see `execute_batch_later`).
        let outcome = self.execute_batch_later("SAVEPOINT attempt").map_err(E::from).and_then(|()| work(self));
        self.execute_batch_later(match outcome {
            Ok(_) => "RELEASE attempt",
            Err(_) => "ROLLBACK TO attempt; RELEASE attempt",
        })?;
        outcome
    }

    /// Rolls the open transaction back (with the statements deferred in it, never sent).
    pub fn rollback(&self) -> Result<()> {
        self.set_in_transaction(false);
        if let Engine::Postgres(pg) = &self.engine {
            pg.discard_deferred();
        }
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
                    if let tokio_postgres::SimpleQueryMessage::Row(found) = message {
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

    /// The PostgreSQL connection beneath, when it is one.
    pub(super) fn pg_if_any(&self) -> Option<&Pg> {
        match &self.engine {
            Engine::Postgres(pg) => Some(pg),
            Engine::Sqlite(_) => None,
        }
    }

    /// The PostgreSQL connection, for an exchange with its client.
    pub(super) fn pg(&self) -> Result<&Pg> {
        self.pg_if_any().ok_or(Error::Engine("a PostgreSQL statement on a SQLite connection"))
    }

    /// Declares a cursor over `sql` with `values` and answers its name and its FETCH statement.
    /// Inside a transaction the cursor lives as long as it; outside one it is held past the
    /// statement (the server keeps the result, spilling to disk past `work_mem`), and the rows
    /// close it either way.
    pub(super) fn declare_cursor(&self, sql: &str, values: &[Value]) -> Result<(String, tokio_postgres::Statement)> {
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
        conn.begin(begin)?;
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
        if self.open
            && !self.conn.is_autocommit()
            && let Err(error) = self.conn.rollback()
        {
            tracing::error!(%error, "cannot roll back a transaction");
        }
    }
}
