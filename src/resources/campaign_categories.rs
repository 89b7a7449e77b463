//! Campaign categories (Category Names): the generic list, named in the caller's language, plus
//! multipart create and edit with a photo and a display position, and the status switch.

use crate::crud::{Recorded, Trash};
use crate::db::sql::{Connection, OptionalExtension, params_from_iter};
use axum::http::Method;
use axum::routing::MethodFilter;
use utoipa::openapi::schema::Type;

use super::ordering::Sequence;
use crate::auth::{CurrentUser, Roles};
use crate::core::error::{AppError, AppResult};
use crate::core::refusals::Audience;
use crate::core::validation::Validator;
use crate::crud::writes::{self, ExtraPart, Field, ImageField, Mode, WriteForm, Writer};
use crate::crud::{self, ActiveChange, Change, Column, Filter, Kind, Resource, Total, ValueKind};
use crate::http::api::Rule::{Note, Range, Required};
use crate::http::api::{Api, Doc};
use crate::http::files;
use crate::http::forms::Form;

pub static CATEGORIES: Resource = Resource {
    path: "campaign/category",
    row: "CategoryRow",
    tag: "Campaign categories",
    name: "Campaign category",
    table: "campaign_categories",
    from: "campaign_categories cc LEFT JOIN files f ON f.id = cc.photo_file_id",
    scope: "cc.deleted_at IS NULL",
    id: "cc.id",
    total: Total::Maintained("campaign_categories"),
    columns: &[
        Column::new("id", "cc.id", Kind::Int),
        // The spec calls the image `photo`; `filePath` is what every other image-bearing row names it.
        Column::new("photo", files::FILE_PATH_SQL, Kind::File),
        Column::new("filePath", files::FILE_PATH_SQL, Kind::File),
        Column::localized("name", ["cc.name_az", "cc.name_en", "cc.name_ru"]).never_null(),
        Column::new("nameAz", "cc.name_az", Kind::Text).never_null(),
        Column::new("nameEn", "cc.name_en", Kind::Text).never_null(),
        Column::new("nameRu", "cc.name_ru", Kind::Text).never_null(),
        Column::new("order", "cc.order_no", Kind::Int).never_null(),
        Column::new("isActive", "cc.is_active", Kind::Bool).never_null(),
        Column::new("createdAt", "cc.created_at", Kind::DateTime).detail_only().never_null(),
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
    plural: "campaign categories",
    label: Some("{row}.name_en"),
    history: &[Recorded::table("campaign_categories")],
    trash: Some(Trash::PLAIN),
    events: None,
    unrecorded: &[],
};

/// Categories keep one sequence of display positions.
pub const ORDER: Sequence = Sequence { table: "campaign_categories", group: None };

pub const NAME_AZ_REQUIRED: &str = "Name Az is required";
pub const NAME_EN_REQUIRED: &str = "Name En is required";
pub const NAME_RU_REQUIRED: &str = "Name Ru is required";
pub const HAS_CAMPAIGNS: &str = "A category that still has campaigns cannot be deleted. Move its campaigns to another category or delete them first.";

/// A delete is refused while a live campaign is in a deleted category (the campaign would show
/// a category nobody can pick any more); otherwise the remaining categories close the gap. A
/// restored category takes back the position it had (the others move down).
fn deleted(tx: &Connection, _: Option<&CurrentUser>, change: &Change) -> AppResult<()> {
    if let Change::Restored(ids) = change {
        return crate::resources::ordering::restore_positions(tx, &ORDER, ids);
    }
    let Change::Deleted(ids) = change else { return Ok(()) };
    let placeholders = vec!["?"; ids.len()].join(", ");
    let in_use: i64 = tx.query_row(
        &format!(
            "SELECT COUNT(*) AS n FROM campaigns WHERE deleted_at IS NULL AND campaign_category_id IN ({placeholders})"
        ),
        params_from_iter(ids.iter()),
        |r| r.get("n"),
    )?;
    if in_use > 0 {
        return Err(AppError::Conflict(HAS_CAMPAIGNS.into()));
    }
    ORDER.place(tx, 0, None, None)?;
    Ok(())
}

pub static CATEGORY_FORM: WriteForm = WriteForm {
    resource: &CATEGORIES,
    table: "campaign_categories",
    fields: &[
        Field::text("nameAz", "name_az").required(NAME_AZ_REQUIRED),
        Field::text("nameEn", "name_en").required(NAME_EN_REQUIRED),
        Field::text("nameRu", "name_ru").required(NAME_RU_REQUIRED),
    ],
    // The photo arrives as `file` (as on every other form) or as `photo` (the spec's field name).
    image: Some(ImageField { names: &["file", "photo"], column: "photo_file_id", required_on_create: None }),
    extra_parts: &[ExtraPart::both("order", Type::Integer)],
    computed: &[],
    children: &[],
};

/// A category's writes place it in the one sequence of display positions.
struct CategoryWriter;

impl Writer for CategoryWriter {
    const FORM: &'static WriteForm = &CATEGORY_FORM;
    /// The position asked for, 1..n.
    type Input = Option<i64>;
    const SUMMARIES: [&'static str; 2] = [
        "Create a category (multipart; the photo as `file` or `photo` is optional; `order` 1..n, default last)",
        "Edit a category (multipart; without a file the photo stays; a taken order moves the others down)",
    ];

    fn read(form: &Form, _: Mode, v: &mut Validator) -> Option<i64> {
        check_order(v, form);
        form.int("order", ORDER_NUMBER).ok().flatten()
    }

    fn saved(tx: &Connection, id: i64, mode: Mode, order: &Option<i64>) -> AppResult<()> {
        // A new category goes last unless placed; without an order an edited one keeps its place.
        if mode == Mode::Create || order.is_some() {
            ORDER.place(tx, 0, Some(id), *order)?;
        }
        Ok(())
    }

    fn document(doc: Doc, _: Mode) -> Doc {
        doc.rules("order", &[Range(1, i64::MAX)])
    }
}

/// The texts this module's routes refuse with (`core::refusals`).
const REFUSALS: &[&str] = &[
    NAME_AZ_REQUIRED,
    NAME_EN_REQUIRED,
    NAME_RU_REQUIRED,
    HAS_CAMPAIGNS,
    ORDER_NUMBER,
    "There is no campaign category with id {id}.",
];

pub fn routes() -> Api {
    const TAG: &str = "Campaign categories";
    writes::write_routes::<CategoryWriter>(crud::routes(&CATEGORIES)).refuses(Audience::People, REFUSALS).add(
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

pub const ORDER_NUMBER: &str = "Order must be a whole number of 1 or more.";

/// `order`, when sent, is a position from 1; past the end means last.
pub fn check_order(v: &mut Validator, form: &Form) {
    let order = form.int("order", ORDER_NUMBER);
    v.check("order", matches!(order, Ok(None)) || matches!(order, Ok(Some(n)) if n >= 1), ORDER_NUMBER);
}

/// A live category's id, or the form's 400 naming `field`.
pub fn require_category(tx: &crate::db::sql::Connection, field: &'static str, id: i64) -> AppResult<()> {
    let found = tx
        .query_row("SELECT 1 FROM campaign_categories WHERE id = ?1 AND deleted_at IS NULL", [id], |_| Ok(()))
        .optional()?;
    found.ok_or_else(|| AppError::no_such(field, format!("There is no campaign category with id {id}.")))
}
