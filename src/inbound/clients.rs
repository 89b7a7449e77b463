//! API clients: who may call the inbound API. An Admin makes a client (on the API clients screen
//! or with `perkdesk api-client create`) and is shown its key once: `pk_` and 43 characters of
//! a 256-bit random value from the operating system's generator. Only the key's SHA-256 hash is
//! stored (see docs/decisions.md), with its first characters so keys can be told apart. Each
//! client is of one kind, the employee app or one partner, has its own request rate and a
//! last-used time, and a revoked client is refused on its next request.

use std::collections::HashMap;
use std::num::NonZeroU32;
use std::sync::Mutex;

use axum::Json;
use axum::extract::{FromRequestParts, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{post, put};
use base64::Engine;
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultDirectRateLimiter, Quota, RateLimiter};
use rusqlite::{Connection, OptionalExtension};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use time::OffsetDateTime;
use utoipa::ToSchema;

use crate::api::Rule::{Length, Note, Pattern, Range, Required};
use crate::api::{Api, Doc, patterns};
use crate::auth::tokens::{hash_token, random_bytes};
use crate::auth::{CurrentUser, Roles, bearer_token};
use crate::crud::{self, Column, Filter, Kind, Language, Resource, ValueKind};
use crate::db::{format_iso, lock, now_iso};
use crate::error::{AppError, AppResult};
use crate::extract::ApiJson;
use crate::idempotency::CarriesCredentials;
use crate::resources::fields;
use crate::state::AppState;
use crate::validation::Validator;

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
pub const NAME_REQUIRED: &str = "Name is required";
pub const KIND_INVALID: &str = "Kind must be employee-app or partner";
pub const PARTNER_REQUIRED: &str = "A partner key needs the partner's id";
pub const PARTNER_NOT_ALLOWED: &str = "Only a partner key names a partner";
pub const RATE_RANGE: &str = "The rate limit must be between 1 and 1000000 requests per minute";
pub const ALREADY_REVOKED: &str = "The API client is already revoked.";

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
    /// The owner of this client's `x-requestid` answers (see `crate::idempotency`).
    pub fn idempotency_owner(&self) -> String {
        format!("api-client:{}", self.id)
    }

    /// The client, when it is of `kind`; a key of the other kind is a 403.
    pub fn require(&self, kind: ClientKind) -> AppResult<()> {
        if self.kind == kind {
            return Ok(());
        }
        Err(AppError::Forbidden(match kind {
            ClientKind::EmployeeApp => "This call is for the employee app's key; this key belongs to a partner.".into(),
            ClientKind::Partner => "This call is for a partner's key; this key belongs to the employee app.".into(),
        }))
    }
}

/// True when the request carries an API key rather than (or instead of) a staff token.
pub fn sends_api_key(headers: &HeaderMap) -> bool {
    bearer_token(headers).is_some_and(|token| token.starts_with(KEY_PREFIX))
}

/// A new key and the hash that is stored.
pub fn new_key() -> (String, String) {
    let key = format!("{KEY_PREFIX}{}", base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(random_bytes::<32>()));
    let hash = hash_token(&key);
    (key, hash)
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
        entry
            .1
            .check()
            .map_err(|not_until| crate::error::seconds_to_wait(not_until.wait_time_from(DefaultClock::default().now())))
    }
}

struct Found {
    client: ApiClient,
    per_minute: u32,
    last_used_at: Option<String>,
    revoked: bool,
}

impl FromRequestParts<AppState> for ApiClient {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> AppResult<Self> {
        if let Some(client) = parts.extensions.get::<ApiClient>() {
            return Ok(client.clone());
        }
        let token = bearer_token(&parts.headers).ok_or_else(|| AppError::Unauthorized(KEY_REQUIRED.into()))?;
        if !token.starts_with(KEY_PREFIX) {
            return Err(AppError::Unauthorized(STAFF_TOKEN_REFUSED.into()));
        }
        let hash = hash_token(token);
        let found = state
            .db
            .look_up(move |conn| {
                conn.prepare_cached(
                    "SELECT id, name, kind, partner_id, rate_limit_per_minute, last_used_at, revoked_at IS NOT NULL
                     FROM api_clients WHERE key_hash = ?1",
                )?
                .query_row([hash], |r| {
                    let kind: String = r.get(2)?;
                    Ok(Found {
                        client: ApiClient {
                            id: r.get(0)?,
                            name: r.get(1)?,
                            kind: ClientKind::parse(&kind).unwrap_or(ClientKind::Partner),
                            partner_id: r.get(3)?,
                        },
                        per_minute: r.get::<_, i64>(4)?.clamp(1, 1_000_000) as u32,
                        last_used_at: r.get(5)?,
                        revoked: r.get(6)?,
                    })
                })
                .optional()
                .map_err(AppError::from)
            })
            .await?
            .ok_or_else(|| AppError::Unauthorized(KEY_UNKNOWN.into()))?;
        if found.revoked {
            return Err(AppError::Unauthorized(KEY_REVOKED.into()));
        }
        state.api_client_limits.check(found.client.id, found.per_minute).map_err(|seconds| {
            AppError::TooManyRequests {
                message: format!("This API client is over its rate limit. Try again in {seconds} seconds."),
                retry_after_secs: seconds,
            }
        })?;
        let now = OffsetDateTime::now_utc();
        let stale = format_iso(now - LAST_USED_EVERY);
        if found.last_used_at.as_ref().is_none_or(|at| *at < stale) {
            let (id, now) = (found.client.id, format_iso(now));
            // A write in its turn among writers (see `crate::db`), not one waiting in SQLite's
            // busy handler for the writers' transaction to end.
            state
                .db
                .write(move |conn| {
                    conn.prepare_cached("UPDATE api_clients SET last_used_at = ?2 WHERE id = ?1")?
                        .execute((id, now))?;
                    Ok(())
                })
                .await?;
        }
        let client = found.client;
        parts.extensions.insert(client.clone());
        Ok(client)
    }
}

/// What a new client is made from (the screen's form and the command line alike).
pub struct NewClient {
    pub name: String,
    pub kind: ClientKind,
    pub partner_id: Option<i64>,
    pub per_minute: u32,
}

impl NewClient {
    /// Reads and checks a create body: `{name, kind, partnerId?, rateLimitPerMinute?}`.
    pub fn from_json(body: &Value) -> AppResult<NewClient> {
        let body = fields::object(body)?;
        let mut v = Validator::new();
        let name = fields::text(&mut v, "name", body.get("name"));
        let kind_text = fields::text(&mut v, "kind", body.get("kind"));
        let partner_id = match fields::number(body.get("partnerId")) {
            fields::Number::Missing => None,
            fields::Number::Whole(id) if id > 0 => Some(id),
            _ => {
                v.check("partnerId", false, "partnerId must be a partner's id");
                None
            }
        };
        let per_minute = match fields::number(body.get("rateLimitPerMinute")) {
            fields::Number::Missing => Some(DEFAULT_PER_MINUTE as i64),
            fields::Number::Whole(n) => Some(n),
            fields::Number::Invalid => None,
        };
        NewClient::check(v, name, &kind_text, partner_id, per_minute)
    }

    /// The rules every new client meets, each failure under its field.
    pub fn check(
        mut v: Validator,
        name: String,
        kind: &str,
        partner_id: Option<i64>,
        per_minute: Option<i64>,
    ) -> AppResult<NewClient> {
        let name = name.trim().to_string();
        v.required("name", &name, NAME_REQUIRED).length("name", &name, 1, 100);
        let kind = ClientKind::parse(kind);
        v.check("kind", kind.is_some(), KIND_INVALID);
        match kind {
            Some(ClientKind::Partner) => v.check("partnerId", partner_id.is_some(), PARTNER_REQUIRED),
            Some(ClientKind::EmployeeApp) => v.check("partnerId", partner_id.is_none(), PARTNER_NOT_ALLOWED),
            None => &mut v,
        };
        v.check("rateLimitPerMinute", per_minute.is_some_and(|n| (1..=1_000_000).contains(&n)), RATE_RANGE);
        v.finish()?;
        Ok(NewClient {
            name,
            kind: kind.unwrap_or(ClientKind::EmployeeApp),
            partner_id,
            per_minute: per_minute.unwrap_or(DEFAULT_PER_MINUTE as i64) as u32,
        })
    }

    /// Stores the client and returns its id and key; the key is not kept anywhere.
    pub fn insert(&self, tx: &Connection) -> AppResult<(i64, String)> {
        if let Some(partner) = self.partner_id {
            let exists = tx
                .query_row("SELECT 1 FROM partners WHERE id = ?1 AND deleted_at IS NULL", [partner], |_| Ok(()))
                .optional()?;
            exists.ok_or_else(|| AppError::no_such("partnerId", format!("There is no partner with id {partner}.")))?;
        }
        let (key, hash) = new_key();
        let prefix: String = key.chars().take(KEY_PREFIX.len() + 6).collect();
        tx.execute(
            "INSERT INTO api_clients (name, kind, partner_id, key_hash, key_prefix, rate_limit_per_minute)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            (&self.name, self.kind.as_str(), self.partner_id, &hash, &prefix, self.per_minute),
        )?;
        Ok((tx.last_insert_rowid(), key))
    }
}

/// Revokes a client at once; a client already revoked is a 409, an unknown one a 404.
pub fn revoke(tx: &Connection, id: i64) -> AppResult<i64> {
    let revoked: bool = tx
        .query_row("SELECT revoked_at IS NOT NULL FROM api_clients WHERE id = ?1", [id], |r| r.get(0))
        .optional()?
        .ok_or_else(|| API_CLIENTS.not_found())?;
    if revoked {
        return Err(AppError::Conflict(ALREADY_REVOKED.into()));
    }
    tx.execute("UPDATE api_clients SET revoked_at = ?2 WHERE id = ?1", (id, now_iso()))?;
    Ok(id)
}

/// The API clients screen's list (Admins only); revoked clients stay listed.
pub static API_CLIENTS: Resource = Resource {
    path: "apiClient",
    tag: "API clients",
    name: "API client",
    table: "api_clients",
    from: "api_clients k LEFT JOIN partners p ON p.id = k.partner_id",
    scope: "k.id > 0",
    id: "k.id",
    total_key: Some("api_clients"),
    columns: &[
        Column::new("id", "k.id", Kind::Int),
        Column::new("name", "k.name", Kind::Text),
        Column::new("kind", "k.kind", Kind::Text).unsorted(),
        Column::new("partnerId", "k.partner_id", Kind::Int).detail_only(),
        Column::new("partnerName", "p.name", Kind::Text).unsorted(),
        Column::new("keyPrefix", "k.key_prefix", Kind::Text).unsorted(),
        Column::new("rateLimitPerMinute", "k.rate_limit_per_minute", Kind::Int).unsorted(),
        Column::new("lastUsedAt", "k.last_used_at", Kind::DateTime).unsorted(),
        Column::new("createdAt", "k.created_at", Kind::DateTime).unsorted(),
        Column::new("isRevoked", "k.revoked_at IS NOT NULL", Kind::Bool).unsorted(),
        Column::new("revokedAt", "k.revoked_at", Kind::DateTime).unsorted(),
    ],
    filters: &[Filter::contains("Name", "k.name"), Filter::equals("Kind", "k.kind", ValueKind::Text)],
    export: None,
    read: Roles::ADMIN,
    write: Roles::ADMIN,
    toggle: false,
    delete: false,
    on_change: None,
    detail_extra: None,
};

/// `POST apiClient`'s body.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)] // describes the body for the OpenAPI document; read field by field
pub struct ClientCreate {
    name: String,
    /// `employee-app` or `partner`.
    kind: String,
    /// The partner a partner key acts for (partner keys only).
    partner_id: Option<i64>,
    /// Requests per minute (default 600).
    rate_limit_per_minute: Option<i64>,
}

/// `POST apiClient`'s answer: the client and, this once, its key.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreatedClient {
    /// The secret key: shown this once, never stored or shown again.
    key: String,
    #[schema(value_type = Object)]
    client: Value,
}

/// `{id}` of the revoke call.
#[derive(Deserialize, ToSchema)]
#[allow(dead_code)]
pub struct ClientId {
    id: i64,
}

pub fn routes() -> Api {
    let tag = API_CLIENTS.tag;
    crud::routes(&API_CLIENTS)
        .add(
            Method::POST,
            "/api/apiClient",
            post(create),
            Doc::new(tag, "Make an API client; its key is in this answer only")
                .roles(Roles::ADMIN)
                .json_body::<ClientCreate>()
                .rules("name", &[Required, Pattern(patterns::NOT_BLANK), Length(1, 100)])
                .rules("kind", &[Required, Pattern(r"^\s*(?:employee-app|partner)\s*$")])
                .rules("partnerId", &[Note("Required for kind partner; not sent for employee-app.")])
                .rules("rateLimitPerMinute", &[Range(1, 1_000_000)])
                .answers(404, "No such partner")
                .returns::<CreatedClient>(201),
        )
        .add(
            Method::PUT,
            "/api/apiClient/revoke",
            put(revoke_call),
            Doc::new(tag, "Revoke an API client: its key is refused from the next request on")
                .roles(Roles::ADMIN)
                .json_body::<ClientId>()
                .rules("id", &[Required, Range(1, i64::MAX)])
                .answers(404, "No such API client")
                .answers(409, "Already revoked")
                .returns_schema(200, crud::row_schema(&API_CLIENTS)),
        )
}

async fn create(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiJson(body): ApiJson<Value>,
) -> AppResult<Response> {
    user.require(Roles::ADMIN)?;
    let new = NewClient::from_json(&body)?;
    let (key, client) = state
        .db
        .write(move |tx| {
            let (id, key) = new.insert(tx)?;
            let row = crud::fetch_detail(tx, &API_CLIENTS, id, Language::Az)?.ok_or_else(|| API_CLIENTS.not_found())?;
            Ok((key, row))
        })
        .await?;
    let mut response = (StatusCode::CREATED, Json(CreatedClient { key, client })).into_response();
    // The key is never stored with the request id: a repeat cannot show it a second time.
    CarriesCredentials::mark(&mut response);
    Ok(response)
}

async fn revoke_call(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiJson(body): ApiJson<Value>,
) -> AppResult<Json<Value>> {
    user.require(Roles::ADMIN)?;
    let body = fields::object(&body)?;
    let mut v = Validator::new();
    let id = fields::id(&mut v, "id", body.get("id"), "Id is required", "Id must be a number");
    v.finish()?;
    crud::save_then_fetch(&state, &API_CLIENTS, move |tx| revoke(tx, id)).await.map(Json)
}

/// One client as `api-client list` prints it.
pub struct Listed {
    pub id: i64,
    pub name: String,
    pub kind: String,
    pub partner: Option<String>,
    pub key_prefix: String,
    pub per_minute: i64,
    pub last_used_at: Option<String>,
    pub revoked_at: Option<String>,
}

pub fn list_all(conn: &Connection) -> AppResult<Vec<Listed>> {
    let mut stmt = conn.prepare(
        "SELECT k.id, k.name, k.kind, p.name, k.key_prefix, k.rate_limit_per_minute, k.last_used_at, k.revoked_at
         FROM api_clients k LEFT JOIN partners p ON p.id = k.partner_id ORDER BY k.id",
    )?;
    let rows = stmt
        .query_map([], |r| {
            Ok(Listed {
                id: r.get(0)?,
                name: r.get(1)?,
                kind: r.get(2)?,
                partner: r.get(3)?,
                key_prefix: r.get(4)?,
                per_minute: r.get(5)?,
                last_used_at: r.get(6)?,
                revoked_at: r.get(7)?,
            })
        })?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(rows)
}
