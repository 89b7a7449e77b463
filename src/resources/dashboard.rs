//! The dashboard: employee and usage counts, the Top 10 partners, categories and assets, and the
//! uses per month of a year. Every figure is read from the counts migration 7 keeps with triggers
//! (`usage_month_counts`, `usage_category_counts`, `partner_counts`, `asset_counts`,
//! `state_counts`, `row_counts`), never from the usage history itself, so each call costs the
//! same with ten rows or ten million. Deleted rows are left out. Shapes: docs/decisions.md.
//! Issue 41 adds the share of this month's uses the partners confirmed with a redemption code
//! (`usage_verified_month_counts`) and the campaigns that have used up their total limit (the
//! campaigns with a total limit only, through `campaigns_total_limit`, with `campaign_counts`).

use crate::db::sql::{Connection, OptionalExtension};
use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, Method};
use axum::routing::get;
use serde::Serialize;
use time::{Date, OffsetDateTime};
use utoipa::ToSchema;

use super::reports::{self, StateCounts};
use crate::auth::Roles;
use crate::core::error::{AppError, AppResult};
use crate::core::refusals::Audience;
use crate::crud::Language;
use crate::http::api::{Api, Doc, query};
use crate::http::extract::QueryMap;
use crate::http::state::AppState;

const TAG: &str = "Dashboard";
/// Rows in each Top 10 table.
const TOP: i64 = 10;
pub const YEAR_RANGE: &str = "year must be a whole number from 1 to 9999.";

/// `GET dashboard`.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Summary {
    /// Live employees who are active.
    pub active_employee_count: i64,
    /// Live employees who are not active.
    pub deactive_employee_count: i64,
    /// Live employees: active + deactive.
    pub total_employee_count: i64,
    /// Live usage records created in `lastMonth` (UTC).
    pub last_month_usage_count: i64,
    /// Live usage records.
    pub total_usage_count: i64,
    /// The previous calendar month in UTC, e.g. `2026-10`.
    pub last_month: String,
    /// Top 10 Merchant.
    pub partners: Vec<TopPartner>,
}

#[derive(Debug, Serialize, ToSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct TopPartner {
    pub id: i64,
    pub name: String,
    /// Live confirmed campaigns of the partner.
    pub campaigns_count: i64,
    /// Average of the 1–5 ratings on the partner's live usage records (two decimals); null without any.
    pub rating: Option<f64>,
}

#[derive(Debug, Serialize, ToSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct CategoryUsage {
    pub id: i64,
    /// In the `Accept-Language` language.
    pub category_name: String,
    pub usage_count: i64,
}

#[derive(Debug, Serialize, ToSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct AssetEmployees {
    pub asset_id: i64,
    pub asset_name: String,
    /// Live employees of the asset: active + deactive.
    pub employee_count: i64,
    pub active_employee_count: i64,
    pub deactive_employee_count: i64,
    /// Live usage records of the asset.
    pub usage_history_count: i64,
}

#[derive(Debug, Serialize, ToSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct MonthUsage {
    /// 1 (January) to 12.
    pub month: u8,
    pub usage_count: i64,
}

/// `GET dashboard/verification`: this month's uses and how many were confirmed at the till, and
/// the campaigns at their total limit.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Verification {
    /// The current calendar month in UTC, e.g. `2026-11`.
    pub month: String,
    /// Live usage records created this month.
    pub usage_count: i64,
    /// Of them, those the partner confirmed with a redemption code.
    pub verified_count: i64,
    /// verifiedCount of usageCount in percent, one decimal; null without any use this month.
    pub verified_percent: Option<f64>,
    /// Live campaigns whose live uses have reached their total limit, the most recent first (at
    /// most 50; `campaignsAtLimitCount` counts them all).
    pub campaigns_at_limit: Vec<CampaignAtLimit>,
    pub campaigns_at_limit_count: i64,
}

#[derive(Debug, Serialize, ToSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct CampaignAtLimit {
    pub id: i64,
    /// In the `Accept-Language` language.
    pub name: String,
    pub partner_name: String,
    pub uses_count: i64,
    pub usage_limit_total: i64,
}

/// Campaigns at their limit listed at most.
const AT_LIMIT_LISTED: i64 = 50;

/// How the asset tables are ordered.
#[derive(Clone, Copy, Debug)]
pub enum AssetOrder {
    /// `dashboard/usageEmployees`: by usage records.
    Usage,
    /// `dashboard/assetEmployees`: by employees.
    Employees,
}

/// The texts this module's routes refuse with (`core::refusals`).
const REFUSALS: &[&str] = &[YEAR_RANGE];

pub fn routes() -> Api {
    Api::new()
        .refuses(Audience::People, REFUSALS)
        .add(
            Method::GET,
            "/api/dashboard",
            get(summary_call),
            Doc::new(
                TAG,
                "Employee and usage counts (last month: the previous UTC calendar month) and the Top 10 partners",
            )
            .roles(Roles::ANYONE)
            .returns::<Summary>(200),
        )
        .add(
            Method::GET,
            "/api/dashboard/usageCategories",
            get(categories_call),
            Doc::new(TAG, "Top 10 categories by usage records (names in the Accept-Language language)")
                .roles(Roles::ANYONE)
                .returns_list_of::<CategoryUsage>(200),
        )
        .add(
            Method::GET,
            "/api/dashboard/usageEmployees",
            get(usage_employees_call),
            Doc::new(TAG, "Top 10 assets by usage records, with their employee counts")
                .roles(Roles::ANYONE)
                .returns_list_of::<AssetEmployees>(200),
        )
        .add(
            Method::GET,
            "/api/dashboard/assetEmployees",
            get(asset_employees_call),
            Doc::new(TAG, "Top 10 assets by employees, with their usage records")
                .roles(Roles::ANYONE)
                .returns_list_of::<AssetEmployees>(200),
        )
        .add(
            Method::GET,
            "/api/dashboard/usageHistory",
            get(months_call),
            Doc::new(TAG, "Usage records per month of a year (12 entries, UTC months)")
                .roles(Roles::ANYONE)
                .query_schema("year", "The year, 1 to 9999 (default: the current UTC year)", query::int(1, 9999))
                .returns_list_of::<MonthUsage>(200),
        )
        .add(
            Method::GET,
            "/api/dashboard/verification",
            get(verification_call),
            Doc::new(
                TAG,
                "This UTC month's uses and the share confirmed at the till with a redemption code, and the campaigns at their total limit (names in the Accept-Language language)",
            )
            .roles(Roles::ANYONE)
            .returns::<Verification>(200),
        )
}

fn today() -> Date {
    OffsetDateTime::now_utc().date()
}

async fn summary_call(State(state): State<AppState>) -> AppResult<Json<Summary>> {
    let today = today();
    // One snapshot for every figure.
    state
        .db
        .run(move |conn| {
            let tx = conn.transaction()?;
            summary(&tx, today)
        })
        .await
        .map(Json)
}

async fn categories_call(State(state): State<AppState>, headers: HeaderMap) -> AppResult<Json<Vec<CategoryUsage>>> {
    let language = Language::from_headers(&headers);
    state.db.run(move |conn| top_categories(conn, language)).await.map(Json)
}

async fn usage_employees_call(State(state): State<AppState>) -> AppResult<Json<Vec<AssetEmployees>>> {
    state.db.run(|conn| top_assets(conn, AssetOrder::Usage)).await.map(Json)
}

async fn asset_employees_call(State(state): State<AppState>) -> AppResult<Json<Vec<AssetEmployees>>> {
    state.db.run(|conn| top_assets(conn, AssetOrder::Employees)).await.map(Json)
}

async fn months_call(State(state): State<AppState>, query: QueryMap) -> AppResult<Json<Vec<MonthUsage>>> {
    let year = match query.get("year") {
        None => today().year(),
        // Read as every query integer is (`7.0` too), as the document's `year` says.
        Some(raw) => crate::core::validation::parse_whole(raw)
            .filter(|y| (1..=9999).contains(y))
            .and_then(|y| i32::try_from(y).ok())
            .ok_or_else(|| AppError::BadRequest(YEAR_RANGE.into()))?,
    };
    state.db.run(move |conn| usage_by_month(conn, year)).await.map(Json)
}

async fn verification_call(State(state): State<AppState>, headers: HeaderMap) -> AppResult<Json<Verification>> {
    let language = Language::from_headers(&headers);
    let today = today();
    state
        .db
        .run(move |conn| {
            let tx = conn.transaction()?;
            verification(&tx, today, language)
        })
        .await
        .map(Json)
}

/// The calendar month before `today`'s, as stored month keys are written (`2026-10`); in
/// January, December of the year before.
pub fn previous_month(today: Date) -> String {
    let first = today.replace_day(1).unwrap_or(today);
    let last_of_previous = first.previous_day().unwrap_or(first);
    month_key(last_of_previous.year(), u8::from(last_of_previous.month()))
}

fn month_key(year: i32, month: u8) -> String {
    format!("{year:04}-{month:02}")
}

/// `GET dashboard` as of `today` (UTC).
pub fn summary(conn: &Connection, today: Date) -> AppResult<Summary> {
    // The employees' counts as the reports read them.
    let StateCounts { active, deactive, .. } = reports::state_counts(conn, "employee")?;
    let total_usage: i64 = conn
        .prepare_cached("SELECT n FROM row_counts WHERE name = 'usage_history'")?
        .query_row([], |r| r.get("n"))
        .optional()?
        .unwrap_or(0);
    let last_month = previous_month(today);
    let last_month_usage: i64 = conn
        .prepare_cached("SELECT n FROM usage_month_counts WHERE month = ?1")?
        .query_row([&last_month], |r| r.get("n"))
        .optional()?
        .unwrap_or(0);
    Ok(Summary {
        active_employee_count: active,
        deactive_employee_count: deactive,
        total_employee_count: active + deactive,
        last_month_usage_count: last_month_usage,
        total_usage_count: total_usage,
        last_month,
        partners: top_partners(conn)?,
    })
}

/// Live partners by live confirmed campaigns, then average rating (none last), name and id.
pub fn top_partners(conn: &Connection) -> AppResult<Vec<TopPartner>> {
    let mut stmt = conn.prepare_cached(
        "SELECT p.id, p.name, COALESCE(s.campaigns, 0) AS campaigns, s.rating_sum, s.ratings
         FROM partners p LEFT JOIN partner_counts s ON s.partner_id = p.id
         WHERE p.deleted_at IS NULL
         ORDER BY campaigns DESC,
                  CASE WHEN s.ratings > 0 THEN CAST(s.rating_sum AS REAL) / s.ratings END DESC NULLS LAST,
                  p.name COLLATE az, p.id
         LIMIT ?1",
    )?;
    let rows = stmt.query_map([TOP], |r| {
        let sum: Option<i64> = r.get("rating_sum")?;
        let count: Option<i64> = r.get("ratings")?;
        let rating = match (sum, count) {
            (Some(sum), Some(count)) if count > 0 => Some((sum as f64 / count as f64 * 100.0).round() / 100.0),
            _ => None,
        };
        Ok(TopPartner { id: r.get("id")?, name: r.get("name")?, campaigns_count: r.get("campaigns")?, rating })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Live categories by live usage records, then name (in `language`) and id.
pub fn top_categories(conn: &Connection, language: Language) -> AppResult<Vec<CategoryUsage>> {
    let name = match language {
        Language::Az => "c.name_az",
        Language::En => "c.name_en",
        Language::Ru => "c.name_ru",
    };
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT c.id, {name} AS name, COALESCE(s.n, 0) AS uses
         FROM campaign_categories c LEFT JOIN usage_category_counts s ON s.category_id = c.id
         WHERE c.deleted_at IS NULL
         ORDER BY uses DESC, name, c.id
         LIMIT ?1"
    ))?;
    let rows = stmt.query_map([TOP], |r| {
        Ok(CategoryUsage { id: r.get("id")?, category_name: r.get("name")?, usage_count: r.get("uses")? })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Live assets with their live employees and usage records, the Top 10 by `order`.
pub fn top_assets(conn: &Connection, order: AssetOrder) -> AppResult<Vec<AssetEmployees>> {
    let by = match order {
        AssetOrder::Usage => "uses",
        AssetOrder::Employees => "employees",
    };
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT a.id, a.name, COALESCE(s.active_employees, 0) AS active, COALESCE(s.deactive_employees, 0) AS deactive,
                COALESCE(s.active_employees, 0) + COALESCE(s.deactive_employees, 0) AS employees,
                COALESCE(s.uses, 0) AS uses
         FROM assets a LEFT JOIN asset_counts s ON s.asset_id = a.id
         WHERE a.deleted_at IS NULL
         ORDER BY {by} DESC, a.name, a.id
         LIMIT ?1"
    ))?;
    let rows = stmt.query_map([TOP], |r| {
        Ok(AssetEmployees {
            asset_id: r.get("id")?,
            asset_name: r.get("name")?,
            active_employee_count: r.get("active")?,
            deactive_employee_count: r.get("deactive")?,
            employee_count: r.get("employees")?,
            usage_history_count: r.get("uses")?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Live usage records per UTC month of `year`, all twelve months.
pub fn usage_by_month(conn: &Connection, year: i32) -> AppResult<Vec<MonthUsage>> {
    let mut months: Vec<MonthUsage> = (1..=12).map(|month| MonthUsage { month, usage_count: 0 }).collect();
    let mut stmt = conn.prepare_cached("SELECT month, n FROM usage_month_counts WHERE month BETWEEN ?1 AND ?2")?;
    let mut rows = stmt.query((month_key(year, 1), month_key(year, 12)))?;
    while let Some(row) = rows.next()? {
        let key: String = row.get("month")?;
        let month = key.get(5..7).and_then(|m| m.parse::<usize>().ok()).filter(|m| (1..=12).contains(m));
        if let Some(month) = month {
            months[month - 1].usage_count += row.get::<i64>("n")?;
        }
    }
    Ok(months)
}

/// `GET dashboard/verification` as of `today` (UTC), campaign names in `language`.
pub fn verification(conn: &Connection, today: Date, language: Language) -> AppResult<Verification> {
    let month = month_key(today.year(), u8::from(today.month()));
    let count = |table: &str| -> AppResult<i64> {
        Ok(conn
            .prepare_cached(&format!("SELECT n FROM {table} WHERE month = ?1"))?
            .query_row([&month], |r| r.get("n"))
            .optional()?
            .unwrap_or(0))
    };
    let usage_count = count("usage_month_counts")?;
    let verified_count = count("usage_verified_month_counts")?;
    let verified_percent =
        (usage_count > 0).then(|| (verified_count as f64 * 1000.0 / usage_count as f64).round() / 10.0);
    let name = match language {
        Language::Az => "c.name_az",
        Language::En => "c.name_en",
        Language::Ru => "c.name_ru",
    };
    // Only the campaigns with a total limit are read (the partial index), each with its kept count.
    const AT_LIMIT: &str = "FROM campaigns c JOIN campaign_counts n ON n.campaign_id = c.id
         JOIN partners p ON p.id = c.partner_id
         WHERE c.usage_limit_total IS NOT NULL AND c.deleted_at IS NULL AND n.uses >= c.usage_limit_total";
    let campaigns_at_limit_count: i64 =
        conn.prepare_cached(&format!("SELECT COUNT(*) AS n {AT_LIMIT}"))?.query_row([], |r| r.get("n"))?;
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT c.id, {name} AS name, p.name AS partner_name, n.uses, c.usage_limit_total
         {AT_LIMIT}
         ORDER BY c.id DESC LIMIT ?1"
    ))?;
    let campaigns_at_limit = stmt
        .query_map([AT_LIMIT_LISTED], |r| {
            Ok(CampaignAtLimit {
                id: r.get("id")?,
                name: r.get("name")?,
                partner_name: r.get("partner_name")?,
                uses_count: r.get("uses")?,
                usage_limit_total: r.get("usage_limit_total")?,
            })
        })?
        .collect::<Result<_, _>>()?;
    Ok(Verification {
        month,
        usage_count,
        verified_count,
        verified_percent,
        campaigns_at_limit,
        campaigns_at_limit_count,
    })
}
