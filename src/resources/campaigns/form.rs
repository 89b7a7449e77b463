//! Reading and checking the campaign form (the back office's and a partner's), with the
//! specification's messages, and its description in the document.

use std::collections::BTreeSet;

use rusqlite::ToSql;
use time::format_description::well_known::Rfc3339;
use time::macros::format_description;
use time::{Date, Duration, OffsetDateTime, PrimitiveDateTime, Time};
use utoipa::openapi::schema::Type;

use crate::core::error::{AppError, AppResult};
use crate::core::patterns;
use crate::core::validation::Validator;
use crate::db::format_iso;
use crate::http::api::Rule::{Message, Note, Pattern, Range, Required};
use crate::http::api::{Doc, Rule};
use crate::http::files::{self, CheckedImage};
use crate::http::form_fields::{Field, FieldKind, Mode, document_fields, read_fields};
use crate::http::forms::Form;
use crate::resources::campaign_categories::check_order;

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

/// What [`read_input`] requires of the form's fields, with its messages, for the document (and
/// so for the client's form, whose words are generated from it).
pub(super) const FORM_RULES: [(&str, &[Rule]); 9] = [
    ("partnerId", &[Required, Message("required", PARTNER_REQUIRED)]),
    ("campaignCategoryId", &[Required, Message("required", CATEGORY_REQUIRED)]),
    (
        "discountPercent",
        &[
            Required,
            Range(0, 100),
            Message("required", DISCOUNT_REQUIRED),
            Message("format", DISCOUNT_NUMBER),
            Message("minimum", DISCOUNT_MIN),
            Message("maximum", DISCOUNT_MAX),
            Message("whole", DISCOUNT_WHOLE),
        ],
    ),
    (
        "startDate",
        &[
            Required,
            Pattern(patterns::INSTANT),
            Message("required", START_REQUIRED),
            Message("format", DATE_FORMAT),
            Message("notPast", START_IN_PAST),
        ],
    ),
    (
        "expireDate",
        &[
            Required,
            Pattern(patterns::INSTANT),
            Note("After startDate."),
            Message("required", EXPIRE_REQUIRED),
            Message("format", DATE_FORMAT),
            Message("afterStart", EXPIRE_BEFORE_START),
        ],
    ),
    ("order", &[Range(1, i64::MAX)]),
    ("assets", &[Range(1, i64::MAX), Message("format", ASSET_IDS)]),
    // Required on create (the create document says so); the messages stand for both.
    ("file", &[Message("required", FILE_REQUIRED)]),
    ("backgroundFile", &[Message("required", BACKGROUND_REQUIRED)]),
];

/// The names and descriptions in the three content languages: declared fields (their checks,
/// rules and messages from one declaration).
pub(super) static TEXT_FIELDS: &[Field] = &[
    Field::input("nameAz", FieldKind::Text).required(NAME_REQUIRED),
    Field::input("nameEn", FieldKind::Text).required(NAME_REQUIRED),
    Field::input("nameRu", FieldKind::Text).required(NAME_REQUIRED),
    Field::input("descriptionAz", FieldKind::Text).required(DESCRIPTION_REQUIRED),
    Field::input("descriptionEn", FieldKind::Text).required(DESCRIPTION_REQUIRED),
    Field::input("descriptionRu", FieldKind::Text).required(DESCRIPTION_REQUIRED),
];

pub(super) fn with_form_rules(doc: Doc) -> Doc {
    let doc = document_fields(TEXT_FIELDS, doc, Mode::Create);
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
        .fold(document_fields(TEXT_FIELDS, doc.multipart(&fields), Mode::Create), |doc, (field, rules)| {
            doc.rules(field, rules)
        })
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
    ("order", Type::Integer),
    ("assets", Type::Integer),
    ("file", Type::String),
    ("backgroundFile", Type::String),
];

pub(crate) struct CampaignInput {
    pub(super) partner_id: i64,
    pub(super) category_id: i64,
    pub(super) discount: i64,
    pub(super) start: String,
    pub(super) expire: String,
    pub(super) names: [String; 3],
    pub(super) descriptions: [String; 3],
    pub(super) special_offer: bool,
    pub(super) premium: bool,
    pub(super) trend: bool,
    pub(super) order: Option<i64>,
    pub(super) assets: Vec<i64>,
    pub(super) image: Option<CheckedImage>,
    pub(super) background: Option<CheckedImage>,
}

impl CampaignInput {
    /// The stored columns as named parameters, shared by create and edit so they cannot drift.
    pub(super) fn columns<'a>(
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
pub(super) fn flag(v: &mut Validator, form: &Form, field: &str) -> bool {
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
pub(super) fn id_field(v: &mut Validator, form: &Form, field: &str, required: &str) -> i64 {
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

pub(super) fn date_field(v: &mut Validator, form: &Form, field: &str, required: &str) -> Option<OffsetDateTime> {
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
    let texts = read_fields(TEXT_FIELDS, form, Mode::Create, &mut v);
    let names = ["nameAz", "nameEn", "nameRu"].map(|field| texts.get(field).to_string());
    let descriptions = ["descriptionAz", "descriptionEn", "descriptionRu"].map(|field| texts.get(field).to_string());
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
