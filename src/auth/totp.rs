//! TOTP (RFC 6238: SHA-1, 6 digits, 30 s, one step of drift either way, checked step by step
//! here rather than by the library's skew so the matching step is known) with replay refusal:
//! a code is accepted only for a time step later than the last one the user signed in with.

use totp_rs::{Algorithm, Secret, TOTP};

pub const ISSUER: &str = "perkdesk";
const STEP_SECONDS: u64 = 30;

/// A new random 160-bit secret, base32 encoded as authenticator apps expect.
pub fn new_secret() -> String {
    Secret::generate_secret().to_encoded().to_string()
}

fn totp(secret_base32: &str, account: &str) -> anyhow::Result<TOTP> {
    let bytes = Secret::Encoded(secret_base32.to_string())
        .to_bytes()
        .map_err(|e| anyhow::anyhow!("the stored TOTP secret is not valid base32: {e:?}"))?;
    TOTP::new(Algorithm::SHA1, 6, 0, STEP_SECONDS, bytes, Some(ISSUER.to_string()), account.to_string())
        .map_err(|e| anyhow::anyhow!("cannot build the TOTP generator: {e}"))
}

fn unix_now() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0)
}

/// The time step `code` belongs to, if it is valid now and newer than `last_used_step`.
pub fn accepted_step(secret_base32: &str, code: &str, last_used_step: i64) -> Option<i64> {
    let generator = totp(secret_base32, "").ok()?;
    let code = code.trim();
    let now_step = (unix_now() / STEP_SECONDS) as i64;
    (now_step - 1..=now_step + 1)
        .filter(|step| *step > last_used_step)
        .find(|step| generator.check(code, *step as u64 * STEP_SECONDS))
}

/// The code an authenticator shows right now (for `perkdesk otp` and tests).
pub fn current_code(secret_base32: &str) -> anyhow::Result<String> {
    Ok(totp(secret_base32, "")?.generate(unix_now()))
}

/// The `otpauth://` enrolment URI that the QR codes carry. The key URI format takes no colon in
/// the account name (it parts the issuer from it), yet an e-mail may hold one: the label shows a
/// full-width colon there, which reads the same in the authenticator app.
pub fn otpauth_uri(secret_base32: &str, email: &str) -> anyhow::Result<String> {
    Ok(totp(secret_base32, &email.replace(':', "\u{ff1a}"))?.get_url())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_current_code_is_accepted_once() {
        let secret = new_secret();
        let code = current_code(&secret).unwrap();
        let step = accepted_step(&secret, &code, 0).expect("fresh code accepted");
        assert_eq!(accepted_step(&secret, &code, step), None, "replay refused");
        assert_eq!(accepted_step(&secret, "000000x", 0), None);
    }

    #[test]
    fn the_uri_names_issuer_and_account() {
        let uri = otpauth_uri(&new_secret(), "aysel@perk.az").unwrap();
        assert!(uri.starts_with("otpauth://totp/perkdesk:aysel%40perk.az?"), "{uri}");
        assert!(uri.contains("issuer=perkdesk"));
    }

    #[test]
    fn an_account_with_a_colon_still_gets_its_uri() {
        let uri = otpauth_uri(&new_secret(), "a:b@perk.az").unwrap();
        assert!(uri.starts_with("otpauth://totp/perkdesk:a%EF%BC%9Ab%40perk.az?"), "{uri}");
    }
}
