//! The campaign writes: create and edit (with images, position and assets), approve and
//! send-notification, each in one transaction.

use crate::crud::writes::{Children, Columns, ImageField, Write, WriteForm};
use crate::db::sql::{Connection, OptionalExtension};
use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde_json::Value;

use crate::core::error::{AppError, AppResult};
use crate::crud;
use crate::crud::events::{self, On};
use crate::db::now_iso;
use crate::http::extract::ApiJson;
use crate::http::files;
use crate::http::forms::Form;
use crate::http::state::AppState;
use crate::resources::campaign_categories::require_category;
use crate::resources::notifications;

use super::*;

/// A campaign's form as stored: the declared fields, the image, and what the writer computes.
pub static CAMPAIGN_FORM: WriteForm = WriteForm {
    resource: &CAMPAIGN_ROWS,
    table: "campaigns",
    fields: CAMPAIGN_FIELDS,
    image: Some(ImageField { names: &["file"], column: "file_id", required_on_create: Some(FILE_REQUIRED) }),
    // The writer reads the rest of the form itself (see `FORM_FIELDS` and `FORM_RULES`).
    extra_parts: &[],
    computed: &[
        // The back office's choice, or the partner whose key sent the campaign.
        "partner_id",
        // The dates as instants in UTC.
        "start_date",
        "expire_date",
        // The second image: an edit without one keeps it.
        "background_file_id",
        // Made in the back office (confirmed) or sent by a partner (waiting for approval).
        "is_confirmed",
        // Placed by `ORDER` once the row is written.
        "order_no",
        // The per-employee limit's period, NULL without that limit (`limits::read_period`).
        "usage_limit_period",
    ],
    children: &[&CAMPAIGN_ASSETS],
};

/// The assets a campaign is offered to: links, replaced whole by each write.
pub static CAMPAIGN_ASSETS: Children =
    Children { table: "campaign_assets", parent: "campaign_id", columns: &["asset_id"] };

/// What a create and an edit both store: the fields, the partner, the dates, the images (an
/// edit without one keeps it) and the assets.
fn write(input: &CampaignInput, file_id: Option<i64>, background_id: Option<i64>) -> Write {
    CAMPAIGN_FORM
        .write(&input.terms)
        .fields(&input.content)
        .fields(&input.flags)
        .fields(&input.limits)
        .set("usage_limit_period", input.period)
        .set("partner_id", input.partner_id)
        .set("start_date", input.start.as_str())
        .set("expire_date", input.expire.as_str())
        .image(file_id)
        .set_or_keep("background_file_id", background_id)
        .children(&CAMPAIGN_ASSETS, input.assets.iter().map(|asset| Columns::new().set("asset_id", *asset)))
}

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
    let id = write(&input, file_id, background_id).set("is_confirmed", confirmed).set("order_no", 0).insert(tx)?;
    ORDER.place(tx, input.category_id, Some(id), input.order)?;
    events::raise(tx, &CAMPAIGN_ROWS, On::Created, id)?;
    Ok(id)
}

pub(super) async fn update(State(state): State<AppState>, form: Form) -> AppResult<Json<Value>> {
    let id = form.id()?;
    let input = read_input(&form, false).await?;
    crud::save_then_fetch(&state, &CAMPAIGN_ROWS, move |tx| {
        let old_category: i64 = tx
            .query_row("SELECT campaign_category_id FROM campaigns WHERE id = ?1 AND deleted_at IS NULL", [id], |r| {
                r.get("campaign_category_id")
            })
            .optional()?
            .ok_or_else(|| CAMPAIGN_ROWS.not_found())?;
        check_references(tx, &input)?;
        let mut input = input;
        let file_id = files::store_upload(tx, input.image.take())?;
        let background_id = files::store_upload(tx, input.background.take())?;
        write(&input, file_id, background_id).update(tx, id)?;
        if old_category != input.category_id {
            // Leaving a category closes its gap; the new one makes room (last without an order).
            ORDER.place(tx, old_category, None, None)?;
            ORDER.place(tx, input.category_id, Some(id), input.order)?;
        } else if input.order.is_some() {
            ORDER.place(tx, input.category_id, Some(id), input.order)?;
        }
        events::raise(tx, &CAMPAIGN_ROWS, On::Updated, id)?;
        Ok(id)
    })
    .await
    .map(Json)
}

pub(super) async fn approve(State(state): State<AppState>, ApiJson(body): ApiJson<Approve>) -> AppResult<Json<Value>> {
    crud::save_then_fetch(&state, &CAMPAIGN_ROWS, move |tx| {
        let confirmed: bool = tx
            .query_row("SELECT is_confirmed FROM campaigns WHERE id = ?1 AND deleted_at IS NULL", [body.id], |r| {
                r.get("is_confirmed")
            })
            .optional()?
            .ok_or_else(|| CAMPAIGN_ROWS.not_found())?;
        if confirmed {
            return Err(AppError::Conflict(ALREADY_APPROVED.into()));
        }
        Columns::new().set("is_confirmed", true).set("updated_at", now_iso()).update(tx, "campaigns", body.id)?;
        events::raise_named(tx, &CAMPAIGN_ROWS, super::CAMPAIGN_APPROVED, body.id)?;
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
                |r| Ok((r.get("name_az")?, r.get("file_id")?, r.get("notification_status")?, r.get("is_confirmed")?)),
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
        Columns::new().set("notification_status", 1).set("updated_at", now_iso()).update(tx, "campaigns", body.id)?;
        Ok(body.id)
    })
    .await
    .map(Json)
}
