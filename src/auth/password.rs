//! Password hashing with argon2id (m = 19456 KiB, t = 2, p = 1: the argon2 crate's defaults).

use argon2::Argon2;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString, rand_core::OsRng};
use std::sync::LazyLock;

pub fn hash(password: &str) -> anyhow::Result<String> {
    let salt = SaltString::generate(&mut OsRng);
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|hash| hash.to_string())
        .map_err(|e| anyhow::anyhow!("cannot hash the password: {e}"))
}

/// [`hash`] on the blocking thread pool, so a request does not stall the async workers.
pub async fn hash_off_thread(password: String) -> crate::core::error::AppResult<String> {
    Ok(tokio::task::spawn_blocking(move || hash(&password)).await??)
}

/// [`verify`] on the blocking thread pool.
pub async fn verify_off_thread(stored_hash: String, password: String) -> bool {
    tokio::task::spawn_blocking(move || verify(&stored_hash, &password)).await.unwrap_or(false)
}

pub fn verify(stored_hash: &str, password: &str) -> bool {
    PasswordHash::new(stored_hash)
        .map(|parsed| Argon2::default().verify_password(password.as_bytes(), &parsed).is_ok())
        .unwrap_or(false)
}

/// Verifies against a throwaway hash so an unknown e-mail costs as much time as a known one.
pub fn verify_nothing(password: &str) {
    static DUMMY: LazyLock<Option<String>> = LazyLock::new(|| hash("not-a-real-password-1A!").ok());
    if let Some(dummy) = DUMMY.as_deref() {
        verify(dummy, password);
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn hashes_verify_and_differ_by_salt() {
        let a = super::hash("Secret-123").unwrap();
        let b = super::hash("Secret-123").unwrap();
        assert_ne!(a, b);
        assert!(a.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"));
        assert!(super::verify(&a, "Secret-123"));
        assert!(!super::verify(&a, "Secret-124"));
        assert!(!super::verify("garbage", "Secret-123"));
    }
}
