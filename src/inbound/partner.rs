//! A partner's own API (`/api/partner-portal/...`, keys of kind partner, each scoped to its
//! partner: another partner's ids answer 404) and the public merchant application (`/api/apply`).
//! A partner's campaign is checked with the back office's campaign rules and messages and arrives
//! unconfirmed, in Expected Campaigns; a redeemed promo code shows as used on the Promocode screen;
//! an application appears in Requests by Merchant.

use std::collections::BTreeSet;

use crate::db::sql::OptionalExtension;
use axum::Json;
use axum::extract::{DefaultBodyLimit, FromRequestParts, State};
use axum::http::request::Parts;
use axum::http::{Method, StatusCode};
use axum::routing::{get, post};
use serde::Deserialize;
use serde_json::{Value, json};
use utoipa::ToSchema;
use utoipa::openapi::schema::Type;

use crate::auth::api_keys::ApiClient;
use crate::core::error::{AppError, AppResult};
use crate::core::validation::Validator;
use crate::crud::writes::{Children, Columns, ImageField, WriteForm};
use crate::crud::{self, Language, ListPage};
use crate::db::now_iso;
use crate::http::api::Rule::{Range, Repeated, Required};
use crate::http::api::{Api, Doc, query};
use crate::http::extract::{ApiJson, ClientIp, PathId, QueryMap};
use crate::http::files;
use crate::http::form_fields::{Field, FieldKind, Mode, read_fields, read_json_fields};
use crate::http::forms::{Form, MULTIPART_LIMIT};
use crate::http::state::AppState;
use crate::resources::applications::APPLICATIONS;
use crate::resources::campaigns::{self, CAMPAIGN_ROWS, paging};
use crate::resources::promo_codes::{self, PROMO_CODES};

const TAG: &str = "Partner portal";
const KIND: &str = "partner";

pub const CODE_REQUIRED: &str = "Code is required";
pub const CAMPAIGN_UNKNOWN: &str = "This partner has no such campaign.";
pub const PARTNER_NAME_REQUIRED: &str = "Partner name is required";
pub const FULL_NAME_REQUIRED: &str = "Full name is required";
pub const PHONE_REQUIRED: &str = "Phone is required";
pub const CITIES_REQUIRED: &str = "Choose at least one city";
pub const CITY_IDS: &str = "cityIds must be city ids";
pub const NOT_A_PARTNER_KEY: &str = "This key is not tied to a partner.";

/// The code a partner's till redeems (any case).
static REDEEM_FIELDS: &[Field] = &[Field::input("code", FieldKind::Text).required(CODE_REQUIRED).max_length(20)];

/// Who applies to become a merchant; the cities and the file are read beside them.
static APPLY_FIELDS: &[Field] = &[
    Field::text("partnerName", "partner_name").required(PARTNER_NAME_REQUIRED).max_length(200),
    Field::text("fullName", "full_name").required(FULL_NAME_REQUIRED).max_length(100),
    Field::email("email", "email").required("Email is required"),
    Field::phone("phone", "phone").required(PHONE_REQUIRED),
];

/// An application as stored: who applies, the file they sent, and the cities they want to serve.
pub static APPLICATION_FORM: WriteForm = WriteForm {
    resource: &APPLICATIONS,
    table: "merchant_applications",
    fields: APPLY_FIELDS,
    image: Some(ImageField { names: &["file"], column: "file_id", required_on_create: Some(campaigns::FILE_REQUIRED) }),
    // Read by `apply` itself, one part per city.
    extra_parts: &[],
    computed: &[],
    children: &[&APPLICATION_CITIES],
};

/// The cities an application names: links written once with it.
pub static APPLICATION_CITIES: Children =
    Children { table: "merchant_application_cities", parent: "application_id", columns: &["city_id"] };

pub fn routes() -> Api {
    Api::new()
        .add(
            Method::POST,
            "/api/partner-portal/campaigns",
            post(submit_campaign).layer(DefaultBodyLimit::max(MULTIPART_LIMIT)),
            campaigns::partner_submission(
                Doc::new(TAG, "Submit a campaign (multipart, the back office's campaign rules); it arrives unconfirmed in Expected Campaigns")
                    .api_key(KIND),
            )
                .answers(404, "No such category or asset")
                .returns_component(201, crud::row_schema(&CAMPAIGN_ROWS)),
        )
        .add(
            Method::GET,
            "/api/partner-portal/campaigns",
            get(own_campaigns),
            Doc::new(TAG, "The partner's campaigns with their state (awaiting approval, active, inactive, expired), newest first")
                .api_key(KIND)
                .query_schema("Skip", "Rows to skip (default 0)", query::int(0, i64::MAX))
                .query_schema(
                    "Take",
                    "Page size, 1 to 100 (without Skip and Take: up to 1000 rows)",
                    query::int(1, crud::MAX_PAGE),
                )
                .returns::<ListPage>(200),
        )
        .add(
            Method::GET,
            "/api/partner-portal/campaigns/{id}",
            get(own_campaign),
            Doc::new(TAG, "One of the partner's campaigns (another partner's is 404)")
                .api_key(KIND)
                .returns_component(200, crud::row_schema(&CAMPAIGN_ROWS)),
        )
        .add(
            Method::POST,
            "/api/partner-portal/promo-codes/redeem",
            post(redeem),
            Doc::new(TAG, "Mark one of the partner's promo codes used (once; another partner's code is 404)")
                .api_key(KIND)
                .json_body::<Redeem>()
                .rules_of(REDEEM_FIELDS)
                .answers(404, "The partner has no such code")
                .answers(409, "The code was already used")
                .returns_component(200, crud::row_schema(&PROMO_CODES)),
        )
        .add(
            Method::POST,
            "/api/apply",
            post(apply).layer(DefaultBodyLimit::max(MULTIPART_LIMIT)),
            Doc::new(TAG, "A merchant's application (public, rate limited per address); it appears in Requests by Merchant")
                .multipart(&[
                    ("partnerName", Type::String),
                    ("fullName", Type::String),
                    ("email", Type::String),
                    ("phone", Type::String),
                    ("file", Type::String),
                    ("cityIds", Type::Integer),
                ])
                .rules_of(APPLY_FIELDS)
                .rules("cityIds", &[Required, Range(1, i64::MAX), Repeated])
                .rules("file", &[Required])
                .answers(404, "No such city")
                .answers(429, "Too many applications from this address")
                .returns_component(201, crud::row_schema(&APPLICATIONS)),
        )
}

/// The partner a key acts for (the route's gate admitted only partner keys).
pub(super) fn partner_of(client: &ApiClient) -> AppResult<i64> {
    client.partner_id.ok_or_else(|| AppError::Forbidden(NOT_A_PARTNER_KEY.into()))
}

async fn submit_campaign(
    State(state): State<AppState>,
    client: ApiClient,
    form: Form,
) -> AppResult<(StatusCode, Json<Value>)> {
    let partner = partner_of(&client)?;
    let input = campaigns::read_input_for(&form, true, Some(partner)).await?;
    // Sent by a partner, so unconfirmed: it waits in Expected Campaigns for approval.
    let row = crud::save_then_fetch(&state, &CAMPAIGN_ROWS, move |tx| campaigns::insert(tx, input, false)).await?;
    Ok((StatusCode::CREATED, Json(row)))
}

/// A campaign's state as the partner sees it (`?1` is now).
const STATE_SQL: &str = "CASE WHEN c.is_confirmed = 0 THEN 'awaiting approval' WHEN c.expire_date <= ?1 THEN 'expired'
     WHEN c.is_active = 0 THEN 'inactive' ELSE 'active' END";

async fn own_campaigns(State(state): State<AppState>, client: ApiClient, query: QueryMap) -> AppResult<Json<ListPage>> {
    let partner = partner_of(&client)?;
    let (skip, take) = paging(&query)?;
    state
        .db
        .run(move |conn| {
            let total_count: i64 = conn
                .prepare_cached("SELECT COUNT(*) AS n FROM campaigns WHERE partner_id = ?1 AND deleted_at IS NULL")?
                .query_row([partner], |r| r.get("n"))?;
            let data = conn
                .prepare_cached(&format!(
                    "SELECT c.id, c.name_az, c.name_en, c.name_ru, c.discount_percent, c.start_date, c.expire_date,
                            c.is_confirmed, c.is_active, {STATE_SQL} AS state
                     FROM campaigns c WHERE c.partner_id = ?2 AND c.deleted_at IS NULL
                     ORDER BY c.id DESC LIMIT ?3 OFFSET ?4"
                ))?
                .query_map((now_iso(), partner, take, skip), |r| {
                    Ok(json!({
                        "id": r.get::<i64>("id")?,
                        "nameAz": r.get::<String>("name_az")?,
                        "nameEn": r.get::<String>("name_en")?,
                        "nameRu": r.get::<String>("name_ru")?,
                        "discountPercent": r.get::<i64>("discount_percent")?,
                        "startDate": r.get::<String>("start_date")?,
                        "expireDate": r.get::<String>("expire_date")?,
                        "isConfirmed": r.get::<bool>("is_confirmed")?,
                        "isActive": r.get::<bool>("is_active")?,
                        "state": r.get::<String>("state")?,
                    }))
                })?
                .collect::<Result<Vec<_>, _>>()?;
            Ok(ListPage { data, total_count })
        })
        .await
        .map(Json)
}

async fn own_campaign(State(state): State<AppState>, client: ApiClient, PathId(id): PathId) -> AppResult<Json<Value>> {
    let partner = partner_of(&client)?;
    state
        .db
        .run(move |conn| {
            let owner = campaigns::partner_of(conn, id)?;
            if owner != Some(partner) {
                return Err(AppError::NotFound(CAMPAIGN_UNKNOWN.into()));
            }
            crud::fetch_detail(conn, &CAMPAIGN_ROWS, id, Language::Az)?.ok_or_else(|| CAMPAIGN_ROWS.not_found())
        })
        .await
        .map(Json)
}

/// `POST promo-codes/redeem`'s body.
#[derive(Deserialize, ToSchema)]
#[allow(dead_code)] // describes the body for the OpenAPI document; read field by field
pub struct Redeem {
    /// The 8-character code (any case).
    code: String,
}

async fn redeem(
    State(state): State<AppState>,
    client: ApiClient,
    ApiJson(body): ApiJson<Value>,
) -> AppResult<Json<Value>> {
    let partner = partner_of(&client)?;
    let code = read_json_fields(REDEEM_FIELDS, &body)?.get("code").to_ascii_uppercase();
    crud::save_then_fetch(&state, &PROMO_CODES, move |tx| promo_codes::redeem(tx, partner, &code)).await.map(Json)
}

/// The address's quota of applications, taken before the form's body is read: a refused sender
/// costs neither the upload nor its checking.
struct ApplyQuota;

impl FromRequestParts<AppState> for ApplyQuota {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> AppResult<ApplyQuota> {
        let ClientIp(ip) = ClientIp::from_request_parts(parts, state).await?;
        crate::auth::routes::throttle_on(state, &state.apply_limiter, ip)?;
        Ok(ApplyQuota)
    }
}

async fn apply(State(state): State<AppState>, _: ApplyQuota, form: Form) -> AppResult<(StatusCode, Json<Value>)> {
    let mut v = Validator::new();
    let applicant = read_fields(APPLY_FIELDS, &form, Mode::Create, &mut v);
    let mut raw_cities = form.list("cityIds");
    raw_cities.extend(form.rows("Cities").into_iter().filter_map(|mut row| row.remove("cityid")));
    let cities: BTreeSet<i64> = raw_cities.iter().filter_map(|c| c.parse().ok()).filter(|c| *c > 0).collect();
    v.check("cityIds", raw_cities.iter().all(|c| c.parse::<i64>().is_ok_and(|c| c > 0)), CITY_IDS)
        .check("cityIds", !cities.is_empty(), CITIES_REQUIRED)
        .check("file", form.file("file").is_some(), campaigns::FILE_REQUIRED);
    v.finish()?;
    let file = files::checked_upload(form.file("file")).await?;
    let row = crud::save_then_fetch(&state, &APPLICATIONS, move |tx| {
        let mut city = tx.prepare_cached("SELECT 1 FROM cities WHERE id = ?1")?;
        for id in &cities {
            if city.query_row([id], |_| Ok(())).optional()?.is_none() {
                return Err(AppError::no_such("cityIds", format!("There is no city with id {id}.")));
            }
        }
        let file_id = files::store_upload(tx, file)?;
        let id = APPLICATION_FORM
            .write(&applicant)
            .image(file_id)
            .children(&APPLICATION_CITIES, cities.iter().map(|city| Columns::new().set("city_id", *city)))
            .insert(tx)?;
        crate::crud::events::raise(tx, &APPLICATIONS, crate::crud::events::On::Created, id)?;
        Ok(id)
    })
    .await?;
    Ok((StatusCode::CREATED, Json(row)))
}
