//! The employee import for HR: an .xlsx of employees (e-mail, names, phone, asset by id or
//! barcode prefix, optionally active) read with calamine, checked row by row with Edit Employee's
//! rules and messages, shown as a dry run (rows to add, rows to update, each refused row with its
//! number and reason), then applied in one transaction: the good rows are written, the refused
//! ones are left out and listed again. The same runs on the command line
//! (`perkdesk import-employees FILE [--dry-run]`) and through `POST employee/import`.

use std::collections::HashMap;

use crate::db::sql::{Connection, OptionalExtension};
use axum::Json;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::Method;
use axum::response::Response;
use axum::routing::{get, post};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa::openapi::schema::{KnownFormat, ObjectBuilder, SchemaFormat, Type};
use utoipa::openapi::{RefOr, Schema};

use crate::auth::Roles;
use crate::core::error::{AppError, AppResult};
use crate::core::refusals::Audience;
use crate::core::validation::Validator;
use crate::crud::{self, SheetWriter};
use crate::db::{now_iso, write_tx};
use crate::http::api::{Api, Doc};
use crate::http::extract::QueryMap;
use crate::http::forms::{Form, MULTIPART_LIMIT};
use crate::http::state::AppState;
use crate::resources::{assets, employees};

use super::workbook::{self, CellText};

/// The template's columns; a workbook's header row names them in any order and case.
pub const COLUMNS: [&str; 6] = ["Email", "First name", "Last name", "Phone number", "Asset", "Active"];
const REQUIRED_COLUMNS: [&str; 5] = ["Email", "First name", "Last name", "Phone number", "Asset"];
pub const TEMPLATE_NAME: &str = "EmployeeImport.xlsx";
/// A workbook of more rows is refused whole (the import is one transaction).
pub const MAX_ROWS: usize = 50_000;

pub use super::workbook::NOT_A_WORKBOOK;
pub const FILE_REQUIRED: &str = "Choose the .xlsx file to import";
pub const ASSET_REQUIRED: &str = "Asset is required (its id or barcode prefix)";
pub const ACTIVE_INVALID: &str = "Active must be yes or no";

/// One refused row: its number in the workbook (the header is row 1), the column and the reason.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RefusedRow {
    pub row: usize,
    pub field: String,
    pub message: String,
}

/// What an import does (dry run) or did.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ImportReport {
    /// False for a dry run: nothing was written.
    pub applied: bool,
    /// Rows read (blank rows are skipped).
    pub rows: usize,
    pub added: usize,
    pub updated: usize,
    pub refused: Vec<RefusedRow>,
}

/// A row that passed every check, ready to write.
struct Good {
    email: String,
    first_name: String,
    last_name: String,
    phone: String,
    asset_id: i64,
    is_active: Option<bool>,
    existing: Option<i64>,
}

/// A workbook's rows: each row's number in the sheet and its cells by column.
type Rows = Vec<workbook::Row>;

/// The first sheet's rows under its header, read in bounded memory ([`workbook`]).
fn read_rows(bytes: &[u8]) -> AppResult<Rows> {
    workbook::read_rows(bytes, &COLUMNS, &REQUIRED_COLUMNS, MAX_ROWS)
        .map_err(|workbook::Refusal(message)| AppError::field("file", message))
}

/// Checks every row against the database as it is (inside the caller's transaction).
fn check(conn: &Connection, rows: Rows) -> AppResult<(Vec<Good>, Vec<RefusedRow>)> {
    let mut by_id = conn.prepare_cached("SELECT 1 FROM assets WHERE id = ?1 AND deleted_at IS NULL")?;
    let mut seen: HashMap<String, usize> = HashMap::new();
    let (mut good, mut refused) = (vec![], vec![]);
    for (row, cells) in rows {
        // An error value (#DIV/0!) is not a name, a phone or an e-mail: the row is refused.
        let error = COLUMNS.iter().find_map(|name| match cells.get(name) {
            Some(CellText::Error(error)) => Some((name, error)),
            _ => None,
        });
        if let Some((field, error)) = error {
            let message = format!("The cell holds the error {error}, not a value.");
            refused.push(RefusedRow { row, field: field.to_string(), message });
            continue;
        }
        let get = |name: &str| match cells.get(name) {
            Some(CellText::Text(text)) => text.clone(),
            _ => String::new(),
        };
        let (email, first_name, last_name, phone, asset, active) = (
            get("Email"),
            get("First name"),
            get("Last name"),
            get("Phone number"),
            get("Asset"),
            get("Active").to_ascii_lowercase(),
        );
        let mut v = Validator::new();
        v.email("Email", &email, "Email is required")
            .required("First name", &first_name, "First name is required")
            .length("First name", &first_name, 0, 100)
            .required("Last name", &last_name, "Last name is required")
            .length("Last name", &last_name, 0, 100)
            .required("Phone number", &phone, "Phone is required")
            .phone("Phone number", &phone)
            .required("Asset", &asset, ASSET_REQUIRED);
        let is_active = match active.as_str() {
            "" => None,
            "yes" | "true" | "1" | "bəli" | "active" => Some(true),
            "no" | "false" | "0" | "xeyr" | "inactive" => Some(false),
            _ => {
                v.check("Active", false, ACTIVE_INVALID);
                None
            }
        };
        let key = email.to_lowercase();
        if let Some(first) = seen.get(&key).filter(|_| !email.is_empty()) {
            v.check("Email", false, &format!("The e-mail is already on row {first}"));
        }
        let asset_id = if asset.is_empty() {
            None
        } else if let Ok(id) = asset.parse::<i64>() {
            let found = by_id.query_row([id], |_| Ok(())).optional()?.is_some();
            v.check("Asset", found, &format!("There is no asset with id {id}."));
            found.then_some(id)
        } else {
            let ids = assets::with_barcode_prefix(conn, &asset)?;
            v.check("Asset", !ids.is_empty(), &format!("No asset has the barcode prefix {asset}.")).check(
                "Asset",
                ids.len() < 2,
                "Several assets have this barcode prefix; give the asset's id",
            );
            (ids.len() == 1).then(|| ids[0])
        };
        if let Err(AppError::Validation { message, errors }) = v.finish() {
            let field = errors.iter().find(|(_, m)| **m == message).map(|(f, _)| f.clone()).unwrap_or_default();
            refused.push(RefusedRow { row, field, message });
            continue;
        }
        seen.insert(key, row);
        let existing = employees::find_by_email(conn, &email)?;
        good.push(Good {
            email,
            first_name,
            last_name,
            phone,
            asset_id: asset_id.unwrap_or_default(),
            is_active,
            existing,
        });
    }
    Ok((good, refused))
}

/// Reads, checks and (unless `dry_run`) writes the workbook in one transaction (the command
/// line's form; the server's runs [`apply`] in its turn among writers).
pub fn import(conn: &mut Connection, bytes: &[u8], dry_run: bool) -> AppResult<ImportReport> {
    let rows = read_rows(bytes)?;
    write_tx(conn, |tx| apply(tx, rows, dry_run))
}

/// Checks the workbook's rows and, unless `dry_run`, writes the good ones.
fn apply(tx: &Connection, rows: Rows, dry_run: bool) -> AppResult<ImportReport> {
    let count = rows.len();
    let (good, refused) = check(tx, rows)?;
    let added = good.iter().filter(|g| g.existing.is_none()).count();
    let report = ImportReport { applied: !dry_run, rows: count, added, updated: good.len() - added, refused };
    if dry_run {
        return Ok(report);
    }
    let now = now_iso();
    for g in &good {
        let arrival = employees::Arrival {
            asset_id: g.asset_id,
            first_name: &g.first_name,
            last_name: &g.last_name,
            email: &g.email,
            phone: &g.phone,
            is_active: g.is_active,
        };
        employees::arrive(tx, g.existing, &arrival, &now)?;
    }
    Ok(report)
}

/// The template: the header row alone.
pub fn template() -> AppResult<std::fs::File> {
    SheetWriter::new("Employees", &COLUMNS)?.finish()
}

/// The texts this module's routes refuse with (`core::refusals`).
const REFUSALS: &[&str] = &[
    FILE_REQUIRED,
    ASSET_REQUIRED,
    ACTIVE_INVALID,
    "The cell holds the error {error}, not a value.",
    "Email is required",
    "First name is required",
    "Last name is required",
    "Phone is required",
    "The e-mail is already on row {row}",
    "There is no asset with id {id}.",
    "No asset has the barcode prefix {prefix}.",
    "Several assets have this barcode prefix; give the asset's id",
];

pub fn routes() -> Api {
    const TAG: &str = "Employees";
    Api::new()
        .refuses(Audience::People, REFUSALS)
        .refuses(Audience::People, super::workbook::REFUSALS)
        .add(
            Method::POST,
            "/api/employee/import",
            post(import_call).layer(DefaultBodyLimit::max(MULTIPART_LIMIT)),
            Doc::new(TAG, "Import employees from an .xlsx (dryRun=true: only report what would happen); one transaction; refused rows are listed and left out")
                .roles(Roles::EDITORS)
                .query("dryRun", "true: check and report, write nothing", Type::Boolean)
                .body_schema(
                    "multipart/form-data",
                    RefOr::T(Schema::Object(
                        ObjectBuilder::new()
                            .property(
                                "file",
                                ObjectBuilder::new()
                                    .schema_type(Type::String)
                                    .format(Some(SchemaFormat::KnownFormat(KnownFormat::Binary)))
                                    .content_media_type(crate::http::api::XLSX)
                                    .description(Some("The .xlsx workbook (see the template)")),
                            )
                            .required("file")
                            .build(),
                    )),
                )
                .returns::<ImportReport>(200),
        )
        .add(
            Method::GET,
            "/api/employee/import/template",
            get(template_call),
            Doc::new(TAG, "Download EmployeeImport.xlsx, the import's header row").roles(Roles::EDITORS).returns_file(),
        )
}

async fn import_call(State(state): State<AppState>, query: QueryMap, form: Form) -> AppResult<Json<ImportReport>> {
    let dry_run = query.bool("dryRun")?.unwrap_or(false);
    let bytes =
        form.file("file").map(|upload| upload.bytes.clone()).ok_or_else(|| AppError::field("file", FILE_REQUIRED))?;
    // The workbook is read before the write's turn, so other writers do not wait on the parsing.
    let rows = tokio::task::spawn_blocking(move || read_rows(&bytes)).await??;
    let report = if dry_run {
        state.db.run(move |conn| apply(conn, rows, true)).await?
    } else {
        state.db.write(move |conn| apply(conn, rows, false)).await?
    };
    Ok(Json(report))
}

async fn template_call(State(_): State<AppState>) -> AppResult<Response> {
    let file = tokio::task::spawn_blocking(template).await??;
    crud::file_response(file, TEMPLATE_NAME).await
}
