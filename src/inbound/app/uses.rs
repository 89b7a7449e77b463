//! What an employee sends: a use of a discount, a wish, a complaint; each lands in the table its
//! back-office screen reads.

use crate::db::sql::OptionalExtension;
use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::Deserialize;
use serde_json::Value;
use utoipa::ToSchema;

use crate::core::error::{AppError, AppResult};
use crate::core::validation::Validator;
use crate::crud;
use crate::db::now_iso;
use crate::http::extract::ApiJson;
use crate::http::fields;
use crate::http::form_fields::{Bounds, Field, FieldKind, Mode, Sent, Source, read_fields, read_json_fields};
use crate::http::state::AppState;
use crate::resources::complaints::COMPLAINTS;
use crate::resources::usage_history::USAGE_HISTORY;
use crate::resources::wish_list::WISH_LIST;

use super::{
    CAMPAIGN_EXPIRED, CAMPAIGN_INACTIVE, CAMPAIGN_NOT_OFFERED, CAMPAIGN_NOT_STARTED, DESCRIPTION_REQUIRED,
    EMPLOYEE_REQUIRED, FULL_NAME_REQUIRED, RATING_RANGE, REASON_REQUIRED, TEXT_REQUIRED, active_employee,
};

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

/// `POST usage`'s fields, checked in this order.
pub static USAGE_FIELDS: &[Field] = &[
    Field::input("employeeEmail", FieldKind::Email).required(EMPLOYEE_REQUIRED),
    Field::input("campaignId", FieldKind::Id { invalid: "Campaign id must be a number" })
        .required("Campaign is required"),
    Field::input("partnerCityId", FieldKind::Id { invalid: "partnerCityId must be an id" }),
    Field::input("rating", FieldKind::Whole(&Bounds::one_message(1, 5, RATING_RANGE))),
];

pub(super) async fn usage(
    State(state): State<AppState>,
    ApiJson(body): ApiJson<Value>,
) -> AppResult<(StatusCode, Json<Value>)> {
    let values = read_json_fields(USAGE_FIELDS, &body)?;
    let email = values.get("employeeEmail").to_string();
    let campaign_id = values.number("campaignId").unwrap_or_default();
    let branch = values.number("partnerCityId");
    let rating = values.number("rating");
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
                Ok((r.get::<bool>(0)?, r.get::<bool>(1)?, r.get::<bool>(2)?, r.get::<bool>(3)?, r.get::<i64>(4)?))
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
        let id = tx.insert(
            "INSERT INTO usage_history (employee_id, asset_id, partner_id, campaign_id, category_id, employee_email,
                                            asset_name, partner_name, campaign_name, category_name, discount_percent,
                                            rating, partner_city_id, created_at)
                 SELECT e.id, e.asset_id, c.partner_id, c.id, c.campaign_category_id, e.email, a.name, p.name,
                        c.name_az, cc.name_az, c.discount_percent, ?3, ?4, ?5
                 FROM employees e JOIN assets a ON a.id = e.asset_id, campaigns c
                      JOIN partners p ON p.id = c.partner_id
                      JOIN campaign_categories cc ON cc.id = c.campaign_category_id
                 WHERE e.id = ?1 AND c.id = ?2",
            (employee.id, campaign_id, rating, branch, &now),
        )?;
        Ok(id)
    })
    .await?;
    Ok((StatusCode::CREATED, Json(row)))
}

/// `POST wishes`'s fields.
pub static WISH_FIELDS: &[Field] = &[
    Field::input("employeeEmail", FieldKind::Email).required(EMPLOYEE_REQUIRED),
    Field::input("text", FieldKind::Text).required(TEXT_REQUIRED).max_length(1000),
];

/// `POST wishes`'s body.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)]
pub struct WishIn {
    employee_email: String,
    text: String,
}

pub(super) async fn wish(
    State(state): State<AppState>,
    ApiJson(body): ApiJson<Value>,
) -> AppResult<(StatusCode, Json<Value>)> {
    let values = read_json_fields(WISH_FIELDS, &body)?;
    let (email, text) = (values.get("employeeEmail").to_string(), values.get("text").to_string());
    let row = crud::save_then_fetch(&state, &WISH_LIST, move |tx| {
        let employee = active_employee(tx, "employeeEmail", &email)?;
        let id =
            tx.insert("INSERT INTO wish_list_requests (employee_id, text) VALUES (?1, ?2)", (employee.id, &text))?;
        Ok(id)
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

/// Who complains: an employee by e-mail, or else a person by name, e-mail and phone.
pub static COMPLAINING_EMPLOYEE: &[Field] =
    &[Field::input("employeeEmail", FieldKind::Email).required(EMPLOYEE_REQUIRED)];
pub static COMPLAINING_PERSON: &[Field] = &[
    Field::input("fullName", FieldKind::Text).required(FULL_NAME_REQUIRED).max_length(100),
    Field::input("email", FieldKind::Email).required("Email is required"),
    Field::input("phone", FieldKind::Phone),
];
/// What every complaint says, checked after who says it.
pub static COMPLAINT_FIELDS: &[Field] = &[
    Field::input("reasonId", FieldKind::Id { invalid: "Reason id must be a number" }).required(REASON_REQUIRED),
    Field::input("description", FieldKind::Text).required(DESCRIPTION_REQUIRED).max_length(2000),
];

enum Complainant {
    Employee(String),
    Person { full_name: String, email: String, phone: String },
}

pub(super) async fn complaint(
    State(state): State<AppState>,
    ApiJson(body): ApiJson<Value>,
) -> AppResult<(StatusCode, Json<Value>)> {
    let body = fields::object(&body)?;
    let mut v = Validator::new();
    // An employee e-mail that is sent (even as something other than text) names the complainant.
    let by_employee = match body.value("employeeEmail") {
        Sent::Missing => false,
        Sent::Text(email) => !email.is_empty(),
        Sent::NotText => true,
    };
    let who = if by_employee {
        let values = read_fields(COMPLAINING_EMPLOYEE, body, Mode::Create, &mut v);
        Complainant::Employee(values.get("employeeEmail").to_string())
    } else {
        let values = read_fields(COMPLAINING_PERSON, body, Mode::Create, &mut v);
        let text = |name| values.get(name).to_string();
        Complainant::Person { full_name: text("fullName"), email: text("email"), phone: text("phone") }
    };
    let said = read_fields(COMPLAINT_FIELDS, body, Mode::Create, &mut v);
    v.finish()?;
    let reason = said.number("reasonId").unwrap_or_default();
    let description = said.get("description").to_string();
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
        let id = tx.insert(
            "INSERT INTO complaints (employee_id, full_name, email, phone, reason_id, description)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            (employee_id, &full_name, &email, &phone, reason, &description),
        )?;
        Ok(id)
    })
    .await?;
    Ok((StatusCode::CREATED, Json(row)))
}
