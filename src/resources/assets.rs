//! Assets (client organisations): the generic list plus multipart create and edit with a logo.

use axum::Json;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{Method, StatusCode};
use axum::routing::{post, put};
use serde_json::Value;
use utoipa::openapi::schema::Type;

use crate::auth::Roles;
use crate::core::error::AppResult;
use crate::core::patterns;
use crate::core::validation::Validator;
use crate::crud::{self, Column, Export, Filter, Kind, Resource};
use crate::db::now_iso;
use crate::http::api::Rule::{Note, Pattern, Required};
use crate::http::api::{Api, Doc};
use crate::http::files;
use crate::http::forms::{Form, MULTIPART_LIMIT};
use crate::http::state::AppState;

pub static ASSETS: Resource = Resource {
    path: "asset",
    tag: "Assets",
    name: "Asset",
    table: "assets",
    from: "assets a LEFT JOIN files f ON f.id = a.file_id",
    scope: "a.deleted_at IS NULL",
    id: "a.id",
    total_key: Some("assets"),
    columns: &[
        Column::new("id", "a.id", Kind::Int),
        Column::new("filePath", files::FILE_PATH_SQL, Kind::File),
        Column::new("name", "a.name", Kind::Text),
        Column::new("contactPerson", "a.contact_person", Kind::Text),
        Column::new("contactPersonPhoneNumber", "a.contact_person_phone_number", Kind::Phone),
        Column::new("contactPersonEmail", "a.contact_person_email", Kind::Text),
        Column::new("barcodePrefix", "a.barcode_prefix", Kind::Text),
        Column::new("isActive", "a.is_active", Kind::Bool),
        Column::new("createdAt", "a.created_at", Kind::DateTime).detail_only(),
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
    on_change: None,
    detail_extra: None,
};

const FORM_FIELDS: &[(&str, Type)] = &[
    ("id", Type::Integer),
    ("name", Type::String),
    ("contactPerson", Type::String),
    ("phoneNumber", Type::String),
    ("email", Type::String),
    ("barcodePrefix", Type::String),
    ("file", Type::String),
];

pub fn routes() -> Api {
    crud::routes(&ASSETS)
        .add(
            Method::POST,
            "/api/asset",
            post(create).layer(DefaultBodyLimit::max(MULTIPART_LIMIT)),
            Doc::new("Assets", "Create an asset (multipart; the image is required)")
                .roles(Roles::EDITORS)
                .multipart(&FORM_FIELDS[1..])
                .rules("name", &[Required, Pattern(patterns::NOT_BLANK)])
                .rules("contactPerson", &[Required, Pattern(patterns::NOT_BLANK)])
                .rules("phoneNumber", &[Required, Pattern(patterns::PHONE)])
                .rules("email", &[Required, Pattern(patterns::EMAIL)])
                .rules("barcodePrefix", &[Required, Pattern(patterns::BARCODE_PREFIX)])
                .rules("file", &[Required])
                .returns_schema(201, crud::row_schema(&ASSETS)),
        )
        .add(
            Method::PUT,
            "/api/asset",
            put(update).layer(DefaultBodyLimit::max(MULTIPART_LIMIT)),
            Doc::new("Assets", "Edit an asset (multipart; without a file the image stays)")
                .roles(Roles::EDITORS)
                .multipart(FORM_FIELDS)
                .rules("id", &[Required])
                .rules("name", &[Required, Pattern(patterns::NOT_BLANK)])
                .rules("contactPerson", &[Required, Pattern(patterns::NOT_BLANK)])
                .rules("phoneNumber", &[Required, Pattern(patterns::PHONE)])
                .rules("email", &[Required, Pattern(patterns::EMAIL)])
                .rules("barcodePrefix", &[Pattern(patterns::BARCODE_PREFIX), Note("Unchanged when not sent.")])
                .answers(404, "No such asset")
                .returns_schema(200, crud::row_schema(&ASSETS)),
        )
}

struct AssetInput {
    name: String,
    contact_person: String,
    phone: String,
    email: String,
    barcode_prefix: Option<String>,
}

/// The specification's asset rules; the barcode prefix is required on create and, on edit,
/// checked only when sent.
fn read_input(form: &Form, creating: bool) -> AppResult<AssetInput> {
    let input = AssetInput {
        name: form.text("name"),
        contact_person: form.text("contactPerson"),
        phone: form.text("phoneNumber"),
        email: form.text("email"),
        barcode_prefix: (creating || form.has("barcodePrefix")).then(|| form.text("barcodePrefix")),
    };
    let mut v = Validator::new();
    v.required("name", &input.name, "Name is required")
        .required("contactPerson", &input.contact_person, "Contact person is required")
        .required("phoneNumber", &input.phone, "Phone number is required")
        .phone("phoneNumber", &input.phone)
        .email("email", &input.email, "Email is required");
    if let Some(barcode) = &input.barcode_prefix {
        v.required("barcodePrefix", barcode, "Barcode is required").check(
            "barcodePrefix",
            barcode.chars().count() <= 3 && barcode.chars().all(|c| c.is_ascii_alphanumeric()),
            "Barcode must consist of max 3 letter or number",
        );
    }
    if creating {
        v.check("file", form.file("file").is_some(), "File is required");
    }
    v.finish()?;
    Ok(input)
}

async fn create(State(state): State<AppState>, form: Form) -> AppResult<(StatusCode, Json<Value>)> {
    let input = read_input(&form, true)?;
    let image = files::checked_upload(form.file("file")).await?;
    let row = crud::save_then_fetch(&state, &ASSETS, move |tx| {
        let file_id = files::store_upload(tx, image)?;
        tx.execute(
            "INSERT INTO assets (name, contact_person, contact_person_phone_number, contact_person_email, barcode_prefix, file_id)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            (&input.name, &input.contact_person, &input.phone, &input.email, &input.barcode_prefix, file_id),
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
    crud::save_then_fetch(&state, &ASSETS, move |tx| {
        let file_id = files::store_upload(tx, image)?;
        let changed = tx.execute(
            "UPDATE assets SET name = ?2, contact_person = ?3, contact_person_phone_number = ?4,
                    contact_person_email = ?5, barcode_prefix = COALESCE(?6, barcode_prefix),
                    file_id = COALESCE(?7, file_id), updated_at = ?8
             WHERE id = ?1 AND deleted_at IS NULL",
            (
                id,
                &input.name,
                &input.contact_person,
                &input.phone,
                &input.email,
                &input.barcode_prefix,
                file_id,
                now_iso(),
            ),
        )?;
        ASSETS.updated(changed, id)
    })
    .await
    .map(Json)
}
