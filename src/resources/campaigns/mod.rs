//! Campaigns: the confirmed list (Campaigns) and the unconfirmed one (Expected Campaigns) on the
//! generic mechanism, plus multipart create and edit with two images and linked assets, approve,
//! send-notification, and the pickers other screens load (order positions, notification targets,
//! a partner's campaigns for promo codes). Positions within a category are kept 1..n by
//! [`ORDER`] inside each write's transaction.

mod form;
pub mod limits;
mod pickers;
pub mod writes;

use crate::crud::{Recorded, Trash};
use crate::db::activity::action;
use crate::db::sql::{Connection, OptionalExtension, params_from_iter};
use axum::extract::DefaultBodyLimit;
use axum::http::Method;
use axum::routing::{get, post, put};
use serde::Deserialize;
use serde_json::{Value, json};
use utoipa::ToSchema;

use super::ordering::Sequence;
use crate::auth::{CurrentUser, Roles};
use crate::core::error::AppResult;
use crate::core::patterns;
use crate::core::refusals::Audience;
use crate::crud::{
    self, Change, Column, DetailExtra, Export, ExtraShape, Filter, Kind, Language, ListPage, Resource, Search, Sql,
    Total, ValueKind,
};
use crate::http::api::Rule::{Message, Note, Pattern, Required};
use crate::http::api::{Api, Doc, query};
use crate::http::files;
use crate::http::forms::MULTIPART_LIMIT;

pub use form::*;
pub(crate) use pickers::paging;
use pickers::{notification_campaigns, notification_categories, order_options, promo_campaigns};
pub(crate) use writes::insert;
use writes::{approve, create, send_notification, update};

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
    Column::new("partnerId", "c.partner_id", Kind::Int).detail_only().never_null(),
    Column::new("partnerName", "p.name", Kind::Text).never_null(),
    Column::localized("name", ["c.name_az", "c.name_en", "c.name_ru"]).never_null(),
    Column::new("nameAz", "c.name_az", Kind::Text).never_null(),
    Column::new("nameEn", "c.name_en", Kind::Text).detail_only().never_null(),
    Column::new("nameRu", "c.name_ru", Kind::Text).detail_only().never_null(),
    Column::localized("description", ["c.description_az", "c.description_en", "c.description_ru"])
        .detail_only()
        .never_null(),
    Column::new("descriptionAz", "c.description_az", Kind::Text).detail_only().never_null(),
    Column::new("descriptionEn", "c.description_en", Kind::Text).detail_only().never_null(),
    Column::new("descriptionRu", "c.description_ru", Kind::Text).detail_only().never_null(),
    Column::new("discountPercent", "c.discount_percent", Kind::Int).never_null(),
    Column::new("specialOffer", "c.special_offer", Kind::Bool).never_null(),
    Column::new("isPremium", "c.is_premium", Kind::Bool).never_null(),
    Column::new("isTrend", "c.is_trend", Kind::Bool).never_null(),
    Column::new("startDate", "c.start_date", Kind::DateTime).never_null(),
    Column::new("expireDate", "c.expire_date", Kind::DateTime).never_null(),
    Column::new("campaignCategoryId", "c.campaign_category_id", Kind::Int).never_null(),
    Column::localized("categoryName", ["cc.name_az", "cc.name_en", "cc.name_ru"]).never_null(),
    Column::new("order", "c.order_no", Kind::Int).never_null(),
    Column::new("isActive", "c.is_active", Kind::Bool).never_null(),
    Column::new("isConfirmed", "c.is_confirmed", Kind::Bool).never_null(),
    Column::new("notificationStatus", "c.notification_status", Kind::Words(&["Not sent", "Sent"])).never_null(),
    Column::new("usageLimitTotal", "c.usage_limit_total", Kind::Int),
    Column::new("usageLimitPerEmployee", "c.usage_limit_per_employee", Kind::Int),
    Column::new("usageLimitPeriod", "c.usage_limit_period", Kind::Text),
    Column::new("verifiedOnly", "c.verified_only", Kind::Bool).never_null(),
    Column::new("usesCount", limits::USES_COUNT_SQL, Kind::Int).unsorted().never_null(),
    Column::new("usesRemaining", limits::USES_REMAINING_SQL, Kind::Int).unsorted(),
    Column::new("createdAt", "c.created_at", Kind::DateTime).detail_only().never_null(),
];

const FILTERS: &[Filter] = &[
    Filter::contains("PartnerName", "p.name"),
    // Whichever language the operator types the name in.
    Filter::searched(
        "CampaignName",
        "(c.name_az || ' ' || c.name_en || ' ' || c.name_ru)",
        Search { key: "c.id", of: "campaigns", columns: "names", scoped: false },
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
    ("Uses", "usesCount"),
    ("Usage limit", "usageLimitTotal"),
    ("Uses remaining", "usesRemaining"),
    ("Limit per employee", "usageLimitPerEmployee"),
    ("Limit period", "usageLimitPeriod"),
    ("Verified only", "verifiedOnly"),
];

/// What the campaign declarations share: the table, its joins, columns and filters.
/// A campaign made (in the back office or sent by its partner), changed, or approved.
pub static CAMPAIGN_EVENTS: crate::crud::events::Events = crate::crud::events::Events {
    created: Some("campaign.created"),
    updated: Some("campaign.updated"),
    deleted: None,
    named: &[CAMPAIGN_APPROVED],
    partner: Some("c.partner_id"),
    asset: None,
};

/// An expected campaign approved in the back office.
pub const CAMPAIGN_APPROVED: &str = "campaign.approved";

const BASE: Resource = Resource {
    path: "campaign",
    row: "CampaignRow",
    tag: "Campaigns",
    name: "Campaign",
    table: "campaigns",
    from: FROM,
    scope: "c.deleted_at IS NULL AND c.is_confirmed = 1",
    id: "c.id",
    total: Total::Maintained("campaigns:1"),
    columns: COLUMNS,
    filters: FILTERS,
    export: None,
    read: Roles::ANYONE,
    write: Roles::EDITORS,
    toggle: true,
    delete: true,
    on_change: Some(changed),
    detail_extra: Some(DetailExtra {
        fields: &[
            ("assets", ExtraShape::Ids),
            ("assetList", ExtraShape::Objects(&[("id", Kind::Int), ("name", Kind::Text)])),
        ],
        load: linked_assets,
    }),
    plural: "campaigns",
    label: Some("{row}.name_en"),
    history: &[
        Recorded::table("campaigns"),
        // A redemption code given for the campaign is an event of the campaign's, without the
        // code: it is a secret until the partner's till confirms it, and then the use it became
        // is recorded (a usage record's entry, verified, with the branch).
        Recorded {
            record: "{row}.campaign_id",
            created: Some(action::REDEMPTION_CODE_ISSUED),
            events_only: true,
            ..Recorded::table("redemption_codes")
        }
        .quiet(&["code"]),
    ],
    trash: Some(Trash {
        parents: &[
            ("partner_id", "partnerId", "partners", "partner"),
            ("campaign_category_id", "campaignCategoryId", "campaign_categories", "category"),
        ],
        owned: &[
            ("campaign_assets", "campaign_id = ?1", "campaign links"),
            ("redemption_codes", "campaign_id = ?1", "redemption codes"),
        ],
        ..Trash::PLAIN
    }),
    events: Some(&CAMPAIGN_EVENTS),
    unrecorded: &[(
        "campaign_assets",
        "which assets a campaign is offered to is part of its form, written with it; the campaign's entry records the form's own fields",
    )],
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
    total: Total::Maintained("campaigns:0"),
    export: Some(Export { file_name: "ExpectedCampaigns.xlsx", columns: EXPORT_COLUMNS }),
    toggle: false,
    delete: false,
    on_change: None,
    // The same records as `CAMPAIGNS`, which records their history and keeps them in the trash.
    history: &[],
    trash: None,
    events: None,
    unrecorded: &[],
    ..BASE
};

/// Every live campaign, confirmed or not: what `campaign/{id}`, `DELETE campaign` and
/// `PATCH campaign/active` look rows up in, and what create and edit answer with.
pub static CAMPAIGN_ROWS: Resource = Resource { scope: "c.deleted_at IS NULL", total: Total::Counted, ..BASE };

/// Live campaigns (confirmed or not, active or not) hold positions 1..n within their category.
pub const ORDER: Sequence = Sequence { table: "campaigns", group: Some("campaign_category_id") };

/// The partner of the live campaign `id`; `None` when there is no such campaign.
pub fn partner_of(conn: &Connection, id: i64) -> AppResult<Option<i64>> {
    Ok(conn
        .query_row("SELECT partner_id FROM campaigns WHERE id = ?1 AND deleted_at IS NULL", [id], |r| {
            r.get("partner_id")
        })
        .optional()?)
}

/// The ids and names of a campaign's assets.
fn linked_assets(conn: &Connection, id: i64, _: Language) -> AppResult<Vec<(&'static str, Value)>> {
    let mut stmt = conn.prepare_cached(
        "SELECT a.id, a.name FROM campaign_assets ca JOIN assets a ON a.id = ca.asset_id
         WHERE ca.campaign_id = ?1 AND a.deleted_at IS NULL ORDER BY a.id",
    )?;
    let rows = stmt
        .query_map([id], |r| Ok((r.get::<i64>("id")?, r.get::<String>("name")?)))?
        .collect::<Result<Vec<_>, _>>()?;
    let ids = rows.iter().map(|(id, _)| json!(id)).collect();
    let named = rows.iter().map(|(id, name)| json!({"id": id, "name": name})).collect();
    Ok(vec![("assets", Value::Array(ids)), ("assetList", Value::Array(named))])
}

/// After a delete, the categories the campaigns left close their gaps (same transaction).
fn changed(tx: &Connection, _: Option<&CurrentUser>, change: &Change) -> AppResult<()> {
    match change {
        Change::Restored(ids) => return crate::resources::ordering::restore_positions(tx, &ORDER, ids),
        Change::Purging(ids) => return ids.iter().try_for_each(|&id| writes::unlink_campaign(tx, id)),
        _ => {}
    }
    let Change::Deleted(ids) = change else { return Ok(()) };
    let placeholders = vec!["?"; ids.len()].join(", ");
    let categories: Vec<i64> = tx
        .prepare(&format!("SELECT DISTINCT campaign_category_id FROM campaigns WHERE id IN ({placeholders})"))?
        .query_map(params_from_iter(ids.iter()), |r| r.get("campaign_category_id"))?
        .collect::<Result<_, _>>()?;
    for category in categories {
        ORDER.place(tx, category, None, None)?;
    }
    Ok(())
}

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

/// The texts this module's routes refuse with (`core::refusals`).
const REFUSALS: &[&str] = &[
    form::PARTNER_REQUIRED,
    form::DISCOUNT_REQUIRED,
    form::DISCOUNT_NUMBER,
    form::DISCOUNT_MIN,
    form::DISCOUNT_MAX,
    form::DISCOUNT_WHOLE,
    form::EXPIRE_REQUIRED,
    form::START_REQUIRED,
    form::START_IN_PAST,
    form::EXPIRE_BEFORE_START,
    form::DATE_FORMAT,
    form::CATEGORY_REQUIRED,
    form::NAME_REQUIRED,
    form::DESCRIPTION_REQUIRED,
    form::FILE_REQUIRED,
    form::BACKGROUND_REQUIRED,
    form::ASSET_IDS,
    form::TEXT_REQUIRED,
    form::ALREADY_SENT,
    form::NOT_APPROVED_YET,
    form::ALREADY_APPROVED,
    form::FOREIGN_PARTNER,
    limits::TOTAL_LIMIT_RANGE,
    limits::EMPLOYEE_LIMIT_RANGE,
    limits::PERIOD_FORMAT,
    limits::PERIOD_REQUIRED,
    limits::VERIFIED_FLAG,
    "There is no partner with id {id}.",
    "There is no asset with id {id}.",
];

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
        .refuses(Audience::People, REFUSALS)
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
                .returns_component(201, crud::row_schema(&CAMPAIGN_ROWS)),
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
                .returns_component(200, crud::row_schema(&CAMPAIGN_ROWS)),
        )
        .add(
            Method::PUT,
            "/api/campaign/approve",
            put(approve),
            Doc::new(TAG, "Approve an expected campaign: it leaves campaign/notConfirmed and joins campaign")
                .roles(Roles::EDITORS)
                .json_body::<Approve>()
                .returns_component(200, crud::row_schema(&CAMPAIGN_ROWS)),
        )
        .add(
            Method::PUT,
            "/api/campaign/changeNotificationStatus",
            put(send_notification),
            Doc::new(TAG, "Send a campaign's notification once: stores a type-2 notification and sets notificationStatus 1")
                .roles(Roles::EDITORS)
                .json_body::<NotificationRequest>()
                .rules("id", &[Required])
                .rules("text", &[Required, Pattern(patterns::NOT_BLANK), Message("required", TEXT_REQUIRED)])
                .answers(404, "No such campaign")
                .returns_component(200, crud::row_schema(&CAMPAIGN_ROWS)),
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
                .query_schema("name", "Part of the name, any language (optional)", query::text())
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
