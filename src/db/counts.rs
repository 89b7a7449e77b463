//! Totals of filtered lists, remembered until the database changes: paging through a filtered
//! list, or several people looking at the same filter, counts its rows once. A connection of its
//! own watches a change clock: SQLite's `data_version`, which moves whenever any other connection,
//! in this process or another (`perkdesk create-admin` beside a running server), commits; on
//! PostgreSQL the current snapshot (`xmin:xmax:in-progress ids`), which moves whenever a writing
//! transaction anywhere begins or ends, so another app server's commit is seen at the next request. Requests that
//! want the same uncounted total at once wait for one count instead of each running it.
//! A few whole answers that every form opens and that are the same for everyone (the campaign
//! order picker's positions) are remembered the same way.

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

use rusqlite::Connection;

use crate::core::error::AppResult;

/// Distinct filters remembered per database version; beyond this the memory starts over.
const MAX_ENTRIES: usize = 16384;
/// Bytes of whole answers remembered per database version; a larger answer is built each time.
const MAX_ANSWER_BYTES: usize = 8 << 20;

pub struct CountCache {
    watcher: Mutex<Watcher>,
    /// Whether the clock is the server's, the same on every connection (PostgreSQL).
    server_clock: bool,
    /// What tells this process's readings of the clock from another's in a list's ETag: random
    /// on SQLite, whose `data_version` starts over with each connection; none on PostgreSQL,
    /// whose snapshots are the cluster's, the same for every app server, and never repeat.
    epoch: [u8; 16],
    cached: Mutex<Cached>,
    /// Signalled whenever a count finishes, for the requests waiting on it.
    counted: Condvar,
}

/// The connection that reads the change clock.
enum Watcher {
    Sqlite(Connection),
    /// Opened anew when the server closed it (a restart, a failover to the standby).
    Postgres(super::sql::Reconnecting),
}

/// A reading of the change clock: equal readings, nothing committed between them.
type Version = String;

#[derive(Default)]
struct Cached {
    version: Version,
    totals: HashMap<String, i64>,
    /// Keys being counted right now.
    counting: HashSet<String>,
    answers: HashMap<String, Arc<[u8]>>,
    answer_bytes: usize,
    anchors: HashMap<String, Anchor>,
}

/// Where a position of a list lies: the sort value and id of the row there.
pub type Anchor = (super::sql::Value, i64);

impl Cached {
    /// Forgets everything remembered under an older version.
    fn start_over(&mut self, version: Version) {
        self.totals.clear();
        self.answers.clear();
        self.answer_bytes = 0;
        self.anchors.clear();
        self.version = version;
    }
}

/// Takes a key off the in-flight set however its count ends, and wakes whoever waits for it.
struct Counting<'a> {
    cache: &'a CountCache,
    key: &'a str,
}

impl Drop for Counting<'_> {
    fn drop(&mut self) {
        lock(&self.cache.cached).counting.remove(self.key);
        self.cache.counted.notify_all();
    }
}

/// `map`, emptied first when it holds [`MAX_ENTRIES`]: a bound on memory, not an eviction order.
fn bounded<V>(map: &mut HashMap<String, V>) -> &mut HashMap<String, V> {
    if map.len() >= MAX_ENTRIES {
        map.clear();
    }
    map
}

/// A poisoned lock only means another request panicked while holding it; the data is still whole.
pub fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl CountCache {
    pub fn open(path: &Path) -> rusqlite::Result<CountCache> {
        let watcher = Connection::open(path)?;
        watcher.execute_batch("PRAGMA busy_timeout = 5000;")?;
        Ok(CountCache::watching(Watcher::Sqlite(watcher), rand::random()))
    }

    /// Watches the PostgreSQL database at `url`.
    pub fn open_postgres(url: &str) -> super::sql::Result<CountCache> {
        let mut watcher = super::sql::Reconnecting::new(url, "");
        watcher.get()?;
        Ok(CountCache::watching(Watcher::Postgres(watcher), [0; 16]))
    }

    fn watching(watcher: Watcher, epoch: [u8; 16]) -> CountCache {
        CountCache {
            server_clock: matches!(watcher, Watcher::Postgres(_)),
            watcher: Mutex::new(watcher),
            epoch,
            cached: Mutex::new(Cached::default()),
            counted: Condvar::new(),
        }
    }

    /// The change clock read now, once for a request: its list's ETag, and the totals, answers
    /// and anchors it remembers or recalls, all under this one reading (each reading is a
    /// statement on the watching connection, a read transaction begun and ended).
    pub fn reading(&self) -> AppResult<Reading<'_>> {
        Ok(Reading { cache: self, version: self.version()? })
    }

    /// [`CountCache::reading`] for a request holding `conn`: on PostgreSQL the clock is the
    /// server's, the same on every connection, so it is read on the request's own connection
    /// rather than queued behind every other request's on the watching one (which made the
    /// watcher one list request at a time). SQLite's clock is each connection's own and does not
    /// move at that connection's commits, so there it stays the watcher's, which never writes.
    pub fn reading_on(&self, conn: &super::sql::Connection) -> AppResult<Reading<'_>> {
        use super::dialect::Dialect;
        if !self.server_clock {
            return self.reading();
        }
        let version = conn.prepare_cached(Dialect::Postgres.change_clock())?.query_row([], |r| r.get(0))?;
        Ok(Reading { cache: self, version })
    }

    /// [`CountCache::reading_on`] with the clock's read sent ahead (see `ReadAhead`): on PostgreSQL
    /// it travels with the request's next statement (a list's page), before it, in one round
    /// trip; [`ClockAhead::reading`] reads it.
    pub fn clock_ahead<'c>(&'c self, conn: &'c super::sql::Connection) -> AppResult<ClockAhead<'c>> {
        use super::dialect::Dialect;
        let ahead = match self.server_clock {
            true => Some(conn.read_ahead(Dialect::Postgres.change_clock(), ())?),
            false => None,
        };
        Ok(ClockAhead { cache: self, ahead })
    }

    /// The change clock now (`Dialect::change_clock`): it never reads the same twice across
    /// another connection's commit.
    fn version(&self) -> AppResult<Version> {
        use super::dialect::Dialect;
        let mut watcher = lock(&self.watcher);
        let version = match &mut *watcher {
            Watcher::Sqlite(conn) => {
                conn.prepare_cached(Dialect::Sqlite.change_clock())?.query_row([], |r| r.get::<_, i64>(0))?.to_string()
            }
            Watcher::Postgres(watcher) => {
                let read = watcher.get().and_then(|(conn, _)| {
                    conn.prepare_cached(Dialect::Postgres.change_clock())?.query_row([], |r| r.get(0))
                });
                // A failed read may mean a lost server: the next one connects anew.
                read.inspect_err(|_| watcher.forget())?
            }
        };
        Ok(version)
    }

    /// The remembered total for `key`, else `count()` ([`Reading::total`] under a reading of now).
    pub fn total(&self, key: String, count: impl FnOnce() -> AppResult<i64>) -> AppResult<i64> {
        self.reading()?.total(key, count)
    }

    /// What `kept` holds for `key` when it was remembered under the database's `version`.
    fn recall<V: Clone>(&self, version: &str, kept: fn(&Cached) -> &HashMap<String, V>, key: &str) -> Option<V> {
        let cached = lock(&self.cached);
        if cached.version == version { kept(&cached).get(key).cloned() } else { None }
    }

    /// Remembers, with `keep`, something built under `version`; what an older version left is
    /// forgotten first.
    fn remember<R>(&self, version: Version, keep: impl FnOnce(&mut Cached) -> R) {
        let mut cached = lock(&self.cached);
        if cached.version != version {
            cached.start_over(version);
        }
        keep(&mut cached);
    }
}

impl CountCache {
    /// The remembered answer for `key`, else `build()`'s ([`Reading::answer`] under a reading of
    /// now).
    pub fn answer(&self, key: String, build: impl FnOnce() -> AppResult<Vec<u8>>) -> AppResult<Arc<[u8]>> {
        self.reading()?.answer(key, build)
    }
}

/// One reading of the change clock (see [`CountCache::reading`]).
pub struct Reading<'c> {
    cache: &'c CountCache,
    version: Version,
}

/// The change clock sent ahead ([`CountCache::clock_ahead`]).
pub struct ClockAhead<'c> {
    cache: &'c CountCache,
    /// The server's clock on the request's connection; `None` where it is the watcher's.
    ahead: Option<super::sql::ReadAhead<'c>>,
}

impl<'c> ClockAhead<'c> {
    /// The reading, as [`CountCache::reading_on`] answers it.
    pub fn reading(self) -> AppResult<Reading<'c>> {
        match self.ahead {
            Some(ahead) => Ok(Reading { cache: self.cache, version: ahead.query_row(|r| r.get(0))? }),
            None => self.cache.reading(),
        }
    }
}

impl Reading<'_> {
    /// The ETag of an answer to `request` (what tells its answers apart: the path, the query,
    /// the language) read from the database as it is now: the same while nothing commits, another
    /// after any commit. The clock is read before the answer's data, so the data is at least as
    /// new as the tag: a request that finds the tag unchanged has nothing newer to read.
    pub fn etag(&self, request: &str) -> String {
        use sha2::{Digest, Sha256};
        let digest = Sha256::new()
            .chain_update(self.cache.epoch)
            .chain_update(self.version.as_bytes())
            .chain_update([0])
            .chain_update(request.as_bytes())
            .finalize();
        format!("W/\"{}\"", hex::encode(&digest[..16]))
    }

    /// The remembered total for `key` (the count's SQL and parameters), else `count()`.
    ///
    /// The version is read before counting, so a total is only ever remembered under a version
    /// at or before the snapshot it was counted on; once anything commits, the version read by
    /// the next request differs and every remembered total is dropped.
    pub fn total(&self, key: String, count: impl FnOnce() -> AppResult<i64>) -> AppResult<i64> {
        let cache = self.cache;
        let mut cached = lock(&cache.cached);
        loop {
            if cached.version == self.version
                && let Some(total) = cached.totals.get(&key)
            {
                return Ok(*total);
            }
            if cached.counting.insert(key.clone()) {
                break;
            }
            cached = cache.counted.wait(cached).unwrap_or_else(|poisoned| poisoned.into_inner());
        }
        drop(cached);
        let counting = Counting { cache, key: &key };
        let total = count()?;
        cache.remember(self.version.clone(), |cached| bounded(&mut cached.totals).insert(key.clone(), total));
        drop(counting);
        Ok(total)
    }

    /// The remembered answer for `key`, else `build()`'s, remembered until the database changes
    /// (under the same version rule as [`Reading::total`]).
    pub fn answer(&self, key: String, build: impl FnOnce() -> AppResult<Vec<u8>>) -> AppResult<Arc<[u8]>> {
        if let Some(answer) = self.cache.recall(&self.version, |cached| &cached.answers, &key) {
            return Ok(answer);
        }
        let answer: Arc<[u8]> = build()?.into();
        self.cache.remember(self.version.clone(), |cached| {
            if cached.answer_bytes + answer.len() <= MAX_ANSWER_BYTES {
                cached.answer_bytes += answer.len();
                cached.answers.insert(key, answer.clone());
            }
        });
        Ok(answer)
    }

    /// The remembered row at a list position for `key` (the list's statement, parameters and
    /// position), else `find()`'s, remembered until the database changes (the version rule of
    /// [`Reading::total`]). A deep page then starts from the nearest remembered position
    /// instead of stepping over every row before it.
    pub fn anchor(&self, key: String, find: impl FnOnce() -> AppResult<Option<Anchor>>) -> AppResult<Option<Anchor>> {
        if let Some(anchor) = self.cache.recall(&self.version, |cached| &cached.anchors, &key) {
            return Ok(Some(anchor));
        }
        let Some(anchor) = find()? else { return Ok(None) };
        self.cache.remember(self.version.clone(), |cached| bounded(&mut cached.anchors).insert(key, anchor.clone()));
        Ok(Some(anchor))
    }
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;
    use std::sync::Barrier;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    use super::*;

    #[test]
    fn a_total_is_counted_once_until_another_connection_commits() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("counts.db");
        let writer = Connection::open(&path).unwrap();
        writer.execute_batch("PRAGMA journal_mode = WAL; CREATE TABLE t (x INTEGER);").unwrap();
        let cache = CountCache::open(&path).unwrap();
        let counted = Cell::new(0);
        let total = |cache: &CountCache| {
            cache
                .total("SELECT COUNT(*) FROM t".into(), || {
                    counted.set(counted.get() + 1);
                    Ok(writer.query_row("SELECT COUNT(*) FROM t", [], |r| r.get(0))?)
                })
                .unwrap()
        };
        assert_eq!(total(&cache), 0);
        assert_eq!(total(&cache), 0);
        assert_eq!(counted.get(), 1, "the second request is answered from memory");
        writer.execute("INSERT INTO t VALUES (1)", []).unwrap();
        assert_eq!(total(&cache), 1, "a commit elsewhere is seen at once");
        assert_eq!(counted.get(), 2);
        let other_process = Connection::open(&path).unwrap();
        other_process.execute("DELETE FROM t", []).unwrap();
        assert_eq!(total(&cache), 0);
        assert_eq!(counted.get(), 3);
    }

    /// PostgreSQL's change clock: a commit on another connection (another app server) is seen at
    /// the next request; a read-only transaction, or nothing at all, moves nothing.
    #[test]
    #[ignore = "needs PostgreSQL: ./scripts/test starts one and runs it"]
    fn postgres_a_total_is_counted_once_until_another_server_commits() {
        let url = std::env::var("PERKDESK_TEST_POSTGRES").expect("PERKDESK_TEST_POSTGRES names the test server");
        let writer = super::super::sql::Connection::connect_postgres(&url).unwrap();
        writer.execute_batch("DROP TABLE IF EXISTS counted_clock; CREATE TABLE counted_clock (x BIGINT)").unwrap();
        let cache = CountCache::open_postgres(&url).unwrap();
        let counted = Cell::new(0);
        let total = |cache: &CountCache| {
            cache
                .total("SELECT COUNT(*) FROM counted_clock".into(), || {
                    counted.set(counted.get() + 1);
                    Ok(writer.query_row("SELECT COUNT(*) FROM counted_clock", [], |r| r.get(0))?)
                })
                .unwrap()
        };
        assert_eq!(total(&cache), 0);
        // The clock is the cluster's: tests writing beside this one move it too, so a request
        // answered from memory is looked for over a few tries, each a read-only one first.
        let remembered = (0..50).any(|_| {
            let before = counted.get();
            writer.query_row("SELECT COUNT(*) FROM counted_clock", [], |r| r.get::<i64>(0)).unwrap();
            assert_eq!(total(&cache), 0);
            let from_memory = counted.get() == before;
            if !from_memory {
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            from_memory
        });
        assert!(remembered, "a second request is answered from memory");
        writer.execute("INSERT INTO counted_clock VALUES (1)", []).unwrap();
        assert_eq!(total(&cache), 1, "a commit elsewhere is seen at once");
        let other_server = super::super::sql::Connection::connect_postgres(&url).unwrap();
        let mut open = super::super::sql::Connection::connect_postgres(&url).unwrap();
        let pending = open.transaction().unwrap();
        pending.execute("INSERT INTO counted_clock VALUES (2)", []).unwrap();
        other_server.execute("DELETE FROM counted_clock WHERE x = 1", []).unwrap();
        assert_eq!(total(&cache), 0, "the other server's delete, not the open insert");
        pending.commit().unwrap();
        assert_eq!(total(&cache), 1, "the insert once committed");
        writer.execute_batch("DROP TABLE counted_clock").unwrap();
    }

    #[test]
    fn an_answer_is_built_once_until_another_connection_commits() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("answers.db");
        let writer = Connection::open(&path).unwrap();
        writer.execute_batch("PRAGMA journal_mode = WAL; CREATE TABLE t (x INTEGER);").unwrap();
        let cache = CountCache::open(&path).unwrap();
        let built = Cell::new(0);
        let answer = |cache: &CountCache, key: &str| {
            cache
                .answer(key.into(), || {
                    built.set(built.get() + 1);
                    let rows: i64 = writer.query_row("SELECT COUNT(*) FROM t", [], |r| r.get(0))?;
                    Ok(format!("{key}:{rows}").into_bytes())
                })
                .unwrap()
        };
        assert_eq!(&*answer(&cache, "a"), b"a:0");
        assert_eq!(&*answer(&cache, "a"), b"a:0");
        assert_eq!(built.get(), 1, "the second request is answered from memory");
        assert_eq!(&*answer(&cache, "b"), b"b:0", "another key is its own answer");
        assert_eq!(built.get(), 2);
        writer.execute("INSERT INTO t VALUES (1)", []).unwrap();
        assert_eq!(&*answer(&cache, "a"), b"a:1", "a commit elsewhere is seen at once");
        assert_eq!(built.get(), 3);
    }

    #[test]
    fn requests_arriving_together_share_one_count() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("counts.db");
        Connection::open(&path).unwrap().execute_batch("PRAGMA journal_mode = WAL;").unwrap();
        let cache = CountCache::open(&path).unwrap();
        let counts = AtomicUsize::new(0);
        let start = Barrier::new(8);
        std::thread::scope(|scope| {
            let answers: Vec<_> = (0..8)
                .map(|_| {
                    scope.spawn(|| {
                        start.wait();
                        cache.total("slow".into(), || {
                            counts.fetch_add(1, Ordering::SeqCst);
                            std::thread::sleep(Duration::from_millis(200));
                            Ok(42)
                        })
                    })
                })
                .collect();
            for answer in answers {
                assert_eq!(answer.join().unwrap().unwrap(), 42);
            }
        });
        assert_eq!(counts.load(Ordering::SeqCst), 1);
    }

    #[test]
    fn a_failed_count_lets_the_next_request_count_again() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("counts.db");
        let cache = CountCache::open(&path).unwrap();
        let failed = cache.total("k".into(), || Err(anyhow::anyhow!("disk on fire").into()));
        assert!(failed.is_err());
        assert_eq!(cache.total("k".into(), || Ok(7)).unwrap(), 7);
    }
}
