//! Sign-in, token refresh, profile, logout, registration and password reset.

use crate::db::sql::OptionalExtension;
use axum::Json;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, Method, StatusCode, header::USER_AGENT};
use axum::routing::{get, post, put};
use serde::{Deserialize, Serialize};
use time::{Duration, OffsetDateTime};
use utoipa::ToSchema;

use super::accounts::{self, NewStaff, Reach};
use super::sessions::{self, Refresh, TokenPair};
use super::tokens::{JwtKeys, hash_token, new_opaque_token};
use super::{CurrentUser, SESSION_ENDED, password, recovery, totp};
use crate::auth::{Role, Roles};
use crate::core::error::{AppError, AppResult};
use crate::core::patterns;
use crate::core::refusals::Audience;
use crate::core::validation::{self, Validator};
use crate::db::sql::on_constraint;
use crate::db::{Actor, activity, format_iso, now_iso};
use crate::http::api::Rule::{Note, Pattern, Required};
use crate::http::api::{Api, Doc, Rule};
use crate::http::extract::{ApiJson, ClientIp};
use crate::http::form_fields::{Check, Field, FieldKind, Mode, document_fields, json_object, read_fields};
use crate::http::limits::AddressLimit;
pub use crate::http::reply::MessageBody;
use crate::http::state::AppState;

/// The texts this module's routes refuse with (`core::refusals`).
const REFUSALS: &[&str] = &[
    super::SIGN_IN_REQUIRED,
    super::SESSION_ENDED,
    REGISTRATION_CLOSED,
    RESET_LINK_INVALID,
    validation::DUPLICATE_EMAIL,
    "Your account is not active yet. Ask an administrator to activate it.",
    "Too many attempts from your address. Try again in {seconds} seconds.",
    sessions::THROTTLED,
    super::SET_UP_AUTHENTICATOR_FIRST,
    "Refresh token is required",
];

pub fn routes() -> Api {
    const TAG: &str = "Authentication";
    Api::new()
        .refuses(Audience::People, REFUSALS)
        .add(
            Method::POST,
            "/api/auth/admin/token",
            post(sign_in),
            document_fields(
                SIGN_IN_FIELDS,
                Doc::new(TAG, "Sign in with e-mail, password and a TOTP code (or a recovery code)").json_body::<SignIn>(),
                Mode::Create,
            )
            .rules("recoveryCode", &[Rule::Note("In place of otp: a recovery code, used once; the account must then set up its authenticator again (profile mustSetUpAuthenticator), and until it has, only the profile, the authenticator's set-up, recovery codes and sign-out answer (403 otherwise).")])
            .one_of_required(&["otp", "recoveryCode"])
            .answers(401, "Invalid credentials")
            .answers(403, "The account is not active yet")
            .answers(423, "Sign-ins with this e-mail from this address are locked after five failures (15 minutes)")
            .answers(
                429,
                "Too many sign-in attempts from this address, or too many failures for this e-mail from other \
                 addresses (from an address it never signed in from); see Retry-After",
            )
            .returns::<TokenPair>(200),
        )
        .add(
            Method::POST,
            "/api/auth/refreshToken",
            post(refresh),
            Doc::new(TAG, "Exchange a refresh token for a new pair (the old one is spent)")
                .json_body::<RefreshRequest>()
                .rules("refreshToken", &[Required, Pattern(patterns::NOT_BLANK)])
                .answers(401, "The refresh token is unknown, spent or expired")
                .returns::<TokenPair>(200),
        )
        .add(
            Method::GET,
            "/api/auth/profile",
            get(profile),
            Doc::new(TAG, "The signed-in user").roles(Roles::ANYONE).returns::<CurrentUser>(200),
        )
        .add(
            Method::POST,
            "/api/auth/logout",
            post(logout),
            Doc::new(TAG, "End the session named by the bearer token or the refresh token")
                .json_body::<RefreshRequest>()
                .answers(401, "Neither a live session nor a refresh token was given")
                .no_content(),
        )
        .add(
            Method::GET,
            "/api/auth/settings",
            get(public_settings),
            Doc::new(TAG, "Public sign-in settings").returns::<PublicSettings>(200),
        )
        .add(
            Method::POST,
            "/api/auth/register",
            post(register),
            Doc::new(TAG, "Request an account (inactive until an Admin activates it; off unless enabled)")
                .json_body::<Registration>()
                .rules_of(REGISTRATION_FIELDS)
                .answers(403, "Registration is closed")
                .answers(409, "A user with this e-mail already exists")
                .answers(429, "Too many attempts from this address; see Retry-After")
                .returns::<MessageBody>(201),
        )
        .add(
            Method::PUT,
            "/api/auth/reset-password",
            put(request_reset),
            document_fields(
                RESET_FIELDS,
                Doc::new(TAG, "Send a password-reset link (always answers 200)").json_body::<ResetRequest>(),
                Mode::Create,
            )
            .answers(429, "Too many attempts from this address; see Retry-After")
            .returns::<MessageBody>(200),
        )
        .add(
            Method::POST,
            "/api/user/forgotPassword",
            post(request_reset),
            document_fields(
                RESET_FIELDS,
                Doc::new(TAG, "Same as PUT /api/auth/reset-password").json_body::<ResetRequest>(),
                Mode::Create,
            )
            .answers(429, "Too many attempts from this address; see Retry-After")
            .returns::<MessageBody>(200),
        )
        .add(
            Method::POST,
            "/api/auth/reset-password/confirm",
            post(confirm_reset),
            Doc::new(TAG, "Set a new password with a reset link's token")
                .json_body::<ResetConfirm>()
                .rules("token", &[Required, Pattern(patterns::NOT_BLANK)])
                .rules("newPassword", NEW_PASSWORD_RULES)
                .rules("newPasswordConfirm", NEW_PASSWORD_CONFIRM_RULES)
                .answers(404, "The reset link is unknown, used or expired")
                .returns::<MessageBody>(200),
        )
}

/// A new password with its confirmation (the reset link's form, and a user's own change).
pub const NEW_PASSWORD_RULES: &[Rule] = &[
    Required,
    Pattern(patterns::LETTER_AND_NUMBER_PASSWORD),
    Rule::Message("required", validation::NEW_PASSWORD_REQUIRED),
    Rule::Message("format", validation::LETTER_AND_NUMBER_PASSWORD),
];
pub const NEW_PASSWORD_CONFIRM_RULES: &[Rule] = &[
    Required,
    Pattern(patterns::LETTER_AND_NUMBER_PASSWORD),
    Note("The same as newPassword."),
    Rule::Message("required", validation::CONFIRM_NEW_PASSWORD_REQUIRED),
    Rule::Message("format", validation::NUMBER_PASSWORD),
    Rule::Message("same", validation::NEW_PASSWORDS_DIFFER),
];

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

pub(crate) fn throttle(state: &AppState, ip: std::net::IpAddr) -> AppResult<()> {
    throttle_on(state, &state.sign_in_limiter, ip)
}

/// Refuses a request from an address that is over this server's share of `limit`, saying when to
/// try again.
pub(crate) fn throttle_on(state: &AppState, limit: &AddressLimit, ip: std::net::IpAddr) -> AppResult<()> {
    limit.check(ip, state.db.servers()).map_err(|wait| {
        let seconds = crate::core::error::seconds_to_wait(wait);
        AppError::TooManyRequests {
            message: format!("Too many attempts from your address. Try again in {seconds} seconds."),
            retry_after_secs: seconds,
        }
    })
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

async fn sign_in(
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
                    "SELECT id, password_hash, totp_secret, totp_last_step, is_active, first_name || ' ' || last_name
                     FROM users WHERE email = ?1 AND kind = 'staff' AND deleted_at IS NULL",
                    [&looked_up],
                    |r| {
                        Ok(Candidate {
                            id: r.get(0)?,
                            password_hash: r.get(1)?,
                            totp_secret: r.get(2)?,
                            totp_last_step: r.get(3)?,
                            is_active: r.get(4)?,
                            name: r.get(5)?,
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

async fn refresh(State(state): State<AppState>, ApiJson(body): ApiJson<RefreshRequest>) -> AppResult<TokenPair> {
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

async fn profile(user: CurrentUser) -> Json<CurrentUser> {
    Json(user)
}

async fn logout(State(state): State<AppState>, headers: HeaderMap, body: Bytes) -> AppResult<StatusCode> {
    let refresh_token = serde_json::from_slice::<RefreshRequest>(&body).map(|b| b.refresh_token).unwrap_or_default();
    let keys = state.feature::<JwtKeys>()?;
    let bearer_session =
        super::bearer_token(&headers).and_then(|token| keys.verify(token)).map(|claims| claims.session_id);
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

async fn public_settings(State(state): State<AppState>) -> Json<PublicSettings> {
    Json(PublicSettings { allow_registration: state.settings.allow_registration })
}

#[derive(Deserialize, Serialize, ToSchema, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct Registration {
    email: String,
    fullname: String,
    username: String,
    password: String,
}

pub const REGISTRATION_CLOSED: &str = "Registration is closed. Ask an administrator for an account.";

/// The registration form's e-mail rule, in its own words.
const REGISTRATION_EMAIL: Check = Check {
    pattern: patterns::EMAIL,
    test: validation::is_email,
    message: "Wrong email format",
    example: "new.user@perk.az",
    refused: "not-an-address",
};

/// The registration form's fields, each 3 to 50 characters.
pub static REGISTRATION_FIELDS: &[Field] = &[
    Field::input("fullname", FieldKind::Text).required("Fullname is required").length(3, 50),
    Field::input("email", FieldKind::Checked(&REGISTRATION_EMAIL)).required("Email is required").length(3, 50),
    Field::input("username", FieldKind::Text).required("Username is required").length(3, 50),
    Field::input("password", FieldKind::Text).required("Password is required").length(3, 50),
];

async fn register(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    ApiJson(body): ApiJson<Registration>,
) -> AppResult<(StatusCode, Json<MessageBody>)> {
    if !state.settings.allow_registration {
        return Err(AppError::Forbidden(REGISTRATION_CLOSED.into()));
    }
    throttle(&state, ip)?;
    let mut v = Validator::new();
    let values = read_fields(REGISTRATION_FIELDS, &json_object(&body)?, Mode::Create, &mut v);
    v.finish()?;
    let (email, fullname) = (values.get("email").to_string(), values.get("fullname").to_string());
    let (first_name, last_name) = match fullname.split_once(' ') {
        Some((first, last)) => (first.to_string(), last.trim().to_string()),
        None => (fullname.clone(), String::new()),
    };
    let password_hash = password::hash_off_thread(body.password.clone()).await?;
    state
        .db
        .write(move |tx| {
            let registered = NewStaff {
                first_name: &first_name,
                last_name: &last_name,
                email: &email,
                role: Role::User,
                password_hash: &password_hash,
                active: false,
            };
            accounts::insert_staff(tx, &registered, &totp::new_secret())
                .map_err(on_constraint("email", validation::DUPLICATE_EMAIL))?;
            Ok(())
        })
        .await?;
    Ok((
        StatusCode::CREATED,
        MessageBody::json("Your account has been created. An administrator must activate it before you can sign in."),
    ))
}

/// The reset request's one field.
pub static RESET_FIELDS: &[Field] = &[Field::input("email", FieldKind::Email).required("Email is required")];

#[derive(Deserialize, Serialize, ToSchema, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct ResetRequest {
    email: String,
}

pub const RESET_SENT: &str = "If the e-mail belongs to an account, a reset link has been sent to it.";
const RESET_LINK_LIFETIME: Duration = Duration::minutes(30);
/// Reset links one account is sent per hour, whatever addresses ask: a mailbox cannot be flooded
/// by requests spread over many addresses. The answer stays the same either way.
const RESETS_PER_ACCOUNT_PER_HOUR: i64 = 3;

async fn request_reset(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    ApiJson(body): ApiJson<ResetRequest>,
) -> AppResult<Json<MessageBody>> {
    throttle(&state, ip)?;
    let email = body.email.trim().to_string();
    let mut v = Validator::new();
    read_fields(RESET_FIELDS, &json_object(&body)?, Mode::Create, &mut v);
    v.finish()?;
    let lookup_email = email.clone();
    let token = state
        .db
        .write(move |tx| {
            let user_id: Option<i64> = tx
                .query_row(
                    "SELECT id FROM users WHERE email = ?1 AND kind = 'staff' AND is_active = 1 AND deleted_at IS NULL",
                    [&lookup_email],
                    |r| r.get(0),
                )
                .optional()?;
            let Some(user_id) = user_id else { return Ok(None) };
            let sent_this_hour: i64 = tx.query_row(
                "SELECT COUNT(*) FROM password_resets WHERE user_id = ?1 AND created_at >= ?2",
                (user_id, format_iso(OffsetDateTime::now_utc() - Duration::hours(1))),
                |r| r.get(0),
            )?;
            if sent_this_hour >= RESETS_PER_ACCOUNT_PER_HOUR {
                tracing::warn!(user_id, "password-reset request over the account's hourly limit; no link sent");
                return Ok(None);
            }
            let (token, token_hash) = new_opaque_token();
            tx.execute(
                "INSERT INTO password_resets (token_hash, user_id, expires_at) VALUES (?1, ?2, ?3)",
                (&token_hash, user_id, format_iso(OffsetDateTime::now_utc() + RESET_LINK_LIFETIME)),
            )?;
            Ok(Some(token))
        })
        .await?;
    if let Some(token) = token {
        let link = format!("{}/auth/reset-password?token={token}", state.settings.public_url.trim_end_matches('/'));
        let body = format!(
            "Someone asked to reset the perkdesk password of {email}.\n\nOpen this link within 30 minutes to choose a new password:\n{link}\n\nIf it was not you, ignore this message."
        );
        if let Err(error) = state.mailer.send(&email, "Reset your perkdesk password", body).await {
            tracing::error!(error = format!("{error:#}"), "cannot send the password-reset e-mail");
        }
    }
    Ok(MessageBody::json(RESET_SENT))
}

#[derive(Deserialize, ToSchema, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct ResetConfirm {
    token: String,
    new_password: String,
    new_password_confirm: String,
}

pub const RESET_LINK_INVALID: &str = "This reset link is invalid or has expired. Ask for a new one.";

/// The own-password rules: also used by the own change-password form.
async fn confirm_reset(
    State(state): State<AppState>,
    ApiJson(body): ApiJson<ResetConfirm>,
) -> AppResult<Json<MessageBody>> {
    let mut v = Validator::new();
    v.required("token", &body.token, RESET_LINK_INVALID);
    v.new_password(&body.new_password, &body.new_password_confirm);
    v.finish()?;
    let new_hash = password::hash_off_thread(body.new_password.clone()).await?;
    state
        .db
        .write(move |tx| {
            let user_id: Option<i64> = tx
                .query_row(
                    "SELECT r.user_id FROM password_resets r JOIN users u ON u.id = r.user_id
                     WHERE r.token_hash = ?1 AND r.used_at IS NULL AND r.expires_at > ?2
                       AND u.deleted_at IS NULL AND u.is_active = 1",
                    (hash_token(body.token.trim()), now_iso()),
                    |r| r.get(0),
                )
                .optional()?;
            // A well-formed token that names no live link (unknown, used, expired): a 404.
            let user_id = user_id.ok_or_else(|| AppError::FieldRefused {
                status: axum::http::StatusCode::NOT_FOUND,
                field: "token",
                message: RESET_LINK_INVALID.into(),
            })?;
            tx.execute(
                "UPDATE password_resets SET used_at = ?2 WHERE token_hash = ?1",
                (hash_token(body.token.trim()), now_iso()),
            )?;
            accounts::set_password(tx, user_id, Reach::Any, &new_hash, "password reset", None)?;
            let email: String = tx.query_row("SELECT email FROM users WHERE id = ?1", [user_id], |r| r.get(0))?;
            sessions::clear_failures(tx, &email, None)?;
            Ok(())
        })
        .await?;
    Ok(MessageBody::json("Your password has been changed. Sign in with the new password."))
}

/// Removes a login's reset links (the login is deleted for good).
pub(super) fn forget_password_resets(tx: &crate::db::sql::Connection, user_id: i64) -> AppResult<()> {
    tx.execute("DELETE FROM password_resets WHERE user_id = ?1", [user_id])?;
    Ok(())
}
