//! `PUT employees/{email}`: an employee arrives or changes, through the employees' one writer.

use crate::db::sql::OptionalExtension;
use axum::Json;
use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde::Deserialize;
use serde_json::Value;
use utoipa::ToSchema;

use crate::core::error::{AppError, AppResult};
use crate::core::validation::Validator;
use crate::crud::{self, Language};
use crate::db::now_iso;
use crate::http::extract::ApiJson;
use crate::http::fields::{self, Number};
use crate::http::form_fields::{Field, FieldKind, Mode, read_fields};
use crate::http::state::AppState;
use crate::resources::assets;
use crate::resources::employees::{self, EMPLOYEES};

use super::ASSET_REQUIRED;

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

/// The employee's own fields, read after the asset it belongs to.
pub static EMPLOYEE_FIELDS: &[Field] = &[
    Field::input("firstName", FieldKind::Text).required("First name is required").max_length(100),
    Field::input("lastName", FieldKind::Text).required("Last name is required").max_length(100),
    Field::input("phone", FieldKind::Phone).required("Phone is required"),
];

enum AssetRef {
    Id(i64),
    Barcode(String),
}

pub(super) async fn put_employee(
    State(state): State<AppState>,
    path: Result<Path<String>, PathRejection>,
    ApiJson(body): ApiJson<Value>,
) -> AppResult<(StatusCode, Json<Value>)> {
    let Path(email) = path.map_err(|_| AppError::field("email", "The e-mail in the address is not valid"))?;
    let email = email.trim().to_string();
    let body = fields::object(&body)?;
    let mut v = Validator::new();
    v.email("email", &email, "Email is required");
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
    let person = read_fields(EMPLOYEE_FIELDS, body, Mode::Create, &mut v);
    v.finish()?;
    let text = |name| person.get(name).to_string();
    let (first_name, last_name, phone) = (text("firstName"), text("lastName"), text("phone"));
    let asset = asset.ok_or_else(|| AppError::field("assetId", ASSET_REQUIRED))?;
    state
        .db
        .write(move |tx| {
            let asset_id = match asset {
                AssetRef::Id(id) => tx
                    .query_row("SELECT id FROM assets WHERE id = ?1 AND deleted_at IS NULL", [id], |r| r.get("id"))
                    .optional()?
                    .ok_or_else(|| AppError::no_such("assetId", format!("There is no asset with id {id}.")))?,
                AssetRef::Barcode(prefix) => match assets::with_barcode_prefix(tx, &prefix)?.as_slice() {
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
                },
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
