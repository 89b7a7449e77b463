//! Reports: for assets, partners, campaigns and employees, a paged, searchable list of every
//! name with its state (active, deactive or deleted: soft-deleted rows are listed and counted
//! here, unlike everywhere else), the kind's counts per state from `state_counts` (kept by the
//! triggers of migration 7), and the two spreadsheets `Reports-count.xlsx` and
//! `Reports-name.xlsx`, which `perkdesk export-reports` writes too. Shapes: docs/decisions.md.

use std::fs::File;

use crate::db::sql::Connection;
use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, Method};
use axum::response::Response;
use axum::routing::get;
use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;

use crate::auth::Roles;
use crate::core::error::AppResult;
use crate::crud::{self, Column, Filter, Kind, Language, ListQuery, Resource, SheetWriter, Total, select_sql};
use crate::http::api::{Api, Doc};
use crate::http::extract::QueryMap;
use crate::http::state::AppState;

const TAG: &str = "Reports";
pub const COUNTS_FILE: &str = "Reports-count.xlsx";
pub const NAMES_FILE: &str = "Reports-name.xlsx";

/// A row's state as the list answers it.
macro_rules! state_sql {
    ($t:literal) => {
        concat!(
            "CASE WHEN ",
            $t,
            ".deleted_at IS NOT NULL THEN 'deleted' WHEN ",
            $t,
            ".is_active = 1 THEN 'active' ELSE 'deactive' END"
        )
    };
}

/// A row's state as the spreadsheet shows it.
macro_rules! state_label_sql {
    ($t:literal) => {
        concat!(
            "CASE WHEN ",
            $t,
            ".deleted_at IS NOT NULL THEN 'Deleted' WHEN ",
            $t,
            ".is_active = 1 THEN 'Active' ELSE 'Deactive' END"
        )
    };
}

/// The names list of one kind: every row of its table, deleted ones included.
const fn names(
    path: &'static str,
    row: &'static str,
    name: &'static str,
    table: &'static str,
    from: &'static str,
    columns: &'static [Column],
    filters: &'static [Filter],
) -> Resource {
    Resource {
        path,
        row,
        tag: TAG,
        name,
        table,
        from,
        scope: "1 = 1",
        id: "t.id",
        total: Total::Counted,
        columns,
        filters,
        export: None,
        read: Roles::ANYONE,
        write: Roles::ADMIN,
        toggle: false,
        delete: false,
        on_change: None,
        detail_extra: None,
        plural: name,
        label: None,
        history: &[],
        trash: None,
        events: None,
        unrecorded: &[],
    }
}

pub static ASSET_NAMES: Resource = names(
    "report/asset",
    "AssetNameRow",
    "Asset",
    "assets",
    "assets t",
    &[
        Column::new("id", "t.id", Kind::Int),
        Column::new("name", "t.name", Kind::Text).never_null(),
        Column::new("state", state_sql!("t"), Kind::Text).unsorted().never_null(),
    ],
    &[Filter::contains("Name", "t.name")],
);

pub static PARTNER_NAMES: Resource = names(
    "report/partner",
    "PartnerNameRow",
    "Partner",
    "partners",
    "partners t",
    &[
        Column::new("id", "t.id", Kind::Int),
        Column::new("name", "t.name", Kind::Text).never_null(),
        Column::new("state", state_sql!("t"), Kind::Text).unsorted().never_null(),
    ],
    &[Filter::contains("Name", "t.name")],
);

pub static CAMPAIGN_NAMES: Resource = names(
    "report/campaign",
    "CampaignNameRow",
    "Campaign",
    "campaigns",
    "campaigns t",
    &[
        Column::new("id", "t.id", Kind::Int),
        Column::localized("name", ["t.name_az", "t.name_en", "t.name_ru"]).never_null(),
        Column::new("state", state_sql!("t"), Kind::Text).unsorted().never_null(),
    ],
    &[Filter::contains("Name", "(t.name_az || ' ' || t.name_en || ' ' || t.name_ru)")],
);

pub static EMPLOYEE_NAMES: Resource = names(
    "report/employee",
    "EmployeeNameRow",
    "Employee",
    "employees",
    "employees t",
    &[
        Column::new("id", "t.id", Kind::Int),
        Column::new("name", "t.first_name || ' ' || t.last_name", Kind::Text).never_null(),
        Column::new("state", state_sql!("t"), Kind::Text).unsorted().never_null(),
    ],
    &[Filter::contains("Name", "(t.first_name || ' ' || t.last_name)")],
);

/// One kind of report: its `state_counts` kind, its label (sheet and row), its names list and the
/// state as the spreadsheet writes it.
pub struct ReportKind {
    pub kind: &'static str,
    pub label: &'static str,
    pub names: &'static Resource,
    state_label: &'static str,
}

pub static KINDS: [ReportKind; 4] = [
    ReportKind { kind: "asset", label: "Asset", names: &ASSET_NAMES, state_label: state_label_sql!("t") },
    ReportKind { kind: "partner", label: "Partner", names: &PARTNER_NAMES, state_label: state_label_sql!("t") },
    ReportKind { kind: "campaign", label: "Campaign", names: &CAMPAIGN_NAMES, state_label: state_label_sql!("t") },
    ReportKind { kind: "employee", label: "Employee", names: &EMPLOYEE_NAMES, state_label: state_label_sql!("t") },
];

/// A report call's answer.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReportPage {
    /// One page of names.
    #[schema(value_type = Vec<ReportName>)]
    pub data: Vec<Value>,
    /// Names matching the search (for the pager).
    pub total_count: i64,
    pub active_count: i64,
    pub deactive_count: i64,
    pub deleted_count: i64,
    /// active + deactive + deleted: every row of the kind, whatever the search.
    pub all_count: i64,
}

#[derive(Serialize, ToSchema)]
#[allow(dead_code)]
pub struct ReportName {
    id: i64,
    name: String,
    state: RecordState,
}

/// Where a named row stands (the `state` the names list's SQL spells).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
#[allow(dead_code)] // describes the answer for the OpenAPI document; the rows are read as JSON
pub enum RecordState {
    Active,
    Deactive,
    Deleted,
}

/// A kind's rows per state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StateCounts {
    pub active: i64,
    pub deactive: i64,
    pub deleted: i64,
}

impl StateCounts {
    pub fn all(&self) -> i64 {
        self.active + self.deactive + self.deleted
    }
}

const COUNTS_SQL: &str = "SELECT ?1 AS kind,
        COALESCE(SUM(CASE WHEN state = 'active' THEN n END), 0) AS active,
        COALESCE(SUM(CASE WHEN state = 'deactive' THEN n END), 0) AS deactive,
        COALESCE(SUM(CASE WHEN state = 'deleted' THEN n END), 0) AS deleted,
        COALESCE(SUM(n), 0) AS total
     FROM state_counts WHERE kind = ?2";

pub fn state_counts(conn: &Connection, kind: &str) -> AppResult<StateCounts> {
    let counts = conn.prepare_cached(COUNTS_SQL)?.query_row((kind, kind), |r| {
        Ok(StateCounts { active: r.get("active")?, deactive: r.get("deactive")?, deleted: r.get("deleted")? })
    })?;
    Ok(counts)
}

pub fn routes() -> Api {
    let mut api = Api::new();
    for kind in &KINDS {
        let doc =
            Doc::new(TAG, format!("{} names with their state, and the {} counts per state", kind.label, kind.kind))
                .roles(Roles::ANYONE);
        api = api.add(
            Method::GET,
            &format!("/api/{}", kind.names.path),
            get(move |s, q, h| report(kind, s, q, h)),
            crud::list_params(doc, kind.names).returns::<ReportPage>(200),
        );
    }
    api.add(
        Method::GET,
        "/api/report/export/counts",
        get(export_counts),
        Doc::new(TAG, format!("Download {COUNTS_FILE}: active, deactive, deleted and total per kind"))
            .roles(Roles::EDITORS)
            .returns_file(),
    )
    .add(
        Method::GET,
        "/api/report/export",
        get(export_names),
        Doc::new(TAG, format!("Download {NAMES_FILE}: one sheet per kind listing the names with their state"))
            .roles(Roles::EDITORS)
            .returns_file(),
    )
}

async fn report(
    kind: &'static ReportKind,
    State(state): State<AppState>,
    query: QueryMap,
    headers: HeaderMap,
) -> AppResult<Json<ReportPage>> {
    let query = ListQuery::parse(kind.names, &query, Language::from_headers(&headers))?;
    let counts = state.db.counts();
    state
        .db
        .run(move |conn| {
            // One snapshot for the page and the counts.
            let tx = conn.transaction()?;
            let page = crud::fetch_page(&tx, &counts, kind.names, query)?;
            let states = state_counts(&tx, kind.kind)?;
            tx.commit()?;
            Ok(ReportPage {
                data: page.data,
                total_count: page.total_count,
                active_count: states.active,
                deactive_count: states.deactive,
                deleted_count: states.deleted,
                all_count: states.all(),
            })
        })
        .await
        .map(Json)
}

async fn export_counts(State(state): State<AppState>) -> AppResult<Response> {
    let file = state
        .db
        .run(|conn| {
            let tx = conn.transaction()?;
            counts_workbook(&tx)
        })
        .await?;
    crud::file_response(file, COUNTS_FILE).await
}

async fn export_names(State(state): State<AppState>, headers: HeaderMap) -> AppResult<Response> {
    let language = Language::from_headers(&headers);
    let file = state
        .db
        .run(move |conn| {
            let tx = conn.transaction()?;
            names_workbook(&tx, language, &mut |_, _| {})
        })
        .await?;
    crud::file_response(file, NAMES_FILE).await
}

/// `Reports-count.xlsx`: a `Counts` sheet with one row per kind, the counts as numbers.
pub fn counts_workbook(conn: &Connection) -> AppResult<File> {
    let mut sheet = SheetWriter::new("Counts", &["Report", "Active", "Deactive", "Deleted", "Total"])?;
    let columns = [
        Column::new("report", "", Kind::Text),
        Column::new("active", "", Kind::Int),
        Column::new("deactive", "", Kind::Int),
        Column::new("deleted", "", Kind::Int),
        Column::new("total", "", Kind::Int),
    ];
    let columns: Vec<&Column> = columns.iter().collect();
    let mut stmt = conn.prepare_cached(COUNTS_SQL)?;
    for kind in &KINDS {
        let mut rows = stmt.query((kind.label, kind.kind))?;
        if let Some(row) = rows.next()? {
            sheet.write_row(&row, &columns)?;
        }
    }
    sheet.finish()
}

/// `Reports-name.xlsx`: a sheet per kind with every row's id, name (campaigns in `language`)
/// and state, newest first. `progress(kind, rows written)` is told every 1,000 rows and at the
/// end of each sheet.
pub fn names_workbook(
    conn: &Connection,
    language: Language,
    progress: &mut dyn FnMut(&ReportKind, u64),
) -> AppResult<File> {
    const HEADERS: [&str; 3] = ["Id", "Name", "State"];
    let mut sheet: Option<SheetWriter> = None;
    for kind in &KINDS {
        match sheet.as_mut() {
            None => sheet = Some(SheetWriter::new(kind.label, &HEADERS)?),
            Some(writer) => writer.add_sheet(kind.label, &HEADERS)?,
        }
        let Some(writer) = sheet.as_mut() else { continue };
        let name = kind.names.column("name").ok_or_else(|| anyhow::anyhow!("the {} names have no name", kind.kind))?;
        let columns = [Column::new("id", "t.id", Kind::Int), *name, Column::new("state", kind.state_label, Kind::Text)];
        let sql =
            format!("SELECT {} FROM {} ORDER BY t.id DESC", select_sql(columns.iter(), language), kind.names.from);
        let columns: Vec<&Column> = columns.iter().collect();
        let mut stmt = conn.prepare(&sql)?;
        let mut rows = stmt.query_in_batches([])?;
        let mut written: u64 = 0;
        while let Some(row) = rows.next()? {
            writer.write_row(&row, &columns)?;
            written += 1;
            if written.is_multiple_of(1000) {
                progress(kind, written);
            }
        }
        progress(kind, written);
    }
    match sheet {
        Some(writer) => writer.finish(),
        None => Err(anyhow::anyhow!("no report kinds").into()),
    }
}
