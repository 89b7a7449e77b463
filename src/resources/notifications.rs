//! Notifications to employees about a category (type 1) or a campaign (type 2): the generic list,
//! filter by header, detail, delete and export, plus multipart create and edit with an image.

use axum::Json;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{Method, StatusCode};
use axum::routing::{post, put};
use rusqlite::{Connection, OptionalExtension};
use serde_json::Value;
use utoipa::openapi::schema::Type;

use super::campaign_categories::require_category;
use crate::auth::Roles;
use crate::core::error::{AppError, AppResult};
use crate::core::patterns;
use crate::core::validation::Validator;
use crate::crud::{self, Column, Export, Filter, Kind, Resource};
use crate::db::now_iso;
use crate::http::api::Rule::{Note, Pattern, Range, Required};
use crate::http::api::{Api, Doc};
use crate::http::files;
use crate::http::forms::{Form, MULTIPART_LIMIT};
use crate::http::state::AppState;

pub static NOTIFICATIONS: Resource = Resource {
    path: "notification",
    tag: "Notifications",
    name: "Notification",
    table: "notifications",
    from: "notifications n LEFT JOIN files f ON f.id = n.file_id \
           LEFT JOIN campaign_categories cc ON cc.id = n.category_id \
           LEFT JOIN campaigns c ON c.id = n.campaign_id",
    scope: "n.deleted_at IS NULL",
    id: "n.id",
    total_key: Some("notifications"),
    columns: &[
        Column::new("id", "n.id", Kind::Int),
        Column::new("filePath", files::FILE_PATH_SQL, Kind::File),
        Column::new("header", "n.header", Kind::Text),
        Column::new("text", "n.text", Kind::Text),
        Column::new("type", "n.type", Kind::Int),
        Column::new("typeName", "CASE n.type WHEN 1 THEN 'Category' ELSE 'Campaign' END", Kind::Text).unsorted(),
        Column::new("categoryId", "n.category_id", Kind::Int),
        Column::new("campaignId", "n.campaign_id", Kind::Int),
        // The category's or campaign's name, in the caller's language.
        Column::localized(
            "targetName",
            [
                "CASE n.type WHEN 1 THEN cc.name_az ELSE c.name_az END",
                "CASE n.type WHEN 1 THEN cc.name_en ELSE c.name_en END",
                "CASE n.type WHEN 1 THEN cc.name_ru ELSE c.name_ru END",
            ],
        )
        .unsorted(),
        Column::new("createdAt", "n.created_at", Kind::DateTime),
    ],
    filters: &[Filter::contains("Header", "n.header")],
    export: Some(Export {
        file_name: "Notifications.xlsx",
        columns: &[
            ("Header", "header"),
            ("Text", "text"),
            ("Type", "typeName"),
            ("Category or campaign", "targetName"),
            ("Created", "createdAt"),
        ],
    }),
    read: Roles::ANYONE,
    write: Roles::EDITORS,
    toggle: false,
    delete: true,
    on_change: None,
    detail_extra: None,
};

pub const HEADER_REQUIRED: &str = "Header is required";
pub const TEXT_REQUIRED: &str = "Text is required";
pub const TYPE_REQUIRED: &str = "type is required";
pub const TYPE_VALUE: &str = "type must be 1 (category) or 2 (campaign)";
pub const CATEGORY_REQUIRED: &str = "Category is required";
pub const CAMPAIGN_REQUIRED: &str = "Campaign is required";

const FORM_FIELDS: &[(&str, Type)] = &[
    ("id", Type::Integer),
    ("header", Type::String),
    ("text", Type::String),
    ("type", Type::Integer),
    ("categoryId", Type::Integer),
    ("campaignId", Type::Integer),
    ("file", Type::String),
];

pub fn routes() -> Api {
    const TAG: &str = "Notifications";
    crud::routes(&NOTIFICATIONS)
        .add(
            Method::POST,
            "/api/notification",
            post(create).layer(DefaultBodyLimit::max(MULTIPART_LIMIT)),
            Doc::new(
                TAG,
                "Create a notification (multipart; type 1 needs categoryId, type 2 campaignId; image optional)",
            )
            .roles(Roles::EDITORS)
            .multipart(&FORM_FIELDS[1..])
            .rules("header", &[Required, Pattern(patterns::NOT_BLANK)])
            .rules("text", &[Required, Pattern(patterns::NOT_BLANK)])
            .rules("type", &[Required, Range(1, 2)])
            .rules("categoryId", &[Note("Required when type is 1.")])
            .rules("campaignId", &[Note("Required when type is 2.")])
            .answers(404, "The category or campaign the form names does not exist")
            .returns_schema(201, crud::row_schema(&NOTIFICATIONS)),
        )
        .add(
            Method::PUT,
            "/api/notification",
            put(update).layer(DefaultBodyLimit::max(MULTIPART_LIMIT)),
            Doc::new(
                TAG,
                "Edit a notification (multipart; without a file the image stays; without type the target stays)",
            )
            .roles(Roles::EDITORS)
            .multipart(FORM_FIELDS)
            .rules("id", &[Required])
            .rules("header", &[Required, Pattern(patterns::NOT_BLANK)])
            .rules("text", &[Required, Pattern(patterns::NOT_BLANK)])
            .rules("type", &[Range(1, 2), Note("Unchanged target when not sent.")])
            .rules("categoryId", &[Note("Required when type is 1.")])
            .rules("campaignId", &[Note("Required when type is 2.")])
            .answers(404, "No such notification, or the category or campaign the form names does not exist")
            .returns_schema(200, crud::row_schema(&NOTIFICATIONS)),
        )
}

/// What a notification points at: (type, categoryId, campaignId); only the id its type uses.
type Target = (i64, Option<i64>, Option<i64>);

struct NotificationInput {
    header: String,
    text: String,
    /// `None` on an edit that does not send `type`: the target stays.
    target: Option<Target>,
}

fn optional_id(v: &mut Validator, form: &Form, field: &str, required: &str) -> Option<i64> {
    let text = form.text(field);
    match text.parse::<i64>() {
        Ok(id) if id > 0 => Some(id),
        _ => {
            v.check(field, false, required);
            None
        }
    }
}

fn read_input(form: &Form, creating: bool) -> AppResult<NotificationInput> {
    let (header, text) = (form.text("header"), form.text("text"));
    let mut v = Validator::new();
    v.required("header", &header, HEADER_REQUIRED).required("text", &text, TEXT_REQUIRED);
    let raw_type = form.text("type");
    let target = if raw_type.is_empty() {
        v.check("type", !creating, TYPE_REQUIRED);
        None
    } else {
        match raw_type.parse::<i64>() {
            Ok(1) => optional_id(&mut v, form, "categoryId", CATEGORY_REQUIRED).map(|id| (1, Some(id), None)),
            Ok(2) => optional_id(&mut v, form, "campaignId", CAMPAIGN_REQUIRED).map(|id| (2, None, Some(id))),
            _ => {
                v.check("type", false, TYPE_VALUE);
                None
            }
        }
    };
    v.finish()?;
    Ok(NotificationInput { header, text, target })
}

/// The category or campaign a notification points at is live.
fn check_target(tx: &Connection, target: &Target) -> AppResult<()> {
    match *target {
        (_, Some(category), _) => require_category(tx, "categoryId", category),
        (_, _, Some(campaign)) => {
            let found = tx
                .query_row("SELECT 1 FROM campaigns WHERE id = ?1 AND deleted_at IS NULL", [campaign], |_| Ok(()))
                .optional()?;
            found.ok_or_else(|| AppError::no_such("campaignId", format!("There is no campaign with id {campaign}.")))
        }
        _ => Ok(()),
    }
}

async fn create(State(state): State<AppState>, form: Form) -> AppResult<(StatusCode, Json<Value>)> {
    let input = read_input(&form, true)?;
    let image = files::checked_upload(form.file("file")).await?;
    let row = crud::save_then_fetch(&state, &NOTIFICATIONS, move |tx| {
        let Some(target) = input.target else { return Err(AppError::field("type", TYPE_REQUIRED)) };
        check_target(tx, &target)?;
        let file_id = files::store_upload(tx, image)?;
        let (kind, category, campaign) = target;
        tx.execute(
            "INSERT INTO notifications (header, text, file_id, type, category_id, campaign_id)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            (&input.header, &input.text, file_id, kind, category, campaign),
        )?;
        Ok(tx.last_insert_rowid())
    })
    .await?;
    Ok((StatusCode::CREATED, Json(row)))
}

async fn update(State(state): State<AppState>, form: Form) -> AppResult<Json<Value>> {
    let id = form.id()?;
    let input = read_input(&form, false)?;
    let image = files::checked_upload(form.file("file")).await?;
    crud::save_then_fetch(&state, &NOTIFICATIONS, move |tx| {
        if let Some(target) = &input.target {
            check_target(tx, target)?;
        }
        let file_id = files::store_upload(tx, image)?;
        let changed = tx.execute(
            "UPDATE notifications SET header = ?2, text = ?3, file_id = COALESCE(?4, file_id), updated_at = ?5
             WHERE id = ?1 AND deleted_at IS NULL",
            (id, &input.header, &input.text, file_id, now_iso()),
        )?;
        NOTIFICATIONS.updated(changed, id)?;
        if let Some((kind, category, campaign)) = input.target {
            tx.execute(
                "UPDATE notifications SET type = ?2, category_id = ?3, campaign_id = ?4 WHERE id = ?1",
                (id, kind, category, campaign),
            )?;
        }
        Ok(id)
    })
    .await
    .map(Json)
}
