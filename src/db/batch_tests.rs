//! The group commit's tests: shared transactions walked turn by turn.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use super::super::{Db, Unit};
use super::Waiting;
use crate::core::error::AppError;

fn database() -> (tempfile::TempDir, Db) {
    let dir = tempfile::tempdir().unwrap();
    let mut db = Db::open(&dir.path().join("batch.db"), &crate::db::Declared::default()).unwrap();
    // The tests decide when a shared transaction commits, not the machine's speed.
    db.writers.max_age = Duration::from_secs(3600);
    db.conn().unwrap().execute_batch("CREATE TABLE t (x INTEGER NOT NULL)").unwrap();
    (dir, db)
}

fn rows(db: &Db) -> Vec<i64> {
    let conn = db.conn().unwrap();
    let mut statement = conn.prepare("SELECT x FROM t ORDER BY x").unwrap();
    statement.query_map([], |r| r.get(0)).unwrap().collect::<Result<_, _>>().unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_writers_keep_their_own_work_and_a_refused_one_leaves_nothing() {
    concurrent_writers(false).await;
}

/// The same with point writes, most of which join the open transaction on the calling thread
/// and hand the commit to the blocking pool.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_point_writers_keep_their_own_work_and_a_refused_one_leaves_nothing() {
    concurrent_writers(true).await;
}

async fn concurrent_writers(point: bool) {
    let (_dir, db) = database();
    let writers: Vec<_> = (0..64i64)
        .map(|x| {
            let db = db.clone();
            tokio::spawn(async move {
                let work = move |conn: &super::Connection| {
                    conn.execute("INSERT INTO t (x) VALUES (?1)", [x])?;
                    add_writer(conn, x)?;
                    if x % 5 == 0 { Err(AppError::BadRequest("refused".into())) } else { Ok(x) }
                };
                if point { db.write_point(work).await } else { db.write(work).await }
            })
        })
        .collect();
    for (x, writer) in (0..64i64).zip(writers) {
        let answer = writer.await.unwrap();
        assert_eq!(answer.is_ok(), x % 5 != 0, "writer {x}");
        // Answered means committed: another connection already sees it.
        if answer.is_ok() {
            let seen: i64 =
                db.conn().unwrap().query_row("SELECT COUNT(*) FROM t WHERE x = ?1", [x], |r| r.get(0)).unwrap();
            assert_eq!(seen, 1, "writer {x} answered before its commit");
        }
    }
    let kept: Vec<i64> = (0..64).filter(|x| x % 5 != 0).collect();
    assert_eq!(rows(&db), kept);
    assert_indexed(&db, &kept);
}

fn count(conn: &super::Connection, sql: &str) -> i64 {
    conn.query_row(sql, [], |r| r.get(0)).unwrap()
}

/// Adds a staff user `writer<x>@perk.az`; answers whether its search entry was queued (else it
/// is in the index already).
fn add_writer(conn: &super::Connection, x: i64) -> Result<bool, AppError> {
    conn.execute(
        "INSERT INTO users (first_name, last_name, email, password_hash, totp_secret)
         VALUES ('Yazan', 'Soyad', ?1, 'x', 'y')",
        [format!("writer{x}@perk.az")],
    )?;
    let queued = count(conn, &format!("SELECT COUNT(*) FROM users_search_queue WHERE email = 'writer{x}@perk.az'"));
    let indexed =
        count(conn, &format!("SELECT COUNT(*) FROM users_search WHERE users_search MATCH 'email : \"writer{x}@\"'"));
    assert_eq!(queued + indexed, 1, "writer {x}: {queued} queued, {indexed} in the index");
    Ok(queued == 1)
}

/// The search index as the writers left it: the kept writers' entries, nothing queued.
fn assert_indexed(db: &Db, kept: &[i64]) {
    let conn = db.conn().unwrap();
    let mut statement = conn
        .prepare("SELECT u.email FROM users_search s JOIN users u ON u.id = s.rowid WHERE users_search MATCH 'email : \"writer\"'")
        .unwrap();
    let mut found: Vec<String> = statement.query_map([], |r| r.get(0)).unwrap().collect::<Result<_, _>>().unwrap();
    let mut expected: Vec<String> = kept.iter().map(|x| format!("writer{x}@perk.az")).collect();
    // Concurrent writers take ids in the order their turns came.
    found.sort();
    expected.sort();
    assert_eq!(found, expected);
    assert_eq!(count(&conn, "SELECT COUNT(*) FROM users_search_queue"), 0);
    conn.execute("INSERT INTO users_search (users_search) VALUES ('integrity-check')", []).unwrap();
}

/// SQLite's search index: the first writer of a shared transaction writes its entries at once;
/// from the second on they wait in their queue and reach the index with the commit, and a
/// refused writer's queued entry goes with its savepoint.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn from_the_second_writer_on_search_entries_wait_for_the_commit() {
    let (_dir, db) = database();
    let queue = db.writers.clone();
    // Counted as waiting, so each turn's end passes the transaction on instead of committing it.
    let waiting = Waiting::start(&queue.waiting);
    for (x, keep) in [(1, true), (2, false), (3, true)] {
        let mut turn = queue.turn(super::Isolation::default()).await.unwrap();
        let queued = tokio::task::spawn_blocking(move || {
            let queued = turn.work(|conn| add_writer(conn, x)).unwrap();
            if keep {
                turn.keep().unwrap();
            }
            turn.end(false);
            queued
        })
        .await
        .unwrap();
        assert_eq!(queued, x > 1, "writer {x}");
    }
    drop(waiting);
    let turn = queue.turn(super::Isolation::default()).await.unwrap();
    tokio::task::spawn_blocking(move || turn.end(true)).await.unwrap();
    assert_indexed(&db, &[1, 3]);
}

/// A point write that begins the shared transaction does so on the blocking pool; one that
/// joins it while it is open runs on the calling thread; both commit together.
#[tokio::test]
async fn a_point_write_joining_an_open_transaction_runs_on_the_calling_thread() {
    let (_dir, db) = database();
    let here = std::thread::current().id();
    let point_write = |db: Db, x: i64| async move {
        db.write_point(move |conn| {
            conn.execute("INSERT INTO t (x) VALUES (?1)", [x])?;
            Ok(std::thread::current().id())
        })
        .await
    };
    // A request's unit keeps its turn, and so the transaction, open after its write.
    let unit = Arc::new(Unit::default());
    let first = unit.clone().scope(point_write(db.clone(), 1)).await.unwrap();
    let second = tokio::spawn(point_write(db.clone(), 2));
    while db.writers.waiting.load(Ordering::SeqCst) == 0 {
        tokio::task::yield_now().await;
    }
    // Its answer recorded, the first writer passes the open transaction to the second.
    let record = |conn: &super::Connection| -> Result<(), AppError> {
        conn.execute("INSERT INTO t (x) VALUES (10)", [])?;
        Ok(())
    };
    db.finish_unit(&unit, Some(record)).await.unwrap();
    let second = second.await.unwrap().unwrap();
    assert_ne!(first, here, "the first point write began the transaction on the blocking pool");
    assert_eq!(second, here, "the second joined it on the calling thread");
    assert_eq!(rows(&db), vec![1, 2, 10]);
    assert!(db.conn().unwrap().is_autocommit(), "committed");
}

/// A refused point write that joined the open transaction leaves nothing, and the others' work
/// is committed.
#[tokio::test]
async fn a_refused_point_write_joining_an_open_transaction_leaves_nothing() {
    let (_dir, db) = database();
    let unit = Arc::new(Unit::default());
    let first = db.clone();
    unit.clone()
        .scope(async move { first.write_point(|conn| Ok(conn.execute("INSERT INTO t (x) VALUES (1)", [])?)).await })
        .await
        .unwrap();
    let refused = tokio::spawn({
        let db = db.clone();
        async move {
            db.write_point(|conn| -> Result<(), AppError> {
                conn.execute("INSERT INTO t (x) VALUES (2)", [])?;
                Err(AppError::BadRequest("refused".into()))
            })
            .await
        }
    });
    while db.writers.waiting.load(Ordering::SeqCst) == 0 {
        tokio::task::yield_now().await;
    }
    db.finish_unit(&unit, None::<fn(&super::Connection) -> Result<(), AppError>>).await.unwrap();
    assert!(matches!(refused.await.unwrap(), Err(AppError::BadRequest(_))));
    assert_eq!(rows(&db), vec![1]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_writer_left_waiting_by_a_cancelled_one_commits_the_transaction_itself() {
    let (_dir, db) = database();
    let queue = db.writers.clone();
    let mut first = queue.turn(super::Isolation::default()).await.unwrap();
    // A writer is counted as waiting when the first one's turn ends, so the transaction is
    // passed on rather than committed; that writer is then cancelled before its turn comes
    // (counted by hand here: a real one races with the end of the turn).
    let waiting = Waiting::start(&queue.waiting);
    let committed = tokio::task::spawn_blocking(move || {
        first.begin().unwrap();
        first.conn().unwrap().execute("INSERT INTO t (x) VALUES (7)", []).unwrap();
        let committed = first.keep().unwrap();
        first.end(false);
        committed
    })
    .await
    .unwrap();
    drop(waiting);
    let waited = std::time::Instant::now();
    tokio::time::timeout(Duration::from_secs(5), queue.committed(committed)).await.unwrap().unwrap();
    assert!(waited.elapsed() >= super::RESCUE_AFTER / 2, "committed by the rescue, not by the cancelled writer");
    assert_eq!(rows(&db), vec![7]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_abandoned_turn_undoes_its_work_and_the_next_writer_goes_on() {
    let (_dir, db) = database();
    let queue = db.writers.clone();
    let mut abandoned = queue.turn(super::Isolation::default()).await.unwrap();
    tokio::task::spawn_blocking(move || {
        abandoned.begin().unwrap();
        abandoned.conn().unwrap().execute("INSERT INTO t (x) VALUES (1)", []).unwrap();
        drop(abandoned);
    })
    .await
    .unwrap();
    db.write(|conn| Ok(conn.execute("INSERT INTO t (x) VALUES (2)", [])?)).await.unwrap();
    assert_eq!(rows(&db), vec![2]);
}
