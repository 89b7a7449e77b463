//! Group commit. SQLite admits one writer at a time, and every commit writes each page its
//! transaction touched to the WAL: one recorded discount use touches 26 pages (the row, its
//! indexes, the search index, the maintained counts, the stored answer), 32 of them in one
//! transaction touch 109. Under many concurrent writes, one commit per request is what limits
//! throughput, so writers take turns on one open transaction instead: each writer's work runs in
//! a savepoint of its own (a refused request leaves nothing behind), and the transaction is
//! committed when no other writer is waiting for a turn, or once it holds [`MAX_MEMBERS`] writes
//! or is [`MAX_AGE`] old. A writer answers only after the commit that holds its work, so no
//! answer is ever given for work that is not yet durable and visible to every reader.
//!
//! PostgreSQL takes many writers at once and commits them together itself (its WAL is flushed
//! once for the commits waiting on it), so there each writer has a transaction of its own on a
//! connection of its own ([`Queue::solo`]): writers go side by side instead of in turn, with no
//! savepoint around each. One shared transaction per server made every PostgreSQL write wait for
//! the round trips of all the writes before it in line.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use tokio::sync::{Mutex as AsyncMutex, OwnedMutexGuard, OwnedSemaphorePermit, watch};

use super::dialect::Isolation;
use super::sql::Connection;
use super::turns::Turns;
use super::{Pool, PooledConnection};
use crate::core::error::{AppError, AppResult};

/// Writes committed together at most; bounds how long the first of them waits for its answer.
const MAX_MEMBERS: usize = 64;
/// Age after which a shared transaction is committed even while writers are still waiting.
const MAX_AGE: Duration = Duration::from_millis(10);
/// A writer whose transaction has not committed after this long commits it itself. Only a writer
/// that gave up its place in line (a cancelled request) leaves a transaction open that long.
const RESCUE_AFTER: Duration = Duration::from_millis(250);

/// What became of a shared transaction: committed, or why it was not.
type Outcome = Option<Result<(), Failure>>;

#[derive(Clone)]
struct Failure {
    message: Arc<str>,
    /// It lost to a concurrent transaction (PostgreSQL): its writers may run again.
    contended: bool,
}

/// Where a writer learns whether the transaction that holds its work committed.
pub struct Committed(watch::Receiver<Outcome>);

/// The open shared transaction, if any; whoever holds the queue's lock may add to it.
#[derive(Default)]
pub struct Shared {
    open: Option<Batch>,
}

struct Batch {
    conn: PooledConnection,
    /// Where its size is counted when it ends.
    load: Arc<Load>,
    /// The pool turn of the connection, given back after it (fields drop in order).
    _turn: OwnedSemaphorePermit,
    members: usize,
    begun: Instant,
    outcome: watch::Sender<Outcome>,
    /// SQLite's search index entries are queued for the commit (`search_queue.rs`): set when a
    /// second writer joins. The first writes them at once, as a transaction of one writer would
    /// flush them once either way.
    search_deferred: bool,
}

impl Batch {
    /// Commits (or, when SQLite already rolled the transaction back, reports that) and tells
    /// every writer in it.
    fn finish(self) {
        self.load.ended(self.members);
        let outcome = if self.conn.is_autocommit() {
            Err(Failure {
                message: Arc::from("the write transaction was rolled back by the database"),
                contended: false,
            })
        } else {
            let flushed = if self.search_deferred { super::search_queue::flush(&self.conn) } else { Ok(()) };
            flushed.and_then(|()| self.conn.commit()).map_err(|error| {
                if !self.conn.is_autocommit()
                    && let Err(rollback) = self.conn.rollback()
                {
                    tracing::error!(error = %rollback, "cannot roll back a transaction that failed to commit");
                }
                Failure { message: Arc::from(error.to_string()), contended: error.is_contended() }
            })
        };
        self.outcome.send_replace(Some(outcome));
    }
}

/// Writers line up here, first come, first served.
#[derive(Clone)]
pub struct Queue {
    shared: Arc<AsyncMutex<Shared>>,
    waiting: Arc<AtomicUsize>,
    load: Arc<Load>,
    pool: Pool,
    turns: Arc<Turns>,
    /// [`MAX_AGE`]; the tests that walk a shared transaction turn by turn raise it, so that a slow
    /// machine cannot commit it between their steps.
    max_age: Duration,
    /// Every writer has a transaction of its own, committed as its turn ends (PostgreSQL).
    solo: bool,
}

/// The shared transactions that ended and the writes they held: how loaded the writers are. A
/// transaction holds more than one write only when writers overlap (they queue while one commits),
/// so the writes per transaction tell a busy database from a quiet one whatever the machine.
#[derive(Default)]
struct Load {
    transactions: std::sync::atomic::AtomicU64,
    writes: std::sync::atomic::AtomicU64,
}

impl Load {
    fn ended(&self, members: usize) {
        self.transactions.fetch_add(1, Ordering::Relaxed);
        self.writes.fetch_add(members as u64, Ordering::Relaxed);
    }
}

/// A reading of the writers' load: shared transactions ended and the writes they held, since the
/// server started; two readings tell the writes per transaction between them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WriteLoad {
    pub transactions: u64,
    pub writes: u64,
}

impl WriteLoad {
    /// The writes per shared transaction since `earlier`; `None` when none ended.
    pub fn writes_per_transaction_since(self, earlier: WriteLoad) -> Option<f64> {
        let transactions = self.transactions.checked_sub(earlier.transactions).filter(|n| *n > 0)?;
        Some(self.writes.saturating_sub(earlier.writes) as f64 / transactions as f64)
    }
}

/// Counts a writer as waiting for as long as it waits, however the wait ends.
struct Waiting(Arc<AtomicUsize>);

impl Waiting {
    fn start(count: &Arc<AtomicUsize>) -> Waiting {
        count.fetch_add(1, Ordering::SeqCst);
        Waiting(count.clone())
    }
}

impl Drop for Waiting {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Queue {
    pub fn new(pool: Pool, turns: Arc<Turns>) -> Queue {
        Queue {
            shared: Arc::default(),
            waiting: Arc::default(),
            load: Arc::default(),
            pool,
            turns,
            max_age: MAX_AGE,
            solo: false,
        }
    }

    /// A queue where no writer waits for another: each has a transaction of its own, begun on a
    /// connection of its own and committed as its turn ends (PostgreSQL, which orders concurrent
    /// writers by its row locks and commits them together itself).
    pub fn solo(pool: Pool, turns: Arc<Turns>) -> Queue {
        Queue { solo: true, ..Queue::new(pool, turns) }
    }

    /// How many shared transactions have ended, and with how many writes in all, since the
    /// server started.
    pub fn load(&self) -> WriteLoad {
        WriteLoad {
            transactions: self.load.transactions.load(Ordering::Relaxed),
            writes: self.load.writes.load(Ordering::Relaxed),
        }
    }

    /// Waits for this writer's turn. A writer never holds a connection while it waits, so readers
    /// keep going.
    /// `isolation` is the transaction's the writer begins on its own ([`Queue::solo`]); a shared
    /// transaction (SQLite) runs its writers one at a time, which any isolation allows.
    pub async fn turn(&self, isolation: Isolation) -> AppResult<Turn> {
        if self.solo {
            // A transaction of the writer's own: nobody else joins it, so its lock is free.
            let shared = Arc::new(AsyncMutex::new(Shared::default())).lock_owned().await;
            let permit = self.turns.take_owned().await?;
            return Ok(Turn {
                shared: Some(shared),
                permit: Some(permit),
                in_savepoint: false,
                later_savepoint: false,
                earlier_work: false,
                queue: self.clone(),
                isolation,
            });
        }
        let shared = {
            let _waiting = Waiting::start(&self.waiting);
            self.shared.clone().lock_owned().await
        };
        let permit = match shared.open {
            Some(_) => None,
            None => Some(self.turns.take_owned().await?),
        };
        Ok(Turn {
            shared: Some(shared),
            permit,
            in_savepoint: false,
            later_savepoint: false,
            earlier_work: false,
            queue: self.clone(),
            isolation,
        })
    }

    /// Waits until the transaction holding a writer's work has committed. A writer that finds it
    /// still open after [`RESCUE_AFTER`] takes a turn and commits it.
    pub async fn committed(&self, Committed(mut outcome): Committed) -> AppResult<()> {
        let ended = match tokio::time::timeout(RESCUE_AFTER, settled(&mut outcome)).await {
            Ok(ended) => ended,
            Err(_) => {
                let turn = self.turn(Isolation::default()).await?;
                crate::db::spawn_blocking(move || turn.end(true)).await?;
                settled(&mut outcome).await
            }
        };
        match ended {
            Some(Ok(())) => Ok(()),
            Some(Err(Failure { message, contended: true })) => {
                tracing::info!(%message, "a shared write transaction lost to a concurrent one");
                Err(AppError::Contended)
            }
            Some(Err(Failure { message, .. })) => {
                Err(AppError::Internal(anyhow::anyhow!("the write was not saved: {message}")))
            }
            None => Err(AppError::Internal(anyhow::anyhow!("the write transaction ended without an outcome"))),
        }
    }
}

/// The outcome once there is one; `None` when the transaction went away without one.
async fn settled(outcome: &mut watch::Receiver<Outcome>) -> Outcome {
    outcome.wait_for(Option::is_some).await.ok().and_then(|seen| seen.clone())
}

/// A writer's turn on the shared transaction. Its methods do SQLite's work, so they run on the
/// blocking pool, except a point write's inside a transaction already open (`Db::write_point`).
pub struct Turn {
    shared: Option<OwnedMutexGuard<Shared>>,
    /// The pool turn taken when no transaction was open, for the one this writer begins.
    permit: Option<OwnedSemaphorePermit>,
    /// This writer has work in the transaction that is not kept yet: ending the turn undoes it.
    in_savepoint: bool,
    /// The work running is a later one in a transaction of the writer's own ([`Queue::solo`]),
    /// in a savepoint whose statements travel with the next exchange.
    later_savepoint: bool,
    /// Earlier work of this writer in its own transaction, done and not kept yet: what undoing a
    /// later one leaves to be undone as the turn ends.
    earlier_work: bool,
    queue: Queue,
    isolation: Isolation,
}

impl Turn {
    fn batch(&mut self) -> AppResult<&mut Batch> {
        self.shared
            .as_mut()
            .and_then(|shared| shared.open.as_mut())
            .ok_or_else(|| AppError::Internal(anyhow::anyhow!("no write transaction is open")))
    }

    /// Opens this writer's savepoint, first beginning the shared transaction if none is open.
    fn begin(&mut self) -> AppResult<()> {
        let solo = self.queue.solo;
        let begun = self.open()?;
        if !solo {
            if begun {
                // A second writer joins: from now on the search index entries wait for the commit.
                let batch = self.batch()?;
                if !batch.search_deferred {
                    super::search_queue::defer(&batch.conn)?;
                    batch.search_deferred = true;
                }
            }
            self.batch()?.conn.prepare_cached("SAVEPOINT writer")?.execute([])?;
        } else if begun {
            // A later write in a transaction of the writer's own (a request's writes after its
            // claim, `Db::claim_then_look_up`): its savepoint undoes only it, and costs no round
            // trip of its own.
            self.batch()?.conn.execute_batch_later("SAVEPOINT writer")?;
            self.later_savepoint = true;
        }
        // The first work in a transaction of the writer's own needs no savepoint: undoing it is
        // rolling the transaction back.
        self.in_savepoint = true;
        Ok(())
    }

    /// Begins the transaction this writer's work will run in, unless it is open already; answers
    /// whether it was.
    fn open(&mut self) -> AppResult<bool> {
        self.open_after(|_| Ok(()))
    }

    /// [`Turn::open`], with `ahead` given the connection before the transaction begins (a lock
    /// taken first, sent with the transaction's first exchange). Nothing of a writer's is in the
    /// transaction yet: a turn that ends now commits what was read in it (a claim's look-up,
    /// whose lock the commit releases).
    pub fn open_after(&mut self, ahead: impl FnOnce(&Connection) -> AppResult<()>) -> AppResult<bool> {
        let shared = self.shared.as_mut().ok_or_else(|| AppError::Internal(anyhow::anyhow!("the turn has ended")))?;
        if shared.open.is_some() {
            return Ok(true);
        }
        let turn = self.permit.take().ok_or_else(|| AppError::Internal(anyhow::anyhow!("no pool turn")))?;
        let conn = self.queue.pool.get()?;
        ahead(&conn)?;
        conn.begin_write(self.isolation)?;
        let (outcome, _) = watch::channel(None);
        shared.open = Some(Batch {
            conn,
            load: self.queue.load.clone(),
            _turn: turn,
            members: 0,
            begun: Instant::now(),
            outcome,
            search_deferred: false,
        });
        Ok(false)
    }

    /// Whether a write asking for `isolation` may go on in this turn's transaction: one begun
    /// serializable keeps any write apart; one under row locks, only a write that takes its own.
    pub fn covers(&self, isolation: Isolation) -> bool {
        self.isolation == Isolation::Serializable || self.isolation == isolation
    }

    /// Runs `work` in this writer's savepoint, begun first.
    pub fn work<T>(&mut self, work: impl FnOnce(&Connection) -> AppResult<T>) -> AppResult<T> {
        self.begin()?;
        // PostgreSQL's activity triggers learn this writer's actor from the transaction.
        super::activity::declare_writer(self.conn()?)?;
        let value = work(self.conn()?)?;
        if std::mem::take(&mut self.later_savepoint) {
            // Done: it joins the earlier work, kept or undone with it.
            self.batch()?.conn.execute_batch_later("RELEASE writer")?;
        }
        self.earlier_work = true;
        Ok(value)
    }

    /// The connection, inside this writer's savepoint.
    pub fn conn(&mut self) -> AppResult<&mut Connection> {
        Ok(&mut self.batch()?.conn)
    }

    /// Keeps this writer's work in the shared transaction.
    pub fn keep(&mut self) -> AppResult<Committed> {
        let solo = self.queue.solo;
        let batch = self.batch()?;
        if !solo {
            batch.conn.prepare_cached("RELEASE writer")?.execute([])?;
        }
        batch.members += 1;
        let committed = Committed(batch.outcome.subscribe());
        self.in_savepoint = false;
        self.earlier_work = false;
        Ok(committed)
    }

    /// Undoes this writer's work, leaving the others' in the shared transaction (or what its
    /// own transaction held before it).
    pub fn discard(&mut self) {
        let (solo, later) = (self.queue.solo, std::mem::take(&mut self.later_savepoint));
        // Undoing a later work leaves the earlier ones to be undone as the turn ends.
        self.in_savepoint = later && self.earlier_work;
        if let Ok(batch) = self.batch()
            && !batch.conn.is_autocommit()
        {
            let undone = if solo && later {
                batch.conn.execute_batch_later("ROLLBACK TO writer; RELEASE writer")
            } else if solo {
                batch.conn.rollback()
            } else {
                batch.conn.execute_batch("ROLLBACK TO writer; RELEASE writer")
            };
            if let Err(error) = undone {
                tracing::error!(error = %error, "cannot roll back a writer's work");
            }
        }
    }

    /// Rolls back this writer's own transaction whole ([`Queue::solo`]), with what was read and
    /// locked in it (a request's claim), and ends the turn.
    pub fn roll_back(mut self) {
        self.in_savepoint = false;
        if let Ok(batch) = self.batch()
            && !batch.conn.is_autocommit()
            && let Err(error) = batch.conn.rollback()
        {
            tracing::error!(%error, "cannot roll back a request's transaction");
        }
    }

    /// Whether this writer joins a transaction already open: its work then only reads and writes
    /// pages of a transaction that holds the database's write lock, and never waits for the lock.
    pub fn joins_open(&self) -> bool {
        self.shared.as_ref().is_some_and(|shared| shared.open.is_some())
    }

    /// Ends the turn, undoing this writer's work if it was not kept. The transaction is committed
    /// unless another writer is waiting to add to it (or `commit_now` asks for it).
    pub fn end(mut self, commit_now: bool) {
        drop(self.finish(commit_now));
    }

    /// Ends the turn as [`Turn::end`] does, but hands back the commit when one is due instead of
    /// running it, for a caller on an async thread to run on the blocking pool.
    pub fn end_leaving_commit(mut self) -> Option<Commit> {
        self.finish(false)
    }

    fn finish(&mut self, commit_now: bool) -> Option<Commit> {
        if self.in_savepoint {
            self.discard();
        }
        let mut shared = self.shared.take()?;
        let commit = match &shared.open {
            None => false,
            Some(batch) => {
                commit_now
                    || self.queue.solo
                    || batch.conn.is_autocommit()
                    || self.queue.waiting.load(Ordering::SeqCst) == 0
                    || batch.members >= MAX_MEMBERS
                    || batch.begun.elapsed() >= self.queue.max_age
            }
        };
        if !commit {
            return None;
        }
        let batch = shared.open.take()?;
        Some(Commit { batch: Some(batch), _shared: shared })
    }
}

impl Drop for Turn {
    /// A request that panicked or was abandoned in its turn: its work is undone, and the shared
    /// transaction is passed on or committed as at any other end of a turn.
    fn drop(&mut self) {
        drop(self.finish(false));
    }
}

/// A shared transaction's commit, due once a turn ended it. It is I/O (the WAL's write and, at
/// times, its checkpoint), so a caller on an async thread hands it to the blocking pool. It runs
/// where it is dropped, and the writers' queue stays locked until then: the next writer's
/// transaction can only begin after this one committed.
pub struct Commit {
    batch: Option<Batch>,
    _shared: OwnedMutexGuard<Shared>,
}

impl Drop for Commit {
    fn drop(&mut self) {
        if let Some(batch) = self.batch.take() {
            batch.finish();
        }
    }
}

#[cfg(test)]
#[path = "batch_tests.rs"]
mod tests;
