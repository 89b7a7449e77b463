//! Assets (client organisations): the generic list plus multipart create and edit with a logo.

use crate::auth::Roles;
use crate::core::error::AppResult;
use crate::core::patterns;
use crate::core::validation::{self, Validator};
use crate::crud::writes::{self, Check, Field, ImageField, Mode, WriteForm, Writer};
use crate::crud::{self, Column, Export, Filter, Kind, Resource, Total};
use crate::crud::{Recorded, Trash};
use crate::db::sql::Connection;
use crate::http::api::Api;
use crate::http::files;
use crate::http::forms::Form;

pub static ASSETS: Resource = Resource {
    path: "asset",
    row: "AssetRow",
    tag: "Assets",
    name: "Asset",
    table: "assets",
    from: "assets a LEFT JOIN files f ON f.id = a.file_id",
    scope: "a.deleted_at IS NULL",
    id: "a.id",
    total: Total::Maintained("assets"),
    columns: &[
        Column::new("id", "a.id", Kind::Int),
        Column::new("filePath", files::FILE_PATH_SQL, Kind::File),
        Column::new("name", "a.name", Kind::Text).never_null(),
        Column::new("contactPerson", "a.contact_person", Kind::Text).never_null(),
        Column::new("contactPersonPhoneNumber", "a.contact_person_phone_number", Kind::Phone).never_null(),
        Column::new("contactPersonEmail", "a.contact_person_email", Kind::Text).never_null(),
        Column::new("barcodePrefix", "a.barcode_prefix", Kind::Text).never_null(),
        Column::new("isActive", "a.is_active", Kind::Bool).never_null(),
        Column::new("createdAt", "a.created_at", Kind::DateTime).detail_only().never_null(),
    ],
    filters: &[
        Filter::contains("Name", "a.name"),
        Filter::contains("ContactPerson", "a.contact_person"),
        Filter::contains("ContactPersonPhoneNumber", "a.contact_person_phone_number"),
        Filter::contains("ContactPersonEmail", "a.contact_person_email"),
    ],
    export: Some(Export {
        file_name: "Assets.xlsx",
        columns: &[
            ("Asset name", "name"),
            ("Primary contact person name", "contactPerson"),
            ("Phone number", "contactPersonPhoneNumber"),
            ("Email", "contactPersonEmail"),
            ("Barcode prefix", "barcodePrefix"),
            ("Active", "isActive"),
        ],
    }),
    read: Roles::ANYONE,
    write: Roles::EDITORS,
    toggle: true,
    delete: true,
    on_change: Some(purging),
    detail_extra: None,
    plural: "assets",
    label: Some("{row}.name"),
    history: &[Recorded::table("assets")],
    trash: Some(Trash { owned: &[("campaign_assets", "asset_id = ?1", "campaign links")], ..Trash::PLAIN }),
    events: None,
    unrecorded: &[],
};

const BARCODE_PREFIX: Check = Check {
    pattern: patterns::BARCODE_PREFIX,
    test: validation::is_barcode_prefix,
    message: "Barcode must consist of max 3 letter or number",
    example: "AB1",
    refused: "ABCD",
};

pub static ASSET_FORM: WriteForm = WriteForm {
    resource: &ASSETS,
    table: "assets",
    fields: &[
        Field::text("name", "name").required("Name is required"),
        Field::text("contactPerson", "contact_person").required("Contact person is required"),
        Field::phone("phoneNumber", "contact_person_phone_number").required("Phone number is required"),
        Field::email("email", "contact_person_email").required("Email is required"),
        // Required on create; an edit checks it only when sent.
        Field::checked("barcodePrefix", "barcode_prefix", &BARCODE_PREFIX)
            .required("Barcode is required")
            .kept_unless_sent(),
    ],
    image: Some(ImageField { names: &["file"], column: "file_id", required_on_create: Some("File is required") }),
    extra_parts: &[],
    computed: &[],
    children: &[],
};

/// Assets are plain declared writes.
struct AssetWriter;

impl Writer for AssetWriter {
    const FORM: &'static WriteForm = &ASSET_FORM;
    type Input = ();
    const SUMMARIES: [&'static str; 2] = [
        "Create an asset (multipart; the image is required)",
        "Edit an asset (multipart; without a file the image stays)",
    ];

    fn read(_: &Form, _: Mode, _: &mut Validator) {}
}

/// An asset deleted for good leaves the campaigns it was linked to.
fn purging(
    tx: &crate::db::sql::Connection,
    _: Option<&crate::auth::CurrentUser>,
    change: &crud::Change,
) -> crate::core::error::AppResult<()> {
    let crud::Change::Purging(ids) = change else { return Ok(()) };
    ids.iter().try_for_each(|&id| super::campaigns::writes::unlink_asset(tx, id))
}

pub fn routes() -> Api {
    writes::write_routes::<AssetWriter>(crud::routes(&ASSETS))
}

/// The live assets with this barcode prefix, two at most: one names the asset, two say the
/// prefix is not enough (the employee app's upsert and the import name an asset by it).
pub fn with_barcode_prefix(conn: &Connection, prefix: &str) -> AppResult<Vec<i64>> {
    Ok(conn
        .prepare_cached("SELECT id FROM assets WHERE barcode_prefix = ?1 AND deleted_at IS NULL LIMIT 2")?
        .query_map([prefix], |r| r.get("id"))?
        .collect::<Result<_, _>>()?)
}
