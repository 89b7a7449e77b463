//! The campaign writes: create and edit (with images, position and assets), approve and
//! send-notification, each in one transaction.

use crate::db::sql::{Connection, OptionalExtension, ToSql};
use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde_json::Value;

use crate::core::error::{AppError, AppResult};
use crate::crud;
use crate::db::now_iso;
use crate::http::extract::ApiJson;
use crate::http::files;
use crate::http::forms::Form;
use crate::http::state::AppState;
use crate::resources::campaign_categories::require_category;
use crate::resources::notifications;

use super::*;

/// The partner, category and assets a form names exist (and are not deleted).
pub(super) fn check_references(tx: &Connection, input: &CampaignInput) -> AppResult<()> {
    let partner = tx
        .query_row("SELECT 1 FROM partners WHERE id = ?1 AND deleted_at IS NULL", [input.partner_id], |_| Ok(()))
        .optional()?;
    partner
        .ok_or_else(|| AppError::no_such("partnerId", format!("There is no partner with id {}.", input.partner_id)))?;
    require_category(tx, "campaignCategoryId", input.category_id)?;
    let mut asset = tx.prepare_cached("SELECT 1 FROM assets WHERE id = ?1 AND deleted_at IS NULL")?;
    for id in &input.assets {
        if asset.query_row([id], |_| Ok(())).optional()?.is_none() {
            return Err(AppError::no_such("assets", format!("There is no asset with id {id}.")));
        }
    }
    Ok(())
}

/// Removes the campaign's links to its assets (the campaign is deleted for good).
pub(super) fn unlink_campaign(tx: &Connection, campaign_id: i64) -> AppResult<()> {
    tx.execute("DELETE FROM campaign_assets WHERE campaign_id = ?1", [campaign_id])?;
    Ok(())
}

/// Removes every campaign's link to the asset (the asset is deleted for good).
pub fn unlink_asset(tx: &Connection, asset_id: i64) -> AppResult<()> {
    tx.execute("DELETE FROM campaign_assets WHERE asset_id = ?1", [asset_id])?;
    Ok(())
}

pub(super) fn link_assets(tx: &Connection, campaign_id: i64, assets: &[i64]) -> AppResult<()> {
    unlink_campaign(tx, campaign_id)?;
    let mut insert = tx.prepare_cached("INSERT INTO campaign_assets (campaign_id, asset_id) VALUES (?1, ?2)")?;
    for asset in assets {
        insert.execute((campaign_id, asset))?;
    }
    Ok(())
}

pub(super) async fn create(State(state): State<AppState>, form: Form) -> AppResult<(StatusCode, Json<Value>)> {
    let input = read_input(&form, true).await?;
    // Made in the back office, so confirmed.
    let row = crud::save_then_fetch(&state, &CAMPAIGN_ROWS, move |tx| insert(tx, input, true)).await?;
    Ok((StatusCode::CREATED, Json(row)))
}

/// Stores a new campaign (confirmed when made in the back office, unconfirmed when a partner
/// sent it) with its images, position and assets, in the caller's transaction.
pub(crate) fn insert(tx: &Connection, input: CampaignInput, confirmed: bool) -> AppResult<i64> {
    check_references(tx, &input)?;
    let mut input = input;
    let file_id = files::store_upload(tx, input.image.take())?;
    let background_id = files::store_upload(tx, input.background.take())?;
    // Its position is set by ORDER below.
    let mut columns = input.columns(&file_id, &background_id);
    columns.push(&confirmed);
    let id = tx.insert(
        "INSERT INTO campaigns (partner_id, campaign_category_id, discount_percent, start_date, expire_date,
                                    file_id, background_file_id, name_az, name_en, name_ru,
                                    description_az, description_en, description_ru,
                                    special_offer, is_premium, is_trend, is_confirmed, order_no)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, 0)",
        columns.as_slice(),
    )?;
    ORDER.place(tx, input.category_id, Some(id), input.order)?;
    link_assets(tx, id, &input.assets)?;
    Ok(id)
}

pub(super) async fn update(State(state): State<AppState>, form: Form) -> AppResult<Json<Value>> {
    let id = form.id()?;
    let input = read_input(&form, false).await?;
    crud::save_then_fetch(&state, &CAMPAIGN_ROWS, move |tx| {
        let old_category: i64 = tx
            .query_row("SELECT campaign_category_id FROM campaigns WHERE id = ?1 AND deleted_at IS NULL", [id], |r| {
                r.get(0)
            })
            .optional()?
            .ok_or_else(|| CAMPAIGN_ROWS.not_found())?;
        check_references(tx, &input)?;
        let mut input = input;
        let file_id = files::store_upload(tx, input.image.take())?;
        let background_id = files::store_upload(tx, input.background.take())?;
        let now = now_iso();
        let mut columns = input.columns(&file_id, &background_id);
        columns.extend([&id as &dyn ToSql, &now]);
        tx.execute(
            "UPDATE campaigns SET partner_id = ?1, campaign_category_id = ?2,
                    discount_percent = ?3, start_date = ?4, expire_date = ?5,
                    file_id = COALESCE(?6, file_id), background_file_id = COALESCE(?7, background_file_id),
                    name_az = ?8, name_en = ?9, name_ru = ?10,
                    description_az = ?11, description_en = ?12,
                    description_ru = ?13, special_offer = ?14, is_premium = ?15,
                    is_trend = ?16, updated_at = ?18
             WHERE id = ?17",
            columns.as_slice(),
        )?;
        if old_category != input.category_id {
            // Leaving a category closes its gap; the new one makes room (last without an order).
            ORDER.place(tx, old_category, None, None)?;
            ORDER.place(tx, input.category_id, Some(id), input.order)?;
        } else if input.order.is_some() {
            ORDER.place(tx, input.category_id, Some(id), input.order)?;
        }
        link_assets(tx, id, &input.assets)?;
        Ok(id)
    })
    .await
    .map(Json)
}

pub(super) async fn approve(State(state): State<AppState>, ApiJson(body): ApiJson<Approve>) -> AppResult<Json<Value>> {
    crud::save_then_fetch(&state, &CAMPAIGN_ROWS, move |tx| {
        let confirmed: bool = tx
            .query_row("SELECT is_confirmed FROM campaigns WHERE id = ?1 AND deleted_at IS NULL", [body.id], |r| {
                r.get(0)
            })
            .optional()?
            .ok_or_else(|| CAMPAIGN_ROWS.not_found())?;
        if confirmed {
            return Err(AppError::Conflict(ALREADY_APPROVED.into()));
        }
        tx.execute("UPDATE campaigns SET is_confirmed = 1, updated_at = ?2 WHERE id = ?1", (body.id, now_iso()))?;
        Ok(body.id)
    })
    .await
    .map(Json)
}

pub(super) async fn send_notification(
    State(state): State<AppState>,
    ApiJson(body): ApiJson<NotificationRequest>,
) -> AppResult<Json<Value>> {
    let text = body.text.trim().to_string();
    if text.is_empty() {
        return Err(AppError::field("text", TEXT_REQUIRED));
    }
    crud::save_then_fetch(&state, &CAMPAIGN_ROWS, move |tx| {
        let (header, file_id, status, confirmed): (String, Option<i64>, i64, bool) = tx
            .query_row(
                "SELECT name_az, file_id, notification_status, is_confirmed FROM campaigns
                 WHERE id = ?1 AND deleted_at IS NULL",
                [body.id],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
            )
            .optional()?
            .ok_or_else(|| CAMPAIGN_ROWS.not_found())?;
        if status != 0 {
            return Err(AppError::Conflict(ALREADY_SENT.into()));
        }
        if !confirmed {
            return Err(AppError::Conflict(NOT_APPROVED_YET.into()));
        }
        // The notification is headed by the campaign's name and shows the campaign's image.
        notifications::insert_for_campaign(tx, &header, &text, file_id, body.id)?;
        tx.execute(
            "UPDATE campaigns SET notification_status = 1, updated_at = ?2 WHERE id = ?1",
            (body.id, now_iso()),
        )?;
        Ok(body.id)
    })
    .await
    .map(Json)
}
