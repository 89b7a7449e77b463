//! The operators' commands run as a user would run them, on a temporary database.

use crate::common;

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

/// `create-admin` for ops@perk.az (Ops Admin) with the password on standard input.
fn create_ops_admin(db: &str) -> Output {
    let args = ["create-admin", "--db", db, "--email", "ops@perk.az", "--first-name", "Ops", "--last-name", "Admin"];
    perkdesk(&[&args[..], &["--password-stdin"]].concat(), Some("Secret-123!\n"))
}

#[test]
fn create_admin_otp_and_backup() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("perkdesk.db");
    let db = db.to_str().unwrap();
    let created = create_ops_admin(db);
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
    // A folder cannot be made under the database file.
    let under_a_file = format!("{db}/reports");
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
        (vec!["export-reports", "--db", "/nonexistent/x.db", "--out", "reports"], None, "does not exist"),
        (vec!["export-reports", "--db", db, "--out", under_a_file.as_str()], None, "cannot create the folder"),
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

/// Reads the child's stdout until a line contains `marker`, returning everything read.
fn read_until(stdout: &mut impl std::io::BufRead, marker: &str) -> String {
    let mut seen = String::new();
    let mut line = String::new();
    while stdout.read_line(&mut line).unwrap() > 0 {
        seen.push_str(&line);
        if line.contains(marker) {
            return seen;
        }
        line.clear();
    }
    panic!("the process ended before printing {marker:?}:\n{seen}");
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

fn http_get(port: u16, path: &str) -> String {
    use std::io::Read;
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(stream, "GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n").unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    answer
}

fn terminate(child: &std::process::Child) {
    let status = Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap();
    assert!(status.success());
}

#[test]
fn demo_prints_the_sign_in_and_serves_the_demo_data() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("demo.db");
    let port = free_port();
    let mut child = Command::new(env!("CARGO_BIN_EXE_perkdesk"))
        .args(["demo", "--db", db.to_str().unwrap(), "--bind", &format!("127.0.0.1:{port}"), "--log-level", "warn"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    let banner = read_until(&mut stdout, "Stop with Ctrl-C.");
    assert!(banner.contains(&format!("perkdesk demo is running at http://127.0.0.1:{port}")), "{banner}");
    assert!(banner.contains("E-mail:   admin@perkdesk.az"));
    assert!(banner.contains("Password: Demo-Admin-2026"));
    assert!(banner.contains("otpauth://totp/perkdesk:admin%40perkdesk.az?secret="));
    assert!(banner.contains('▀') || banner.contains('█'), "a QR code is drawn");
    let first_codes = recovery_codes_in(&banner);
    assert_eq!(first_codes.len(), 10, "the demo admin's recovery codes: {banner}");
    assert!(http_get(port, "/api/health").starts_with("HTTP/1.1 200"));
    terminate(&child);
    assert!(child.wait().unwrap().success(), "a clean shutdown on SIGTERM");
    assert!(first_codes.iter().all(|code| admin_code_works(&db, code)), "the printed codes are the admin's");

    let conn = rusqlite::Connection::open(&db).unwrap();
    let count = |sql: &str| -> i64 { conn.query_row(sql, [], |r| r.get(0)).unwrap() };
    assert!(count("SELECT COUNT(*) FROM users WHERE kind = 'staff'") > 10, "more than a page of users");
    assert!(count("SELECT COUNT(*) FROM assets WHERE file_id IS NOT NULL") >= 5, "assets with logos");
    assert!(count("SELECT COUNT(*) FROM hr_accounts") >= 10);
    assert!(count("SELECT COUNT(*) FROM partners") >= 5);
    assert_eq!(count("SELECT COUNT(*) FROM trash"), 9, "the deleted records outlast the retention run at the start");
    assert!(
        count("SELECT MIN(n) FROM (SELECT COUNT(*) AS n FROM partner_cities GROUP BY partner_id)") >= 2,
        "branches"
    );

    // A second start reuses the file and still prints working credentials.
    let port = free_port();
    let mut again = Command::new(env!("CARGO_BIN_EXE_perkdesk"))
        .args(["demo", "--db", db.to_str().unwrap(), "--bind", &format!("127.0.0.1:{port}"), "--log-level", "warn"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdout = std::io::BufReader::new(again.stdout.take().unwrap());
    let banner = read_until(&mut stdout, "Stop with Ctrl-C.");
    terminate(&again);
    assert!(again.wait().unwrap().success());
    assert_eq!(count("SELECT COUNT(*) FROM users WHERE email = 'admin@perkdesk.az'"), 1);
    // The earlier codes cannot be read back from their hashes: a new set, said to replace them.
    assert!(banner.contains("New recovery codes"), "{banner}");
    let second_codes = recovery_codes_in(&banner);
    assert_eq!(second_codes.len(), 10, "{banner}");
    assert!(second_codes.iter().all(|code| admin_code_works(&db, code)));
    assert!(first_codes.iter().all(|code| !admin_code_works(&db, code)), "the first set was replaced");
}

/// The recovery codes listed after the banner's "ecovery codes" heading (`xxxxx-xxxxx`, indented).
fn recovery_codes_in(banner: &str) -> Vec<String> {
    let after = banner.split("ecovery codes").nth(1).unwrap_or_default();
    after
        .lines()
        .skip(1)
        .map(str::trim)
        .take_while(|line| line.len() == 11 && line.as_bytes()[5] == b'-')
        .map(String::from)
        .collect()
}

/// Whether `code` is one of the demo admin's unused recovery codes in the database file.
fn admin_code_works(db: &std::path::Path, code: &str) -> bool {
    let conn = rusqlite::Connection::open(db).unwrap();
    let unused: Vec<(i64, String)> = conn
        .prepare(
            "SELECT r.id, r.code_hash FROM recovery_codes r JOIN users u ON u.id = r.user_id
             WHERE u.email = 'admin@perkdesk.az' AND r.used_at IS NULL",
        )
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    perkdesk::auth::recovery::matching(&unused, code).is_some()
}

#[test]
fn serve_stops_gracefully_and_checkpoints_the_wal() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("perkdesk.db");
    let port = free_port();
    let mut child = Command::new(env!("CARGO_BIN_EXE_perkdesk"))
        .args(["serve", "--db", db.to_str().unwrap(), "--bind", &format!("127.0.0.1:{port}")])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    let started = read_until(&mut stderr, "perkdesk is serving");
    assert!(started.contains("schema_version"), "startup names the schema version: {started}");
    let answer = http_get(port, "/api/health");
    assert!(answer.contains("\"status\":\"ok\""), "{answer}");
    terminate(&child);
    assert!(child.wait().unwrap().success());
    let wal = dir.path().join("perkdesk.db-wal");
    assert!(!wal.exists() || std::fs::metadata(&wal).unwrap().len() == 0, "the WAL was folded back");
}

#[test]
fn api_client_create_list_and_revoke() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("perkdesk.db");
    let db = db.to_str().unwrap();
    // The database must exist first (any command that opens it creates it).
    let missing = perkdesk(&["api-client", "list", "--db", db], None);
    assert!(!missing.status.success());
    perkdesk::app::open_db(std::path::Path::new(db)).unwrap();
    let created =
        perkdesk(&["api-client", "create", "--db", db, "--name", "Employee app", "--kind", "employee-app"], None);
    assert!(created.status.success(), "{}", text(&created.stderr));
    let out = text(&created.stdout);
    let key = out.lines().find(|l| l.starts_with("pk_")).expect("the key is printed").to_string();
    assert!(out.contains("Created API client 1"), "{out}");
    let listed = perkdesk(&["api-client", "list", "--db", db], None);
    let list = text(&listed.stdout);
    assert!(list.contains("Employee app") && list.contains("employee-app") && list.contains("active"), "{list}");
    assert!(!list.contains(&key), "keys are never listed");
    let refused = perkdesk(&["api-client", "create", "--db", db, "--name", "P", "--kind", "partner"], None);
    assert!(!refused.status.success());
    assert!(text(&refused.stderr).contains("A partner key needs the partner's id"), "{}", text(&refused.stderr));
    let revoked = perkdesk(&["api-client", "revoke", "--db", db, "1"], None);
    assert!(revoked.status.success(), "{}", text(&revoked.stderr));
    assert!(text(&perkdesk(&["api-client", "list", "--db", db], None).stdout).contains("revoked"));
    let again = perkdesk(&["api-client", "revoke", "--db", db, "1"], None);
    assert!(!again.status.success());
    assert!(text(&again.stderr).contains("already revoked"), "{}", text(&again.stderr));
    // Both changes are on record as the command line's.
    let conn = rusqlite::Connection::open(db).unwrap();
    let log: Vec<(String, String, String)> = conn
        .prepare("SELECT actor_kind, resource, action FROM activity ORDER BY id")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let expected = [("cli", "apiClient", "keyCreated"), ("cli", "apiClient", "keyRevoked")];
    assert_eq!(log, expected.map(|(k, r, a)| (k.to_string(), r.to_string(), a.to_string())));
}

#[test]
fn import_employees_dry_run_then_apply() {
    let dir = tempfile::tempdir().unwrap();
    let db_path = dir.path().join("perkdesk.db");
    let db = db_path.to_str().unwrap();
    {
        let opened = perkdesk::app::open_db(&db_path).unwrap();
        opened
            .conn()
            .unwrap()
            .execute(
                "INSERT INTO assets (name, contact_person, contact_person_phone_number, contact_person_email, barcode_prefix)
                 VALUES ('Azercell', 'Aysel', '994501234567', 'hr@azercell.az', 'AZC')",
                [],
            )
            .unwrap();
    }
    let mut book = rust_xlsxwriter::Workbook::new();
    let sheet = book.add_worksheet();
    let rows = [
        ["Email", "First name", "Last name", "Phone number", "Asset"],
        ["leyla@azercell.az", "Leyla", "Əliyeva", "994501234567", "AZC"],
        ["bad-email", "Ayan", "Quliyeva", "994551234567", "AZC"],
    ];
    for (r, row) in rows.iter().enumerate() {
        for (c, value) in row.iter().enumerate() {
            sheet.write_string(r as u32, c as u16, *value).unwrap();
        }
    }
    let file = dir.path().join("employees.xlsx");
    book.save(&file).unwrap();
    let file = file.to_str().unwrap();
    let dry = perkdesk(&["import-employees", "--db", db, file, "--dry-run"], None);
    assert!(dry.status.success(), "{}", text(&dry.stderr));
    let out = text(&dry.stdout);
    assert!(out.contains("row 3: Email: Wrong email format"), "{out}");
    assert!(out.contains("Dry run, nothing written: 2 rows read, 1 to add, 0 to update, 1 refused."), "{out}");
    let applied = perkdesk(&["import-employees", "--db", db, file], None);
    assert!(applied.status.success(), "{}", text(&applied.stderr));
    assert!(text(&applied.stdout).contains("Imported: 2 rows read, 1 to add, 0 to update, 1 refused."));
    let again = perkdesk(&["import-employees", "--db", db, file, "--dry-run"], None);
    assert!(text(&again.stdout).contains("0 to add, 1 to update"), "{}", text(&again.stdout));
    let missing = perkdesk(&["import-employees", "--db", db, "/nonexistent.xlsx"], None);
    assert!(!missing.status.success());
    assert!(text(&missing.stderr).contains("cannot read /nonexistent.xlsx"));
}

#[tokio::test]
async fn openapi_prints_the_document_the_server_serves() {
    let printed = perkdesk(&["openapi"], None);
    assert!(printed.status.success(), "{}", text(&printed.stderr));
    let printed: serde_json::Value = serde_json::from_slice(&printed.stdout).unwrap();
    let app = common::test_app();
    let served = app.call(axum::http::Method::GET, "/api/openapi.json", None, None).await;
    assert_eq!(printed, served.json());
    assert!(printed["paths"]["/api/asset"]["put"].is_object());
}

/// The rows of the activity log with this action, by a fresh connection (the server's are apart).
fn logged(db: &std::path::Path, action: &str) -> Vec<String> {
    let conn = rusqlite::Connection::open(db).unwrap();
    let mut statement =
        conn.prepare("SELECT COALESCE(changes, '') FROM activity WHERE action = ?1 ORDER BY id").unwrap();
    statement.query_map([action], |r| r.get(0)).unwrap().collect::<Result<_, _>>().unwrap()
}

/// The scheduled copies in a folder, oldest first.
fn copies(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut found: Vec<_> = std::fs::read_dir(dir)
        .map(|entries| entries.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    found.retain(|p| p.extension().is_some_and(|e| e == "db"));
    found.sort();
    found
}

#[test]
fn scheduled_backups_are_written_checked_pruned_and_a_failure_is_on_record() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("perkdesk.db");
    let backups = dir.path().join("backups");
    perkdesk::app::open_db(&db).unwrap();
    let port = free_port();
    let mut child = Command::new(env!("CARGO_BIN_EXE_perkdesk"))
        .args(["serve", "--db", db.to_str().unwrap(), "--bind", &format!("127.0.0.1:{port}")])
        .args(["--backup-dir", backups.to_str().unwrap(), "--backup-every", "2s", "--backup-keep", "2"])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    read_until(&mut stderr, "perkdesk is serving");
    // Three copies made (about six seconds), each checked before it is kept; two kept.
    let started = std::time::Instant::now();
    while logged(&db, "backupMade").len() < 3 {
        assert!(started.elapsed() < std::time::Duration::from_secs(30), "three backups within 30 s");
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
    let kept = copies(&backups);
    assert!(kept.len() <= 2, "the oldest are pruned: {kept:?}");
    for copy in &kept {
        let checked = perkdesk::db::backup::check(copy).unwrap();
        assert_eq!(checked.schema_version, perkdesk::db::SCHEMA_VERSION);
    }
    assert!(logged(&db, "backupMade")[0].contains("perkdesk-"), "the entry names the file");
    // The folder goes away and a file takes its name: the next copy fails, and says so.
    std::fs::remove_dir_all(&backups).unwrap();
    std::fs::write(&backups, b"not a folder").unwrap();
    let failing = std::time::Instant::now();
    while logged(&db, "backupFailed").is_empty() {
        assert!(failing.elapsed() < std::time::Duration::from_secs(30), "the failure is recorded");
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
    terminate(&child);
    assert!(child.wait().unwrap().success());
    let mut log = String::new();
    std::io::Read::read_to_string(&mut stderr, &mut log).unwrap();
    assert!(log.contains("backup failed"), "the failure is logged: {log}");

    // A schedule that could never write is refused at the start, in one line.
    let refused = perkdesk(&["serve", "--db", db.to_str().unwrap(), "--backup-dir", backups.to_str().unwrap()], None);
    assert!(!refused.status.success());
    assert!(text(&refused.stderr).contains("backup folder"), "{}", text(&refused.stderr));
    let bad_interval = perkdesk(&["serve", "--db", db.to_str().unwrap(), "--backup-every", "soon"], None);
    assert!(text(&bad_interval.stderr).contains("is not an interval like 6h or 30m"), "{}", text(&bad_interval.stderr));
}

#[test]
fn restore_checks_the_copy_and_keeps_a_newer_database_unless_forced() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("perkdesk.db");
    let copy = dir.path().join("copy.db");
    let (db_text, copy_text) = (db.to_str().unwrap(), copy.to_str().unwrap());
    let add_city = |name: &str| {
        let opened = perkdesk::app::open_db(&db).unwrap();
        opened
            .conn()
            .unwrap()
            .execute("INSERT INTO cities (name_az, name_en, name_ru) VALUES (?1, ?1, ?1)", [name])
            .unwrap();
    };
    add_city("Köhnə şəhər");
    let written = perkdesk(&["backup", "--db", db_text, copy_text], None);
    assert!(text(&written.stdout).contains("checked"), "{}", text(&written.stdout));
    std::thread::sleep(std::time::Duration::from_millis(5));
    add_city("Yeni şəhər");

    let refused = perkdesk(&["restore", copy_text, "--db", db_text], None);
    assert!(!refused.status.success());
    let message = text(&refused.stderr);
    assert!(message.contains("has changes newer than the backup") && message.contains("--force"), "{message}");
    assert_eq!(message.trim().lines().count(), 1, "one line: {message}");

    // While a server has it open, nothing is replaced, forced or not.
    let serving = perkdesk::app::open_db(&db).unwrap();
    let _held = serving.conn().unwrap();
    let busy = perkdesk(&["restore", copy_text, "--db", db_text, "--force"], None);
    assert!(text(&busy.stderr).contains("is in use (stop the server first)"), "{}", text(&busy.stderr));
    // A server that is stopping lets go a moment later: the restore waits for it (up to 2 s).
    let stopping = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(400));
        drop(_held);
        drop(serving);
    });
    let restored = perkdesk(&["restore", copy_text, "--db", db_text, "--force"], None);
    stopping.join().unwrap();
    assert!(restored.status.success(), "{}", text(&restored.stderr));
    assert!(text(&restored.stdout).starts_with(&format!("Restored {db_text} from {copy_text}")));
    let conn = rusqlite::Connection::open(&db).unwrap();
    let cities: Vec<String> = conn
        .prepare("SELECT name_az FROM cities")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert!(cities.contains(&"Köhnə şəhər".to_string()) && !cities.contains(&"Yeni şəhər".to_string()), "{cities:?}");

    // A folder named as the copy is called one.
    let folder = perkdesk(&["restore", dir.path().to_str().unwrap(), "--db", db_text], None);
    assert!(!folder.status.success());
    let said = text(&folder.stderr);
    assert!(said.contains("is a directory, not a backup file") && said.trim().lines().count() == 1, "{said}");
    // A damaged copy is refused before anything is touched; a missing database is simply made.
    let damaged = dir.path().join("damaged.db");
    std::fs::write(&damaged, b"SQLite format 3\0 but not really").unwrap();
    let refused = perkdesk(&["restore", damaged.to_str().unwrap(), "--db", db_text, "--force"], None);
    assert!(!refused.status.success());
    assert!(text(&refused.stderr).contains("damaged.db"), "{}", text(&refused.stderr));
    let fresh = dir.path().join("fresh.db");
    let made = perkdesk(&["restore", copy_text, "--db", fresh.to_str().unwrap()], None);
    assert!(made.status.success(), "{}", text(&made.stderr));
    perkdesk::app::open_db(&fresh).unwrap();
}

#[test]
fn reset_otp_gives_a_new_authenticator_and_ends_the_sessions() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("perkdesk.db");
    let db_text = db.to_str().unwrap();
    let created = create_ops_admin(db_text);
    assert!(created.status.success(), "{}", text(&created.stderr));
    let printed_codes = |out: &str| -> Vec<String> {
        let after = out.split("Recovery codes").nth(1).unwrap_or_default();
        after.lines().skip(1).map(str::trim).filter(|line| line.len() == 11).map(String::from).collect()
    };
    let first_codes = printed_codes(&text(&created.stdout));
    assert_eq!(first_codes.len(), 10, "create-admin prints ten recovery codes");
    let hashes = |db: &std::path::Path| -> Vec<String> {
        let conn = rusqlite::Connection::open(db).unwrap();
        let mut stmt = conn.prepare("SELECT code_hash FROM recovery_codes ORDER BY id").unwrap();
        stmt.query_map([], |r| r.get(0)).unwrap().collect::<Result<_, _>>().unwrap()
    };
    let stored = hashes(&db);
    assert_eq!(stored.len(), 10);
    assert!(
        stored
            .iter()
            .all(|hash| hash.starts_with("$argon2id$") && first_codes.iter().all(|c| !hash.contains(c.as_str())))
    );
    let secret = |db: &std::path::Path| -> String {
        rusqlite::Connection::open(db).unwrap().query_row("SELECT totp_secret FROM users", [], |r| r.get(0)).unwrap()
    };
    let before = secret(&db);
    let reset = perkdesk(&["reset-otp", "--db", db_text, "--email", "OPS@perk.az "], None);
    assert!(reset.status.success(), "{}", text(&reset.stderr));
    let out = text(&reset.stdout);
    assert!(out.contains("A new authenticator for ops@perk.az"), "{out}");
    assert!(out.contains("otpauth://totp/perkdesk:ops%40perk.az?secret="), "{out}");
    let after = secret(&db);
    assert_ne!(before, after);
    assert!(out.contains(&after), "the printed QR's URI carries the new secret");
    let new_codes = printed_codes(&out);
    assert_eq!(new_codes.len(), 10, "a new set with the new authenticator");
    assert!(new_codes.iter().all(|code| !first_codes.contains(code)));
    assert!(hashes(&db).iter().all(|hash| !stored.contains(hash)), "the old set is gone");
    assert_eq!(logged(&db, "authenticatorReset"), [r#"{"totpSecret":"changed"}"#]);
    let unknown = perkdesk(&["reset-otp", "--db", db_text, "--email", "nobody@perk.az"], None);
    assert!(!unknown.status.success());
    assert_eq!(text(&unknown.stderr).trim(), "perkdesk: no user has the e-mail nobody@perk.az");
}

/// `perkdesk sql` writes where the sqlite3 shell cannot (rows in the az-collated sort indexes),
/// all statements or none, prints rows as the shell's list mode does, and a cleared collation
/// record makes the next start rebuild the sort indexes.
#[test]
fn sql_runs_statements_with_the_collation_in_one_transaction() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("perkdesk.db");
    let db = db.to_str().unwrap();
    assert!(create_ops_admin(db).status.success());

    let renamed = perkdesk(
        &[
            "sql",
            "--db",
            db,
            "UPDATE users SET last_name = 'Əliyeva' WHERE email = 'ops@perk.az'; SELECT first_name, last_name, NULL, 2 FROM users",
        ],
        None,
    );
    assert!(renamed.status.success(), "{}", text(&renamed.stderr));
    assert_eq!(text(&renamed.stdout), "Ops|Əliyeva||2\n");
    // The write went through the sort index the shell has no collation for, and the file is whole.
    let checked = perkdesk(&["sql", "--db", db, "PRAGMA integrity_check"], None);
    assert_eq!(text(&checked.stdout), "ok\n", "{}", text(&checked.stderr));

    // A failing statement undoes the ones before it, and says why on one line.
    let failed = perkdesk(&["sql", "--db", db, "UPDATE users SET first_name = 'Zaur'; SELEC 1"], None);
    assert!(!failed.status.success());
    let error = text(&failed.stderr);
    assert_eq!(error.trim().lines().count(), 1, "{error}");
    assert!(error.contains("syntax error"), "{error}");
    let first = perkdesk(&["sql", "--db", db, "SELECT first_name FROM users"], None);
    assert_eq!(text(&first.stdout), "Ops\n");

    // A tool that wrote with a stand-in collation clears the record: the next open rebuilds the indexes.
    assert!(perkdesk(&["sql", "--db", db, "DELETE FROM collations"], None).status.success());
    let rebuilt = perkdesk(&["sql", "--db", db, "SELECT name, version FROM collations"], None);
    assert_eq!(text(&rebuilt.stdout), format!("az|{}\n", perkdesk::db::collation::VERSION));
}

/// Runs perkdesk under a umask that would make every file world-readable.
fn perkdesk_with_open_umask(args: &[&str]) -> std::process::Child {
    Command::new("sh")
        .args(["-c", "umask 000; exec \"$0\" \"$@\"", env!("CARGO_BIN_EXE_perkdesk")])
        .args(args)
        .env_remove("PERKDESK_DB")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn mode_of(path: &std::path::Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).unwrap_or_else(|e| panic!("{}: {e}", path.display())).permissions().mode() & 0o777
}

#[test]
fn everything_perkdesk_creates_is_its_owners_alone_whatever_the_umask() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("perkdesk.db");
    let db_text = db.to_str().unwrap();
    let mut created = perkdesk_with_open_umask(&[
        "create-admin",
        "--db",
        db_text,
        "--email",
        "ops@perk.az",
        "--first-name",
        "Ops",
        "--last-name",
        "Admin",
        "--password-stdin",
    ]);
    created.stdin.take().unwrap().write_all(b"Secret-123!\n").unwrap();
    assert!(created.wait().unwrap().success());
    assert_eq!(mode_of(&db), 0o600, "the database");

    let backups = dir.path().join("backups").join("scheduled");
    let port = free_port();
    let mut server = perkdesk_with_open_umask(&[
        "serve",
        "--db",
        db_text,
        "--bind",
        &format!("127.0.0.1:{port}"),
        "--backup-dir",
        backups.to_str().unwrap(),
        "--backup-every",
        "1s",
    ]);
    let mut stderr = std::io::BufReader::new(server.stderr.take().unwrap());
    read_until(&mut stderr, "perkdesk is serving");
    let started = std::time::Instant::now();
    while copies(&backups).is_empty() {
        assert!(started.elapsed() < std::time::Duration::from_secs(30), "a scheduled backup within 30 s");
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    for side in ["-wal", "-shm"] {
        assert_eq!(mode_of(std::path::Path::new(&format!("{db_text}{side}"))), 0o600, "the database's {side}");
    }
    assert_eq!(mode_of(&backups), 0o700, "the backup folder perkdesk made");
    assert_eq!(mode_of(backups.parent().unwrap()), 0o700, "and its parent, made with it");
    assert_eq!(mode_of(&copies(&backups)[0]), 0o600, "a scheduled backup");
    let copy = dir.path().join("copy.db");
    let mut backed_up = perkdesk_with_open_umask(&["backup", "--db", db_text, copy.to_str().unwrap()]);
    assert!(backed_up.wait().unwrap().success());
    assert_eq!(mode_of(&copy), 0o600, "a `perkdesk backup` copy");
    terminate(&server);
    assert!(server.wait().unwrap().success());

    let reports = dir.path().join("reports");
    let mut exported =
        perkdesk_with_open_umask(&["export-reports", "--db", db_text, "--out", reports.to_str().unwrap()]);
    assert!(exported.wait().unwrap().success());
    assert_eq!(mode_of(&reports), 0o700, "the reports folder perkdesk made");
    assert_eq!(mode_of(&reports.join("Reports-count.xlsx")), 0o600, "an exported workbook");

    // A restore puts the database back owner-only, whatever the copy's mode was.
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&copy, std::fs::Permissions::from_mode(0o644)).unwrap();
    let mut restored = perkdesk_with_open_umask(&["restore", copy.to_str().unwrap(), "--db", db_text, "--force"]);
    assert!(restored.wait().unwrap().success());
    assert_eq!(mode_of(&db), 0o600, "the restored database");
}
