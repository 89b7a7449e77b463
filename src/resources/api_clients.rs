//! The API clients screen: an Admin lists, creates and revokes the keys of the inbound API
//! (the credential itself, its extractor and rate, is `auth::api_keys`).

use crate::crud::Recorded;
use crate::db::activity::action;
use crate::db::sql::{Connection, OptionalExtension};
use axum::Json;
use axum::extract::State;
use axum::http::{Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{post, put};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use crate::auth::Roles;
use crate::auth::api_keys::{self, ClientKind, DEFAULT_PER_MINUTE};
use crate::core::error::{AppError, AppResult};
use crate::core::refusals::Audience;
use crate::core::validation::Validator;
use crate::crud::{self, Column, Filter, Kind, Language, Resource, Total, ValueKind};
use crate::http::api::Rule::{Message, Note, Range, Required};
use crate::http::api::{Api, Doc};
use crate::http::extract::ApiJson;
use crate::http::fields;
use crate::http::form_fields::{Bounds, Check, Field, FieldKind, Mode, read_fields};
use crate::http::state::AppState;

pub const NAME_REQUIRED: &str = "Name is required";
pub const KIND_INVALID: &str = "Kind must be employee-app or partner";
pub const PARTNER_REQUIRED: &str = "A partner key needs the partner's id";
pub const PARTNER_NOT_ALLOWED: &str = "Only a partner key names a partner";
pub const RATE_RANGE: &str = "The rate limit must be between 1 and 1000000 requests per minute";
pub const ALREADY_REVOKED: &str = "The API client is already revoked.";

/// What a new client is made from (the screen's form and the command line alike).
pub struct NewClient {
    pub name: String,
    pub kind: ClientKind,
    pub partner_id: Option<i64>,
    pub per_minute: u32,
}

fn is_client_kind(text: &str) -> bool {
    ClientKind::parse(text).is_some()
}

const CLIENT_KIND: Check = Check {
    pattern: r"^\s*(?:employee-app|partner)\s*$",
    test: is_client_kind,
    message: KIND_INVALID,
    example: "employee-app",
    refused: "robot",
};

/// The create form's fields (the screen's and `perkdesk api-client create`'s), in this order.
pub static CLIENT_FIELDS: &[Field] = &[
    Field::input("name", FieldKind::Text).required(NAME_REQUIRED).max_length(100),
    Field::input("kind", FieldKind::Checked(&CLIENT_KIND)).required(KIND_INVALID),
    Field::input("partnerId", FieldKind::Id { invalid: "partnerId must be a partner's id" }),
    Field::input("rateLimitPerMinute", FieldKind::Whole(&Bounds::one_message(1, 1_000_000, RATE_RANGE))),
];

impl NewClient {
    /// Reads and checks a create body, `{name, kind, partnerId?, rateLimitPerMinute?}` (the
    /// command line sends its arguments the same way): the declared fields, then a partner key's
    /// partner, which only a partner key names.
    pub fn from_json(body: &Value) -> AppResult<NewClient> {
        let mut v = Validator::new();
        let values = read_fields(CLIENT_FIELDS, fields::object(body)?, Mode::Create, &mut v);
        let kind = ClientKind::parse(values.get("kind"));
        let partner_id = values.number("partnerId");
        match kind {
            Some(ClientKind::Partner) => v.check("partnerId", partner_id.is_some(), PARTNER_REQUIRED),
            Some(ClientKind::EmployeeApp) => v.check("partnerId", partner_id.is_none(), PARTNER_NOT_ALLOWED),
            None => &mut v,
        };
        v.finish()?;
        Ok(NewClient {
            name: values.get("name").to_string(),
            kind: kind.unwrap_or(ClientKind::EmployeeApp),
            partner_id,
            per_minute: values.number("rateLimitPerMinute").map_or(DEFAULT_PER_MINUTE, |n| n as u32),
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
        api_keys::insert_client(tx, &self.name, self.kind, self.partner_id, self.per_minute)
    }
}

/// Revokes a client at once; a client already revoked is a 409, an unknown one a 404.
pub fn revoke(tx: &Connection, id: i64) -> AppResult<i64> {
    let revoked: bool = tx
        .query_row("SELECT revoked_at IS NOT NULL AS revoked FROM api_clients WHERE id = ?1", [id], |r| {
            r.get("revoked")
        })
        .optional()?
        .ok_or_else(|| API_CLIENTS.not_found())?;
    if revoked {
        return Err(AppError::Conflict(ALREADY_REVOKED.into()));
    }
    api_keys::revoke_client(tx, id)?;
    Ok(id)
}

/// The API clients screen's list (Admins only); revoked clients stay listed.
pub static API_CLIENTS: Resource = Resource {
    path: "apiClient",
    row: "ApiClientRow",
    tag: "API clients",
    name: "API client",
    table: "api_clients",
    from: "api_clients k LEFT JOIN partners p ON p.id = k.partner_id",
    scope: "k.id > 0",
    id: "k.id",
    total: Total::Maintained("api_clients"),
    columns: &[
        Column::new("id", "k.id", Kind::Int),
        Column::new("name", "k.name", Kind::Text).never_null(),
        Column::new("kind", "k.kind", Kind::Text).unsorted().never_null(),
        Column::new("partnerId", "k.partner_id", Kind::Int).detail_only(),
        Column::new("partnerName", "p.name", Kind::Text).unsorted(),
        Column::new("keyPrefix", "k.key_prefix", Kind::Text).unsorted().never_null(),
        Column::new("rateLimitPerMinute", "k.rate_limit_per_minute", Kind::Int).unsorted().never_null(),
        Column::new("lastUsedAt", "k.last_used_at", Kind::DateTime).unsorted(),
        Column::new("createdAt", "k.created_at", Kind::DateTime).unsorted().never_null(),
        Column::new("isRevoked", "k.revoked_at IS NOT NULL", Kind::Bool).unsorted().never_null(),
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
    plural: "API clients",
    label: Some("{row}.name"),
    history: &[
        Recorded { created: Some(action::KEY_CREATED), ..Recorded::table("api_clients") }.quiet(&["last_used_at"])
    ],
    trash: None,
    events: None,
    unrecorded: &[],
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

/// The texts this module's routes refuse with (`core::refusals`).
const REFUSALS: &[&str] = &[
    NAME_REQUIRED,
    KIND_INVALID,
    PARTNER_REQUIRED,
    PARTNER_NOT_ALLOWED,
    RATE_RANGE,
    ALREADY_REVOKED,
    "There is no partner with id {id}.",
];

pub fn routes() -> Api {
    let tag = API_CLIENTS.tag;
    crud::routes(&API_CLIENTS)
        .refuses(Audience::People, REFUSALS)
        .add(
            Method::POST,
            "/api/apiClient",
            post(create),
            Doc::new(tag, "Make an API client; its key is in this answer only")
                .roles(Roles::ADMIN)
                .json_body::<ClientCreate>()
                .rules_of(CLIENT_FIELDS)
                .rules(
                    "partnerId",
                    &[
                        Note("Required for kind partner; not sent for employee-app."),
                        Message("required", PARTNER_REQUIRED),
                        Message("excluded", PARTNER_NOT_ALLOWED),
                    ],
                )
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
                .returns_component(200, crud::row_schema(&API_CLIENTS)),
        )
}

async fn create(State(state): State<AppState>, ApiJson(body): ApiJson<Value>) -> AppResult<Response> {
    let new = NewClient::from_json(&body)?;
    let (key, client) = state
        .db
        .write(move |tx| {
            let (id, key) = new.insert(tx)?;
            let row = crud::fetch_detail(tx, &API_CLIENTS, id, Language::Az)?.ok_or_else(|| API_CLIENTS.not_found())?;
            Ok((key, row))
        })
        .await?;
    // The key is shown once: the registry marks this answer (`http::secrets`), so a repeat with
    // the same x-requestid gets the client without it.
    Ok((StatusCode::CREATED, Json(CreatedClient { key, client })).into_response())
}

async fn revoke_call(State(state): State<AppState>, ApiJson(body): ApiJson<Value>) -> AppResult<Json<Value>> {
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
        "SELECT k.id, k.name, k.kind, p.name AS partner_name, k.key_prefix, k.rate_limit_per_minute, k.last_used_at,
                k.revoked_at
         FROM api_clients k LEFT JOIN partners p ON p.id = k.partner_id ORDER BY k.id",
    )?;
    let rows = stmt
        .query_map([], |r| {
            Ok(Listed {
                id: r.get("id")?,
                name: r.get("name")?,
                kind: r.get("kind")?,
                partner: r.get("partner_name")?,
                key_prefix: r.get("key_prefix")?,
                per_minute: r.get("rate_limit_per_minute")?,
                last_used_at: r.get("last_used_at")?,
                revoked_at: r.get("revoked_at")?,
            })
        })?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(rows)
}
