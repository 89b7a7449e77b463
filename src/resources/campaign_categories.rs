//! Campaign categories (Category Names): the generic list, named in the caller's language, plus
//! multipart create and edit with a photo and a display position, and the status switch.

use axum::Json;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{Method, StatusCode};
use axum::routing::{MethodFilter, post, put};
use rusqlite::{Connection, OptionalExtension, params_from_iter};
use serde_json::Value;
use utoipa::openapi::schema::Type;

use super::ordering::Sequence;
use crate::auth::{CurrentUser, Roles};
use crate::core::error::{AppError, AppResult};
use crate::core::patterns;
use crate::core::validation::Validator;
use crate::crud::{self, ActiveChange, Change, Column, Filter, Kind, Resource, ValueKind};
use crate::db::now_iso;
use crate::http::api::Rule::{Note, Pattern, Range, Required};
use crate::http::api::{Api, Doc};
use crate::http::files;
use crate::http::forms::{Form, MULTIPART_LIMIT};
use crate::http::state::AppState;

pub static CATEGORIES: Resource = Resource {
    path: "campaign/category",
    tag: "Campaign categories",
    name: "Campaign category",
    table: "campaign_categories",
    from: "campaign_categories cc LEFT JOIN files f ON f.id = cc.photo_file_id",
    scope: "cc.deleted_at IS NULL",
    id: "cc.id",
    total_key: Some("campaign_categories"),
    columns: &[
        Column::new("id", "cc.id", Kind::Int),
        // The spec calls the image `photo`; `filePath` is what every other image-bearing row names it.
        Column::new("photo", files::FILE_PATH_SQL, Kind::File),
        Column::new("filePath", files::FILE_PATH_SQL, Kind::File),
        Column::localized("name", ["cc.name_az", "cc.name_en", "cc.name_ru"]),
        Column::new("nameAz", "cc.name_az", Kind::Text),
        Column::new("nameEn", "cc.name_en", Kind::Text),
        Column::new("nameRu", "cc.name_ru", Kind::Text),
        Column::new("order", "cc.order_no", Kind::Int),
        Column::new("isActive", "cc.is_active", Kind::Bool),
        Column::new("createdAt", "cc.created_at", Kind::DateTime).detail_only(),
    ],
    filters: &[
        Filter::contains("Name", "(cc.name_az || ' ' || cc.name_en || ' ' || cc.name_ru)"),
        Filter::equals("IsActive", "cc.is_active", ValueKind::Bool),
    ],
    export: None,
    read: Roles::ANYONE,
    write: Roles::EDITORS,
    // The spec's switch is `PUT campaign/category/changeStatus`, below.
    toggle: false,
    delete: true,
    on_change: Some(deleted),
    detail_extra: None,
};

/// Categories keep one sequence of display positions.
pub const ORDER: Sequence = Sequence { table: "campaign_categories", group: None };

pub const NAME_AZ_REQUIRED: &str = "Name Az is required";
pub const NAME_EN_REQUIRED: &str = "Name En is required";
pub const NAME_RU_REQUIRED: &str = "Name Ru is required";
pub const HAS_CAMPAIGNS: &str = "A category that still has campaigns cannot be deleted. Move its campaigns to another category or delete them first.";

/// A delete is refused while a live campaign is in a deleted category (the campaign would show
/// a category nobody can pick any more); otherwise the remaining categories close the gap.
fn deleted(tx: &Connection, _: &CurrentUser, change: &Change) -> AppResult<()> {
    let Change::Deleted(ids) = change else { return Ok(()) };
    let placeholders = vec!["?"; ids.len()].join(", ");
    let in_use: i64 = tx.query_row(
        &format!(
            "SELECT COUNT(*) FROM campaigns WHERE deleted_at IS NULL AND campaign_category_id IN ({placeholders})"
        ),
        params_from_iter(ids.iter()),
        |r| r.get(0),
    )?;
    if in_use > 0 {
        return Err(AppError::Conflict(HAS_CAMPAIGNS.into()));
    }
    ORDER.place(tx, 0, None, None)?;
    Ok(())
}

const FORM_FIELDS: &[(&str, Type)] = &[
    ("id", Type::Integer),
    ("nameAz", Type::String),
    ("nameEn", Type::String),
    ("nameRu", Type::String),
    ("order", Type::Integer),
    ("file", Type::String),
];

pub fn routes() -> Api {
    const TAG: &str = "Campaign categories";
    crud::routes(&CATEGORIES)
        .add(
            Method::POST,
            "/api/campaign/category",
            post(create).layer(DefaultBodyLimit::max(MULTIPART_LIMIT)),
            Doc::new(
                TAG,
                "Create a category (multipart; the photo as `file` or `photo` is optional; `order` 1..n, default last)",
            )
            .roles(Roles::EDITORS)
            .multipart(&FORM_FIELDS[1..])
            .rules("nameAz", &[Required, Pattern(patterns::NOT_BLANK)])
            .rules("nameEn", &[Required, Pattern(patterns::NOT_BLANK)])
            .rules("nameRu", &[Required, Pattern(patterns::NOT_BLANK)])
            .rules("order", &[Range(1, i64::MAX)])
            .returns_schema(201, crud::row_schema(&CATEGORIES)),
        )
        .add(
            Method::PUT,
            "/api/campaign/category",
            put(update).layer(DefaultBodyLimit::max(MULTIPART_LIMIT)),
            Doc::new(
                TAG,
                "Edit a category (multipart; without a file the photo stays; a taken order moves the others down)",
            )
            .roles(Roles::EDITORS)
            .multipart(FORM_FIELDS)
            .rules("id", &[Required])
            .rules("nameAz", &[Required, Pattern(patterns::NOT_BLANK)])
            .rules("nameEn", &[Required, Pattern(patterns::NOT_BLANK)])
            .rules("nameRu", &[Required, Pattern(patterns::NOT_BLANK)])
            .rules("order", &[Range(1, i64::MAX)])
            .answers(404, "No such category")
            .returns_schema(200, crud::row_schema(&CATEGORIES)),
        )
        .add(
            Method::PUT,
            "/api/campaign/category/changeStatus",
            crud::toggle_call(&CATEGORIES, MethodFilter::PUT),
            Doc::new(TAG, "Activate or deactivate a category")
                .roles(Roles::EDITORS)
                .json_body::<ActiveChange>()
                .rules("id", &[Required])
                .rules("isActive", &[Note("Default false.")])
                .answers(404, "No such category")
                .returns::<ActiveChange>(200),
        )
}

struct CategoryInput {
    name_az: String,
    name_en: String,
    name_ru: String,
    order: Option<i64>,
}

fn read_input(form: &Form) -> AppResult<CategoryInput> {
    let input = CategoryInput {
        name_az: form.text("nameAz"),
        name_en: form.text("nameEn"),
        name_ru: form.text("nameRu"),
        order: form.int("order", ORDER_NUMBER).ok().flatten(),
    };
    let mut v = Validator::new();
    v.required("nameAz", &input.name_az, NAME_AZ_REQUIRED)
        .required("nameEn", &input.name_en, NAME_EN_REQUIRED)
        .required("nameRu", &input.name_ru, NAME_RU_REQUIRED);
    check_order(&mut v, form);
    v.finish()?;
    Ok(input)
}

pub const ORDER_NUMBER: &str = "Order must be a whole number of 1 or more.";

/// `order`, when sent, is a position from 1; past the end means last.
pub fn check_order(v: &mut Validator, form: &Form) {
    let order = form.int("order", ORDER_NUMBER);
    v.check("order", matches!(order, Ok(None)) || matches!(order, Ok(Some(n)) if n >= 1), ORDER_NUMBER);
}

/// The photo arrives as `file` (as on every other form) or as `photo` (the spec's field name).
async fn photo(form: &Form) -> AppResult<Option<files::CheckedImage>> {
    files::checked_upload(form.file("file").or_else(|| form.file("photo"))).await
}

async fn create(State(state): State<AppState>, form: Form) -> AppResult<(StatusCode, Json<Value>)> {
    let input = read_input(&form)?;
    let image = photo(&form).await?;
    let row = crud::save_then_fetch(&state, &CATEGORIES, move |tx| {
        let file_id = files::store_upload(tx, image)?;
        tx.execute(
            "INSERT INTO campaign_categories (name_az, name_en, name_ru, photo_file_id, order_no)
             VALUES (?1, ?2, ?3, ?4, (SELECT COUNT(*) + 1 FROM campaign_categories WHERE deleted_at IS NULL))",
            (&input.name_az, &input.name_en, &input.name_ru, file_id),
        )?;
        let id = tx.last_insert_rowid();
        ORDER.place(tx, 0, Some(id), input.order)?;
        Ok(id)
    })
    .await?;
    Ok((StatusCode::CREATED, Json(row)))
}

async fn update(State(state): State<AppState>, form: Form) -> AppResult<Json<Value>> {
    let id = form.id()?;
    let input = read_input(&form)?;
    let image = photo(&form).await?;
    crud::save_then_fetch(&state, &CATEGORIES, move |tx| {
        let file_id = files::store_upload(tx, image)?;
        let changed = tx.execute(
            "UPDATE campaign_categories SET name_az = ?2, name_en = ?3, name_ru = ?4,
                    photo_file_id = COALESCE(?5, photo_file_id), updated_at = ?6
             WHERE id = ?1 AND deleted_at IS NULL",
            (id, &input.name_az, &input.name_en, &input.name_ru, file_id, now_iso()),
        )?;
        CATEGORIES.updated(changed, id)?;
        // Without an order the category keeps its place.
        if input.order.is_some() {
            ORDER.place(tx, 0, Some(id), input.order)?;
        }
        Ok(id)
    })
    .await
    .map(Json)
}

/// A live category's id, or the form's 400 naming `field`.
pub fn require_category(tx: &rusqlite::Connection, field: &'static str, id: i64) -> AppResult<()> {
    let found = tx
        .query_row("SELECT 1 FROM campaign_categories WHERE id = ?1 AND deleted_at IS NULL", [id], |_| Ok(()))
        .optional()?;
    found.ok_or_else(|| AppError::no_such(field, format!("There is no campaign category with id {id}.")))
}
