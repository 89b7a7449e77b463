//! Merchants: people attached to a partner and one of its branches (`partner/merchant`). The
//! generic list, detail, delete and Merchant.xlsx export, plus create and edit, where the branch
//! must be the partner's own and the partner is fixed once the merchant exists. The userName is
//! the e-mail, unique among live merchants; merchants do not sign in to this panel.

use crate::crud::{Recorded, Trash};
use crate::db::sql::{Connection, OptionalExtension};
use axum::Json;
use axum::extract::State;
use axum::http::{Method, StatusCode};
use axum::routing::{post, put};
use serde_json::Value;
use utoipa::ToSchema;

use crate::auth::Roles;
use crate::core::error::{AppError, AppResult};
use crate::core::refusals::Audience;
use crate::core::validation::Validator;
use crate::crud::writes::{Field, Mode, WriteForm};
use crate::crud::{self, Column, Export, Filter, Kind, Resource, Total, ValueKind};
use crate::http::api::Rule::{Range, Required};
use crate::http::api::{Api, Doc};
use crate::http::extract::ApiJson;
use crate::http::fields;
use crate::http::state::AppState;

pub static MERCHANTS: Resource = Resource {
    path: "partner/merchant",
    row: "MerchantRow",
    tag: "Merchants",
    name: "Merchant",
    table: "merchants",
    from: "merchants m JOIN partners p ON p.id = m.partner_id \
           JOIN partner_cities pc ON pc.id = m.partner_city_id JOIN cities c ON c.id = pc.city_id",
    scope: "m.deleted_at IS NULL",
    id: "m.id",
    total: Total::Maintained("merchants"),
    columns: &[
        Column::new("id", "m.id", Kind::Int),
        Column::new("firstName", "m.first_name", Kind::Text).never_null(),
        Column::new("lastName", "m.last_name", Kind::Text).never_null(),
        Column::new("email", "m.email", Kind::Text).never_null(),
        Column::new("phone", "m.phone", Kind::Phone).never_null(),
        Column::new("partnerId", "m.partner_id", Kind::Int).detail_only().never_null(),
        Column::new("partnerName", "p.name", Kind::Text).never_null(),
        Column::new("userName", "m.email", Kind::Text).never_null(),
        Column::new("partnerCityId", "m.partner_city_id", Kind::Int).detail_only().never_null(),
        // The branch as the city pickers show it: the city, then the address.
        Column::localized(
            "partnerCityName",
            ["c.name_az || ', ' || pc.address", "c.name_en || ', ' || pc.address", "c.name_ru || ', ' || pc.address"],
        )
        .never_null(),
        Column::new("createdAt", "m.created_at", Kind::DateTime).detail_only().never_null(),
    ],
    filters: &[
        Filter::contains("name", "(m.first_name || ' ' || m.last_name)"),
        Filter::contains("email", "m.email"),
        Filter::contains("phone", "m.phone"),
        Filter::contains("partnerName", "p.name"),
        // The filter modal's partner picker may send the id instead of the name.
        Filter::equals("partnerId", "m.partner_id", ValueKind::Int),
    ],
    export: Some(Export {
        file_name: "Merchant.xlsx",
        columns: &[
            ("First name", "firstName"),
            ("Last name", "lastName"),
            ("Email", "email"),
            ("Phone", "phone"),
            ("Partner name", "partnerName"),
            ("User name", "userName"),
            ("Partner city", "partnerCityName"),
        ],
    }),
    read: Roles::ANYONE,
    write: Roles::EDITORS,
    toggle: false,
    delete: true,
    on_change: None,
    detail_extra: None,
    plural: "merchants",
    label: Some(super::PERSON_NAME),
    history: &[Recorded::table("merchants")],
    trash: Some(Trash {
        label: Some(super::PERSON_LABEL),
        parents: &[
            ("partner_id", "partnerId", "partners", "partner"),
            ("partner_city_id", "partnerCityId", "partner_cities", "city branch"),
        ],
        unique: Some((
            "email",
            "SELECT o.id FROM merchants r JOIN merchants o ON o.email = r.email AND o.id <> r.id
             WHERE r.id = ?1 AND o.deleted_at IS NULL",
        )),
        ..Trash::PLAIN
    }),
    events: None,
    unrecorded: &[],
};

pub const PARTNER_REQUIRED: &str = "Partner Id is required";
pub const CITY_REQUIRED: &str = "Partner City Id is required";
pub const PHONE_REQUIRED: &str = "Phone is required";
pub const TAKEN: &str = "A merchant with this e-mail already exists.";
pub const FOREIGN_CITY: &str = "This city is not a branch of the chosen partner.";
pub const NO_PARTNER: &str = "The chosen partner does not exist.";
pub const PARTNER_FIXED: &str = "The partner of a merchant cannot be changed.";

const FIRST_NAME: Field = Field::text("firstName", "first_name").required("First name is required");
const LAST_NAME: Field = Field::text("lastName", "last_name").required("Last name is required");
const EMAIL: Field = Field::email("email", "email").required("Email is required").unique(TAKEN);
const PARTNER_ID: Field =
    Field::id("partnerId", "partner_id", "Partner Id must be a number").required(PARTNER_REQUIRED);
const BRANCH_ID: Field =
    Field::id("partnerCityId", "partner_city_id", "Partner City Id must be a number").required(CITY_REQUIRED);

/// A new merchant: the phone is `phoneNumber` here, as the spec spells it.
pub static NEW_MERCHANT_FORM: WriteForm = WriteForm {
    resource: &MERCHANTS,
    table: "merchants",
    fields: &[
        FIRST_NAME,
        LAST_NAME,
        EMAIL,
        Field::phone("phoneNumber", "phone").required(PHONE_REQUIRED),
        PARTNER_ID,
        BRANCH_ID,
    ],
    image: None,
    extra_parts: &[],
    computed: &[],
    children: &[],
};

/// A merchant's edit: the phone is `phone` here, as the spec spells it; the partner is sent but
/// cannot change, so it is checked, not written.
pub static MERCHANT_EDIT_FORM: WriteForm = WriteForm {
    resource: &MERCHANTS,
    table: "merchants",
    fields: &[
        FIRST_NAME,
        LAST_NAME,
        EMAIL,
        Field::phone("phone", "phone").required(PHONE_REQUIRED),
        PARTNER_ID.unstored(),
        BRANCH_ID,
    ],
    image: None,
    extra_parts: &[],
    computed: &[],
    children: &[],
};

/// The texts this module's routes refuse with (`core::refusals`).
const REFUSALS: &[&str] =
    &[PARTNER_REQUIRED, CITY_REQUIRED, PHONE_REQUIRED, TAKEN, FOREIGN_CITY, NO_PARTNER, PARTNER_FIXED];

pub fn routes() -> Api {
    const TAG: &str = "Merchants";
    crud::routes(&MERCHANTS)
        .refuses(Audience::People, REFUSALS)
        .add(
            Method::POST,
            "/api/partner/merchant",
            post(create),
            NEW_MERCHANT_FORM
                .document(
                    Doc::new(TAG, "Create a merchant at one of the partner's branches")
                        .roles(MERCHANTS.write)
                        .json_body::<NewMerchant>(),
                    Mode::Create,
                )
                .answers(409, "A merchant with this e-mail already exists")
                .returns_component(201, crud::row_schema(&MERCHANTS)),
        )
        .add(
            Method::PUT,
            "/api/partner/merchant",
            put(update),
            MERCHANT_EDIT_FORM
                .document(
                    Doc::new(TAG, "Edit a merchant (the partner cannot change; the branch must be the partner's)")
                        .roles(MERCHANTS.write)
                        .json_body::<MerchantEdit>(),
                    Mode::Update,
                )
                .rules("id", &[Required, Range(1, i64::MAX)])
                .answers(404, "No such merchant")
                .answers(409, "A merchant with this e-mail already exists")
                .returns_component(200, crud::row_schema(&MERCHANTS)),
        )
}

/// `POST partner/merchant`, as the spec spells it. Read field by field (see `fields`).
#[derive(serde::Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)]
pub struct NewMerchant {
    first_name: String,
    last_name: String,
    email: String,
    /// 994 + operator code without its 0 + 7 digits.
    phone_number: String,
    partner_id: i64,
    partner_city_id: i64,
}

/// `PUT partner/merchant`: the phone is `phone` here, as the spec spells it.
#[derive(serde::Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)]
pub struct MerchantEdit {
    id: i64,
    first_name: String,
    last_name: String,
    email: String,
    phone: String,
    partner_id: i64,
    partner_city_id: i64,
}

/// The partner is live and the branch is one of its live branches.
fn check_branch(tx: &Connection, partner_id: i64, city_id: i64) -> AppResult<()> {
    let partner = tx
        .query_row("SELECT 1 FROM partners WHERE id = ?1 AND deleted_at IS NULL", [partner_id], |_| Ok(()))
        .optional()?;
    partner.ok_or_else(|| AppError::no_such("partnerId", NO_PARTNER))?;
    let branch = tx
        .query_row(
            "SELECT 1 FROM partner_cities WHERE id = ?1 AND partner_id = ?2 AND deleted_at IS NULL",
            (city_id, partner_id),
            |_| Ok(()),
        )
        .optional()?;
    branch.ok_or_else(|| AppError::no_such("partnerCityId", FOREIGN_CITY))
}

async fn create(State(state): State<AppState>, ApiJson(body): ApiJson<Value>) -> AppResult<(StatusCode, Json<Value>)> {
    let body = fields::object(&body)?;
    let mut v = Validator::new();
    let values = NEW_MERCHANT_FORM.read(body, Mode::Create, &mut v);
    v.finish()?;
    let row = crud::save_then_fetch(&state, &MERCHANTS, move |tx| {
        let number = |name| values.number(name).unwrap_or_default();
        check_branch(tx, number("partnerId"), number("partnerCityId"))?;
        NEW_MERCHANT_FORM.write(&values).insert(tx)
    })
    .await?;
    Ok((StatusCode::CREATED, Json(row)))
}

async fn update(State(state): State<AppState>, ApiJson(body): ApiJson<Value>) -> AppResult<Json<Value>> {
    let body = fields::object(&body)?;
    let mut v = Validator::new();
    let id = fields::id(&mut v, "id", body.get("id"), "Id is required", "Id must be a number");
    let values = MERCHANT_EDIT_FORM.read(body, Mode::Update, &mut v);
    v.finish()?;
    crud::save_then_fetch(&state, &MERCHANTS, move |tx| {
        let partner_id: i64 = tx
            .query_row("SELECT partner_id FROM merchants WHERE id = ?1 AND deleted_at IS NULL", [id], |r| {
                r.get("partner_id")
            })
            .optional()?
            .ok_or_else(|| MERCHANTS.not_found())?;
        if Some(partner_id) != values.number("partnerId") {
            return Err(AppError::conflict_on("partnerId", PARTNER_FIXED));
        }
        check_branch(tx, partner_id, values.number("partnerCityId").unwrap_or_default())?;
        MERCHANT_EDIT_FORM.write(&values).update(tx, id)
    })
    .await
    .map(Json)
}
