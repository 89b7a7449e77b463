//! Sessions and their single-use refresh tokens, sign-in failures and the account lock.

use crate::db::sql::{Connection, OptionalExtension};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use time::{Duration, OffsetDateTime};
use utoipa::ToSchema;

use super::tokens::{JwtKeys, REFRESH_TOKEN_LIFETIME, hash_token, new_opaque_token};
use crate::core::error::{AppError, AppResult};
use crate::db::{format_iso, now_iso};

pub const LOCK_AFTER_FAILURES: i64 = 5;
pub const FAILURE_WINDOW: Duration = Duration::minutes(15);
pub const LOCK_DURATION: Duration = Duration::minutes(15);

/// What sign-in and refresh answer.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
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
        crate::http::reply::CarriesCredentials::mark(&mut response);
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
                    u.is_active = 1 AND u.deleted_at IS NULL AND u.kind = 'staff',
                    CASE WHEN t.used_at > ?3 THEN t.successor END
             FROM refresh_tokens t
             JOIN sessions s ON s.id = t.session_id
             JOIN users u ON u.id = s.user_id
             WHERE t.token_hash = ?1",
            (hash_token(refresh_token), now_iso(), format_iso(OffsetDateTime::now_utc() - REFRESH_GRACE)),
            |r| {
                Ok((
                    r.get::<String>(0)?,
                    r.get::<bool>(1)?,
                    r.get::<bool>(2)?,
                    r.get::<bool>(3)?,
                    r.get::<i64>(4)?,
                    r.get::<bool>(5)?,
                    r.get::<Option<Vec<u8>>>(6)?,
                ))
            },
        )
        .optional()?;
    // `successor` is there only for a token spent within the grace window.
    let Some((session_id, spent, fresh, live, user_id, user_ok, successor)) = found else {
        return Ok(Refresh::Refused);
    };
    if spent {
        // The same exchange again within the grace window (two tabs, a retried request): the
        // pair it was exchanged for, unsealed with the key only this token gives.
        if let Some(pair) = successor.and_then(|sealed| unseal_successor(refresh_token, &sealed)) {
            return Ok(if live && user_ok { Refresh::Rotated(pair) } else { Refresh::Refused });
        }
        revoke_session(tx, &session_id, "refresh token reuse")?;
        return Ok(Refresh::ReuseDetected);
    }
    if !fresh || !live || !user_ok {
        return Ok(Refresh::Refused);
    }
    let pair = issue_pair(tx, keys, user_id, &session_id)?;
    tx.execute(
        "UPDATE refresh_tokens SET used_at = ?2, successor = ?3 WHERE token_hash = ?1",
        (hash_token(refresh_token), now_iso(), seal_successor(refresh_token, &pair)?),
    )?;
    Ok(Refresh::Rotated(pair))
}

/// How long after an exchange the same refresh token gets the same pair back, instead of
/// counting as a stolen copy.
pub const REFRESH_GRACE: Duration = Duration::seconds(10);

/// The cipher keyed by the refresh token: 256 random bits, so a hash with a purpose prefix is a
/// sound key, and the database (which holds only another hash of it) cannot derive it.
fn successor_cipher(refresh_token: &str) -> chacha20poly1305::ChaCha20Poly1305 {
    use chacha20poly1305::KeyInit;
    let key = Sha256::new().chain_update(b"perkdesk refresh successor\0").chain_update(refresh_token).finalize();
    chacha20poly1305::ChaCha20Poly1305::new(&key)
}

/// The pair sealed with the token's key: a random nonce, then the ciphertext of the pair's JSON.
fn seal_successor(refresh_token: &str, pair: &TokenPair) -> AppResult<Vec<u8>> {
    use chacha20poly1305::aead::{Aead, AeadCore, OsRng};
    let plain = serde_json::to_vec(pair).map_err(|error| AppError::Internal(error.into()))?;
    let nonce = chacha20poly1305::ChaCha20Poly1305::generate_nonce(&mut OsRng);
    let sealed = successor_cipher(refresh_token)
        .encrypt(&nonce, plain.as_slice())
        .map_err(|_| AppError::Internal(anyhow::anyhow!("cannot seal the refreshed pair")))?;
    Ok([&nonce[..], &sealed].concat())
}

/// The pair sealed by [`seal_successor`], when this token sealed it.
fn unseal_successor(refresh_token: &str, sealed: &[u8]) -> Option<TokenPair> {
    use chacha20poly1305::aead::Aead;
    if sealed.len() < 12 {
        return None;
    }
    let (nonce, ciphertext) = sealed.split_at(12);
    let plain = successor_cipher(refresh_token).decrypt(nonce.into(), ciphertext).ok()?;
    serde_json::from_slice(&plain).ok()
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
         WHERE user_id = ?1 AND revoked_at IS NULL AND id IS DISTINCT FROM ?4",
    )?;
    let now = now_iso();
    for user_id in user_ids {
        stmt.execute((user_id, &now, reason, keep))?;
    }
    Ok(())
}

/// Removes the logins' sessions and their refresh tokens (the logins are deleted for good).
pub fn forget_user_sessions(tx: &Connection, user_id: i64) -> AppResult<()> {
    tx.execute(
        "DELETE FROM refresh_tokens WHERE session_id IN (SELECT id FROM sessions WHERE user_id = ?1)",
        [user_id],
    )?;
    tx.execute("DELETE FROM sessions WHERE user_id = ?1", [user_id])?;
    Ok(())
}

/// Whether sign-ins with this e-mail are locked now (after five failures within the window),
/// whether or not an account has the e-mail.
pub fn is_locked(conn: &Connection, email: &str) -> AppResult<bool> {
    let until: Option<String> = conn
        .prepare_cached("SELECT until FROM sign_in_locks WHERE email = ?1")?
        .query_row([email], |r| r.get(0))
        .optional()?;
    Ok(until.is_some_and(|until| until > now_iso()))
}

/// Records a failed sign-in with this e-mail and locks it on the fifth failure within the
/// window. Returns true when it is now locked. Failures and locks past their time are pruned.
pub fn record_failure(tx: &Connection, email: &str) -> AppResult<bool> {
    let now = OffsetDateTime::now_utc();
    let window_start = format_iso(now - FAILURE_WINDOW);
    tx.prepare_cached("DELETE FROM sign_in_failures WHERE at <= ?1")?.execute([&window_start])?;
    tx.prepare_cached("DELETE FROM sign_in_locks WHERE until <= ?1")?.execute([format_iso(now)])?;
    tx.prepare_cached("INSERT INTO sign_in_failures (email, at) VALUES (?1, ?2)")?.execute((email, format_iso(now)))?;
    let recent: i64 = tx
        .prepare_cached("SELECT COUNT(*) FROM sign_in_failures WHERE email = ?1 AND at > ?2")?
        .query_row((email, &window_start), |r| r.get(0))?;
    if recent >= LOCK_AFTER_FAILURES {
        tx.prepare_cached(
            "INSERT INTO sign_in_locks (email, until) VALUES (?1, ?2)
             ON CONFLICT (email) DO UPDATE SET until = excluded.until",
        )?
        .execute((email, format_iso(now + LOCK_DURATION)))?;
        return Ok(true);
    }
    Ok(false)
}

/// Forgets the failures and lifts the lock of an e-mail (a successful sign-in, a password reset).
pub fn clear_failures(tx: &Connection, email: &str) -> AppResult<()> {
    tx.prepare_cached("DELETE FROM sign_in_failures WHERE email = ?1")?.execute([email])?;
    tx.prepare_cached("DELETE FROM sign_in_locks WHERE email = ?1")?.execute([email])?;
    Ok(())
}

pub fn locked_error() -> AppError {
    AppError::Locked(crate::core::error::LOCKED.into())
}
