//! The employee app's API (`/api/app/...`, keys of kind employee-app): employees in, the
//! campaigns offered to an employee and the notifications out, and the employee's uses of a
//! discount, wishes and complaints in. Each write lands in the table its back-office screen reads
//! (Employee list, Usage History and so the dashboard, Requests by Employee, Complaints).

use axum::Json;
use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use axum::http::{Method, StatusCode};
use axum::routing::{get, post, put};
use rusqlite::{Connection, OptionalExtension};
use serde::Deserialize;
use serde_json::{Value, json};
use utoipa::ToSchema;
use utoipa::openapi::schema::{ObjectBuilder, Type};

use crate::auth::api_keys::{ApiClient, ClientKind};
use crate::core::error::{AppError, AppResult};
use crate::core::patterns;
use crate::core::validation::Validator;
use crate::crud::{self, Language, ListPage};
use crate::db::now_iso;
use crate::http::api::Rule::{Length, Pattern, Range, Required};
use crate::http::api::{Api, Doc, query};
use crate::http::extract::{ApiJson, QueryMap};
use crate::http::fields::{self, Number};
use crate::http::files::FILE_PATH_SQL;
use crate::http::state::AppState;
use crate::resources::campaigns::paging;
use crate::resources::complaints::COMPLAINTS;
use crate::resources::employees::{self, EMPLOYEES};
use crate::resources::usage_history::USAGE_HISTORY;
use crate::resources::wish_list::WISH_LIST;

const TAG: &str = "Employee app";
const KIND: &str = "employee-app";

pub const EMPLOYEE_UNKNOWN: &str = "No employee has this e-mail.";
pub const EMPLOYEE_INACTIVE: &str = "The employee is not active.";
pub const EMPLOYEE_REQUIRED: &str = "Employee e-mail is required";
pub const CAMPAIGN_INACTIVE: &str = "The campaign is not active.";
pub const CAMPAIGN_EXPIRED: &str = "The campaign has expired.";
pub const CAMPAIGN_NOT_STARTED: &str = "The campaign has not started yet.";
pub const CAMPAIGN_NOT_OFFERED: &str = "The campaign is not offered to the employee's asset.";
pub const RATING_RANGE: &str = "Rating must be a whole number from 1 to 5";
pub const TEXT_REQUIRED: &str = "Text is required";
pub const DESCRIPTION_REQUIRED: &str = "Description is required";
pub const REASON_REQUIRED: &str = "Reason is required";
pub const FULL_NAME_REQUIRED: &str = "Full name is required";
pub const ASSET_REQUIRED: &str = "Asset is required: send assetId or assetBarcodePrefix";
pub const LANG_INVALID: &str = "lang must be az, en or ru";

pub fn routes() -> Api {
    let paged = |doc: Doc| {
        doc.query_schema("Skip", "Rows to skip (default 0)", query::int(0, i64::MAX)).query_schema(
            "Take",
            "Page size, 1 to 100 (without Skip and Take: up to 1000 rows)",
            query::int(1, crud::MAX_PAGE),
        )
    };
    let employee_param = |doc: Doc| {
        doc.required_query(
            "employee",
            "The employee's e-mail",
            ObjectBuilder::new().schema_type(Type::String).pattern(Some(patterns::EMAIL)),
        )
    };
    Api::new()
        .add(
            Method::PUT,
            "/api/app/employees/{email}",
            put(put_employee),
            Doc::new(TAG, "Create or update an employee of an asset (it appears in Employee list); 201 when created")
                .api_key(KIND)
                .text_path("The employee's e-mail (their sign-in to the app)")
                .json_body::<EmployeeIn>()
                .rules("firstName", &[Required, Pattern(patterns::NOT_BLANK)])
                .rules("lastName", &[Required, Pattern(patterns::NOT_BLANK)])
                .rules("phone", &[Required, Pattern(patterns::PHONE)])
                .rules("assetId", &[Range(1, i64::MAX)])
                .answers(404, "No such asset")
                .returns_component(200, crud::row_schema(&EMPLOYEES))
                .also_returns(201, "Created: no employee had this e-mail"),
        )
        .add(
            Method::GET,
            "/api/app/campaigns",
            get(campaigns),
            paged(employee_param(
                Doc::new(TAG, "Active, confirmed, unexpired campaigns offered to the employee's asset")
                    .api_key(KIND)
                    .query_schema("lang", "az (default), en or ru", query::one_of(&["az", "en", "ru"])),
            ))
            .answers(404, "No employee has this e-mail")
            .answers(409, "The employee is not active")
            .returns::<ListPage>(200),
        )
        .add(
            Method::POST,
            "/api/app/usage",
            post(usage),
            Doc::new(TAG, "Record a use of a discount (it appears in Usage History and the dashboard)")
                .api_key(KIND)
                .json_body::<UsageIn>()
                .rules("employeeEmail", &[Required, Pattern(patterns::EMAIL)])
                .rules("campaignId", &[Required])
                .rules("rating", &[Range(1, 5)])
                .answers(404, "No such employee, campaign or branch")
                .answers(409, "The employee is inactive, or the campaign inactive, expired, not started or not offered to the employee's asset")
                .returns_component(201, crud::row_schema(&USAGE_HISTORY)),
        )
        .add(
            Method::POST,
            "/api/app/wishes",
            post(wish),
            Doc::new(TAG, "An employee's wish for a new partner or campaign (it appears in Requests by Employee)")
                .api_key(KIND)
                .json_body::<WishIn>()
                .rules("employeeEmail", &[Required, Pattern(patterns::EMAIL)])
                .rules("text", &[Required, Pattern(patterns::NOT_BLANK), Length(1, 1000)])
                .answers(404, "No employee has this e-mail")
                .answers(409, "The employee is not active")
                .returns_component(201, crud::row_schema(&WISH_LIST)),
        )
        .add(
            Method::POST,
            "/api/app/complaints",
            post(complaint),
            Doc::new(TAG, "A complaint, from an employee (employeeEmail) or anyone (fullName, email, phone); it appears in Complaints")
                .api_key(KIND)
                .json_body::<ComplaintIn>()
                .rules("reasonId", &[Required])
                .rules("description", &[Required, Pattern(patterns::NOT_BLANK), Length(1, 2000)])
                .answers(404, "No such employee or complaint reason")
                .answers(409, "The employee is not active")
                .returns_component(201, crud::row_schema(&COMPLAINTS)),
        )
        .add(
            Method::GET,
            "/api/app/notifications",
            get(notifications),
            paged(employee_param(
                Doc::new(TAG, "Notifications sent from the back office: every category notice, and campaign notices of campaigns offered to the employee's asset; newest first")
                    .api_key(KIND),
            ))
            .answers(404, "No employee has this e-mail")
            .answers(409, "The employee is not active")
            .returns::<ListPage>(200),
        )
}

/// An employee as the app's calls find them.
pub(crate) struct Employee {
    pub id: i64,
    pub asset_id: i64,
    pub full_name: String,
    pub email: String,
    pub phone: String,
}

/// The live, active employee with this e-mail: 404 when there is none, 409 when inactive,
/// each marked on `field`.
pub(crate) fn active_employee(conn: &Connection, field: &'static str, email: &str) -> AppResult<Employee> {
    let found = conn
        .prepare_cached(
            "SELECT id, asset_id, first_name || ' ' || last_name, email, phone, is_active FROM employees
             WHERE email = ?1 AND deleted_at IS NULL ORDER BY id LIMIT 1",
        )?
        .query_row([email], |r| {
            Ok((
                Employee {
                    id: r.get(0)?,
                    asset_id: r.get(1)?,
                    full_name: r.get(2)?,
                    email: r.get(3)?,
                    phone: r.get(4)?,
                },
                r.get::<_, bool>(5)?,
            ))
        })
        .optional()?;
    match found {
        None => Err(AppError::no_such(field, EMPLOYEE_UNKNOWN)),
        Some((_, false)) => Err(AppError::conflict_on(field, EMPLOYEE_INACTIVE)),
        Some((employee, true)) => Ok(employee),
    }
}

/// The `employee` query parameter: a valid e-mail.
fn employee_param(query: &QueryMap) -> AppResult<String> {
    let email = query.get("employee").unwrap_or("").to_string();
    let mut v = Validator::new();
    v.email("employee", &email, EMPLOYEE_REQUIRED);
    v.finish()?;
    Ok(email)
}

/// `PUT employees/{email}`'s body.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)] // describes the body for the OpenAPI document; read field by field
pub struct EmployeeIn {
    /// The asset (organisation) by id, or else by `assetBarcodePrefix`.
    asset_id: Option<i64>,
    asset_barcode_prefix: Option<String>,
    first_name: String,
    last_name: String,
    /// 994 + operator code without its 0 + 7 digits.
    phone: String,
    /// Default: true for a new employee, unchanged for an existing one.
    is_active: Option<bool>,
}

enum AssetRef {
    Id(i64),
    Barcode(String),
}

async fn put_employee(
    State(state): State<AppState>,
    client: ApiClient,
    path: Result<Path<String>, PathRejection>,
    ApiJson(body): ApiJson<Value>,
) -> AppResult<(StatusCode, Json<Value>)> {
    client.require(ClientKind::EmployeeApp)?;
    let Path(email) = path.map_err(|_| AppError::field("email", "The e-mail in the address is not valid"))?;
    let email = email.trim().to_string();
    let body = fields::object(&body)?;
    let mut v = Validator::new();
    v.email("email", &email, "Email is required");
    let first_name = fields::text(&mut v, "firstName", body.get("firstName"));
    let last_name = fields::text(&mut v, "lastName", body.get("lastName"));
    let phone = fields::text(&mut v, "phone", body.get("phone"));
    let barcode = fields::text(&mut v, "assetBarcodePrefix", body.get("assetBarcodePrefix"));
    let asset = match fields::number(body.get("assetId")) {
        Number::Whole(id) if id > 0 => Some(AssetRef::Id(id)),
        Number::Missing if !barcode.is_empty() => Some(AssetRef::Barcode(barcode)),
        Number::Missing => {
            v.check("assetId", false, ASSET_REQUIRED);
            None
        }
        _ => {
            v.check("assetId", false, "Asset id must be a number");
            None
        }
    };
    let is_active = match body.get("isActive") {
        None | Some(Value::Null) => None,
        value => {
            let flag = fields::flag(value);
            v.check("isActive", flag.is_some(), "isActive must be true or false");
            flag
        }
    };
    v.required("firstName", &first_name, "First name is required")
        .length("firstName", &first_name, 0, 100)
        .required("lastName", &last_name, "Last name is required")
        .length("lastName", &last_name, 0, 100)
        .required("phone", &phone, "Phone is required")
        .phone("phone", &phone);
    v.finish()?;
    let asset = asset.ok_or_else(|| AppError::field("assetId", ASSET_REQUIRED))?;
    state
        .db
        .write(move |tx| {
            let asset_id = match asset {
                AssetRef::Id(id) => tx
                    .query_row("SELECT id FROM assets WHERE id = ?1 AND deleted_at IS NULL", [id], |r| r.get(0))
                    .optional()?
                    .ok_or_else(|| AppError::no_such("assetId", format!("There is no asset with id {id}.")))?,
                AssetRef::Barcode(prefix) => {
                    let ids: Vec<i64> = tx
                        .prepare_cached(
                            "SELECT id FROM assets WHERE barcode_prefix = ?1 AND deleted_at IS NULL LIMIT 2",
                        )?
                        .query_map([&prefix], |r| r.get(0))?
                        .collect::<Result<_, _>>()?;
                    match ids.as_slice() {
                        [id] => *id,
                        [] => {
                            return Err(AppError::no_such(
                                "assetBarcodePrefix",
                                format!("No asset has the barcode prefix {prefix}."),
                            ));
                        }
                        _ => {
                            return Err(AppError::field(
                                "assetBarcodePrefix",
                                "Several assets have this barcode prefix; name the asset by assetId",
                            ));
                        }
                    }
                }
            };
            let existing = employees::find_by_email(tx, &email)?;
            let arrival = employees::Arrival {
                asset_id,
                first_name: &first_name,
                last_name: &last_name,
                email: &email,
                phone: &phone,
                is_active,
            };
            let id = employees::arrive(tx, existing, &arrival, &now_iso())?;
            let status = if existing.is_some() { StatusCode::OK } else { StatusCode::CREATED };
            let row = crud::fetch_detail(tx, &EMPLOYEES, id, Language::Az)?.ok_or_else(|| EMPLOYEES.not_found())?;
            Ok((status, Json(row)))
        })
        .await
}

fn language(query: &QueryMap) -> AppResult<Language> {
    match query.get("lang").map(str::to_ascii_lowercase).as_deref() {
        None | Some("az") => Ok(Language::Az),
        Some("en") => Ok(Language::En),
        Some("ru") => Ok(Language::Ru),
        Some(_) => Err(AppError::field("lang", LANG_INVALID)),
    }
}

/// A stored `cdn/...` path as the app fetches it (`/cdn/...`).
fn cdn(path: Option<String>) -> Value {
    path.map_or(Value::Null, |path| Value::String(format!("/{path}")))
}

/// Campaigns the app offers: live, confirmed, active and unexpired, of a live, active partner
/// and category, linked to the employee's asset (`?1`); `?2` is now.
const OFFERED: &str = "FROM campaigns c JOIN campaign_assets ca ON ca.campaign_id = c.id AND ca.asset_id = ?1
     JOIN partners p ON p.id = c.partner_id JOIN campaign_categories cc ON cc.id = c.campaign_category_id
     LEFT JOIN files f ON f.id = c.file_id
     WHERE c.deleted_at IS NULL AND c.is_confirmed = 1 AND c.is_active = 1 AND c.expire_date > ?2
       AND p.deleted_at IS NULL AND p.is_active = 1 AND cc.deleted_at IS NULL AND cc.is_active = 1";

async fn campaigns(State(state): State<AppState>, client: ApiClient, query: QueryMap) -> AppResult<Json<ListPage>> {
    client.require(ClientKind::EmployeeApp)?;
    let language = language(&query)?;
    let email = employee_param(&query)?;
    let (skip, take) = paging(&query)?;
    let lang = ["az", "en", "ru"][language as usize - 1];
    state
        .db
        .run(move |conn| {
            let employee = active_employee(conn, "employee", &email)?;
            let now = now_iso();
            let total_count: i64 = conn
                .prepare_cached(&format!("SELECT COUNT(*) {OFFERED}"))?
                .query_row((employee.asset_id, &now), |r| r.get(0))?;
            let sql = format!(
                "SELECT c.id, c.name_{lang}, c.description_{lang}, c.discount_percent, c.start_date, c.expire_date,
                        c.special_offer, c.is_premium, c.is_trend, {FILE_PATH_SQL},
                        (SELECT {FILE_PATH_SQL} FROM files f WHERE f.id = c.background_file_id),
                        p.id, p.name, (SELECT {FILE_PATH_SQL} FROM files f WHERE f.id = p.file_id),
                        cc.id, cc.name_{lang}
                 {OFFERED} ORDER BY cc.order_no, cc.id, c.order_no, c.id LIMIT ?3 OFFSET ?4"
            );
            let mut rows: Vec<(i64, Value)> = conn
                .prepare_cached(&sql)?
                .query_map((employee.asset_id, &now, take, skip), |r| {
                    let partner_id: i64 = r.get(11)?;
                    Ok((
                        partner_id,
                        json!({
                            "id": r.get::<_, i64>(0)?,
                            "name": r.get::<_, String>(1)?,
                            "description": r.get::<_, String>(2)?,
                            "discountPercent": r.get::<_, i64>(3)?,
                            "startDate": r.get::<_, String>(4)?,
                            "expireDate": r.get::<_, String>(5)?,
                            "specialOffer": r.get::<_, bool>(6)?,
                            "isPremium": r.get::<_, bool>(7)?,
                            "isTrend": r.get::<_, bool>(8)?,
                            "filePath": cdn(r.get(9)?),
                            "backgroundFilePath": cdn(r.get(10)?),
                            "partner": {"id": partner_id, "name": r.get::<_, String>(12)?, "filePath": cdn(r.get(13)?)},
                            "category": {"id": r.get::<_, i64>(14)?, "name": r.get::<_, String>(15)?},
                        }),
                    ))
                })?
                .collect::<Result<_, _>>()?;
            let mut branches = conn.prepare_cached(&format!(
                "SELECT pc.id, pc.city_id, ci.name_{lang}, pc.address, pc.latitude, pc.longitude
                 FROM partner_cities pc JOIN cities ci ON ci.id = pc.city_id
                 WHERE pc.partner_id = ?1 AND pc.deleted_at IS NULL ORDER BY pc.id"
            ))?;
            let mut data = Vec::with_capacity(rows.len());
            for (partner_id, row) in rows.iter_mut() {
                let list: Vec<Value> = branches
                    .query_map([*partner_id], |r| {
                        Ok(json!({
                            "id": r.get::<_, i64>(0)?,
                            "cityId": r.get::<_, i64>(1)?,
                            "cityName": r.get::<_, String>(2)?,
                            "address": r.get::<_, String>(3)?,
                            "latitude": r.get::<_, f64>(4)?,
                            "longitude": r.get::<_, f64>(5)?,
                        }))
                    })?
                    .collect::<Result<_, _>>()?;
                row["branches"] = Value::Array(list);
                data.push(row.take());
            }
            Ok(ListPage { data, total_count })
        })
        .await
        .map(Json)
}

/// `POST usage`'s body.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)]
pub struct UsageIn {
    employee_email: String,
    campaign_id: i64,
    /// The partner's branch where the discount was used.
    partner_city_id: Option<i64>,
    /// The employee's rating of the partner, 1 to 5.
    rating: Option<i64>,
}

/// An optional id field: `None` when absent; 0, negative or not a number is refused.
fn optional_id(v: &mut Validator, body: &serde_json::Map<String, Value>, field: &str) -> Option<i64> {
    match fields::number(body.get(field)) {
        Number::Missing => None,
        Number::Whole(id) if id > 0 => Some(id),
        _ => {
            v.check(field, false, &format!("{field} must be an id"));
            None
        }
    }
}

async fn usage(
    State(state): State<AppState>,
    client: ApiClient,
    ApiJson(body): ApiJson<Value>,
) -> AppResult<(StatusCode, Json<Value>)> {
    client.require(ClientKind::EmployeeApp)?;
    let body = fields::object(&body)?;
    let mut v = Validator::new();
    let email = fields::text(&mut v, "employeeEmail", body.get("employeeEmail"));
    v.email("employeeEmail", &email, EMPLOYEE_REQUIRED);
    let campaign_id = fields::id(
        &mut v,
        "campaignId",
        body.get("campaignId"),
        "Campaign is required",
        "Campaign id must be a number",
    );
    let branch = optional_id(&mut v, body, "partnerCityId");
    let rating = match fields::number(body.get("rating")) {
        Number::Missing => None,
        Number::Whole(r) if (1..=5).contains(&r) => Some(r),
        _ => {
            v.check("rating", false, RATING_RANGE);
            None
        }
    };
    v.finish()?;
    let row = crud::save_then_fetch(&state, &USAGE_HISTORY, move |tx| {
        let employee = active_employee(tx, "employeeEmail", &email)?;
        let now = now_iso();
        let campaign = tx
            .prepare_cached(
                "SELECT c.is_active = 1 AND p.is_active = 1 AND p.deleted_at IS NULL, c.start_date <= ?3,
                            c.expire_date > ?3,
                            EXISTS (SELECT 1 FROM campaign_assets ca WHERE ca.campaign_id = c.id AND ca.asset_id = ?2),
                            c.partner_id
                     FROM campaigns c JOIN partners p ON p.id = c.partner_id
                     WHERE c.id = ?1 AND c.deleted_at IS NULL AND c.is_confirmed = 1",
            )?
            .query_row((campaign_id, employee.asset_id, &now), |r| {
                Ok((
                    r.get::<_, bool>(0)?,
                    r.get::<_, bool>(1)?,
                    r.get::<_, bool>(2)?,
                    r.get::<_, bool>(3)?,
                    r.get::<_, i64>(4)?,
                ))
            })
            .optional()?;
        let (active, started, unexpired, offered, partner_id) = campaign
            .ok_or_else(|| AppError::no_such("campaignId", format!("There is no campaign with id {campaign_id}.")))?;
        if !active {
            return Err(AppError::conflict_on("campaignId", CAMPAIGN_INACTIVE));
        }
        if !unexpired {
            return Err(AppError::conflict_on("campaignId", CAMPAIGN_EXPIRED));
        }
        if !started {
            return Err(AppError::conflict_on("campaignId", CAMPAIGN_NOT_STARTED));
        }
        if !offered {
            return Err(AppError::conflict_on("campaignId", CAMPAIGN_NOT_OFFERED));
        }
        if let Some(branch) = branch {
            let found = tx
                .prepare_cached(
                    "SELECT 1 FROM partner_cities WHERE id = ?1 AND partner_id = ?2 AND deleted_at IS NULL",
                )?
                .query_row((branch, partner_id), |_| Ok(()))
                .optional()?;
            found.ok_or_else(|| {
                AppError::no_such("partnerCityId", format!("The campaign's partner has no branch with id {branch}."))
            })?;
        }
        // Names are copied as they are now: the history reads the same after a rename.
        tx.prepare_cached(
            "INSERT INTO usage_history (employee_id, asset_id, partner_id, campaign_id, category_id, employee_email,
                                            asset_name, partner_name, campaign_name, category_name, discount_percent,
                                            rating, partner_city_id, created_at)
                 SELECT e.id, e.asset_id, c.partner_id, c.id, c.campaign_category_id, e.email, a.name, p.name,
                        c.name_az, cc.name_az, c.discount_percent, ?3, ?4, ?5
                 FROM employees e JOIN assets a ON a.id = e.asset_id, campaigns c
                      JOIN partners p ON p.id = c.partner_id
                      JOIN campaign_categories cc ON cc.id = c.campaign_category_id
                 WHERE e.id = ?1 AND c.id = ?2",
        )?
        .execute((employee.id, campaign_id, rating, branch, &now))?;
        Ok(tx.last_insert_rowid())
    })
    .await?;
    Ok((StatusCode::CREATED, Json(row)))
}

/// `POST wishes`'s body.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)]
pub struct WishIn {
    employee_email: String,
    text: String,
}

async fn wish(
    State(state): State<AppState>,
    client: ApiClient,
    ApiJson(body): ApiJson<Value>,
) -> AppResult<(StatusCode, Json<Value>)> {
    client.require(ClientKind::EmployeeApp)?;
    let body = fields::object(&body)?;
    let mut v = Validator::new();
    let email = fields::text(&mut v, "employeeEmail", body.get("employeeEmail"));
    let text = fields::text(&mut v, "text", body.get("text"));
    v.email("employeeEmail", &email, EMPLOYEE_REQUIRED)
        .required("text", &text, TEXT_REQUIRED)
        .length("text", &text, 0, 1000);
    v.finish()?;
    let row = crud::save_then_fetch(&state, &WISH_LIST, move |tx| {
        let employee = active_employee(tx, "employeeEmail", &email)?;
        tx.execute("INSERT INTO wish_list_requests (employee_id, text) VALUES (?1, ?2)", (employee.id, &text))?;
        Ok(tx.last_insert_rowid())
    })
    .await?;
    Ok((StatusCode::CREATED, Json(row)))
}

/// `POST complaints`'s body: an employee by e-mail, or a person by name, e-mail and phone.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)]
pub struct ComplaintIn {
    /// An employee's e-mail; their name, e-mail and phone are taken from Employee list.
    employee_email: Option<String>,
    /// Without employeeEmail: the person's name (required), e-mail (required) and phone.
    full_name: Option<String>,
    email: Option<String>,
    phone: Option<String>,
    /// 1 Discount not honoured, 2 Wrong discount amount, 3 Staff behaviour, 4 App problem, 5 Other.
    reason_id: i64,
    description: String,
}

enum Complainant {
    Employee(String),
    Person { full_name: String, email: String, phone: String },
}

async fn complaint(
    State(state): State<AppState>,
    client: ApiClient,
    ApiJson(body): ApiJson<Value>,
) -> AppResult<(StatusCode, Json<Value>)> {
    client.require(ClientKind::EmployeeApp)?;
    let body = fields::object(&body)?;
    let mut v = Validator::new();
    let employee_email = fields::text(&mut v, "employeeEmail", body.get("employeeEmail"));
    let who = if employee_email.is_empty() {
        let full_name = fields::text(&mut v, "fullName", body.get("fullName"));
        let email = fields::text(&mut v, "email", body.get("email"));
        let phone = fields::text(&mut v, "phone", body.get("phone"));
        v.required("fullName", &full_name, FULL_NAME_REQUIRED)
            .length("fullName", &full_name, 0, 100)
            .email("email", &email, "Email is required")
            .phone("phone", &phone);
        Complainant::Person { full_name, email, phone }
    } else {
        v.email("employeeEmail", &employee_email, EMPLOYEE_REQUIRED);
        Complainant::Employee(employee_email)
    };
    let reason = fields::id(&mut v, "reasonId", body.get("reasonId"), REASON_REQUIRED, "Reason id must be a number");
    let description = fields::text(&mut v, "description", body.get("description"));
    v.required("description", &description, DESCRIPTION_REQUIRED).length("description", &description, 0, 2000);
    v.finish()?;
    let row = crud::save_then_fetch(&state, &COMPLAINTS, move |tx| {
        let reason_known =
            tx.query_row("SELECT 1 FROM complaint_reasons WHERE id = ?1", [reason], |_| Ok(())).optional()?;
        reason_known
            .ok_or_else(|| AppError::no_such("reasonId", format!("There is no complaint reason with id {reason}.")))?;
        let (employee_id, full_name, email, phone) = match who {
            Complainant::Employee(email) => {
                let e = active_employee(tx, "employeeEmail", &email)?;
                (Some(e.id), e.full_name, e.email, e.phone)
            }
            Complainant::Person { full_name, email, phone } => (None, full_name, email, phone),
        };
        tx.execute(
            "INSERT INTO complaints (employee_id, full_name, email, phone, reason_id, description)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            (employee_id, &full_name, &email, &phone, reason, &description),
        )?;
        Ok(tx.last_insert_rowid())
    })
    .await?;
    Ok((StatusCode::CREATED, Json(row)))
}

/// The notifications an employee sees: `?1` is their asset.
const SEEN: &str = "FROM notifications n LEFT JOIN files f ON f.id = n.file_id
     WHERE n.deleted_at IS NULL AND (n.type = 1 OR EXISTS (
           SELECT 1 FROM campaign_assets ca WHERE ca.campaign_id = n.campaign_id AND ca.asset_id = ?1))";

async fn notifications(State(state): State<AppState>, client: ApiClient, query: QueryMap) -> AppResult<Json<ListPage>> {
    client.require(ClientKind::EmployeeApp)?;
    let email = employee_param(&query)?;
    let (skip, take) = paging(&query)?;
    state
        .db
        .run(move |conn| {
            let employee = active_employee(conn, "employee", &email)?;
            let total_count: i64 = conn
                .prepare_cached(&format!("SELECT COUNT(*) {SEEN}"))?
                .query_row([employee.asset_id], |r| r.get(0))?;
            let data = conn
                .prepare_cached(&format!(
                    "SELECT n.id, n.header, n.text, n.type, {FILE_PATH_SQL}, n.category_id, n.campaign_id, n.created_at
                     {SEEN} ORDER BY n.id DESC LIMIT ?2 OFFSET ?3"
                ))?
                .query_map((employee.asset_id, take, skip), |r| {
                    Ok(json!({
                        "id": r.get::<_, i64>(0)?,
                        "header": r.get::<_, String>(1)?,
                        "text": r.get::<_, String>(2)?,
                        "type": r.get::<_, i64>(3)?,
                        "filePath": cdn(r.get(4)?),
                        "categoryId": r.get::<_, Option<i64>>(5)?,
                        "campaignId": r.get::<_, Option<i64>>(6)?,
                        "createdAt": r.get::<_, String>(7)?,
                    }))
                })?
                .collect::<Result<Vec<_>, _>>()?;
            Ok(ListPage { data, total_count })
        })
        .await
        .map(Json)
}
