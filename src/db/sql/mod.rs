//! The seam between perkdesk and its database engine. Every module outside `db` reaches the
//! database through these types and never names the driver: a connection, its transactions and
//! statements, rows, values, and one error type that says whether a write broke a constraint.
//! SQL is written by hand with `?N` placeholders.

mod ahead;
mod conn;
mod error;
mod ids;
mod params;
mod pg;
mod reconnecting;
mod statement;
mod value;

#[cfg(test)]
mod tests;

pub use ahead::{Detached, ReadAhead};
pub use conn::{Connection, Transaction};
pub use error::{Error, OptionalExtension, Result, is_foreign_key, on_constraint};
pub use ids::TakenIds;
pub(crate) use params::params;
pub use params::{Binder, Params, ParamsFromIter, params_from_iter};
pub use pg::{driving_here, round_trips};
pub use reconnecting::Reconnecting;
pub use statement::{MappedRows, Place, Row, RowIndex, Rows, Statement};
pub use value::{FromSql, FromSqlError, ToSql, Value, ValueRef};

/// How recently the server must have answered on a PostgreSQL connection for the pool to hand it
/// out untested (HikariCP's default).
const ALIVE_WITHOUT_TEST: std::time::Duration = std::time::Duration::from_millis(500);

/// Hands the pool connections behind the seam: SQLite's, or PostgreSQL's at a URL.
pub enum Manager {
    // Boxed: SQLite's manager takes 256 bytes, a URL 24.
    Sqlite(Box<SqliteManager>),
    /// The server's URL, and the ids the pool's connections have taken ahead (`ids.rs`).
    Postgres(String, std::sync::Arc<TakenIds>),
}

impl Manager {
    /// The connections to the PostgreSQL server at `url`, sharing the ids they take ahead.
    pub fn postgres(url: &str) -> Manager {
        Manager::Postgres(url.to_string(), std::sync::Arc::default())
    }
}

/// Opens the pool's SQLite connections; the first it hands out is the one the database was
/// opened and migrated with, if given: it has read the schema already, which costs every new
/// connection some milliseconds at its first statement.
pub struct SqliteManager {
    manager: r2d2_sqlite::SqliteConnectionManager,
    opened: std::sync::Mutex<Option<rusqlite::Connection>>,
}

impl SqliteManager {
    pub fn new(manager: r2d2_sqlite::SqliteConnectionManager, opened: Option<rusqlite::Connection>) -> SqliteManager {
        SqliteManager { manager, opened: std::sync::Mutex::new(opened) }
    }

    fn connect(&self) -> rusqlite::Result<rusqlite::Connection> {
        let opened = self.opened.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).take();
        match opened {
            Some(conn) => Ok(conn),
            None => r2d2::ManageConnection::connect(&self.manager),
        }
    }
}

impl r2d2::ManageConnection for Manager {
    type Connection = Connection;
    type Error = Error;

    fn connect(&self) -> Result<Connection> {
        match self {
            Manager::Sqlite(manager) => Ok(manager.connect().map(Connection::from_sqlite)?),
            Manager::Postgres(url, ids) => Connection::connect_postgres_sharing(url, ids.clone()),
        }
    }

    fn is_valid(&self, conn: &mut Connection) -> Result<()> {
        let answered_recently = conn.answered_within(ALIVE_WITHOUT_TEST);
        match (self, conn.sqlite_mut()) {
            (Manager::Sqlite(manager), Some(conn)) => Ok(manager.manager.is_valid(conn)?),
            // A connection the server answered moments ago is taken as alive, as HikariCP's
            // `aliveBypassWindowMs` does: the test exchange was a round trip in every request's
            // path (one per check-out) under load, and a connection that breaks in between fails
            // like one that breaks during a statement.
            (Manager::Postgres(..), None) if answered_recently => Ok(()),
            (Manager::Postgres(..), None) => conn.execute_batch(""),
            _ => Err(Error::Engine("a connection of another engine in the pool")),
        }
    }

    fn has_broken(&self, conn: &mut Connection) -> bool {
        match (self, conn.sqlite_mut()) {
            (Manager::Sqlite(manager), Some(conn)) => manager.manager.has_broken(conn),
            (Manager::Postgres(..), None) => conn.is_closed(),
            _ => true,
        }
    }
}
