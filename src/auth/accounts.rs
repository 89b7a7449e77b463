//! The sign-in side of `users`, written from here only: a login's kind, role, password hash and
//! authenticator secret when it is made, every later password change (the user's own, an Admin's
//! for another, an HR account's, a reset link), the authenticator step a sign-in takes, and a
//! login that follows its HR account into deletion or (de)activation. Each ends the sessions it
//! must in the same transaction. The person's own fields (names, e-mail, phone) are the Users and
//! HR screens' declared writes.

use crate::db::sql::{Connection, OptionalExtension};
use crate::http::form_fields::Columns;

use super::{recovery, sessions, totp};
use crate::core::error::AppResult;
use crate::core::roles::Role;
use crate::db::now_iso;

/// Which accounts a password change may reach.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reach {
    /// Back-office staff only (the Users screen's change).
    Staff,
    /// Any live login (a reset link, an HR account's change by its id).
    Any,
}

/// The columns [`login_columns`] sets, for the declarations of the forms that make logins.
pub const LOGIN_COLUMNS: &[&str] = &["kind", "role_id", "password_hash", "totp_secret"];

/// The columns a new login gets beside its person: its kind (`staff` or `hr`), its role, its
/// password hash and a fresh TOTP secret (made here only, for staff users and HR accounts alike).
pub fn login_columns(kind: &str, role_id: i64, password_hash: String) -> Columns {
    Columns::new()
        .set("kind", kind)
        .set("role_id", role_id)
        .set("password_hash", password_hash)
        .set("totp_secret", totp::new_secret())
}

/// A staff account made outside the Users screen: a registration (inactive until an Admin
/// activates it) or `perkdesk create-admin`.
pub struct NewStaff<'a> {
    pub first_name: &'a str,
    pub last_name: &'a str,
    pub email: &'a str,
    pub role: Role,
    pub password_hash: &'a str,
    pub active: bool,
}

/// Inserts the account with `totp_secret`; a taken e-mail is the driver's constraint error, which
/// the caller names in its own words.
pub fn insert_staff(tx: &Connection, staff: &NewStaff, totp_secret: &str) -> crate::db::sql::Result<i64> {
    Columns::new()
        .set("kind", "staff")
        .set("first_name", staff.first_name)
        .set("last_name", staff.last_name)
        .set("email", staff.email)
        .set("role_id", staff.role as i64)
        .set("password_hash", staff.password_hash)
        .set("totp_secret", totp_secret)
        .set("is_active", staff.active)
        .insert(tx, "users")
}

/// Stores a new password hash for the live login and ends its sessions except `keep` (the
/// caller's own current one, when it changed its own); false when no such login exists.
pub fn set_password(
    tx: &Connection,
    user_id: i64,
    reach: Reach,
    new_hash: &str,
    reason: &str,
    keep: Option<&str>,
) -> AppResult<bool> {
    let updated = tx.execute(
        "UPDATE users SET password_hash = ?2, updated_at = ?3
         WHERE id = ?1 AND deleted_at IS NULL AND (?4 = 0 OR kind = 'staff')",
        (user_id, new_hash, now_iso(), reach == Reach::Staff),
    )?;
    if updated == 0 {
        return Ok(false);
    }
    sessions::revoke_user_sessions(tx, &[user_id], reason, keep)?;
    Ok(true)
}

/// Takes the authenticator's time step for a sign-in, once: a second sign-in with a code of the
/// same step (or an older one) finds it taken and gets false.
pub fn take_totp_step(tx: &Connection, user_id: i64, step: i64) -> AppResult<bool> {
    Ok(tx.execute("UPDATE users SET totp_last_step = ?2 WHERE id = ?1 AND totp_last_step < ?2", (user_id, step))? == 1)
}

/// Deletes the logins with the rows they sign in for (HR accounts), ending their sessions.
pub fn delete_logins(tx: &Connection, user_ids: &[i64], reason: &str) -> AppResult<()> {
    let now = now_iso();
    let mut delete = tx.prepare_cached("UPDATE users SET deleted_at = ?2 WHERE id = ?1")?;
    for id in user_ids {
        delete.execute((id, &now))?;
    }
    sessions::revoke_user_sessions(tx, user_ids, reason, None)
}

/// Brings back the logins of restored rows (HR accounts); they sign in again from the start.
pub fn restore_logins(tx: &Connection, user_ids: &[i64]) -> AppResult<()> {
    let mut restore = tx.prepare_cached("UPDATE users SET deleted_at = NULL WHERE id = ?1")?;
    for id in user_ids {
        restore.execute([id])?;
    }
    Ok(())
}

/// Deletes a deleted login for good with its sessions and reset links (the trash's purge of a user
/// or of the HR account it signs in for).
pub fn purge_login(tx: &Connection, user_id: i64) -> AppResult<()> {
    purge_login_parts(tx, user_id)?;
    tx.execute("DELETE FROM users WHERE id = ?1 AND deleted_at IS NOT NULL", [user_id])?;
    Ok(())
}

/// Removes what belongs to a login only (its sessions and reset links), before the login itself
/// is deleted for good.
pub fn purge_login_parts(tx: &Connection, user_id: i64) -> AppResult<()> {
    sessions::forget_user_sessions(tx, user_id)?;
    recovery::forget(tx, user_id)?;
    super::routes::forget_password_resets(tx, user_id)
}

/// (De)activates a login with the row it signs in for; a deactivated one's sessions end.
pub fn set_login_active(tx: &Connection, user_id: i64, active: bool, reason: &str) -> AppResult<()> {
    tx.execute("UPDATE users SET is_active = ?2, updated_at = ?3 WHERE id = ?1", (user_id, active, now_iso()))?;
    if active { Ok(()) } else { sessions::revoke_user_sessions(tx, &[user_id], reason, None) }
}

/// Gives the live login a new authenticator secret (its old codes stop working at once) with a new
/// set of recovery codes (`recovery_hashes`; the old set stops working) and ends its sessions;
/// returns the new secret and the login's e-mail, or `None` when there is no such login. The
/// activity log records it as an authenticator reset, the secret only as changed.
pub fn reset_totp(
    tx: &Connection,
    user_id: i64,
    reason: &str,
    recovery_hashes: &[String],
) -> AppResult<Option<(String, String)>> {
    let secret = totp::new_secret();
    let email: Option<String> = tx
        .query_row(
            "UPDATE users SET totp_secret = ?2, totp_last_step = 0, totp_pending_secret = NULL,
                              must_set_up_authenticator = 0, updated_at = ?3
             WHERE id = ?1 AND deleted_at IS NULL RETURNING email",
            (user_id, &secret, now_iso()),
            |r| r.get("email"),
        )
        .optional()?;
    let Some(email) = email else { return Ok(None) };
    recovery::replace(tx, user_id, recovery_hashes)?;
    sessions::revoke_user_sessions(tx, &[user_id], reason, None)?;
    Ok(Some((secret, email)))
}

/// After a sign-in with a recovery code: the account is asked to set up its authenticator again
/// before anything else.
pub fn require_new_authenticator(tx: &Connection, user_id: i64) -> AppResult<()> {
    tx.execute("UPDATE users SET must_set_up_authenticator = 1 WHERE id = ?1", [user_id])?;
    Ok(())
}

/// Keeps the secret the account is setting up on its own page until a code from it confirms it.
pub fn start_authenticator_setup(tx: &Connection, user_id: i64, pending_secret: &str) -> AppResult<()> {
    tx.execute("UPDATE users SET totp_pending_secret = ?2 WHERE id = ?1", (user_id, pending_secret))?;
    Ok(())
}

/// The login's stored password hash, for a re-authentication (its own changes of password or
/// authenticator).
pub fn password_hash(conn: &Connection, user_id: i64) -> AppResult<String> {
    Ok(conn.query_row("SELECT password_hash FROM users WHERE id = ?1", [user_id], |r| r.get("password_hash"))?)
}

/// The secret being set up, if any.
pub fn pending_secret(conn: &Connection, user_id: i64) -> AppResult<Option<String>> {
    Ok(conn
        .query_row("SELECT totp_pending_secret FROM users WHERE id = ?1", [user_id], |r| r.get("totp_pending_secret"))
        .optional()?
        .flatten())
}

/// Makes the confirmed secret the account's authenticator (the code's step taken), with a new
/// set of recovery codes, and ends its other sessions; false when nothing was being set up.
pub fn finish_authenticator_setup(
    tx: &Connection,
    user_id: i64,
    step: i64,
    recovery_hashes: &[String],
    keep_session: &str,
) -> AppResult<bool> {
    let changed = tx.execute(
        "UPDATE users SET totp_secret = totp_pending_secret, totp_pending_secret = NULL, totp_last_step = ?2,
                          must_set_up_authenticator = 0, updated_at = ?3
         WHERE id = ?1 AND totp_pending_secret IS NOT NULL",
        (user_id, step, now_iso()),
    )?;
    if changed == 0 {
        return Ok(false);
    }
    recovery::replace(tx, user_id, recovery_hashes)?;
    sessions::revoke_user_sessions(tx, &[user_id], "authenticator set up again", Some(keep_session))?;
    Ok(true)
}
