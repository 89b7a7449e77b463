//! Partners (merchants' businesses) with their city branches and promo-code mode: the generic
//! list plus multipart create and edit, where branch rows are added, edited and removed at once.

use crate::crud::{Recorded, Trash};
use std::collections::{HashMap, HashSet};

use crate::db::sql::{Connection, OptionalExtension};
use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, Method, StatusCode};
use axum::routing::get;
use serde_json::{Value, json};
use utoipa::openapi::schema::Type;

use crate::auth::Roles;
use crate::core::error::{AppError, AppResult};
use crate::core::patterns;
use crate::core::refusals::Audience;
use crate::core::validation::Validator;
use crate::crud::writes::{self, Children, Columns, ExtraPart, Field, ImageField, Mode, WriteForm, Writer};
use crate::crud::{self, Column, DetailExtra, Export, ExtraShape, Filter, Kind, Language, Resource, Total, ValueKind};
use crate::db::now_iso;
use crate::http::api::Rule::{Message, Note, Pattern, Range, Required};
use crate::http::api::{Api, Doc};
use crate::http::extract::PathId;
use crate::http::files;
use crate::http::forms::Form;
use crate::http::state::AppState;

pub static PARTNERS: Resource = Resource {
    path: "partner",
    row: "PartnerRow",
    tag: "Partners",
    name: "Partner",
    table: "partners",
    from: "partners p LEFT JOIN files f ON f.id = p.file_id",
    scope: "p.deleted_at IS NULL",
    id: "p.id",
    total: Total::Maintained("partners"),
    columns: &[
        Column::new("id", "p.id", Kind::Int),
        Column::new("filePath", files::FILE_PATH_SQL, Kind::File),
        Column::new("name", "p.name", Kind::Text).never_null(),
        Column::new("contactPersonFirstName", "p.contact_person_first_name", Kind::Text).detail_only().never_null(),
        Column::new("contactPersonLastName", "p.contact_person_last_name", Kind::Text).detail_only().never_null(),
        Column::new("contactPerson", "p.contact_person_first_name || ' ' || p.contact_person_last_name", Kind::Text)
            .never_null(),
        Column::new("phoneNumber", "p.phone_number", Kind::Phone).never_null(),
        Column::new("email", "p.email", Kind::Text).never_null(),
        Column::new("isPromoCodeUsing", "p.is_promo_code_using", Kind::Bool).never_null(),
        Column::new("promoCode", "CASE WHEN p.is_promo_code_using = 1 THEN 'Bəli' ELSE 'Xeyr' END", Kind::Text)
            .unsorted()
            .never_null(),
        Column::new("promoCodeVersion", "p.promo_code_version", Kind::Int),
        Column::new("isActive", "p.is_active", Kind::Bool).never_null(),
        Column::new("createdAt", "p.created_at", Kind::DateTime).detail_only().never_null(),
    ],
    filters: &[
        Filter::contains("Name", "p.name"),
        Filter::contains("ContactPersonName", "(p.contact_person_first_name || ' ' || p.contact_person_last_name)"),
        // The promo-code screen's `status=true`: active partners that hand out promo codes.
        Filter::equals("status", "(p.is_promo_code_using = 1 AND p.is_active = 1)", ValueKind::Bool),
    ],
    export: Some(Export {
        file_name: "Partners.xlsx",
        columns: &[
            ("Partner name", "name"),
            ("Contact person", "contactPerson"),
            ("Phone number", "phoneNumber"),
            ("Email", "email"),
            ("Promokod", "promoCode"),
            ("Promo code version", "promoCodeVersion"),
            ("Active", "isActive"),
        ],
    }),
    read: Roles::ANYONE,
    write: Roles::EDITORS,
    toggle: true,
    delete: true,
    on_change: Some(purging),
    detail_extra: Some(DetailExtra {
        fields: &[(
            "cities",
            ExtraShape::Objects(&[
                ("id", Kind::Int),
                ("cityId", Kind::Int),
                ("cityName", Kind::Text),
                ("address", Kind::Text),
                ("latitude", Kind::Float),
                ("longitude", Kind::Float),
            ]),
        )],
        load: |conn, id, language| Ok(vec![("cities", Value::Array(branches(conn, id, language)?))]),
    }),
    plural: "partners",
    label: Some("{row}.name"),
    history: &[Recorded::table("partners")],
    trash: Some(Trash { owned: &[("partner_cities", "partner_id = ?1", "city branches")], ..Trash::PLAIN }),
    events: None,
    unrecorded: &[(
        "partner_cities",
        "the branches are rows of the partner's form, written with it; the partner's entry records the form's own fields",
    )],
};

/// A partner's live branches: id, cityId, cityName (in the caller's language), address, latitude,
/// longitude (the partner's detail, its branches call and the employee app's campaigns).
pub fn branches(conn: &Connection, partner_id: i64, language: Language) -> AppResult<Vec<Value>> {
    let city_name = ["c.name_az", "c.name_en", "c.name_ru"][language as usize - 1];
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT pc.id, pc.city_id, {city_name} AS city_name, pc.address, pc.latitude, pc.longitude
         FROM partner_cities pc JOIN cities c ON c.id = pc.city_id
         WHERE pc.partner_id = ?1 AND pc.deleted_at IS NULL ORDER BY pc.id"
    ))?;
    let rows = stmt
        .query_map([partner_id], |r| {
            Ok(json!({
                "id": r.get::<i64>("id")?, "cityId": r.get::<i64>("city_id")?, "cityName": r.get::<String>("city_name")?,
                "address": r.get::<String>("address")?, "latitude": r.get::<f64>("latitude")?,
                "longitude": r.get::<f64>("longitude")?,
            }))
        })?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(rows)
}

pub static PARTNER_FORM: WriteForm = WriteForm {
    resource: &PARTNERS,
    table: "partners",
    fields: &[
        Field::text("name", "name").required("Name is required"),
        Field::text("contactPersonFirstName", "contact_person_first_name")
            .required("Contact person firstname is required"),
        Field::text("contactPersonLastName", "contact_person_last_name")
            .required("Contact person lastname is required"),
        Field::phone("phoneNumber", "phone_number").required("Phone number is required"),
        Field::email("email", "email").required("Email is required"),
    ],
    image: Some(ImageField { names: &["file"], column: "file_id", required_on_create: None }),
    extra_parts: &[
        // Any text: `true`, `on` or `1` mean yes, anything else no (an HTML checkbox sends `on`).
        ExtraPart::both("isPromoCodeUsing", Type::String),
        // Read only when promo codes are used (then 1 or 2); otherwise ignored, whatever it holds.
        ExtraPart::both("promoCodeVersion", Type::String),
        ExtraPart::both("Cities[0].Id", Type::Integer),
        ExtraPart::both("Cities[0].CityId", Type::Integer),
        ExtraPart::both("Cities[0].Address", Type::String),
        ExtraPart::both("Cities[0].Latitude", Type::Number),
        ExtraPart::both("Cities[0].Longitude", Type::Number),
        ExtraPart::update_only("deletedCities[0]", Type::Integer),
    ],
    computed: &["is_promo_code_using", "promo_code_version"],
    children: &[&BRANCHES],
};

/// A partner's city branches, rows of their own: an edit adds, changes and removes them by id.
pub static BRANCHES: Children = Children {
    table: "partner_cities",
    parent: "partner_id",
    columns: &["city_id", "address", "latitude", "longitude"],
};

/// A partner's writes carry its promo code choice and its city branches.
struct PartnerWriter;

impl Writer for PartnerWriter {
    const FORM: &'static WriteForm = &PARTNER_FORM;
    type Input = PartnerInput;
    const SUMMARIES: [&'static str; 2] = [
        "Create a partner with its city branches (multipart)",
        "Edit a partner; Cities[i].Id 0 adds a branch, deletedCities[i] removes one (multipart)",
    ];

    fn prepare(form: &mut Form) {
        // The contact person arrives split, or as one "First Last" field.
        if form.text("contactPersonFirstName").is_empty() && form.text("contactPersonLastName").is_empty() {
            let whole = form.text("contactPerson");
            let (first, last) = whole.split_once(' ').unwrap_or((whole.as_str(), ""));
            form.set("contactPersonFirstName", first.trim());
            form.set("contactPersonLastName", last.trim());
        }
    }

    fn read(form: &Form, mode: Mode, v: &mut Validator) -> PartnerInput {
        read_input(form, mode == Mode::Create, v)
    }

    fn columns(input: &PartnerInput) -> Columns {
        Columns::new().set("is_promo_code_using", input.promo).set("promo_code_version", input.promo_version)
    }

    fn saved(tx: &Connection, id: i64, _: Mode, input: &PartnerInput) -> AppResult<()> {
        save_branches(tx, id, &input.branches, &input.deleted)
    }

    fn document(doc: Doc, mode: Mode) -> Doc {
        // The parts' messages, for the client's form, on both writes.
        let latitude = Message("format", LATITUDE);
        let longitude = Message("format", LONGITUDE);
        let doc = doc
            .rules("isPromoCodeUsing", &[Note(PROMO_USING)])
            .rules("promoCodeVersion", &[Note(PROMO_VERSION_NOTE), Message("required", PROMO_VERSION)])
            .rules("Cities[0].Id", &[Range(0, i64::MAX)])
            .rules("Cities[0].CityId", &[Message("required", CITIES_REQUIRED)])
            .rules("Cities[0].Address", &[Message("required", ROW_INCOMPLETE)])
            .rules("Cities[0].Latitude", &[Message("required", ROW_INCOMPLETE), latitude])
            .rules("Cities[0].Longitude", &[Message("required", ROW_INCOMPLETE), longitude]);
        match mode {
            Mode::Create => doc
                .rules("Cities[0].CityId", &[Required, Range(1, i64::MAX), Note("A city id from GET /api/city.")])
                .rules("Cities[0].Address", &[Required, Pattern(patterns::NOT_BLANK)])
                .rules("Cities[0].Latitude", &[Required, Range(-90, 90)])
                .rules("Cities[0].Longitude", &[Required, Range(-180, 180)])
                .answers(404, "A city id names no city"),
            Mode::Update => doc
                .rules("Cities[0].CityId", &[Range(1, i64::MAX), Note("With Address, Latitude and Longitude.")])
                .rules("Cities[0].Address", &[Pattern(patterns::NOT_BLANK)])
                .rules("Cities[0].Latitude", &[Range(-90, 90)])
                .rules("Cities[0].Longitude", &[Range(-180, 180)])
                .answers(404, "No such partner, city, or branch of this partner")
                .answers(409, "The edit would leave the partner without a branch"),
        }
    }
}

/// A partner deleted for good takes its city branches with it.
fn purging(tx: &Connection, _: Option<&crate::auth::CurrentUser>, change: &crud::Change) -> AppResult<()> {
    let crud::Change::Purging(ids) = change else { return Ok(()) };
    let mut remove = tx.prepare_cached("DELETE FROM partner_cities WHERE partner_id = ?1")?;
    for id in *ids {
        remove.execute([id])?;
    }
    Ok(())
}

/// The texts this module's routes refuse with (`core::refusals`).
const REFUSALS: &[&str] = &[CITIES_REQUIRED, FOREIGN_ROW, LATITUDE, LONGITUDE, ROW_INCOMPLETE, PROMO_VERSION];

pub fn routes() -> Api {
    const TAG: &str = "Partners";
    writes::write_routes::<PartnerWriter>(crud::routes(&PARTNERS))
        .refuses(Audience::People, REFUSALS)
        .refuses(Audience::Machines, [DELETED_CITIES, ROW_ID])
        .add(
            Method::GET,
            "/api/partner/cities/{partnerId}",
            get(partner_cities),
            Doc::new(TAG, "A partner's city branches").roles(Roles::ANYONE),
        )
}

struct Branch {
    id: i64,
    city_id: i64,
    address: String,
    latitude: f64,
    longitude: f64,
}

struct PartnerInput {
    promo: bool,
    promo_version: Option<i64>,
    branches: Vec<Branch>,
    /// Branch ids an edit removes (none on create).
    deleted: Vec<i64>,
}

pub const CITIES_REQUIRED: &str = "Cities is required";
/// Only a hand-made request sends something else (the panel sends the rows' ids).
pub const DELETED_CITIES: &str = "deletedCities must be row ids.";
/// Only a hand-made request sends something else (the panel sends a row's id, or 0 for a new one).
pub const ROW_ID: &str = "A branch's Id must be a whole number: its row's id, or 0 or blank for a new branch.";
pub const FOREIGN_ROW: &str = "The city row {id} does not belong to this partner.";
pub const LATITUDE: &str = "Latitude must be a number between -90 and 90.";
pub const LONGITUDE: &str = "Longitude must be a number between -180 and 180.";
pub const ROW_INCOMPLETE: &str = "Address, Latitude and Longitude fields are required.";
const PROMO_USING: &str = "true, on or 1 (any case) mean yes; anything else means no.";
const PROMO_VERSION_NOTE: &str =
    "1 (Integration) or 2 (Static), required when isPromoCodeUsing is yes; ignored otherwise.";
pub const PROMO_VERSION: &str = "Choose the promo code version: Integration (1) or Static (2).";

/// The parts beyond the declared fields: the promo code choice, the branches and, on an edit,
/// the branches removed.
fn read_input(form: &Form, creating: bool, v: &mut Validator) -> PartnerInput {
    let promo = form.bool("isPromoCodeUsing");
    let promo_version = form.int("promoCodeVersion", PROMO_VERSION).ok().flatten().filter(|v| [1, 2].contains(v));
    v.check("promoCodeVersion", !promo || promo_version.is_some(), PROMO_VERSION);
    let rows = form.rows("Cities");
    v.check("cityId", !creating || !rows.is_empty(), CITIES_REQUIRED);
    let mut branches = Vec::with_capacity(rows.len());
    for (index, row) in rows.iter().enumerate() {
        let field = |name: &str| row.get(name).map(String::as_str).unwrap_or("");
        let key = |name: &str| format!("cities[{index}].{name}");
        let city_id = field("cityid").parse::<i64>().ok().filter(|id| *id > 0);
        v.check(&key("cityId"), city_id.is_some(), CITIES_REQUIRED);
        let complete = [field("address"), field("latitude"), field("longitude")].iter().all(|f| !f.is_empty());
        v.check(&key("address"), complete, ROW_INCOMPLETE);
        let latitude = field("latitude").replace(',', ".").parse::<f64>().ok().filter(|l| (-90.0..=90.0).contains(l));
        let longitude =
            field("longitude").replace(',', ".").parse::<f64>().ok().filter(|l| (-180.0..=180.0).contains(l));
        if complete {
            v.check(&key("latitude"), latitude.is_some(), LATITUDE).check(
                &key("longitude"),
                longitude.is_some(),
                LONGITUDE,
            );
        }
        // A row's id is a row's (a 64-bit number), or 0 or blank for a new branch, as the document
        // says: anything else names no row and is refused, not read as a new branch.
        let id = match field("id") {
            "" => Some(0),
            text => text.parse::<i64>().ok().filter(|id| *id >= 0),
        };
        v.check(&key("id"), id.is_some(), ROW_ID);
        branches.push(Branch {
            id: id.unwrap_or(0),
            city_id: city_id.unwrap_or(0),
            address: field("address").to_string(),
            latitude: latitude.unwrap_or(0.0),
            longitude: longitude.unwrap_or(0.0),
        });
    }
    let deleted: Vec<i64> = form.list("deletedCities").iter().filter_map(|id| id.parse().ok()).collect();
    v.check("deletedCities", deleted.len() == form.list("deletedCities").len(), DELETED_CITIES);
    PartnerInput { promo, promo_version: if promo { promo_version } else { None }, branches, deleted }
}

/// Adds, edits and removes the partner's branches; rows named by id must be the partner's own.
fn save_branches(tx: &Connection, partner_id: i64, branches: &[Branch], deleted: &[i64]) -> AppResult<()> {
    let own: HashSet<i64> = tx
        .prepare_cached("SELECT id FROM partner_cities WHERE partner_id = ?1 AND deleted_at IS NULL")?
        .query_map([partner_id], |r| r.get("id"))?
        .collect::<Result<_, _>>()?;
    let foreign =
        branches.iter().map(|b| b.id).filter(|id| *id > 0).chain(deleted.iter().copied()).find(|id| !own.contains(id));
    if let Some(id) = foreign {
        // Well formed, but it names no branch of this partner: a 404 that names the field.
        return Err(AppError::FieldRefused {
            status: StatusCode::NOT_FOUND,
            field: "cityId",
            message: FOREIGN_ROW.replace("{id}", &id.to_string()),
        });
    }
    let cities: HashMap<i64, ()> = tx
        .prepare_cached("SELECT id FROM cities")?
        .query_map([], |r| Ok((r.get("id")?, ())))?
        .collect::<Result<_, _>>()?;
    if let Some(branch) = branches.iter().find(|b| !cities.contains_key(&b.city_id)) {
        return Err(AppError::FieldRefused {
            status: StatusCode::NOT_FOUND,
            field: "cityId",
            message: format!("There is no city with id {}.", branch.city_id),
        });
    }
    let now = now_iso();
    for id in deleted {
        BRANCHES.remove(tx, *id, &now)?;
    }
    for branch in branches.iter().filter(|b| !deleted.contains(&b.id)) {
        let row = Columns::new()
            .set("city_id", branch.city_id)
            .set("address", branch.address.as_str())
            .set("latitude", branch.latitude)
            .set("longitude", branch.longitude);
        if branch.id > 0 {
            BRANCHES.edit(tx, branch.id, row)?;
        } else {
            BRANCHES.add(tx, partner_id, row)?;
        }
    }
    // An edit may remove rows, but a partner never ends up without a branch; the error rolls the
    // whole edit back.
    let remaining: i64 = tx.query_row(
        "SELECT COUNT(*) AS n FROM partner_cities WHERE partner_id = ?1 AND deleted_at IS NULL",
        [partner_id],
        |r| r.get("n"),
    )?;
    if remaining == 0 {
        // The edit is well formed but conflicts with what the partner has: it would remove the
        // last branch.
        return Err(AppError::FieldRefused {
            status: StatusCode::CONFLICT,
            field: "cityId",
            message: CITIES_REQUIRED.into(),
        });
    }
    Ok(())
}

async fn partner_cities(
    State(state): State<AppState>,
    PathId(partner_id): PathId,
    headers: HeaderMap,
) -> AppResult<Json<crud::ListPage>> {
    let language = Language::from_headers(&headers);
    state
        .db
        .run(move |conn| {
            let exists = conn
                .query_row("SELECT 1 FROM partners WHERE id = ?1 AND deleted_at IS NULL", [partner_id], |_| Ok(()))
                .optional()?;
            exists.ok_or_else(|| PARTNERS.not_found())?;
            let data = branches(conn, partner_id, language)?;
            Ok(crud::ListPage { total_count: data.len() as i64, data })
        })
        .await
        .map(Json)
}
