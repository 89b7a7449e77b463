//! The sign-in side's routes: their table and documents here, with the per-address throttle
//! they share; signing in, refreshing and ending a session in `sign_in.rs`; registration and the
//! password-reset link in `reset.rs`.

mod reset;
mod sign_in;

use axum::http::Method;
use axum::routing::{get, post, put};

use super::CurrentUser;
use super::Roles;
use super::sessions::{self, TokenPair};
use crate::core::error::{AppError, AppResult};
use crate::core::patterns;
use crate::core::refusals::Audience;
use crate::core::validation;
use crate::http::api::Rule::{Note, Pattern, Required};
use crate::http::api::{Api, Doc, Rule};
use crate::http::form_fields::{Mode, document_fields};
use crate::http::limits::AddressLimit;
pub use crate::http::reply::MessageBody;
use crate::http::state::AppState;

pub(in crate::auth) use reset::forget_password_resets;
pub use reset::{
    REGISTRATION_CLOSED, REGISTRATION_FIELDS, RESET_FIELDS, RESET_LINK_INVALID, RESET_SENT, Registration, ResetConfirm,
    ResetRequest,
};
use reset::{confirm_reset, register, request_reset};
pub use sign_in::{PublicSettings, RefreshRequest, SIGN_IN_FIELDS, SignIn};
use sign_in::{logout, profile, public_settings, refresh, sign_in};

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
