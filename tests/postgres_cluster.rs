//! Two app servers on one PostgreSQL database are one system: the real binary twice, on the
//! server `./scripts/test` starts (its URL in `PERKDESK_TEST_POSTGRES`). What one writes the
//! other lists at once (its remembered totals follow the database's change clock), who wrote is
//! logged whichever server took the write, the trash holds what either deleted, and the counts'
//! deltas are folded by one of them.

mod common;

use std::io::{BufRead, Read, Write};
use std::process::{Child, Command, Stdio};

use serde_json::{Value, json};

/// A server process, stopped with SIGTERM when dropped.
struct Server {
    child: Child,
    port: u16,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = Command::new("kill").args(["-TERM", &self.child.id().to_string()]).status();
        let _ = self.child.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

fn serve(url: &str) -> Server {
    let port = free_port();
    let mut server = Server {
        child: Command::new(env!("CARGO_BIN_EXE_perkdesk"))
            .args(["serve", "--db", url, "--bind", &format!("127.0.0.1:{port}")])
            .stderr(Stdio::piped())
            .spawn()
            .unwrap(),
        port,
    };
    let mut stderr = std::io::BufReader::new(server.child.stderr.take().unwrap());
    let mut line = String::new();
    let mut seen = String::new();
    while stderr.read_line(&mut line).unwrap() > 0 {
        seen.push_str(&line);
        if line.contains("perkdesk is serving") {
            // The rest of the log is drained, so the server never blocks on a full pipe.
            std::thread::spawn(move || std::io::copy(&mut stderr, &mut std::io::sink()));
            return server;
        }
        line.clear();
    }
    panic!("the server ended before serving:\n{seen}");
}

/// One HTTP/1.1 exchange: the status and the JSON answer (null when there is none).
fn call(server: &Server, method: &str, path: &str, token: Option<&str>, body: Option<Value>) -> (u16, Value) {
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", server.port)).unwrap();
    let body = body.map(|body| body.to_string()).unwrap_or_default();
    let auth = token.map(|token| format!("Authorization: Bearer {token}\r\n")).unwrap_or_default();
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n{auth}Content-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let status = answer.get(9..12).and_then(|code| code.parse().ok()).unwrap_or(0);
    let json = answer.split_once("\r\n\r\n").and_then(|(_, body)| serde_json::from_str(body).ok());
    (status, json.unwrap_or(Value::Null))
}

fn get(server: &Server, path: &str, token: &str) -> Value {
    let (status, body) = call(server, "GET", path, Some(token), None);
    assert_eq!(status, 200, "GET {path}: {body}");
    body
}

#[test]
#[ignore = "needs PostgreSQL: ./scripts/test starts one and runs it"]
fn postgres_two_app_servers_are_one_system() {
    let name = "perkdesk_cluster";
    let db = common::postgres::fresh_postgres(name);
    let url = common::postgres::postgres_url(name);

    // The first administrator, made at the command line as on SQLite.
    let mut create = Command::new(env!("CARGO_BIN_EXE_perkdesk"))
        .args(["create-admin", "--db", &url, "--email", "admin@perk.az", "--first-name", "Aysel", "--last-name"])
        .args(["Məmmədova", "--password-stdin"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    create.stdin.take().unwrap().write_all(b"Secret-123!\n").unwrap();
    let created = create.wait_with_output().unwrap();
    let printed = String::from_utf8_lossy(&created.stdout);
    assert!(created.status.success(), "{printed}{}", String::from_utf8_lossy(&created.stderr));
    let secret = printed.split("secret=").nth(1).and_then(|rest| rest.split('&').next()).unwrap().to_string();

    // Backups of a PostgreSQL database are PostgreSQL's tools' work: one line says which.
    let backup = Command::new(env!("CARGO_BIN_EXE_perkdesk"))
        .args(["backup", "--db", &url, "/nonexistent/copy.db"])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&backup.stderr);
    assert!(!backup.status.success() && said.trim().lines().count() == 1 && said.contains("pg_dump"), "{said}");

    // Two app servers; the second starts on the schema the first made.
    let (a, b) = (serve(&url), serve(&url));
    let otp = perkdesk::auth::totp::current_code(&secret).unwrap();
    let (status, signed_in) = call(
        &a,
        "POST",
        "/api/auth/admin/token",
        None,
        Some(json!({"userName": "admin@perk.az", "password": "Secret-123!", "otp": otp})),
    );
    assert_eq!(status, 200, "{signed_in}");
    let token = signed_in["token"].as_str().unwrap();

    // B remembers the list's total; A writes; B lists the new user at once.
    assert_eq!(get(&b, "/api/user?Skip=0&Take=10&Email=perk.az", token)["totalCount"], 1);
    let new_user = json!({
        "firstName": "Leyla", "lastName": "Abbasova", "email": "leyla@perk.az", "phone": "994551234567",
        "roleId": 1, "password": "Secret-123!", "confirmPassword": "Secret-123!"
    });
    let (status, user) = call(&a, "POST", "/api/user/register", Some(token), Some(new_user));
    assert_eq!(status, 201, "{user}");
    let listed = get(&b, "/api/user?Skip=0&Take=10&Email=perk.az", token);
    assert_eq!(listed["totalCount"], 2, "B sees A's write at once: {listed}");
    assert_eq!(get(&b, "/api/user?Skip=0&Take=10", token)["totalCount"], 2, "the maintained total too");

    // B deletes; A finds it in the trash, and the log names who did each, on either server.
    let (status, answer) = call(&b, "DELETE", "/api/user", Some(token), Some(json!({"id": [user["id"]]})));
    assert_eq!(status, 200, "{answer}");
    let trash = get(&a, "/api/trash?Skip=0&Take=10", token);
    assert_eq!(trash["data"][0]["recordId"], user["id"], "{trash}");
    assert_eq!(trash["data"][0]["label"], "Leyla Abbasova <leyla@perk.az>");
    let log = get(&a, &format!("/api/activity?Skip=0&Take=10&Resource=user&RecordId={}", user["id"]), token);
    let entries: Vec<(String, String, String)> = log["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|entry| {
            let text = |field: &str| entry[field].as_str().unwrap_or_default().to_string();
            (text("actorKind"), text("actorName"), text("action"))
        })
        .collect();
    let by_aysel = |action: &str| ("user".to_string(), "Aysel Məmmədova".to_string(), action.to_string());
    assert_eq!(entries, [by_aysel("delete"), by_aysel("create")], "{log}");
    let made_by: String = db
        .query_row(
            "SELECT actor_kind FROM activity WHERE resource = 'user' AND record_id = 1 AND action = 'create'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(made_by, "cli", "create-admin is the command line's");
    assert_eq!(get(&a, "/api/user?Skip=0&Take=10", token)["totalCount"], 1);

    // One of the servers folds the counts' deltas within a few seconds; the totals stay exact.
    let deltas = || -> i64 { db.query_row("SELECT COUNT(*) FROM row_counts_deltas", [], |r| r.get(0)).unwrap() };
    let folded = (0..50).any(|_| {
        std::thread::sleep(std::time::Duration::from_millis(200));
        deltas() == 0
    });
    assert!(folded, "the deltas were folded ({} left)", deltas());
    let staff: i64 = db.query_row("SELECT n FROM row_counts WHERE name = 'users:staff'", [], |r| r.get(0)).unwrap();
    assert_eq!(staff, 1);
    assert_eq!(get(&b, "/api/user?Skip=0&Take=10", token)["totalCount"], 1);
}
