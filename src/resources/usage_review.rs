//! The review queue of uses (issue 41): a use that a rule flags when it is written waits here until
//! an Admin or a User clears it (the use is fine) or voids the use (it leaves the usage list, the
//! counts, the dashboard, the reports and the limits, and waits in the trash, with who voided it
//! and why kept on its review row and in the activity log). Call Center reads.
//!
//! The rules and their thresholds (`usage_review_settings`, set by an Admin):
//! - `manyUses`: the employee's live uses written within the last `manyUsesMinutes` minutes,
//!   this one included, are more than `manyUses`;
//! - `twoPartners`: the employee has a live use at another partner written within the last
//!   `twoPartnersMinutes` minutes.
//!
//! Every path that records a use calls [`flag_use`] in the use's own transaction, after its
//! insert; this module is the one writer of `usage_review` and `usage_review_settings`.

use axum::Json;
use axum::extract::State;
use axum::http::Method;
use axum::routing::{get, post, put};
use serde::Deserialize;
use serde_json::Value;
use time::OffsetDateTime;
use utoipa::ToSchema;

use crate::auth::{CurrentUser, Roles};
use crate::core::error::{AppError, AppResult};
use crate::core::refusals::Audience;
use crate::crud::{self, Column, Export, Filter, Kind, Recorded, Resource, Total, ValueKind};
use crate::db::format_iso;
use crate::db::sql::{Connection, OptionalExtension, Row};
use crate::http::api::{Api, Doc};
use crate::http::extract::{ApiJson, PathId};
use crate::http::form_fields::{Bounds, Field, read_json_fields};
use crate::http::state::AppState;

use super::usage_history::USAGE_HISTORY;

/// A review's state, as stored and as the list's `State` filter takes it.
pub const OPEN: i64 = 0;
pub const CLEARED: i64 = 1;
pub const VOIDED: i64 = 2;

/// The rules' names, as stored and as the list's `Reason` filter takes them.
pub const MANY_USES: &str = "manyUses";
pub const TWO_PARTNERS: &str = "twoPartners";

pub static USAGE_REVIEW: Resource = Resource {
    path: "usageReview",
    row: "UsageReviewRow",
    tag: "Usage review",
    name: "Flagged use",
    table: "usage_review",
    from: "usage_review r JOIN usage_history h ON h.id = r.usage_id",
    scope: "r.id > 0",
    id: "r.id",
    // A queue of the few uses the rules flag: counted, and the count remembered until a write.
    total: Total::Counted,
    columns: &[
        Column::new("id", "r.id", Kind::Int),
        Column::new("usageId", "r.usage_id", Kind::Int).never_null(),
        Column::new("employeeEmail", "h.employee_email", Kind::Text).never_null(),
        Column::new("partnerId", "h.partner_id", Kind::Int).unsorted().never_null(),
        Column::new("partnerName", "h.partner_name", Kind::Text).never_null(),
        Column::new("campaignName", "h.campaign_name", Kind::Text).unsorted().never_null(),
        Column::new("usedDate", "h.created_at", Kind::DateTime).never_null(),
        Column::new("reason", "r.reason", Kind::Text).never_null(),
        Column::new("reasonName", "CASE r.reason WHEN 'manyUses' THEN 'Many uses' ELSE 'Two partners' END", Kind::Text)
            .unsorted()
            .never_null(),
        Column::new("counted", "r.counted", Kind::Int).unsorted().never_null(),
        Column::new("windowMinutes", "r.window_minutes", Kind::Int).unsorted().never_null(),
        Column::new("state", "r.state", Kind::Int).never_null(),
        Column::new("stateName", "CASE r.state WHEN 0 THEN 'Open' WHEN 1 THEN 'Cleared' ELSE 'Voided' END", Kind::Text)
            .unsorted()
            .never_null(),
        Column::new("decidedBy", "r.decided_by", Kind::Text).unsorted(),
        Column::new("decidedAt", "r.decided_at", Kind::DateTime).unsorted(),
        Column::new("voidReason", "r.void_reason", Kind::Text).unsorted(),
    ],
    filters: &[
        Filter::equals("State", "r.state", ValueKind::Int),
        Filter::equals("Reason", "r.reason", ValueKind::Text),
        Filter::contains("EmployeeEmail", "h.employee_email"),
        Filter::equals("PartnerId", "h.partner_id", ValueKind::Int),
        Filter::from("StartDate", "h.created_at"),
        Filter::to("EndDate", "h.created_at"),
    ],
    export: Some(Export {
        file_name: "UsageReview.xlsx",
        columns: &[
            ("Id", "id"),
            ("Usage id", "usageId"),
            ("Employee email", "employeeEmail"),
            ("Partner name", "partnerName"),
            ("Campaign name", "campaignName"),
            ("Used", "usedDate"),
            ("Reason", "reasonName"),
            ("Uses counted", "counted"),
            ("Window (minutes)", "windowMinutes"),
            ("State", "stateName"),
            ("Decided by", "decidedBy"),
            ("Decided at", "decidedAt"),
            ("Void reason", "voidReason"),
        ],
    }),
    read: Roles::ANYONE,
    write: Roles::EDITORS,
    toggle: false,
    delete: false,
    on_change: None,
    detail_extra: None,
    plural: "flagged uses",
    label: Some(
        "(SELECT u.campaign_name || ' · ' || u.employee_email FROM usage_history u WHERE u.id = {row}.usage_id)",
    ),
    history: &[
        Recorded::table("usage_review"),
        // The thresholds are one row, recorded as record 0 of the queue: its history is theirs.
        Recorded { record: "0", created: None, ..Recorded::table("usage_review_settings") },
    ],
    trash: None,
    events: None,
    unrecorded: &[],
};

/// The record the thresholds' changes are recorded as (`GET /api/usageReview/0/history`).
pub const SETTINGS_RECORD: i64 = 0;

pub const ALREADY_CLEARED: &str = "This flagged use was already cleared.";
pub const ALREADY_VOIDED: &str = "This use was already voided.";
pub const USE_DELETED: &str = "This use was deleted; restore it from the trash to review it.";
pub const VOID_REASON_REQUIRED: &str = "Reason is required";
pub const MANY_USES_RANGE: &str = "Uses must be a whole number from 1 to 1000";
pub const MANY_USES_MINUTES_RANGE: &str = "Minutes for uses must be a whole number from 1 to 1440";
pub const TWO_PARTNERS_MINUTES_RANGE: &str = "Minutes between partners must be a whole number from 1 to 1440";
pub const MANY_USES_REQUIRED: &str = "Uses is required";
pub const MANY_USES_MINUTES_REQUIRED: &str = "Minutes for uses is required";
pub const TWO_PARTNERS_MINUTES_REQUIRED: &str = "Minutes between partners is required";

/// The refusals the panel may meet here.
const REFUSALS: &[&str] = &[ALREADY_CLEARED, ALREADY_VOIDED, USE_DELETED];

/// `POST usageReview/{id}/void`'s one field: why, 1 to 500 characters.
pub static VOID_FIELDS: &[Field] =
    &[Field::text("reason", "void_reason").required(VOID_REASON_REQUIRED).max_length(500)];

const MANY_USES_BOUNDS: Bounds = Bounds::one_message(1, 1000, MANY_USES_RANGE);
const MANY_USES_MINUTES_BOUNDS: Bounds = Bounds::one_message(1, 1440, MANY_USES_MINUTES_RANGE);
const TWO_PARTNERS_MINUTES_BOUNDS: Bounds = Bounds::one_message(1, 1440, TWO_PARTNERS_MINUTES_RANGE);

/// `PUT usageReview/settings`'s fields, each required.
pub static SETTINGS_FIELDS: &[Field] = &[
    Field::whole("manyUses", "many_uses", &MANY_USES_BOUNDS).required(MANY_USES_REQUIRED),
    Field::whole("manyUsesMinutes", "many_uses_minutes", &MANY_USES_MINUTES_BOUNDS)
        .required(MANY_USES_MINUTES_REQUIRED),
    Field::whole("twoPartnersMinutes", "two_partners_minutes", &TWO_PARTNERS_MINUTES_BOUNDS)
        .required(TWO_PARTNERS_MINUTES_REQUIRED),
];

/// The thresholds of the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReviewSettings {
    /// More than this many uses by one employee within `manyUsesMinutes` flags the use (1 to 1000).
    pub many_uses: i64,
    /// The window of `manyUses`, in minutes (1 to 1440).
    pub many_uses_minutes: i64,
    /// A use at another partner within this many minutes flags the use (1 to 1440).
    pub two_partners_minutes: i64,
}

/// The thresholds' columns for a statement that joins `usage_review_settings s` on `s.id = 1`
/// with a LEFT JOIN: without the row (a database edited by hand) the migration's defaults hold.
/// A macro, so [`settings`]'s statement is made of it at compile time.
macro_rules! settings_columns {
    () => {
        "COALESCE(s.many_uses, 3) AS many_uses, \
         COALESCE(s.many_uses_minutes, 10) AS many_uses_minutes, \
         COALESCE(s.two_partners_minutes, 5) AS two_partners_minutes"
    };
}

/// [`settings_columns`] for other modules' statements (the use's check reads them with the
/// campaign, no statement of their own).
pub const SETTINGS_COLUMNS_SQL: &str = settings_columns!();

impl ReviewSettings {
    /// The thresholds of a row that selected them by their column names.
    pub fn read(r: &Row) -> crate::db::sql::Result<ReviewSettings> {
        Ok(ReviewSettings {
            many_uses: r.get("many_uses")?,
            many_uses_minutes: r.get("many_uses_minutes")?,
            two_partners_minutes: r.get("two_partners_minutes")?,
        })
    }

    /// Where the rules' windows begin for a use written at `at`: `manyUses`'s, `twoPartners`'s.
    pub fn windows(&self, at: OffsetDateTime) -> (String, String) {
        let since = |minutes: i64| format_iso(at - time::Duration::minutes(minutes));
        (since(self.many_uses_minutes), since(self.two_partners_minutes))
    }
}

/// The thresholds as stored.
pub fn settings(conn: &Connection) -> AppResult<ReviewSettings> {
    Ok(conn
        .prepare_cached(concat!(
            "SELECT ",
            settings_columns!(),
            " FROM (SELECT 1 AS one) AS one LEFT JOIN usage_review_settings s ON s.id = 1"
        ))?
        .query_row([], ReviewSettings::read)?)
}

/// A use just written, as the rules read it.
#[derive(Clone, Copy, Debug)]
pub struct UseRow {
    pub id: i64,
    pub employee_id: i64,
    pub partner_id: i64,
}

/// The employee's live uses before this one that the rules count, read in the use's transaction
/// over the windows [`ReviewSettings::windows`] gives: all of them since `manyUses`'s start, and
/// those at a partner other than this use's since `twoPartners`'s.
#[derive(Clone, Copy, Debug, Default)]
pub struct RecentUses {
    pub in_window: i64,
    pub elsewhere: i64,
}

/// Flags the use `row`, written at `at` (its `created_at`) in the caller's transaction, by every
/// rule it breaks under `limits`, given the employee's uses before it (`recent`); answers the
/// reasons.
pub fn flag_use(
    tx: &Connection,
    row: &UseRow,
    limits: &ReviewSettings,
    recent: RecentUses,
    at: OffsetDateTime,
) -> AppResult<Vec<&'static str>> {
    let mut reasons = Vec::new();
    // The use itself is one of the employee's uses in the window.
    let uses = recent.in_window + 1;
    if uses > limits.many_uses {
        insert(tx, row.id, MANY_USES, uses, limits.many_uses_minutes, at)?;
        reasons.push(MANY_USES);
    }
    if recent.elsewhere > 0 {
        insert(tx, row.id, TWO_PARTNERS, recent.elsewhere, limits.two_partners_minutes, at)?;
        reasons.push(TWO_PARTNERS);
    }
    Ok(reasons)
}

fn insert(tx: &Connection, usage: i64, reason: &str, counted: i64, minutes: i64, at: OffsetDateTime) -> AppResult<()> {
    // Nobody reads what it changed: on PostgreSQL it travels with the use's next read.
    tx.execute_later(
        "INSERT INTO usage_review (usage_id, reason, counted, window_minutes, state, created_at)
         VALUES (?1, ?2, ?3, ?4, 0, ?5)",
        (usage, reason, counted, minutes, format_iso(at)),
    )?;
    Ok(())
}

/// What the trash does to a use's reviews: a restored use's voided reviews are open again (the
/// void is undone, so the use waits for a decision; who voided it and why stay in the activity
/// log), and a use deleted for good takes its reviews with it.
pub fn use_restored(tx: &Connection, uses: &[i64]) -> AppResult<()> {
    let mut stmt = tx.prepare_cached(
        "UPDATE usage_review SET state = 0, decided_by = NULL, decided_at = NULL, void_reason = NULL
         WHERE usage_id = ?1 AND state = 2",
    )?;
    for id in uses {
        stmt.execute([id])?;
    }
    Ok(())
}

/// Removes the reviews of uses about to be deleted for good (the trash's purge).
pub fn use_purging(tx: &Connection, uses: &[i64]) -> AppResult<()> {
    let mut stmt = tx.prepare_cached("DELETE FROM usage_review WHERE usage_id = ?1")?;
    for id in uses {
        stmt.execute([id])?;
    }
    Ok(())
}

/// `POST usageReview/{id}/void`'s body.
#[derive(Deserialize, ToSchema)]
#[allow(dead_code)] // describes the body for the OpenAPI document; read field by field
pub struct VoidIn {
    /// Why the use is void, 1 to 500 characters; kept with the review and in the activity log.
    reason: String,
}

pub fn routes() -> Api {
    const TAG: &str = "Usage review";
    crud::routes(&USAGE_REVIEW)
        .refuses(Audience::People, REFUSALS)
        .add(
            Method::GET,
            "/api/usageReview/settings",
            get(read_settings),
            Doc::new(TAG, "The review rules' thresholds").roles(USAGE_REVIEW.read).returns::<ReviewSettings>(200),
        )
        .add(
            Method::PUT,
            "/api/usageReview/settings",
            put(write_settings),
            Doc::new(TAG, "Set the review rules' thresholds (Admin); they apply to uses written from now on")
                .roles(Roles::ADMIN)
                .json_body::<ReviewSettings>()
                .rules_of(SETTINGS_FIELDS)
                .returns::<ReviewSettings>(200),
        )
        .add(
            Method::POST,
            "/api/usageReview/{id}/clear",
            post(clear),
            Doc::new(TAG, "Mark an open flagged use fine")
                .roles(USAGE_REVIEW.write)
                .answers(404, "No such flagged use")
                .answers(409, "The flagged use is no longer open (cleared, voided, or its use deleted)")
                .returns_component(200, crud::row_schema(&USAGE_REVIEW)),
        )
        .add(
            Method::POST,
            "/api/usageReview/{id}/void",
            post(void),
            Doc::new(
                TAG,
                "Void the use of an open flagged use: it leaves the usage list, counts, dashboard, reports and \
                 limits and waits in the trash; the use's other open flags are voided with it",
            )
            .roles(USAGE_REVIEW.write)
            .json_body::<VoidIn>()
            .rules_of(VOID_FIELDS)
            .answers(404, "No such flagged use")
            .answers(409, "The flagged use is no longer open (cleared, voided, or its use deleted)")
            .returns_component(200, crud::row_schema(&USAGE_REVIEW)),
        )
}

async fn read_settings(State(state): State<AppState>) -> AppResult<Json<ReviewSettings>> {
    state.db.run(|conn| settings(conn)).await.map(Json)
}

async fn write_settings(
    State(state): State<AppState>,
    ApiJson(body): ApiJson<Value>,
) -> AppResult<Json<ReviewSettings>> {
    let values = read_json_fields(SETTINGS_FIELDS, &body)?;
    let number = |name| values.number(name).unwrap_or_default();
    let wanted = ReviewSettings {
        many_uses: number("manyUses"),
        many_uses_minutes: number("manyUsesMinutes"),
        two_partners_minutes: number("twoPartnersMinutes"),
    };
    state
        .db
        .write_point(move |tx| {
            let now = format_iso(OffsetDateTime::now_utc());
            // One row; the upsert also writes it back into a database that lost it.
            tx.execute(
                "INSERT INTO usage_review_settings (id, many_uses, many_uses_minutes, two_partners_minutes, updated_at)
                 VALUES (1, ?1, ?2, ?3, ?4)
                 ON CONFLICT (id) DO UPDATE SET many_uses = excluded.many_uses,
                     many_uses_minutes = excluded.many_uses_minutes,
                     two_partners_minutes = excluded.two_partners_minutes, updated_at = excluded.updated_at",
                (wanted.many_uses, wanted.many_uses_minutes, wanted.two_partners_minutes, &now),
            )?;
            settings(tx)
        })
        .await
        .map(Json)
}

/// The open review `id`'s use, after the refusals of a review that is not open.
fn open_review(tx: &Connection, id: i64) -> AppResult<i64> {
    let found = tx
        .prepare_cached(
            "SELECT r.state, r.usage_id, h.deleted_at IS NOT NULL AS use_deleted
             FROM usage_review r JOIN usage_history h ON h.id = r.usage_id WHERE r.id = ?1",
        )?
        .query_row([id], |r| Ok((r.get::<i64>("state")?, r.get::<i64>("usage_id")?, r.get::<bool>("use_deleted")?)))
        .optional()?;
    let (state, usage, use_deleted) = found.ok_or_else(|| USAGE_REVIEW.not_found())?;
    match state {
        CLEARED => Err(AppError::Conflict(ALREADY_CLEARED.into())),
        VOIDED => Err(AppError::Conflict(ALREADY_VOIDED.into())),
        _ if use_deleted => Err(AppError::Conflict(USE_DELETED.into())),
        _ => Ok(usage),
    }
}

fn decider(user: &CurrentUser) -> String {
    format!("{} {} <{}>", user.first_name, user.last_name, user.email)
}

async fn clear(State(state): State<AppState>, user: CurrentUser, PathId(id): PathId) -> AppResult<Json<Value>> {
    crud::save_then_fetch(&state, &USAGE_REVIEW, move |tx| {
        open_review(tx, id)?;
        tx.prepare_cached("UPDATE usage_review SET state = 1, decided_by = ?2, decided_at = ?3 WHERE id = ?1")?
            .execute((id, decider(&user), format_iso(OffsetDateTime::now_utc())))?;
        Ok(id)
    })
    .await
    .map(Json)
}

async fn void(
    State(state): State<AppState>,
    user: CurrentUser,
    PathId(id): PathId,
    ApiJson(body): ApiJson<Value>,
) -> AppResult<Json<Value>> {
    let values = read_json_fields(VOID_FIELDS, &body)?;
    let reason = values.get("reason").to_string();
    crud::save_then_fetch(&state, &USAGE_REVIEW, move |tx| {
        let usage = open_review(tx, id)?;
        // The reviews first: the trash's label of the use, made when it is deleted, reads the reason.
        tx.prepare_cached(
            "UPDATE usage_review SET state = 2, decided_by = ?2, decided_at = ?3, void_reason = ?4
             WHERE usage_id = ?1 AND state = 0",
        )?
        .execute((usage, decider(&user), format_iso(OffsetDateTime::now_utc()), &reason))?;
        crud::delete_rows(tx, &USAGE_HISTORY, &[usage], Some(&user))?;
        Ok(id)
    })
    .await
    .map(Json)
}
