//! The accounts' commands: `create-admin`, `otp` and `reset-otp`, and the authenticator's
//! enrolment as the terminal shows it.

use std::io::{BufRead, IsTerminal, Write};

use anyhow::{Context, bail};

use super::args::{CreateAdminArgs, OtpArgs};
use super::open_existing;
use crate::auth::accounts::{self, NewStaff};
use crate::auth::{Role, password, totp};
use crate::core::validation;

pub(super) fn prompt(label: &str, given: Option<String>, flag: &str) -> anyhow::Result<String> {
    if let Some(value) = given {
        return Ok(value.trim().to_string());
    }
    if !std::io::stdin().is_terminal() {
        bail!("{flag} is required when not running interactively");
    }
    eprint!("{label}: ");
    std::io::stderr().flush()?;
    let mut line = String::new();
    std::io::stdin().lock().read_line(&mut line)?;
    Ok(line.trim().to_string())
}

pub(super) fn create_admin(args: CreateAdminArgs) -> anyhow::Result<()> {
    let db = crate::app::open_db(&args.db.db)?;
    let email = prompt("E-mail", args.email, "--email")?;
    let first_name = prompt("First name", args.first_name, "--first-name")?;
    let last_name = prompt("Last name", args.last_name, "--last-name")?;
    let password = if args.password_stdin {
        let mut line = String::new();
        std::io::stdin().lock().read_line(&mut line).context("cannot read the password from standard input")?;
        line.trim_end_matches(['\r', '\n']).to_string()
    } else {
        anyhow::ensure!(std::io::stdin().is_terminal(), "use --password-stdin when not running interactively");
        let first = rpassword::prompt_password("Password: ")?;
        let again = rpassword::prompt_password("Repeat the password: ")?;
        anyhow::ensure!(first == again, "the passwords do not match");
        first
    };
    anyhow::ensure!(!first_name.is_empty(), "Firstname is required");
    anyhow::ensure!(!last_name.is_empty(), "Lastname is required");
    anyhow::ensure!(
        validation::is_email(&email) && (3..=50).contains(&email.chars().count()),
        "{}",
        validation::EMAIL_FORMAT
    );
    anyhow::ensure!(validation::is_strong_password(&password), "{}", validation::STRONG_PASSWORD);
    let secret = totp::new_secret();
    let hash = password::hash(&password)?;
    let (codes, recovery_hashes) = crate::auth::recovery::new_set()?;
    let mut conn = db.conn()?;
    let tx = conn.transaction()?;
    crate::db::activity::declare_writer(&tx)?;
    let admin = NewStaff {
        first_name: &first_name,
        last_name: &last_name,
        email: &email,
        role: Role::Admin,
        password_hash: &hash,
        active: true,
    };
    let inserted = accounts::insert_staff(&tx, &admin, &secret);
    let id = match inserted {
        Err(error) if error.is_constraint_violation() => {
            bail!("a user with the e-mail {email} already exists")
        }
        other => other.context("cannot create the admin")?,
    };
    crate::auth::recovery::replace(&tx, id, &recovery_hashes).map_err(|error| anyhow::anyhow!("{error}"))?;
    tx.commit()?;
    println!("Created the Admin {first_name} {last_name} <{email}>.");
    print_enrolment(&secret, &email, &codes)
}

/// The authenticator's enrolment for the terminal: its QR code, the `otpauth://` address, then the
/// recovery codes.
pub(super) fn print_enrolment(secret: &str, email: &str, recovery_codes: &[String]) -> anyhow::Result<()> {
    let heading = "Recovery codes (each signs in once in place of the six-digit code; shown only now, keep them safe):";
    print!("{}", enrolment(secret, email, heading, recovery_codes)?);
    Ok(())
}

/// The enrolment's lines: the QR code, the `otpauth://` address, and the recovery codes under
/// `codes_heading`.
pub(super) fn enrolment(
    secret: &str,
    email: &str,
    codes_heading: &str,
    recovery_codes: &[String],
) -> anyhow::Result<String> {
    use std::fmt::Write as _;
    let uri = totp::otpauth_uri(secret, email)?;
    let mut text = String::new();
    writeln!(text, "Scan this QR code with an authenticator app:")?;
    writeln!(text, "{}", crate::core::qr::terminal(&uri)?)?;
    writeln!(text, "{uri}")?;
    writeln!(text)?;
    writeln!(text, "{codes_heading}")?;
    for code in recovery_codes {
        writeln!(text, "  {code}")?;
    }
    Ok(text)
}

pub(super) fn otp(args: OtpArgs) -> anyhow::Result<()> {
    let db = open_existing(&args.db.db)?;
    let secret: Option<String> = {
        use crate::db::sql::OptionalExtension;
        db.conn()?
            .query_row(
                "SELECT totp_secret FROM users WHERE email = ?1 AND deleted_at IS NULL",
                [args.email.trim()],
                |r| r.get("totp_secret"),
            )
            .optional()?
    };
    let secret = secret.with_context(|| format!("no user has the e-mail {}", args.email.trim()))?;
    println!("{}", totp::current_code(&secret)?);
    Ok(())
}

pub(super) fn reset_otp(args: OtpArgs) -> anyhow::Result<()> {
    let db = open_existing(&args.db.db)?;
    let email = args.email.trim().to_string();
    let (codes, recovery_hashes) = crate::auth::recovery::new_set()?;
    let mut conn = db.conn()?;
    let reset = crate::db::write_tx(&mut conn, |tx| {
        use crate::db::sql::OptionalExtension;
        let id: Option<i64> = tx
            .query_row(
                "SELECT id FROM users WHERE email = ?1 AND deleted_at IS NULL ORDER BY kind = 'staff' DESC LIMIT 1",
                [&email],
                |r| r.get("id"),
            )
            .optional()?;
        let Some(id) = id else { return Ok(None) };
        crate::auth::accounts::reset_totp(tx, id, "authenticator reset at the command line", &recovery_hashes)
    })
    .map_err(|error| anyhow::anyhow!("{error}"))?;
    let (secret, email) = reset.with_context(|| format!("no user has the e-mail {email}"))?;
    println!("A new authenticator for {email}; the old one no longer works and every session of theirs has ended.");
    print_enrolment(&secret, &email, &codes)
}
