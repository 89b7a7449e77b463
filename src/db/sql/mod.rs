//! The seam between perkdesk and its database engine. Every module outside `db` reaches the
//! database through these types and never names the driver: a connection, its transactions and
//! statements, rows, values, and one error type that says whether a write broke a constraint.
//! SQL is written by hand with `?N` placeholders.

mod conn;
mod error;
mod params;
mod pg;
mod reconnecting;
mod statement;
mod value;

#[cfg(test)]
mod tests;

pub use conn::{Connection, Transaction};
pub use error::{Error, OptionalExtension, Result, is_foreign_key, on_constraint};
pub(crate) use params::params;
pub use params::{Binder, Params, ParamsFromIter, params_from_iter};
pub use reconnecting::Reconnecting;
pub use statement::{MappedRows, Place, Row, RowIndex, Rows, Statement};
pub use value::{FromSql, FromSqlError, ToSql, Value, ValueRef};

/// Hands the pool connections behind the seam: SQLite's, or PostgreSQL's at a URL.
pub enum Manager {
    // Boxed: SQLite's manager takes 256 bytes, a URL 24.
    Sqlite(Box<r2d2_sqlite::SqliteConnectionManager>),
    Postgres(String),
}

impl r2d2::ManageConnection for Manager {
    type Connection = Connection;
    type Error = Error;

    fn connect(&self) -> Result<Connection> {
        match self {
            Manager::Sqlite(manager) => Ok(manager.connect().map(Connection::from_sqlite)?),
            Manager::Postgres(url) => Connection::connect_postgres(url),
        }
    }

    fn is_valid(&self, conn: &mut Connection) -> Result<()> {
        match (self, conn.sqlite_mut()) {
            (Manager::Sqlite(manager), Some(conn)) => Ok(manager.is_valid(conn)?),
            (Manager::Postgres(_), None) => conn.execute_batch(""),
            _ => Err(Error::Engine("a connection of another engine in the pool")),
        }
    }

    fn has_broken(&self, conn: &mut Connection) -> bool {
        match (self, conn.sqlite_mut()) {
            (Manager::Sqlite(manager), Some(conn)) => manager.has_broken(conn),
            (Manager::Postgres(_), None) => conn.is_closed(),
            _ => true,
        }
    }
}
