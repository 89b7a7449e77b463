//! A request's unit of work. Inside an idempotent request (see `crate::app::idempotency`), the first
//! [`Db::write`](super::Db::write) keeps its turn and savepoint open instead of finishing, so the
//! request's answer can be recorded in that same savepoint: a committed write always has its
//! stored answer, and a crash before the commit leaves neither.

use std::future::Future;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use super::batch::Turn;
use super::dialect::Isolation;
use super::lock;
use super::sql::Connection;
use crate::core::error::AppResult;

tokio::task_local! {
    static UNIT: Arc<Unit>;
}

#[derive(Default)]
pub struct Unit {
    open: Mutex<Option<Turn>>,
    /// A second write in the request committed the first on its own: the answer is then
    /// recorded in a transaction of its own, as every write before this mechanism was.
    split: AtomicBool,
    /// The open turn's transaction holds the request's claim (`Db::claim_then_look_up`, on
    /// PostgreSQL): the request's writes go on in it instead of committing apart from it.
    claimed: AtomicBool,
    /// Writes set aside until the unit has ended (`Db::write_aside`).
    aside: Mutex<Vec<AsideWrite>>,
    /// The request was admitted on what its caller's last check found, and its claim and check
    /// travel with its first exchange (`Db::claim_ahead`): until the check confirms it, nothing
    /// of the request's may be committed.
    unconfirmed: AtomicBool,
    /// A write of the unconfirmed request was refused because it would have committed the claim's
    /// transaction (a second write apart from the first): the request is to run again, checked
    /// before its handler.
    run_again: AtomicBool,
}

/// A write set aside until a unit has ended.
pub(super) type AsideWrite = Box<dyn FnOnce(&Connection) -> AppResult<()> + Send>;

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

    /// Puts the turn whose transaction holds the request's claim.
    pub(super) fn put_claimed(&self, open: Turn) {
        self.claimed.store(true, Ordering::Relaxed);
        self.put(open);
    }

    /// Whether the request's open transaction holds its claim (PostgreSQL): what the request
    /// writes goes in it, and a write that took a connection of its own instead could wait for
    /// one that every request holding a claim waits for.
    pub fn holds_claim(&self) -> bool {
        self.claimed.load(Ordering::Relaxed) && self.has_open()
    }

    /// The turn holding the request's claim, when it is open and its transaction keeps a write
    /// of `isolation` apart from the others as that write asks.
    pub(super) fn take_claimed(&self, isolation: Isolation) -> Option<Turn> {
        if !self.claimed.load(Ordering::Relaxed) {
            return None;
        }
        let mut open = lock(&self.open);
        if !open.as_ref().is_some_and(|turn| turn.covers(isolation)) {
            return None;
        }
        open.take()
    }

    pub(super) fn set_aside(&self, write: AsideWrite) {
        lock(&self.aside).push(write);
    }

    /// The writes set aside, taken to run now that the unit has ended.
    pub(super) fn take_aside(&self) -> Vec<AsideWrite> {
        std::mem::take(&mut *lock(&self.aside))
    }

    pub(super) fn mark_unconfirmed(&self) {
        self.unconfirmed.store(true, Ordering::Relaxed);
    }

    /// The request's caller is confirmed (see [`Unit::unconfirmed`](Unit)): its work may commit.
    pub fn confirm(&self) {
        self.unconfirmed.store(false, Ordering::Relaxed);
    }

    pub(super) fn is_unconfirmed(&self) -> bool {
        self.unconfirmed.load(Ordering::Relaxed)
    }

    /// Asks for the request to run again, checked first (see [`Unit::run_again`](Unit)).
    pub(super) fn ask_to_run_again(&self) {
        self.run_again.store(true, Ordering::Relaxed);
    }

    /// Whether the request must run again, checked before its handler.
    pub fn must_run_again(&self) -> bool {
        self.run_again.load(Ordering::Relaxed)
    }

    pub(super) fn is_split(&self) -> bool {
        self.split.load(Ordering::Relaxed)
    }

    pub(super) fn mark_split(&self) {
        self.split.store(true, Ordering::Relaxed);
    }
}
