//! A request's unit of work. Inside an idempotent request (see `crate::idempotency`), the first
//! [`Db::write`](super::Db::write) leaves its transaction open instead of committing, so the
//! request's answer can be recorded in that same transaction: a committed write always has its
//! stored answer, and a crash before the commit leaves neither.

use std::future::Future;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use tokio::sync::{OwnedMutexGuard, OwnedSemaphorePermit};

use super::{PooledConnection, lock};

tokio::task_local! {
    static UNIT: Arc<Unit>;
}

#[derive(Default)]
pub struct Unit {
    open: Mutex<Option<OpenWrite>>,
    /// A second write in the request committed the first on its own: the answer is then
    /// recorded in a transaction of its own, as every write before this mechanism was.
    split: AtomicBool,
}

/// A connection inside a write transaction that is not committed yet, with its database turn.
pub(super) struct OpenWrite {
    pub conn: PooledConnection,
    /// Held until the connection goes back (fields drop in order: the connection first).
    pub _turn: OwnedSemaphorePermit,
    /// The writers' turn, held until the transaction is committed or rolled back.
    pub _writing: OwnedMutexGuard<()>,
}

impl Drop for OpenWrite {
    /// A request that panicked or was abandoned never commits: its work is rolled back before the
    /// connection goes back to the pool.
    fn drop(&mut self) {
        if !self.conn.is_autocommit()
            && let Err(error) = self.conn.execute_batch("ROLLBACK")
        {
            tracing::error!(error = %error, "cannot roll back an abandoned request's transaction");
        }
    }
}

impl Unit {
    /// Runs `request` with this unit as its current one.
    pub async fn scope<F: Future>(self: Arc<Self>, request: F) -> F::Output {
        UNIT.scope(self, request).await
    }

    /// The unit of the request running on this task, if it has one.
    pub(super) fn current() -> Option<Arc<Unit>> {
        UNIT.try_with(Arc::clone).ok()
    }

    pub(super) fn take(&self) -> Option<OpenWrite> {
        lock(&self.open).take()
    }

    pub(super) fn put(&self, open: OpenWrite) {
        *lock(&self.open) = Some(open);
    }

    pub(super) fn is_split(&self) -> bool {
        self.split.load(Ordering::Relaxed)
    }

    pub(super) fn mark_split(&self) {
        self.split.store(true, Ordering::Relaxed);
    }
}
