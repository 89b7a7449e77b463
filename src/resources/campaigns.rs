//! Campaigns: the confirmed list (Campaigns) and the unconfirmed one (Expected Campaigns) on the
//! generic mechanism, plus multipart create and edit with two images and linked assets, approve,
//! send-notification, and the pickers other screens load (order positions, notification targets,
//! a partner's campaigns for promo codes). Positions within a category are kept 1..n by
//! [`ORDER`] inside each write's transaction.

use std::collections::BTreeSet;

use axum::Json;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{HeaderMap, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post, put};
use rusqlite::types::Value as SqlValue;
use rusqlite::{Connection, OptionalExtension, ToSql, params_from_iter};
use serde::Deserialize;
use serde_json::{Value, json};
use time::format_description::well_known::Rfc3339;
use time::macros::format_description;
use time::{Date, Duration, OffsetDateTime, PrimitiveDateTime, Time};
use utoipa::ToSchema;
use utoipa::openapi::schema::Type;

use super::campaign_categories::{check_order, require_category};
use super::ordering::Sequence;
use crate::auth::{CurrentUser, Roles};
use crate::core::error::{AppError, AppResult};
use crate::core::patterns;
use crate::core::validation::Validator;
use crate::crud::{self, Change, Column, Export, Filter, Kind, Language, ListPage, Resource, Search, Sql, ValueKind};
use crate::db::{CountCache, format_iso, now_iso};
use crate::http::api::Rule::{Note, Pattern, Range, Required};
use crate::http::api::{Api, Doc, Rule, query};
use crate::http::extract::{ApiJson, QueryMap};
use crate::http::files::{self, CheckedImage};
use crate::http::forms::{Form, MULTIPART_LIMIT};
use crate::http::state::AppState;

const FROM: &str = "campaigns c JOIN partners p ON p.id = c.partner_id \
     JOIN campaign_categories cc ON cc.id = c.campaign_category_id \
     LEFT JOIN files f ON f.id = c.file_id";

/// [`files::FILE_PATH_SQL`] for the background image, read in a subquery whose `files` row is
/// aliased `f` too, so both paths always follow the one expression the image module defines.
const BACKGROUND_PATH_SQL: &str = {
    const PARTS: [&str; 3] = ["(SELECT ", files::FILE_PATH_SQL, " FROM files f WHERE f.id = c.background_file_id)"];
    const LEN: usize = PARTS[0].len() + PARTS[1].len() + PARTS[2].len();
    const BYTES: [u8; LEN] = {
        let mut out = [0u8; LEN];
        let (mut at, mut part) = (0, 0);
        while part < PARTS.len() {
            let bytes = PARTS[part].as_bytes();
            let mut i = 0;
            while i < bytes.len() {
                out[at] = bytes[i];
                at += 1;
                i += 1;
            }
            part += 1;
        }
        out
    };
    match std::str::from_utf8(&BYTES) {
        Ok(sql) => sql,
        Err(_) => panic!("the background path SQL is not UTF-8"),
    }
};

const NAME: Sql = Sql::Localized(["c.name_az", "c.name_en", "c.name_ru"]);

const COLUMNS: &[Column] = &[
    Column::new("id", "c.id", Kind::Int),
    Column::new("filePath", files::FILE_PATH_SQL, Kind::File),
    Column::new("backgroundFilePath", BACKGROUND_PATH_SQL, Kind::File).detail_only(),
    Column::new("partnerId", "c.partner_id", Kind::Int).detail_only(),
    Column::new("partnerName", "p.name", Kind::Text),
    Column::localized("name", ["c.name_az", "c.name_en", "c.name_ru"]),
    Column::new("nameAz", "c.name_az", Kind::Text),
    Column::new("nameEn", "c.name_en", Kind::Text).detail_only(),
    Column::new("nameRu", "c.name_ru", Kind::Text).detail_only(),
    Column::localized("description", ["c.description_az", "c.description_en", "c.description_ru"]).detail_only(),
    Column::new("descriptionAz", "c.description_az", Kind::Text).detail_only(),
    Column::new("descriptionEn", "c.description_en", Kind::Text).detail_only(),
    Column::new("descriptionRu", "c.description_ru", Kind::Text).detail_only(),
    Column::new("discountPercent", "c.discount_percent", Kind::Int),
    Column::new("specialOffer", "c.special_offer", Kind::Bool),
    Column::new("isPremium", "c.is_premium", Kind::Bool),
    Column::new("isTrend", "c.is_trend", Kind::Bool),
    Column::new("startDate", "c.start_date", Kind::DateTime),
    Column::new("expireDate", "c.expire_date", Kind::DateTime),
    Column::new("campaignCategoryId", "c.campaign_category_id", Kind::Int),
    Column::localized("categoryName", ["cc.name_az", "cc.name_en", "cc.name_ru"]),
    Column::new("order", "c.order_no", Kind::Int),
    Column::new("isActive", "c.is_active", Kind::Bool),
    Column::new("isConfirmed", "c.is_confirmed", Kind::Bool),
    Column::new("notificationStatus", "c.notification_status", Kind::Words(&["Not sent", "Sent"])),
    Column::new("createdAt", "c.created_at", Kind::DateTime).detail_only(),
];

const FILTERS: &[Filter] = &[
    Filter::contains("PartnerName", "p.name"),
    // Whichever language the operator types the name in.
    Filter::searched(
        "CampaignName",
        "(c.name_az || ' ' || c.name_en || ' ' || c.name_ru)",
        Search { key: "c.id", table: "campaigns_search", columns: "names", scoped: false },
    ),
    Filter::equals("DiscountPercent", "c.discount_percent", ValueKind::Int),
    Filter::on_date("ExpireDate", "c.expire_date"),
];

const EXPORT_COLUMNS: &[(&str, &str)] = &[
    ("Partner name", "partnerName"),
    ("Campaign name", "name"),
    ("Category", "categoryName"),
    ("Discount percent", "discountPercent"),
    ("Special offer", "specialOffer"),
    ("Premium", "isPremium"),
    ("Trend", "isTrend"),
    ("Start date", "startDate"),
    ("Expire date", "expireDate"),
    ("Order", "order"),
    ("Active", "isActive"),
    ("Notification status", "notificationStatus"),
];

/// What the campaign declarations share: the table, its joins, columns and filters.
const BASE: Resource = Resource {
    path: "campaign",
    tag: "Campaigns",
    name: "Campaign",
    table: "campaigns",
    from: FROM,
    scope: "c.deleted_at IS NULL AND c.is_confirmed = 1",
    id: "c.id",
    total_key: Some("campaigns:1"),
    columns: COLUMNS,
    filters: FILTERS,
    export: None,
    read: Roles::ANYONE,
    write: Roles::EDITORS,
    toggle: true,
    delete: true,
    on_change: Some(changed),
    detail_extra: Some(linked_assets),
};

/// Campaigns (`GET campaign`): confirmed campaigns only; campaigns made here are confirmed.
pub static CAMPAIGNS: Resource =
    Resource { export: Some(Export { file_name: "Campaign.xlsx", columns: EXPORT_COLUMNS }), ..BASE };

/// Expected Campaigns (`GET campaign/notConfirmed`): campaigns partners sent, not yet approved.
/// They open, change and delete through the `campaign` calls like any campaign.
pub static EXPECTED: Resource = Resource {
    path: "campaign/notConfirmed",
    tag: "Expected campaigns",
    scope: "c.deleted_at IS NULL AND c.is_confirmed = 0",
    total_key: Some("campaigns:0"),
    export: Some(Export { file_name: "ExpectedCampaigns.xlsx", columns: EXPORT_COLUMNS }),
    toggle: false,
    delete: false,
    on_change: None,
    ..BASE
};

/// Every live campaign, confirmed or not: what `campaign/{id}`, `DELETE campaign` and
/// `PATCH campaign/active` look rows up in, and what create and edit answer with.
pub static CAMPAIGN_ROWS: Resource = Resource { scope: "c.deleted_at IS NULL", total_key: None, ..BASE };

/// Live campaigns (confirmed or not, active or not) hold positions 1..n within their category.
pub const ORDER: Sequence = Sequence { table: "campaigns", group: Some("campaign_category_id") };

/// The ids and names of a campaign's assets.
fn linked_assets(conn: &Connection, id: i64, _: Language) -> AppResult<Vec<(&'static str, Value)>> {
    let mut stmt = conn.prepare_cached(
        "SELECT a.id, a.name FROM campaign_assets ca JOIN assets a ON a.id = ca.asset_id
         WHERE ca.campaign_id = ?1 AND a.deleted_at IS NULL ORDER BY a.id",
    )?;
    let rows =
        stmt.query_map([id], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?)))?.collect::<Result<Vec<_>, _>>()?;
    let ids = rows.iter().map(|(id, _)| json!(id)).collect();
    let named = rows.iter().map(|(id, name)| json!({"id": id, "name": name})).collect();
    Ok(vec![("assets", Value::Array(ids)), ("assetList", Value::Array(named))])
}

/// After a delete, the categories the campaigns left close their gaps (same transaction).
fn changed(tx: &Connection, _: &CurrentUser, change: &Change) -> AppResult<()> {
    let Change::Deleted(ids) = change else { return Ok(()) };
    let placeholders = vec!["?"; ids.len()].join(", ");
    let categories: Vec<i64> = tx
        .prepare(&format!("SELECT DISTINCT campaign_category_id FROM campaigns WHERE id IN ({placeholders})"))?
        .query_map(params_from_iter(ids.iter()), |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    for category in categories {
        ORDER.place(tx, category, None, None)?;
    }
    Ok(())
}

pub const PARTNER_REQUIRED: &str = "Partner is required";
pub const DISCOUNT_REQUIRED: &str = "Discount percent is required";
pub const DISCOUNT_NUMBER: &str = "Discount percent must be a number";
pub const DISCOUNT_MIN: &str = "Discount percent must be at least 0";
pub const DISCOUNT_MAX: &str = "Discount percent cannot be greater than 100";
pub const DISCOUNT_WHOLE: &str = "Discount percent must be a whole number";
pub const EXPIRE_REQUIRED: &str = "Expire date is required";
pub const START_REQUIRED: &str = "Start date is required";
pub const START_IN_PAST: &str = "Start date cannot be earlier than now";
pub const EXPIRE_BEFORE_START: &str = "Expire date must be after the start date";
pub const DATE_FORMAT: &str = "Send the date and time as e.g. 2026-12-01T10:00:00+04:00";
pub const CATEGORY_REQUIRED: &str = "Campaign category is required";
pub const NAME_REQUIRED: &str = "Name is required";
pub const DESCRIPTION_REQUIRED: &str = "Description is required";
pub const FILE_REQUIRED: &str = "File is required";
pub const BACKGROUND_REQUIRED: &str = "Background file is required";
pub const ASSET_IDS: &str = "assets must be asset ids";
pub const TEXT_REQUIRED: &str = "Notification text is required";
pub const ALREADY_SENT: &str = "A notification was already sent for this campaign.";
pub const NOT_APPROVED_YET: &str = "Approve the campaign before sending a notification.";
pub const ALREADY_APPROVED: &str = "The campaign is already approved.";
pub const FOREIGN_PARTNER: &str = "A partner submits campaigns for itself only: partnerId names another partner.";

/// A start date this far in the past still counts as "now": the form was filled in a moment
/// ago, and the date-time input has minute precision.
const START_GRACE: Duration = Duration::minutes(5);

/// What [`read_input`] requires of the form's fields, for the document.
const FORM_RULES: [(&str, &[Rule]); 13] = [
    ("partnerId", &[Required]),
    ("campaignCategoryId", &[Required]),
    ("discountPercent", &[Required, Range(0, 100)]),
    ("startDate", &[Required, Pattern(patterns::INSTANT)]),
    ("expireDate", &[Required, Pattern(patterns::INSTANT), Note("After startDate.")]),
    ("nameAz", &[Required, Pattern(patterns::NOT_BLANK)]),
    ("nameEn", &[Required, Pattern(patterns::NOT_BLANK)]),
    ("nameRu", &[Required, Pattern(patterns::NOT_BLANK)]),
    ("descriptionAz", &[Required, Pattern(patterns::NOT_BLANK)]),
    ("descriptionEn", &[Required, Pattern(patterns::NOT_BLANK)]),
    ("descriptionRu", &[Required, Pattern(patterns::NOT_BLANK)]),
    ("order", &[Range(1, i64::MAX)]),
    ("assets", &[Range(1, i64::MAX)]),
];

fn with_form_rules(doc: Doc) -> Doc {
    FORM_RULES.iter().fold(doc, |doc, (field, rules)| doc.rules(field, rules))
}

/// The document of the form a partner submits through its portal: the back office's create form
/// and rules without `partnerId`, which the partner's key decides.
pub(crate) fn partner_submission(doc: Doc) -> Doc {
    let fields: Vec<(&str, Type)> =
        FORM_FIELDS.iter().filter(|(name, _)| !matches!(*name, "id" | "partnerId")).cloned().collect();
    FORM_RULES
        .iter()
        .filter(|(field, _)| *field != "partnerId")
        .fold(doc.multipart(&fields), |doc, (field, rules)| doc.rules(field, rules))
        .rules("file", &[Required])
        .rules("backgroundFile", &[Required])
        .rules("startDate", &[Note("Not in the past.")])
}

const FORM_FIELDS: &[(&str, Type)] = &[
    ("id", Type::Integer),
    ("partnerId", Type::Integer),
    ("campaignCategoryId", Type::Integer),
    ("discountPercent", Type::Integer),
    ("startDate", Type::String),
    ("expireDate", Type::String),
    ("nameAz", Type::String),
    ("nameEn", Type::String),
    ("nameRu", Type::String),
    ("descriptionAz", Type::String),
    ("descriptionEn", Type::String),
    ("descriptionRu", Type::String),
    ("specialOffer", Type::Boolean),
    ("isPremium", Type::Boolean),
    ("isTrend", Type::Boolean),
    ("order", Type::Integer),
    ("assets", Type::Integer),
    ("file", Type::String),
    ("backgroundFile", Type::String),
];

#[derive(Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct Approve {
    pub id: i64,
}

#[derive(Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct NotificationRequest {
    pub id: i64,
    pub text: String,
}

pub fn routes() -> Api {
    const TAG: &str = "Campaigns";
    let paged = |doc: Doc| {
        doc.query_schema("Skip", "Rows to skip (default 0)", query::int(0, i64::MAX)).query_schema(
            "Take",
            "Page size, 1 to 100 (without Skip and Take: up to 1000 rows)",
            query::int(1, crud::MAX_PAGE),
        )
    };
    crud::routes_over(&CAMPAIGNS, &CAMPAIGN_ROWS)
        .merge(crud::routes(&EXPECTED))
        .add(
            Method::POST,
            "/api/campaign",
            post(create).layer(DefaultBodyLimit::max(MULTIPART_LIMIT)),
            with_form_rules(Doc::new(TAG, "Create a campaign (multipart; image `file` and `backgroundFile` required; repeated `assets`; `order` 1..n, default last)"))
                .roles(Roles::EDITORS)
                .multipart(&FORM_FIELDS[1..])
                .rules("file", &[Required])
                .rules("backgroundFile", &[Required])
                .rules("startDate", &[Note("Not in the past.")])
                .answers(404, "The partner, category or an asset the form names does not exist")
                .returns_schema(201, crud::row_schema(&CAMPAIGN_ROWS)),
        )
        .add(
            Method::PUT,
            "/api/campaign",
            put(update).layer(DefaultBodyLimit::max(MULTIPART_LIMIT)),
            with_form_rules(Doc::new(TAG, "Edit a campaign (multipart; without a file an image stays; a taken order moves the others down)"))
                .roles(Roles::EDITORS)
                .multipart(FORM_FIELDS)
                .rules("id", &[Required])
                .answers(404, "No such campaign, or the partner, category or an asset the form names does not exist")
                .returns_schema(200, crud::row_schema(&CAMPAIGN_ROWS)),
        )
        .add(
            Method::PUT,
            "/api/campaign/approve",
            put(approve),
            Doc::new(TAG, "Approve an expected campaign: it leaves campaign/notConfirmed and joins campaign")
                .roles(Roles::EDITORS)
                .json_body::<Approve>()
                .returns_schema(200, crud::row_schema(&CAMPAIGN_ROWS)),
        )
        .add(
            Method::PUT,
            "/api/campaign/changeNotificationStatus",
            put(send_notification),
            Doc::new(TAG, "Send a campaign's notification once: stores a type-2 notification and sets notificationStatus 1")
                .roles(Roles::EDITORS)
                .json_body::<NotificationRequest>()
                .rules("id", &[Required])
                .rules("text", &[Required, Pattern(patterns::NOT_BLANK)])
                .answers(404, "No such campaign")
                .returns_schema(200, crud::row_schema(&CAMPAIGN_ROWS)),
        )
        .add(
            Method::GET,
            "/api/campaign/campaignOrdersNew",
            get(|s, q, h| order_options(s, q, h, true)),
            paged(Doc::new(TAG, "Positions in a category, in order, with partner and campaign names"))
                .roles(Roles::ANYONE)
                .required_query("categoryId", "The category", query::whole(i64::MIN, i64::MAX))
                .returns::<ListPage>(200),
        )
        .add(
            Method::GET,
            "/api/campaign/orders",
            get(|s, q, h| order_options(s, q, h, false)),
            paged(Doc::new(TAG, "Positions of every category (or of categoryId), in order"))
                .roles(Roles::ANYONE)
                .query_schema("categoryId", "A category (optional)", query::int(i64::MIN, i64::MAX))
                .returns::<ListPage>(200),
        )
        .add(
            Method::GET,
            "/api/campaign/notificationCategory",
            get(notification_categories),
            paged(Doc::new(TAG, "Active categories a notification can point to: id, name, nameAz"))
                .roles(Roles::ANYONE)
                .returns::<ListPage>(200),
        )
        .add(
            Method::GET,
            "/api/campaign/notficationCampany",
            get(notification_campaigns),
            paged(Doc::new(TAG, "Active confirmed campaigns a notification can point to: id, name, nameAz, partnerName"))
                .roles(Roles::ANYONE)
                .query_schema("name", "Part of the name, any language (optional)", query::any_text())
                .returns::<ListPage>(200),
        )
        .add(
            Method::GET,
            "/api/campaign/forPromoCode",
            get(promo_campaigns),
            Doc::new(TAG, "A partner's confirmed campaigns for promo codes: id, name, nameAz")
                .roles(Roles::ANYONE)
                .required_query("partnerId", "The partner", query::whole(i64::MIN, i64::MAX))
                .answers(404, "No such partner")
                .returns::<ListPage>(200),
        )
}

pub(crate) struct CampaignInput {
    partner_id: i64,
    category_id: i64,
    discount: i64,
    start: String,
    expire: String,
    names: [String; 3],
    descriptions: [String; 3],
    special_offer: bool,
    premium: bool,
    trend: bool,
    order: Option<i64>,
    assets: Vec<i64>,
    image: Option<CheckedImage>,
    background: Option<CheckedImage>,
}

impl CampaignInput {
    /// The stored columns as named parameters, shared by create and edit so they cannot drift.
    fn columns<'a>(
        &'a self,
        file_id: &'a Option<i64>,
        background_id: &'a Option<i64>,
    ) -> Vec<(&'static str, &'a dyn ToSql)> {
        let [name_az, name_en, name_ru] = &self.names;
        let [description_az, description_en, description_ru] = &self.descriptions;
        vec![
            (":partner", &self.partner_id),
            (":category", &self.category_id),
            (":discount", &self.discount),
            (":start", &self.start),
            (":expire", &self.expire),
            (":file", file_id),
            (":background", background_id),
            (":name_az", name_az),
            (":name_en", name_en),
            (":name_ru", name_ru),
            (":description_az", description_az),
            (":description_en", description_en),
            (":description_ru", description_ru),
            (":special_offer", &self.special_offer),
            (":premium", &self.premium),
            (":trend", &self.trend),
        ]
    }
}

/// `true`/`on`/`1` or `false`/`off`/`0`; missing means false, anything else is refused.
fn flag(v: &mut Validator, form: &Form, field: &str) -> bool {
    let text = form.text(field).to_ascii_lowercase();
    let value = match text.as_str() {
        "true" | "on" | "1" => Some(true),
        "" | "false" | "off" | "0" => Some(false),
        _ => None,
    };
    v.check(field, value.is_some(), &format!("{field} must be true or false"));
    value.unwrap_or(false)
}

/// A required id field: blank or 0 is `required`; text that is not a number is refused too.
fn id_field(v: &mut Validator, form: &Form, field: &str, required: &str) -> i64 {
    let text = form.text(field);
    match text.parse::<i64>() {
        Ok(id) if id > 0 => id,
        _ if text.is_empty() || text == "0" || text == "null" => {
            v.check(field, false, required);
            0
        }
        _ => {
            v.check(field, false, &format!("{field} must be a whole number"));
            0
        }
    }
}

/// An instant: RFC 3339 (`2026-12-01T10:00:00+04:00`), or without an offset (the
/// `datetime-local` shape, taken as UTC), or a bare day (its UTC midnight).
pub fn parse_instant(raw: &str) -> Option<OffsetDateTime> {
    if let Ok(at) = OffsetDateTime::parse(raw, &Rfc3339) {
        return Some(at);
    }
    let local = [
        format_description!("[year]-[month]-[day]T[hour]:[minute]"),
        format_description!("[year]-[month]-[day]T[hour]:[minute]:[second]"),
        format_description!("[year]-[month]-[day]T[hour]:[minute]:[second].[subsecond]"),
        format_description!("[year]-[month]-[day] [hour]:[minute]:[second]"),
    ];
    if let Some(at) = local.iter().find_map(|format| PrimitiveDateTime::parse(raw, format).ok()) {
        return Some(at.assume_utc());
    }
    Date::parse(raw, format_description!("[year]-[month]-[day]"))
        .ok()
        .map(|day| day.with_time(Time::MIDNIGHT).assume_utc())
}

fn date_field(v: &mut Validator, form: &Form, field: &str, required: &str) -> Option<OffsetDateTime> {
    let text = form.text(field);
    if text.is_empty() {
        v.check(field, false, required);
        return None;
    }
    let at = parse_instant(&text);
    v.check(field, at.is_some(), DATE_FORMAT);
    at
}

/// The specification's campaign rules, each failure under its field; images are checked last
/// (a refused image is a 413/415 naming its field).
async fn read_input(form: &Form, creating: bool) -> AppResult<CampaignInput> {
    read_input_for(form, creating, None).await
}

/// [`read_input`] for a campaign of `partner` when given (a partner's own submission: its form
/// need not name a partner, and one that names another partner is refused).
pub(crate) async fn read_input_for(form: &Form, creating: bool, partner: Option<i64>) -> AppResult<CampaignInput> {
    let mut v = Validator::new();
    let partner_id = match partner {
        Some(partner) => {
            let named = form.text("partnerId");
            if !named.is_empty() && crate::core::validation::parse_whole(&named) != Some(partner) {
                return Err(AppError::Forbidden(FOREIGN_PARTNER.into()));
            }
            partner
        }
        None => id_field(&mut v, form, "partnerId", PARTNER_REQUIRED),
    };
    let discount_text = form.text("discountPercent");
    let discount = discount_text.replace(',', ".").parse::<f64>().ok().filter(|d| d.is_finite());
    v.check("discountPercent", !discount_text.is_empty(), DISCOUNT_REQUIRED)
        .check("discountPercent", discount.is_some(), DISCOUNT_NUMBER)
        .check("discountPercent", discount.is_none_or(|d| d >= 0.0), DISCOUNT_MIN)
        .check("discountPercent", discount.is_none_or(|d| d <= 100.0), DISCOUNT_MAX)
        .check("discountPercent", discount.is_none_or(|d| d.fract() == 0.0), DISCOUNT_WHOLE);
    let start = date_field(&mut v, form, "startDate", START_REQUIRED);
    let expire = date_field(&mut v, form, "expireDate", EXPIRE_REQUIRED);
    if creating && let Some(start) = start {
        v.check("startDate", start >= OffsetDateTime::now_utc() - START_GRACE, START_IN_PAST);
    }
    if let (Some(start), Some(expire)) = (start, expire) {
        v.check("expireDate", expire > start, EXPIRE_BEFORE_START);
    }
    let category_id = id_field(&mut v, form, "campaignCategoryId", CATEGORY_REQUIRED);
    let names = ["nameAz", "nameEn", "nameRu"].map(|field| {
        let text = form.text(field);
        v.required(field, &text, NAME_REQUIRED);
        text
    });
    let descriptions = ["descriptionAz", "descriptionEn", "descriptionRu"].map(|field| {
        let text = form.text(field);
        v.required(field, &text, DESCRIPTION_REQUIRED);
        text
    });
    if creating {
        v.check("file", form.file("file").is_some(), FILE_REQUIRED).check(
            "backgroundFile",
            form.file("backgroundFile").is_some(),
            BACKGROUND_REQUIRED,
        );
    }
    let special_offer = flag(&mut v, form, "specialOffer");
    let premium = flag(&mut v, form, "isPremium");
    let trend = flag(&mut v, form, "isTrend");
    check_order(&mut v, form);
    let raw_assets = form.list("assets");
    let assets: BTreeSet<i64> = raw_assets.iter().filter_map(|a| a.parse().ok()).filter(|a| *a > 0).collect();
    v.check("assets", raw_assets.iter().all(|a| a.parse::<i64>().is_ok_and(|a| a > 0)), ASSET_IDS);
    v.finish()?;
    let image = files::checked_upload(form.file("file")).await?;
    let background = files::checked_upload(form.file("backgroundFile")).await.map_err(|error| match error {
        AppError::FieldRefused { status, message, .. } => {
            AppError::FieldRefused { status, field: "backgroundFile", message }
        }
        other => other,
    })?;
    Ok(CampaignInput {
        partner_id,
        category_id,
        discount: discount.unwrap_or(0.0) as i64,
        start: start.map(format_iso).unwrap_or_default(),
        expire: expire.map(format_iso).unwrap_or_default(),
        names,
        descriptions,
        special_offer,
        premium,
        trend,
        order: form.int("order", "").ok().flatten(),
        assets: assets.into_iter().collect(),
        image,
        background,
    })
}

/// The partner, category and assets a form names exist (and are not deleted).
fn check_references(tx: &Connection, input: &CampaignInput) -> AppResult<()> {
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

fn link_assets(tx: &Connection, campaign_id: i64, assets: &[i64]) -> AppResult<()> {
    tx.execute("DELETE FROM campaign_assets WHERE campaign_id = ?1", [campaign_id])?;
    let mut insert = tx.prepare_cached("INSERT INTO campaign_assets (campaign_id, asset_id) VALUES (?1, ?2)")?;
    for asset in assets {
        insert.execute((campaign_id, asset))?;
    }
    Ok(())
}

async fn create(State(state): State<AppState>, form: Form) -> AppResult<(StatusCode, Json<Value>)> {
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
    let mut columns = input.columns(&file_id, &background_id);
    columns.push((":confirmed", &confirmed));
    tx.execute(
        "INSERT INTO campaigns (partner_id, campaign_category_id, discount_percent, start_date, expire_date,
                                    file_id, background_file_id, name_az, name_en, name_ru,
                                    description_az, description_en, description_ru,
                                    special_offer, is_premium, is_trend, is_confirmed, order_no)
             VALUES (:partner, :category, :discount, :start, :expire, :file, :background, :name_az, :name_en,
                     :name_ru, :description_az, :description_en, :description_ru, :special_offer, :premium,
                     :trend, :confirmed, 0)",
        columns.as_slice(),
    )?;
    let id = tx.last_insert_rowid();
    ORDER.place(tx, input.category_id, Some(id), input.order)?;
    link_assets(tx, id, &input.assets)?;
    Ok(id)
}

async fn update(State(state): State<AppState>, form: Form) -> AppResult<Json<Value>> {
    let id = form.id()?;
    let input = read_input(&form, false).await?;
    crud::save_then_fetch(&state, &CAMPAIGN_ROWS, move |tx| {
        let old_category: i64 = tx
            .query_row("SELECT campaign_category_id FROM campaigns WHERE id = ?1 AND deleted_at IS NULL", [id], |r| {
                r.get(0)
            })
            .optional()?
            .ok_or_else(|| CAMPAIGN_ROWS.not_found())?;
        check_references(tx, &input)?;
        let mut input = input;
        let file_id = files::store_upload(tx, input.image.take())?;
        let background_id = files::store_upload(tx, input.background.take())?;
        let now = now_iso();
        let mut columns = input.columns(&file_id, &background_id);
        columns.extend([(":id", &id as &dyn ToSql), (":now", &now)]);
        tx.execute(
            "UPDATE campaigns SET partner_id = :partner, campaign_category_id = :category,
                    discount_percent = :discount, start_date = :start, expire_date = :expire,
                    file_id = COALESCE(:file, file_id), background_file_id = COALESCE(:background, background_file_id),
                    name_az = :name_az, name_en = :name_en, name_ru = :name_ru,
                    description_az = :description_az, description_en = :description_en,
                    description_ru = :description_ru, special_offer = :special_offer, is_premium = :premium,
                    is_trend = :trend, updated_at = :now
             WHERE id = :id",
            columns.as_slice(),
        )?;
        if old_category != input.category_id {
            // Leaving a category closes its gap; the new one makes room (last without an order).
            ORDER.place(tx, old_category, None, None)?;
            ORDER.place(tx, input.category_id, Some(id), input.order)?;
        } else if input.order.is_some() {
            ORDER.place(tx, input.category_id, Some(id), input.order)?;
        }
        link_assets(tx, id, &input.assets)?;
        Ok(id)
    })
    .await
    .map(Json)
}

async fn approve(State(state): State<AppState>, ApiJson(body): ApiJson<Approve>) -> AppResult<Json<Value>> {
    crud::save_then_fetch(&state, &CAMPAIGN_ROWS, move |tx| {
        let confirmed: bool = tx
            .query_row("SELECT is_confirmed FROM campaigns WHERE id = ?1 AND deleted_at IS NULL", [body.id], |r| {
                r.get(0)
            })
            .optional()?
            .ok_or_else(|| CAMPAIGN_ROWS.not_found())?;
        if confirmed {
            return Err(AppError::Conflict(ALREADY_APPROVED.into()));
        }
        tx.execute("UPDATE campaigns SET is_confirmed = 1, updated_at = ?2 WHERE id = ?1", (body.id, now_iso()))?;
        Ok(body.id)
    })
    .await
    .map(Json)
}

async fn send_notification(
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
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
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
        tx.execute(
            "INSERT INTO notifications (header, text, file_id, type, campaign_id) VALUES (?1, ?2, ?3, 2, ?4)",
            (&header, &text, file_id, body.id),
        )?;
        tx.execute(
            "UPDATE campaigns SET notification_status = 1, updated_at = ?2 WHERE id = ?1",
            (body.id, now_iso()),
        )?;
        Ok(body.id)
    })
    .await
    .map(Json)
}

/// `Skip`/`Take` as the lists read them: without both, up to [`crud::UNPAGED_LIMIT`] rows.
pub(crate) fn paging(query: &QueryMap) -> AppResult<(i64, i64)> {
    let skip = query.int("Skip")?.unwrap_or(0);
    if skip < 0 {
        return Err(AppError::BadRequest("Skip must be 0 or more.".into()));
    }
    let take = match query.int("Take")? {
        None if query.get("Skip").is_some() => 10,
        None => crud::UNPAGED_LIMIT,
        Some(take) if (1..=crud::MAX_PAGE).contains(&take) => take,
        Some(_) => return Err(AppError::BadRequest(format!("Take must be between 1 and {}.", crud::MAX_PAGE))),
    };
    Ok((skip, take))
}

/// A picker's rows: `SELECT {select} FROM {table} {joins} WHERE {condition} {order}`.
struct Picker<'a> {
    select: &'a str,
    table: &'a str,
    /// Joins the selected columns need; the total is counted without them.
    joins: &'a str,
    condition: &'a str,
    order: &'a str,
}

impl Picker<'_> {
    /// One page and its total, the total remembered until the database changes (as list totals).
    fn page(
        &self,
        conn: &Connection,
        counts: &CountCache,
        params: Vec<SqlValue>,
        (skip, take): (i64, i64),
        row: impl Fn(&rusqlite::Row) -> rusqlite::Result<Value>,
    ) -> AppResult<ListPage> {
        let count_sql = format!("SELECT COUNT(*) FROM {} WHERE {}", self.table, self.condition);
        let total_count = counts.total(format!("{count_sql} {params:?}"), || {
            Ok(conn.prepare_cached(&count_sql)?.query_row(params_from_iter(params.iter()), |r| r.get(0))?)
        })?;
        if skip >= total_count {
            return Ok(ListPage { data: vec![], total_count });
        }
        let sql = format!(
            "SELECT {} FROM {} {} WHERE {} {} LIMIT {take} OFFSET {skip}",
            self.select, self.table, self.joins, self.condition, self.order
        );
        let data = conn
            .prepare_cached(&sql)?
            .query_map(params_from_iter(params.iter()), |r| row(r))?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(ListPage { data, total_count })
    }
}

/// A category's positions: the same for every caller, asked for by every campaign form, and large
/// (a category may hold hundreds), so the whole answer is remembered until the database changes.
async fn order_options(
    State(state): State<AppState>,
    query: QueryMap,
    headers: HeaderMap,
    category_required: bool,
) -> AppResult<Response> {
    let category = query.int("categoryId")?;
    if category_required && category.is_none() {
        return Err(AppError::field("categoryId", CATEGORY_REQUIRED));
    }
    let paging = paging(&query)?;
    let name = NAME.for_language(Language::from_headers(&headers));
    let counts = state.db.counts();
    let key = format!("campaignOrders {category:?} {paging:?} {name:?}");
    let answer = state
        .db
        .run(move |conn| {
            counts.answer(key, || {
                let (condition, params) = match category {
                    Some(id) => ("c.deleted_at IS NULL AND c.campaign_category_id = ?1", vec![SqlValue::Integer(id)]),
                    None => ("c.deleted_at IS NULL", vec![]),
                };
                let picker = Picker {
                    select: &format!(
                        "c.id, c.order_no, p.name, {name}, c.campaign_category_id, c.is_active, c.is_confirmed"
                    ),
                    table: "campaigns c",
                    joins: "JOIN partners p ON p.id = c.partner_id",
                    condition,
                    order: "ORDER BY c.campaign_category_id, c.order_no, c.id",
                };
                let page = picker.page(conn, &counts, params, paging, |r| {
                    Ok(json!({
                        "id": r.get::<_, i64>(0)?,
                        "order": r.get::<_, i64>(1)?,
                        "partnerName": r.get::<_, String>(2)?,
                        "campaignName": r.get::<_, String>(3)?,
                        "campaignCategoryId": r.get::<_, i64>(4)?,
                        "isActive": r.get::<_, bool>(5)?,
                        "isConfirmed": r.get::<_, bool>(6)?,
                    }))
                })?;
                Ok(serde_json::to_vec(&page).map_err(anyhow::Error::from)?)
            })
        })
        .await?;
    Ok(([(header::CONTENT_TYPE, "application/json")], axum::body::Bytes::from_owner(answer)).into_response())
}

async fn notification_categories(
    State(state): State<AppState>,
    query: QueryMap,
    headers: HeaderMap,
) -> AppResult<Json<ListPage>> {
    let paging = paging(&query)?;
    let name = Sql::Localized(["name_az", "name_en", "name_ru"]).for_language(Language::from_headers(&headers));
    let counts = state.db.counts();
    state
        .db
        .run(move |conn| {
            let picker = Picker {
                select: &format!("id, {name}, name_az"),
                table: "campaign_categories",
                joins: "",
                condition: "deleted_at IS NULL AND is_active = 1",
                order: "ORDER BY order_no, id",
            };
            picker.page(conn, &counts, vec![], paging, |r| {
                Ok(json!({"id": r.get::<_, i64>(0)?, "name": r.get::<_, String>(1)?, "nameAz": r.get::<_, String>(2)?}))
            })
        })
        .await
        .map(Json)
}

async fn notification_campaigns(
    State(state): State<AppState>,
    query: QueryMap,
    headers: HeaderMap,
) -> AppResult<Json<ListPage>> {
    let paging = paging(&query)?;
    let name = NAME.for_language(Language::from_headers(&headers));
    let term = query.get("name").map(str::to_string);
    let counts = state.db.counts();
    state
        .db
        .run(move |conn| {
            let live = "c.deleted_at IS NULL AND c.is_confirmed = 1 AND c.is_active = 1";
            let (condition, params) = match term {
                Some(term) => (
                    format!("{live} AND contains_text(c.name_az || ' ' || c.name_en || ' ' || c.name_ru, ?1)"),
                    vec![SqlValue::Text(term)],
                ),
                None => (live.to_string(), vec![]),
            };
            let picker = Picker {
                select: &format!("c.id, {name}, c.name_az, p.name"),
                table: "campaigns c",
                joins: "JOIN partners p ON p.id = c.partner_id",
                condition: &condition,
                order: "ORDER BY c.id DESC",
            };
            picker.page(conn, &counts, params, paging, |r| {
                Ok(json!({
                    "id": r.get::<_, i64>(0)?, "name": r.get::<_, String>(1)?,
                    "nameAz": r.get::<_, String>(2)?, "partnerName": r.get::<_, String>(3)?,
                }))
            })
        })
        .await
        .map(Json)
}

async fn promo_campaigns(
    State(state): State<AppState>,
    query: QueryMap,
    headers: HeaderMap,
) -> AppResult<Json<ListPage>> {
    let partner = query.int("partnerId")?.ok_or_else(|| AppError::field("partnerId", PARTNER_REQUIRED))?;
    let paging = paging(&query)?;
    let name = NAME.for_language(Language::from_headers(&headers));
    let counts = state.db.counts();
    state
        .db
        .run(move |conn| {
            let exists = conn
                .query_row("SELECT 1 FROM partners WHERE id = ?1 AND deleted_at IS NULL", [partner], |_| Ok(()))
                .optional()?;
            exists.ok_or_else(|| AppError::NotFound("Partner not found.".into()))?;
            let picker = Picker {
                select: &format!("c.id, {name}, c.name_az"),
                table: "campaigns c",
                joins: "",
                condition: "c.deleted_at IS NULL AND c.is_confirmed = 1 AND c.partner_id = ?1",
                order: "ORDER BY c.id DESC",
            };
            picker.page(conn, &counts, vec![SqlValue::Integer(partner)], paging, |r| {
                Ok(json!({"id": r.get::<_, i64>(0)?, "name": r.get::<_, String>(1)?, "nameAz": r.get::<_, String>(2)?}))
            })
        })
        .await
        .map(Json)
}
