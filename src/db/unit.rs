//! A request's unit of work. Inside an idempotent request (see `crate::app::idempotency`), the first
//! [`Db::write`](super::Db::write) keeps its turn and savepoint open instead of finishing, so the
//! request's answer can be recorded in that same savepoint: a committed write always has its
//! stored answer, and a crash before the commit leaves neither.

use std::future::Future;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use super::batch::Turn;
use super::lock;

tokio::task_local! {
    static UNIT: Arc<Unit>;
}

#[derive(Default)]
pub struct Unit {
    open: Mutex<Option<Turn>>,
    /// A second write in the request committed the first on its own: the answer is then
    /// recorded in a transaction of its own, as every write before this mechanism was.
    split: AtomicBool,
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

    /// Whether the request's write is open (its reads must then see it).
    pub(super) fn has_open(&self) -> bool {
        lock(&self.open).is_some()
    }

    pub(super) fn take(&self) -> Option<Turn> {
        lock(&self.open).take()
    }

    pub(super) fn put(&self, open: Turn) {
        *lock(&self.open) = Some(open);
    }

    pub(super) fn is_split(&self) -> bool {
        self.split.load(Ordering::Relaxed)
    }

    pub(super) fn mark_split(&self) {
        self.split.store(true, Ordering::Relaxed);
    }
}
