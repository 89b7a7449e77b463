//! The seam between perkdesk and its database engine. Every module outside `db` reaches the
//! database through these types and never names the driver: a connection, its transactions and
//! statements, rows, values, and one error type that says whether a write broke a constraint.
//! SQL is written by hand with `?N` placeholders.

mod conn;
mod error;
mod params;
mod pg;
mod value;

#[cfg(test)]
mod tests;

pub use conn::{Connection, MappedRows, Row, Rows, Statement, Transaction};
pub use error::{Error, OptionalExtension, Result, is_foreign_key, on_constraint};
pub(crate) use params::params;
pub use params::{Binder, Params, ParamsFromIter, params_from_iter};
pub use value::{FromSql, FromSqlError, ToSql, Value, ValueRef};

/// Hands the pool connections behind the seam.
pub struct Manager(pub(super) r2d2_sqlite::SqliteConnectionManager);

impl r2d2::ManageConnection for Manager {
    type Connection = Connection;
    type Error = rusqlite::Error;

    fn connect(&self) -> rusqlite::Result<Connection> {
        self.0.connect().map(Connection::from_sqlite)
    }

    fn is_valid(&self, conn: &mut Connection) -> rusqlite::Result<()> {
        match conn.sqlite_mut() {
            Some(conn) => self.0.is_valid(conn),
            None => Err(rusqlite::Error::InvalidQuery),
        }
    }

    fn has_broken(&self, conn: &mut Connection) -> bool {
        conn.sqlite_mut().is_none_or(|conn| self.0.has_broken(conn))
    }
}
