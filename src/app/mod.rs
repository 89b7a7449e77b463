//! The app layer: `state(...)` assembles the shared state with every feature's sub-state,
//! `api()` is the one route registry, and `app(state)` the whole HTTP surface, used by `serve`
//! and by the router tests alike.

pub mod housekeeping;
pub mod idempotency;
pub mod retry;
pub mod webhooks;

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::{HeaderValue, Method, header};
use axum::response::IntoResponse;
use axum::routing::get;
use serde::Serialize;
use tower::ServiceExt;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::trace::{DefaultOnResponse, TraceLayer};
use tracing::Level;
use utoipa::ToSchema;

use crate::auth::api_keys::ClientLimits;
use crate::auth::tokens::JwtKeys;
use crate::core::error::{AppError, AppResult};
use crate::core::mail::Mailer;
use crate::core::refusals::Audience;
use crate::db::{Actor, Db};
use crate::http::api::{Api, Doc};
use crate::http::state::{AppState, Features, Settings};

pub const JSON_BODY_LIMIT: usize = 1024 * 1024;
const CSP: &str =
    "default-src 'self'; img-src 'self' data: blob:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

/// Opens the database `db` names with what the resources declare of it (the activity log's and
/// the trash's triggers): every process opens it so.
pub fn open_db(db: &std::path::Path) -> anyhow::Result<crate::db::Db> {
    crate::db::Db::open(db, &crate::resources::declared())
}

/// The tables of the layers below the resources that the activity log does not record, with the
/// reason (the resources declare their own: `Resource::history`, `Resource::unrecorded`).
pub fn unrecorded_tables() -> Vec<(String, &'static str)> {
    let mut tables = crate::db::triggers::unrecorded();
    let own = crate::auth::UNRECORDED.iter().chain(crate::http::files::UNRECORDED).chain(idempotency::UNRECORDED);
    tables.extend(own.map(|(table, why)| (table.to_string(), *why)));
    tables
}

/// Every API endpoint, the one registry of the product: sign-in and sessions, the back-office
/// resources, the inbound API, uploaded files, health and the OpenAPI document.
pub fn api() -> Api {
    crate::auth::routes::routes()
        .merge(crate::auth::enrolment::routes())
        .merge(crate::resources::routes())
        .merge(crate::inbound::routes())
        .merge(crate::http::files::routes())
        .add(
            Method::GET,
            "/api/health",
            get(health),
            Doc::new("Operations", "Ready when the database answers").returns::<Health>(200),
        )
        .add(Method::GET, "/api/openapi.json", get(openapi), Doc::new("Operations", "This OpenAPI document"))
        .refuses(Audience::People, idempotency::REFUSALS)
}

/// The shared state with every feature's own part: the signing keys (made on first start and
/// kept in the database), each API client's rate, and the `x-requestid` claims in flight.
pub fn state(db: Db, settings: Settings, mailer: Mailer) -> anyhow::Result<AppState> {
    let keys = JwtKeys::load_or_create(&*db.conn()?)?;
    let features = Features::default()
        .with(keys)
        .with(ClientLimits::default())
        .with(idempotency::Running::default())
        .with(crate::auth::role_gate())
        .with(crate::auth::callers::RememberedCallers::default())
        .with(crate::auth::key_gate())
        .with(crate::inbound::redemptions::WrongCodes::new(settings.wrong_codes_per_minute));
    Ok(AppState::new(db, settings, mailer, features))
}

/// Runs the request with a caller to be named by the extractor that authenticates it, so what it
/// writes is recorded as theirs (`db::activity`).
async fn in_actor_scope(request: Request, next: axum::middleware::Next) -> axum::response::Response {
    Actor::scope(next.run(request)).await
}

/// The API's routes and what its document declares, built before the state is known: a few
/// milliseconds (every operation's schema), which `serve` spends beside opening the database.
pub struct Described {
    router: axum::Router<AppState>,
    document: OpenApiDocument,
    declared: crate::http::declared::DeclaredBodies,
    isolation: crate::http::api::WriteIsolation,
}

/// Builds the routes and the document, and declares the document's refusals.
pub fn describe() -> Described {
    let (router, openapi, isolation) = api().into_parts();
    let document = serde_json::to_value(&openapi).unwrap_or_default();
    crate::core::refusals::declare(crate::http::api::declared_refusals(&document));
    let declared = crate::http::declared::DeclaredBodies::new(document);
    Described { router, document: OpenApiDocument(Arc::new(openapi), Arc::default()), declared, isolation }
}

pub fn app(state: AppState) -> Router {
    app_from(describe(), state)
}

/// The app over routes described beforehand ([`describe`]).
pub fn app_from(described: Described, state: AppState) -> Router {
    let Described { router: api_router, document, declared, isolation } = described;
    let behind_tls = state.settings.behind_tls;
    let mut router = api_router
        .layer(axum::middleware::from_fn_with_state(state.clone(), crate::app::idempotency::middleware))
        // Outside the idempotency middleware, so its stored answer's write knows the caller too.
        .layer(axum::middleware::from_fn(in_actor_scope))
        // Outside both: a write that lost to another server's runs again from the start.
        .layer(axum::middleware::from_fn_with_state(state.clone(), retry::middleware))
        .layer(axum::Extension(document))
        .layer(axum::Extension(declared))
        // For the idempotency middleware's claim, which begins the request's transaction.
        .layer(axum::Extension(isolation))
        // For the routes' role gates (`http::gate`), which are added before the state is known.
        .layer(axum::Extension(state.clone()))
        .fallback(crate::http::web::fallback)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(JSON_BODY_LIMIT))
        // The last line of defence: a handler that panics answers a logged 500, not an empty reply.
        .layer(CatchPanicLayer::custom(panic_response))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        .layer(SetResponseHeaderLayer::if_not_present(header::REFERRER_POLICY, HeaderValue::from_static("same-origin")))
        .layer(SetResponseHeaderLayer::if_not_present(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CSP)))
        .layer(
            TraceLayer::new_for_http()
                .make_span_with(|request: &Request| {
                    let request_id = request
                        .headers()
                        .get(crate::http::reply::REQUEST_ID)
                        .and_then(|v| v.to_str().ok())
                        .unwrap_or("")
                        .to_string();
                    tracing::info_span!(
                        "request",
                        method = %request.method(),
                        path = %request.uri().path(),
                        request_id,
                        user_id = tracing::field::Empty,
                    )
                })
                .on_request(())
                .on_response(DefaultOnResponse::new().level(Level::INFO)),
        )
        .with_state(state);
    if behind_tls {
        router = router.layer(SetResponseHeaderLayer::if_not_present(
            header::STRICT_TRANSPORT_SECURITY,
            HeaderValue::from_static("max-age=31536000; includeSubDomains"),
        ));
    }
    // Paths under /api are case-insensitive (the specification calls `Notification/export`):
    // they are lower-cased before routing; everything else keeps its case (hashed asset names).
    Router::new().fallback_service(router.map_request(lowercase_api_path))
}

fn lowercase_api_path(mut request: Request) -> Request {
    let uri = request.uri();
    let path = uri.path();
    if path.len() >= 4 && path[..4].eq_ignore_ascii_case("/api") && path.chars().any(|c| c.is_ascii_uppercase()) {
        let lowered = match uri.query() {
            Some(query) => format!("{}?{query}", path.to_ascii_lowercase()),
            None => path.to_ascii_lowercase(),
        };
        if let Ok(path_and_query) = lowered.parse() {
            let mut parts = uri.clone().into_parts();
            parts.path_and_query = Some(path_and_query);
            if let Ok(new_uri) = axum::http::Uri::from_parts(parts) {
                *request.uri_mut() = new_uri;
            }
        }
    }
    request
}

fn panic_response(panic: Box<dyn std::any::Any + Send + 'static>) -> axum::response::Response {
    let detail = panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".into());
    AppError::Internal(anyhow::anyhow!("a handler panicked: {detail}")).into_response()
}

async fn method_not_allowed() -> AppError {
    AppError::MethodNotAllowed
}

/// The OpenAPI document, written out as JSON at its first request (not at start-up) and kept.
#[derive(Clone)]
struct OpenApiDocument(Arc<utoipa::openapi::OpenApi>, Arc<std::sync::OnceLock<Arc<str>>>);

async fn openapi(
    axum::Extension(OpenApiDocument(document, json)): axum::Extension<OpenApiDocument>,
) -> impl IntoResponse {
    let json = json
        .get_or_init(|| crate::http::api::document_json(&document, false).unwrap_or_else(|_| "{}".into()).into())
        .clone();
    ([(header::CONTENT_TYPE, HeaderValue::from_static("application/json"))], json.to_string())
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Health {
    status: &'static str,
    schema_version: i64,
}

async fn health(State(state): State<AppState>) -> AppResult<axum::Json<Health>> {
    let schema_version = state
        .db
        .run(|conn| {
            Ok(conn.query_row("SELECT MAX(version) AS version FROM schema_migrations", [], |r| r.get("version"))?)
        })
        .await?;
    Ok(axum::Json(Health { status: "ok", schema_version }))
}

/// How long in-flight requests may take to finish after a shutdown signal.
pub const SHUTDOWN_GRACE: Duration = Duration::from_secs(10);
