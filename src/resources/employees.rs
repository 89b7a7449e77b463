//! Employees of client organisations (assets), who use campaigns through the mobile app: the
//! generic list under the spec's admin paths (`employee/forAdmin`, `employee/filter/admin`,
//! which is also the `{id, userName}` picker), edit, the active switch, delete, and the
//! per-asset export `employee/export/admin?assetId=` saved as EmployeeList.xlsx.

use crate::crud::{Recorded, Trash};
use crate::db::sql::{Connection, OptionalExtension};
use axum::Json;
use axum::extract::State;
use axum::http::Method;
use axum::routing::put;
use serde_json::Value;
use utoipa::ToSchema;

use crate::auth::Roles;
use crate::core::error::AppResult;
use crate::core::validation::Validator;
use crate::crud::events::{self, On};
use crate::crud::writes::{Columns, Field, Mode, Write, WriteForm};
use crate::crud::{self, Column, Export, Filter, Kind, ListPage, Resource, Total, ValueKind};
use crate::http::api::Rule::{Range, Required};
use crate::http::api::{Api, Doc, query};
use crate::http::extract::ApiJson;
use crate::http::fields;
use crate::http::state::AppState;

/// An employee arrived (the app, the import, the CLI), was changed, or was deleted.
pub static EMPLOYEE_EVENTS: crate::crud::events::Events = crate::crud::events::Events {
    created: Some("employee.created"),
    updated: Some("employee.updated"),
    deleted: Some("employee.deleted"),
    named: &[],
    partner: None,
    asset: Some("e.asset_id"),
};

pub static EMPLOYEES: Resource = Resource {
    path: "employee",
    row: "EmployeeRow",
    tag: "Employees",
    name: "Employee",
    table: "employees",
    from: "employees e JOIN assets a ON a.id = e.asset_id",
    scope: "e.deleted_at IS NULL",
    id: "e.id",
    total: Total::Maintained("employees"),
    columns: &[
        Column::new("id", "e.id", Kind::Int),
        Column::new("firstName", "e.first_name", Kind::Text).never_null(),
        Column::new("lastName", "e.last_name", Kind::Text).never_null(),
        Column::new("fullName", "e.first_name || ' ' || e.last_name", Kind::Text).never_null(),
        Column::new("email", "e.email", Kind::Text).never_null(),
        // The employee-for-admin picker's label: employees sign in to the app by e-mail.
        Column::new("userName", "e.email", Kind::Text).never_null(),
        Column::new("phone", "e.phone", Kind::Phone).never_null(),
        Column::new("assetId", "e.asset_id", Kind::Int).never_null(),
        Column::new("assetName", "a.name", Kind::Text).never_null(),
        Column::new("isActive", "e.is_active", Kind::Bool).never_null(),
        Column::new("createdAt", "e.created_at", Kind::DateTime).detail_only().never_null(),
    ],
    filters: &[
        Filter::contains("FullName", "(e.first_name || ' ' || e.last_name)"),
        Filter::contains("Email", "e.email"),
        Filter::contains("PhoneNumber", "e.phone"),
        Filter::contains("AssetName", "a.name"),
        Filter::equals("IsActive", "e.is_active", ValueKind::Bool),
        // The export dialog's asset (`employee/export/admin?assetId=`).
        Filter::equals("assetId", "e.asset_id", ValueKind::Int),
    ],
    export: Some(Export {
        file_name: "EmployeeList.xlsx",
        columns: &[
            ("First name", "firstName"),
            ("Last name", "lastName"),
            ("Email", "email"),
            ("Phone number", "phone"),
            ("Asset name", "assetName"),
            ("Active", "isActive"),
            ("Created", "createdAt"),
        ],
    }),
    read: Roles::ANYONE,
    write: Roles::EDITORS,
    toggle: true,
    delete: true,
    on_change: None,
    detail_extra: None,
    plural: "employees",
    label: Some(super::PERSON_NAME),
    history: &[Recorded::table("employees")],
    trash: Some(Trash {
        label: Some(super::PERSON_LABEL),
        parents: &[("asset_id", "assetId", "assets", "asset")],
        owned: &[("redemption_codes", "employee_id = ?1", "redemption codes")],
        ..Trash::PLAIN
    }),
    events: Some(&EMPLOYEE_EVENTS),
    unrecorded: &[],
};

pub fn routes() -> Api {
    const TAG: &str = "Employees";
    let list_doc = |summary: &str| {
        crud::list_call_doc(
            crud::list_params(Doc::new(TAG, summary).roles(EMPLOYEES.read), &EMPLOYEES).returns::<ListPage>(200),
        )
    };
    crud::routes(&EMPLOYEES)
        .add(
            Method::GET,
            "/api/employee/forAdmin",
            crud::list_call(&EMPLOYEES),
            list_doc("Employees (rows carry id and userName for the picker)"),
        )
        .add(
            Method::GET,
            "/api/employee/filter/admin",
            crud::list_call(&EMPLOYEES),
            list_doc("Employees narrowed by filters"),
        )
        .add(
            Method::GET,
            "/api/employee/export/admin",
            crud::export_call(&EMPLOYEES),
            Doc::new(TAG, "Download EmployeeList.xlsx (assetId: one asset's employees; every filter applies)")
                .roles(EMPLOYEES.read)
                .query_schema("assetId", "The asset", query::int(i64::MIN, i64::MAX))
                .returns_file(),
        )
        .add(
            Method::PUT,
            "/api/employee",
            put(update),
            EMPLOYEE_EDIT_FORM
                .document(
                    Doc::new(TAG, "Edit an employee").roles(EMPLOYEES.write).json_body::<EmployeeEdit>(),
                    Mode::Update,
                )
                .rules("id", &[Required, Range(1, i64::MAX)])
                .answers(404, "No such employee")
                .returns_component(200, crud::row_schema(&EMPLOYEES)),
        )
}

/// The back office's edit of an employee (they arrive through the app and the import).
pub static EMPLOYEE_EDIT_FORM: WriteForm = WriteForm {
    resource: &EMPLOYEES,
    table: "employees",
    fields: &[
        Field::text("firstName", "first_name").required("First name is required"),
        Field::text("lastName", "last_name").required("Last name is required"),
        Field::email("email", "email").required("Email is required"),
        Field::phone("phone", "phone").required("Phone is required"),
    ],
    image: None,
    extra_parts: &[],
    computed: &[],
    children: &[],
};

/// `PUT employee`: the spec's payload. Read field by field (see `fields`).
#[derive(serde::Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)]
pub struct EmployeeEdit {
    id: i64,
    email: String,
    /// 994 + operator code without its 0 + 7 digits.
    phone: String,
    first_name: String,
    last_name: String,
}

async fn update(State(state): State<AppState>, ApiJson(body): ApiJson<Value>) -> AppResult<Json<Value>> {
    let body = fields::object(&body)?;
    let mut v = Validator::new();
    let id = fields::id(&mut v, "id", body.get("id"), "Id is required", "Id must be a number");
    let values = EMPLOYEE_EDIT_FORM.read(body, Mode::Update, &mut v);
    v.finish()?;
    crud::save_then_fetch(&state, &EMPLOYEES, move |tx| {
        EMPLOYEE_EDIT_FORM.write(&values).update(tx, id)?;
        events::raise(tx, &EMPLOYEES, On::Updated, id)?;
        Ok(id)
    })
    .await
    .map(Json)
}

/// An employee as the employee app and the workbook import send one: known by e-mail, added
/// when new, otherwise moved to the asset with new names and phone (and activity, when given).
pub struct Arrival<'a> {
    pub asset_id: i64,
    pub first_name: &'a str,
    pub last_name: &'a str,
    pub email: &'a str,
    pub phone: &'a str,
    /// `None` keeps a known employee's state; a new one is active.
    pub is_active: Option<bool>,
}

/// An arriving employee as stored: every column comes from the app's call or a workbook's row,
/// each read its own way into an [`Arrival`].
pub static ARRIVAL_FORM: WriteForm = WriteForm {
    resource: &EMPLOYEES,
    table: "employees",
    fields: &[],
    image: None,
    extra_parts: &[],
    computed: &["asset_id", "first_name", "last_name", "email", "phone", "is_active", "updated_at"],
    children: &[],
};

/// The live employee with this e-mail, the oldest when several share it.
pub fn find_by_email(conn: &Connection, email: &str) -> AppResult<Option<i64>> {
    Ok(conn
        .prepare_cached("SELECT id FROM employees WHERE email = ?1 AND deleted_at IS NULL ORDER BY id LIMIT 1")?
        .query_row([email], |r| r.get("id"))
        .optional()?)
}

/// The one writer of arriving employees (the employee app's upsert, the import from the panel
/// and from the command line): updates `existing` or adds a row; answers the row's id. `now` is
/// the update's time, one for every row of an import.
pub fn arrive(tx: &Connection, existing: Option<i64>, employee: &Arrival, now: &str) -> AppResult<i64> {
    let Arrival { asset_id, first_name, last_name, email, phone, is_active } = *employee;
    let person = Columns::new()
        .set("asset_id", asset_id)
        .set("first_name", first_name)
        .set("last_name", last_name)
        .set("phone", phone);
    let arrival = Write::new(&ARRIVAL_FORM).computed(person);
    let (id, on) = match existing {
        // A known employee keeps the e-mail it is known by (another case of it finds it too).
        Some(id) => (arrival.set_or_keep("is_active", is_active).set("updated_at", now).update(tx, id)?, On::Updated),
        None => (arrival.set("email", email).set("is_active", is_active.unwrap_or(true)).insert(tx)?, On::Created),
    };
    events::raise(tx, &EMPLOYEES, on, id)?;
    Ok(id)
}
