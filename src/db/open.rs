//! Opening a database: the SQLite file (made owner-only, WAL before the migrations, every
//! connection configured and given perkdesk's functions) or a PostgreSQL server by its URL, each
//! with its pool and change clock, migrated and with the declared triggers made.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use r2d2_sqlite::SqliteConnectionManager;

use super::batch::Queue;
use super::cluster::Cluster;
use super::sql::{self, Connection};
use super::turns::Turns;
use super::{
    CountCache, DEFAULT_POSTGRES_CONNECTIONS, Db, Declared, Location, POOL_SIZE, POSTGRES_POOL_SIZE, activity,
    collation, migrate, search_queue, text,
};
use crate::core::owner_only;

/// Per-connection settings. The page cache is bounded (4 MB, 32 MB for the pool) so memory stays
/// small under load; the operating system caches the file beneath it. Every
/// connection serves every kind of request, so its prepared statements are kept for all of them
/// (rusqlite keeps 16 by default, fewer than one recorded use and a list read prepare between them,
/// and a statement on a table with triggers compiles the triggers too).
fn configure(conn: &mut rusqlite::Connection) -> rusqlite::Result<()> {
    conn.set_prepared_statement_cache_capacity(256);
    register_functions(conn)?;
    conn.execute_batch(
        "PRAGMA foreign_keys = ON;
         PRAGMA busy_timeout = 5000;
         PRAGMA synchronous = NORMAL;
         PRAGMA cache_size = -4096;
         PRAGMA temp_store = MEMORY;",
    )
}

/// The functions and the collation every perkdesk SQLite connection has: the activity log's
/// writer and changes (its triggers call them: a connection without them cannot write an audited
/// table), the search's folding, the `az` collation and its sort key, and the search indexes'
/// deferral (`search_queue.rs`). A
/// connection opened beside the pool (a test's second writer) registers them to read and write the
/// file as perkdesk does.
pub fn register_functions(conn: &rusqlite::Connection) -> rusqlite::Result<()> {
    activity::register(conn)?;
    text::register(conn)?;
    collation::register(conn)?;
    search_queue::register(conn)
}

/// Connections the pool opens before the server starts: none. They are opened as requests need
/// them, and kept (no idle timeout: a connection keeps its prepared statements). Each SQLite
/// connection reads the whole schema at its first statement (every table's triggers), some
/// milliseconds each: opening all eight was most of the start-up. The first one handed out on
/// SQLite is the connection the database was migrated with, which has read it already.
const POOL_OPENED_AT_START: u32 = 0;

impl Db {
    /// Opens the database `--db` names (see [`Location`]), applies its migrations and makes the
    /// triggers the resources' declarations ask for (handed down by the app layer).
    pub fn open(db: &Path, declared: &Declared) -> anyhow::Result<Db> {
        match Location::parse(db) {
            Location::File(path) => Db::open_file(&path, declared),
            Location::Postgres(url) => Db::open_postgres(&url, declared),
        }
    }

    /// Connects to the PostgreSQL database at `url` and applies its migrations (app servers
    /// starting together take turns). Each write has a transaction of its own (`batch::Queue::solo`).
    fn open_postgres(url: &str, declared: &Declared) -> anyhow::Result<Db> {
        let location = Location::Postgres(url.to_string());
        let shown = location.describe();
        let mut conn =
            Connection::connect_postgres(url).with_context(|| format!("cannot connect to the database {shown}"))?;
        migrate(&mut conn, declared).context("cannot apply the database migrations")?;
        let pool = r2d2::Pool::builder()
            .max_size(POSTGRES_POOL_SIZE)
            .min_idle(Some(POOL_OPENED_AT_START))
            .idle_timeout(None)
            .connection_timeout(Duration::from_secs(10))
            .build(sql::Manager::postgres(url))
            .context("cannot open the connection pool")?;
        let counts = Arc::new(CountCache::open_postgres(url).context("cannot open the database")?);
        let turns = Arc::new(Turns::new(DEFAULT_POSTGRES_CONNECTIONS, POSTGRES_POOL_SIZE as usize));
        let cluster = Arc::new(Cluster::postgres(url));
        Ok(Db { writers: Queue::solo(pool.clone(), turns.clone()), pool, turns, location, counts, cluster })
    }

    /// Opens (creating if needed) the database file, switches it to WAL and applies migrations.
    fn open_file(path: &Path, declared: &Declared) -> anyhow::Result<Db> {
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            anyhow::ensure!(parent.is_dir(), "the folder {} does not exist", parent.display());
        }
        // Made here, owner-only, before SQLite opens it: its WAL and shared memory follow its mode.
        owner_only::create_file(path).with_context(|| format!("cannot create the database {}", path.display()))?;
        if owner_only::open_to_others(path) {
            tracing::warn!(
                database = %path.display(),
                "the database file can be read by other accounts of this machine (it holds password hashes and \
                 authenticator secrets); make it the owner's alone: chmod 600 {}",
                path.display()
            );
        }
        let opened = {
            let mut sqlite = rusqlite::Connection::open(path)
                .with_context(|| format!("cannot open the database {}", path.display()))?;
            configure(&mut sqlite)?;
            sqlite.pragma_update(None, "journal_mode", "WAL")?;
            let mut conn = Connection::from_sqlite(sqlite);
            migrate(&mut conn, declared).context("cannot apply the database migrations")?;
            if let Some(sqlite) = conn.sqlite_mut() {
                collation::rebuild_if_changed(sqlite)
                    .context("cannot rebuild the sort indexes in the Azerbaijani collation")?;
            }
            conn.into_sqlite()
        };
        // Every connection registers the functions the activity log's triggers call.
        let manager = SqliteConnectionManager::file(path).with_init(configure);
        let pool = r2d2::Pool::builder()
            .max_size(POOL_SIZE)
            .min_idle(Some(POOL_OPENED_AT_START))
            .idle_timeout(None)
            .connection_timeout(Duration::from_secs(10))
            // A connection to a local file does not go stale between uses: no test statement at
            // every check-out (one per request, about 1.5 % of a list's time).
            .test_on_check_out(false)
            .build(sql::Manager::Sqlite(Box::new(sql::SqliteManager::new(manager, opened))))
            .context("cannot open the connection pool")?;
        let counts = Arc::new(CountCache::open(path).context("cannot open the database")?);
        let turns = Arc::new(Turns::new(POOL_SIZE as usize, POOL_SIZE as usize));
        let location = Location::File(path.to_path_buf());
        let cluster = Arc::new(Cluster::sqlite());
        Ok(Db { writers: Queue::new(pool.clone(), turns.clone()), pool, turns, location, counts, cluster })
    }
}
