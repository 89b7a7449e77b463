//! Requests by Employee (`/requests`, `wishList`): employees' wishes for new partners or
//! campaigns. A read-only list with its export (WishLists.xlsx), plus the status staff set from
//! the row (0 new, 1 in review, 2 done), since a request nobody can mark as handled is not useful.

use axum::Json;
use axum::extract::State;
use axum::http::Method;
use axum::routing::put;
use serde_json::Value;
use utoipa::ToSchema;

use super::fields;
use crate::auth::Roles;
use crate::core::error::AppResult;
use crate::core::validation::Validator;
use crate::crud::{self, Column, Export, Filter, Kind, Resource, ValueKind};
use crate::http::api::Rule::{Range, Required};
use crate::http::api::{Api, Doc};
use crate::http::extract::ApiJson;
use crate::http::state::AppState;

pub const STATUS_NAME_SQL: &str = "CASE w.status WHEN 0 THEN 'New' WHEN 1 THEN 'In review' ELSE 'Done' END";

pub static WISH_LIST: Resource = Resource {
    path: "wishList",
    tag: "Requests by employee",
    name: "Request",
    table: "wish_list_requests",
    from: "wish_list_requests w JOIN employees e ON e.id = w.employee_id JOIN assets a ON a.id = e.asset_id",
    scope: "w.deleted_at IS NULL",
    id: "w.id",
    total_key: Some("wish_list_requests"),
    columns: &[
        Column::new("id", "w.id", Kind::Int),
        Column::new("employeeId", "w.employee_id", Kind::Int).detail_only(),
        Column::new("employeeFullName", "e.first_name || ' ' || e.last_name", Kind::Text),
        Column::new("employeeEmail", "e.email", Kind::Text).detail_only(),
        Column::new("assetId", "e.asset_id", Kind::Int).detail_only(),
        Column::new("assetName", "a.name", Kind::Text),
        Column::new("text", "w.text", Kind::Text),
        Column::new("requestDate", "w.request_date", Kind::DateTime),
        Column::new("status", "w.status", Kind::Int),
        Column::new("statusName", STATUS_NAME_SQL, Kind::Text).unsorted(),
    ],
    filters: &[
        Filter::contains("EmployeeFullName", "(e.first_name || ' ' || e.last_name)"),
        Filter::equals("AssetId", "e.asset_id", ValueKind::Int),
        Filter::contains("Text", "w.text"),
        Filter::on_date("RequestDate", "w.request_date"),
        Filter::equals("Status", "w.status", ValueKind::Int),
    ],
    export: Some(Export {
        file_name: "WishLists.xlsx",
        columns: &[
            ("Employee full name", "employeeFullName"),
            ("Asset name", "assetName"),
            ("Text", "text"),
            ("Request date", "requestDate"),
            ("Status", "statusName"),
        ],
    }),
    read: Roles::ANYONE,
    write: Roles::EDITORS,
    toggle: false,
    delete: false,
    on_change: None,
    detail_extra: None,
};

pub const STATUS_RANGE: &str = "Status must be 0 (new), 1 (in review) or 2 (done)";

pub fn routes() -> Api {
    crud::routes(&WISH_LIST).add(
        Method::PUT,
        "/api/wishList/updateStatus",
        put(update_status),
        Doc::new(WISH_LIST.tag, "Set a request's status: 0 new, 1 in review, 2 done")
            .roles(WISH_LIST.write)
            .json_body::<StatusChange>()
            .rules("id", &[Required, Range(1, i64::MAX)])
            .rules("status", &[Required, Range(0, 2)])
            .answers(404, "No such request")
            .returns_schema(200, crud::row_schema(&WISH_LIST)),
    )
}

/// `{id, status}` of the status calls (wish list and usage history).
#[derive(serde::Deserialize, ToSchema)]
#[allow(dead_code)] // describes the body for the OpenAPI document; read field by field
pub struct StatusChange {
    id: i64,
    status: i64,
}

/// Reads `{id, status}`, with `status` one of `allowed`.
pub fn read_status(body: &Value, allowed: &[i64], range_message: &str) -> AppResult<(i64, i64)> {
    let body = fields::object(body)?;
    let mut v = Validator::new();
    let id = fields::id(&mut v, "id", body.get("id"), "Id is required", "Id must be a number");
    let status = match fields::number(body.get("status")) {
        fields::Number::Whole(status) if allowed.contains(&status) => status,
        fields::Number::Missing => {
            v.check("status", false, "Status is required");
            0
        }
        _ => {
            v.check("status", false, range_message);
            0
        }
    };
    v.finish()?;
    Ok((id, status))
}

async fn update_status(State(state): State<AppState>, ApiJson(body): ApiJson<Value>) -> AppResult<Json<Value>> {
    let (id, status) = read_status(&body, &[0, 1, 2], STATUS_RANGE)?;
    crud::save_then_fetch(&state, &WISH_LIST, move |tx| {
        let changed =
            tx.execute("UPDATE wish_list_requests SET status = ?2 WHERE id = ?1 AND deleted_at IS NULL", (id, status))?;
        WISH_LIST.updated(changed, id)
    })
    .await
    .map(Json)
}
