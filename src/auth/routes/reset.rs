//! Registration (when the operator allows it) and the password-reset link: asking for one and
//! setting a new password with it.

use crate::db::sql::OptionalExtension;
use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use time::{Duration, OffsetDateTime};
use utoipa::ToSchema;

use super::{MessageBody, throttle};
use crate::auth::accounts::{self, NewStaff, Reach};
use crate::auth::tokens::{hash_token, new_opaque_token};
use crate::auth::{Role, password, sessions, totp};
use crate::core::error::{AppError, AppResult};
use crate::core::patterns;
use crate::core::validation::{self, Validator};
use crate::db::sql::on_constraint;
use crate::db::{format_iso, now_iso};
use crate::http::extract::{ApiJson, ClientIp};
use crate::http::form_fields::{Check, Field, FieldKind, Mode, json_object, read_fields};
use crate::http::state::AppState;

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

pub(super) async fn register(
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

pub(super) async fn request_reset(
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
                    |r| r.get("id"),
                )
                .optional()?;
            let Some(user_id) = user_id else { return Ok(None) };
            let sent_this_hour: i64 = tx.query_row(
                "SELECT COUNT(*) AS n FROM password_resets WHERE user_id = ?1 AND created_at >= ?2",
                (user_id, format_iso(OffsetDateTime::now_utc() - Duration::hours(1))),
                |r| r.get("n"),
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
pub(super) async fn confirm_reset(
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
                    |r| r.get("user_id"),
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
            let email: String = tx.query_row("SELECT email FROM users WHERE id = ?1", [user_id], |r| r.get("email"))?;
            sessions::clear_failures(tx, &email, None)?;
            Ok(())
        })
        .await?;
    Ok(MessageBody::json("Your password has been changed. Sign in with the new password."))
}

/// Removes a login's reset links (the login is deleted for good).
pub(in crate::auth) fn forget_password_resets(tx: &crate::db::sql::Connection, user_id: i64) -> AppResult<()> {
    tx.execute("DELETE FROM password_resets WHERE user_id = ?1", [user_id])?;
    Ok(())
}
