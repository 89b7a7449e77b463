//! API keys as a credential: who may call the inbound API. An Admin makes a client (on the API
//! clients screen, `resources::api_clients`, or with `perkdesk api-client create`) and is shown
//! its key once: `pk_` and 43 characters of a 256-bit random value from the operating system's
//! generator. Only the key's SHA-256 hash is stored (see docs/decisions.md), with its first
//! characters so keys can be told apart. Each client is of one kind, the employee app or one
//! partner, has its own request rate and a last-used time, and a revoked client is refused on
//! its next request.

use std::collections::HashMap;
use std::num::NonZeroU32;
use std::sync::Mutex;

use crate::db::sql::OptionalExtension;
use axum::extract::FromRequestParts;
use axum::http::HeaderMap;
use axum::http::request::Parts;
use base64::Engine;
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultDirectRateLimiter, Quota, RateLimiter};
use time::OffsetDateTime;

use super::bearer_token;
use super::tokens::{hash_token, random_bytes};
use crate::core::error::{AppError, AppResult};
use crate::db::{Actor, format_iso, lock};
use crate::http::form_fields::Columns;
use crate::http::limits::share;
use crate::http::state::AppState;

/// Every key starts with this, so a key sent to the wrong API is recognised (and never logged:
/// keys travel only in the Authorization header, which the request log leaves out).
pub const KEY_PREFIX: &str = "pk_";
/// The request rate a client gets unless its creator sets another.
pub const DEFAULT_PER_MINUTE: u32 = 600;
/// `last_used_at` is written at most this often per client, so a busy client's calls do not
/// each pay for a write of their own.
const LAST_USED_EVERY: time::Duration = time::Duration::seconds(60);

pub const KEY_REQUIRED: &str = "Send the API key as Authorization: Bearer pk_...";
pub const STAFF_TOKEN_REFUSED: &str = "This API takes an API key (pk_...), not a staff sign-in token.";
pub const KEY_UNKNOWN: &str = "The API key is not valid.";
pub const KEY_REVOKED: &str = "The API key was revoked.";
pub const FOR_EMPLOYEE_APP: &str = "This call is for the employee app's key; this key belongs to a partner.";
pub const FOR_PARTNER: &str = "This call is for a partner's key; this key belongs to the employee app.";
pub const OVER_RATE: &str = "This API client is over its rate limit. Try again in {seconds} seconds.";

/// What an API client may call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClientKind {
    EmployeeApp,
    Partner,
}

impl ClientKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ClientKind::EmployeeApp => "employee-app",
            ClientKind::Partner => "partner",
        }
    }

    pub fn parse(text: &str) -> Option<ClientKind> {
        match text.trim().to_ascii_lowercase().as_str() {
            "employee-app" => Some(ClientKind::EmployeeApp),
            "partner" => Some(ClientKind::Partner),
            _ => None,
        }
    }
}

/// The API client behind a request, checked against its stored hash and its rate.
#[derive(Clone, Debug)]
pub struct ApiClient {
    pub id: i64,
    pub name: String,
    pub kind: ClientKind,
    pub partner_id: Option<i64>,
}

impl ApiClient {
    /// The client, when it is of `kind`; a key of the other kind is a 403.
    pub fn require(&self, kind: ClientKind) -> AppResult<()> {
        if self.kind == kind {
            return Ok(());
        }
        Err(AppError::Forbidden(match kind {
            ClientKind::EmployeeApp => FOR_EMPLOYEE_APP.into(),
            ClientKind::Partner => FOR_PARTNER.into(),
        }))
    }
}

/// True when the request carries an API key rather than (or instead of) a staff token.
pub fn sends_api_key(headers: &HeaderMap) -> bool {
    bearer_token(headers).is_some_and(|token| token.starts_with(KEY_PREFIX))
}

/// A new key and the hash that is stored.
fn new_key() -> (String, String) {
    let key = format!("{KEY_PREFIX}{}", base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(random_bytes::<32>()));
    let hash = hash_token(&key);
    (key, hash)
}

/// Stores a new client with a fresh key (its hash, and the prefix the screen shows) and returns
/// its id and the key, which is kept nowhere: `api_clients` is written from this file only.
pub fn insert_client(
    tx: &crate::db::sql::Connection,
    name: &str,
    kind: ClientKind,
    partner_id: Option<i64>,
    per_minute: u32,
) -> AppResult<(i64, String)> {
    let (key, hash) = new_key();
    let prefix: String = key.chars().take(KEY_PREFIX.len() + 6).collect();
    let id = Columns::new()
        .set("name", name)
        .set("kind", kind.as_str())
        .set("partner_id", partner_id)
        .set("key_hash", hash)
        .set("key_prefix", prefix)
        .set("rate_limit_per_minute", i64::from(per_minute))
        .insert(tx, "api_clients")?;
    Ok((id, key))
}

/// Revokes the client's key at once (the next request with it is refused).
pub fn revoke_client(tx: &crate::db::sql::Connection, id: i64) -> AppResult<()> {
    Columns::new().set("revoked_at", crate::db::now_iso()).update(tx, "api_clients", id)?;
    Ok(())
}

/// Each client's own limiter, made with its rate (and made anew when the rate changes).
#[derive(Default)]
pub struct ClientLimits(Mutex<HashMap<i64, (u32, DefaultDirectRateLimiter)>>);

impl ClientLimits {
    /// `Err(seconds to wait)` when the client is over its rate.
    fn check(&self, id: i64, per_minute: u32) -> Result<(), u64> {
        let mut limits = lock(&self.0);
        let quota = Quota::per_minute(NonZeroU32::new(per_minute).unwrap_or(NonZeroU32::MIN));
        let entry = limits.entry(id).or_insert_with(|| (per_minute, RateLimiter::direct(quota)));
        if entry.0 != per_minute {
            *entry = (per_minute, RateLimiter::direct(quota));
        }
        entry.1.check().map_err(|not_until| {
            crate::core::error::seconds_to_wait(not_until.wait_time_from(DefaultClock::default().now()))
        })
    }
}

/// An API client as its key's check found it ([`KeyHash::check_ahead`]).
#[derive(Clone)]
pub struct Found {
    client: ApiClient,
    per_minute: u32,
    last_used_at: Option<String>,
    revoked: bool,
}

impl Found {
    /// Whether `other`, a later check of the same key, admits the request as this one does: the
    /// same client, kind, rate and standing. Only its last use may differ, a stamp that every
    /// minute's use moves.
    pub fn admits_as(&self, other: &Found) -> bool {
        let (this, that) = (&self.client, &other.client);
        (this.id, &this.name, this.kind, this.partner_id, self.per_minute, self.revoked)
            == (that.id, &that.name, that.kind, that.partner_id, other.per_minute, other.revoked)
    }
}

impl FromRequestParts<AppState> for ApiClient {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> AppResult<Self> {
        if let Some(client) = parts.extensions.get::<ApiClient>() {
            return Ok(client.clone());
        }
        let key = KeyHash::of(parts)?;
        let found = {
            let key = key.clone();
            state.db.look_up(move |conn| key.check_ahead(conn)?.client()).await?
        };
        key.admit(parts, state, found).await
    }
}

/// The hash of a request's API key: which client it names, before the database says whether
/// that client is live ([`KeyHash::check_ahead`], then [`KeyHash::admit`]).
#[derive(Clone)]
pub struct KeyHash(String);

impl KeyHash {
    /// The request's key, hashed as stored: 401 without one, or for a staff token.
    pub fn of(parts: &Parts) -> AppResult<KeyHash> {
        let token = bearer_token(&parts.headers).ok_or_else(|| AppError::Unauthorized(KEY_REQUIRED.into()))?;
        if !token.starts_with(KEY_PREFIX) {
            return Err(AppError::Unauthorized(STAFF_TOKEN_REFUSED.into()));
        }
        Ok(KeyHash(hash_token(token)))
    }

    /// The owner of the `x-requestid` answers made with this key (see `crate::app::idempotency`):
    /// known before the key is checked, so that the claim and the look-up of an answer can go with
    /// the check; a stored answer is still replayed only once the key is found live.
    pub fn idempotency_owner(&self) -> String {
        format!("api-key:{}", self.0)
    }

    /// The key's client, read ahead of the next statement on `conn` (see `ReadAhead`): one
    /// exchange with it on PostgreSQL.
    pub fn check_ahead<'c>(&self, conn: &'c crate::db::sql::Connection) -> AppResult<ClientAhead<'c>> {
        Ok(ClientAhead(conn.read_ahead(
            "SELECT id, name, kind, partner_id, rate_limit_per_minute, last_used_at,
                    revoked_at IS NOT NULL AS revoked
             FROM api_clients WHERE key_hash = ?1",
            [&self.0],
        )?))
    }

    /// The request's client as found: 401 for an unknown or revoked key, 429 over its rate. Its
    /// use is noted (at most once a minute) and remembered on the request.
    pub async fn admit(self, parts: &mut Parts, state: &AppState, found: Option<Found>) -> AppResult<ApiClient> {
        let found = found.ok_or_else(|| AppError::Unauthorized(KEY_UNKNOWN.into()))?;
        if found.revoked {
            return Err(AppError::Unauthorized(KEY_REVOKED.into()));
        }
        Actor::identify(Actor::client(found.client.id, found.client.name.clone()));
        state.feature::<ClientLimits>()?.check(found.client.id, share(found.per_minute, state.db.servers())).map_err(
            |seconds| AppError::TooManyRequests {
                message: OVER_RATE.replace("{seconds}", &seconds.to_string()),
                retry_after_secs: seconds,
            },
        )?;
        let now = OffsetDateTime::now_utc();
        let stale = format_iso(now - LAST_USED_EVERY);
        if found.last_used_at.as_ref().is_none_or(|at| *at < stale) {
            let (id, now) = (found.client.id, format_iso(now));
            // A write in its turn among writers (see `crate::db`), not one waiting in SQLite's
            // busy handler for the writers' transaction to end; set aside until the request's
            // transaction has ended when that transaction holds the request's claim.
            state
                .db
                .write_aside(move |conn| {
                    Columns::new().set("last_used_at", now).update(conn, "api_clients", id)?;
                    Ok(())
                })
                .await?;
        }
        let client = found.client;
        parts.extensions.insert(client.clone());
        Ok(client)
    }
}

/// A key's client read ahead ([`KeyHash::check_ahead`]).
pub struct ClientAhead<'c>(crate::db::sql::ReadAhead<'c>);

/// A key's check sent ahead and let go of its connection until it is read there
/// ([`ClientAhead::detach`]).
pub struct ClientSent(crate::db::sql::Detached);

impl ClientSent {
    /// The check again on `conn`, the connection it was sent on.
    pub fn attach(self, conn: &crate::db::sql::Connection) -> ClientAhead<'_> {
        ClientAhead(self.0.attach(conn))
    }
}

impl ClientAhead<'_> {
    /// This check, let go of its connection (see [`crate::db::sql::Detached`]).
    pub fn detach(self) -> ClientSent {
        ClientSent(self.0.detach())
    }

    /// The client the key names, live or revoked; `None` for a key no client has.
    pub fn client(self) -> AppResult<Option<Found>> {
        self.0
            .query_row(|r| {
                let kind: String = r.get("kind")?;
                Ok(Found {
                    client: ApiClient {
                        id: r.get("id")?,
                        name: r.get("name")?,
                        kind: ClientKind::parse(&kind).unwrap_or(ClientKind::Partner),
                        partner_id: r.get("partner_id")?,
                    },
                    per_minute: r.get::<i64>("rate_limit_per_minute")?.clamp(1, 1_000_000) as u32,
                    last_used_at: r.get("last_used_at")?,
                    revoked: r.get("revoked")?,
                })
            })
            .optional()
            .map_err(AppError::from)
    }
}
