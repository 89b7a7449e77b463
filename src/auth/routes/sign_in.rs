//! Signing in (a password and a TOTP or recovery code), refreshing a session's tokens, the
//! profile, signing out, and the public sign-in settings.

use crate::db::sql::OptionalExtension;
use axum::Json;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header::USER_AGENT};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::throttle;
use crate::auth::accounts;
use crate::auth::sessions::{self, Refresh, TokenPair};
use crate::auth::tokens::JwtKeys;
use crate::auth::{CurrentUser, SESSION_ENDED, password, recovery, totp};
use crate::core::error::{AppError, AppResult};
use crate::core::validation::Validator;
use crate::db::{Actor, activity};
use crate::http::extract::{ApiJson, ClientIp};
use crate::http::form_fields::{Field, FieldKind, Mode, json_object, read_fields};
use crate::http::state::AppState;

/// The sign-in form's fields (checked before any lookup, so a blank form costs no hashing).
pub static SIGN_IN_FIELDS: &[Field] = &[
    Field::input("userName", FieldKind::Text).required("Email is required"),
    Field::input("password", FieldKind::Text).required("Required field"),
    Field::input("otp", FieldKind::Text).required("Otp is required"),
];

#[derive(Deserialize, Serialize, ToSchema, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct SignIn {
    /// The e-mail address (case-insensitive).
    user_name: String,
    password: String,
    /// The current 6-digit code from the authenticator app.
    otp: String,
    /// One of the account's recovery codes, in place of `otp` when the authenticator is lost:
    /// it signs in once, and the account is then asked to set up its authenticator again.
    recovery_code: String,
}

#[derive(Deserialize, ToSchema, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct RefreshRequest {
    refresh_token: String,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PublicSettings {
    allow_registration: bool,
}

fn user_agent(headers: &HeaderMap) -> String {
    headers.get(USER_AGENT).and_then(|v| v.to_str().ok()).unwrap_or("").chars().take(200).collect()
}

struct Candidate {
    id: i64,
    password_hash: String,
    totp_secret: String,
    totp_last_step: i64,
    is_active: bool,
    name: String,
}

/// What the read half of a sign-in found, for the write half to record.
enum Attempt {
    /// No staff account has the e-mail: a failure like any other.
    Unknown,
    Checked {
        user: Candidate,
        password_ok: bool,
        second: SecondFactor,
    },
}

/// The second factor a sign-in gave and what it matched: the authenticator code's time step, or
/// the recovery code's id.
enum SecondFactor {
    Totp(Option<i64>),
    RecoveryCode(Option<i64>),
}

impl SecondFactor {
    fn matched(&self) -> bool {
        matches!(self, SecondFactor::Totp(Some(_)) | SecondFactor::RecoveryCode(Some(_)))
    }
}

pub(super) async fn sign_in(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    ApiJson(body): ApiJson<SignIn>,
) -> AppResult<TokenPair> {
    throttle(&state, ip)?;
    let mut v = Validator::new();
    let with_recovery_code = !body.recovery_code.trim().is_empty();
    // With a recovery code, the code replaces the six-digit one.
    let fields = if with_recovery_code { &SIGN_IN_FIELDS[..2] } else { SIGN_IN_FIELDS };
    read_fields(fields, &json_object(&body)?, Mode::Create, &mut v);
    v.finish()?;
    let email = body.user_name.trim().to_string();
    let user_agent = user_agent(&headers);
    let keys = state.feature::<JwtKeys>()?.clone();
    let looked_up = email.clone();
    let address = ip.to_string();
    let attempt = state
        .db
        .run(move |conn| {
            // Locks are per e-mail and address, known e-mail or not, so a lock tells nothing about
            // accounts and cannot keep the right person out from another address.
            match sessions::sign_in_gate(conn, &looked_up, &address)? {
                sessions::Gate::Open => {}
                sessions::Gate::Locked => return Err(sessions::locked_error()),
                sessions::Gate::Throttled(wait) => return Err(sessions::throttled_error(wait)),
            }
            let candidate = conn
                .query_row(
                    "SELECT id, password_hash, totp_secret, totp_last_step, is_active,
                            first_name || ' ' || last_name AS full_name
                     FROM users WHERE email = ?1 AND kind = 'staff' AND deleted_at IS NULL",
                    [&looked_up],
                    |r| {
                        Ok(Candidate {
                            id: r.get("id")?,
                            password_hash: r.get("password_hash")?,
                            totp_secret: r.get("totp_secret")?,
                            totp_last_step: r.get("totp_last_step")?,
                            is_active: r.get("is_active")?,
                            name: r.get("full_name")?,
                        })
                    },
                )
                .optional()?;
            let Some(user) = candidate else {
                password::verify_nothing(&body.password);
                return Ok(Attempt::Unknown);
            };
            let password_ok = password::verify(&user.password_hash, &body.password);
            let second = if with_recovery_code {
                // The codes are tried only behind the right password: ten hashes are work.
                let code = if password_ok {
                    recovery::matching(&recovery::unused(conn, user.id)?, &body.recovery_code)
                } else {
                    None
                };
                SecondFactor::RecoveryCode(code)
            } else {
                SecondFactor::Totp(totp::accepted_step(&user.totp_secret, &body.otp, user.totp_last_step))
            };
            Ok(Attempt::Checked { user, password_ok, second })
        })
        .await?;
    // The outcome is written in its turn among the other writers (a busy inbound API must not
    // leave a sign-in waiting in SQLite's busy handler). A failed attempt must be recorded even
    // though the call fails, so the failure is the committed write's value and is raised only
    // after the commit. A failure is recorded in the activity log by the e-mail typed, a session
    // by the user it is for.
    Actor::identify(Actor::public(email.clone()));
    state
        .db
        .write(move |tx| -> AppResult<AppResult<TokenPair>> {
            let failed = |tx: &crate::db::sql::Connection| -> AppResult<AppResult<TokenPair>> {
                Ok(Err(if sessions::record_failure(tx, &email, &ip.to_string())? {
                    sessions::locked_error()
                } else {
                    AppError::invalid_credentials()
                }))
            };
            let Attempt::Checked { user, password_ok, second } = attempt else { return failed(tx) };
            if !(password_ok && second.matched()) {
                return failed(tx);
            }
            if !user.is_active {
                return Ok(Err(AppError::Forbidden(
                    "Your account is not active yet. Ask an administrator to activate it.".into(),
                )));
            }
            match second {
                SecondFactor::Totp(Some(step)) => {
                    // The code's time step is taken here, once: a second sign-in with the same
                    // code that was checked at the same moment finds it taken.
                    if !accounts::take_totp_step(tx, user.id, step)? {
                        return Ok(Err(AppError::invalid_credentials()));
                    }
                }
                SecondFactor::RecoveryCode(Some(code)) => {
                    // Used once: a second sign-in with it (or one racing this) finds it used.
                    if !recovery::take(tx, code)? {
                        return Ok(Err(AppError::invalid_credentials()));
                    }
                    activity::write_as(tx, Actor::user(user.id, user.name.clone()), || {
                        accounts::require_new_authenticator(tx, user.id)
                    })?;
                }
                _ => return failed(tx),
            }
            sessions::clear_failures(tx, &email, Some(&ip.to_string()))?;
            let session = activity::write_as(tx, Actor::user(user.id, user.name), || {
                sessions::start_session(tx, &keys, user.id, &ip.to_string(), &user_agent)
            })?;
            Ok(Ok(session))
        })
        .await?
}

pub(super) async fn refresh(
    State(state): State<AppState>,
    ApiJson(body): ApiJson<RefreshRequest>,
) -> AppResult<TokenPair> {
    if body.refresh_token.trim().is_empty() {
        return Err(AppError::field("refreshToken", "Refresh token is required"));
    }
    let keys = state.feature::<JwtKeys>()?.clone();
    let outcome = state.db.write(move |tx| sessions::rotate(tx, &keys, body.refresh_token.trim())).await?;
    match outcome {
        Refresh::Rotated(pair) => Ok(pair),
        Refresh::ReuseDetected => {
            tracing::warn!("a spent refresh token was presented again; its session was revoked");
            Err(AppError::Unauthorized(SESSION_ENDED.into()))
        }
        Refresh::Refused => Err(AppError::Unauthorized(SESSION_ENDED.into())),
    }
}

pub(super) async fn profile(user: CurrentUser) -> Json<CurrentUser> {
    Json(user)
}

pub(super) async fn logout(State(state): State<AppState>, headers: HeaderMap, body: Bytes) -> AppResult<StatusCode> {
    let refresh_token = serde_json::from_slice::<RefreshRequest>(&body).map(|b| b.refresh_token).unwrap_or_default();
    let keys = state.feature::<JwtKeys>()?;
    let bearer_session =
        crate::auth::bearer_token(&headers).and_then(|token| keys.verify(token)).map(|claims| claims.session_id);
    state
        .db
        .write(move |tx| {
            let by_refresh = match refresh_token.trim() {
                "" => None,
                token => sessions::session_of_refresh_token(tx, token)?,
            };
            for session_id in bearer_session.iter().chain(by_refresh.iter()) {
                sessions::revoke_session(tx, session_id, "logout")?;
            }
            Ok(())
        })
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

pub(super) async fn public_settings(State(state): State<AppState>) -> Json<PublicSettings> {
    Json(PublicSettings { allow_registration: state.settings.allow_registration })
}
