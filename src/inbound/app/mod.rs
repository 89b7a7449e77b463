//! The employee app's API (`/api/app/...`, keys of kind employee-app): employees in, the
//! campaigns offered to an employee and the notifications out, and the employee's uses of a
//! discount, wishes and complaints in. Each write lands in the table its back-office screen reads
//! (Employee list, Usage History and so the dashboard, Requests by Employee, Complaints).

use crate::db::dialect::Dialect;
use crate::db::sql::{Connection, OptionalExtension, ReadAhead};
use axum::http::Method;
use axum::routing::{get, post, put};
use serde_json::Value;
use utoipa::openapi::schema::{ObjectBuilder, Type};

use crate::core::error::{AppError, AppResult};
use crate::core::patterns;
use crate::core::validation::Validator;
use crate::crud::{self, Language, ListPage};
use crate::http::api::Rule::Range;
use crate::http::api::{Api, Doc, query};
use crate::http::extract::QueryMap;
use crate::resources::complaints::COMPLAINTS;
use crate::resources::employees::EMPLOYEES;
use crate::resources::usage_history::USAGE_HISTORY;
use crate::resources::wish_list::WISH_LIST;

mod arrivals;
mod offers;
mod uses;

use arrivals::{EMPLOYEE_FIELDS, EmployeeIn, put_employee};
use offers::{campaigns, notifications};
use uses::{COMPLAINT_FIELDS, ComplaintIn, USAGE_FIELDS, UsageIn, WISH_FIELDS, WishIn, complaint, usage, wish};
pub use uses::{COMPLAINT_FORM, USAGE_FORM, WISH_FORM};
pub(crate) use uses::{USAGE_FIELDS as USE_FIELDS, USE_BRANCH, USE_CAMPAIGN, USE_EMPLOYEE, check_use, record_use};

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
            EMPLOYEE_PARAM,
            "The employee's e-mail (`employee`, the name this parameter had before, is still read when \
             `employeeEmail` is absent)",
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
                .rules_of(EMPLOYEE_FIELDS)
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
                Doc::new(TAG, "Active, confirmed, unexpired campaigns offered to the employee's asset; each with verifiedOnly (used only with a redemption code) and remainingForEmployee (the uses left to the employee now: the smaller of what the campaign's total limit and the employee's period limit leave; null when unlimited)")
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
                .writes_with_row_locks()
                .rules_of(USAGE_FIELDS)
                .answers(404, "No such employee, campaign or branch")
                .answers(409, "The employee is inactive; the campaign inactive, expired, not started or not offered to the employee's asset; the campaign used only with a redemption code (verifiedOnly); or a limit reached: the campaign's usageLimitTotal, or the employee's usageLimitPerEmployee in its usageLimitPeriod (a calendar day, ISO week or month in the operator's time zone, or the campaign's life)")
                .returns_component(201, crud::row_schema(&USAGE_HISTORY)),
        )
        .add(
            Method::POST,
            "/api/app/wishes",
            post(wish),
            Doc::new(TAG, "An employee's wish for a new partner or campaign (it appears in Requests by Employee)")
                .api_key(KIND)
                .json_body::<WishIn>()
                .rules_of(WISH_FIELDS)
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
                .rules_of(COMPLAINT_FIELDS)
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
    active_employee_ahead(conn, field, email)?.employee()
}

/// [`active_employee`], looked up ahead of the statements that follow (see `ReadAhead`): on
/// PostgreSQL the look-up travels with the next one, in its round trip.
pub(crate) fn active_employee_ahead<'c>(
    conn: &'c Connection,
    field: &'static str,
    email: &str,
) -> AppResult<EmployeeAhead<'c>> {
    find_active_employee(conn, field, email, "")
}

/// [`active_employee_ahead`] for a use about to be written: the employee's row is locked until
/// the commit (see `Isolation::RowLocks`), so two uses by one employee are decided one after the
/// other (their limits, the review's counts of recent uses), while uses by others go side by side.
pub(crate) fn employee_for_use<'c>(
    tx: &'c Connection,
    field: &'static str,
    email: &str,
) -> AppResult<EmployeeAhead<'c>> {
    find_active_employee(tx, field, email, &Dialect::of(tx).lock_rows("employees"))
}

/// An employee looked up ahead, read with [`EmployeeAhead::employee`].
pub(crate) struct EmployeeAhead<'c> {
    field: &'static str,
    /// The e-mail they were looked up by, for statements sent before the row is read.
    pub email: String,
    found: ReadAhead<'c>,
}

impl EmployeeAhead<'_> {
    /// The employee: 404 when there is none, 409 when inactive, each marked on the field.
    pub(crate) fn employee(self) -> AppResult<Employee> {
        let found = self
            .found
            .query_row(|r| {
                Ok((
                    Employee {
                        id: r.get("id")?,
                        asset_id: r.get("asset_id")?,
                        full_name: r.get("full_name")?,
                        email: r.get("email")?,
                        phone: r.get("phone")?,
                    },
                    r.get::<bool>("is_active")?,
                ))
            })
            .optional()?;
        match found {
            None => Err(AppError::no_such(self.field, EMPLOYEE_UNKNOWN)),
            Some((_, false)) => Err(AppError::conflict_on(self.field, EMPLOYEE_INACTIVE)),
            Some((employee, true)) => Ok(employee),
        }
    }
}

fn find_active_employee<'c>(
    conn: &'c Connection,
    field: &'static str,
    email: &str,
    lock: &str,
) -> AppResult<EmployeeAhead<'c>> {
    let found = conn.read_ahead(
        &format!(
            "SELECT id, asset_id, first_name || ' ' || last_name AS full_name, email, phone, is_active FROM employees
             WHERE email = ?1 AND deleted_at IS NULL ORDER BY id LIMIT 1 {lock}"
        ),
        [email],
    )?;
    Ok(EmployeeAhead { field, email: email.to_string(), found })
}

/// The query parameter that names the employee of an app read, spelled as the bodies of the
/// app's writes spell it.
const EMPLOYEE_PARAM: &str = "employeeEmail";

/// The employee's e-mail of an app read ([`EMPLOYEE_PARAM`]), valid. `employee`, the parameter's
/// first name, is still read when the new one is absent, so an app built against it keeps working;
/// the document names only the new one.
fn employee_param(query: &QueryMap) -> AppResult<String> {
    let email = query.get(EMPLOYEE_PARAM).or_else(|| query.get("employee")).unwrap_or("").to_string();
    let mut v = Validator::new();
    v.email(EMPLOYEE_PARAM, &email, EMPLOYEE_REQUIRED);
    v.finish()?;
    Ok(email)
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
