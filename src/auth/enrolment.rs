//! The signed-in user's own authenticator and recovery codes (the own-account page): how many codes
//! are left, a new set, and setting up the authenticator again (after a sign-in with a recovery
//! code the panel leads here first). A new set and a new authenticator ask for the password, so a
//! session left open is not enough to take over the account's second factor.

use axum::Json;
use axum::extract::State;
use axum::http::{Method, StatusCode};
use axum::routing::{get, post};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::routes::throttle;
use super::{CurrentUser, Roles, accounts, password, recovery, totp};
use crate::core::error::{AppError, AppResult};
use crate::core::patterns;
use crate::core::refusals::Audience;
use crate::http::api::Rule::{Pattern, Required};
use crate::http::api::{Api, Doc};
use crate::http::extract::{ApiJson, ClientIp};
use crate::http::state::AppState;

pub const WRONG_PASSWORD: &str = "The password is not correct.";
pub const WRONG_CODE: &str = "The code is not correct. Enter the six digits the authenticator app shows now.";
pub const NOT_STARTED: &str = "Start setting up the authenticator first.";

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RecoveryCodesLeft {
    /// Unused recovery codes of the signed-in user.
    left: i64,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RecoveryCodes {
    /// Ten one-time codes, shown this once; the previous set no longer works.
    recovery_codes: Vec<String>,
}

#[derive(Deserialize, ToSchema, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct PasswordCheck {
    /// The signed-in user's password.
    password: String,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AuthenticatorSetup {
    /// The QR code of the new secret, `data:image/png;base64,...`.
    data: String,
    /// The same secret in base32, for an app that cannot scan.
    secret: String,
}

#[derive(Deserialize, ToSchema, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct SetupConfirmation {
    /// The six-digit code the authenticator app shows for the new secret.
    otp: String,
}

async fn left(State(state): State<AppState>, user: CurrentUser) -> AppResult<Json<RecoveryCodesLeft>> {
    let left = state.db.run(move |conn| recovery::left(conn, user.id)).await?;
    Ok(Json(RecoveryCodesLeft { left }))
}

/// Checks the signed-in user's password (rate-limited like a sign-in).
async fn check_password(state: &AppState, ip: std::net::IpAddr, user: &CurrentUser, typed: String) -> AppResult<()> {
    throttle(state, ip)?;
    if typed.trim().is_empty() {
        return Err(AppError::field("password", "Required field"));
    }
    let id = user.id;
    let stored: String = state.db.run(move |conn| accounts::password_hash(conn, id)).await?;
    if password::verify_off_thread(stored, typed).await {
        Ok(())
    } else {
        // A well-formed request whose re-authentication failed: refused (403), naming the field.
        Err(AppError::FieldRefused { status: StatusCode::FORBIDDEN, field: "password", message: WRONG_PASSWORD.into() })
    }
}

async fn new_codes(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    user: CurrentUser,
    ApiJson(body): ApiJson<PasswordCheck>,
) -> AppResult<Json<RecoveryCodes>> {
    check_password(&state, ip, &user, body.password).await?;
    let (recovery_codes, hashes) = recovery::new_set_off_thread().await?;
    state.db.write(move |tx| recovery::replace(tx, user.id, &hashes)).await?;
    Ok(Json(RecoveryCodes { recovery_codes }))
}

async fn start_setup(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    user: CurrentUser,
    ApiJson(body): ApiJson<PasswordCheck>,
) -> AppResult<Json<AuthenticatorSetup>> {
    check_password(&state, ip, &user, body.password).await?;
    let secret = totp::new_secret();
    let pending = secret.clone();
    state.db.write(move |tx| accounts::start_authenticator_setup(tx, user.id, &pending)).await?;
    let uri = totp::otpauth_uri(&secret, &user.email)?;
    Ok(Json(AuthenticatorSetup { data: crate::core::qr::png_data_url(&uri)?, secret }))
}

async fn finish_setup(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    user: CurrentUser,
    ApiJson(body): ApiJson<SetupConfirmation>,
) -> AppResult<Json<RecoveryCodes>> {
    throttle(&state, ip)?;
    if body.otp.trim().is_empty() {
        return Err(AppError::field("otp", "Otp is required"));
    }
    let id = user.id;
    let pending = state.db.run(move |conn| accounts::pending_secret(conn, id)).await?;
    let pending = pending.ok_or_else(|| AppError::Conflict(NOT_STARTED.into()))?;
    let step = totp::accepted_step(&pending, &body.otp, 0).ok_or_else(|| AppError::FieldRefused {
        status: StatusCode::FORBIDDEN,
        field: "otp",
        message: WRONG_CODE.into(),
    })?;
    let (recovery_codes, hashes) = recovery::new_set_off_thread().await?;
    let session = user.session_id.clone();
    let finished =
        state.db.write(move |tx| accounts::finish_authenticator_setup(tx, user.id, step, &hashes, &session)).await?;
    if !finished {
        return Err(AppError::Conflict(NOT_STARTED.into()));
    }
    Ok(Json(RecoveryCodes { recovery_codes }))
}

/// The texts this module's routes refuse with (`core::refusals`).
const REFUSALS: &[&str] = &[WRONG_PASSWORD, WRONG_CODE, NOT_STARTED, "Required field", "Otp is required"];

pub fn routes() -> Api {
    const TAG: &str = "Authentication";
    Api::new()
        .refuses(Audience::People, REFUSALS)
        .add(
            Method::GET,
            "/api/auth/recoveryCodes",
            get(left),
            Doc::new(TAG, "How many recovery codes the signed-in user has left")
                .roles(Roles::ANYONE)
                .returns::<RecoveryCodesLeft>(200),
        )
        .add(
            Method::POST,
            "/api/auth/recoveryCodes",
            post(new_codes),
            Doc::new(TAG, "A new set of ten recovery codes for the signed-in user (the old set stops working)")
                .roles(Roles::ANYONE)
                .json_body::<PasswordCheck>()
                .rules("password", &[Required, Pattern(patterns::NOT_BLANK)])
                .answers(403, "The password is not correct")
                .answers(429, "Too many attempts from this address; see Retry-After")
                .returns::<RecoveryCodes>(200),
        )
        .add(
            Method::POST,
            "/api/auth/authenticator",
            post(start_setup),
            Doc::new(TAG, "Start setting up a new authenticator for the signed-in user: its QR code")
                .roles(Roles::ANYONE)
                .json_body::<PasswordCheck>()
                .rules("password", &[Required, Pattern(patterns::NOT_BLANK)])
                .answers(403, "The password is not correct")
                .answers(429, "Too many attempts from this address; see Retry-After")
                .returns::<AuthenticatorSetup>(200),
        )
        .add(
            Method::PUT,
            "/api/auth/authenticator",
            axum::routing::put(finish_setup),
            Doc::new(
                TAG,
                "Confirm the new authenticator with a code from it: it replaces the old one, with new recovery codes; other sessions end",
            )
            .roles(Roles::ANYONE)
            .json_body::<SetupConfirmation>()
            .rules("otp", &[Required, Pattern(patterns::NOT_BLANK)])
            .answers(403, "The code does not match the new secret")
            .answers(409, "No set-up was started")
            .answers(429, "Too many attempts from this address; see Retry-After")
            .returns::<RecoveryCodes>(200),
        )
}
