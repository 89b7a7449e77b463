//! What the app shows an employee: the campaigns offered to their asset and the notifications.

use axum::Json;
use axum::extract::State;
use serde_json::{Value, json};

use crate::core::error::AppResult;
use crate::crud::ListPage;
use crate::db::now_iso;
use crate::http::extract::QueryMap;
use crate::http::files::FILE_PATH_SQL;
use crate::http::state::AppState;
use crate::resources::campaigns::{limits, paging};
use crate::resources::partners;

use super::{EMPLOYEE_PARAM, active_employee, cdn, employee_param, language};

/// Campaigns the app offers: live, confirmed, active and unexpired, of a live, active partner
/// and category, linked to the employee's asset (`?1`); `?2` is now.
const OFFERED: &str = "FROM campaigns c JOIN campaign_assets ca ON ca.campaign_id = c.id AND ca.asset_id = ?1
     JOIN partners p ON p.id = c.partner_id JOIN campaign_categories cc ON cc.id = c.campaign_category_id
     LEFT JOIN files f ON f.id = c.file_id
     WHERE c.deleted_at IS NULL AND c.is_confirmed = 1 AND c.is_active = 1 AND c.expire_date > ?2
       AND p.deleted_at IS NULL AND p.is_active = 1 AND cc.deleted_at IS NULL AND cc.is_active = 1";

pub(super) async fn campaigns(State(state): State<AppState>, query: QueryMap) -> AppResult<Json<ListPage>> {
    let language = language(&query)?;
    let email = employee_param(&query)?;
    let (skip, take) = paging(&query)?;
    let lang = ["az", "en", "ru"][language as usize - 1];
    let zone = state.settings.time_zone.clone();
    state
        .db
        .run(move |conn| {
            let employee = active_employee(conn, EMPLOYEE_PARAM, &email)?;
            let now = now_iso();
            let total_count: i64 = conn
                .prepare_cached(&format!("SELECT COUNT(*) AS n {OFFERED}"))?
                .query_row((employee.asset_id, &now), |r| r.get("n"))?;
            let sql = format!(
                "SELECT c.id, c.name_{lang} AS name, c.description_{lang} AS description, c.discount_percent,
                        c.start_date, c.expire_date, c.special_offer, c.is_premium, c.is_trend, c.verified_only,
                        c.usage_limit_total IS NOT NULL OR c.usage_limit_per_employee IS NOT NULL AS limited,
                        {FILE_PATH_SQL} AS file_path,
                        (SELECT {FILE_PATH_SQL} FROM files f WHERE f.id = c.background_file_id)
                            AS background_file_path,
                        p.id AS partner_id, p.name AS partner_name,
                        (SELECT {FILE_PATH_SQL} FROM files f WHERE f.id = p.file_id) AS partner_file_path,
                        cc.id AS category_id, cc.name_{lang} AS category_name
                 {OFFERED} ORDER BY cc.order_no, cc.id, c.order_no, c.id LIMIT ?3 OFFSET ?4"
            );
            let mut rows: Vec<(i64, bool, Value)> = conn
                .prepare_cached(&sql)?
                .query_map((employee.asset_id, &now, take, skip), |r| {
                    let partner_id: i64 = r.get("partner_id")?;
                    Ok((
                        partner_id,
                        r.get::<bool>("limited")?,
                        json!({
                            "id": r.get::<i64>("id")?,
                            "name": r.get::<String>("name")?,
                            "description": r.get::<String>("description")?,
                            "discountPercent": r.get::<i64>("discount_percent")?,
                            "startDate": r.get::<String>("start_date")?,
                            "expireDate": r.get::<String>("expire_date")?,
                            "specialOffer": r.get::<bool>("special_offer")?,
                            "isPremium": r.get::<bool>("is_premium")?,
                            "isTrend": r.get::<bool>("is_trend")?,
                            "verifiedOnly": r.get::<bool>("verified_only")?,
                            "filePath": cdn(r.get("file_path")?),
                            "backgroundFilePath": cdn(r.get("background_file_path")?),
                            "partner": {
                                "id": partner_id,
                                "name": r.get::<String>("partner_name")?,
                                "filePath": cdn(r.get("partner_file_path")?),
                            },
                            "category": {"id": r.get::<i64>("category_id")?, "name": r.get::<String>("category_name")?},
                        }),
                    ))
                })?
                .collect::<Result<_, _>>()?;
            let mut data = Vec::with_capacity(rows.len());
            let at = time::OffsetDateTime::now_utc();
            for (partner_id, limited, row) in rows.iter_mut() {
                row["branches"] = Value::Array(partners::branches(conn, *partner_id, language)?);
                // What the campaign's limits leave the employee now; null when it has none.
                let campaign = row["id"].as_i64().unwrap_or_default();
                let remaining =
                    if *limited { limits::remaining_for(conn, campaign, employee.id, &zone, at)? } else { None };
                row["remainingForEmployee"] = remaining.map_or(Value::Null, Value::from);
                data.push(row.take());
            }
            Ok(ListPage { data, total_count })
        })
        .await
        .map(Json)
}

/// The notifications an employee sees: `?1` is their asset.
const SEEN: &str = "FROM notifications n LEFT JOIN files f ON f.id = n.file_id
     WHERE n.deleted_at IS NULL AND (n.type = 1 OR EXISTS (
           SELECT 1 FROM campaign_assets ca WHERE ca.campaign_id = n.campaign_id AND ca.asset_id = ?1))";

pub(super) async fn notifications(State(state): State<AppState>, query: QueryMap) -> AppResult<Json<ListPage>> {
    let email = employee_param(&query)?;
    let (skip, take) = paging(&query)?;
    state
        .db
        .run(move |conn| {
            let employee = active_employee(conn, EMPLOYEE_PARAM, &email)?;
            let total_count: i64 = conn
                .prepare_cached(&format!("SELECT COUNT(*) AS n {SEEN}"))?
                .query_row([employee.asset_id], |r| r.get("n"))?;
            let data = conn
                .prepare_cached(&format!(
                    "SELECT n.id, n.header, n.text, n.type, {FILE_PATH_SQL} AS file_path, n.category_id, n.campaign_id,
                            n.created_at
                     {SEEN} ORDER BY n.id DESC LIMIT ?2 OFFSET ?3"
                ))?
                .query_map((employee.asset_id, take, skip), |r| {
                    Ok(json!({
                        "id": r.get::<i64>("id")?,
                        "header": r.get::<String>("header")?,
                        "text": r.get::<String>("text")?,
                        "type": r.get::<i64>("type")?,
                        "filePath": cdn(r.get("file_path")?),
                        "categoryId": r.get::<Option<i64>>("category_id")?,
                        "campaignId": r.get::<Option<i64>>("campaign_id")?,
                        "createdAt": r.get::<String>("created_at")?,
                    }))
                })?
                .collect::<Result<Vec<_>, _>>()?;
            Ok(ListPage { data, total_count })
        })
        .await
        .map(Json)
}
