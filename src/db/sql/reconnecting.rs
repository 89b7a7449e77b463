//! A PostgreSQL connection a component keeps of its own, outside the pool (the change clock's
//! watcher, the cluster's locking connection), opened anew whenever the server closed it: a
//! restart, or a failover to the standby behind a URL with several hosts.

use super::conn::Connection;
use super::error::Result;

pub struct Reconnecting {
    url: String,
    /// Run on every new connection before it is used (its session's settings).
    setup: String,
    conn: Option<Connection>,
    /// How many connections were opened: what a session held (its advisory locks) went with
    /// the connection it was taken on, and a later generation does not hold it.
    generation: u64,
}

impl Reconnecting {
    /// Nothing is opened until the first [`Reconnecting::get`].
    pub fn new(url: &str, setup: impl Into<String>) -> Reconnecting {
        Reconnecting { url: url.to_string(), setup: setup.into(), conn: None, generation: 0 }
    }

    /// The open connection and its generation, opened anew (a new generation) when there is none
    /// or the server closed it.
    pub fn get(&mut self) -> Result<(&Connection, u64)> {
        match self.conn.take() {
            Some(conn) if !conn.is_closed() => Ok((self.conn.insert(conn), self.generation)),
            _ => {
                self.generation += 1;
                let conn = Connection::connect_postgres(&self.url)?;
                if !self.setup.is_empty() {
                    conn.execute_batch(&self.setup)?;
                }
                Ok((self.conn.insert(conn), self.generation))
            }
        }
    }

    /// Lets the connection go after a failure that may mean the server is lost (a broken
    /// socket is not always seen as closed yet): the next [`Reconnecting::get`] opens anew.
    pub fn forget(&mut self) {
        self.conn = None;
    }
}
