//! Sessions and their single-use refresh tokens, sign-in failures, the lock per e-mail and
//! address, and the throttle per e-mail across addresses.

use crate::db::sql::{Connection, OptionalExtension};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use time::{Duration, OffsetDateTime};
use utoipa::ToSchema;

use super::tokens::{JwtKeys, REFRESH_TOKEN_LIFETIME, hash_token, new_opaque_token};
use crate::core::error::{AppError, AppResult};
use crate::db::{format_iso, now_iso};

/// Failures from one address within the window that lock that address out of the e-mail.
pub const LOCK_AFTER_FAILURES: i64 = 5;
pub const FAILURE_WINDOW: Duration = Duration::minutes(15);
pub const LOCK_DURATION: Duration = Duration::minutes(15);
/// Failures of one e-mail from all addresses within the window from which it is throttled for
/// addresses the account never signed in from.
pub const THROTTLE_AFTER_FAILURES: i64 = 20;
/// While throttled, such an address waits this long after the e-mail's latest failure: a guess
/// spread over many addresses gets two tries a minute.
pub const THROTTLE_INTERVAL: Duration = Duration::seconds(30);
/// An address the account signed in from within this long is its own: never throttled.
pub const FAMILIAR_FOR: Duration = Duration::days(90);

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
            "SELECT t.session_id, t.used_at IS NOT NULL AS spent, t.expires_at > ?2 AS fresh,
                    s.revoked_at IS NULL AS live, s.user_id,
                    u.is_active = 1 AND u.deleted_at IS NULL AND u.kind = 'staff' AS user_ok,
                    CASE WHEN t.used_at > ?3 THEN t.successor END AS successor
             FROM refresh_tokens t
             JOIN sessions s ON s.id = t.session_id
             JOIN users u ON u.id = s.user_id
             WHERE t.token_hash = ?1",
            (hash_token(refresh_token), now_iso(), format_iso(OffsetDateTime::now_utc() - REFRESH_GRACE)),
            |r| {
                Ok((
                    r.get::<String>("session_id")?,
                    r.get::<bool>("spent")?,
                    r.get::<bool>("fresh")?,
                    r.get::<bool>("live")?,
                    r.get::<i64>("user_id")?,
                    r.get::<bool>("user_ok")?,
                    r.get::<Option<Vec<u8>>>("successor")?,
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
            r.get("session_id")
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

/// What a sign-in attempt with an e-mail from an address meets before its password is checked.
#[derive(Debug, PartialEq, Eq)]
pub enum Gate {
    Open,
    /// Five failures from this address within the window: locked for this address only.
    Locked,
    /// Many failures from many addresses: an address the account never signed in from waits.
    Throttled(std::time::Duration),
}

/// Whether a sign-in with `email` from `address` may be tried now. The lockout is per e-mail and
/// address, so whoever knows an e-mail cannot lock its owner out from another address; across
/// addresses the e-mail is throttled more slowly, which still stops a guess spread over many
/// addresses, and never for an address the account signed in from before. Alike whether or not
/// an account has the e-mail (nothing tells which e-mails have accounts).
pub fn sign_in_gate(conn: &Connection, email: &str, address: &str) -> AppResult<Gate> {
    let now = OffsetDateTime::now_utc();
    let until: Option<String> = conn
        .prepare_cached("SELECT until FROM sign_in_locks WHERE email = ?1 AND address = ?2")?
        .query_row((email, address), |r| r.get("until"))
        .optional()?;
    if until.is_some_and(|until| until > format_iso(now)) {
        return Ok(Gate::Locked);
    }
    let window_start = format_iso(now - FAILURE_WINDOW);
    let (failures, last): (i64, Option<String>) = conn
        .prepare_cached(
            "SELECT COUNT(*) AS failures, MAX(at) AS last FROM sign_in_failures WHERE email = ?1 AND at > ?2",
        )?
        .query_row((email, &window_start), |r| Ok((r.get("failures")?, r.get("last")?)))?;
    if failures < THROTTLE_AFTER_FAILURES {
        return Ok(Gate::Open);
    }
    let familiar = conn
        .prepare_cached(
            "SELECT 1 FROM sessions s JOIN users u ON u.id = s.user_id
             WHERE u.email = ?1 AND u.kind = 'staff' AND u.deleted_at IS NULL AND s.ip = ?2 AND s.created_at > ?3
             LIMIT 1",
        )?
        .query_row((email, address, format_iso(now - FAMILIAR_FOR)), |_| Ok(()))
        .optional()?
        .is_some();
    if familiar {
        return Ok(Gate::Open);
    }
    let next = last
        .and_then(|last| OffsetDateTime::parse(&last, &time::format_description::well_known::Rfc3339).ok())
        .map(|last| last + THROTTLE_INTERVAL);
    Ok(match next {
        Some(next) if next > now => Gate::Throttled((next - now).unsigned_abs()),
        _ => Gate::Open,
    })
}

/// Records a failed sign-in with this e-mail from this address and locks the address out of the
/// e-mail on the fifth failure within the window. Returns true when it is now locked. Failures
/// and locks past their time are pruned.
pub fn record_failure(tx: &Connection, email: &str, address: &str) -> AppResult<bool> {
    let now = OffsetDateTime::now_utc();
    let window_start = format_iso(now - FAILURE_WINDOW);
    tx.prepare_cached("DELETE FROM sign_in_failures WHERE at <= ?1")?.execute([&window_start])?;
    tx.prepare_cached("DELETE FROM sign_in_locks WHERE until <= ?1")?.execute([format_iso(now)])?;
    tx.prepare_cached("INSERT INTO sign_in_failures (email, address, at) VALUES (?1, ?2, ?3)")?.execute((
        email,
        address,
        format_iso(now),
    ))?;
    let recent: i64 = tx
        .prepare_cached("SELECT COUNT(*) AS n FROM sign_in_failures WHERE email = ?1 AND address = ?2 AND at > ?3")?
        .query_row((email, address, &window_start), |r| r.get("n"))?;
    if recent >= LOCK_AFTER_FAILURES {
        tx.prepare_cached(
            "INSERT INTO sign_in_locks (email, address, until) VALUES (?1, ?2, ?3)
             ON CONFLICT (email, address) DO UPDATE SET until = excluded.until",
        )?
        .execute((email, address, format_iso(now + LOCK_DURATION)))?;
        return Ok(true);
    }
    Ok(false)
}

/// Forgets the failures and lifts the locks of an e-mail: from one address (a successful sign-in
/// there), or from all (`None`: a password reset, which proves the e-mail's owner).
pub fn clear_failures(tx: &Connection, email: &str, address: Option<&str>) -> AppResult<()> {
    match address {
        Some(address) => {
            tx.prepare_cached("DELETE FROM sign_in_failures WHERE email = ?1 AND address = ?2")?
                .execute((email, address))?;
            tx.prepare_cached("DELETE FROM sign_in_locks WHERE email = ?1 AND address = ?2")?
                .execute((email, address))?;
        }
        None => {
            tx.prepare_cached("DELETE FROM sign_in_failures WHERE email = ?1")?.execute([email])?;
            tx.prepare_cached("DELETE FROM sign_in_locks WHERE email = ?1")?.execute([email])?;
        }
    }
    Ok(())
}

/// The answer to an attempt from an unfamiliar address while the e-mail is throttled (a template
/// of the refusals: `{seconds}` is filled in).
pub const THROTTLED: &str = "Too many failed sign-ins for this account. Try again in {seconds} seconds.";

pub fn throttled_error(wait: std::time::Duration) -> AppError {
    let seconds = crate::core::error::seconds_to_wait(wait);
    AppError::TooManyRequests {
        message: THROTTLED.replace("{seconds}", &seconds.to_string()),
        retry_after_secs: seconds,
    }
}

pub fn locked_error() -> AppError {
    AppError::Locked(crate::core::error::LOCKED.into())
}
