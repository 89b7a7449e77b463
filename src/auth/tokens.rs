//! Access tokens (JWT, HS256 only, 15 minutes) and opaque refresh tokens (random, stored hashed).

use crate::db::sql::{Connection, OptionalExtension};
use base64::Engine;
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use rand::RngCore;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use time::{Duration, OffsetDateTime};

pub const ACCESS_TOKEN_LIFETIME: Duration = Duration::minutes(15);
pub const REFRESH_TOKEN_LIFETIME: Duration = Duration::days(7);

#[derive(Debug, Serialize, Deserialize)]
pub struct Claims {
    /// The user id (a string, as JWT requires).
    pub sub: String,
    /// The session this token belongs to; revoking the session voids the token at once.
    pub sid: String,
    pub iat: i64,
    pub exp: i64,
}

/// What a valid access token says: a staff session, before the database says whether it is live
/// (`SessionToken::check_ahead`, then `SessionToken::admit`, in `auth`).
#[derive(Clone, Debug)]
pub struct SessionToken {
    pub user_id: i64,
    pub session_id: String,
}

#[derive(Clone)]
pub struct JwtKeys {
    encoding: EncodingKey,
    decoding: DecodingKey,
}

impl JwtKeys {
    /// Loads the signing key kept in the database, generating it on first start.
    pub fn load_or_create(conn: &Connection) -> anyhow::Result<JwtKeys> {
        let stored: Option<String> = conn
            .query_row("SELECT value FROM app_settings WHERE key = 'jwt_signing_key'", [], |r| r.get("value"))
            .optional()?;
        let secret = match stored {
            Some(hex_key) => hex::decode(hex_key)?,
            None => {
                let key = random_bytes::<32>().to_vec();
                conn.execute(
                    "INSERT INTO app_settings (key, value) VALUES ('jwt_signing_key', ?1)
                     ON CONFLICT (key) DO NOTHING",
                    [hex::encode(&key)],
                )?;
                let kept: String =
                    conn.query_row("SELECT value FROM app_settings WHERE key = 'jwt_signing_key'", [], |r| {
                        r.get("value")
                    })?;
                hex::decode(kept)?
            }
        };
        Ok(JwtKeys { encoding: EncodingKey::from_secret(&secret), decoding: DecodingKey::from_secret(&secret) })
    }

    pub fn issue(&self, user_id: i64, session_id: &str) -> anyhow::Result<(String, OffsetDateTime)> {
        let now = OffsetDateTime::now_utc();
        let expires_at = now + ACCESS_TOKEN_LIFETIME;
        let claims = Claims {
            sub: user_id.to_string(),
            sid: session_id.to_string(),
            iat: now.unix_timestamp(),
            exp: expires_at.unix_timestamp(),
        };
        let token = jsonwebtoken::encode(&Header::new(Algorithm::HS256), &claims, &self.encoding)?;
        Ok((token, expires_at))
    }

    /// Verifies signature (HS256 only), expiry and shape; anything else is `None`.
    pub fn verify(&self, token: &str) -> Option<SessionToken> {
        let mut validation = Validation::new(Algorithm::HS256);
        validation.leeway = 0;
        validation.set_required_spec_claims(&["exp", "sub"]);
        let claims = jsonwebtoken::decode::<Claims>(token, &self.decoding, &validation).ok()?.claims;
        Some(SessionToken { user_id: claims.sub.parse().ok()?, session_id: claims.sid })
    }
}

pub fn random_bytes<const N: usize>() -> [u8; N] {
    let mut bytes = [0u8; N];
    rand::rng().fill_bytes(&mut bytes);
    bytes
}

/// A new opaque token (for refresh and password-reset links) and the hash that is stored.
pub fn new_opaque_token() -> (String, String) {
    let token = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(random_bytes::<32>());
    let hash = hash_token(&token);
    (token, hash)
}

pub fn hash_token(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys() -> JwtKeys {
        let conn = crate::db::migrated_in_memory().unwrap();
        JwtKeys::load_or_create(&conn).unwrap()
    }

    #[test]
    fn tokens_round_trip_and_tampering_is_refused() {
        let keys = keys();
        let (token, _) = keys.issue(7, "s1").unwrap();
        let claims = keys.verify(&token).unwrap();
        assert_eq!((claims.user_id, claims.session_id.as_str()), (7, "s1"));
        let mut tampered = token.clone();
        tampered.pop();
        tampered.push(if token.ends_with('A') { 'B' } else { 'A' });
        assert!(keys.verify(&tampered).is_none());
        assert!(keys.verify("not.a.token").is_none());
    }

    #[test]
    fn alg_none_and_other_keys_are_refused() {
        let keys = keys();
        let (token, _) = keys.issue(7, "s1").unwrap();
        let payload = token.split('.').nth(1).unwrap();
        let header = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(r#"{"alg":"none","typ":"JWT"}"#);
        assert!(keys.verify(&format!("{header}.{payload}.")).is_none());
        let other = super::JwtKeys::load_or_create(&crate::db::migrated_in_memory().unwrap()).unwrap();
        assert!(other.verify(&token).is_none());
    }

    #[test]
    fn the_signing_key_survives_a_restart() {
        let conn = crate::db::migrated_in_memory().unwrap();
        let first = JwtKeys::load_or_create(&conn).unwrap();
        let (token, _) = first.issue(1, "s").unwrap();
        let second = JwtKeys::load_or_create(&conn).unwrap();
        assert!(second.verify(&token).is_some());
    }
}
