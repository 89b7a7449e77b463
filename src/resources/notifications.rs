//! Notifications to employees about a category (type 1) or a campaign (type 2): the generic list,
//! filter by header, detail, delete and export, plus multipart create and edit with an image.

use crate::crud::{Recorded, Trash};
use crate::db::sql::{Connection, OptionalExtension};
use utoipa::openapi::schema::Type;

use super::campaign_categories::require_category;
use crate::auth::Roles;
use crate::core::error::{AppError, AppResult};
use crate::core::refusals::Audience;
use crate::core::validation::Validator;
use crate::crud::writes::{self, Columns, ExtraPart, Field, ImageField, Mode, WriteForm, Writer};
use crate::crud::{self, Column, Export, Filter, Kind, Resource, Total};
use crate::http::api::Rule::{Message, Note, Range, Required};
use crate::http::api::{Api, Doc};
use crate::http::files;
use crate::http::forms::Form;

pub static NOTIFICATIONS: Resource = Resource {
    path: "notification",
    row: "NotificationRow",
    tag: "Notifications",
    name: "Notification",
    table: "notifications",
    from: "notifications n LEFT JOIN files f ON f.id = n.file_id \
           LEFT JOIN campaign_categories cc ON cc.id = n.category_id \
           LEFT JOIN campaigns c ON c.id = n.campaign_id",
    scope: "n.deleted_at IS NULL",
    id: "n.id",
    total: Total::Maintained("notifications"),
    columns: &[
        Column::new("id", "n.id", Kind::Int),
        Column::new("filePath", files::FILE_PATH_SQL, Kind::File),
        Column::new("header", "n.header", Kind::Text).never_null(),
        Column::new("text", "n.text", Kind::Text).never_null(),
        Column::new("type", "n.type", Kind::Int).never_null(),
        Column::new("typeName", "CASE n.type WHEN 1 THEN 'Category' ELSE 'Campaign' END", Kind::Text)
            .unsorted()
            .never_null(),
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
        Column::new("createdAt", "n.created_at", Kind::DateTime).never_null(),
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
    plural: "notifications",
    label: Some("{row}.header"),
    history: &[Recorded::table("notifications")],
    trash: Some(Trash {
        parents: &[
            ("category_id", "categoryId", "campaign_categories", "category"),
            ("campaign_id", "campaignId", "campaigns", "campaign"),
        ],
        ..Trash::PLAIN
    }),
    events: None,
    unrecorded: &[],
};

pub const HEADER_REQUIRED: &str = "Header is required";
pub const TEXT_REQUIRED: &str = "Text is required";
pub const TYPE_REQUIRED: &str = "type is required";
pub const TYPE_VALUE: &str = "type must be 1 (category) or 2 (campaign)";
pub const CATEGORY_REQUIRED: &str = "Category is required";
pub const CAMPAIGN_REQUIRED: &str = "Campaign is required";

pub static NOTIFICATION_FORM: WriteForm = WriteForm {
    resource: &NOTIFICATIONS,
    table: "notifications",
    fields: &[
        Field::text("header", "header").required(HEADER_REQUIRED),
        Field::text("text", "text").required(TEXT_REQUIRED),
    ],
    image: Some(ImageField { names: &["file"], column: "file_id", required_on_create: None }),
    extra_parts: &[
        ExtraPart::both("type", Type::Integer),
        ExtraPart::both("categoryId", Type::Integer),
        ExtraPart::both("campaignId", Type::Integer),
    ],
    // The target: its type and the category or campaign it names.
    computed: &["type", "category_id", "campaign_id"],
    children: &[],
};

/// A notification points at a category (type 1) or a campaign (type 2).
struct NotificationWriter;

impl Writer for NotificationWriter {
    const FORM: &'static WriteForm = &NOTIFICATION_FORM;
    /// `None` on an edit that does not send `type`: the target stays.
    type Input = Option<Target>;
    const SUMMARIES: [&'static str; 2] = [
        "Create a notification (multipart; type 1 needs categoryId, type 2 campaignId; image optional)",
        "Edit a notification (multipart; without a file the image stays; without type the target stays)",
    ];

    fn read(form: &Form, mode: Mode, v: &mut Validator) -> Option<Target> {
        read_target(form, mode == Mode::Create, v)
    }

    fn check(tx: &Connection, target: &Option<Target>) -> AppResult<()> {
        target.as_ref().map_or(Ok(()), |target| check_target(tx, target))
    }

    fn columns(target: &Option<Target>) -> Columns {
        let Some((kind, category, campaign)) = *target else { return Columns::new() };
        Columns::new().set("type", kind).set("category_id", category).set("campaign_id", campaign)
    }

    fn document(doc: Doc, mode: Mode) -> Doc {
        let doc = doc
            .rules(
                "categoryId",
                &[
                    Note("Required when type is 1; ignored when type is 2 (a value sent must still be an id)."),
                    Message("required", CATEGORY_REQUIRED),
                ],
            )
            .rules(
                "campaignId",
                &[
                    Note("Required when type is 2; ignored when type is 1 (a value sent must still be an id)."),
                    Message("required", CAMPAIGN_REQUIRED),
                ],
            );
        match mode {
            Mode::Create => doc
                .rules("type", &[Required, Range(1, 2), Message("required", TYPE_REQUIRED)])
                .answers(404, "The category or campaign the form names does not exist"),
            Mode::Update => doc
                .rules("type", &[Range(1, 2), Note("Unchanged target when not sent.")])
                .answers(404, "No such notification, or the category or campaign the form names does not exist"),
        }
    }
}

/// The texts this module's routes refuse with (`core::refusals`).
const REFUSALS: &[&str] = &[
    HEADER_REQUIRED,
    TEXT_REQUIRED,
    TYPE_REQUIRED,
    TYPE_VALUE,
    CATEGORY_REQUIRED,
    CAMPAIGN_REQUIRED,
    "There is no campaign with id {id}.",
];

pub fn routes() -> Api {
    writes::write_routes::<NotificationWriter>(crud::routes(&NOTIFICATIONS)).refuses(Audience::People, REFUSALS)
}

/// A campaign's own notification (its Send notification action): type 2, pointing at the
/// campaign, with the header, text and image the campaign's writer gives it.
pub fn insert_for_campaign(
    tx: &Connection,
    header: &str,
    text: &str,
    file_id: Option<i64>,
    campaign_id: i64,
) -> AppResult<i64> {
    let id = Columns::new()
        .set("header", header)
        .set("text", text)
        .set("file_id", file_id)
        .set("type", 2)
        .set("campaign_id", campaign_id)
        .insert(tx, "notifications")?;
    Ok(id)
}

/// What a notification points at: (type, categoryId, campaignId); only the id its type uses.
type Target = (i64, Option<i64>, Option<i64>);

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

/// The type and the id it uses, after the declared fields.
fn read_target(form: &Form, creating: bool, v: &mut Validator) -> Option<Target> {
    // The id a type does not use is ignored, but one sent must be an id all the same, as the
    // document says of both (the number, or blank for none).
    for (field, message) in [("categoryId", CATEGORY_REQUIRED), ("campaignId", CAMPAIGN_REQUIRED)] {
        if !form.text(field).is_empty() {
            optional_id(v, form, field, message);
        }
    }
    let raw_type = form.text("type");
    if raw_type.is_empty() {
        v.check("type", !creating, TYPE_REQUIRED);
        return None;
    }
    match raw_type.parse::<i64>() {
        Ok(1) => optional_id(v, form, "categoryId", CATEGORY_REQUIRED).map(|id| (1, Some(id), None)),
        Ok(2) => optional_id(v, form, "campaignId", CAMPAIGN_REQUIRED).map(|id| (2, None, Some(id))),
        _ => {
            v.check("type", false, TYPE_VALUE);
            None
        }
    }
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
