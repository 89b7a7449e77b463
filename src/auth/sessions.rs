//! Sessions and their single-use refresh tokens, sign-in failures and the account lock.

use rusqlite::{Connection, OptionalExtension};
use serde::Serialize;
use time::{Duration, OffsetDateTime};
use utoipa::ToSchema;

use super::tokens::{JwtKeys, REFRESH_TOKEN_LIFETIME, hash_token, new_opaque_token};
use crate::db::{format_iso, now_iso};
use crate::error::{AppError, AppResult};

pub const LOCK_AFTER_FAILURES: i64 = 5;
pub const FAILURE_WINDOW: Duration = Duration::minutes(15);
pub const LOCK_DURATION: Duration = Duration::minutes(15);

/// What sign-in and refresh answer.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TokenPair {
    pub token: String,
    /// When the access token expires (UTC, ISO 8601).
    pub expires_at: String,
    pub refresh_token: String,
}

impl axum::response::IntoResponse for TokenPair {
    fn into_response(self) -> axum::response::Response {
        let mut response = axum::Json(self).into_response();
        response.extensions_mut().insert(crate::idempotency::CarriesCredentials);
        response
    }
}

fn issue_pair(tx: &Connection, keys: &JwtKeys, user_id: i64, session_id: &str) -> AppResult<TokenPair> {
    let (refresh_token, refresh_hash) = new_opaque_token();
    tx.execute(
        "INSERT INTO refresh_tokens (token_hash, session_id, expires_at) VALUES (?1, ?2, ?3)",
        (&refresh_hash, session_id, format_iso(OffsetDateTime::now_utc() + REFRESH_TOKEN_LIFETIME)),
    )?;
    let (token, expires_at) = keys.issue(user_id, session_id)?;
    Ok(TokenPair { token, expires_at: format_iso(expires_at), refresh_token })
}

pub fn start_session(
    tx: &Connection,
    keys: &JwtKeys,
    user_id: i64,
    ip: &str,
    user_agent: &str,
) -> AppResult<TokenPair> {
    let session_id = uuid::Uuid::new_v4().to_string();
    tx.execute(
        "INSERT INTO sessions (id, user_id, ip, user_agent) VALUES (?1, ?2, ?3, ?4)",
        (&session_id, user_id, ip, user_agent),
    )?;
    issue_pair(tx, keys, user_id, &session_id)
}

pub enum Refresh {
    Rotated(TokenPair),
    /// Unknown, expired, revoked, or its user can no longer sign in.
    Refused,
    /// A spent token came back: someone holds a copy, so the whole session was revoked.
    ReuseDetected,
}

/// Exchanges a refresh token for a new pair; the old one is spent.
pub fn rotate(tx: &Connection, keys: &JwtKeys, refresh_token: &str) -> AppResult<Refresh> {
    let found = tx
        .query_row(
            "SELECT t.session_id, t.used_at IS NOT NULL, t.expires_at > ?2, s.revoked_at IS NULL, s.user_id,
                    u.is_active = 1 AND u.deleted_at IS NULL AND u.kind = 'staff'
             FROM refresh_tokens t
             JOIN sessions s ON s.id = t.session_id
             JOIN users u ON u.id = s.user_id
             WHERE t.token_hash = ?1",
            (hash_token(refresh_token), now_iso()),
            |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, bool>(1)?,
                    r.get::<_, bool>(2)?,
                    r.get::<_, bool>(3)?,
                    r.get::<_, i64>(4)?,
                    r.get::<_, bool>(5)?,
                ))
            },
        )
        .optional()?;
    let Some((session_id, spent, fresh, live, user_id, user_ok)) = found else {
        return Ok(Refresh::Refused);
    };
    if spent {
        revoke_session(tx, &session_id, "refresh token reuse")?;
        return Ok(Refresh::ReuseDetected);
    }
    if !fresh || !live || !user_ok {
        return Ok(Refresh::Refused);
    }
    tx.execute("UPDATE refresh_tokens SET used_at = ?2 WHERE token_hash = ?1", (hash_token(refresh_token), now_iso()))?;
    Ok(Refresh::Rotated(issue_pair(tx, keys, user_id, &session_id)?))
}

pub fn revoke_session(conn: &Connection, session_id: &str, reason: &str) -> AppResult<()> {
    conn.execute(
        "UPDATE sessions SET revoked_at = ?2, revoked_reason = ?3 WHERE id = ?1 AND revoked_at IS NULL",
        (session_id, now_iso(), reason),
    )?;
    Ok(())
}

/// The session a refresh token belongs to, for logout by refresh token.
pub fn session_of_refresh_token(conn: &Connection, refresh_token: &str) -> AppResult<Option<String>> {
    Ok(conn
        .query_row("SELECT session_id FROM refresh_tokens WHERE token_hash = ?1", [hash_token(refresh_token)], |r| {
            r.get(0)
        })
        .optional()?)
}

/// Ends every session of the users, except `keep` (the caller's own, after a password change).
pub fn revoke_user_sessions(conn: &Connection, user_ids: &[i64], reason: &str, keep: Option<&str>) -> AppResult<()> {
    let mut stmt = conn.prepare_cached(
        "UPDATE sessions SET revoked_at = ?2, revoked_reason = ?3
         WHERE user_id = ?1 AND revoked_at IS NULL AND id IS NOT ?4",
    )?;
    let now = now_iso();
    for user_id in user_ids {
        stmt.execute((user_id, &now, reason, keep))?;
    }
    Ok(())
}

pub fn is_locked(locked_until: Option<&str>) -> bool {
    locked_until.is_some_and(|until| until > now_iso().as_str())
}

/// Records a failed sign-in and locks the account on the fifth failure within the window.
/// Returns true when the account is now locked.
pub fn record_failure(tx: &Connection, user_id: i64) -> AppResult<bool> {
    let now = OffsetDateTime::now_utc();
    tx.execute("INSERT INTO login_failures (user_id, at) VALUES (?1, ?2)", (user_id, format_iso(now)))?;
    let recent: i64 = tx.query_row(
        "SELECT COUNT(*) FROM login_failures WHERE user_id = ?1 AND at > ?2",
        (user_id, format_iso(now - FAILURE_WINDOW)),
        |r| r.get(0),
    )?;
    if recent >= LOCK_AFTER_FAILURES {
        tx.execute("UPDATE users SET locked_until = ?2 WHERE id = ?1", (user_id, format_iso(now + LOCK_DURATION)))?;
        return Ok(true);
    }
    Ok(false)
}

pub fn clear_failures(tx: &Connection, user_id: i64) -> AppResult<()> {
    tx.execute("DELETE FROM login_failures WHERE user_id = ?1", [user_id])?;
    tx.execute("UPDATE users SET locked_until = NULL WHERE id = ?1", [user_id])?;
    Ok(())
}

pub fn locked_error() -> AppError {
    AppError::Locked(crate::error::LOCKED.into())
}
