//! Ids taken ahead (PostgreSQL): a pool takes a block of each table's ids from its sequence at
//! once and hands them to its inserts one by one (`Connection::take_id`), so an insert knows its
//! row's id before it is sent, and can travel with the next exchange (`Connection::execute_later`)
//! instead of being a round trip of its own for its `RETURNING id`. A sequence never hands out an
//! id twice, taken ahead or not, so ids stay unique across servers; as with a sequence's own
//! cache, the ids of rows written by different servers no longer follow the order they were
//! written in, and the ids a server took but did not use (it stopped, or their insert was rolled
//! back) are skipped.
//! SQLite, where a statement costs no round trip, keeps its own numbering.

use std::collections::HashMap;
use std::sync::Mutex;

use super::conn::Connection;
use super::error::{Error, Result};

/// Ids taken from a sequence in one exchange: one round trip per this many inserts into a table
/// (and as many ids skipped, at most, when a server stops).
const BLOCK: i64 = 16;

/// A pool's ids taken ahead and not used yet, per table (the connections of a pool share them).
#[derive(Default)]
pub struct TakenIds {
    tables: Mutex<HashMap<String, Vec<i64>>>,
}

impl TakenIds {
    /// An id of `table`'s sequence no row has, taken on `conn` when none is left.
    pub(super) fn next(&self, conn: &Connection, table: &str) -> Result<i64> {
        if let Some(id) = self.tables().get_mut(table).and_then(Vec::pop) {
            return Ok(id);
        }
        // Taken outside the lock: another connection may take a block of the same table meanwhile,
        // and both blocks are then handed out.
        let mut block: Vec<i64> = conn
            .prepare_cached("SELECT nextval(pg_get_serial_sequence(?1, 'id')) FROM generate_series(1, ?2)")?
            .query_map((table, BLOCK), |row| row.get(0))?
            .collect::<Result<_>>()?;
        // Handed out from the smallest, as the sequence itself would.
        block.sort_unstable_by(|a, b| b.cmp(a));
        let id = block.pop().ok_or(Error::Engine("a sequence gave no id"))?;
        self.tables().entry(table.to_string()).or_default().extend(block);
        Ok(id)
    }

    fn tables(&self) -> std::sync::MutexGuard<'_, HashMap<String, Vec<i64>>> {
        self.tables.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}
