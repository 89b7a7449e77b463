//! The operators' commands run as a user would run them, on a temporary database.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn perkdesk(args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_perkdesk"))
        .args(args)
        .env_remove("PERKDESK_DB")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    if let Some(input) = stdin {
        child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    }
    drop(child.stdin.take());
    child.wait_with_output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn create_admin_otp_and_backup() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("perkdesk.db");
    let db = db.to_str().unwrap();
    let created = perkdesk(
        &[
            "create-admin",
            "--db",
            db,
            "--email",
            "ops@perk.az",
            "--first-name",
            "Ops",
            "--last-name",
            "Admin",
            "--password-stdin",
        ],
        Some("Secret-123!\n"),
    );
    assert!(created.status.success(), "{}", text(&created.stderr));
    let out = text(&created.stdout);
    assert!(out.contains("Created the Admin Ops Admin <ops@perk.az>."));
    let uri =
        out.lines().find(|l| l.starts_with("otpauth://totp/perkdesk:ops%40perk.az?")).expect("otpauth URI printed");
    assert!(out.contains('▀') || out.contains('█'), "a terminal QR code is printed");

    let code = perkdesk(&["otp", "--db", db, "--email", "ops@perk.az"], None);
    assert!(code.status.success());
    let code = text(&code.stdout).trim().to_string();
    assert!(code.len() == 6 && code.chars().all(|c| c.is_ascii_digit()), "{code}");
    let secret = uri.split("secret=").nth(1).unwrap().split('&').next().unwrap();
    assert_eq!(code, perkdesk::auth::totp::current_code(secret).unwrap(), "the printed code is the authenticator's");

    let again = perkdesk(
        &[
            "create-admin",
            "--db",
            db,
            "--email",
            "ops@perk.az",
            "--first-name",
            "Ops",
            "--last-name",
            "Admin",
            "--password-stdin",
        ],
        Some("Secret-123!\n"),
    );
    assert!(!again.status.success());
    assert_eq!(text(&again.stderr).trim(), "perkdesk: a user with the e-mail ops@perk.az already exists");

    let copy = dir.path().join("copy.db");
    let backup = perkdesk(&["backup", "--db", db, copy.to_str().unwrap()], None);
    assert!(backup.status.success(), "{}", text(&backup.stderr));
    let conn = rusqlite::Connection::open(&copy).unwrap();
    let email: String = conn.query_row("SELECT email FROM users", [], |r| r.get(0)).unwrap();
    assert_eq!(email, "ops@perk.az");
    let twice = perkdesk(&["backup", "--db", db, copy.to_str().unwrap()], None);
    assert!(!twice.status.success());
    assert!(text(&twice.stderr).trim().ends_with("already exists"), "{}", text(&twice.stderr));
}

#[test]
fn failures_are_one_line_and_non_zero() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("perkdesk.db");
    let db = db.to_str().unwrap();
    let cases: Vec<(Vec<&str>, Option<&str>, &str)> = vec![
        (vec!["otp", "--db", "/nonexistent/x.db", "--email", "a@b.az"], None, "does not exist"),
        (
            vec![
                "create-admin",
                "--db",
                db,
                "--email",
                "bad",
                "--first-name",
                "A",
                "--last-name",
                "B",
                "--password-stdin",
            ],
            Some("Secret-123!\n"),
            "Wrong email format. E.g. name@example.com",
        ),
        (
            vec![
                "create-admin",
                "--db",
                db,
                "--email",
                "a@perk.az",
                "--first-name",
                "A",
                "--last-name",
                "B",
                "--password-stdin",
            ],
            Some("weak\n"),
            "Password must consist of an uppercase letter, a lowercase letter, a number and a character.",
        ),
        (
            vec!["create-admin", "--db", db, "--password-stdin"],
            Some(""),
            "--email is required when not running interactively",
        ),
        (vec!["otp", "--db", db, "--email", "nobody@perk.az"], None, "no user has the e-mail nobody@perk.az"),
        (vec!["export-reports", "--db", db, "--out", "/nonexistent"], None, "does not exist"),
        (vec!["serve", "--db", db, "--bind", "not-an-address"], None, "is not an address like 127.0.0.1:8080"),
    ];
    for (args, stdin, expected) in cases {
        let output = perkdesk(&args, stdin);
        assert!(!output.status.success(), "{args:?} should fail");
        let stderr = text(&output.stderr);
        let last = stderr.trim().lines().last().unwrap_or_default();
        assert!(last.starts_with("perkdesk: ") && last.contains(expected), "{args:?}: {stderr}");
    }
}
