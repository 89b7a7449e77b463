//! A campaign's limits (issue 41): the form's four fields with their rules, the uses a campaign
//! has and has left, and the check every path that records a use runs in the use's transaction
//! (the app's use, a redemption code asked for and a code confirmed at the till), refusing past a limit with a 409 that
//! names it. The count and the insert are one transaction: on SQLite the one writer at a time
//! makes them exact, on PostgreSQL the SERIALIZABLE write transaction does (two app servers that
//! both counted 9 of 10 cannot both commit; the loser runs again and counts 10).

use time::OffsetDateTime;

use crate::core::error::{AppError, AppResult};
use crate::core::patterns;
use crate::core::periods::{OperatorZone, Period};
use crate::core::validation::Validator;
use crate::db::format_iso;
use crate::db::sql::{Connection, OptionalExtension, Row};
use crate::http::api::Rule;
use crate::http::api::Rule::{Message, Note, RequiredWith};
use crate::http::form_fields::{Bounds, Check, Field, FieldKind, Values};

pub const TOTAL_LIMIT_RANGE: &str = "Usage limit must be a whole number from 1 to 10,000,000";
pub const EMPLOYEE_LIMIT_RANGE: &str = "Limit per employee must be a whole number from 1 to 1,000";
pub const PERIOD_FORMAT: &str = "usageLimitPeriod must be day, week, month or campaign";
pub const PERIOD_REQUIRED: &str = "usageLimitPeriod is required with a limit per employee";
pub const VERIFIED_FLAG: &str = "verifiedOnly must be true or false";

pub const TOTAL_REACHED: &str = "This campaign has reached its limit of {limit} uses.";
pub const EMPLOYEE_REACHED_DAY: &str =
    "This employee has used this campaign {count} times today; the limit is {limit}.";
pub const EMPLOYEE_REACHED_WEEK: &str =
    "This employee has used this campaign {count} times this week; the limit is {limit}.";
pub const EMPLOYEE_REACHED_MONTH: &str =
    "This employee has used this campaign {count} times this month; the limit is {limit}.";
pub const EMPLOYEE_REACHED_CAMPAIGN: &str =
    "This employee has used this campaign {count} times during this campaign; the limit is {limit}.";
pub const VERIFIED_ONLY: &str =
    "This campaign is used only with a redemption code confirmed by the partner, not through the app.";

/// The refusals of a use past a limit, for the routes that record uses to declare.
pub const USE_REFUSALS: &[&str] = &[
    TOTAL_REACHED,
    EMPLOYEE_REACHED_DAY,
    EMPLOYEE_REACHED_WEEK,
    EMPLOYEE_REACHED_MONTH,
    EMPLOYEE_REACHED_CAMPAIGN,
    VERIFIED_ONLY,
];

const TOTAL: Bounds = Bounds {
    min: 1,
    max: 10_000_000,
    invalid: TOTAL_LIMIT_RANGE,
    below: TOTAL_LIMIT_RANGE,
    above: TOTAL_LIMIT_RANGE,
    fraction: Some(TOTAL_LIMIT_RANGE),
};

const PER_EMPLOYEE: Bounds = Bounds {
    min: 1,
    max: 1_000,
    invalid: EMPLOYEE_LIMIT_RANGE,
    below: EMPLOYEE_LIMIT_RANGE,
    above: EMPLOYEE_LIMIT_RANGE,
    fraction: Some(EMPLOYEE_LIMIT_RANGE),
};

fn is_period(text: &str) -> bool {
    Period::parse(text).is_some()
}

const PERIOD: Check = Check {
    pattern: patterns::LIMIT_PERIOD,
    test: is_period,
    message: PERIOD_FORMAT,
    example: "week",
    refused: "year",
};

/// The four fields, each optional: a missing limit is no limit (NULL). The period is stored by
/// the writer (`usage_limit_period`, NULL without a per-employee limit).
pub(super) const TOTAL_LIMIT: Field = Field::whole("usageLimitTotal", "usage_limit_total", &TOTAL);
pub(super) const EMPLOYEE_LIMIT: Field =
    Field::whole("usageLimitPerEmployee", "usage_limit_per_employee", &PER_EMPLOYEE);
pub(super) const LIMIT_PERIOD: Field = Field::input("usageLimitPeriod", FieldKind::Checked(&PERIOD));
pub(super) const VERIFIED: Field = Field::flag("verifiedOnly", "verified_only", VERIFIED_FLAG);

/// The limits, read after the marks.
pub(super) static LIMIT_FIELDS: &[Field] = &[TOTAL_LIMIT, EMPLOYEE_LIMIT, LIMIT_PERIOD, VERIFIED];

/// The rule the declared fields do not carry: the period goes with the per-employee limit. A
/// period sent without that limit means nothing and is not stored (a form that cleared the limit
/// may still send the period it showed).
pub(super) const PERIOD_RULES: &[Rule] = &[
    Note("Required with usageLimitPerEmployee; ignored without it."),
    RequiredWith("usageLimitPerEmployee"),
    Message("requiredWithLimit", PERIOD_REQUIRED),
];

/// The period as stored, after checking that it goes with the per-employee limit.
pub(super) fn read_period(limits: &Values, v: &mut Validator) -> Option<&'static str> {
    let period = Period::parse(limits.get("usageLimitPeriod"));
    if v.has("usageLimitPerEmployee") || v.has("usageLimitPeriod") {
        return None;
    }
    match (limits.number("usageLimitPerEmployee"), period) {
        (Some(_), None) => {
            v.check("usageLimitPeriod", false, PERIOD_REQUIRED);
            None
        }
        (Some(_), Some(period)) => Some(Period::NAMES[period as usize]),
        (None, _) => None,
    }
}

/// Uses of the campaign `c` that count: every live use (a voided use is soft-deleted, so it does
/// not), as `campaign_counts` keeps them (the usage history's triggers, in the use's own
/// transaction). A count is never null; the COALESCE says so in the shape
/// `tests/row_nullability.rs` reads. A macro, so the statements below are made of it at compile
/// time.
macro_rules! uses_count {
    () => {
        "COALESCE((SELECT n.uses FROM campaign_counts n WHERE n.campaign_id = c.id), 0)"
    };
}

pub(super) const USES_COUNT_SQL: &str = uses_count!();

/// What the total limit leaves, never below 0; NULL without a total limit.
pub(super) const USES_REMAINING_SQL: &str = concat!(
    "(SELECT CASE WHEN c.usage_limit_total IS NULL THEN NULL \
     WHEN c.usage_limit_total > uses THEN c.usage_limit_total - uses ELSE 0 END \
     FROM (SELECT ",
    uses_count!(),
    " AS uses) AS counted)"
);

/// The columns [`Limits::read`] reads, with the campaign's kept count of uses as `campaign_uses`
/// (0 when no total limit asks for it: on PostgreSQL the count adds up the ledger's deltas not
/// folded yet, work a use of a campaign without a total limit has no need of), for a statement
/// over `campaigns c`.
macro_rules! limits_columns {
    () => {
        concat!(
            "c.usage_limit_total, c.usage_limit_per_employee, c.usage_limit_period, c.verified_only, ",
            "CASE WHEN c.usage_limit_total IS NULL THEN 0 ELSE ",
            uses_count!(),
            " END AS campaign_uses"
        )
    };
}

/// [`limits_columns`] for other modules' statements (the use's check reads them with the campaign
/// itself, so a use pays no statement of its own for them).
pub const LIMITS_COLUMNS_SQL: &str = limits_columns!();

/// Where a per-employee limit of `period` starts counting at `now` ([`Limits::employee_since`]),
/// for a caller that knows the period alone.
pub fn period_since(period: Option<Period>, zone: &OperatorZone, now: OffsetDateTime) -> Option<String> {
    period.map(|period| zone.period_start(period, now).map(format_iso).unwrap_or_default())
}

/// A campaign's limits as stored.
pub struct Limits {
    total: Option<i64>,
    per_employee: Option<(i64, Period)>,
    verified_only: bool,
}

impl Limits {
    /// Whether the campaign's uses in all are limited.
    pub fn limits_total(&self) -> bool {
        self.total.is_some()
    }

    /// The limits of a row that selected [`LIMITS_COLUMNS_SQL`] (without `campaign_uses`).
    pub fn read(r: &Row) -> crate::db::sql::Result<Limits> {
        let period: Option<String> = r.get("usage_limit_period")?;
        let per_employee: Option<i64> = r.get("usage_limit_per_employee")?;
        Ok(Limits {
            total: r.get("usage_limit_total")?,
            per_employee: per_employee.zip(period.as_deref().and_then(Period::parse)),
            verified_only: r.get("verified_only")?,
        })
    }

    /// Where the per-employee limit starts counting at `now`, as the stored `created_at` text:
    /// the day's, week's or month's first moment, or "" (before every moment) for the campaign's
    /// whole life; `None` without such a limit.
    pub fn employee_since(&self, zone: &OperatorZone, now: OffsetDateTime) -> Option<String> {
        period_since(self.employee_period(), zone, now)
    }

    /// The per-employee limit's period; `None` without such a limit.
    pub fn employee_period(&self) -> Option<Period> {
        self.per_employee.map(|(_, period)| period)
    }

    /// How many more uses the limits leave after `campaign_uses` of the campaign and
    /// `employee_uses` of the employee in the per-employee limit's period: the smaller of the two
    /// that apply, never below 0; `None` when neither limits it.
    fn remaining(&self, campaign_uses: i64, employee_uses: i64) -> Option<i64> {
        let total = self.total.map(|total| (total - campaign_uses).max(0));
        let own = self.per_employee.map(|(limit, _)| (limit - employee_uses).max(0));
        match (total, own) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Refuses a use past a limit with a 409 on `campaignId` naming it: `campaign_uses` the
    /// campaign's live uses, `employee_uses` the employee's in the limit's period (counted from
    /// [`Limits::employee_since`]), both read in the use's own transaction; `verified` says the use is
    /// a redemption code the partner confirmed (a verified-only campaign takes only those).
    pub fn check(&self, campaign_uses: i64, employee_uses: i64, verified: bool) -> AppResult<()> {
        if self.verified_only && !verified {
            return Err(AppError::conflict_on("campaignId", VERIFIED_ONLY));
        }
        if let Some(total) = self.total
            && campaign_uses >= total
        {
            return Err(AppError::conflict_on("campaignId", TOTAL_REACHED.replace("{limit}", &total.to_string())));
        }
        if let Some((limit, period)) = self.per_employee
            && employee_uses >= limit
        {
            let template = match period {
                Period::Day => EMPLOYEE_REACHED_DAY,
                Period::Week => EMPLOYEE_REACHED_WEEK,
                Period::Month => EMPLOYEE_REACHED_MONTH,
                Period::Campaign => EMPLOYEE_REACHED_CAMPAIGN,
            };
            let message =
                template.replace("{count}", &employee_uses.to_string()).replace("{limit}", &limit.to_string());
            return Err(AppError::conflict_on("campaignId", message));
        }
        Ok(())
    }
}

/// How many more uses `employee` may make of `campaign` now: what [`Limits::remaining`] leaves,
/// counted as the use's check counts (the kept count, the employee's uses since
/// [`Limits::employee_since`]); `None` when nothing limits it.
pub fn remaining_for(
    tx: &Connection,
    campaign: i64,
    employee: i64,
    zone: &OperatorZone,
    now: OffsetDateTime,
) -> AppResult<Option<i64>> {
    let read = tx
        .prepare_cached(concat!("SELECT ", limits_columns!(), " FROM campaigns c WHERE c.id = ?1"))?
        .query_row([campaign], |r| Ok((Limits::read(r)?, r.get::<i64>("campaign_uses")?)))
        .optional()?;
    let Some((limits, campaign_uses)) = read else { return Ok(None) };
    let employee_uses = match limits.employee_since(zone, now) {
        Some(since) => tx
            .prepare_cached(
                "SELECT COUNT(*) AS n FROM usage_history
                 WHERE employee_id = ?1 AND campaign_id = ?2 AND created_at >= ?3 AND deleted_at IS NULL",
            )?
            .query_row((employee, campaign, since), |r| r.get("n"))?,
        None => 0,
    };
    Ok(limits.remaining(campaign_uses, employee_uses))
}
