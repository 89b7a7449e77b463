//! Reads sent ahead: a query whose rows are wanted after the statements that follow it. On
//! PostgreSQL it travels with the next exchange (before that exchange's own statement, in one
//! round trip, as a deferred statement does), and its rows wait until they are read; on SQLite,
//! where a statement costs no round trip, it runs when its rows are read. So only a read whose
//! answer the statements in between cannot change is sent ahead: a lock's answer before the
//! read it guards, a clock before the data it dates.

use std::sync::mpsc;

use super::conn::Connection;
use super::error::{Error, Result};
use super::params::{Params, params_from_iter};
use super::statement::Row;
use super::value::Value;

/// A query sent ahead ([`Connection::read_ahead`]), read with [`ReadAhead::query_row`].
pub struct ReadAhead<'c> {
    conn: &'c Connection,
    waiting: Waiting,
}

enum Waiting {
    /// SQLite's: the statement and its values, run when read.
    Unsent(String, Vec<Value>),
    /// PostgreSQL's: the rows, handed over by the connection's thread once the exchange that
    /// carried the query has answered; none when that exchange failed.
    Sent(mpsc::Receiver<Vec<tokio_postgres::Row>>),
    /// Read, or never to be.
    Done,
}

/// A read sent ahead whose exchange failed before its rows came back (the failure was answered
/// to the statement that exchange carried).
const NOT_ANSWERED: &str = "a read sent ahead was not answered: the exchange that carried it failed";

impl Connection {
    /// Sends the query `sql` with `params` ahead of the next exchange (see the module's note);
    /// its rows are read with [`ReadAhead::query_row`].
    pub fn read_ahead(&self, sql: &str, params: impl Params) -> Result<ReadAhead<'_>> {
        let waiting = match self.pg_if_any() {
            Some(pg) => {
                let statement = pg.prepare(sql, true)?;
                let values = super::statement::gather(&statement, params)?;
                Waiting::Sent(pg.defer_read(statement, values))
            }
            None => Waiting::Unsent(sql.to_string(), super::statement::owned_values(params)?),
        };
        Ok(ReadAhead { conn: self, waiting })
    }
}

/// What a read sent ahead answers: SQLite's statement still to run, or PostgreSQL's rows.
enum Answer {
    Sqlite(String, Vec<Value>),
    Postgres(Vec<tokio_postgres::Row>),
}

impl ReadAhead<'_> {
    /// This read, no longer tied to its connection: read it later on the same one.
    pub fn detach(mut self) -> Detached {
        Detached(std::mem::replace(&mut self.waiting, Waiting::Done))
    }

    /// The first row, read by `read`; [`Error::NoRows`] when there is none. On PostgreSQL an
    /// exchange is made now if none has carried the query yet.
    pub fn query_row<T>(mut self, read: impl FnOnce(&Row<'_>) -> Result<T>) -> Result<T> {
        match self.answer()? {
            Answer::Sqlite(sql, values) => self.conn.prepare_cached(&sql)?.query_row(params_from_iter(values), read),
            Answer::Postgres(rows) => match rows.first() {
                Some(row) => read(&Row::of_postgres(row)),
                None => Err(Error::NoRows),
            },
        }
    }

    /// Every row, each read by `read`, as [`ReadAhead::query_row`] reads the first.
    pub fn query_all<T>(mut self, mut read: impl FnMut(&Row<'_>) -> Result<T>) -> Result<Vec<T>> {
        match self.answer()? {
            Answer::Sqlite(sql, values) => {
                self.conn.prepare_cached(&sql)?.query_map(params_from_iter(values), read)?.collect()
            }
            Answer::Postgres(rows) => rows.iter().map(|row| read(&Row::of_postgres(row))).collect(),
        }
    }

    fn answer(&mut self) -> Result<Answer> {
        match std::mem::replace(&mut self.waiting, Waiting::Done) {
            Waiting::Unsent(sql, values) => Ok(Answer::Sqlite(sql, values)),
            Waiting::Sent(rows) => Ok(Answer::Postgres(match rows.try_recv() {
                Ok(rows) => rows,
                Err(mpsc::TryRecvError::Empty) => {
                    self.conn.pg()?.flush()?;
                    rows.try_recv().map_err(|_| Error::Engine(NOT_ANSWERED))?
                }
                Err(mpsc::TryRecvError::Disconnected) => return Err(Error::Engine(NOT_ANSWERED)),
            })),
            Waiting::Done => Err(Error::Engine("a read sent ahead is read once")),
        }
    }
}

/// A read sent ahead, let go of the connection it was sent on ([`ReadAhead::detach`]) while other
/// work goes on on that connection, and read later on it ([`Detached::attach`]): a request's
/// check sent ahead of its handler's first exchange (`app::idempotency`). Dropped unread, its
/// rows are let go; the statement still goes with the connection's next exchange, or is
/// forgotten with its transaction's rollback.
pub struct Detached(Waiting);

impl Detached {
    /// The read again on `conn`, the connection it was sent on: an exchange is made when none has
    /// carried it yet.
    pub fn attach(self, conn: &Connection) -> ReadAhead<'_> {
        ReadAhead { conn, waiting: self.0 }
    }
}

impl Drop for ReadAhead<'_> {
    /// A query sent ahead and never read still goes before the connection is handed on, so it
    /// cannot ride with another user's exchange.
    fn drop(&mut self) {
        if let Waiting::Sent(rows) = &self.waiting
            && matches!(rows.try_recv(), Err(mpsc::TryRecvError::Empty))
            && let Ok(pg) = self.conn.pg()
        {
            let _ = pg.flush();
        }
    }
}
