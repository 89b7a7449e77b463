//! A back-office user's credentials: the password change (own, or an Admin's for another
//! user) and the authenticator QR code.

use super::*;

pub const YOUR_PASSWORD_WRONG: &str = "Your password is incorrect.";
pub const OLD_PASSWORD_WRONG: &str = "Old password is incorrect.";
pub const OLD_PASSWORD_REQUIRED: &str = "Old password is required";

#[derive(Deserialize, ToSchema, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct PasswordChange {
    /// Another user's id (Admin only); absent or the caller's own id changes the own password.
    id: Option<i64>,
    /// The caller's current password (for an Admin changing another user's: the Admin's own).
    old_password: String,
    new_password: String,
    new_password_confirm: String,
}

pub(super) async fn change_password(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiJson(body): ApiJson<PasswordChange>,
) -> AppResult<Json<MessageBody>> {
    let target = body.id.filter(|id| *id != user.id);
    let mut v = Validator::new();
    match target {
        None => {
            v.required("oldPassword", &body.old_password, OLD_PASSWORD_REQUIRED);
            v.new_password(&body.new_password, &body.new_password_confirm);
        }
        Some(_) => {
            user.require(Roles::ADMIN)?;
            v.required("oldPassword", &body.old_password, validation::PASSWORD_REQUIRED)
                .required("newPassword", &body.new_password, validation::PASSWORD_REQUIRED)
                .check("newPassword", validation::has_number(&body.new_password), validation::NUMBER_PASSWORD)
                .required("newPasswordConfirm", &body.new_password_confirm, validation::CONFIRM_PASSWORD_REQUIRED)
                .check(
                    "newPasswordConfirm",
                    validation::has_number(&body.new_password_confirm),
                    validation::NUMBER_PASSWORD,
                )
                .check(
                    "newPasswordConfirm",
                    body.new_password_confirm == body.new_password,
                    validation::PASSWORDS_DIFFER,
                );
        }
    }
    v.finish()?;
    let user_id = user.id;
    let own_hash: String = state.db.run(move |conn| accounts::password_hash(conn, user_id)).await?;
    if !password::verify_off_thread(own_hash, body.old_password.clone()).await {
        let message = if target.is_some() { YOUR_PASSWORD_WRONG } else { OLD_PASSWORD_WRONG };
        // A well-formed request whose re-authentication failed: refused (403), naming the field.
        return Err(AppError::FieldRefused {
            status: StatusCode::FORBIDDEN,
            field: "oldPassword",
            message: message.into(),
        });
    }
    let new_hash = password::hash_off_thread(body.new_password.clone()).await?;
    state
        .db
        .write(move |tx| {
            let changed_id = target.unwrap_or(user.id);
            // Other sessions of the changed account end; the caller's own current one stays.
            let keep = (changed_id == user.id).then_some(user.session_id.as_str());
            if !accounts::set_password(tx, changed_id, Reach::Staff, &new_hash, "password changed", keep)? {
                return Err(USERS.not_found());
            }
            Ok(())
        })
        .await?;
    Ok(MessageBody::json("The password has been changed."))
}

#[derive(Serialize, ToSchema)]
pub struct QrCode {
    /// `data:image/png;base64,...`
    data: String,
}

pub(super) async fn qr_code(
    State(state): State<AppState>,
    user: CurrentUser,
    query: QueryMap,
) -> AppResult<Json<QrCode>> {
    let id = query.int("id")?.ok_or_else(|| AppError::field("id", "id is required"))?;
    let (kind, email, secret) = state
        .db
        .run(move |conn| {
            conn.query_row(
                "SELECT kind, email, totp_secret FROM users WHERE id = ?1 AND deleted_at IS NULL",
                [id],
                |r| Ok((r.get::<String>("kind")?, r.get::<String>("email")?, r.get::<String>("totp_secret")?)),
            )
            .optional()?
            .ok_or_else(|| USERS.not_found())
        })
        .await?;
    // Staff accounts are the Users screen's (Admin only); HR accounts' codes are for editors.
    if kind == "staff" {
        user.require(Roles::ADMIN)?;
    }
    let uri = totp::otpauth_uri(&secret, &email)?;
    Ok(Json(QrCode { data: crate::core::qr::png_data_url(&uri)? }))
}

pub const RESET_OWN: &str = "Your own authenticator cannot be reset here; ask another Admin.";

/// `{id}` of the authenticator reset: a staff user's or an HR account's login.
#[derive(Deserialize, ToSchema)]
pub struct LoginId {
    id: i64,
}

/// A new authenticator, shown once: its QR code, its key and the new set of recovery codes.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct NewAuthenticator {
    /// `data:image/png;base64,...`
    data: String,
    /// The same secret in base32, for the Admin to read out to someone whose app cannot scan.
    secret: String,
    /// Ten one-time codes that sign in in place of the six-digit code; the old set no longer works.
    recovery_codes: Vec<String>,
}

/// `PUT user/resetAuthenticator` (Admins): a new secret and recovery codes for another login,
/// which is signed out everywhere; answers them for the Admin to hand over.
pub(super) async fn reset_authenticator(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiJson(body): ApiJson<LoginId>,
) -> AppResult<Json<NewAuthenticator>> {
    if body.id == user.id {
        return Err(AppError::Forbidden(RESET_OWN.into()));
    }
    let (recovery_codes, hashes) = recovery::new_set_off_thread().await?;
    let (secret, email) = state
        .db
        .write(move |tx| {
            accounts::reset_totp(tx, body.id, "authenticator reset by an Admin", &hashes)?
                .ok_or_else(|| USERS.not_found())
        })
        .await?;
    let uri = totp::otpauth_uri(&secret, &email)?;
    Ok(Json(NewAuthenticator { data: crate::core::qr::png_data_url(&uri)?, secret, recovery_codes }))
}
