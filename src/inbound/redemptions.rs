//! Redemption codes (issue 41): the employee app asks for a code for a campaign
//! (`POST /api/app/redemptions`), the employee shows it (or its QR code) at the partner's till,
//! and the till confirms it (`POST /api/partner-portal/redemptions`), which records the use as
//! verified, at the branch, counted like any use. The one writer of `redemption_codes`.
//!
//! A code is refused when asked for exactly as the use itself would be (`app::check_use`, with
//! `verified`, so a verified-only campaign gives codes), and checked again at the till in the
//! use's own transaction (`app::record_use`), where the code is marked confirmed: of two tills
//! confirming one code at once, one records the use and the other is told when it was used. A
//! code that is unknown, expired or another partner's is one and the same 404, and each key's
//! wrong codes are throttled (`MissLimit`); every refusal at the till is an entry of the activity
//! log, without the code.

use axum::Json;
use axum::extract::State;
use axum::http::{Method, StatusCode};
use axum::routing::post;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use time::OffsetDateTime;
use utoipa::ToSchema;

use crate::auth::api_keys::ApiClient;
use crate::core::error::{AppError, AppResult, seconds_to_wait};
use crate::db::activity::{self, action};
use crate::db::actor::Actor;
use crate::db::dialect::{Dialect, Isolation};
use crate::db::format_iso;
use crate::db::sql::{Connection, OptionalExtension};
use crate::http::api::{Api, Doc};
use crate::http::extract::ApiJson;
use crate::http::form_fields::{Field, FieldKind, read_json_fields};
use crate::http::limits::MissLimit;
use crate::http::state::AppState;
use crate::resources::promo_codes::new_code;
use crate::resources::usage_history::{REDEMPTION_CONFIRMED, USAGE_HISTORY};

use super::app::{
    USE_BRANCH, USE_CAMPAIGN, USE_EMPLOYEE, USE_FIELDS, active_employee_ahead, check_use, employee_for_use, record_use,
};
use super::partner::{CODE_REQUIRED, partner_of};

/// A code unknown, expired or of another partner's campaign: the same words for each, so a till
/// learns nothing about codes that are not its own.
pub const CODE_NOT_FOUND: &str = "There is no such redemption code, or it has expired.";
pub const CODE_CONFIRMED: &str = "This redemption code was already used at {at}.";
pub const WRONG_CODES: &str = "Too many wrong redemption codes from this key. Try again in {seconds} seconds.";
/// What a QR code of a redemption code holds: this, then the code. The till may send either.
pub const QR_PREFIX: &str = "perkdesk:redeem:";

/// The texts the routes refuse with.
pub const REFUSALS: &[&str] = &[CODE_NOT_FOUND, CODE_CONFIRMED, WRONG_CODES];

/// `POST /api/app/redemptions`'s fields: the use's own employee and campaign.
static ISSUE_FIELDS: &[Field] = &[USE_EMPLOYEE, USE_CAMPAIGN];

/// `POST /api/partner-portal/redemptions`'s fields: the code (or the QR code's text, any case)
/// and the branch, as a use names it.
static CONFIRM_FIELDS: &[Field] =
    &[Field::input("code", FieldKind::Text).required(CODE_REQUIRED).max_length(40), USE_BRANCH];

/// The wrong codes each partner key sent in the last minute (`serve --wrong-codes-per-minute`).
pub struct WrongCodes(MissLimit);

impl WrongCodes {
    pub fn new(per_minute: u32) -> WrongCodes {
        WrongCodes(MissLimit::new(per_minute))
    }
}

pub fn routes() -> Api {
    Api::new()
        .add(
            Method::POST,
            "/api/app/redemptions",
            post(issue),
            Doc::new(
                "Employee app",
                "A redemption code for the employee to show at the partner's till: 8 characters without look-alikes (no 0, O, 1, I, L), valid for serve --redemption-ttl seconds (300 by default); qrPayload is perkdesk:redeem: and the code. One live code per employee and campaign: asking again answers the same code with its first expiry. Refused exactly as the use itself would be (a verified-only campaign gives codes)",
            )
            .api_key("employee-app")
            .json_body::<RedemptionIn>()
            .rules_of(ISSUE_FIELDS)
            .answers(404, "No such employee or campaign")
            .answers(409, "The employee is inactive; the campaign inactive, expired, not started or not offered to the employee's asset; or a limit reached")
            .returns::<RedemptionCode>(201),
        )
        .add(
            Method::POST,
            "/api/partner-portal/redemptions",
            post(confirm),
            Doc::new(
                "Partner portal",
                "Confirm a redemption code at the till (the code or the QR code's text, any case), at the partner's branch partnerCityId: the use is recorded as verified, counted like any use. A code unknown, expired or of another partner's campaign is one and the same 404; past serve --wrong-codes-per-minute wrong codes a minute (20 by default) the key is refused with 429 and Retry-After (seconds) until its oldest wrong code is a minute old",
            )
            .api_key("partner")
            .json_body::<RedemptionConfirm>()
            .writes_with_row_locks()
            .rules_of(CONFIRM_FIELDS)
            .answers(404, "No such code (unknown, expired or another partner's), or no such branch of the partner")
            .answers(409, "The code was already used (the message says when); or the use is refused as the app's would be: the employee inactive, the campaign inactive, expired or not offered, or a limit reached")
            .answers(429, "Too many wrong codes from this key in the last minute; Retry-After says when to send again")
            .returns::<Redeemed>(201),
        )
}

/// `POST /api/app/redemptions`'s body.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)] // describes the body for the OpenAPI document; read field by field
pub struct RedemptionIn {
    employee_email: String,
    campaign_id: i64,
}

/// A redemption code as the app shows it.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RedemptionCode {
    /// 8 characters of ABCDEFGHJKMNPQRSTUVWXYZ23456789.
    code: String,
    /// When the code stops being accepted (UTC).
    expires_at: String,
    campaign_id: i64,
    /// What the code's QR code holds: `perkdesk:redeem:` and the code.
    qr_payload: String,
}

/// `POST /api/partner-portal/redemptions`'s body.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)] // describes the body for the OpenAPI document; read field by field
pub struct RedemptionConfirm {
    /// The code, or the QR code's text (`perkdesk:redeem:` and the code); any case.
    code: String,
    /// The partner's branch where the code is used.
    partner_city_id: Option<i64>,
}

/// A confirmed code: the use it became.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Redeemed {
    usage_id: i64,
    campaign_id: i64,
    campaign_name: String,
    discount_percent: i64,
    /// The employee's first name and last initial ("Aysel Q.").
    employee_name: String,
    /// Always true: the partner confirmed the use.
    verified: bool,
}

async fn issue(
    State(state): State<AppState>,
    ApiJson(body): ApiJson<Value>,
) -> AppResult<(StatusCode, Json<RedemptionCode>)> {
    let values = read_json_fields(ISSUE_FIELDS, &body)?;
    let email = values.get("employeeEmail").to_string();
    let campaign = values.number("campaignId").unwrap_or_default();
    let zone = state.settings.time_zone.clone();
    let ttl = time::Duration::seconds(i64::try_from(state.settings.redemption_ttl_secs).unwrap_or(i64::MAX));
    let answer = state
        .db
        .write_point(move |tx| {
            let employee = active_employee_ahead(tx, "employeeEmail", &email)?;
            let at = OffsetDateTime::now_utc();
            let (employee, _) = check_use(tx, employee, campaign, None, true, &zone, at)?;
            let (code, expires_at) = live_code(tx, employee.id, campaign, at, ttl)?;
            Ok(RedemptionCode { qr_payload: format!("{QR_PREFIX}{code}"), code, expires_at, campaign_id: campaign })
        })
        .await?;
    Ok((StatusCode::CREATED, Json(answer)))
}

/// The employee's live code of the campaign, or a new one valid for `ttl` from `at`.
fn live_code(
    tx: &Connection,
    employee: i64,
    campaign: i64,
    at: OffsetDateTime,
    ttl: time::Duration,
) -> AppResult<(String, String)> {
    let now = format_iso(at);
    let live = tx
        .prepare_cached(
            "SELECT code, expires_at FROM redemption_codes
             WHERE employee_id = ?1 AND campaign_id = ?2 AND confirmed_at IS NULL AND expires_at > ?3
             ORDER BY id DESC LIMIT 1",
        )?
        .query_row((employee, campaign, &now), |r| Ok((r.get("code")?, r.get("expires_at")?)))
        .optional()?;
    if let Some(live) = live {
        return Ok(live);
    }
    let mut rng = rand::rng();
    // 31^8 ≈ 8.5e11 codes: a collision is rare, a run of them means something is wrong.
    for _ in 0..8 {
        let code = new_code(&mut rng);
        let taken = tx
            .prepare_cached("SELECT 1 FROM redemption_codes WHERE code = ?1")?
            .query_row([&code], |_| Ok(()))
            .optional()?;
        if taken.is_none() {
            let expires_at = format_iso(at + ttl);
            tx.prepare_cached(
                "INSERT INTO redemption_codes (code, employee_id, campaign_id, created_at, expires_at)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
            )?
            .execute((&code, employee, campaign, &now, &expires_at))?;
            return Ok((code, expires_at));
        }
    }
    Err(AppError::Internal(anyhow::anyhow!("eight redemption codes drawn in a row were taken")))
}

/// Days an unused code is kept after it expired; the server's hourly retention deletes it then
/// ([`forget_unused`]). A used code stays with the use it became.
pub const UNUSED_KEPT_DAYS: i64 = 7;

/// Deletes up to `limit` codes that were never used and expired more than [`UNUSED_KEPT_DAYS`]
/// days before `now`; how many went. Codes are asked for at every opening of the app's campaign,
/// so without this the table would grow with every look.
pub fn forget_unused(conn: &Connection, now: OffsetDateTime, limit: u32) -> AppResult<usize> {
    let cutoff = format_iso(now - time::Duration::days(UNUSED_KEPT_DAYS));
    Ok(conn
        .prepare_cached(
            "DELETE FROM redemption_codes WHERE id IN
                 (SELECT id FROM redemption_codes WHERE confirmed_at IS NULL AND expires_at < ?1 ORDER BY expires_at LIMIT ?2)",
        )?
        .execute((cutoff, limit))?)
}

/// What the till sent, as stored: upper case, without the QR code's prefix.
fn code_of(sent: &str) -> String {
    let sent = sent.trim();
    let bare = match sent.get(..QR_PREFIX.len()) {
        Some(prefix) if prefix.eq_ignore_ascii_case(QR_PREFIX) => &sent[QR_PREFIX.len()..],
        _ => sent,
    };
    bare.to_ascii_uppercase()
}

/// Why a code is no code the till may confirm, for the activity log (the till is told less).
enum Refused {
    Unknown,
    Expired,
    OtherPartners,
    /// Already confirmed, at this moment.
    Used(String),
}

async fn confirm(
    State(state): State<AppState>,
    client: ApiClient,
    ApiJson(body): ApiJson<Value>,
) -> AppResult<(StatusCode, Json<Redeemed>)> {
    let partner = partner_of(&client)?;
    let wrong = &state.feature::<WrongCodes>()?.0;
    if let Err(wait) = wrong.check(client.id, state.db.servers()) {
        let seconds = seconds_to_wait(wait);
        let refusal = AppError::TooManyRequests {
            message: WRONG_CODES.replace("{seconds}", &seconds.to_string()),
            retry_after_secs: seconds,
        };
        return Err(logged(&state, refusal, "throttled", None).await);
    }
    let values = read_json_fields(CONFIRM_FIELDS, &body)?;
    let code = code_of(values.get("code"));
    let branch = values.number("partnerCityId");
    let zone = state.settings.time_zone.clone();
    // Tills confirm from many servers at once: the code's row is locked as it is read, so of two
    // tills confirming one code the second reads it confirmed (see `Isolation::RowLocks`).
    let outcome = state
        .db
        .write_point_with(Isolation::RowLocks, move |tx| {
            let found = tx
                .prepare_cached(&format!(
                    "SELECT r.id, r.employee_id, r.campaign_id, r.expires_at, r.confirmed_at, c.partner_id
                     FROM redemption_codes r JOIN campaigns c ON c.id = r.campaign_id WHERE r.code = ?1 {}",
                    Dialect::of(tx).lock_rows("r")
                ))?
                .query_row([&code], |r| {
                    Ok((
                        r.get::<i64>("id")?,
                        r.get::<i64>("employee_id")?,
                        r.get::<i64>("campaign_id")?,
                        r.get::<String>("expires_at")?,
                        r.get::<Option<String>>("confirmed_at")?,
                        r.get::<i64>("partner_id")?,
                    ))
                })
                .optional()?;
            let Some((id, employee, campaign, expires_at, confirmed_at, owner)) = found else {
                return Ok(Err((Refused::Unknown, None)));
            };
            let at = OffsetDateTime::now_utc();
            let now = format_iso(at);
            let refused = if owner != partner {
                Some(Refused::OtherPartners)
            } else if let Some(used) = confirmed_at {
                Some(Refused::Used(used))
            } else if expires_at <= now {
                Some(Refused::Expired)
            } else {
                None
            };
            if let Some(refused) = refused {
                return Ok(Err((refused, Some(campaign))));
            }
            let (email, first, last): (String, String, String) = tx
                .prepare_cached("SELECT email, first_name, last_name FROM employees WHERE id = ?1")?
                .query_row([employee], |r| Ok((r.get("email")?, r.get("first_name")?, r.get("last_name")?)))?;
            let employee = employee_for_use(tx, "code", &email)?;
            // The use as the app would send it, at the till's branch.
            let mut sent = Map::new();
            sent.insert("employeeEmail".into(), json!(email));
            sent.insert("campaignId".into(), json!(campaign));
            if let Some(branch) = branch {
                sent.insert("partnerCityId".into(), json!(branch));
            }
            let use_values = read_json_fields(USE_FIELDS, &Value::Object(sent))?;
            let usage_id = record_use(tx, employee, &use_values, true, &zone, at)?;
            let marked = tx
                .prepare_cached(
                    "UPDATE redemption_codes SET confirmed_at = ?2, usage_id = ?3 WHERE id = ?1 AND confirmed_at IS NULL",
                )?
                .execute((id, &now, usage_id))?;
            if marked != 1 {
                return Err(AppError::Internal(anyhow::anyhow!("a redemption code was confirmed twice in one write")));
            }
            crate::crud::events::raise_named(tx, &USAGE_HISTORY, REDEMPTION_CONFIRMED, usage_id)?;
            let (campaign_name, discount_percent) = tx
                .prepare_cached("SELECT campaign_name, discount_percent FROM usage_history WHERE id = ?1")?
                .query_row([usage_id], |r| Ok((r.get("campaign_name")?, r.get("discount_percent")?)))?;
            let initial = last.chars().next().map(|c| format!(" {c}.")).unwrap_or_default();
            Ok(Ok(Redeemed {
                usage_id,
                campaign_id: campaign,
                campaign_name,
                discount_percent,
                employee_name: format!("{first}{initial}"),
                verified: true,
            }))
        })
        .await;
    match outcome {
        Ok(Ok(redeemed)) => Ok((StatusCode::CREATED, Json(redeemed))),
        Ok(Err((refused, campaign))) => {
            let (reason, refusal) = match refused {
                Refused::Unknown => ("unknown", AppError::no_such("code", CODE_NOT_FOUND)),
                Refused::Expired => ("expired", AppError::no_such("code", CODE_NOT_FOUND)),
                Refused::OtherPartners => ("another partner's", AppError::no_such("code", CODE_NOT_FOUND)),
                Refused::Used(at) => {
                    ("already used", AppError::conflict_on("code", CODE_CONFIRMED.replace("{at}", &at)))
                }
            };
            if refusal.status() == StatusCode::NOT_FOUND {
                wrong.miss(client.id, state.db.servers());
            }
            Err(logged(&state, refusal, reason, campaign).await)
        }
        Err(error) if error.status().is_client_error() => {
            let reason = error.to_string();
            Err(logged(&state, error, &reason, None).await)
        }
        Err(error) => Err(error),
    }
}

/// `refusal`, after an entry of the activity log says why the till was refused (never the code);
/// a log that cannot be written is said in the server's log, and the refusal stands.
async fn logged(state: &AppState, refusal: AppError, reason: &str, campaign: Option<i64>) -> AppError {
    let actor = Actor::current();
    let mut fields = vec![("reason", Value::from(reason)), ("status", Value::from(refusal.status().as_u16()))];
    if let Some(campaign) = campaign {
        fields.push(("campaignId", Value::from(campaign)));
    }
    // An insert of its own: it decides on nothing it reads, so it goes on in the request's
    // transaction under row locks, where the confirmation's claim holds it.
    let recorded = state
        .db
        .write_with(Isolation::RowLocks, move |conn| {
            Ok(activity::record_event(
                conn,
                &actor,
                activity::REDEMPTION_RESOURCE,
                action::REDEMPTION_REFUSED,
                &fields,
            )?)
        })
        .await;
    if let Err(error) = recorded {
        tracing::error!(error = %error, "cannot record a refused redemption code in the activity log");
    }
    refusal
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_till_may_send_the_code_or_the_qr_codes_text_in_any_case() {
        assert_eq!(code_of(" abcd2345 "), "ABCD2345");
        assert_eq!(code_of("perkdesk:redeem:ABCD2345"), "ABCD2345");
        assert_eq!(code_of("PERKDESK:REDEEM:abcd2345"), "ABCD2345");
        assert_eq!(code_of("perkdesk:"), "PERKDESK:");
    }
}
