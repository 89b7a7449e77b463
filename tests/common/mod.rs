//! Shared helpers for router tests: a fresh app on a temporary database, users, sign-in, calls.
#![allow(dead_code)]

pub mod postgres;
pub mod servers;

use std::sync::{Arc, Mutex};

use axum::Router;
use axum::body::Body;
use axum::http::{HeaderMap, Method, Request, StatusCode};
use http_body_util::BodyExt;
use perkdesk::auth::{password, totp};
use perkdesk::core::mail::{Mailer, SentMail};
use perkdesk::db::Db;
use perkdesk::http::state::{AppState, Settings};
use serde_json::{Value, json};
use tower::ServiceExt;

pub const PASSWORD: &str = "Secret-123!";

pub struct TestApp {
    pub router: Router,
    pub state: AppState,
    pub outbox: Arc<Mutex<Vec<SentMail>>>,
    _dir: tempfile::TempDir,
    /// Dropped last: the PostgreSQL database goes once the app's connections have.
    _database: Option<postgres::TestDatabase>,
}

pub struct Response {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub bytes: Vec<u8>,
}

impl Response {
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.bytes).unwrap_or(Value::Null)
    }

    pub fn message(&self) -> String {
        self.json()["message"].as_str().unwrap_or_default().to_string()
    }

    #[track_caller]
    pub fn expect(&self, status: u16) -> &Self {
        assert_eq!(self.status.as_u16(), status, "body: {}", String::from_utf8_lossy(&self.bytes));
        self
    }

    /// Asserts the status and the exact message.
    #[track_caller]
    pub fn expect_message(&self, status: u16, message: &str) -> &Self {
        self.expect(status);
        assert_eq!(self.message(), message);
        self
    }
}

/// Whether the suite runs on PostgreSQL (`PERKDESK_TEST_ENGINE=postgres`). A test of what only
/// SQLite has (its query plans, its memory, its file opened beside the server) returns early
/// there, saying so; docs/decisions.md lists them with their PostgreSQL counterparts.
pub fn sqlite_only(what: &str) -> bool {
    let on_postgres = matches!(std::env::var("PERKDESK_TEST_ENGINE").as_deref(), Ok("postgres"));
    if on_postgres {
        eprintln!("SQLite only, not run on PostgreSQL: {what}");
    }
    on_postgres
}

pub fn settings() -> Settings {
    Settings {
        allow_registration: false,
        behind_tls: false,
        public_url: "http://perkdesk.test".into(),
        sign_in_per_minute: 1000,
        trusted_proxies: Vec::new(),
        time_zone: Default::default(),
        redemption_ttl_secs: 300,
        wrong_codes_per_minute: 20,
        webhooks_allow_private: false,
    }
}

pub fn test_app() -> TestApp {
    test_app_with(settings())
}

/// The app on a temporary SQLite file, or, when `PERKDESK_TEST_ENGINE=postgres`, on a database
/// of its own on the test PostgreSQL server (copied from a migrated template).
pub fn test_app_with(settings: Settings) -> TestApp {
    let dir = tempfile::tempdir().unwrap();
    let (db, database) = match std::env::var("PERKDESK_TEST_ENGINE").as_deref() {
        Ok("postgres") => {
            let database = postgres::TestDatabase::new();
            (perkdesk::app::open_db(std::path::Path::new(&database.url)).unwrap(), Some(database))
        }
        _ => (perkdesk::app::open_db(&dir.path().join("test.db")).unwrap(), None),
    };
    let outbox = Arc::new(Mutex::new(Vec::new()));
    let state = perkdesk::app::state(db, settings, Mailer::Memory(outbox.clone())).unwrap();
    TestApp { router: perkdesk::app::app(state.clone()), state, outbox, _dir: dir, _database: database }
}

/// An app on a database the test opened itself (a copy to compare, say).
pub fn test_app_on(db: Db) -> TestApp {
    let outbox = Arc::new(Mutex::new(Vec::new()));
    let state = perkdesk::app::state(db, settings(), Mailer::Memory(outbox.clone())).unwrap();
    let dir = tempfile::tempdir().unwrap();
    TestApp { router: perkdesk::app::app(state.clone()), state, outbox, _dir: dir, _database: None }
}

pub struct TestUser {
    pub id: i64,
    pub email: String,
    pub secret: String,
    pub token: String,
    pub refresh_token: String,
}

impl TestApp {
    pub async fn call(&self, method: Method, path: &str, token: Option<&str>, body: Option<Value>) -> Response {
        self.call_with(method, path, token, body, &[]).await
    }

    pub async fn call_with(
        &self,
        method: Method,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
        headers: &[(&str, &str)],
    ) -> Response {
        let mut request = Request::builder().method(method).uri(path);
        if let Some(token) = token {
            request = request.header("authorization", format!("Bearer {token}"));
        }
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        let body = match body {
            Some(value) => {
                request = request.header("content-type", "application/json");
                Body::from(serde_json::to_vec(&value).unwrap())
            }
            None => Body::empty(),
        };
        self.send(request.body(body).unwrap()).await
    }

    pub async fn send(&self, request: Request<Body>) -> Response {
        let response = self.router.clone().oneshot(request).await.unwrap();
        let status = response.status();
        let headers = response.headers().clone();
        let bytes = response.into_body().collect().await.unwrap().to_bytes().to_vec();
        Response { status, headers, bytes }
    }

    pub async fn get(&self, path: &str, token: &str) -> Response {
        self.call(Method::GET, path, Some(token), None).await
    }

    /// Inserts a staff user directly (role 0 Admin, 1 User, 2 Call Center) and returns its id and secret.
    pub fn insert_user(&self, email: &str, role: i64) -> (i64, String) {
        let secret = totp::new_secret();
        let hash = password::hash(PASSWORD).unwrap();
        let conn = self.state.db.conn().unwrap();
        let inserted = conn
            .insert(
                "INSERT INTO users (kind, first_name, last_name, email, phone, role_id, password_hash, totp_secret)
             VALUES ('staff', 'Test', 'User', ?1, '994501234567', ?2, ?3, ?4)",
                (email, role, hash, &secret),
            )
            .unwrap();
        (inserted, secret)
    }

    /// A fresh TOTP code for the user; the replay guard is reset so tests may sign in repeatedly.
    pub fn otp_for(&self, email: &str) -> String {
        let conn = self.state.db.conn().unwrap();
        conn.execute("UPDATE users SET totp_last_step = 0 WHERE email = ?1", [email]).unwrap();
        let secret: String =
            conn.query_row("SELECT totp_secret FROM users WHERE email = ?1", [email], |r| r.get(0)).unwrap();
        totp::current_code(&secret).unwrap()
    }

    pub async fn sign_in_raw(&self, email: &str, password: &str, otp: &str) -> Response {
        let body = json!({"userName": email, "password": password, "otp": otp});
        self.call(Method::POST, "/api/auth/admin/token", None, Some(body)).await
    }

    pub async fn sign_in(&self, email: &str) -> TestUser {
        let otp = self.otp_for(email);
        let response = self.sign_in_raw(email, PASSWORD, &otp).await;
        response.expect(200);
        let body = response.json();
        let conn = self.state.db.conn().unwrap();
        let (id, secret) = conn
            .query_row("SELECT id, totp_secret FROM users WHERE email = ?1", [email], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap();
        TestUser {
            id,
            email: email.into(),
            secret,
            token: body["token"].as_str().unwrap().into(),
            refresh_token: body["refreshToken"].as_str().unwrap().into(),
        }
    }

    /// A signed-in user of the given role.
    pub async fn user_with_role(&self, email: &str, role: i64) -> TestUser {
        self.insert_user(email, role);
        self.sign_in(email).await
    }

    pub async fn admin(&self) -> TestUser {
        self.user_with_role("admin@perk.az", 0).await
    }

    /// An API client made directly (kind `employee-app` or `partner`); answers its key.
    pub fn api_key(&self, kind: &str, partner: Option<i64>, per_minute: i64) -> String {
        let form = json!({"name": format!("{kind} test"), "kind": kind, "partnerId": partner, "rateLimitPerMinute": per_minute});
        let new = perkdesk::resources::api_clients::NewClient::from_json(&form).unwrap();
        new.insert(&self.state.db.conn().unwrap()).unwrap().1
    }

    pub fn count(&self, sql: &str) -> i64 {
        self.state.db.conn().unwrap().query_row(sql, [], |r| r.get(0)).unwrap()
    }
}

/// Opens an .xlsx body and returns its first sheet as rows of strings.
pub fn workbook_rows(bytes: &[u8]) -> Vec<Vec<String>> {
    use calamine::{Reader, Xlsx};
    let mut workbook: Xlsx<_> = calamine::open_workbook_from_rs(std::io::Cursor::new(bytes.to_vec())).unwrap();
    let sheet = workbook.worksheet_range_at(0).unwrap().unwrap();
    sheet.rows().map(|row| row.iter().map(|cell| cell.to_string()).collect()).collect()
}

/// One part of a workbook's zip, as text (a sheet's relationships name its links).
pub fn workbook_part(bytes: &[u8], name: &str) -> String {
    use std::io::Read;
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes.to_vec())).unwrap();
    let mut text = String::new();
    archive.by_name(name).unwrap().read_to_string(&mut text).unwrap();
    text
}

pub const PNG: &[u8] = include_bytes!("../../assets/demo/asset-baki-mobil.png");

/// A merchant's application to `POST /api/apply`, as its text fields (the file is sent beside).
pub const APPLICATION_FIELDS: [(&str, &str); 6] = [
    ("partnerName", "Çay evi"),
    ("fullName", "Rəşad Məmmədli"),
    ("email", "reshad@cayevi.az"),
    ("phone", "994551112233"),
    ("cityIds", "1"),
    ("cityIds", "2"),
];

/// `POST /api/apply` with this body, sent anonymously as the public form is.
pub fn apply_request(content_type: &str, body: Vec<u8>) -> Request<Body> {
    Request::builder()
        .method(Method::POST)
        .uri("/api/apply")
        .header("content-type", content_type)
        .body(Body::from(body))
        .unwrap()
}

/// A multipart/form-data request body: text fields and (field, file name, bytes) files.
pub fn multipart(fields: &[(&str, &str)], files: &[(&str, &str, &[u8])]) -> (String, Vec<u8>) {
    let boundary = "perkdesk-test-boundary-7f3a";
    let mut body = Vec::new();
    for (name, value) in fields {
        body.extend_from_slice(
            format!("--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n").as_bytes(),
        );
    }
    for (name, file_name, bytes) in files {
        body.extend_from_slice(
            format!(
                "--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"; filename=\"{file_name}\"\r\nContent-Type: application/octet-stream\r\n\r\n"
            )
            .as_bytes(),
        );
        body.extend_from_slice(bytes);
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
    (format!("multipart/form-data; boundary={boundary}"), body)
}

impl TestApp {
    pub async fn send_form(
        &self,
        method: Method,
        path: &str,
        token: &str,
        fields: &[(&str, &str)],
        files: &[(&str, &str, &[u8])],
    ) -> Response {
        let (content_type, body) = multipart(fields, files);
        let request = Request::builder()
            .method(method)
            .uri(path)
            .header("authorization", format!("Bearer {token}"))
            .header("content-type", content_type)
            .body(Body::from(body))
            .unwrap();
        self.send(request).await
    }
}

/// The steps SQLite's planner chose for a list statement, joined by ` | `.
pub fn query_plan(conn: &perkdesk::db::sql::Connection, statement: &perkdesk::crud::Statement) -> String {
    let steps: Vec<String> = conn
        .prepare(&format!("EXPLAIN QUERY PLAN {}", statement.sql))
        .unwrap()
        .query_map(perkdesk::db::sql::params_from_iter(&statement.params), |r| r.get::<String>(3))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    steps.join(" | ")
}
