//! SQLite behind an r2d2 pool: PRAGMAs on every connection, WAL before migrations,
//! blocking work off the async runtime, and writes that take turns on a shared transaction.

pub mod activity;
pub mod actor;
pub mod backup;
mod batch;
mod cluster;
pub mod collation;
pub mod copy;
mod counts;
pub mod dialect;
mod migrations;
pub mod schema;
mod search_queue;
pub mod sql;
mod text;
pub mod trash;
pub mod triggers;
mod unit;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use r2d2_sqlite::SqliteConnectionManager;
use tokio::sync::Semaphore;

use crate::core::error::{AppError, AppResult};
use crate::core::owner_only;

pub use actor::Actor;
use batch::Queue;
pub use cluster::Claim;
use cluster::Cluster;
pub use counts::{Anchor, CountCache, lock};
pub use migrations::{MIGRATIONS, POSTGRES_MIGRATIONS, SCHEMA_VERSION, migrate};
use sql::{Connection, Transaction};
pub use text::fold_search;
pub use triggers::Declared;
pub use unit::Unit;

pub type Pool = r2d2::Pool<sql::Manager>;
pub type PooledConnection = r2d2::PooledConnection<sql::Manager>;

/// `perkdesk backup` (and the scheduled copies) on PostgreSQL.
pub const POSTGRES_BACKUP: &str = "perkdesk backs up SQLite files; back up PostgreSQL with its own tools (pg_dump, or pgBackRest for a cluster with a standby): see docs/operations.md";

/// Connections in the pool, and so requests that touch the database at the same moment.
const POOL_SIZE: u32 = 8;

#[derive(Clone)]
pub struct Db {
    pool: Pool,
    /// Hands out the pool's connections first come, first served. Waiting inside r2d2 instead
    /// parks a blocking thread per request and wakes them in no order, which shows as a long
    /// latency tail once more requests arrive than there are connections.
    turns: Arc<Semaphore>,
    /// Writers take turns here, first come, first served, and share one transaction (see
    /// `batch`). SQLite admits one writer at a time; left to its busy handler, the others sleep
    /// and retry with growing pauses, and under many concurrent writes that shows as a tail of
    /// hundreds of milliseconds.
    writers: Queue,
    location: Location,
    counts: Arc<CountCache>,
    /// Claims and the background work's leader among the app servers (`cluster`).
    cluster: Arc<Cluster>,
}

/// Where the database is: `--db` names a SQLite file (`sqlite://` before it allowed), or a
/// PostgreSQL server by its URL (`postgres://` or `postgresql://`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Location {
    File(PathBuf),
    Postgres(String),
}

impl Location {
    pub fn parse(db: &Path) -> Location {
        let text = db.to_string_lossy();
        if text.starts_with("postgres://") || text.starts_with("postgresql://") {
            return Location::Postgres(text.into_owned());
        }
        match text.strip_prefix("sqlite://") {
            Some(file) => Location::File(PathBuf::from(file)),
            None => Location::File(db.to_path_buf()),
        }
    }

    /// The location as a log line may show it: a URL's password never.
    pub fn describe(&self) -> String {
        match self {
            Location::File(path) => path.display().to_string(),
            Location::Postgres(url) => match url.split_once("://").and_then(|(scheme, rest)| {
                let (credentials, host) = rest.rsplit_once('@')?;
                let user = credentials.split(':').next().unwrap_or_default();
                Some(format!("{scheme}://{user}@{host}"))
            }) {
                Some(shown) => shown,
                None => url.clone(),
            },
        }
    }
}

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
    /// starting together take turns). Writes take turns on this server as on SQLite.
    fn open_postgres(url: &str, declared: &Declared) -> anyhow::Result<Db> {
        let location = Location::Postgres(url.to_string());
        let shown = location.describe();
        let mut conn =
            Connection::connect_postgres(url).with_context(|| format!("cannot connect to the database {shown}"))?;
        migrate(&mut conn, declared).context("cannot apply the database migrations")?;
        let pool = r2d2::Pool::builder()
            .max_size(POOL_SIZE)
            .connection_timeout(Duration::from_secs(10))
            .build(sql::Manager::Postgres(url.to_string()))
            .context("cannot open the connection pool")?;
        let counts = Arc::new(CountCache::open_postgres(url).context("cannot open the database")?);
        let turns = Arc::new(Semaphore::new(POOL_SIZE as usize));
        let cluster = Arc::new(Cluster::postgres(url));
        Ok(Db { writers: Queue::new(pool.clone(), turns.clone()), pool, turns, location, counts, cluster })
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
        {
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
        }
        // Every connection registers the functions the activity log's triggers call.
        let manager = SqliteConnectionManager::file(path).with_init(configure);
        let pool = r2d2::Pool::builder()
            .max_size(POOL_SIZE)
            .connection_timeout(Duration::from_secs(10))
            .build(sql::Manager::Sqlite(Box::new(manager)))
            .context("cannot open the connection pool")?;
        let counts = Arc::new(CountCache::open(path).context("cannot open the database")?);
        let turns = Arc::new(Semaphore::new(POOL_SIZE as usize));
        let location = Location::File(path.to_path_buf());
        let cluster = Arc::new(Cluster::sqlite());
        Ok(Db { writers: Queue::new(pool.clone(), turns.clone()), pool, turns, location, counts, cluster })
    }

    /// The SQLite file; `None` on PostgreSQL.
    pub fn path(&self) -> Option<&Path> {
        match &self.location {
            Location::File(path) => Some(path),
            Location::Postgres(_) => None,
        }
    }

    pub fn location(&self) -> &Location {
        &self.location
    }

    pub fn is_postgres(&self) -> bool {
        matches!(self.location, Location::Postgres(_))
    }

    /// Claims `name` among the app servers sharing the database (see `cluster`): `None` while
    /// another server holds it; released when the claim is dropped.
    pub async fn claim(&self, name: &str) -> AppResult<Option<Claim>> {
        self.cluster.claim(name).await
    }

    /// The app servers sharing the database, as last counted (1 on SQLite): a rate limit is
    /// shared out among them.
    pub fn servers(&self) -> usize {
        self.cluster.servers()
    }

    /// Counts the app servers sharing the database anew (see [`Db::servers`]).
    pub async fn count_servers(&self) -> AppResult<usize> {
        self.cluster.count_servers().await
    }

    /// Whether this server does the shared background work now (always, on SQLite).
    pub async fn leads(&self) -> AppResult<bool> {
        self.cluster.leads().await
    }

    /// The remembered totals of filtered lists.
    pub fn counts(&self) -> Arc<CountCache> {
        self.counts.clone()
    }

    /// A connection for synchronous callers (CLI commands, tests).
    pub fn conn(&self) -> AppResult<PooledConnection> {
        Ok(self.pool.get()?)
    }

    /// Runs blocking SQLite work on the blocking thread pool. Inside a request whose write is
    /// still open, the work runs on that connection, so it sees what the request wrote.
    pub async fn run<T, F>(&self, work: F) -> AppResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&mut Connection) -> AppResult<T> + Send + 'static,
    {
        if let Some(unit) = Unit::current()
            && let Some(mut open) = unit.take()
        {
            let (open, result) = as_caller(move || {
                let result = open.conn().and_then(work);
                (open, result)
            })
            .await?;
            unit.put(open);
            return result;
        }
        let pool = self.pool.clone();
        let turn = self.turns.clone().acquire_owned().await.map_err(|_| anyhow::anyhow!("the database is closing"))?;
        as_caller(move || {
            let mut conn = pool.get()?;
            let result = work(&mut conn);
            // The connection goes back before the turn, so the next in line finds it free.
            drop(conn);
            drop(turn);
            result
        })
        .await?
    }

    /// Runs a point look-up (a row by a unique key) on the calling thread, without the hand-over
    /// to the blocking pool that [`Db::run`] pays. That hand-over, a wake-up on each side, costs
    /// more than such a read, and every authenticated request makes one or two of them. Reads in
    /// WAL mode never wait for writers, and the turn is taken before the connection, so the
    /// thread never waits either. Anything that may scan goes through [`Db::run`].
    pub async fn look_up<T, F>(&self, work: F) -> AppResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&Connection) -> AppResult<T> + Send + 'static,
    {
        // A PostgreSQL look-up is a round trip to the server: never on the async thread.
        if Unit::current().is_some_and(|unit| unit.has_open()) || self.is_postgres() {
            return self.run(move |conn| work(conn)).await;
        }
        let _turn = self.turns.acquire().await.map_err(|_| anyhow::anyhow!("the database is closing"))?;
        let conn = self.pool.get()?;
        work(&conn)
    }

    /// Runs `work` so that all of it is written, or none of it, and returns once it is committed.
    /// Inside an idempotent request the work stays open until [`Db::finish_unit`] records the
    /// answer beside it.
    pub async fn write<T, F>(&self, work: F) -> AppResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&Connection) -> AppResult<T> + Send + 'static,
    {
        let Some(unit) = Unit::current().filter(|unit| !unit.is_split()) else {
            return self.write_now(work).await;
        };
        if let Some(first) = unit.take() {
            // A second write in one request: the first is kept and committed on its own, and the
            // answer will be recorded in a write of its own.
            unit.mark_split();
            let committed = tokio::task::spawn_blocking(move || keep_and_end(first)).await??;
            self.writers.committed(committed).await?;
            return self.write_now(work).await;
        }
        let (turn, value) = work_in_turn(self.writers.turn().await?, work).await?;
        unit.put(turn);
        Ok(value)
    }

    /// [`Db::write`] for a point write: one record's insert or change with its triggers, and the
    /// record read back (a declared resource's create or edit, a recorded use). On SQLite, a
    /// writer that joins a shared transaction already open runs on the calling thread: its work
    /// only touches that transaction's pages, costing less than the hand-over to the blocking pool
    /// and back, a wake-up on each side that the writers' queue waited through while the turn was
    /// held (it halved the inbound writes at 32 connections). Beginning a transaction, which may
    /// wait for the file's write lock, and committing it, the WAL's write and at times its
    /// checkpoint, stay on the blocking pool, as does every PostgreSQL statement (a round trip).
    pub async fn write_point<T, F>(&self, work: F) -> AppResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&Connection) -> AppResult<T> + Send + 'static,
    {
        let unit = Unit::current().filter(|unit| !unit.is_split());
        if self.is_postgres() || unit.as_ref().is_some_and(|unit| unit.has_open()) {
            return self.write(work).await;
        }
        let mut turn = self.writers.turn().await?;
        if !turn.joins_open() {
            return match unit {
                Some(unit) => {
                    let (turn, value) = work_in_turn(turn, work).await?;
                    unit.put(turn);
                    Ok(value)
                }
                None => self.work_and_commit(turn, work).await,
            };
        }
        let value = match Actor::current().enter(|| turn.work(work)) {
            Ok(value) => value,
            Err(refused) => {
                commit_off_thread(turn.end_leaving_commit()).await?;
                return Err(refused);
            }
        };
        match unit {
            Some(unit) => unit.put(turn),
            None => self.keep_and_commit(turn).await?,
        }
        Ok(value)
    }

    /// Keeps a writer's work and ends its turn on the calling thread, runs the commit if it is due
    /// on the blocking pool, and waits for the commit that holds the work.
    async fn keep_and_commit(&self, mut turn: batch::Turn) -> AppResult<()> {
        // A work that cannot be kept is undone as the turn ends; a commit due for the others'
        // still goes to the pool.
        let kept = turn.keep();
        commit_off_thread(turn.end_leaving_commit()).await?;
        self.writers.committed(kept?).await
    }

    /// One write in its turn among writers, answered once committed.
    async fn write_now<T, F>(&self, work: F) -> AppResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&Connection) -> AppResult<T> + Send + 'static,
    {
        let turn = self.writers.turn().await?;
        self.work_and_commit(turn, work).await
    }

    /// Runs `work` in `turn` on the blocking pool, keeps it and waits for its commit.
    async fn work_and_commit<T, F>(&self, mut turn: batch::Turn, work: F) -> AppResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&Connection) -> AppResult<T> + Send + 'static,
    {
        let (value, committed) = as_caller(move || -> AppResult<(T, batch::Committed)> {
            let value = turn.work(work)?;
            Ok((value, keep_and_end(turn)?))
        })
        .await??;
        self.writers.committed(committed).await?;
        Ok(value)
    }

    /// Ends a request's unit of work: `record` runs beside the request's write (or as a write of
    /// its own when the request wrote nothing, or wrote twice), then all of it commits.
    pub async fn finish_unit<F>(&self, unit: &Unit, record: Option<F>) -> AppResult<()>
    where
        F: FnOnce(&Connection) -> AppResult<()> + Send + 'static,
    {
        match (unit.take(), record) {
            // The answer is one row beside the request's write, in its open transaction: on
            // SQLite, on the calling thread (see `write_point`), the commit if due on the pool.
            (Some(mut open), record) if !self.is_postgres() => {
                if let Some(record) = record
                    && let Err(error) = open.conn().and_then(|conn| record(conn))
                {
                    commit_off_thread(open.end_leaving_commit()).await?;
                    return Err(error);
                }
                self.keep_and_commit(open).await
            }
            (Some(mut open), record) => {
                let committed = tokio::task::spawn_blocking(move || {
                    if let Some(record) = record {
                        record(open.conn()?)?;
                    }
                    keep_and_end(open)
                })
                .await??;
                self.writers.committed(committed).await
            }
            (None, Some(record)) => self.write_now(record).await,
            (None, None) => Ok(()),
        }
    }

    /// Copies the live database to `dest` as one consistent snapshot, while others keep writing.
    /// PostgreSQL's own tools back up a server; this refuses there, naming them.
    pub fn backup_to(&self, dest: &Path) -> anyhow::Result<()> {
        anyhow::ensure!(!self.is_postgres(), POSTGRES_BACKUP);
        let dest_text = dest.to_str().context("the backup path is not valid UTF-8")?;
        // The copy is made owner-only and empty first (VACUUM INTO writes into an empty file), so
        // it is never readable by others, whatever the umask.
        let made = owner_only::create_file(dest).with_context(|| format!("cannot write {}", dest.display()))?;
        anyhow::ensure!(made, "{} already exists", dest.display());
        let conn = self.pool.get()?;
        let copied =
            conn.execute("VACUUM INTO ?1", [dest_text]).with_context(|| format!("cannot write {}", dest.display()));
        if copied.is_err() {
            let _ = std::fs::remove_file(dest);
        }
        copied.map(|_| ())
    }

    /// On PostgreSQL, moves the maintained counts' deltas into their folded rows (see
    /// migrations/postgres/0016_counts.sql); answers whether this server did it (another may be
    /// folding right now). Nothing to do on SQLite, whose counts are updated in place.
    pub async fn fold_counts(&self) -> AppResult<bool> {
        if !self.is_postgres() {
            return Ok(false);
        }
        // Its own transaction at the server's default isolation (READ COMMITTED).
        self.run(|conn| Ok(conn.query_row("SELECT fold_counts()", [], |row| row.get(0))?)).await
    }

    /// Folds the WAL back into the main file; called on shutdown.
    pub fn checkpoint(&self) -> anyhow::Result<()> {
        if self.is_postgres() {
            return Ok(());
        }
        let conn = self.pool.get()?;
        conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))?;
        Ok(())
    }
}

/// A private database in memory with every migration applied (and no declared triggers), for
/// tests.
pub fn migrated_in_memory() -> anyhow::Result<Connection> {
    let mut conn = Connection::open_in_memory()?;
    migrate(&mut conn, &Declared::default())?;
    Ok(conn)
}

/// The synchronous form of [`Db::write`].
pub fn write_tx<T>(conn: &mut Connection, work: impl FnOnce(&Transaction) -> AppResult<T>) -> AppResult<T> {
    let tx = conn.write_transaction()?;
    activity::declare_writer(&tx)?;
    let value = work(&tx)?;
    tx.commit().map_err(AppError::from)?;
    Ok(value)
}

/// Runs `work` on the blocking pool as the caller of the task that asks (`db::activity`): what it
/// writes is recorded as theirs.
fn as_caller<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> tokio::task::JoinHandle<T> {
    let actor = Actor::current();
    tokio::task::spawn_blocking(move || actor.enter(work))
}

/// Runs `work` in `turn` on the blocking pool, as the caller, and hands the turn back with the
/// work still in its savepoint.
async fn work_in_turn<T, F>(mut turn: batch::Turn, work: F) -> AppResult<(batch::Turn, T)>
where
    T: Send + 'static,
    F: FnOnce(&Connection) -> AppResult<T> + Send + 'static,
{
    as_caller(move || -> AppResult<(batch::Turn, T)> {
        let value = turn.work(work)?;
        Ok((turn, value))
    })
    .await?
}

/// Keeps a writer's work and ends its turn (an error undoes the work as the turn ends).
fn keep_and_end(mut turn: batch::Turn) -> AppResult<batch::Committed> {
    let committed = turn.keep()?;
    turn.end(false);
    Ok(committed)
}

/// Runs a due commit on the blocking pool, off the async threads (it writes the WAL, and at
/// times checkpoints it).
async fn commit_off_thread(commit: Option<batch::Commit>) -> AppResult<()> {
    if let Some(commit) = commit {
        tokio::task::spawn_blocking(move || drop(commit)).await?;
    }
    Ok(())
}

/// The current time as stored in the database.
pub fn now_iso() -> String {
    format_iso(time::OffsetDateTime::now_utc())
}

pub fn format_iso(at: time::OffsetDateTime) -> String {
    let at = at.to_offset(time::UtcOffset::UTC);
    format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z",
        at.year(),
        u8::from(at.month()),
        at.day(),
        at.hour(),
        at.minute(),
        at.second(),
        at.millisecond()
    )
}

/// While alive, the connection's temporary B-trees (a sort, the ids a search matched) spill to a
/// temporary file once they outgrow the page cache, instead of growing in memory: every
/// connection keeps them in memory (`temp_store = MEMORY`), which is right for a page of a list
/// but not for a whole table sorted or searched for an export (a million rows sorted took 180 MB).
pub struct SpillToDisk<'c>(&'c Connection);

impl<'c> SpillToDisk<'c> {
    pub fn on(conn: &'c Connection) -> AppResult<SpillToDisk<'c>> {
        // PostgreSQL spills a large sort to disk by itself (past work_mem).
        if let Some(sqlite) = conn.sqlite() {
            sqlite.pragma_update(None, "temp_store", "FILE").map_err(sql::Error::from)?;
        }
        Ok(SpillToDisk(conn))
    }
}

impl Drop for SpillToDisk<'_> {
    fn drop(&mut self) {
        if let Some(sqlite) = self.0.sqlite()
            && let Err(error) = sqlite.pragma_update(None, "temp_store", "MEMORY")
        {
            tracing::warn!(%error, "cannot set temp_store back to MEMORY");
        }
    }
}
