//! Reading and checking the campaign form (the back office's and a partner's), with the
//! specification's messages, and its description in the document.

use std::collections::BTreeSet;

use time::format_description::well_known::Rfc3339;
use time::macros::format_description;
use time::{Date, Duration, OffsetDateTime, PrimitiveDateTime, Time};
use utoipa::openapi::schema::Type;

use crate::core::error::{AppError, AppResult};
use crate::core::patterns;
use crate::core::validation::Validator;
use crate::db::format_iso;
use crate::http::api::Rule::{Message, Note, Range, Repeated, Required};
use crate::http::api::{Doc, Rule};
use crate::http::files::{self, CheckedImage};
use crate::http::form_fields::{Bounds, Check, Field, FieldKind, Mode, Values, read_fields};
use crate::http::forms::Form;
use crate::resources::campaign_categories::check_order;

use super::limits::{self, EMPLOYEE_LIMIT, LIMIT_FIELDS, LIMIT_PERIOD, PERIOD_RULES, TOTAL_LIMIT, VERIFIED};

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
pub(super) const START_GRACE: Duration = Duration::minutes(5);

/// The rules the form's declared fields do not carry: the dates' order, the position, the
/// assets and the images (read by the campaign's writer), for the document (and so for the
/// client's form, whose words are generated from it).
pub(super) const FORM_RULES: [(&str, &[Rule]); 7] = [
    ("startDate", &[Note(INSTANT_FORMAT), Message("notPast", START_IN_PAST)]),
    ("expireDate", &[Note(INSTANT_FORMAT), Note("After startDate."), Message("afterStart", EXPIRE_BEFORE_START)]),
    ("order", &[Range(1, i64::MAX)]),
    ("assets", &[Range(1, i64::MAX), Message("format", ASSET_IDS), Repeated]),
    // Required on create (the create document says so); the messages stand for both.
    ("file", &[Message("required", FILE_REQUIRED)]),
    ("backgroundFile", &[Message("required", BACKGROUND_REQUIRED)]),
    ("usageLimitPeriod", PERIOD_RULES),
];

/// The shapes [`parse_instant`] reads, as the document describes a date field.
const INSTANT_FORMAT: &str = "A day, yyyy-MM-dd (its start in UTC), or a day and time in ISO 8601: yyyy-MM-ddTHH:mm[:ss[.fff]] \
     with Z or an offset such as +04:00 (UTC without one; a space may stand for the T).";

fn is_instant(text: &str) -> bool {
    parse_instant(text).is_some()
}

const INSTANT: Check = Check {
    pattern: patterns::INSTANT,
    test: is_instant,
    message: DATE_FORMAT,
    example: "2030-01-01T10:00:00+04:00",
    refused: "tomorrow",
};

const DISCOUNT: Bounds = Bounds {
    min: 0,
    max: 100,
    invalid: DISCOUNT_NUMBER,
    below: DISCOUNT_MIN,
    above: DISCOUNT_MAX,
    fraction: Some(DISCOUNT_WHOLE),
};

/// The back office's choice of partner (a partner's own submission is its key's partner), stored
/// by the writer as `partner_id` either way.
const PARTNER: Field =
    Field::input("partnerId", FieldKind::Id { invalid: "partnerId must be a whole number" }).required(PARTNER_REQUIRED);
const DISCOUNT_PERCENT: Field =
    Field::whole("discountPercent", "discount_percent", &DISCOUNT).required(DISCOUNT_REQUIRED);
/// The dates are stored as read instants in UTC (`start_date`, `expire_date`), not as sent.
const START_DATE: Field = Field::input("startDate", FieldKind::Checked(&INSTANT)).required(START_REQUIRED);
const EXPIRE_DATE: Field = Field::input("expireDate", FieldKind::Checked(&INSTANT)).required(EXPIRE_REQUIRED);
const CATEGORY: Field =
    Field::id("campaignCategoryId", "campaign_category_id", "campaignCategoryId must be a whole number")
        .required(CATEGORY_REQUIRED);
const NAME_AZ: Field = Field::text("nameAz", "name_az").required(NAME_REQUIRED);
const NAME_EN: Field = Field::text("nameEn", "name_en").required(NAME_REQUIRED);
const NAME_RU: Field = Field::text("nameRu", "name_ru").required(NAME_REQUIRED);
const DESCRIPTION_AZ: Field = Field::text("descriptionAz", "description_az").required(DESCRIPTION_REQUIRED);
const DESCRIPTION_EN: Field = Field::text("descriptionEn", "description_en").required(DESCRIPTION_REQUIRED);
const DESCRIPTION_RU: Field = Field::text("descriptionRu", "description_ru").required(DESCRIPTION_REQUIRED);
const SPECIAL_OFFER: Field = Field::flag("specialOffer", "special_offer", "specialOffer must be true or false");
const PREMIUM: Field = Field::flag("isPremium", "is_premium", "isPremium must be true or false");
const TREND: Field = Field::flag("isTrend", "is_trend", "isTrend must be true or false");

/// Every declared field of the form, in the order the groups below are read.
pub(super) const CAMPAIGN_FIELDS: &[Field] = &[
    PARTNER,
    DISCOUNT_PERCENT,
    START_DATE,
    EXPIRE_DATE,
    CATEGORY,
    NAME_AZ,
    NAME_EN,
    NAME_RU,
    DESCRIPTION_AZ,
    DESCRIPTION_EN,
    DESCRIPTION_RU,
    SPECIAL_OFFER,
    PREMIUM,
    TREND,
    TOTAL_LIMIT,
    EMPLOYEE_LIMIT,
    LIMIT_PERIOD,
    VERIFIED,
];

/// The back office's choice of partner.
pub(super) static PARTNER_FIELD: &[Field] = &[PARTNER];

/// The discount and the dates, read before the dates' order is checked.
pub(super) static TERMS_FIELDS: &[Field] = &[DISCOUNT_PERCENT, START_DATE, EXPIRE_DATE];

/// The category, and the names and descriptions in the three content languages.
pub(super) static CONTENT_FIELDS: &[Field] =
    &[CATEGORY, NAME_AZ, NAME_EN, NAME_RU, DESCRIPTION_AZ, DESCRIPTION_EN, DESCRIPTION_RU];

/// The three marks a campaign may carry.
pub(super) static FLAG_FIELDS: &[Field] = &[SPECIAL_OFFER, PREMIUM, TREND];

/// The declared fields of a form, partner's or back office's, in the order they are read.
fn declared(with_partner: bool) -> impl Iterator<Item = &'static [Field]> {
    let partner: &'static [Field] = if with_partner { PARTNER_FIELD } else { &[] };
    [partner, TERMS_FIELDS, CONTENT_FIELDS, FLAG_FIELDS, LIMIT_FIELDS].into_iter()
}

pub(super) fn with_form_rules(doc: Doc) -> Doc {
    let doc = declared(true).fold(doc, |doc, fields| doc.rules_of(fields));
    FORM_RULES.iter().fold(doc, |doc, (field, rules)| doc.rules(field, rules))
}

/// The document of the form a partner submits through its portal: the back office's create form
/// and rules without `partnerId`, which the partner's key decides.
pub(crate) fn partner_submission(doc: Doc) -> Doc {
    let fields: Vec<(&str, Type)> =
        FORM_FIELDS.iter().filter(|(name, _)| !matches!(*name, "id" | "partnerId")).cloned().collect();
    let doc = declared(false).fold(doc.multipart(&fields), |doc, fields| doc.rules_of(fields));
    FORM_RULES
        .iter()
        .fold(doc, |doc, (field, rules)| doc.rules(field, rules))
        .rules("file", &[Required])
        .rules("backgroundFile", &[Required])
        .rules("startDate", &[Note("Not in the past.")])
}

pub(super) const FORM_FIELDS: &[(&str, Type)] = &[
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
    ("usageLimitTotal", Type::Integer),
    ("usageLimitPerEmployee", Type::Integer),
    ("usageLimitPeriod", Type::String),
    ("verifiedOnly", Type::Boolean),
    ("order", Type::Integer),
    ("assets", Type::Integer),
    ("file", Type::String),
    ("backgroundFile", Type::String),
];

/// A campaign form as read and checked, for the campaign's writer.
pub(crate) struct CampaignInput {
    /// The declared fields stored as read, in their groups: the discount, the category, names and
    /// descriptions, the marks.
    pub(super) terms: Values,
    pub(super) content: Values,
    pub(super) flags: Values,
    /// The limits' declared fields, and the period as stored (only with a per-employee limit).
    pub(super) limits: Values,
    pub(super) period: Option<&'static str>,
    pub(super) partner_id: i64,
    pub(super) category_id: i64,
    /// The dates as instants in UTC.
    pub(super) start: String,
    pub(super) expire: String,
    pub(super) order: Option<i64>,
    pub(super) assets: Vec<i64>,
    pub(super) image: Option<CheckedImage>,
    pub(super) background: Option<CheckedImage>,
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

/// The specification's campaign rules, each failure under its field; images are checked last
/// (a refused image is a 413/415 naming its field).
pub(super) async fn read_input(form: &Form, creating: bool) -> AppResult<CampaignInput> {
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
        None => read_fields(PARTNER_FIELD, form, Mode::Create, &mut v).number("partnerId").unwrap_or_default(),
    };
    let terms = read_fields(TERMS_FIELDS, form, Mode::Create, &mut v);
    let start = parse_instant(terms.get("startDate"));
    let expire = parse_instant(terms.get("expireDate"));
    if creating && let Some(start) = start {
        v.check("startDate", start >= OffsetDateTime::now_utc() - START_GRACE, START_IN_PAST);
    }
    if let (Some(start), Some(expire)) = (start, expire) {
        v.check("expireDate", expire > start, EXPIRE_BEFORE_START);
    }
    let content = read_fields(CONTENT_FIELDS, form, Mode::Create, &mut v);
    if creating {
        v.check("file", form.file("file").is_some(), FILE_REQUIRED).check(
            "backgroundFile",
            form.file("backgroundFile").is_some(),
            BACKGROUND_REQUIRED,
        );
    }
    let flags = read_fields(FLAG_FIELDS, form, Mode::Create, &mut v);
    let limits = read_fields(LIMIT_FIELDS, form, Mode::Create, &mut v);
    let period = limits::read_period(&limits, &mut v);
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
        category_id: content.number("campaignCategoryId").unwrap_or_default(),
        start: start.map(format_iso).unwrap_or_default(),
        expire: expire.map(format_iso).unwrap_or_default(),
        terms,
        content,
        flags,
        limits,
        period,
        order: form.int("order", "").ok().flatten(),
        assets: assets.into_iter().collect(),
        image,
        background,
    })
}
