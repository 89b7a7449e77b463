//! `x-requestid` on mutations of a signed-in session: the first successful answer is stored for
//! 24 hours, in the same transaction as the work it answers, and a repeat from the same, still
//! valid session gets it back without the work being done again; the same id with another
//! payload is a 422. An inbound API client's requests are kept the same way, keyed by its key
//! (user 0, session `api-key:{hash of the key}`) instead of a session. Requests without a valid
//! session (sign-in, token refresh, registration, password reset) are never stored or replayed:
//! their answers carry credentials or must be checked afresh every time, and those endpoints do
//! their own one-time checks.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};

use crate::db::sql::OptionalExtension;
use axum::body::{Body, Bytes, to_bytes};
use axum::extract::{MatchedPath, Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use sha2::{Digest, Sha256};
use time::{Duration, OffsetDateTime};

use crate::auth::api_keys::{ClientAhead, ClientSent, Found, KeyHash, sends_api_key};
use crate::auth::callers::RememberedCallers;
use crate::auth::{CurrentUser, SessionToken, UserAhead, UserSent};
use crate::core::error::AppError;

pub const TOO_LONG: &str = "x-requestid must be at most 100 characters.";
pub const RUNNING: &str = "A request with this x-requestid is still being processed.";
pub const REUSED: &str = "This x-requestid was already used for a different request.";

/// The tables of `x-requestid`'s own that the activity log does not record, with the reason.
pub const UNRECORDED: &[(&str, &str)] =
    &[("idempotency_keys", "answers kept a day for a retry; the write they answer is recorded")];
/// How an `x-requestid` is refused (`core::refusals`).
pub const REFUSALS: &[&str] = &[TOO_LONG, RUNNING, REUSED];
use crate::db::{Unit, format_iso, lock, now_iso};
use crate::http::api::WriteIsolation;
use crate::http::reply::{CarriesCredentials, REQUEST_ID as HEADER, ShowsSecretOnce};
use crate::http::state::AppState;

const KEEP_FOR: Duration = Duration::hours(24);
/// Largest request body the middleware buffers (the multipart cap).
pub const MAX_BODY: usize = 6 * 1024 * 1024;
const MAX_STORED_RESPONSE: usize = 1024 * 1024;

/// Requests being carried out right now, by owner and id. Kept in memory: a crash ends them all,
/// so a retry after a crash is never blocked by a claim nobody will finish.
#[derive(Default)]
pub struct Running(Mutex<HashSet<Key>>);

#[derive(Clone, PartialEq, Eq, Hash)]
struct Key {
    request_id: String,
    user_id: i64,
    session_id: String,
}

/// Removes a request from [`Running`] however it ends (answer, error, panic or cancellation).
struct RunningGuard<'a> {
    running: &'a Running,
    key: Key,
}

impl Drop for RunningGuard<'_> {
    fn drop(&mut self) {
        lock(&self.running.0).remove(&self.key);
    }
}

enum Stored {
    Answer { status: u16, content_type: Option<String>, body: Vec<u8> },
    OtherPayload,
}

impl Stored {
    /// The answer to a repeat: the stored answer, or 422 for the same id with another payload.
    fn answer(self) -> Response {
        match self {
            Stored::Answer { status, content_type, body } => replay(status, content_type, body),
            Stored::OtherPayload => AppError::Unprocessable(REUSED.into()).into_response(),
        }
    }
}

pub async fn middleware(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let is_mutation = crate::http::reply::is_mutation(request.method());
    let request_id = request
        .headers()
        .get(HEADER)
        .and_then(|v| v.to_str().ok())
        .map(|v| v.trim().to_string())
        .filter(|v| !v.is_empty());
    let (Some(request_id), true) = (request_id, is_mutation) else {
        return next.run(request).await;
    };
    if request_id.len() > 100 {
        return AppError::BadRequest(TOO_LONG.into()).into_response();
    }
    let (parts, body) = request.into_parts();
    // Authentication comes first: a stored answer is only ever served to the live session that
    // made the request. Without one, the handler runs as if no id were given (and refuses the
    // call itself when it needs a session).
    // An API client (`Bearer pk_...`) owns its answers as a session owns its own: they are
    // replayed to that client's key only, and to nobody once it is revoked.
    // The credentials are read here, and checked against the database with the claim below.
    let caller = match Caller::of(&parts, &state) {
        Ok(caller) => caller,
        Err(AppError::Unauthorized(_) | AppError::Forbidden(_)) => {
            return next.run(Request::from_parts(parts, body)).await;
        }
        Err(error) => return error.into_response(),
    };
    let (user_id, session_id) = caller.owner();
    let Ok(bytes) = to_bytes(body, MAX_BODY).await else {
        return AppError::PayloadTooLarge(crate::http::forms::FORM_TOO_LARGE.into()).into_response();
    };
    let key = Key { request_id, user_id, session_id };
    let method = parts.method.to_string();
    let path = parts.uri.path().to_string();
    let payload_hash = payload_hash(&method, &path, parts.uri.query().unwrap_or(""), &parts.headers, &bytes).await;

    // The claim comes before the look-up: a request that finished between a look-up and a claim
    // would otherwise run a second time and fail to store its answer. A claim is released only
    // after its answer is committed, so whoever claims next finds that answer.
    let running = match state.feature::<Running>() {
        Ok(running) => running,
        Err(error) => return error.into_response(),
    };
    if !lock(&running.0).insert(key.clone()) {
        return AppError::Conflict(RUNNING.into()).into_response();
    }
    // Held until the answer is committed, or let go early below.
    let claim = RunningGuard { running, key: key.clone() };
    let isolation = match parts.extensions.get::<WriteIsolation>() {
        Some(routes) => routes.of(&parts.method, parts.extensions.get::<MatchedPath>().map(MatchedPath::as_str)),
        None => Default::default(),
    };
    let request = Idempotent { state: state.clone(), key, method, path, payload_hash, isolation, bytes };
    // Where every statement is a round trip, a caller checked before is admitted on what that
    // check found, and this check travels with the handler's first exchange (`auth::callers`).
    if let Some(remembered) = caller.remembered(&request.state) {
        let copy = copy_of(&parts);
        if let Some(response) = request.run_ahead(caller.clone(), remembered, copy, next.clone()).await {
            return response;
        }
    }
    match request.run_checked(caller, parts, next.clone()).await {
        Ok(response) => response,
        // A refused caller's request runs as if no id were given, no longer claimed, and its
        // handler refuses it.
        Err((parts, bytes)) => {
            drop(claim);
            next.run(Request::from_parts(parts, Body::from(bytes))).await
        }
    }
}

/// A request with `x-requestid`, claimed in this server's memory, to run with its claim among
/// the servers and its answer stored.
struct Idempotent {
    state: AppState,
    key: Key,
    method: String,
    path: String,
    payload_hash: String,
    isolation: crate::db::dialect::Isolation,
    bytes: Bytes,
}

impl Idempotent {
    /// The name of the request's claim among the app servers.
    fn claim_name(&self) -> String {
        let key = &self.key;
        format!("x-requestid\u{1f}{}\u{1f}{}\u{1f}{}", key.user_id, key.session_id, key.request_id)
    }

    /// Runs the request with its caller checked before its handler: the claim, the check and the
    /// look-up of a stored answer in one exchange, then the admission, then the handler. A caller
    /// the check refuses gets its request back, to run as if no id were given.
    async fn run_checked(
        self,
        caller: Caller,
        mut parts: axum::http::request::Parts,
        next: Next,
    ) -> Result<Response, (axum::http::request::Parts, Bytes)> {
        let state = &self.state;
        // Other app servers on the same PostgreSQL database are told apart by a claim held by the
        // request's own transaction until its answer is committed with it (on SQLite, this server
        // is the only one). The claim begins the transaction at the isolation the route's writes
        // ask for.
        let unit = Arc::new(Unit::default());
        // The caller's check and the look-up go with the claim (one round trip on PostgreSQL),
        // after it.
        let claimed = {
            let (key, payload_hash) = (self.key.clone(), self.payload_hash.clone());
            state
                .db
                .claim_then_look_up(&unit, &self.claim_name(), self.isolation, move |conn| {
                    let checked = caller.clone().check_ahead(conn)?;
                    let stored = find_ahead(conn, &key)?;
                    Ok((checked.read()?, stored_answer(stored, &payload_hash)?))
                })
                .await
        };
        let (claimed, (checked, stored)) = match claimed {
            Ok(claimed) => claimed,
            Err(error) => return Ok(error.into_response()),
        };
        checked.remember(state);
        // In the unit's scope: while the request's transaction holds its claim, what the admission
        // writes is set aside until that transaction has ended (`Db::write_aside`).
        match unit.clone().scope(checked.admit(&mut parts, state)).await {
            Ok(()) => {}
            Err(AppError::Unauthorized(_) | AppError::Forbidden(_)) => {
                if let Err(error) = end_unanswered(state, &unit).await {
                    return Ok(error.into_response());
                }
                return Err((parts, self.bytes));
            }
            // Not a refusal of the caller but a failure on the way (the database, a write that
            // lost to another server's, a rate limit): answered as it is. Running the handler
            // without the store would do the work with no answer kept for its retry.
            Err(error) => return Ok(answered_early(state, &unit, error.into_response()).await),
        }
        let early = match (claimed, stored) {
            (false, _) => Some(AppError::Conflict(RUNNING.into()).into_response()),
            (true, Some(stored)) => Some(stored.answer()),
            (true, None) => None,
        };
        if let Some(response) = early {
            return Ok(answered_early(state, &unit, response).await);
        }
        let response = unit.clone().scope(next.run(Request::from_parts(parts, Body::from(self.bytes.clone())))).await;
        Ok(self.store(unit, response).await)
    }

    /// Runs the request admitted on what its caller's last check found (`remembered`): the claim
    /// and the check are sent ahead of the handler's first exchange (`Db::claim_ahead`), and read
    /// once the handler has answered. A claim held elsewhere, or an answer stored already, fails
    /// the transaction at the claim, before any of the handler's statements. Nothing is committed
    /// or answered until the check finds the caller admitted as remembered and the claim taken;
    /// otherwise the handler's work is undone and `None` asks for the request to run checked
    /// ([`Idempotent::run_checked`]), which waits for the claim and replays a stored answer.
    async fn run_ahead(
        &self,
        caller: Caller,
        remembered: Checked,
        mut parts: axum::http::request::Parts,
        next: Next,
    ) -> Option<Response> {
        let state = &self.state;
        let unit = Arc::new(Unit::default());
        let answered = (ANSWERED, self.key.answered_values());
        let sent = state
            .db
            .claim_ahead(&unit, &self.claim_name(), self.isolation, answered, move |conn| {
                Ok(caller.check_ahead(conn)?.detach())
            })
            .await;
        // Sending ahead can make an exchange (a statement compiled at its first use on a
        // connection), which then carries the claim: a claim held elsewhere or an answer stored
        // fails it here. Like any failure on the way, the request then runs checked, which waits
        // for the claim, replays a stored answer, or answers the database's own failure.
        let Ok((taken, check)) = sent else {
            return self.undone(&unit).await;
        };
        if unit.clone().scope(remembered.clone().admit(&mut parts, state)).await.is_err() {
            // Refused on memory (a rate, an authenticator to set up): answered once checked.
            return self.undone(&unit).await;
        }
        let response = unit.clone().scope(next.run(Request::from_parts(parts, Body::from(self.bytes.clone())))).await;
        let read = state
            .db
            .read_after(&unit, move |conn| {
                let taken: bool = taken.attach(conn).query_row(|r| r.get(0))?;
                Ok((taken, check.read(conn)?))
            })
            .await;
        // A claim held elsewhere, or a request answered already, failed the transaction with the
        // claim's statement, and with it these reads: the request runs again, claiming first (as
        // after any failure of the reads; one of the database's own then answers there).
        let Ok((taken, checked)) = read else {
            return self.undone(&unit).await;
        };
        checked.remember(state);
        if !taken || !checked.admits_as(&remembered) || unit.must_run_again() {
            return self.undone(&unit).await;
        }
        unit.confirm();
        Some(self.store(unit, response).await)
    }

    /// `None` once the request's unit is undone, for the request to run checked; an error that
    /// kept it from being undone is answered.
    async fn undone(&self, unit: &Unit) -> Option<Response> {
        match self.state.db.undo_unit(unit).await {
            Ok(()) => None,
            Err(error) => Some(error.into_response()),
        }
    }

    /// Stores the handler's successful `response` beside its work and commits both, then gives
    /// it; a refusal ends the unit and is given as it is.
    async fn store(&self, unit: Arc<Unit>, response: Response) -> Response {
        let state = &self.state;
        let (key, method, path, payload_hash) =
            (self.key.clone(), self.method.clone(), self.path.clone(), self.payload_hash.clone());
        let (parts, body) = response.into_parts();
        if !parts.status.is_success() || parts.extensions.get::<CarriesCredentials>().is_some() {
            // A refusal stores nothing, so a corrected retry with this id runs again; what the
            // handler chose to write before refusing (a revoked session, say) is kept.
            // Credentials are never stored either.
            return answered_early(state, &unit, Response::from_parts(parts, body)).await;
        }
        let Ok(answer) = to_bytes(body, MAX_STORED_RESPONSE).await else {
            // Dropping the unit rolls its work back: an answer that cannot be stored is not given.
            drop(unit);
            return AppError::Internal(anyhow::anyhow!("a mutation answered more than can be stored")).into_response();
        };
        let content_type = parts.headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).map(str::to_string);
        // A secret is shown once: a repeat gets the answer without it, and it is never stored.
        let stored = match parts.extensions.get::<ShowsSecretOnce>() {
            None => answer.to_vec(),
            Some(_) => match crate::http::secrets::withheld(&answer) {
                Some(stored) => stored,
                None => {
                    drop(unit);
                    return AppError::Internal(anyhow::anyhow!("an answer with a secret is not JSON")).into_response();
                }
            },
        };
        let record = {
            let status = parts.status.as_u16();
            move |conn: &crate::db::sql::Connection| -> Result<(), AppError> {
                if !conn.is_shared() {
                    expire(conn)?;
                }
                // Nothing reads its answer: on PostgreSQL it travels with the commit.
                let cutoff = format_iso(OffsetDateTime::now_utc() - KEEP_FOR);
                conn.execute_later(
                    RECORD,
                    crate::db::sql::params![
                        key.request_id,
                        key.user_id,
                        key.session_id,
                        method,
                        path,
                        payload_hash,
                        status,
                        content_type,
                        stored,
                        now_iso(),
                        cutoff
                    ],
                )?;
                Ok(())
            }
        };
        match state.db.finish_unit(&unit, Some(record)).await {
            Ok(()) => Response::from_parts(parts, Body::from(answer)),
            Err(error) => error.into_response(),
        }
    }
}

/// A copy of a request's head, for a second run of it ([`Idempotent::run_ahead`] gives way to
/// [`Idempotent::run_checked`]).
fn copy_of(parts: &axum::http::request::Parts) -> axum::http::request::Parts {
    let (mut copy, ()) = Request::new(()).into_parts();
    copy.method = parts.method.clone();
    copy.uri = parts.uri.clone();
    copy.version = parts.version;
    copy.headers = parts.headers.clone();
    copy.extensions = parts.extensions.clone();
    copy
}

/// Ends a request's unit answered before its handler ran: what its admission wrote is kept, and
/// on PostgreSQL the claim's transaction ends (and with it the claim).
async fn end_unanswered(state: &AppState, unit: &Unit) -> Result<(), AppError> {
    state.db.finish_unit(unit, None::<fn(&crate::db::sql::Connection) -> _>).await
}

/// `response`, given once the request's unit has ended ([`end_unanswered`]).
async fn answered_early(state: &AppState, unit: &Unit, response: Response) -> Response {
    match end_unanswered(state, unit).await {
        Ok(()) => response,
        Err(error) => error.into_response(),
    }
}

/// Removes stored answers older than [`KEEP_FOR`]: on SQLite at every recorded answer (one
/// writer at a time, the sweep is cheap), on PostgreSQL by the leading server's round
/// ([`expire_all`]), since several servers recording at once would contend for the same expired
/// rows; there a recording replaces only an expired answer of its own key, in its insert
/// ([`RECORD`]). Answers how many were removed.
fn expire(conn: &crate::db::sql::Connection) -> Result<usize, AppError> {
    let cutoff = format_iso(OffsetDateTime::now_utc() - KEEP_FOR);
    Ok(conn.prepare_cached("DELETE FROM idempotency_keys WHERE created_at < ?1")?.execute([cutoff])?)
}

/// A request's answer stored (`?1` to `?10`), over an expired answer of the same key (one older
/// than `?11`, [`KEEP_FOR`]) if there is one: the claim keeps any live answer of the key out, and
/// the look-up found none, so nothing else can be there. One statement, sent with the commit.
const RECORD: &str = "INSERT INTO idempotency_keys
         (request_id, user_id, session_id, method, path, payload_hash, status, content_type, body, created_at)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
     ON CONFLICT (request_id, user_id, session_id) DO UPDATE SET
         method = excluded.method, path = excluded.path, payload_hash = excluded.payload_hash,
         status = excluded.status, content_type = excluded.content_type, body = excluded.body,
         created_at = excluded.created_at
     WHERE idempotency_keys.created_at < ?11";

/// The leading server's sweep of expired stored answers (see [`expire`]).
pub async fn expire_all(db: &crate::db::Db) -> Result<usize, AppError> {
    db.write(expire).await
}

/// Who a request says it is, read from its credentials without the database: a staff session's
/// token or an API key.
#[derive(Clone)]
enum Caller {
    Session(SessionToken),
    Key(KeyHash),
}

/// A [`Caller`]'s check read ahead.
enum CallerAhead<'c> {
    Session(SessionToken, UserAhead<'c>),
    Key(KeyHash, ClientAhead<'c>),
}

/// A [`Caller`]'s check sent ahead and let go of its connection ([`CallerAhead::detach`]).
enum CallerSent {
    Session(SessionToken, UserSent),
    Key(KeyHash, ClientSent),
}

/// A [`Caller`] with what the database says of it.
#[derive(Clone)]
enum Checked {
    Session(SessionToken, Option<CurrentUser>),
    Key(KeyHash, Option<Found>),
}

impl Caller {
    fn of(parts: &axum::http::request::Parts, state: &AppState) -> Result<Caller, AppError> {
        if sends_api_key(&parts.headers) {
            Ok(Caller::Key(KeyHash::of(parts)?))
        } else {
            Ok(Caller::Session(SessionToken::of(parts, state)?))
        }
    }

    /// Whose answers the request's are: a session's user and session, or user 0 and the key's.
    fn owner(&self) -> (i64, String) {
        match self {
            Caller::Session(token) => (token.user_id, token.session_id.clone()),
            Caller::Key(key) => (0, key.idempotency_owner()),
        }
    }

    /// What the caller's last check found, where that is worth remembering (reads are round
    /// trips) and it found one (`auth::callers`).
    fn remembered(&self, state: &AppState) -> Option<Checked> {
        if !state.db.reads_are_round_trips() {
            return None;
        }
        let callers = state.feature::<RememberedCallers>().ok()?;
        match self {
            Caller::Session(token) => Some(Checked::Session(token.clone(), Some(callers.recall(token)?))),
            Caller::Key(key) => Some(Checked::Key(key.clone(), Some(callers.recall_key(&key.idempotency_owner())?))),
        }
    }

    fn check_ahead(self, conn: &crate::db::sql::Connection) -> Result<CallerAhead<'_>, AppError> {
        Ok(match self {
            Caller::Session(token) => {
                let user = token.check_ahead(conn)?;
                CallerAhead::Session(token, user)
            }
            Caller::Key(key) => {
                let client = key.check_ahead(conn)?;
                CallerAhead::Key(key, client)
            }
        })
    }
}

impl CallerSent {
    fn attach(self, conn: &crate::db::sql::Connection) -> CallerAhead<'_> {
        match self {
            CallerSent::Session(token, user) => CallerAhead::Session(token, user.attach(conn)),
            CallerSent::Key(key, client) => CallerAhead::Key(key, client.attach(conn)),
        }
    }

    fn read(self, conn: &crate::db::sql::Connection) -> Result<Checked, AppError> {
        self.attach(conn).read()
    }
}

impl CallerAhead<'_> {
    fn detach(self) -> CallerSent {
        match self {
            CallerAhead::Session(token, user) => CallerSent::Session(token, user.detach()),
            CallerAhead::Key(key, client) => CallerSent::Key(key, client.detach()),
        }
    }

    fn read(self) -> Result<Checked, AppError> {
        Ok(match self {
            CallerAhead::Session(token, user) => Checked::Session(token, user.user()?),
            CallerAhead::Key(key, client) => Checked::Key(key, client.client()?),
        })
    }
}

impl Checked {
    /// Remembers what this check found, for the caller's next request (where reads are round
    /// trips: `auth::callers`).
    fn remember(&self, state: &AppState) {
        if !state.db.reads_are_round_trips() {
            return;
        }
        let Ok(callers) = state.feature::<RememberedCallers>() else { return };
        match self {
            Checked::Session(_, Some(user)) => callers.remember(user),
            Checked::Session(token, None) => callers.forget(&token.session_id),
            Checked::Key(key, found) => callers.remember_key(&key.idempotency_owner(), found.as_ref()),
        }
    }

    /// Whether this check admits the caller as `remembered`, an earlier one, did.
    fn admits_as(&self, remembered: &Checked) -> bool {
        match (self, remembered) {
            (Checked::Session(_, Some(now)), Checked::Session(_, Some(then))) => now == then,
            (Checked::Key(_, Some(now)), Checked::Key(_, Some(then))) => then.admits_as(now),
            _ => false,
        }
    }

    /// The caller as checked, remembered on the request for its handler; refused as the
    /// extractors refuse it.
    async fn admit(self, parts: &mut axum::http::request::Parts, state: &AppState) -> Result<(), AppError> {
        match self {
            Checked::Session(token, user) => token.admit(parts, user).map(drop),
            Checked::Key(key, found) => key.admit(parts, state, found).await.map(drop),
        }
    }
}

/// The answer stored for `key` in the last day, read ahead of the next exchange on `conn`.
fn find_ahead<'c>(conn: &'c crate::db::sql::Connection, key: &Key) -> Result<crate::db::sql::ReadAhead<'c>, AppError> {
    Ok(conn.read_ahead(
        "SELECT payload_hash, status, content_type, body FROM idempotency_keys
         WHERE request_id = ?1 AND user_id = ?2 AND session_id = ?3 AND created_at >= ?4",
        crate::db::sql::params_from_iter(key.answered_values()),
    )?)
}

/// Whether an answer is stored for a key (`?2` to `?5`: [`Key::answered_values`]), as the claim
/// taken ahead asks it (`Db::claim_ahead`).
const ANSWERED: &str = "EXISTS (SELECT 1 FROM idempotency_keys
                                WHERE request_id = ?2 AND user_id = ?3 AND session_id = ?4 AND created_at >= ?5)";

impl Key {
    /// The key's request id, user and session, and the oldest moment of an answer still kept.
    fn answered_values(&self) -> Vec<crate::db::sql::Value> {
        let since = format_iso(OffsetDateTime::now_utc() - KEEP_FOR);
        vec![self.request_id.clone().into(), self.user_id.into(), self.session_id.clone().into(), since.into()]
    }
}

/// What [`find_ahead`] found for a request with `payload_hash`.
fn stored_answer(found: crate::db::sql::ReadAhead<'_>, payload_hash: &str) -> Result<Option<Stored>, AppError> {
    let found = found
        .query_row(|r| {
            Ok((
                r.get::<String>("payload_hash")?,
                r.get::<Option<u16>>("status")?,
                r.get::<Option<String>>("content_type")?,
                r.get::<Option<Vec<u8>>>("body")?,
            ))
        })
        .optional()?;
    Ok(found.map(|(hash, status, content_type, body)| {
        if hash != payload_hash {
            Stored::OtherPayload
        } else {
            Stored::Answer { status: status.unwrap_or(200), content_type, body: body.unwrap_or_default() }
        }
    }))
}

/// What the request means: method, path, query and body, where a multipart body counts by its
/// fields and each file's bytes, not by the boundary that every sender draws anew.
async fn payload_hash(method: &str, path: &str, query: &str, headers: &HeaderMap, body: &Bytes) -> String {
    let mut hasher = Sha256::new();
    let mut add = |part: &[u8]| {
        hasher.update((part.len() as u64).to_le_bytes());
        hasher.update(part);
    };
    add(method.as_bytes());
    add(path.as_bytes());
    add(query.as_bytes());
    match multipart_fields(headers, body).await {
        Some(fields) => {
            add(b"multipart");
            for (name, content) in &fields {
                add(name.as_bytes());
                add(content);
            }
        }
        None => add(body),
    }
    hex::encode(hasher.finalize())
}

/// The (name, bytes) of every part of a well-formed multipart body, in order; `None` for any
/// other body (its raw bytes are hashed, and the handler refuses it if it is malformed).
async fn multipart_fields(headers: &HeaderMap, body: &Bytes) -> Option<Vec<(String, Bytes)>> {
    let content_type = headers.get(header::CONTENT_TYPE)?.to_str().ok()?;
    let boundary = multer::parse_boundary(content_type).ok()?;
    let stream = futures_util::stream::once(std::future::ready(Ok::<Bytes, std::io::Error>(body.clone())));
    let mut multipart = multer::Multipart::new(stream, boundary);
    let mut fields = vec![];
    while let Some(field) = multipart.next_field().await.ok()? {
        let name = field.name().unwrap_or("").to_string();
        fields.push((name, field.bytes().await.ok()?));
    }
    Some(fields)
}

fn replay(status: u16, content_type: Option<String>, body: Vec<u8>) -> Response {
    let mut response = Response::new(Body::from(Bytes::from(body)));
    *response.status_mut() = StatusCode::from_u16(status).unwrap_or(StatusCode::OK);
    if let Some(value) = content_type.and_then(|c| HeaderValue::from_str(&c).ok()) {
        response.headers_mut().insert(header::CONTENT_TYPE, value);
    }
    response.headers_mut().insert("x-idempotent-replay", HeaderValue::from_static("true"));
    response
}
