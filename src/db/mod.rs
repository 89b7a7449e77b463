//! The only layer that names the database engines: the [`Db`] handle (opened in `open.rs`, its
//! work run in `work.rs`), the seam every other layer writes SQL through (`sql`), what the
//! engines spell differently (`dialect`), migrations, the triggers made from the resources'
//! declarations (`triggers`, `activity`, `trash`), the remembered totals, backups and the
//! cluster's agreements.

pub mod activity;
pub mod actor;
pub mod backup;
mod batch;
pub use batch::WriteLoad;
mod cluster;
pub mod collation;
pub mod copy;
mod counts;
pub mod dialect;
mod migrations;
mod open;
pub mod schema;
mod search_queue;
pub mod sql;
mod text;
mod time;
pub mod trash;
pub mod triggers;
mod turns;
mod unit;
mod work;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::Context;

use crate::core::error::AppResult;
use crate::core::owner_only;

pub use actor::Actor;
use batch::Queue;
use cluster::Cluster;
pub use counts::{Anchor, ClockAhead, CountCache, Reading, lock};
pub use migrations::{MIGRATIONS, POSTGRES_MIGRATIONS, SCHEMA_VERSION, migrate};
pub use open::register_functions;
use sql::Connection;
pub use text::fold_search;
pub use time::{format_iso, now_iso};
pub use triggers::Declared;
pub use turns::FEWEST as FEWEST_CONNECTIONS;
pub use unit::Unit;
pub use work::write_tx;

pub type Pool = r2d2::Pool<sql::Manager>;
pub type PooledConnection = r2d2::PooledConnection<sql::Manager>;

/// `perkdesk backup` (and the scheduled copies) on PostgreSQL.
pub const POSTGRES_BACKUP: &str = "perkdesk backs up SQLite files; back up PostgreSQL with its own tools (pg_dump, or pgBackRest for a cluster with a standby): see docs/operations.md";

/// Connections in the pool, and so requests that touch the database at the same moment.
const POOL_SIZE: u32 = 8;

/// A condition on the database under which a request was answered already (an `EXISTS` with
/// placeholders from `?2` on), with its values: what a claim taken ahead refuses to go on after
/// ([`Db::claim_ahead`]).
pub type Answered = (&'static str, Vec<sql::Value>);

/// How long a held `x-requestid` claim is asked for again before the request is answered as still
/// running (`Db::claim_then_look_up`), and the first pause between asks (each next one doubles, up
/// to a quarter of the wait).
const CLAIM_WAIT: std::time::Duration = std::time::Duration::from_millis(200);
const CLAIM_FIRST_PAUSE: std::time::Duration = std::time::Duration::from_millis(2);

/// On PostgreSQL, the connections every app server on the database uses together for requests
/// unless `serve --postgres-connections` says otherwise; each server takes its share (`turns`).
/// About twice the database server's cores, PostgreSQL's own rule of thumb for busy connections:
/// on this project's 2-core host, eight served one app server's writes as fast as sixteen, and
/// kept two servers' p99 at 32 connections near 200 ms where sixteen made it 272-448 ms
/// (docs/performance.md). With each server's locking connection and its count reader, even
/// many servers stay within PostgreSQL's default of 100 connections.
pub const DEFAULT_POSTGRES_CONNECTIONS: usize = 8;
/// The most connections one app server's pool opens on PostgreSQL, whatever the budget: its share
/// can grow to this as other servers leave.
const POSTGRES_POOL_SIZE: u32 = 64;

#[derive(Clone)]
pub struct Db {
    pool: Pool,
    /// Hands out the pool's connections first come, first served. Waiting inside r2d2 instead
    /// parks a blocking thread per request and wakes them in no order, which shows as a long
    /// latency tail once more requests arrive than there are connections. On PostgreSQL it holds
    /// this server's share of the connections (see `turns`).
    turns: Arc<turns::Turns>,
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

    /// The file a SQLite database is (`None` for a server's database): the commands that copy or
    /// check a file ask this, not which engine it is.
    pub fn file(&self) -> Option<&Path> {
        match self {
            Location::File(path) => Some(path),
            Location::Postgres(_) => None,
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

impl Db {
    /// The SQLite file; `None` on PostgreSQL.
    pub fn path(&self) -> Option<&Path> {
        self.location.file()
    }

    pub fn location(&self) -> &Location {
        &self.location
    }

    pub fn is_postgres(&self) -> bool {
        matches!(self.location, Location::Postgres(_))
    }

    /// Whether each read is a round trip to a database server (PostgreSQL), so that reads sent
    /// together in one exchange cost less than each on its own; SQLite's reads are calls in the
    /// process. The layers above ask this, not the engine.
    pub fn reads_are_round_trips(&self) -> bool {
        self.is_postgres()
    }

    /// Whether other app servers may share this database (a PostgreSQL cluster): their writes can
    /// conflict with this one's and are retried, and shared upkeep (folding counts, sweeping
    /// stored answers) is done by one of them. The layers above ask this, not the engine.
    pub fn is_shared(&self) -> bool {
        self.is_postgres()
    }

    /// A reading of this server's writers' load (see [`WriteLoad`]): background work gives
    /// way while requests' writes overlap.
    pub fn write_load(&self) -> WriteLoad {
        self.writers.load()
    }

    /// Whether `perkdesk backup` and scheduled backups can copy this database: a file can; a
    /// PostgreSQL cluster is backed up by its own tools (docs/operations.md).
    pub fn is_a_file(&self) -> bool {
        self.path().is_some()
    }

    /// Claims `name` for the request whose unit of work is `unit` among the app servers sharing
    /// the database, and runs `look`, a read that must see what the claim's last holder committed,
    /// after the claim: whether the claim was taken (not while another server holds it), and what
    /// `look` read either way.
    ///
    /// On PostgreSQL the claim is an advisory lock ([`cluster::claim_key`]) taken by the session
    /// just before the request's transaction begins, at `isolation` (its writes'), and handed to
    /// the transaction by its first statement ([`cluster::CLAIM_FIRST`], [`cluster::CLAIM_SECOND`]);
    /// `look` is sent in the same exchange after it, and its snapshot, taken after the lock, sees
    /// the last holder's answer. The request's writes then go on in that transaction (`Unit`), and
    /// the commit that records its answer releases the claim: no round trip of its own, and a
    /// claim never outlives its request (nor its server, whose connection's end rolls it back).
    ///
    /// A claim held is asked for again, each time in a transaction of its own, for up to
    /// [`CLAIM_WAIT`]: the holder may be a run of the same request this server has abandoned (a
    /// client that gave up and sent it again), whose transaction is rolled back a moment after
    /// (as the thread that carried its work finishes), or another server's, whose answer the next
    /// look-up then finds.
    ///
    /// On SQLite every claim is granted (the one server's memory tells its requests apart) and
    /// `look` is a look-up.
    pub async fn claim_then_look_up<T, F>(
        &self,
        unit: &Unit,
        name: &str,
        isolation: dialect::Isolation,
        look: F,
    ) -> AppResult<(bool, T)>
    where
        T: Send + 'static,
        F: Fn(&Connection) -> AppResult<T> + Clone + Send + 'static,
    {
        if !self.is_shared() {
            return Ok((true, self.look_up(look).await?));
        }
        let key = cluster::claim_key(name);
        let (mut pause, since) = (CLAIM_FIRST_PAUSE, std::time::Instant::now());
        loop {
            let mut turn = self.writers.turn(isolation).await?;
            let look = look.clone();
            let (claimed, found) = spawn_blocking(move || -> AppResult<(Option<batch::Turn>, T)> {
                turn.open_after(|conn| Ok(conn.execute_ahead(cluster::CLAIM_FIRST, [key])?))?;
                let conn = turn.conn()?;
                let lock = conn.read_ahead(cluster::CLAIM_SECOND, [key])?;
                let found = look(conn);
                let taken: bool = lock.query_row(|r| r.get(0))?;
                let found = found?;
                if !taken {
                    // Held: what this transaction read is let go.
                    turn.end(false);
                    return Ok((None, found));
                }
                Ok((Some(turn), found))
            })
            .await??;
            if let Some(turn) = claimed {
                unit.put_claimed(turn);
                return Ok((true, found));
            }
            if since.elapsed() >= CLAIM_WAIT {
                return Ok((false, found));
            }
            tokio::time::sleep(pause).await;
            pause = (pause * 2).min(CLAIM_WAIT / 4);
        }
    }

    /// [`Db::claim_then_look_up`] with no exchange of its own, for a request admitted on what
    /// its caller's last check found (`app::idempotency`, `auth::callers`): the claim, the
    /// transaction's start and `look`'s reads (the caller's check, sent ahead and detached from
    /// the connection) wait for the request's first exchange, and travel with it. Answers the claim's answer and what `look` gave, both to be read after
    /// the handler ([`Db::read_after`]). Until [`Unit::confirm`], nothing of the request's is
    /// committed: a write that would commit the claim's transaction apart from the request's
    /// answer asks for the request to run again ([`Unit::must_run_again`]), and
    /// [`Db::undo_unit`] undoes it all. Only where reads are round trips (PostgreSQL). A claim
    /// held elsewhere, or a request `answered` already, is not waited for here: the claim's
    /// statement fails the transaction, so none of the handler's statements after it runs
    /// (`cluster::claim_ahead_sql`), and the request runs again, claiming as
    /// [`Db::claim_then_look_up`] does.
    pub async fn claim_ahead<T, F>(
        &self,
        unit: &Unit,
        name: &str,
        isolation: dialect::Isolation,
        answered: Answered,
        look: F,
    ) -> AppResult<(sql::Detached, T)>
    where
        T: Send + 'static,
        F: FnOnce(&Connection) -> AppResult<T> + Send + 'static,
    {
        let key = cluster::claim_key(name);
        let mut turn = self.writers.turn(isolation).await?;
        let (turn, sent) = spawn_blocking(move || -> AppResult<(batch::Turn, (sql::Detached, T))> {
            turn.open_after(|conn| Ok(conn.execute_ahead(cluster::CLAIM_FIRST, [key])?))?;
            let conn = turn.conn()?;
            let (condition, values) = answered;
            let values = std::iter::once(sql::Value::from(key)).chain(values);
            let claim = cluster::claim_ahead_sql(condition);
            let taken = conn.read_ahead(&claim, sql::params_from_iter(values))?.detach();
            let looked = look(conn)?;
            Ok((turn, (taken, looked)))
        })
        .await??;
        unit.put_claimed(turn);
        unit.mark_unconfirmed();
        Ok(sent)
    }

    /// Runs `read` on the connection of `unit`'s open transaction (a read of what was sent ahead
    /// on it: [`Db::claim_ahead`]), or on another when none is open any more (what was sent then
    /// went with its end).
    pub async fn read_after<T, F>(&self, unit: &Arc<Unit>, read: F) -> AppResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&mut Connection) -> AppResult<T> + Send + 'static,
    {
        unit.clone().scope(self.run(read)).await
    }

    /// Undoes a request's unit of work not yet committed: its transaction rolls back (and lets its
    /// claim go), and its writes set aside are dropped: a request that runs again, checked first
    /// ([`Db::claim_ahead`]).
    pub async fn undo_unit(&self, unit: &Unit) -> AppResult<()> {
        drop(unit.take_aside());
        if let Some(turn) = unit.take() {
            spawn_blocking(move || turn.roll_back()).await?;
        }
        Ok(())
    }

    /// The app servers sharing the database, as last counted (1 on SQLite): a rate limit is
    /// shared out among them.
    pub fn servers(&self) -> usize {
        self.cluster.servers()
    }

    /// Counts the app servers sharing the database anew (see [`Db::servers`]), and takes this
    /// server's share of the connections among them.
    pub async fn count_servers(&self) -> AppResult<usize> {
        let servers = self.cluster.count_servers().await?;
        self.turns.set_servers(servers).await?;
        Ok(servers)
    }

    /// Sets the connections every app server on a PostgreSQL database uses together for requests
    /// (`serve --postgres-connections`); this server takes its share. SQLite's pool is its own.
    pub async fn share_connections(&self, budget: usize) -> AppResult<()> {
        if self.is_shared() {
            self.turns.set_budget(budget).await?;
        }
        Ok(())
    }

    /// The requests that may use the database at once on this server (its share, on PostgreSQL).
    pub async fn connections_in_use_at_most(&self) -> usize {
        self.turns.share().await
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

/// `tokio::task::spawn_blocking` for the database's work: the thread then waits for PostgreSQL
/// itself at each exchange (`sql::driving_here`), rather than through a thread of the moment.
pub(crate) fn spawn_blocking<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> tokio::task::JoinHandle<T> {
    tokio::task::spawn_blocking(move || sql::driving_here(work))
}
