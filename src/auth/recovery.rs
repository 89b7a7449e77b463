//! Recovery codes: ten one-time codes made at each authenticator enrolment (create-admin, a new
//! user, an authenticator reset, the own-account set-up) and on request, shown once, stored only
//! as argon2id hashes. One signs in in place of the six-digit code, once; the account is then
//! asked to set up its authenticator again (`users.must_set_up_authenticator`).
//!
//! A code is ten characters of Crockford's base32 (50 random bits), shown as `xxxxx-xxxxx`.
//! Its hash uses lighter argon2id parameters than a password's (8 MiB, one pass): a code is
//! random, not chosen by a person, so the hash need not make up for a weak secret, and a sign-in
//! with a code may try all ten hashes.

use crate::db::sql::Connection;
use argon2::password_hash::rand_core::{OsRng, RngCore};
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};

use crate::core::error::AppResult;
use crate::db::now_iso;

/// Codes in a set.
pub const SET_SIZE: usize = 10;
/// Crockford's base32 alphabet: no I, L, O or U, so a code read aloud or typed is not mistaken.
const ALPHABET: &[u8; 32] = b"0123456789abcdefghjkmnpqrstvwxyz";

fn hasher() -> anyhow::Result<Argon2<'static>> {
    let params = Params::new(8 * 1024, 1, 1, None).map_err(|e| anyhow::anyhow!("argon2 parameters: {e}"))?;
    Ok(Argon2::new(Algorithm::Argon2id, Version::V0x13, params))
}

/// A new set: the codes to show once and their hashes to store. CPU work: call it off the async
/// workers (`new_set_off_thread`).
pub fn new_set() -> anyhow::Result<(Vec<String>, Vec<String>)> {
    let hasher = hasher()?;
    let mut codes = Vec::with_capacity(SET_SIZE);
    let mut hashes = Vec::with_capacity(SET_SIZE);
    for _ in 0..SET_SIZE {
        let mut bytes = [0u8; 10];
        OsRng.fill_bytes(&mut bytes);
        // 256 is a multiple of 32: each byte picks a letter without bias.
        let letters: String = bytes.iter().map(|b| ALPHABET[usize::from(*b) % 32] as char).collect();
        let code = format!("{}-{}", &letters[..5], &letters[5..]);
        let salt = SaltString::generate(&mut OsRng);
        let hash = hasher
            .hash_password(normalized(&code).as_bytes(), &salt)
            .map_err(|e| anyhow::anyhow!("cannot hash a recovery code: {e}"))?;
        hashes.push(hash.to_string());
        codes.push(code);
    }
    Ok((codes, hashes))
}

pub async fn new_set_off_thread() -> AppResult<(Vec<String>, Vec<String>)> {
    Ok(tokio::task::spawn_blocking(new_set).await??)
}

/// A code as typed, in the form its hash was made from: no spaces or dashes, lower case, and the
/// letters Crockford's alphabet reads as digits (O as 0, I and L as 1).
fn normalized(code: &str) -> String {
    code.chars()
        .filter(|c| !c.is_whitespace() && *c != '-')
        .map(|c| match c.to_ascii_lowercase() {
            'o' => '0',
            'i' | 'l' => '1',
            other => other,
        })
        .collect()
}

/// Replaces the login's codes with a new set's hashes (the old ones stop working).
pub fn replace(tx: &Connection, user_id: i64, hashes: &[String]) -> AppResult<()> {
    tx.execute("DELETE FROM recovery_codes WHERE user_id = ?1", [user_id])?;
    let mut insert = tx.prepare_cached("INSERT INTO recovery_codes (user_id, code_hash) VALUES (?1, ?2)")?;
    for hash in hashes {
        insert.execute((user_id, hash))?;
    }
    Ok(())
}

/// The login's unused codes: (id, hash).
pub fn unused(conn: &Connection, user_id: i64) -> AppResult<Vec<(i64, String)>> {
    Ok(conn
        .prepare_cached("SELECT id, code_hash FROM recovery_codes WHERE user_id = ?1 AND used_at IS NULL ORDER BY id")?
        .query_map([user_id], |r| Ok((r.get("id")?, r.get("code_hash")?)))?
        .collect::<Result<_, _>>()?)
}

/// How many unused codes the login has left.
pub fn left(conn: &Connection, user_id: i64) -> AppResult<i64> {
    Ok(conn.query_row(
        "SELECT COUNT(*) AS n FROM recovery_codes WHERE user_id = ?1 AND used_at IS NULL",
        [user_id],
        |r| r.get("n"),
    )?)
}

/// The id of the unused code `typed` is, if any (CPU work: argon2 per code).
pub fn matching(unused: &[(i64, String)], typed: &str) -> Option<i64> {
    let typed = normalized(typed);
    if typed.len() != 10 {
        return None;
    }
    unused.iter().find_map(|(id, hash)| {
        let parsed = PasswordHash::new(hash).ok()?;
        Argon2::default().verify_password(typed.as_bytes(), &parsed).is_ok().then_some(*id)
    })
}

/// Uses the code, once: a second sign-in with it (or one racing this one) finds it used.
pub fn take(tx: &Connection, code_id: i64) -> AppResult<bool> {
    Ok(tx.execute("UPDATE recovery_codes SET used_at = ?2 WHERE id = ?1 AND used_at IS NULL", (code_id, now_iso()))?
        == 1)
}

/// Removes a login's codes (the login is deleted for good).
pub fn forget(tx: &Connection, user_id: i64) -> AppResult<()> {
    tx.execute("DELETE FROM recovery_codes WHERE user_id = ?1", [user_id])?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_set_is_ten_distinct_codes_whose_hashes_are_argon2id_and_match_only_their_code() {
        let (codes, hashes) = new_set().unwrap();
        assert_eq!(codes.len(), SET_SIZE);
        assert_eq!(codes.iter().collect::<std::collections::HashSet<_>>().len(), SET_SIZE);
        for (code, hash) in codes.iter().zip(&hashes) {
            assert_eq!(code.len(), 11);
            assert_eq!(&code[5..6], "-");
            assert!(hash.starts_with("$argon2id$v=19$m=8192,t=1,p=1$"), "{hash}");
            assert!(!hash.contains(code.as_str()));
        }
        let stored: Vec<(i64, String)> = hashes.iter().cloned().enumerate().map(|(i, h)| (i as i64, h)).collect();
        assert_eq!(matching(&stored, &codes[3]), Some(3));
        assert_eq!(matching(&stored, &codes[3].to_uppercase().replace('-', " ")), Some(3), "typed loosely");
        assert_eq!(matching(&stored, "00000-00000"), None);
        assert_eq!(matching(&stored, "123456"), None, "a six-digit code is not a recovery code");
    }
}
