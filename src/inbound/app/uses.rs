//! What an employee sends: a use of a discount, a wish, a complaint; each lands in the table its
//! back-office screen reads.

use crate::db::sql::{Connection, OptionalExtension};
use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::Deserialize;
use serde_json::Value;
use utoipa::ToSchema;

use crate::core::error::{AppError, AppResult};
use crate::core::periods::{OperatorZone, Period};
use crate::core::validation::Validator;
use crate::crud;
use crate::crud::events::{self, On};
use crate::crud::writes::{Columns, Write, WriteForm};
use crate::db::dialect::{Dialect, Isolation};
use crate::db::format_iso;
use crate::http::extract::ApiJson;
use crate::http::fields;
use crate::http::form_fields::{Bounds, Field, FieldKind, Mode, Sent, Source, Values, read_fields, read_json_fields};
use crate::http::state::AppState;
use crate::resources::campaigns::limits::{self, Limits};
use crate::resources::complaints::COMPLAINTS;
use crate::resources::usage_history::USAGE_HISTORY;
use crate::resources::usage_review::{self, RecentUses, ReviewSettings, UseRow};
use crate::resources::wish_list::WISH_LIST;

use super::{
    CAMPAIGN_EXPIRED, CAMPAIGN_INACTIVE, CAMPAIGN_NOT_OFFERED, CAMPAIGN_NOT_STARTED, DESCRIPTION_REQUIRED,
    EMPLOYEE_REQUIRED, Employee, EmployeeAhead, FULL_NAME_REQUIRED, RATING_RANGE, REASON_REQUIRED, TEXT_REQUIRED,
    active_employee, employee_for_use,
};

/// `POST usage`'s body.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)]
pub struct UsageIn {
    employee_email: String,
    campaign_id: i64,
    /// The partner's branch where the discount was used.
    partner_city_id: Option<i64>,
    /// The employee's rating of the partner, 1 to 5.
    rating: Option<i64>,
}

/// Who uses a discount, by e-mail (also who asks for a redemption code).
pub(crate) const USE_EMPLOYEE: Field = Field::input("employeeEmail", FieldKind::Email).required(EMPLOYEE_REQUIRED);
/// The campaign used (also the one a redemption code is asked for).
pub(crate) const USE_CAMPAIGN: Field =
    Field::id("campaignId", "campaign_id", "Campaign id must be a number").required("Campaign is required");
/// The partner's branch where it is used (also where a redemption code is confirmed).
pub(crate) const USE_BRANCH: Field = Field::id("partnerCityId", "partner_city_id", "partnerCityId must be an id");

/// `POST usage`'s fields, checked in this order.
pub static USAGE_FIELDS: &[Field] = &[
    USE_EMPLOYEE,
    USE_CAMPAIGN,
    USE_BRANCH,
    Field::whole("rating", "rating", &Bounds::one_message(1, 5, RATING_RANGE)),
];

/// A use as stored: the campaign, branch and rating as sent, with a copy of the employee's and
/// the campaign's ids and names as they are now ([`campaign_for_use`]), so the history reads the same
/// after a rename.
pub static USAGE_FORM: WriteForm = WriteForm {
    resource: &USAGE_HISTORY,
    table: "usage_history",
    fields: USAGE_FIELDS,
    image: None,
    extra_parts: &[],
    computed: COMPUTED,
    children: &[],
};

/// The columns a use computes: those [`campaign_for_use`] copies, then the moment the campaign's dates were
/// checked against and whether the partner confirmed the use with a redemption code.
const COMPUTED: &[&str] = &[
    "employee_id",
    "asset_id",
    "partner_id",
    "category_id",
    "employee_email",
    "asset_name",
    "partner_name",
    "campaign_name",
    "category_name",
    "discount_percent",
    "created_at",
    "verified",
];

/// The columns [`campaign_for_use`] copies: every computed one but the last two (the moment, verified).
const SNAPSHOT_COLUMNS: &[&str] = COMPUTED.split_at(COMPUTED.len() - 2).0;

pub(super) async fn usage(
    State(state): State<AppState>,
    ApiJson(body): ApiJson<Value>,
) -> AppResult<(StatusCode, Json<Value>)> {
    let values = read_json_fields(USAGE_FIELDS, &body)?;
    let email = values.get("employeeEmail").to_string();
    let zone = state.settings.time_zone.clone();
    // Uses come from many servers at once: each takes the rows it decides on with row locks (its
    // employee's, a limited campaign's) instead of failing the others' transactions.
    let row = crud::save_then_fetch_with(&state, &USAGE_HISTORY, Isolation::RowLocks, move |tx| {
        let employee = employee_for_use(tx, "employeeEmail", &email)?;
        record_use(tx, employee, &values, false, &zone, time::OffsetDateTime::now_utc())
    })
    .await?;
    Ok((StatusCode::CREATED, Json(row)))
}

/// The campaign as a use reads it (`?1` the campaign, `?2` now, `?3` the employee's e-mail, whose
/// live row is the first, as `active_employee` finds it): whether it may be used, its limits with
/// its kept count of uses, the review rules' thresholds, and the names a use copies
/// ([`SNAPSHOT_COLUMNS`]), in one statement.
fn campaign_for_use() -> &'static str {
    static SQL: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    SQL.get_or_init(|| {
        format!(
            "SELECT c.is_active = 1 AND p.is_active = 1 AND p.deleted_at IS NULL AS active,
                    c.start_date <= ?2 AS started, c.expire_date > ?2 AS unexpired,
                    EXISTS (SELECT 1 FROM campaign_assets ca WHERE ca.campaign_id = c.id AND ca.asset_id = e.asset_id)
                        AS offered,
                    {limits}, {review},
                    e.id AS employee_id, e.asset_id, c.partner_id, c.campaign_category_id AS category_id,
                    e.email AS employee_email, a.name AS asset_name, p.name AS partner_name,
                    c.name_az AS campaign_name, cc.name_az AS category_name, c.discount_percent
             FROM campaigns c JOIN partners p ON p.id = c.partner_id
                  JOIN campaign_categories cc ON cc.id = c.campaign_category_id
                  JOIN employees e ON e.id =
                      (SELECT id FROM employees WHERE email = ?3 AND deleted_at IS NULL ORDER BY id LIMIT 1)
                  JOIN assets a ON a.id = e.asset_id
                  LEFT JOIN usage_review_settings s ON s.id = 1
             WHERE c.id = ?1 AND c.deleted_at IS NULL AND c.is_confirmed = 1",
            limits = limits::LIMITS_COLUMNS_SQL,
            review = usage_review::SETTINGS_COLUMNS_SQL,
        )
    })
}

/// The employee's live uses that the per-employee limit and the review rules count, in one pass
/// over the index `usage_history_employee_time` (employee, moment, partner, campaign) from the
/// earliest window on (`?7`): `own`, uses of the campaign `?2` since `?3` (the limit's period;
/// past every moment when the campaign has no such limit); `recent`, all uses since `?4`
/// (`manyUses`); `elsewhere`, uses at a partner other than `?6` since `?5` (`twoPartners`). The
/// employee is the live one with the e-mail `?1`, found as [`campaign_for_use`] finds them, so
/// the count can be sent with the campaign's read, before the employee's id is known.
const RECENT_USES: &str =
    "SELECT COALESCE(SUM(CASE WHEN campaign_id = ?2 AND created_at >= ?3 THEN 1 ELSE 0 END), 0) AS own,
            COALESCE(SUM(CASE WHEN created_at >= ?4 THEN 1 ELSE 0 END), 0) AS recent,
            COALESCE(SUM(CASE WHEN created_at >= ?5 AND partner_id <> ?6 THEN 1 ELSE 0 END), 0) AS elsewhere
     FROM usage_history
     WHERE employee_id = (SELECT id FROM employees WHERE email = ?1 AND deleted_at IS NULL ORDER BY id LIMIT 1)
       AND created_at >= ?7 AND deleted_at IS NULL";

/// A moment after every stored one (`created_at` is ISO text): the bound of a count that counts
/// nothing.
const AFTER_EVERY_MOMENT: &str = "9999-12-31T23:59:59.999Z";

/// What a campaign's read gives that its recent uses' count is bounded by: the per-employee
/// limit's period, the review rules' thresholds and the campaign's partner.
#[derive(Clone, Copy, PartialEq)]
struct CountedBy {
    employee_period: Option<Period>,
    review: ReviewSettings,
    partner_id: i64,
}

/// What each campaign's last read gave ([`CountedBy`]), remembered so that the next use of it
/// sends its count of recent uses with the campaign's read, one round trip on PostgreSQL instead
/// of two; the count is kept only when the read gives the same bounds (a campaign or the rules
/// changed since cost one more round trip, never a wrong count). Bounded: forgotten when full.
/// A guess in the process's memory, so one for every database a process opens (the tests').
static LAST_READ: std::sync::Mutex<Option<std::collections::HashMap<i64, CountedBy>>> = std::sync::Mutex::new(None);
/// Campaigns remembered in [`LAST_READ`] at most.
const REMEMBERED_CAMPAIGNS: usize = 4096;

impl CountedBy {
    fn last_read(campaign_id: i64) -> Option<CountedBy> {
        crate::db::lock(&LAST_READ).as_ref().and_then(|read| read.get(&campaign_id).copied())
    }

    fn remember(self, campaign_id: i64) {
        let mut read = crate::db::lock(&LAST_READ);
        let read = read.get_or_insert_with(Default::default);
        if read.len() >= REMEMBERED_CAMPAIGNS {
            read.clear();
        }
        read.insert(campaign_id, self);
    }

    /// The values of [`RECENT_USES`] for the employee with `email`'s uses of `campaign_id` at `at`.
    fn recent_uses_values(
        &self,
        email: &str,
        campaign_id: i64,
        zone: &OperatorZone,
        at: time::OffsetDateTime,
    ) -> RecentUsesValues {
        let own_since =
            limits::period_since(self.employee_period, zone, at).unwrap_or_else(|| AFTER_EVERY_MOMENT.to_string());
        let (many_since, partners_since) = self.review.windows(at);
        let from = own_since.as_str().min(many_since.as_str()).min(partners_since.as_str()).to_string();
        (email.to_string(), campaign_id, own_since, many_since, partners_since, self.partner_id, from)
    }
}

/// [`RECENT_USES`]'s values, in its placeholders' order.
type RecentUsesValues = (String, i64, String, String, String, i64, String);

/// Reads [`RECENT_USES`]'s answer: the employee's uses in the per-employee limit's period, and
/// those the review rules count.
fn read_recent_uses(r: &crate::db::sql::Row) -> crate::db::sql::Result<(i64, RecentUses)> {
    Ok((r.get::<i64>("own")?, RecentUses { in_window: r.get("recent")?, elsewhere: r.get("elsewhere")? }))
}

/// What [`check_use`] read of an allowed use, for [`record_use`] to write it.
pub(crate) struct AllowedUse {
    partner_id: i64,
    snapshot: Columns,
    review: ReviewSettings,
    recent: RecentUses,
}

/// Refuses a use of `campaign` by `employee` at `at` (at the partner's `branch` when one is
/// named) that is not allowed now, as every path to a use does: the app's use, a redemption code
/// asked for and a code confirmed at the till. 404 for no such campaign or branch; 409 for a
/// campaign inactive, expired, not started or not offered to the employee's asset, or past a limit
/// (`verified`: the use is a code the partner confirms, which a verified-only campaign takes).
/// Runs in the use's own transaction, so the limits are counted with the writes before it. Two
/// statements read all it needs (and a third the branch, when one is named), both with the
/// employee's look-up, sent ahead, when the campaign's last read says what bounds the count of
/// recent uses ([`CountedBy`]); the campaign's read answers the employee found.
pub(crate) fn check_use(
    tx: &Connection,
    employee: EmployeeAhead<'_>,
    campaign_id: i64,
    branch: Option<i64>,
    verified: bool,
    zone: &OperatorZone,
    at: time::OffsetDateTime,
) -> AppResult<(Employee, AllowedUse)> {
    let now = format_iso(at);
    // Read after the employee's look-up (and its lock) in the same round trip on PostgreSQL; the
    // employee's refusal comes first.
    let campaign = tx.read_ahead(campaign_for_use(), (campaign_id, &now, &employee.email))?;
    // The count of recent uses goes with it when the campaign's last read says what bounds it.
    let guessed = CountedBy::last_read(campaign_id)
        .map(|counted| {
            let values = counted.recent_uses_values(&employee.email, campaign_id, zone, at);
            tx.read_ahead(RECENT_USES, values.clone()).map(|recent_uses| (values, recent_uses))
        })
        .transpose()?;
    let employee = employee.employee()?;
    let campaign = campaign
        .query_row(|r| {
            Ok((
                r.get::<bool>("active")?,
                r.get::<bool>("started")?,
                r.get::<bool>("unexpired")?,
                r.get::<bool>("offered")?,
                r.get::<i64>("partner_id")?,
                Limits::read(r)?,
                r.get::<i64>("campaign_uses")?,
                ReviewSettings::read(r)?,
                Columns::read(r, SNAPSHOT_COLUMNS)?,
            ))
        })
        .optional()?;
    let (active, started, unexpired, offered, partner_id, limits, campaign_uses, review, snapshot) = campaign
        .ok_or_else(|| AppError::no_such("campaignId", format!("There is no campaign with id {campaign_id}.")))?;
    let campaign_uses =
        if limits.limits_total() && tx.is_shared() { locked_campaign_uses(tx, campaign_id)? } else { campaign_uses };
    if !active {
        return Err(AppError::conflict_on("campaignId", CAMPAIGN_INACTIVE));
    }
    if !unexpired {
        return Err(AppError::conflict_on("campaignId", CAMPAIGN_EXPIRED));
    }
    if !started {
        return Err(AppError::conflict_on("campaignId", CAMPAIGN_NOT_STARTED));
    }
    if !offered {
        return Err(AppError::conflict_on("campaignId", CAMPAIGN_NOT_OFFERED));
    }
    if let Some(branch) = branch {
        let found = tx
            .prepare_cached("SELECT 1 FROM partner_cities WHERE id = ?1 AND partner_id = ?2 AND deleted_at IS NULL")?
            .query_row((branch, partner_id), |_| Ok(()))
            .optional()?;
        found.ok_or_else(|| {
            AppError::no_such("partnerCityId", format!("The campaign's partner has no branch with id {branch}."))
        })?;
    }
    // The limits are counted in this transaction, so the use that reaches one is the last.
    let counted = CountedBy { employee_period: limits.employee_period(), review, partner_id };
    let values = counted.recent_uses_values(&employee.email, campaign_id, zone, at);
    let (own, recent) = match guessed {
        Some((sent, recent_uses)) if sent == values => recent_uses.query_row(read_recent_uses)?,
        _ => {
            counted.remember(campaign_id);
            tx.prepare_cached(RECENT_USES)?.query_row(values, read_recent_uses)?
        }
    };
    limits.check(campaign_uses, own, verified)?;
    Ok((employee, AllowedUse { partner_id, snapshot, review, recent }))
}

/// The uses of a campaign with a limit on its uses in all, counted after its row is locked until
/// the commit: where other app servers write at the same moment, the use that reaches the limit
/// is then the last on all of them. A statement of its own after the lock, since under read
/// committed a statement sees what was committed before it began, and the use this one waited
/// for was committed after.
fn locked_campaign_uses(tx: &Connection, campaign_id: i64) -> AppResult<i64> {
    tx.prepare_cached(&format!("SELECT 1 FROM campaigns c WHERE c.id = ?1 {}", Dialect::of(tx).lock_rows("c")))?
        .query_row([campaign_id], |_| Ok(()))?;
    Ok(tx
        .prepare_cached("SELECT COALESCE((SELECT uses FROM campaign_counts WHERE campaign_id = ?1), 0)")?
        .query_row([campaign_id], |r| r.get(0))?)
}

/// Records a use by `employee` as `values` (read with [`USAGE_FIELDS`]) say, at `at`, after
/// [`check_use`]; `verified` when the partner confirmed it with a redemption code. Its id.
pub(crate) fn record_use(
    tx: &Connection,
    employee: EmployeeAhead<'_>,
    values: &Values,
    verified: bool,
    zone: &OperatorZone,
    at: time::OffsetDateTime,
) -> AppResult<i64> {
    let campaign_id = values.number("campaignId").unwrap_or_default();
    // The endpoints listening for the use are read ahead, with the check's first statement.
    let listening = events::listen_ahead(tx, &USAGE_HISTORY, On::Created)?;
    let (employee, allowed) = check_use(tx, employee, campaign_id, values.number("partnerCityId"), verified, zone, at)?;
    // Names are copied as they are now: the history reads the same after a rename.
    let id = USAGE_FORM
        .write(values)
        .computed(allowed.snapshot)
        .set("created_at", format_iso(at).as_str())
        .set("verified", verified)
        .insert(tx)?;
    // The review rules judge the use as written, in its transaction.
    let row = UseRow { id, employee_id: employee.id, partner_id: allowed.partner_id };
    usage_review::flag_use(tx, &row, &allowed.review, allowed.recent, at)?;
    events::raise_heard(tx, &USAGE_HISTORY, On::Created, id, listening)?;
    Ok(id)
}

/// `POST wishes`'s fields.
pub static WISH_FIELDS: &[Field] = &[
    Field::input("employeeEmail", FieldKind::Email).required(EMPLOYEE_REQUIRED),
    Field::text("text", "text").required(TEXT_REQUIRED).max_length(1000),
];

/// A wish as stored: its text, by the employee the e-mail names.
pub static WISH_FORM: WriteForm = WriteForm {
    resource: &WISH_LIST,
    table: "wish_list_requests",
    fields: WISH_FIELDS,
    image: None,
    extra_parts: &[],
    computed: &["employee_id"],
    children: &[],
};

/// `POST wishes`'s body.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)]
pub struct WishIn {
    employee_email: String,
    text: String,
}

pub(super) async fn wish(
    State(state): State<AppState>,
    ApiJson(body): ApiJson<Value>,
) -> AppResult<(StatusCode, Json<Value>)> {
    let values = read_json_fields(WISH_FIELDS, &body)?;
    let email = values.get("employeeEmail").to_string();
    let row = crud::save_then_fetch(&state, &WISH_LIST, move |tx| {
        let employee = active_employee(tx, "employeeEmail", &email)?;
        WISH_FORM.write(&values).set("employee_id", employee.id).insert(tx)
    })
    .await?;
    Ok((StatusCode::CREATED, Json(row)))
}

/// `POST complaints`'s body: an employee by e-mail, or a person by name, e-mail and phone.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)]
pub struct ComplaintIn {
    /// An employee's e-mail; their name, e-mail and phone are taken from Employee list.
    employee_email: Option<String>,
    /// Without employeeEmail: the person's name (required), e-mail (required) and phone.
    full_name: Option<String>,
    email: Option<String>,
    phone: Option<String>,
    /// 1 Discount not honoured, 2 Wrong discount amount, 3 Staff behaviour, 4 App problem, 5 Other.
    reason_id: i64,
    description: String,
}

const EMPLOYEE_EMAIL: Field = Field::input("employeeEmail", FieldKind::Email).required(EMPLOYEE_REQUIRED);
const FULL_NAME: Field = Field::text("fullName", "full_name").required(FULL_NAME_REQUIRED).max_length(100);
const EMAIL: Field = Field::email("email", "email").required("Email is required");
const PHONE: Field = Field::phone("phone", "phone");
const REASON: Field = Field::id("reasonId", "reason_id", "Reason id must be a number").required(REASON_REQUIRED);
const DESCRIPTION: Field = Field::text("description", "description").required(DESCRIPTION_REQUIRED).max_length(2000);

/// Who complains: an employee by e-mail, or else a person by name, e-mail and phone.
pub static COMPLAINING_EMPLOYEE: &[Field] = &[EMPLOYEE_EMAIL];
pub static COMPLAINING_PERSON: &[Field] = &[FULL_NAME, EMAIL, PHONE];
/// What every complaint says, checked after who says it.
pub static COMPLAINT_FIELDS: &[Field] = &[REASON, DESCRIPTION];

/// A complaint as stored: what it says, and who says it: a person's name, e-mail and phone as
/// sent, or an employee's as Employee list has them (computed, with the employee's id).
pub static COMPLAINT_FORM: WriteForm = WriteForm {
    resource: &COMPLAINTS,
    table: "complaints",
    fields: &[EMPLOYEE_EMAIL, FULL_NAME, EMAIL, PHONE, REASON, DESCRIPTION],
    image: None,
    extra_parts: &[],
    computed: &["employee_id", "full_name", "email", "phone"],
    children: &[],
};

enum Complainant {
    Employee(String),
    /// A person's fields as read.
    Person(Values),
}

pub(super) async fn complaint(
    State(state): State<AppState>,
    ApiJson(body): ApiJson<Value>,
) -> AppResult<(StatusCode, Json<Value>)> {
    let body = fields::object(&body)?;
    let mut v = Validator::new();
    // An employee e-mail that is sent (even as something other than text) names the complainant.
    let by_employee = match body.value("employeeEmail") {
        Sent::Missing => false,
        Sent::Text(email) => !email.is_empty(),
        Sent::NotText => true,
    };
    let who = if by_employee {
        let values = read_fields(COMPLAINING_EMPLOYEE, body, Mode::Create, &mut v);
        Complainant::Employee(values.get("employeeEmail").to_string())
    } else {
        Complainant::Person(read_fields(COMPLAINING_PERSON, body, Mode::Create, &mut v))
    };
    let said = read_fields(COMPLAINT_FIELDS, body, Mode::Create, &mut v);
    v.finish()?;
    let reason = said.number("reasonId").unwrap_or_default();
    let row = crud::save_then_fetch(&state, &COMPLAINTS, move |tx| {
        let reason_known =
            tx.query_row("SELECT 1 FROM complaint_reasons WHERE id = ?1", [reason], |_| Ok(())).optional()?;
        reason_known
            .ok_or_else(|| AppError::no_such("reasonId", format!("There is no complaint reason with id {reason}.")))?;
        let complaint = match &who {
            Complainant::Employee(email) => {
                let e = active_employee(tx, "employeeEmail", email)?;
                let by = Columns::new()
                    .set("employee_id", e.id)
                    .set("full_name", e.full_name)
                    .set("email", e.email)
                    .set("phone", e.phone);
                Write::new(&COMPLAINT_FORM).computed(by)
            }
            Complainant::Person(person) => COMPLAINT_FORM.write(person).set("employee_id", None::<i64>),
        };
        let id = complaint.fields(&said).insert(tx)?;
        events::raise(tx, &COMPLAINTS, On::Created, id)?;
        Ok(id)
    })
    .await?;
    Ok((StatusCode::CREATED, Json(row)))
}
