//! Promo codes: the generic list and delete, generation of up to 500 codes for a campaign of a
//! partner that hands out promo codes, and the per-campaign export Promocode.xlsx. The screen's
//! "campaign category" choice comes from `campaign/forPromoCode?partnerId=`, which lists the
//! partner's campaigns (`{id, name, nameAz}`), so the id it yields, and the one in
//! `promoCode/export/{campaignCategoryId}`, is a campaign id.

use crate::crud::{Recorded, Trash};
use std::collections::HashSet;

use crate::db::sql::{Connection, OptionalExtension};
use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, Method, StatusCode};
use axum::response::Response;
use axum::routing::{get, post};
use rand::Rng;
use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;

use super::campaigns;
use crate::auth::Roles;
use crate::core::error::{AppError, AppResult};
use crate::core::refusals::Audience;
use crate::crud::writes::{Columns, WriteForm};
use crate::crud::{self, Column, Export, Filter, Kind, Resource, Total, ValueKind};
use crate::http::api::{Api, Doc, query};
use crate::http::extract::{ApiJson, PathId, QueryMap};
use crate::http::form_fields::{Bounds, Field, FieldKind, Values, read_json_fields};
use crate::http::state::AppState;

pub static PROMO_CODES: Resource = Resource {
    path: "promoCode",
    row: "PromoCodeRow",
    tag: "Promo codes",
    name: "Promo code",
    table: "promo_codes",
    from: "promo_codes pc JOIN partners p ON p.id = pc.partner_id JOIN campaigns c ON c.id = pc.campaign_id",
    scope: "pc.deleted_at IS NULL",
    id: "pc.id",
    total: Total::Maintained("promo_codes"),
    columns: &[
        Column::new("id", "pc.id", Kind::Int),
        Column::new("partnerId", "pc.partner_id", Kind::Int).detail_only().never_null(),
        Column::new("partnerName", "p.name", Kind::Text).never_null(),
        Column::new("campaignId", "pc.campaign_id", Kind::Int).detail_only().never_null(),
        Column::localized("campaignName", ["c.name_az", "c.name_en", "c.name_ru"]).never_null(),
        Column::new("code", "pc.code", Kind::Text).never_null(),
        Column::new("isUsed", "pc.is_used", Kind::Bool).never_null(),
        Column::new("used", "CASE WHEN pc.is_used = 1 THEN 'Bəli' ELSE 'Xeyr' END", Kind::Text).unsorted().never_null(),
        Column::new("usedDate", "pc.used_date", Kind::DateTime),
        Column::new("createdAt", "pc.created_at", Kind::DateTime).detail_only().never_null(),
    ],
    filters: &[
        Filter::equals("PartnerId", "pc.partner_id", ValueKind::Int),
        Filter::equals("CampaignId", "pc.campaign_id", ValueKind::Int),
        Filter::contains("Code", "pc.code"),
        Filter::equals("IsUsed", "pc.is_used", ValueKind::Bool),
    ],
    export: Some(Export {
        file_name: "Promocode.xlsx",
        columns: &[
            ("Partner name", "partnerName"),
            ("Campaign name", "campaignName"),
            ("Code", "code"),
            ("Used", "used"),
            ("Used date", "usedDate"),
        ],
    }),
    read: Roles::ANYONE,
    write: Roles::EDITORS,
    toggle: false,
    delete: true,
    on_change: None,
    detail_extra: None,
    plural: "promo codes",
    label: Some("{row}.code"),
    history: &[Recorded::table("promo_codes")],
    trash: Some(Trash {
        parents: &[
            ("partner_id", "partnerId", "partners", "partner"),
            ("campaign_id", "campaignId", "campaigns", "campaign"),
        ],
        ..Trash::PLAIN
    }),
    events: None,
    unrecorded: &[],
};

pub const MAX_COUNT: i64 = 500;
pub const COUNT_REQUIRED: &str = "Count is required";
pub const COUNT_NUMBER: &str = "Count must be a number";
pub const COUNT_MAX: &str = "Count must be less than or equal to 500";
pub const COUNT_MIN: &str = "Count must be at least 1";
pub const PARTNER_REQUIRED: &str = "Partner is required";
pub const CATEGORY_REQUIRED: &str = "Campaign category is required";
pub const NOT_PROMO_PARTNER: &str = "This partner does not hand out promo codes.";
pub const NOT_PARTNERS_CAMPAIGN: &str = "This campaign is not one of the partner's campaigns.";

/// Code letters: digits and capitals without the ones read alike (0/O, 1/I/L).
const COUNT: Bounds =
    Bounds { min: 1, max: MAX_COUNT, invalid: COUNT_NUMBER, below: COUNT_MIN, above: COUNT_MAX, fraction: None };

/// `POST promoCode`'s fields: whose codes, for which campaign, how many.
pub static BATCH_FIELDS: &[Field] = &[
    Field::id("partnerId", "partner_id", PARTNER_REQUIRED).required(PARTNER_REQUIRED),
    Field::id("campaignId", "campaign_id", CATEGORY_REQUIRED).required(CATEGORY_REQUIRED),
    Field::input("count", FieldKind::Whole(&COUNT)).required(COUNT_REQUIRED),
];

/// A batch of codes as stored: a row per code, each of the batch's partner and campaign.
pub static BATCH_FORM: WriteForm = WriteForm {
    resource: &PROMO_CODES,
    table: "promo_codes",
    fields: BATCH_FIELDS,
    image: None,
    extra_parts: &[],
    // Drawn by the writer, one per row.
    computed: &["code"],
    children: &[],
};

pub const ALPHABET: &[u8] = b"ABCDEFGHJKMNPQRSTUVWXYZ23456789";
pub const CODE_LENGTH: usize = 8;

/// The texts this module's routes refuse with (`core::refusals`).
const REFUSALS: &[&str] = &[
    COUNT_REQUIRED,
    COUNT_NUMBER,
    COUNT_MAX,
    COUNT_MIN,
    PARTNER_REQUIRED,
    CATEGORY_REQUIRED,
    NOT_PROMO_PARTNER,
    NOT_PARTNERS_CAMPAIGN,
    CODE_UNKNOWN,
    CODE_USED,
    "The chosen partner does not exist.",
    "The chosen campaign does not exist.",
];

pub fn routes() -> Api {
    const TAG: &str = "Promo codes";
    crud::routes(&PROMO_CODES)
        .refuses(Audience::People, REFUSALS)
        .add(
            Method::POST,
            "/api/promoCode",
            post(create),
            Doc::new(TAG, "Generate count (1 to 500) unique 8-character codes for a partner's campaign")
                .roles(PROMO_CODES.write)
                .json_body::<NewPromoCodes>()
                .rules_of(BATCH_FIELDS)
                .returns::<Generated>(201),
        )
        .add(
            Method::GET,
            "/api/promoCode/export/{campaignCategoryId}",
            get(export),
            Doc::new(TAG, "Download Promocode.xlsx: the codes of one campaign (the id from campaign/forPromoCode)")
                .roles(PROMO_CODES.read)
                .query_schema("partnerId", "Optional: the partner the campaign must belong to", query::int(1, i64::MAX))
                .answers(404, "No such campaign, or not one of that partner's")
                .returns_file(),
        )
}

/// `POST promoCode`. Read field by field (see `fields`), so `"count": "abc"` is a field error.
#[derive(serde::Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)]
pub struct NewPromoCodes {
    partner_id: i64,
    /// The id of the chosen "campaign category" choice (a campaign of the partner).
    campaign_id: i64,
    /// 1 to 500.
    count: i64,
}

#[derive(Serialize, ToSchema)]
pub struct Generated {
    /// How many codes were written.
    count: usize,
    codes: Vec<String>,
}

/// A code from the operating system's cryptographic random source (through `rand`'s thread
/// generator, a CSPRNG reseeded from it), each letter drawn uniformly from [`ALPHABET`].
pub fn new_code(rng: &mut impl Rng) -> String {
    (0..CODE_LENGTH).map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char).collect()
}

pub const CODE_UNKNOWN: &str = "This partner has no such promo code.";
pub const CODE_USED: &str = "This promo code was already used.";

/// Marks the partner's code used now (a partner's till redeeming it), once: an unknown code is a
/// 404 and a used one a 409, both on `code`.
pub fn redeem(tx: &Connection, partner_id: i64, code: &str) -> AppResult<i64> {
    let found: Option<(i64, bool)> = tx
        .prepare_cached(
            "SELECT id, is_used FROM promo_codes WHERE code = ?1 AND partner_id = ?2 AND deleted_at IS NULL",
        )?
        .query_row((code, partner_id), |r| Ok((r.get("id")?, r.get("is_used")?)))
        .optional()?;
    let (id, used) = found.ok_or_else(|| AppError::no_such("code", CODE_UNKNOWN))?;
    if used {
        return Err(AppError::conflict_on("code", CODE_USED));
    }
    Columns::new().set("is_used", true).set("used_date", crate::db::now_iso()).update(tx, "promo_codes", id)?;
    Ok(id)
}

/// The partner hands out promo codes and the campaign is its own, live and confirmed.
fn check_target(tx: &crate::db::sql::Connection, partner_id: i64, campaign_id: i64) -> AppResult<()> {
    let promo: bool = tx
        .query_row("SELECT is_promo_code_using FROM partners WHERE id = ?1 AND deleted_at IS NULL", [partner_id], |r| {
            r.get("is_promo_code_using")
        })
        .optional()?
        .ok_or_else(|| AppError::no_such("partnerId", "The chosen partner does not exist."))?;
    if !promo {
        return Err(AppError::conflict_on("partnerId", NOT_PROMO_PARTNER));
    }
    let campaign_partner = campaigns::partner_of(tx, campaign_id)?
        .ok_or_else(|| AppError::no_such("campaignId", "The chosen campaign does not exist."))?;
    if campaign_partner != partner_id {
        return Err(AppError::no_such("campaignId", NOT_PARTNERS_CAMPAIGN));
    }
    Ok(())
}

/// Writes `count` codes of the batch's partner and campaign (`batch`) that no row of the table
/// has (deleted rows keep theirs), retrying the rare collision, in the caller's transaction.
fn write_codes(tx: &Connection, batch: &Values, count: usize) -> AppResult<Vec<String>> {
    let mut rng = rand::rng();
    let mut codes = Vec::with_capacity(count);
    let mut seen = HashSet::with_capacity(count);
    // 31^8 ≈ 8.5e11 codes: a collision is rare, a long run of them means something is wrong.
    let mut attempts = 0;
    while codes.len() < count {
        attempts += 1;
        if attempts > count * 10 + 100 {
            return Err(AppError::Internal(anyhow::anyhow!("could not find unused promo codes")));
        }
        let code = new_code(&mut rng);
        if !seen.insert(code.clone()) {
            continue;
        }
        if BATCH_FORM.write(batch).set("code", code.as_str()).insert_unless_taken(tx, "code")? {
            codes.push(code);
        }
    }
    Ok(codes)
}

async fn create(
    State(state): State<AppState>,
    ApiJson(body): ApiJson<Value>,
) -> AppResult<(StatusCode, Json<Generated>)> {
    let values = read_json_fields(BATCH_FIELDS, &body)?;
    let number = |name| values.number(name).unwrap_or_default();
    let (partner_id, campaign_id, count) = (number("partnerId"), number("campaignId"), number("count"));
    let codes = state
        .db
        .write(move |tx| {
            check_target(tx, partner_id, campaign_id)?;
            write_codes(tx, &values, count as usize)
        })
        .await?;
    Ok((StatusCode::CREATED, Json(Generated { count: codes.len(), codes })))
}

async fn export(
    State(state): State<AppState>,
    PathId(campaign_id): PathId,
    query: QueryMap,
    headers: HeaderMap,
) -> AppResult<Response> {
    // Row ids start at 1: a lower one names no campaign, like any other unknown id.
    if campaign_id <= 0 {
        return Err(AppError::NotFound("Campaign not found.".into()));
    }
    let partner_id = match query.get("partnerId") {
        None => None,
        Some(raw) => match crate::core::validation::parse_whole(raw) {
            Some(id) if id > 0 => Some(id),
            _ => return Err(AppError::field("partnerId", PARTNER_REQUIRED)),
        },
    };
    let campaign_partner: i64 = state
        .db
        .run(move |conn| {
            campaigns::partner_of(conn, campaign_id)?.ok_or_else(|| AppError::NotFound("Campaign not found.".into()))
        })
        .await?;
    if partner_id.is_some_and(|partner| partner != campaign_partner) {
        return Err(AppError::no_such("campaignId", NOT_PARTNERS_CAMPAIGN));
    }
    let narrowed = QueryMap::parse(Some(&format!("CampaignId={campaign_id}")));
    crud::export_file(&PROMO_CODES, State(state), narrowed, headers).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_eight_unambiguous_characters() {
        let mut rng = rand::rng();
        for _ in 0..2000 {
            let code = new_code(&mut rng);
            assert_eq!(code.len(), CODE_LENGTH);
            assert!(code.bytes().all(|b| ALPHABET.contains(&b)), "{code}");
            assert!(!code.contains(['0', 'O', '1', 'I', 'L']), "{code}");
        }
    }
}
