//! Running work on the database: reads on the blocking pool or, for a point look-up, on the
//! calling thread; writes in their turn among the writers on a shared transaction (`batch`),
//! answered once committed; a request's unit of work kept open until its answer is recorded.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use super::dialect::Isolation;
use super::sql::{Connection, Transaction};
use super::{Actor, Db, Unit, activity, batch};
use crate::core::error::{AppError, AppResult};

/// Steps of SQLite's virtual machine a brief read may take on the calling thread (see
/// [`Db::read_briefly`]): some tenths of a millisecond; a list's first page takes a few hundred.
const BRIEF_STEPS: std::ffi::c_int = 20_000;
/// How often, in steps, SQLite asks whether a brief read has become a long one.
const STEPS_BETWEEN_CHECKS: std::ffi::c_int = 1_000;

impl Db {
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
        let turn = self.turns.take_owned().await?;
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
        if !self.may_read_on_caller() {
            return self.run(move |conn| work(conn)).await;
        }
        let _turn = self.turns.take().await?;
        let conn = self.pool.get()?;
        work(&conn)
    }

    /// Whether a read may run on the calling thread: not inside a request whose write is open
    /// (the read belongs on that write's connection), and never on PostgreSQL, where a statement
    /// is a round trip to the server.
    fn may_read_on_caller(&self) -> bool {
        !Unit::current().is_some_and(|unit| unit.has_open()) && !self.is_postgres()
    }

    /// Runs a read that is brief as a rule but may not be (a list's page: a few steps down an
    /// index, unless its filters make it a scan) on the calling thread, as [`Db::look_up`] does,
    /// and on the blocking pool once it proves long: SQLite interrupts it after [`BRIEF_STEPS`]
    /// steps of its virtual machine, and it starts over there. A read has nothing to undo. The
    /// hand-over to the blocking pool, a wake-up on each side, was a fifth of a list's time.
    pub async fn read_briefly<T, F>(&self, work: F) -> AppResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&mut Connection) -> AppResult<T> + Clone + Send + 'static,
    {
        if !self.may_read_on_caller() {
            return self.run(work).await;
        }
        {
            let _turn = self.turns.take().await?;
            let mut conn = self.pool.get()?;
            let Some(sqlite) = conn.sqlite() else {
                return Err(anyhow::anyhow!("a PostgreSQL connection in a SQLite pool").into());
            };
            let interrupted = Arc::new(AtomicBool::new(false));
            let raised = interrupted.clone();
            // SQLite calls the handler when a statement's steps, counted over all its runs since
            // it was prepared, pass a multiple of the interval: a kept statement's first call
            // may come after its first step. Counting the calls bounds this read's own steps.
            let mut calls = 0;
            // Refused only for a connection perkdesk does not own, so the removal below, after a
            // setting that worked, cannot fail.
            sqlite.progress_handler(
                STEPS_BETWEEN_CHECKS,
                Some(move || {
                    calls += 1;
                    let long = calls > BRIEF_STEPS / STEPS_BETWEEN_CHECKS;
                    if long {
                        raised.store(true, Ordering::Relaxed);
                    }
                    long
                }),
            )?;
            // The handler is taken off before the connection goes back to the pool, even when the
            // work panics (the panic then goes on to the request's own handling of it).
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                Actor::current().enter(|| work.clone()(&mut conn))
            }));
            if let Some(sqlite) = conn.sqlite() {
                sqlite.progress_handler(0, None::<fn() -> bool>)?;
            }
            let result = result.unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            if !interrupted.load(Ordering::Relaxed) {
                return result;
            }
        }
        self.run(work).await
    }

    /// Runs `work` so that all of it is written, or none of it, and returns once it is committed.
    /// Inside an idempotent request the work stays open until [`Db::finish_unit`] records the
    /// answer beside it.
    pub async fn write<T, F>(&self, work: F) -> AppResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&Connection) -> AppResult<T> + Send + 'static,
    {
        self.write_with(Isolation::Serializable, work).await
    }

    /// [`Db::write`] with the isolation of the transaction the write begins (see [`Isolation`]).
    pub async fn write_with<T, F>(&self, isolation: Isolation, work: F) -> AppResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&Connection) -> AppResult<T> + Send + 'static,
    {
        let Some(unit) = Unit::current().filter(|unit| !unit.is_split()) else {
            return self.write_now(isolation, work).await;
        };
        let Some((claimed, turn)) = self.request_turn(&unit, isolation).await? else {
            return self.write_now(isolation, work).await;
        };
        let (turn, value) = work_in_turn(turn, work).await?;
        keep_open(&unit, turn, claimed, value.is_ok()).await?;
        value
    }

    /// The turn a write of the request of `unit` runs in, and whether it holds the request's
    /// claim: the claim's (PostgreSQL), where every write of the request goes on, each in a
    /// savepoint of its own, until the answer is recorded; else a new one; `None` for a second
    /// write, after the first was kept and committed on its own (the answer will be recorded in
    /// a write of its own). Apart from [`Db::write_with`], which each write's closure makes an
    /// instance of, so its code is in the binary once.
    async fn request_turn(&self, unit: &Unit, isolation: Isolation) -> AppResult<Option<(bool, batch::Turn)>> {
        if let Some(claimed) = unit.take_claimed(isolation) {
            return Ok(Some((true, claimed)));
        }
        if unit.is_unconfirmed() && unit.has_open() {
            // Committing the claim's transaction now would commit work of a caller not yet
            // confirmed: the request runs again, checked first (`Db::claim_ahead`).
            unit.ask_to_run_again();
            return Err(AppError::Contended);
        }
        if let Some(first) = unit.take() {
            unit.mark_split();
            let committed = crate::db::spawn_blocking(move || keep_and_end(first)).await??;
            self.writers.committed(committed).await?;
            return Ok(None);
        }
        Ok(Some((false, self.writers.turn(isolation).await?)))
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
        self.write_point_with(Isolation::Serializable, work).await
    }

    /// [`Db::write_point`] with the isolation of the transaction the write begins (see
    /// [`Isolation`]).
    pub async fn write_point_with<T, F>(&self, isolation: Isolation, work: F) -> AppResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&Connection) -> AppResult<T> + Send + 'static,
    {
        let unit = Unit::current().filter(|unit| !unit.is_split());
        if self.is_postgres() || unit.as_ref().is_some_and(|unit| unit.has_open()) {
            return self.write_with(isolation, work).await;
        }
        let mut turn = self.writers.turn(isolation).await?;
        if !turn.joins_open() {
            return match unit {
                Some(unit) => {
                    let (turn, value) = work_in_turn(turn, work).await?;
                    keep_open(&unit, turn, false, value.is_ok()).await?;
                    value
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
    async fn write_now<T, F>(&self, isolation: Isolation, work: F) -> AppResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&Connection) -> AppResult<T> + Send + 'static,
    {
        let turn = self.writers.turn(isolation).await?;
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

    /// A write that need not be in the request's own transaction (an API key's last-use stamp):
    /// inside a request whose transaction holds its claim (`Db::claim_then_look_up`), it is set
    /// aside and runs in a transaction of its own once the request's has ended
    /// ([`Db::finish_unit`]); otherwise it runs now in a transaction of its own, outside any
    /// request's unit of work (it is no part of the request's answer). In the claim's transaction
    /// it would hold its row until that commit, and every request of the same key at that moment
    /// would queue behind it (or, serializable, fail each other); on a connection of its own while
    /// the request holds one, it could wait for one that every request holding a claim waits for.
    pub async fn write_aside<F>(&self, work: F) -> AppResult<()>
    where
        F: FnOnce(&Connection) -> AppResult<()> + Send + 'static,
    {
        match Unit::current().filter(|unit| unit.holds_claim()) {
            Some(unit) => {
                unit.set_aside(Box::new(work));
                Ok(())
            }
            None => self.write_now(Isolation::Serializable, work).await,
        }
    }

    /// Ends a request's unit of work: `record` runs beside the request's write (or as a write of
    /// its own when the request wrote nothing, or wrote twice), then all of it commits; then the
    /// writes set aside ([`Db::write_aside`]) run, each on its own, their failures logged (the
    /// request's answer is already committed).
    pub async fn finish_unit<F>(&self, unit: &Unit, record: Option<F>) -> AppResult<()>
    where
        F: FnOnce(&Connection) -> AppResult<()> + Send + 'static,
    {
        let finished = self.finish_unit_work(unit, record).await;
        self.write_set_aside(unit).await;
        finished
    }

    /// Runs the writes set aside in `unit` ([`Db::write_aside`]), each on its own.
    async fn write_set_aside(&self, unit: &Unit) {
        for write in unit.take_aside() {
            if let Err(error) = self.write(write).await {
                tracing::warn!(%error, "a write set aside until its request ended failed");
            }
        }
    }

    async fn finish_unit_work<F>(&self, unit: &Unit, record: Option<F>) -> AppResult<()>
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
                let committed = crate::db::spawn_blocking(move || {
                    if let Some(record) = record {
                        record(open.conn()?)?;
                    }
                    keep_and_end(open)
                })
                .await??;
                self.writers.committed(committed).await
            }
            (None, Some(record)) => self.write_now(Isolation::Serializable, record).await,
            (None, None) => Ok(()),
        }
    }
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
    crate::db::spawn_blocking(move || actor.enter(work))
}

/// Runs `work` in `turn` on the blocking pool, as the caller, and hands the turn back with the
/// work still in its savepoint, or, when it failed, undone. One function for every way a write
/// joins a request's unit: each write's closure makes an instance of it, and every path that
/// ran `work` in its own would be another (a claimed transaction's path of its own added half a
/// megabyte of code to the release binary).
async fn work_in_turn<T, F>(mut turn: batch::Turn, work: F) -> AppResult<(batch::Turn, AppResult<T>)>
where
    T: Send + 'static,
    F: FnOnce(&Connection) -> AppResult<T> + Send + 'static,
{
    Ok(as_caller(move || {
        let value = turn.work(work);
        if value.is_err() {
            turn.discard();
        }
        (turn, value)
    })
    .await?)
}

/// Keeps a request's open write in its unit once the work in `turn` is done (`worked`). A work
/// that failed was undone in its savepoint: a turn holding the request's claim stays open with
/// what it held before; another ends (its transaction, now without it, committed if due).
async fn keep_open(unit: &Unit, turn: batch::Turn, claimed: bool, worked: bool) -> AppResult<()> {
    if worked || claimed {
        unit.put(turn);
        return Ok(());
    }
    commit_off_thread(turn.end_leaving_commit()).await
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
        crate::db::spawn_blocking(move || drop(commit)).await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::super::Db;
    use crate::core::error::AppResult;

    /// A brief read runs once, on the calling thread; a long one (a scan of 20,000 rows) is
    /// interrupted there and runs again, whole, on the blocking pool, answering as if it had run
    /// once; the connection it was interrupted on, or panicked on, reads long afterwards.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_brief_read_runs_once_and_a_long_one_again_on_the_blocking_pool() {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(&dir.path().join("brief.db"), &crate::db::Declared::default()).unwrap();
        db.conn()
            .unwrap()
            .execute_batch(
                "CREATE TABLE t (x INTEGER NOT NULL);
                 WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 20000)
                 INSERT INTO t SELECT x FROM n;",
            )
            .unwrap();
        let read = |sql: &'static str, runs: Arc<AtomicUsize>| {
            move |conn: &mut crate::db::sql::Connection| -> AppResult<i64> {
                runs.fetch_add(1, Ordering::SeqCst);
                Ok(conn.prepare_cached(sql)?.query_row([], |r| r.get(0))?)
            }
        };
        let runs = Arc::new(AtomicUsize::new(0));
        let sum = db.read_briefly(read("SELECT SUM(x) FROM t WHERE rowid <= 10", runs.clone())).await.unwrap();
        assert_eq!((sum, runs.load(Ordering::SeqCst)), (55, 1), "a brief read runs once");

        let runs = Arc::new(AtomicUsize::new(0));
        let sum = db.read_briefly(read("SELECT SUM(x) FROM t", runs.clone())).await.unwrap();
        assert_eq!(sum, 20000 * 20001 / 2, "the long read's answer is whole");
        assert_eq!(runs.load(Ordering::SeqCst), 2, "interrupted once, then run again");

        // A read that panics on the calling thread leaves its connection without the handler.
        let panicking = db.clone();
        let panicked = tokio::spawn(async move {
            panicking
                .read_briefly(|conn| -> AppResult<i64> {
                    let _: i64 = conn.query_row("SELECT COUNT(*) FROM t WHERE rowid < 5", [], |r| r.get(0))?;
                    panic!("a read that panics")
                })
                .await
        })
        .await;
        assert!(panicked.is_err_and(|error| error.is_panic()));

        // Every pooled connection is free of the interruption afterwards.
        for _ in 0..16 {
            let sum: i64 = db.run(|conn| Ok(conn.query_row("SELECT SUM(x) FROM t", [], |r| r.get(0))?)).await.unwrap();
            assert_eq!(sum, 20000 * 20001 / 2);
        }
    }
}
