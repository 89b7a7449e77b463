//! SQLite behind an r2d2 pool: PRAGMAs on every connection, WAL before migrations,
//! blocking work off the async runtime, and write transactions that take the lock up front.

mod counts;
mod migrations;
mod text;
mod unit;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use r2d2_sqlite::SqliteConnectionManager;
use rusqlite::{Connection, DropBehavior, Transaction, TransactionBehavior};
use tokio::sync::{Mutex as AsyncMutex, Semaphore};

use crate::error::{AppError, AppResult};

pub use counts::{CountCache, lock};
pub use migrations::{MIGRATIONS, SCHEMA_VERSION, apply_migrations};
pub use text::fold_search;
use unit::OpenWrite;
pub use unit::Unit;

pub type Pool = r2d2::Pool<SqliteConnectionManager>;
pub type PooledConnection = r2d2::PooledConnection<SqliteConnectionManager>;

/// Connections in the pool, and so requests that touch the database at the same moment.
const POOL_SIZE: u32 = 8;

#[derive(Clone)]
pub struct Db {
    pool: Pool,
    /// Hands out the pool's connections first come, first served. Waiting inside r2d2 instead
    /// parks a blocking thread per request and wakes them in no order, which shows as a long
    /// latency tail once more requests arrive than there are connections.
    turns: Arc<Semaphore>,
    /// Writers take turns here, first come, first served, before they begin. SQLite admits one
    /// writer at a time; left to its busy handler, the others sleep and retry with growing
    /// pauses, and under many concurrent writes that shows as a tail of hundreds of milliseconds.
    writing: Arc<AsyncMutex<()>>,
    path: PathBuf,
    counts: Arc<CountCache>,
}

/// Per-connection settings. The page cache is bounded so memory stays small under load.
fn configure(conn: &mut Connection) -> rusqlite::Result<()> {
    text::register(conn)?;
    conn.execute_batch(
        "PRAGMA foreign_keys = ON;
         PRAGMA busy_timeout = 5000;
         PRAGMA synchronous = NORMAL;
         PRAGMA cache_size = -8192;
         PRAGMA temp_store = MEMORY;",
    )
}

impl Db {
    /// Opens (creating if needed) the database file, switches it to WAL and applies migrations.
    pub fn open(path: &Path) -> anyhow::Result<Db> {
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            anyhow::ensure!(parent.is_dir(), "the folder {} does not exist", parent.display());
        }
        {
            let mut conn =
                Connection::open(path).with_context(|| format!("cannot open the database {}", path.display()))?;
            configure(&mut conn)?;
            conn.pragma_update(None, "journal_mode", "WAL")?;
            apply_migrations(&mut conn).context("cannot apply the database migrations")?;
        }
        let manager = SqliteConnectionManager::file(path).with_init(configure);
        let pool = r2d2::Pool::builder()
            .max_size(POOL_SIZE)
            .connection_timeout(Duration::from_secs(10))
            .build(manager)
            .context("cannot open the connection pool")?;
        let counts = Arc::new(CountCache::open(path).context("cannot open the database")?);
        Ok(Db {
            pool,
            turns: Arc::new(Semaphore::new(POOL_SIZE as usize)),
            writing: Arc::new(AsyncMutex::new(())),
            path: path.to_path_buf(),
            counts,
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
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
            let (open, result) = tokio::task::spawn_blocking(move || {
                let result = work(&mut open.conn);
                (open, result)
            })
            .await?;
            unit.put(open);
            return result;
        }
        let pool = self.pool.clone();
        let turn = self.turns.clone().acquire_owned().await.map_err(|_| anyhow::anyhow!("the database is closing"))?;
        tokio::task::spawn_blocking(move || {
            let mut conn = pool.get()?;
            let result = work(&mut conn);
            // The connection goes back before the turn, so the next in line finds it free.
            drop(conn);
            drop(turn);
            result
        })
        .await?
    }

    /// Runs `work` in one IMMEDIATE transaction: all of it is written, or none of it. Inside an
    /// idempotent request the transaction stays open until [`Db::finish_unit`] records the answer.
    pub async fn write<T, F>(&self, work: F) -> AppResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&Transaction) -> AppResult<T> + Send + 'static,
    {
        let Some(unit) = Unit::current().filter(|unit| !unit.is_split()) else {
            return self.write_now(work).await;
        };
        if let Some(first) = unit.take() {
            unit.mark_split();
            let mut first = first;
            tokio::task::spawn_blocking(move || commit_open(&mut first)).await??;
            return self.write_now(work).await;
        }
        // The writer's turn first, then a connection: a writer never holds a connection while it
        // waits to write, so readers keep going.
        let writing = self.writing.clone().lock_owned().await;
        let pool = self.pool.clone();
        let turn = self.turns.clone().acquire_owned().await.map_err(|_| anyhow::anyhow!("the database is closing"))?;
        let (open, value) = tokio::task::spawn_blocking(move || -> AppResult<(OpenWrite, T)> {
            let mut conn = pool.get()?;
            let value = {
                let mut tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
                let value = work(&tx)?;
                tx.set_drop_behavior(DropBehavior::Ignore);
                value
            };
            Ok((OpenWrite { conn, _turn: turn, _writing: writing }, value))
        })
        .await??;
        unit.put(open);
        Ok(value)
    }

    /// One write transaction, committed at once, in its turn among writers.
    async fn write_now<T, F>(&self, work: F) -> AppResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&Transaction) -> AppResult<T> + Send + 'static,
    {
        let writing = self.writing.clone().lock_owned().await;
        self.run(move |conn| {
            let result = write_tx(conn, work);
            drop(writing);
            result
        })
        .await
    }

    /// Ends a request's unit of work: `record` runs in the request's open transaction (or in a
    /// transaction of its own when the request wrote nothing, or wrote twice), then all commits.
    pub async fn finish_unit<F>(&self, unit: &Unit, record: Option<F>) -> AppResult<()>
    where
        F: FnOnce(&Connection) -> AppResult<()> + Send + 'static,
    {
        match (unit.take(), record) {
            (Some(mut open), record) => {
                tokio::task::spawn_blocking(move || {
                    if let Some(record) = record {
                        record(&open.conn)?;
                    }
                    commit_open(&mut open)
                })
                .await?
            }
            (None, Some(record)) => self.write_now(move |tx| record(tx)).await,
            (None, None) => Ok(()),
        }
    }

    /// Copies the live database to `dest` as one consistent snapshot, while others keep writing.
    pub fn backup_to(&self, dest: &Path) -> anyhow::Result<()> {
        anyhow::ensure!(!dest.exists(), "{} already exists", dest.display());
        let dest_text = dest.to_str().context("the backup path is not valid UTF-8")?;
        let conn = self.pool.get()?;
        conn.execute("VACUUM INTO ?1", [dest_text]).with_context(|| format!("cannot write {}", dest.display()))?;
        Ok(())
    }

    /// Folds the WAL back into the main file; called on shutdown.
    pub fn checkpoint(&self) -> anyhow::Result<()> {
        let conn = self.pool.get()?;
        conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))?;
        Ok(())
    }
}

/// The synchronous form of [`Db::write`].
pub fn write_tx<T>(conn: &mut Connection, work: impl FnOnce(&Transaction) -> AppResult<T>) -> AppResult<T> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let value = work(&tx)?;
    tx.commit().map_err(AppError::from)?;
    Ok(value)
}

fn commit_open(open: &mut OpenWrite) -> AppResult<()> {
    open.conn.execute_batch("COMMIT")?;
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
