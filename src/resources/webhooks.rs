//! The Webhooks screen: an Admin names the URLs that hear of the product's events, each signed
//! with a secret of its own (shown once), sees every delivery and its attempts, and sends one
//! again. The events are the resources' declarations (`Resource::events`); their messages are
//! written by `crud::events` in each change's own transaction and sent by `app::webhooks`. This
//! module is the one writer of `webhooks`: an Admin's changes, and the delivery worker's record of
//! how each endpoint is doing (switched off when it has failed for too long).

use std::time::Duration;

use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post, put};
use base64::Engine;
use rand::RngCore;
use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;

use crate::auth::{CurrentUser, Roles};
use crate::core::error::{AppError, AppResult};
use crate::core::refusals::Audience;
use crate::core::targets;
use crate::core::validation::Validator;
use crate::crud::events::{self, DELIVERY_NOT_FOUND, ENDPOINT_DELETED};
use crate::crud::{
    self, Change, Column, Filter, Kind, Language, ListPage, ListQuery, Recorded, Resource, Total, Trash, ValueKind,
};
use crate::db::now_iso;
use crate::db::sql::{Connection, OptionalExtension};
use crate::http::api::Rule::{Message, Note};
use crate::http::api::{Api, Component, Doc};
use crate::http::extract::{ApiJson, PathId, QueryMap};
use crate::http::fields;
use crate::http::form_fields::{Check, Columns, Field, FieldKind, Mode, read_fields};
use crate::http::state::AppState;
use utoipa::PartialSchema;

pub const EVENTS_REQUIRED: &str = "Choose at least one event";
pub const EVENTS_INVALID: &str = "Events must be a list of event names";
pub const UNKNOWN_EVENT: &str = "Unknown event: {event}";
pub const ONE_SCOPE: &str = "A webhook is limited to one partner or one asset, not both";

/// How long a rotated secret still signs beside the new one, so a receiver can switch over.
pub const ROTATION_OVERLAP: Duration = Duration::from_secs(24 * 60 * 60);

fn is_http_url(text: &str) -> bool {
    targets::parse(text).is_ok()
}

/// An http or https URL with a host (its target is checked after: `core::targets`).
const HTTP_URL: Check = Check {
    pattern: r"^\s*[Hh][Tt][Tt][Pp][Ss]?://[^\s/?#]+\S*\s*$",
    test: is_http_url,
    message: targets::URL_SCHEME,
    example: "https://erp.example.az/perkdesk/hooks",
    refused: "ftp://erp.example.az/hooks",
};

/// The form's fields beside `events` (a list, read apart).
pub static WEBHOOK_FIELDS: &[Field] = &[
    Field::input("url", FieldKind::Checked(&HTTP_URL))
        .required(targets::URL_REQUIRED)
        .max_length(targets::URL_MAX_CHARS),
    Field::input("description", FieldKind::Text).max_length(500),
    Field::input("partnerId", FieldKind::Id { invalid: "partnerId must be a partner's id" }),
    Field::input("assetId", FieldKind::Id { invalid: "assetId must be an asset's id" }),
    Field::input("isActive", FieldKind::Flag { invalid: "isActive must be true or false" }),
];

/// An endpoint's state as the screen shows it: switched off by the server, paused by an Admin, or
/// active.
const STATE_SQL: &str =
    "CASE WHEN w.disabled_at IS NOT NULL THEN 'disabled' WHEN w.is_active = 1 THEN 'active' ELSE 'paused' END";

/// The endpoints (Admins only). Their secrets are no column of any answer.
pub static WEBHOOKS: Resource = Resource {
    path: "webhook",
    row: "WebhookRow",
    tag: "Webhooks",
    name: "Webhook",
    table: "webhooks",
    from: "webhooks w LEFT JOIN partners p ON p.id = w.partner_id LEFT JOIN assets a ON a.id = w.asset_id",
    scope: "w.deleted_at IS NULL",
    id: "w.id",
    total: Total::Counted,
    columns: &[
        Column::new("id", "w.id", Kind::Int),
        Column::new("url", "w.url", Kind::Text).never_null(),
        Column::new("description", "w.description", Kind::Text).unsorted(),
        Column::new("events", "w.events", Kind::Strings).never_null(),
        Column::new("partnerId", "w.partner_id", Kind::Int).unsorted(),
        Column::new("partnerName", "p.name", Kind::Text).unsorted(),
        Column::new("assetId", "w.asset_id", Kind::Int).unsorted(),
        Column::new("assetName", "a.name", Kind::Text).unsorted(),
        Column::new("isActive", "w.is_active", Kind::Bool).unsorted().never_null(),
        Column::new("state", STATE_SQL, Kind::Text).unsorted().never_null(),
        Column::new("disabledAt", "w.disabled_at", Kind::DateTime).unsorted(),
        Column::new("disabledReason", "w.disabled_reason", Kind::Text).unsorted(),
        Column::new("failingSince", "w.failing_since", Kind::DateTime).unsorted(),
        Column::new("lastDeliveryAt", "w.last_delivery_at", Kind::DateTime),
        Column::new("lastStatusCode", "w.last_status_code", Kind::Int).unsorted(),
        Column::new("previousSecretExpiresAt", "w.previous_secret_expires_at", Kind::DateTime).unsorted(),
        Column::new("createdAt", "w.created_at", Kind::DateTime).never_null(),
    ],
    filters: &[Filter::contains("Url", "w.url"), Filter::equals("State", STATE_SQL, ValueKind::Text)],
    export: None,
    read: Roles::ADMIN,
    write: Roles::ADMIN,
    toggle: true,
    delete: true,
    on_change: Some(on_change),
    detail_extra: None,
    plural: "webhooks",
    label: Some("{row}.url"),
    history: &[Recorded::table("webhooks").quiet(&["last_delivery_at", "last_status_code", "failing_since"])],
    trash: Some(Trash { owned: &[("webhook_messages", "webhook_id = ?1", "deliveries")], ..Trash::PLAIN }),
    events: None,
    unrecorded: &[
        ("webhook_messages", "the outbox and delivery log: each row is itself the record of a message and its sending"),
        ("webhook_attempts", "the delivery log: each row is itself the record of one attempt"),
    ],
};

/// The filters a deliveries list documents; the endpoint's own (`Webhook`) comes from its path.
const DELIVERY_FILTERS: &[Filter] =
    &[Filter::equals("State", "m.state", ValueKind::Text), Filter::equals("Event", "m.event", ValueKind::Text)];

/// An endpoint's deliveries: one row per message, with its last attempt.
pub static DELIVERIES: Resource = Resource {
    filters: &[
        Filter::equals("Webhook", "m.webhook_id", ValueKind::Int),
        Filter::equals("State", "m.state", ValueKind::Text),
        Filter::equals("Event", "m.event", ValueKind::Text),
    ],
    ..DELIVERY_ROWS
};

/// The deliveries as the document lists their query: without the filter the path sets.
static DELIVERIES_DOCUMENTED: Resource = Resource { filters: DELIVERY_FILTERS, ..DELIVERY_ROWS };

const DELIVERY_ROWS: Resource = Resource {
    path: "webhook/delivery",
    row: "WebhookDeliveryRow",
    tag: "Webhooks",
    name: "Webhook delivery",
    table: "webhook_messages",
    from: "webhook_messages m",
    scope: "1 = 1",
    id: "m.id",
    total: Total::Counted,
    columns: &[
        Column::new("id", "m.id", Kind::Int),
        Column::new("webhookId", "m.webhook_id", Kind::Int).unsorted().never_null(),
        Column::new("event", "m.event", Kind::Text).unsorted().never_null(),
        Column::new("messageId", "m.message_id", Kind::Text).unsorted().never_null(),
        Column::new("attempt", "m.attempts", Kind::Int).unsorted().never_null(),
        Column::new("statusCode", "m.last_status_code", Kind::Int).unsorted(),
        Column::new("durationMs", "m.last_duration_ms", Kind::Int).unsorted(),
        Column::new("error", "m.last_error", Kind::Text).unsorted(),
        Column::new("state", "m.state", Kind::Text).unsorted().never_null(),
        Column::new("nextAttemptAt", "m.next_attempt_at", Kind::DateTime).unsorted(),
        Column::new("createdAt", "m.created_at", Kind::DateTime).unsorted().never_null(),
        Column::new("deliveredAt", "m.delivered_at", Kind::DateTime).unsorted(),
    ],
    filters: DELIVERY_FILTERS,
    export: None,
    read: Roles::ADMIN,
    write: Roles::ADMIN,
    toggle: false,
    delete: false,
    on_change: None,
    detail_extra: None,
    plural: "webhook deliveries",
    label: None,
    history: &[],
    trash: None,
    events: None,
    unrecorded: &[],
};

/// An endpoint switched back on starts afresh: no longer switched off, no failures counted; a
/// deleted one's waiting messages are not sent; one deleted for good takes its deliveries with it.
fn on_change(tx: &Connection, _user: Option<&CurrentUser>, change: &Change) -> AppResult<()> {
    match change {
        Change::Toggled { id, active: true } => start_afresh(tx, *id)?,
        Change::Deleted(ids) => events::cancel_for(tx, ids)?,
        Change::Purging(ids) => events::purge_for(tx, ids)?,
        _ => {}
    }
    Ok(())
}

/// An endpoint switched on by an Admin (its switch, or an edit with `isActive` true): no longer
/// switched off by the server, no failures counted.
fn start_afresh(tx: &Connection, id: i64) -> AppResult<()> {
    tx.execute(
        "UPDATE webhooks SET disabled_at = NULL, disabled_reason = NULL, failing_since = NULL WHERE id = ?1",
        [id],
    )?;
    Ok(())
}

/// What a create or an edit sends, read and checked.
struct WebhookInput {
    url: String,
    description: Option<String>,
    events: Vec<&'static str>,
    partner: Option<i64>,
    asset: Option<i64>,
    active: bool,
}

impl WebhookInput {
    /// Reads the body: the declared fields, the events, one scope at most; then the URL's target,
    /// its name resolved (`core::targets`).
    async fn read(body: &Value, allow_private: bool) -> AppResult<WebhookInput> {
        let object = fields::object(body)?;
        let mut v = Validator::new();
        let values = read_fields(WEBHOOK_FIELDS, object, Mode::Create, &mut v);
        let events = read_events(object.get("events"), &mut v);
        let (partner, asset) = (values.number("partnerId"), values.number("assetId"));
        if partner.is_some() && asset.is_some() {
            v.check("assetId", false, ONE_SCOPE);
        }
        v.finish()?;
        let url = targets::check(values.get("url"), allow_private)
            .await
            .map_err(|message| AppError::field("url", message))?;
        let description = Some(values.get("description").to_string()).filter(|text| !text.is_empty());
        // An endpoint is active unless the body says otherwise.
        let active = object.get("isActive").is_none_or(Value::is_null) || values.get("isActive") == "1";
        Ok(WebhookInput { url: url.to_string(), description, events, partner, asset, active })
    }

    fn columns(&self) -> Columns {
        let events: Vec<&str> = self.events.clone();
        Columns::new()
            .set("url", self.url.clone())
            .set("description", self.description.clone())
            .set("events", serde_json::to_string(&events).unwrap_or_else(|_| "[]".into()))
            .set("partner_id", self.partner)
            .set("asset_id", self.asset)
            .set("is_active", self.active)
    }

    /// The partner or asset it is limited to exists (404 on its field otherwise).
    fn check_scope(&self, tx: &Connection) -> AppResult<()> {
        for (id, table, field, kind) in
            [(self.partner, "partners", "partnerId", "partner"), (self.asset, "assets", "assetId", "asset")]
        {
            let Some(id) = id else { continue };
            let exists = tx
                .query_row(&format!("SELECT 1 FROM {table} WHERE id = ?1 AND deleted_at IS NULL"), [id], |_| Ok(()))
                .optional()?;
            exists.ok_or_else(|| AppError::no_such(field, format!("There is no {kind} with id {id}.")))?;
        }
        Ok(())
    }
}

/// The events named, each known, each once, in the catalogue's order.
fn read_events(sent: Option<&Value>, v: &mut Validator) -> Vec<&'static str> {
    let catalogue = super::webhook_events();
    let items = match sent {
        None | Some(Value::Null) => {
            v.check("events", false, EVENTS_REQUIRED);
            return Vec::new();
        }
        Some(Value::Array(items)) => items,
        Some(_) => {
            v.check("events", false, EVENTS_INVALID);
            return Vec::new();
        }
    };
    let mut named = Vec::new();
    for item in items {
        match item.as_str().map(str::trim) {
            Some(name) => match catalogue.iter().find(|event| **event == name) {
                Some(event) => named.push(*event),
                None => {
                    v.check("events", false, &UNKNOWN_EVENT.replace("{event}", name));
                }
            },
            None => {
                v.check("events", false, EVENTS_INVALID);
            }
        }
    }
    if items.is_empty() {
        v.check("events", false, EVENTS_REQUIRED);
    }
    catalogue.into_iter().filter(|event| named.contains(event)).collect()
}

/// A new signing secret as the Standard Webhooks specification writes one: `whsec_` and the
/// base64 of 32 random bytes.
fn new_secret() -> String {
    let mut bytes = [0u8; 32];
    rand::rng().fill_bytes(&mut bytes);
    format!("whsec_{}", base64::engine::general_purpose::STANDARD.encode(bytes))
}

/// `POST webhook`'s body (and `PUT webhook/{id}`'s).
#[derive(ToSchema)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)] // describes the body for the OpenAPI document; read field by field
pub struct WebhookIn {
    /// An http or https URL outside this server's own networks.
    url: String,
    /// The events it hears of, at least one.
    #[schema(inline, min_items = 1)]
    events: Vec<WebhookEvent>,
    description: Option<String>,
    /// Default true.
    is_active: Option<bool>,
    /// Hear only of this partner's records (uses, campaigns, applications, redemptions).
    partner_id: Option<i64>,
    /// Hear only of this asset's records (its employees, their uses and complaints).
    asset_id: Option<i64>,
}

/// The name of an event, one of the catalogue's (the resources' declarations).
pub struct WebhookEvent;

impl utoipa::PartialSchema for WebhookEvent {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{ObjectBuilder, Type};
        ObjectBuilder::new().schema_type(Type::String).enum_values(Some(super::webhook_events())).into()
    }
}

impl ToSchema for WebhookEvent {}

/// A webhook and, this once, its signing secret (create and rotate).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreatedWebhook {
    /// The signing secret, `whsec_` and base64: shown this once, never again.
    secret: String,
    #[schema(value_type = Object)]
    webhook: Value,
}

/// One attempt of a delivery.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)] // describes the answer; built as JSON by crud::events
pub struct DeliveryAttempt {
    attempt: i64,
    started_at: String,
    status_code: Option<i64>,
    duration_ms: i64,
    error: Option<String>,
}

/// The texts this module's routes refuse with (`core::refusals`).
const REFUSALS: &[&str] = &[
    targets::URL_REQUIRED,
    targets::URL_SCHEME,
    targets::URL_FORBIDDEN,
    targets::URL_UNRESOLVED,
    EVENTS_REQUIRED,
    EVENTS_INVALID,
    UNKNOWN_EVENT,
    ONE_SCOPE,
    DELIVERY_NOT_FOUND,
    ENDPOINT_DELETED,
    "There is no partner with id {id}.",
    "There is no asset with id {id}.",
];

fn body_doc(doc: Doc) -> Doc {
    doc.json_body::<WebhookIn>()
        .rules_of(WEBHOOK_FIELDS)
        .rules(
            "events",
            &[
                Message("required", EVENTS_REQUIRED),
                Message("format", EVENTS_INVALID),
                Note("Each one of the WebhookEvent names; an unknown one is refused as 'Unknown event: {event}'."),
            ],
        )
        .rules(
            "url",
            &[
                Message("forbidden", targets::URL_FORBIDDEN),
                Message("unresolved", targets::URL_UNRESOLVED),
                Note("Resolved when saved and again at each delivery; serve --webhooks-allow-private lets it point inside."),
            ],
        )
        .rules("assetId", &[Message("excluded", ONE_SCOPE)])
        .answers(404, "No such partner or asset")
}

pub fn routes() -> Api {
    let tag = WEBHOOKS.tag;
    crud::routes(&WEBHOOKS)
        .refuses(Audience::People, REFUSALS)
        .refuses(Audience::People, [DELIVERIES.name])
        .add(
            Method::POST,
            "/api/webhook",
            post(create),
            body_doc(Doc::new(tag, "Add a webhook endpoint; its signing secret is in this answer only"))
                .roles(Roles::ADMIN)
                .returns::<CreatedWebhook>(201),
        )
        .add(
            Method::PUT,
            "/api/webhook/{id}",
            put(update),
            body_doc(Doc::new(tag, "Change a webhook endpoint (isActive true switches a switched-off one back on)"))
                .roles(Roles::ADMIN)
                .returns_component(200, crud::row_schema(&WEBHOOKS)),
        )
        .add(
            Method::DELETE,
            "/api/webhook/{id}",
            delete(delete_one),
            Doc::new(tag, "Delete a webhook endpoint; its waiting deliveries are not sent")
                .roles(Roles::ADMIN)
                .answers(404, "No such webhook")
                .returns::<crud::Deleted>(200),
        )
        .add(
            Method::POST,
            "/api/webhook/{id}/rotate-secret",
            post(rotate),
            Doc::new(tag, "A new signing secret, in this answer only; the previous one signs beside it for 24 hours")
                .roles(Roles::ADMIN)
                .answers(404, "No such webhook")
                .returns::<CreatedWebhook>(201),
        )
        .add(
            Method::GET,
            "/api/webhook/{id}/deliveries",
            get(deliveries),
            crud::list_params(
                Doc::new(tag, "The deliveries of one webhook endpoint, newest first"),
                &DELIVERIES_DOCUMENTED,
            )
            .roles(Roles::ADMIN)
            .with_component(crud::row_schema(&DELIVERIES))
            .answers(404, "No such webhook")
            .returns_schema(200, crud::list_schema(&DELIVERIES)),
        )
        .add(
            Method::GET,
            "/api/webhook/delivery/{id}",
            get(delivery),
            Doc::new(tag, "One delivery: its body as sent and every attempt")
                .roles(Roles::ADMIN)
                .with_component(crud::row_schema(&DELIVERIES))
                .with_component(Component { name: "DeliveryAttempt", schema: DeliveryAttempt::schema() })
                .answers(404, "No such delivery")
                .returns_schema(200, delivery_schema()),
        )
        .add(
            Method::POST,
            "/api/webhook/delivery/{id}/replay",
            post(replay),
            Doc::new(tag, "Send a delivery again, with the same webhook-id")
                .roles(Roles::ADMIN)
                .answers(404, "No such delivery")
                .answers(409, "Its webhook was deleted")
                .returns_component(200, crud::row_schema(&DELIVERIES)),
        )
}

/// A delivery's detail: its row, the body as sent and its attempts.
fn delivery_schema() -> utoipa::openapi::RefOr<utoipa::openapi::Schema> {
    use utoipa::openapi::schema::{AllOfBuilder, ArrayBuilder, ObjectBuilder, Type};
    let extra = ObjectBuilder::new()
        .property("payload", ObjectBuilder::new().schema_type(Type::String).description(Some("The JSON body sent")))
        .required("payload")
        .property("attempts", ArrayBuilder::new().items(utoipa::openapi::Ref::from_schema_name("DeliveryAttempt")))
        .required("attempts");
    let all_of = AllOfBuilder::new().item(utoipa::openapi::Ref::from_schema_name(DELIVERIES.row)).item(extra).build();
    utoipa::openapi::RefOr::T(utoipa::openapi::Schema::AllOf(all_of))
}

fn allow_private(state: &AppState) -> bool {
    state.settings.webhooks_allow_private
}

async fn create(State(state): State<AppState>, ApiJson(body): ApiJson<Value>) -> AppResult<Response> {
    let input = WebhookInput::read(&body, allow_private(&state)).await?;
    let secret = new_secret();
    let (secret, webhook) = state
        .db
        .write(move |tx| {
            input.check_scope(tx)?;
            let id = input.columns().set("signing_secret", secret.clone()).insert(tx, "webhooks")?;
            Ok((secret, detail(tx, id)?))
        })
        .await?;
    // Shown once: the registry marks this answer (`http::secrets`), so a repeat with the same
    // x-requestid gets the webhook without it.
    Ok((StatusCode::CREATED, Json(CreatedWebhook { secret, webhook })).into_response())
}

fn detail(tx: &Connection, id: i64) -> AppResult<Value> {
    crud::fetch_detail(tx, &WEBHOOKS, id, Language::Az)?.ok_or_else(|| WEBHOOKS.not_found())
}

async fn update(
    State(state): State<AppState>,
    PathId(id): PathId,
    ApiJson(body): ApiJson<Value>,
) -> AppResult<Json<Value>> {
    let input = WebhookInput::read(&body, allow_private(&state)).await?;
    crud::save_then_fetch(&state, &WEBHOOKS, move |tx| {
        input.check_scope(tx)?;
        let changed = input.columns().set("updated_at", now_iso()).update_live(tx, "webhooks", id)?;
        WEBHOOKS.updated(changed, id)?;
        if input.active {
            start_afresh(tx, id)?;
        }
        Ok(id)
    })
    .await
    .map(Json)
}

async fn delete_one(
    State(state): State<AppState>,
    user: CurrentUser,
    PathId(id): PathId,
) -> AppResult<Json<crud::Deleted>> {
    state
        .db
        .write(move |tx| match crud::delete_rows(tx, &WEBHOOKS, &[id], Some(&user))? {
            0 => Err(WEBHOOKS.not_found()),
            deleted => Ok(crud::Deleted { deleted }),
        })
        .await
        .map(Json)
}

async fn rotate(State(state): State<AppState>, PathId(id): PathId) -> AppResult<Response> {
    let secret = new_secret();
    let (secret, webhook) = state
        .db
        .write(move |tx| {
            let now = time::OffsetDateTime::now_utc();
            let until = crate::db::format_iso(now + ROTATION_OVERLAP);
            let changed = tx.execute(
                "UPDATE webhooks SET previous_signing_secret = signing_secret, signing_secret = ?2,
                        previous_secret_expires_at = ?3, updated_at = ?4
                 WHERE id = ?1 AND deleted_at IS NULL",
                (id, &secret, until, crate::db::format_iso(now)),
            )?;
            WEBHOOKS.updated(changed, id)?;
            Ok((secret, detail(tx, id)?))
        })
        .await?;
    Ok((StatusCode::CREATED, Json(CreatedWebhook { secret, webhook })).into_response())
}

async fn deliveries(
    State(state): State<AppState>,
    PathId(id): PathId,
    query: QueryMap,
    headers: HeaderMap,
) -> AppResult<Json<ListPage>> {
    let query = query.with("Webhook", id.to_string());
    let query = ListQuery::parse(&DELIVERIES, &query, Language::from_headers(&headers))?;
    let counts = state.db.counts();
    state
        .db
        .run(move |conn| {
            detail(conn, id)?;
            crud::fetch_page(conn, &counts, &DELIVERIES, query)
        })
        .await
        .map(Json)
}

async fn delivery(State(state): State<AppState>, PathId(id): PathId) -> AppResult<Json<Value>> {
    state
        .db
        .run(move |conn| {
            let mut row = crud::fetch_detail(conn, &DELIVERIES, id, Language::Az)?
                .ok_or_else(|| AppError::NotFound(DELIVERY_NOT_FOUND.into()))?;
            let payload: String =
                conn.query_row("SELECT payload FROM webhook_messages WHERE id = ?1", [id], |r| r.get("payload"))?;
            if let Value::Object(fields) = &mut row {
                fields.insert("payload".into(), Value::from(payload));
                fields.insert("attempts".into(), Value::from(events::attempts_of(conn, id)?));
            }
            Ok(row)
        })
        .await
        .map(Json)
}

async fn replay(State(state): State<AppState>, PathId(id): PathId) -> AppResult<Json<Value>> {
    state
        .db
        .write(move |tx| {
            events::replay(tx, id)?;
            crud::fetch_detail(tx, &DELIVERIES, id, Language::Az)?
                .ok_or_else(|| AppError::NotFound(DELIVERY_NOT_FOUND.into()))
        })
        .await
        .map(Json)
}

/// Where a message goes and the secrets that sign it (the previous one too while it overlaps);
/// `None` when the endpoint is gone.
pub struct Target {
    pub url: String,
    pub secrets: Vec<String>,
}

pub fn target(conn: &Connection, webhook: i64, now: &str) -> AppResult<Option<Target>> {
    Ok(conn
        .query_row(
            "SELECT url, signing_secret, previous_signing_secret, previous_secret_expires_at FROM webhooks
             WHERE id = ?1 AND deleted_at IS NULL",
            [webhook],
            |r| {
                let mut secrets = vec![r.get::<String>("signing_secret")?];
                let previous: Option<String> = r.get("previous_signing_secret")?;
                let until: Option<String> = r.get("previous_secret_expires_at")?;
                if let (Some(previous), Some(until)) = (previous, until)
                    && until.as_str() > now
                {
                    secrets.push(previous);
                }
                Ok(Target { url: r.get("url")?, secrets })
            },
        )
        .optional()?)
}

/// Records how an endpoint did at `now`: a delivery clears its failures; a failure starts or
/// continues them, and an endpoint failing for `disable_after` is switched off (the panel shows
/// it until an Admin switches it back on). Whether this switched it off.
pub fn after_attempt(
    tx: &Connection,
    webhook: i64,
    status: Option<u16>,
    delivered: bool,
    now: &str,
    disable_after: Duration,
) -> AppResult<bool> {
    let status = status.map(i64::from);
    if delivered {
        tx.prepare_cached(
            "UPDATE webhooks SET last_delivery_at = ?2, last_status_code = ?3, failing_since = NULL WHERE id = ?1",
        )?
        .execute((webhook, now, status))?;
        return Ok(false);
    }
    tx.prepare_cached(
        "UPDATE webhooks SET last_delivery_at = ?2, last_status_code = ?3, failing_since = COALESCE(failing_since, ?2)
         WHERE id = ?1",
    )?
    .execute((webhook, now, status))?;
    let since: Option<(String, bool)> = tx
        .query_row("SELECT failing_since, is_active FROM webhooks WHERE id = ?1", [webhook], |r| {
            Ok((r.get("failing_since")?, r.get("is_active")?))
        })
        .optional()?;
    let Some((since, true)) = since else { return Ok(false) };
    let parse = |text: &str| time::OffsetDateTime::parse(text, &time::format_description::well_known::Rfc3339).ok();
    let failing_for = parse(&since).zip(parse(now)).map(|(since, now)| now - since).unwrap_or_default();
    if failing_for < disable_after {
        return Ok(false);
    }
    tx.execute(
        "UPDATE webhooks SET is_active = 0, disabled_at = ?2, disabled_reason = ?3 WHERE id = ?1",
        (webhook, now, format!("Every delivery failed from {since} on.")),
    )?;
    Ok(true)
}
