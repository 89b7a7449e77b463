//! The search indexes' entries of the group commit's transaction, written at its commit
//! (migration 18). FTS5 writes its pending entries to disk, and merges segments, at every
//! savepoint's start and release; the group commit gives each writer a savepoint, so writing the
//! index at each write cost every recorded use a flush of its own. While a connection defers the
//! indexes, the triggers queue the entries in plain tables instead, and [`flush`] moves them into
//! the indexes with one statement each just before the COMMIT, in the same transaction: readers
//! only ever see committed data, so the indexes are exact for them all.
//!
//! The group commit defers the indexes from the second writer of a transaction on: a transaction
//! of one writer flushes its entries once either way, and writing them at once spares it the queue.
//!
//! The deferral belongs to one transaction: the connection's commit and rollback hooks end it
//! whatever ends the transaction, and a commit that would leave entries queued is turned into a
//! rollback, so an index can never be committed behind its table.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};

use rusqlite::functions::FunctionFlags;

use super::sql::{Connection, Result};

/// Each search index: the bit its triggers pass to `search_deferred`, its name (its queue is
/// `<name>_queue`), and the columns both have (migration 18).
pub(super) const INDEXES: [(u8, &str, &str); 3] = [
    (1, "users_search", "first_name, last_name, email"),
    (2, "usage_history_search", "campaign_name"),
    (4, "campaigns_search", "names"),
];

#[derive(Default)]
struct Deferral {
    /// The triggers queue the index entries (`search_deferred(index)` answers true).
    on: AtomicBool,
    /// The indexes (their bits) with entries queued since the deferral began.
    queued: AtomicU8,
}

/// Registers `search_deferred(index)` (for the triggers), `search_defer(on)` (for [`defer`] and
/// [`flush`]) and the hooks that end a deferral with its transaction, on one SQLite connection.
pub(super) fn register(conn: &rusqlite::Connection) -> rusqlite::Result<()> {
    let deferral = Arc::new(Deferral::default());
    let state = deferral.clone();
    // Not deterministic: it answers the connection's state of the moment.
    conn.create_scalar_function("search_deferred", 1, FunctionFlags::SQLITE_UTF8, move |ctx| {
        let on = state.on.load(Ordering::Relaxed);
        if on {
            // Asked when a trigger is about to queue an entry of that index (its other
            // conditions hold), or about to decide whether to.
            state.queued.fetch_or(ctx.get::<u8>(0)?, Ordering::Relaxed);
        }
        Ok(on)
    })?;
    let state = deferral.clone();
    // Direct only: no trigger or view may switch the deferral.
    conn.create_scalar_function(
        "search_defer",
        1,
        FunctionFlags::SQLITE_UTF8 | FunctionFlags::SQLITE_DIRECTONLY,
        move |ctx| {
            state.on.store(ctx.get::<bool>(0)?, Ordering::Relaxed);
            Ok(state.queued.swap(0, Ordering::Relaxed))
        },
    )?;
    let state = deferral.clone();
    conn.commit_hook(Some(move || {
        state.on.store(false, Ordering::Relaxed);
        let unflushed = state.queued.swap(0, Ordering::Relaxed) != 0;
        if unflushed {
            tracing::error!("a transaction queued search index entries and did not flush them: rolled back");
        }
        // True turns the COMMIT into a rollback.
        unflushed
    }))?;
    conn.rollback_hook(Some(move || {
        deferral.on.store(false, Ordering::Relaxed);
        deferral.queued.store(0, Ordering::Relaxed);
    }))
}

/// Makes the triggers queue the search index entries until [`flush`], for the open transaction.
/// Nothing to do on PostgreSQL, whose trigram indexes are the tables' own.
pub(super) fn defer(conn: &Connection) -> Result<()> {
    if conn.is_postgres() {
        return Ok(());
    }
    conn.prepare_cached("SELECT search_defer(1)")?.query_row([], |_| Ok(()))
}

/// Ends the deferral and writes what was queued into the indexes, emptying the queues; call it
/// just before the COMMIT.
pub(super) fn flush(conn: &Connection) -> Result<()> {
    if conn.is_postgres() {
        return Ok(());
    }
    let queued: u8 = conn.prepare_cached("SELECT search_defer(0)")?.query_row([], |row| row.get(0))?;
    for (bit, index, columns) in INDEXES {
        if queued & bit == 0 {
            continue;
        }
        // The command column is NULL for an entry added and 'delete' for one taken out, in the
        // order the writes made them.
        conn.prepare_cached(&format!(
            "INSERT INTO {index} ({index}, rowid, {columns}) \
             SELECT command, row_id, {columns} FROM {index}_queue ORDER BY seq"
        ))?
        .execute([])?;
        conn.prepare_cached(&format!("DELETE FROM {index}_queue"))?.execute([])?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::migrated_in_memory;

    /// A migrated database whose usage rows may stand alone (no employee, asset or campaign).
    fn fresh() -> Connection {
        let conn = migrated_in_memory().unwrap();
        conn.execute_batch("PRAGMA foreign_keys = OFF").unwrap();
        conn
    }

    /// A fresh database with a transaction open that defers the search indexes.
    fn deferring() -> Connection {
        let conn = fresh();
        conn.begin_write(crate::db::dialect::Isolation::Serializable).unwrap();
        defer(&conn).unwrap();
        conn
    }

    fn add_use(conn: &Connection, id: i64, campaign: &str) {
        conn.execute(
            "INSERT INTO usage_history (id, employee_id, asset_id, partner_id, campaign_id, category_id,
                 employee_email, asset_name, partner_name, campaign_name, category_name, discount_percent)
             VALUES (?1, 1, 1, 1, 1, 1, 'e@perk.az', 'A', 'P', ?2, 'C', 10)",
            (id, campaign),
        )
        .unwrap();
    }

    /// The ids the index finds for a folded trigram term, in order.
    fn found(conn: &Connection, term: &str) -> Vec<i64> {
        let mut statement = conn
            .prepare("SELECT rowid FROM usage_history_search WHERE usage_history_search MATCH ?1 ORDER BY rowid")
            .unwrap();
        let rows: Vec<i64> =
            statement.query_map([format!("\"{term}\"")], |row| row.get(0)).unwrap().collect::<Result<_>>().unwrap();
        rows
    }

    fn queued(conn: &Connection) -> i64 {
        conn.query_row("SELECT COUNT(*) FROM usage_history_search_queue", [], |row| row.get(0)).unwrap()
    }

    #[test]
    fn a_deferred_transaction_writes_the_index_at_its_flush_in_the_order_of_the_writes() {
        let conn = deferring();
        add_use(&conn, 1, "Şənbə endirimi");
        add_use(&conn, 2, "Bazar günü");
        conn.execute("UPDATE usage_history SET campaign_name = 'Cümə axşamı' WHERE id = 2", []).unwrap();
        add_use(&conn, 3, "Silinəcək");
        conn.execute("UPDATE usage_history SET deleted_at = '2026-11-27T00:00:00.000Z' WHERE id = 3", []).unwrap();
        assert_eq!(found(&conn, "senbe"), Vec::<i64>::new(), "nothing reaches the index before the flush");
        assert_eq!(queued(&conn), 6, "three added, one renamed (out and in), one deleted");
        flush(&conn).unwrap();
        conn.commit().unwrap();
        assert_eq!(queued(&conn), 0);
        assert_eq!(found(&conn, "senbe"), vec![1]);
        assert_eq!(found(&conn, "cume"), vec![2]);
        assert_eq!(found(&conn, "bazar"), Vec::<i64>::new(), "the old name left the index");
        assert_eq!(found(&conn, "silinecek"), Vec::<i64>::new(), "the deleted row left the index");
        // The deferral ended with the transaction: a write outside one reaches the index at once.
        add_use(&conn, 4, "Bazar ertəsi");
        assert_eq!((found(&conn, "bazar"), queued(&conn)), (vec![4], 0));
    }

    #[test]
    fn a_savepoint_rolled_back_takes_its_queued_entries_with_it() {
        let conn = fresh();
        add_use(&conn, 1, "Köhnə ad");
        conn.begin_write(crate::db::dialect::Isolation::Serializable).unwrap();
        defer(&conn).unwrap();
        conn.execute_batch("SAVEPOINT writer").unwrap();
        add_use(&conn, 2, "Yeni endirim");
        conn.execute("UPDATE usage_history SET campaign_name = 'Başqa ad' WHERE id = 1", []).unwrap();
        conn.execute_batch("ROLLBACK TO writer; RELEASE writer").unwrap();
        conn.execute_batch("SAVEPOINT writer").unwrap();
        add_use(&conn, 3, "Yeni kampaniya");
        conn.execute_batch("RELEASE writer").unwrap();
        flush(&conn).unwrap();
        conn.commit().unwrap();
        assert_eq!(found(&conn, "yeni"), vec![3]);
        assert_eq!(found(&conn, "kohne"), vec![1], "the rolled-back rename left the old entry in place");
        assert_eq!(found(&conn, "basqa"), Vec::<i64>::new());
        let check =
            conn.execute("INSERT INTO usage_history_search (usage_history_search) VALUES ('integrity-check')", []);
        assert!(check.is_ok(), "{check:?}");
    }

    #[test]
    fn a_commit_that_would_leave_entries_queued_is_rolled_back() {
        let conn = deferring();
        add_use(&conn, 1, "Unudulmuş");
        assert!(conn.commit().is_err(), "the COMMIT is refused");
        assert!(conn.is_autocommit());
        let rows: i64 = conn.query_row("SELECT COUNT(*) FROM usage_history", [], |row| row.get(0)).unwrap();
        assert_eq!((rows, queued(&conn)), (0, 0), "nothing of the transaction was kept");
        // And the connection writes the index at once again.
        add_use(&conn, 2, "Unudulmuş");
        assert_eq!(found(&conn, "unudulmus"), vec![2]);
    }

    #[test]
    fn a_rollback_ends_the_deferral() {
        let conn = deferring();
        add_use(&conn, 1, "Geri alınan");
        conn.rollback().unwrap();
        add_use(&conn, 2, "Geri alınan");
        assert_eq!((found(&conn, "geri"), queued(&conn)), (vec![2], 0));
    }

    #[test]
    fn the_users_and_campaigns_indexes_are_queued_and_flushed_too() {
        let conn = deferring();
        conn.execute(
            "INSERT INTO users (first_name, last_name, email, password_hash, totp_secret)
             VALUES ('İlkin', 'Məmmədov', 'ilkin@perk.az', 'x', 'y')",
            [],
        )
        .unwrap();
        conn.execute(
            "INSERT INTO campaigns (partner_id, campaign_category_id, discount_percent, start_date, expire_date,
                 name_az, name_en, name_ru, description_az, description_en, description_ru)
             VALUES (1, 1, 10, '2026-01-01', '2026-12-31', 'Qış güzəşti', 'Winter deal', 'Зимняя скидка', '', '', '')",
            [],
        )
        .unwrap();
        let hits = |conn: &Connection, sql: &str| -> i64 { conn.query_row(sql, [], |row| row.get(0)).unwrap() };
        let users = "SELECT COUNT(*) FROM users_search WHERE users_search MATCH 'last_name : \"memmedov\"'";
        let campaigns = "SELECT COUNT(*) FROM campaigns_search WHERE campaigns_search MATCH '\"guzes\" AND \"зимняя\"'";
        let queues = "SELECT (SELECT COUNT(*) FROM users_search_queue) + (SELECT COUNT(*) FROM campaigns_search_queue)";
        assert_eq!((hits(&conn, users), hits(&conn, campaigns), hits(&conn, queues)), (0, 0, 2));
        flush(&conn).unwrap();
        conn.commit().unwrap();
        assert_eq!((hits(&conn, users), hits(&conn, campaigns), hits(&conn, queues)), (1, 1, 0));
    }
}
