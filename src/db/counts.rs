//! Totals of filtered lists, remembered until the database changes: paging through a filtered
//! list, or several people looking at the same filter, counts its rows once. A connection of its
//! own watches SQLite's `data_version`, which moves whenever any other connection, in this
//! process or another (`perkdesk create-admin` beside a running server), commits.

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Mutex, MutexGuard};

use rusqlite::Connection;

use crate::error::AppResult;

/// Distinct filters remembered per database version; beyond this the memory starts over.
const MAX_ENTRIES: usize = 4096;

pub struct CountCache {
    watcher: Mutex<Connection>,
    cached: Mutex<Cached>,
}

#[derive(Default)]
struct Cached {
    version: i64,
    totals: HashMap<String, i64>,
}

/// A poisoned lock only means another request panicked while holding it; the data is still whole.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl CountCache {
    pub fn open(path: &Path) -> rusqlite::Result<CountCache> {
        let watcher = Connection::open(path)?;
        watcher.execute_batch("PRAGMA busy_timeout = 5000;")?;
        Ok(CountCache { watcher: Mutex::new(watcher), cached: Mutex::new(Cached::default()) })
    }

    fn version(&self) -> AppResult<i64> {
        Ok(lock(&self.watcher).query_row("PRAGMA data_version", [], |r| r.get(0))?)
    }

    /// The remembered total for `key` (the count's SQL and parameters), else `count()`.
    ///
    /// The version is read before counting, so a total is only ever remembered under a version
    /// at or before the snapshot it was counted on; once anything commits, the version read by
    /// the next request differs and every remembered total is dropped.
    pub fn total(&self, key: String, count: impl FnOnce() -> AppResult<i64>) -> AppResult<i64> {
        let version = self.version()?;
        if let Some(total) = {
            let cached = lock(&self.cached);
            if cached.version == version { cached.totals.get(&key).copied() } else { None }
        } {
            return Ok(total);
        }
        let total = count()?;
        let mut cached = lock(&self.cached);
        if cached.version != version || cached.totals.len() >= MAX_ENTRIES {
            cached.totals.clear();
            cached.version = version;
        }
        cached.totals.insert(key, total);
        Ok(total)
    }
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

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
}
