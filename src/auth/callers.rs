//! Callers remembered between their requests, so that a request's check of its caller can travel
//! with the request's own first exchange. Where every statement is a round trip to the database
//! server (PostgreSQL), a check and the work after it were two exchanges, one after the other.
//!
//! - A route that checks its caller with its first read (`Doc::checks_caller_with_its_read`: the
//!   lists) is admitted by its gate on what the session's last check found, and the handler sends
//!   the session's check ahead of its page, in the same exchange
//!   ([`CallerToConfirm::check_ahead`]); its answer goes out only when that check finds the
//!   session live and its user still admitted ([`Confirming::confirm`]).
//! - A write with `x-requestid` (`app::idempotency`) is admitted on what the last check of its
//!   session or API key found; the check goes with the claim ahead of the handler's first
//!   exchange, and nothing is committed or answered until it finds the caller admitted as
//!   remembered (otherwise the work is undone and the request runs again, checked first).
//!
//! Memory only chooses the order of the work: nothing is answered on its strength alone, and a
//! caller seen for the first time is checked before the handler runs, as every other route's
//! caller is.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::http::request::Parts;

use super::api_keys::Found;
use super::{CurrentUser, SESSION_ENDED, SET_UP_AUTHENTICATOR_FIRST, SessionToken, UserAhead};
use crate::core::error::{AppError, AppResult};
use crate::core::roles::Roles;
use crate::db::Db;
use crate::db::sql::Connection;

/// Sessions remembered at once; beyond this the memory starts over (a bound on memory: a
/// forgotten session is checked before its next read, as a new one is).
const MAX_REMEMBERED: usize = 4096;

/// What each caller's last check found: a session's staff user (`CurrentUser`), by session id,
/// and an API key's client (`Found`), by the key's owner of stored answers
/// (`KeyHash::idempotency_owner`).
#[derive(Clone, Default)]
pub struct RememberedCallers(Arc<Mutex<Remembered>>);

#[derive(Default)]
struct Remembered {
    sessions: HashMap<String, CurrentUser>,
    keys: HashMap<String, Found>,
}

/// Puts `value` under `key` in `memory`, which starts over when full.
fn bounded_insert<V>(memory: &mut HashMap<String, V>, key: &str, value: V) {
    if memory.len() >= MAX_REMEMBERED && !memory.contains_key(key) {
        memory.clear();
    }
    memory.insert(key.to_string(), value);
}

impl RememberedCallers {
    /// The user the last check of `token`'s session found, when there was one.
    pub fn recall(&self, token: &SessionToken) -> Option<CurrentUser> {
        let remembered = crate::db::lock(&self.0);
        remembered.sessions.get(&token.session_id).filter(|user| user.id == token.user_id).cloned()
    }

    /// Remembers what a check of `user`'s session found.
    pub fn remember(&self, user: &CurrentUser) {
        bounded_insert(&mut crate::db::lock(&self.0).sessions, &user.session_id, user.clone());
    }

    /// Forgets a session its check no longer finds.
    pub fn forget(&self, session_id: &str) {
        crate::db::lock(&self.0).sessions.remove(session_id);
    }

    /// The client the last check of the key with `owner` found, when it found one.
    pub fn recall_key(&self, owner: &str) -> Option<Found> {
        crate::db::lock(&self.0).keys.get(owner).cloned()
    }

    /// Remembers what a check of the key with `owner` found (`None`: no client, forgotten).
    pub fn remember_key(&self, owner: &str, found: Option<&Found>) {
        let mut remembered = crate::db::lock(&self.0);
        match found {
            Some(found) => bounded_insert(&mut remembered.keys, owner, found.clone()),
            None => drop(remembered.keys.remove(owner)),
        }
    }

    /// Admits the request's caller on what the last check of its session found, when that is
    /// worth it and possible: the database's reads are round trips, the session was checked
    /// before, and what that check found is admitted here (otherwise the caller is checked now,
    /// by the caller of this). Leaves the remembered user and the [`CallerToConfirm`] in the
    /// request's extensions.
    pub fn admit_remembered(&self, parts: &mut Parts, db: &Db, token: &SessionToken, roles: Roles) -> bool {
        if !db.reads_are_round_trips() {
            return false;
        }
        let Some(user) = self.recall(token) else { return false };
        if user.must_set_up_authenticator || !roles.allows(user.role) {
            return false;
        }
        user.identify(parts);
        let open_before_set_up = super::open_before_set_up(&parts.method, parts.uri.path());
        parts.extensions.insert(CallerToConfirm {
            token: token.clone(),
            roles,
            open_before_set_up,
            callers: self.clone(),
        });
        true
    }
}

/// A caller its gate admitted on memory ([`RememberedCallers::admit_remembered`]): the handler
/// checks its session with its first read, and answers only once that check confirms it.
#[derive(Clone)]
pub struct CallerToConfirm {
    token: SessionToken,
    /// The roles the route admits.
    roles: Roles,
    /// Whether the route is one a session signed in with a recovery code may call.
    open_before_set_up: bool,
    callers: RememberedCallers,
}

impl CallerToConfirm {
    /// The session's check, sent ahead of the next statement on `conn` (the handler's first read):
    /// one exchange with it on PostgreSQL.
    pub fn check_ahead<'c>(&'c self, conn: &'c Connection) -> AppResult<Confirming<'c>> {
        Ok(Confirming { checked: self.token.check_ahead(conn)?, caller: self })
    }

    /// The session's check on its own, for an answer the handler gives without reading the
    /// database (a refused query): the refusal goes to a caller the route admits, as it would
    /// have after a check made before the handler.
    pub async fn confirm_alone(self, db: &Db) -> AppResult<()> {
        db.look_up(move |conn| self.check_ahead(conn)?.confirm()).await
    }
}

/// A session's check sent ahead ([`CallerToConfirm::check_ahead`]).
pub struct Confirming<'c> {
    checked: UserAhead<'c>,
    caller: &'c CallerToConfirm,
}

impl Confirming<'_> {
    /// Whether the handler may answer: the session is live and its user still one the route
    /// admits. Otherwise the refusal the gate would have given (401 for an ended session, 403 for
    /// a role the route does not admit or an authenticator to set up first); what the check found
    /// is remembered for the session's next read.
    pub fn confirm(self) -> AppResult<()> {
        let caller = self.caller;
        let Some(user) = self.checked.user()? else {
            caller.callers.forget(&caller.token.session_id);
            return Err(AppError::Unauthorized(SESSION_ENDED.into()));
        };
        caller.callers.remember(&user);
        if user.must_set_up_authenticator && !caller.open_before_set_up {
            return Err(AppError::Forbidden(SET_UP_AUTHENTICATOR_FIRST.into()));
        }
        user.require(caller.roles)
    }
}
