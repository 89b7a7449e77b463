//! The pickers other screens load from campaigns: order positions, notification targets and
//! a partner's campaigns for promo codes.

use crate::db::sql::Value as SqlValue;
use crate::db::sql::{Connection, OptionalExtension, params_from_iter};
use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use crate::core::error::{AppError, AppResult};
use crate::core::validation;
use crate::crud::{self, Language, ListPage, Sql};
use crate::db::CountCache;
use crate::http::extract::QueryMap;
use crate::http::state::AppState;

use super::*;

/// `Skip`/`Take` as the lists read them: without both, up to [`crud::UNPAGED_LIMIT`] rows.
pub(crate) fn paging(query: &QueryMap) -> AppResult<(i64, i64)> {
    let skip = query.int("Skip")?.unwrap_or(0);
    if skip < 0 {
        return Err(AppError::BadRequest("Skip must be 0 or more.".into()));
    }
    let take = match query.int("Take")? {
        None if query.get("Skip").is_some() => 10,
        None => crud::UNPAGED_LIMIT,
        Some(take) if (1..=crud::MAX_PAGE).contains(&take) => take,
        Some(_) => return Err(AppError::BadRequest(format!("Take must be between 1 and {}.", crud::MAX_PAGE))),
    };
    Ok((skip, take))
}

/// A picker's rows: `SELECT {select} FROM {table} {joins} WHERE {condition} {order}`.
pub(super) struct Picker<'a> {
    select: &'a str,
    table: &'a str,
    /// Joins the selected columns need; the total is counted without them.
    joins: &'a str,
    condition: &'a str,
    order: &'a str,
}

impl Picker<'_> {
    /// One page and its total, the total remembered until the database changes (as list totals).
    fn page(
        &self,
        conn: &Connection,
        counts: &CountCache,
        params: Vec<SqlValue>,
        (skip, take): (i64, i64),
        row: impl Fn(&crate::db::sql::Row) -> crate::db::sql::Result<Value>,
    ) -> AppResult<ListPage> {
        let count_sql = format!("SELECT COUNT(*) AS n FROM {} WHERE {}", self.table, self.condition);
        let total_count = counts.total(format!("{count_sql} {params:?}"), || {
            Ok(conn.prepare_cached(&count_sql)?.query_row(params_from_iter(params.iter()), |r| r.get("n"))?)
        })?;
        if skip >= total_count {
            return Ok(ListPage { data: vec![], total_count });
        }
        let sql = format!(
            "SELECT {} FROM {} {} WHERE {} {} LIMIT {take} OFFSET {skip}",
            self.select, self.table, self.joins, self.condition, self.order
        );
        let data = conn
            .prepare_cached(&sql)?
            .query_map(params_from_iter(params.iter()), |r| row(r))?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(ListPage { data, total_count })
    }
}

/// A category's positions: the same for every caller, asked for by every campaign form, and large
/// (a category may hold hundreds), so the whole answer is remembered until the database changes.
pub(super) async fn order_options(
    State(state): State<AppState>,
    query: QueryMap,
    headers: HeaderMap,
    category_required: bool,
) -> AppResult<Response> {
    let category = query.int("categoryId")?;
    if category_required && category.is_none() {
        return Err(AppError::field("categoryId", CATEGORY_REQUIRED));
    }
    let paging = paging(&query)?;
    let name = NAME.for_language(Language::from_headers(&headers));
    let counts = state.db.counts();
    let key = format!("campaignOrders {category:?} {paging:?} {name:?}");
    let answer = state
        .db
        .run(move |conn| {
            counts.answer(key, || {
                let (condition, params) = match category {
                    Some(id) => ("c.deleted_at IS NULL AND c.campaign_category_id = ?1", vec![SqlValue::Integer(id)]),
                    None => ("c.deleted_at IS NULL", vec![]),
                };
                let picker = Picker {
                    select: &format!(
                        "c.id, c.order_no, p.name AS partner_name, {name} AS campaign_name, c.campaign_category_id,
                         c.is_active, c.is_confirmed"
                    ),
                    table: "campaigns c",
                    joins: "JOIN partners p ON p.id = c.partner_id",
                    condition,
                    order: "ORDER BY c.campaign_category_id, c.order_no, c.id",
                };
                let page = picker.page(conn, &counts, params, paging, |r| {
                    Ok(json!({
                        "id": r.get::<i64>("id")?,
                        "order": r.get::<i64>("order_no")?,
                        "partnerName": r.get::<String>("partner_name")?,
                        "campaignName": r.get::<String>("campaign_name")?,
                        "campaignCategoryId": r.get::<i64>("campaign_category_id")?,
                        "isActive": r.get::<bool>("is_active")?,
                        "isConfirmed": r.get::<bool>("is_confirmed")?,
                    }))
                })?;
                Ok(serde_json::to_vec(&page).map_err(anyhow::Error::from)?)
            })
        })
        .await?;
    Ok(([(header::CONTENT_TYPE, "application/json")], axum::body::Bytes::from_owner(answer)).into_response())
}

pub(super) async fn notification_categories(
    State(state): State<AppState>,
    query: QueryMap,
    headers: HeaderMap,
) -> AppResult<Json<ListPage>> {
    let paging = paging(&query)?;
    let name = Sql::Localized(["name_az", "name_en", "name_ru"]).for_language(Language::from_headers(&headers));
    let counts = state.db.counts();
    state
        .db
        .run(move |conn| {
            let picker = Picker {
                select: &format!("id, {name} AS name, name_az"),
                table: "campaign_categories",
                joins: "",
                condition: "deleted_at IS NULL AND is_active = 1",
                order: "ORDER BY order_no, id",
            };
            picker.page(conn, &counts, vec![], paging, choice)
        })
        .await
        .map(Json)
}

pub(super) async fn notification_campaigns(
    State(state): State<AppState>,
    query: QueryMap,
    headers: HeaderMap,
) -> AppResult<Json<ListPage>> {
    let paging = paging(&query)?;
    let name = NAME.for_language(Language::from_headers(&headers));
    let term = query.get("name").map(str::to_string);
    if let Some(term) = &term {
        validation::refuse_control_characters("name", term)?;
    }
    let counts = state.db.counts();
    state
        .db
        .run(move |conn| {
            let live = "c.deleted_at IS NULL AND c.is_confirmed = 1 AND c.is_active = 1";
            let (condition, params) = match term {
                Some(term) => (
                    format!("{live} AND contains_text(c.name_az || ' ' || c.name_en || ' ' || c.name_ru, ?1)"),
                    vec![SqlValue::Text(term)],
                ),
                None => (live.to_string(), vec![]),
            };
            let picker = Picker {
                select: &format!("c.id, {name} AS name, c.name_az, p.name AS partner_name"),
                table: "campaigns c",
                joins: "JOIN partners p ON p.id = c.partner_id",
                condition: &condition,
                order: "ORDER BY c.id DESC",
            };
            picker.page(conn, &counts, params, paging, |r| {
                Ok(json!({
                    "id": r.get::<i64>("id")?, "name": r.get::<String>("name")?,
                    "nameAz": r.get::<String>("name_az")?, "partnerName": r.get::<String>("partner_name")?,
                }))
            })
        })
        .await
        .map(Json)
}

pub(super) async fn promo_campaigns(
    State(state): State<AppState>,
    query: QueryMap,
    headers: HeaderMap,
) -> AppResult<Json<ListPage>> {
    let partner = query.int("partnerId")?.ok_or_else(|| AppError::field("partnerId", PARTNER_REQUIRED))?;
    let paging = paging(&query)?;
    let name = NAME.for_language(Language::from_headers(&headers));
    let counts = state.db.counts();
    state
        .db
        .run(move |conn| {
            let exists = conn
                .query_row("SELECT 1 FROM partners WHERE id = ?1 AND deleted_at IS NULL", [partner], |_| Ok(()))
                .optional()?;
            exists.ok_or_else(|| AppError::NotFound("Partner not found.".into()))?;
            let picker = Picker {
                select: &format!("c.id, {name} AS name, c.name_az"),
                table: "campaigns c",
                joins: "",
                condition: "c.deleted_at IS NULL AND c.is_confirmed = 1 AND c.partner_id = ?1",
                order: "ORDER BY c.id DESC",
            };
            picker.page(conn, &counts, vec![SqlValue::Integer(partner)], paging, choice)
        })
        .await
        .map(Json)
}

/// A choice of a picker that names a row in the caller's language and in Azerbaijani: its `id`,
/// `name` and `name_az`.
fn choice(r: &crate::db::sql::Row) -> crate::db::sql::Result<Value> {
    Ok(json!({"id": r.get::<i64>("id")?, "name": r.get::<String>("name")?, "nameAz": r.get::<String>("name_az")?}))
}
