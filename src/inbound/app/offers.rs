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
use crate::resources::campaigns::paging;

use super::{active_employee, cdn, employee_param, language};

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
    state
        .db
        .run(move |conn| {
            let employee = active_employee(conn, "employee", &email)?;
            let now = now_iso();
            let total_count: i64 = conn
                .prepare_cached(&format!("SELECT COUNT(*) {OFFERED}"))?
                .query_row((employee.asset_id, &now), |r| r.get(0))?;
            let sql = format!(
                "SELECT c.id, c.name_{lang}, c.description_{lang}, c.discount_percent, c.start_date, c.expire_date,
                        c.special_offer, c.is_premium, c.is_trend, {FILE_PATH_SQL},
                        (SELECT {FILE_PATH_SQL} FROM files f WHERE f.id = c.background_file_id),
                        p.id, p.name, (SELECT {FILE_PATH_SQL} FROM files f WHERE f.id = p.file_id),
                        cc.id, cc.name_{lang}
                 {OFFERED} ORDER BY cc.order_no, cc.id, c.order_no, c.id LIMIT ?3 OFFSET ?4"
            );
            let mut rows: Vec<(i64, Value)> = conn
                .prepare_cached(&sql)?
                .query_map((employee.asset_id, &now, take, skip), |r| {
                    let partner_id: i64 = r.get(11)?;
                    Ok((
                        partner_id,
                        json!({
                            "id": r.get::<i64>(0)?,
                            "name": r.get::<String>(1)?,
                            "description": r.get::<String>(2)?,
                            "discountPercent": r.get::<i64>(3)?,
                            "startDate": r.get::<String>(4)?,
                            "expireDate": r.get::<String>(5)?,
                            "specialOffer": r.get::<bool>(6)?,
                            "isPremium": r.get::<bool>(7)?,
                            "isTrend": r.get::<bool>(8)?,
                            "filePath": cdn(r.get(9)?),
                            "backgroundFilePath": cdn(r.get(10)?),
                            "partner": {"id": partner_id, "name": r.get::<String>(12)?, "filePath": cdn(r.get(13)?)},
                            "category": {"id": r.get::<i64>(14)?, "name": r.get::<String>(15)?},
                        }),
                    ))
                })?
                .collect::<Result<_, _>>()?;
            let mut branches = conn.prepare_cached(&format!(
                "SELECT pc.id, pc.city_id, ci.name_{lang}, pc.address, pc.latitude, pc.longitude
                 FROM partner_cities pc JOIN cities ci ON ci.id = pc.city_id
                 WHERE pc.partner_id = ?1 AND pc.deleted_at IS NULL ORDER BY pc.id"
            ))?;
            let mut data = Vec::with_capacity(rows.len());
            for (partner_id, row) in rows.iter_mut() {
                let list: Vec<Value> = branches
                    .query_map([*partner_id], |r| {
                        Ok(json!({
                            "id": r.get::<i64>(0)?,
                            "cityId": r.get::<i64>(1)?,
                            "cityName": r.get::<String>(2)?,
                            "address": r.get::<String>(3)?,
                            "latitude": r.get::<f64>(4)?,
                            "longitude": r.get::<f64>(5)?,
                        }))
                    })?
                    .collect::<Result<_, _>>()?;
                row["branches"] = Value::Array(list);
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
            let employee = active_employee(conn, "employee", &email)?;
            let total_count: i64 = conn
                .prepare_cached(&format!("SELECT COUNT(*) {SEEN}"))?
                .query_row([employee.asset_id], |r| r.get(0))?;
            let data = conn
                .prepare_cached(&format!(
                    "SELECT n.id, n.header, n.text, n.type, {FILE_PATH_SQL}, n.category_id, n.campaign_id, n.created_at
                     {SEEN} ORDER BY n.id DESC LIMIT ?2 OFFSET ?3"
                ))?
                .query_map((employee.asset_id, take, skip), |r| {
                    Ok(json!({
                        "id": r.get::<i64>(0)?,
                        "header": r.get::<String>(1)?,
                        "text": r.get::<String>(2)?,
                        "type": r.get::<i64>(3)?,
                        "filePath": cdn(r.get(4)?),
                        "categoryId": r.get::<Option<i64>>(5)?,
                        "campaignId": r.get::<Option<i64>>(6)?,
                        "createdAt": r.get::<String>(7)?,
                    }))
                })?
                .collect::<Result<Vec<_>, _>>()?;
            Ok(ListPage { data, total_count })
        })
        .await
        .map(Json)
}
