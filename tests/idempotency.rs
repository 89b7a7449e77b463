//! `x-requestid`: answers are replayed only to the live session that earned them, never for
//! sign-in or refresh, recorded in the same transaction as the work, and matched by what a
//! multipart form means rather than how it was framed.

use crate::common;

use std::time::Duration;

use axum::body::Body;
use axum::http::{Method, Request};
use common::*;
use serde_json::{Value, json};

fn new_user(email: &str) -> Value {
    json!({
        "firstName": "Leyla", "lastName": "Abbasova", "email": email, "phone": "994551234567",
        "roleId": 1, "password": "Secret-123!", "confirmPassword": "Secret-123!"
    })
}

#[tokio::test]
async fn a_refresh_is_never_replayed_and_a_repeat_revokes_the_family() {
    let app = test_app();
    let admin = app.admin().await;
    let headers = [("x-requestid", "refresh-1")];
    let body = json!({"refreshToken": admin.refresh_token});
    let first = app.call_with(Method::POST, "/api/auth/refreshToken", None, Some(body.clone()), &headers).await;
    first.expect(200);
    // Within the grace window the handler answers the same pair again itself: no stored replay.
    let within_grace = app.call_with(Method::POST, "/api/auth/refreshToken", None, Some(body.clone()), &headers).await;
    within_grace.expect(200);
    assert!(!within_grace.headers.contains_key("x-idempotent-replay"));
    let spent_long_ago = "UPDATE refresh_tokens SET used_at = '2000-01-01T00:00:00.000Z' WHERE used_at IS NOT NULL";
    app.state.db.conn().unwrap().execute(spent_long_ago, []).unwrap();
    let again = app.call_with(Method::POST, "/api/auth/refreshToken", None, Some(body.clone()), &headers).await;
    again.expect_message(401, "Your session has ended. Sign in again.");
    assert!(!again.headers.contains_key("x-idempotent-replay"));
    // The repeat was a reuse of a spent token: the pair the first call gave is dead too.
    let rotated = first.json();
    app.get("/api/auth/profile", rotated["token"].as_str().unwrap()).await.expect(401);
    // Also with a bearer token of the live session beside it, a refresh answer is not stored.
    let fresh = app.sign_in("admin@perk.az").await;
    let body = json!({"refreshToken": fresh.refresh_token});
    let headers = [("x-requestid", "refresh-2")];
    app.call_with(Method::POST, "/api/auth/refreshToken", Some(&fresh.token), Some(body.clone()), &headers)
        .await
        .expect(200);
    app.state.db.conn().unwrap().execute(spent_long_ago, []).unwrap();
    app.call_with(Method::POST, "/api/auth/refreshToken", Some(&fresh.token), Some(body), &headers).await.expect(401);
    assert_eq!(app.count("SELECT COUNT(*) FROM idempotency_keys"), 0, "no credentials stored");
}

#[tokio::test]
async fn a_sign_in_is_never_replayed_so_a_code_works_once() {
    let app = test_app();
    app.insert_user("admin@perk.az", 0);
    let otp = app.otp_for("admin@perk.az");
    let body = json!({"userName": "admin@perk.az", "password": PASSWORD, "otp": otp});
    let headers = [("x-requestid", "sign-in-1")];
    app.call_with(Method::POST, "/api/auth/admin/token", None, Some(body.clone()), &headers).await.expect(200);
    let again = app.call_with(Method::POST, "/api/auth/admin/token", None, Some(body), &headers).await;
    again.expect_message(401, "Invalid credentials.");
    assert_eq!(app.count("SELECT COUNT(*) FROM idempotency_keys"), 0);
}

#[tokio::test]
async fn a_replay_is_served_only_to_the_same_live_session() {
    let app = test_app();
    let admin = app.admin().await;
    let change = json!({"oldPassword": PASSWORD, "newPassword": "Newpass-1234", "newPasswordConfirm": "Newpass-1234"});
    let headers = [("x-requestid", "pw-1")];
    app.call_with(Method::PUT, "/api/user/changePassword", Some(&admin.token), Some(change.clone()), &headers)
        .await
        .expect(200);
    let replayed = app
        .call_with(Method::PUT, "/api/user/changePassword", Some(&admin.token), Some(change.clone()), &headers)
        .await;
    replayed.expect(200);
    assert_eq!(replayed.headers["x-idempotent-replay"], "true");
    app.call(Method::POST, "/api/auth/logout", Some(&admin.token), None).await.expect(204);
    let after_logout =
        app.call_with(Method::PUT, "/api/user/changePassword", Some(&admin.token), Some(change), &headers).await;
    after_logout.expect(401);
    assert!(!after_logout.headers.contains_key("x-idempotent-replay"));

    // Another session of the same user does not get the first session's answer: its request runs.
    let app = test_app();
    let admin = app.admin().await;
    let second = app.sign_in("admin@perk.az").await;
    let headers = [("x-requestid", "create-1")];
    app.call_with(Method::POST, "/api/user/register", Some(&admin.token), Some(new_user("a@perk.az")), &headers)
        .await
        .expect(201);
    let other = app
        .call_with(Method::POST, "/api/user/register", Some(&second.token), Some(new_user("a@perk.az")), &headers)
        .await;
    other.expect_message(409, "A user with this e-mail already exists.");
}

/// On PostgreSQL a caller checked before is admitted on what that check found, and its check
/// travels with the handler's first exchange (`auth::callers`): whatever changed since, nothing
/// of the request's is committed or answered until the check agrees, and a caller it no longer
/// admits as remembered gets what a check made first would have given. On SQLite every request
/// is checked first; the answers are the same on both.
#[tokio::test]
async fn a_caller_admitted_on_memory_gets_only_what_its_check_allows() {
    let app = test_app();
    let (boss, _) = app.insert_user("boss@perk.az", 0);
    let session = app.sign_in("boss@perk.az").await;
    let register = |email: &'static str, id: &'static str| {
        let (app, token) = (&app, &session.token);
        async move {
            app.call_with(
                Method::POST,
                "/api/user/register",
                Some(token),
                Some(new_user(email)),
                &[("x-requestid", id)],
            )
            .await
        }
    };
    let users = |email: &str| app.count(&format!("SELECT COUNT(*) FROM users WHERE email = '{email}'"));
    let stored = |id: &str| app.count(&format!("SELECT COUNT(*) FROM idempotency_keys WHERE request_id = '{id}'"));
    register("a@perk.az", "r-1").await.expect(201);

    // Made a User since (the Users screen is the Admin's): refused, nothing written or stored.
    app.state.db.conn().unwrap().execute("UPDATE users SET role_id = 1 WHERE id = ?1", [boss]).unwrap();
    register("b@perk.az", "r-2").await.expect(403);
    assert_eq!((users("b@perk.az"), stored("r-2")), (0, 0));
    // An Admin again: the memory of a User does not refuse what the check now allows.
    app.state.db.conn().unwrap().execute("UPDATE users SET role_id = 0 WHERE id = ?1", [boss]).unwrap();
    register("b@perk.az", "r-3").await.expect(201);
    assert_eq!((users("b@perk.az"), stored("r-3")), (1, 1));

    // Renamed since: what the request writes is recorded under the name the check finds.
    app.state.db.conn().unwrap().execute("UPDATE users SET first_name = 'Renamed' WHERE id = ?1", [boss]).unwrap();
    let created = register("c@perk.az", "r-4").await;
    created.expect(201);
    let recorded = app.count(&format!(
        "SELECT COUNT(*) FROM activity WHERE resource = 'user' AND action = 'create' AND record_id = {}
           AND actor_name = 'Renamed User'",
        created.json()["id"]
    ));
    assert_eq!(recorded, 1, "recorded as the renamed user");

    // A repeat is answered from the store, its handler's second run undone.
    let again = register("c@perk.az", "r-4").await;
    again.expect(201);
    assert_eq!(again.headers["x-idempotent-replay"], "true");
    assert_eq!(users("c@perk.az"), 1);

    // Signed out since: refused as an ended session, nothing written.
    app.state.db.conn().unwrap().execute("UPDATE sessions SET revoked_at = '2026-01-01T00:00:00.000Z'", []).unwrap();
    register("d@perk.az", "r-5").await.expect_message(401, "Your session has ended. Sign in again.");
    assert_eq!((users("d@perk.az"), stored("r-5")), (0, 0));
}

#[tokio::test]
async fn the_answer_is_stored_with_the_work_in_one_transaction() {
    let app = test_app();
    let admin = app.admin().await;
    let headers = [("x-requestid", "create-1")];
    app.call_with(Method::POST, "/api/user/register", Some(&admin.token), Some(new_user("b@perk.az")), &headers)
        .await
        .expect(201);
    let stored = app.count("SELECT COUNT(*) FROM idempotency_keys WHERE request_id = 'create-1' AND status = 201");
    assert_eq!(stored, 1);
    // A refusal stores nothing.
    let headers = [("x-requestid", "create-2")];
    app.call_with(Method::POST, "/api/user/register", Some(&admin.token), Some(new_user("b@perk.az")), &headers)
        .await
        .expect(409);
    assert_eq!(app.count("SELECT COUNT(*) FROM idempotency_keys WHERE request_id = 'create-2'"), 0);
}

/// An answer is kept for a day: after that the same id runs the request again (its old answer
/// gives way to the new one), and the expired answers of other requests are swept (on SQLite by
/// every recorded answer, on PostgreSQL by the leading server's round).
#[tokio::test]
async fn an_answer_older_than_a_day_is_not_replayed_and_is_swept() {
    let app = test_app();
    let admin = app.admin().await;
    let headers = [("x-requestid", "old-1")];
    let first = app
        .call_with(Method::POST, "/api/user/register", Some(&admin.token), Some(new_user("c@perk.az")), &headers)
        .await;
    first.expect(201);
    let conn = app.state.db.conn().unwrap();
    conn.execute("UPDATE idempotency_keys SET created_at = '2000-01-01T00:00:00.000Z'", []).unwrap();
    let again = app
        .call_with(Method::POST, "/api/user/register", Some(&admin.token), Some(new_user("d@perk.az")), &headers)
        .await;
    again.expect(201);
    assert!(again.headers.get("x-idempotent-replay").is_none(), "run again, not replayed");
    assert_ne!(again.json()["id"], first.json()["id"]);
    assert_eq!(app.count("SELECT COUNT(*) FROM idempotency_keys WHERE request_id = 'old-1'"), 1);

    conn.execute(
        "INSERT INTO idempotency_keys (request_id, user_id, session_id, method, path, payload_hash, created_at)
         VALUES ('stale', 1, 's', 'POST', '/api/user/register', 'x', '2000-01-01T00:00:00.000Z')",
        [],
    )
    .unwrap();
    assert_eq!(perkdesk::app::idempotency::expire_all(&app.state.db).await.unwrap(), 1);
    assert_eq!(app.count("SELECT COUNT(*) FROM idempotency_keys WHERE request_id = 'stale'"), 0);
    assert_eq!(app.count("SELECT COUNT(*) FROM idempotency_keys"), 1, "the live answer stays");
}

/// Requests cut off at every moment (as a crash or a dropped connection cuts them) never block
/// a retry, and the retry never does the work twice.
#[tokio::test]
async fn an_abandoned_request_never_blocks_its_retry() {
    let app = test_app();
    let admin = app.admin().await;
    for (attempt, cut_after_us) in [0u64, 50, 200, 1_000, 3_000, 10_000, 30_000].into_iter().enumerate() {
        let email = format!("cut{attempt}@perk.az");
        let request_id = format!("cut-{attempt}");
        let send = || {
            let request = Request::post("/api/user/register")
                .header("authorization", format!("Bearer {}", admin.token))
                .header("content-type", "application/json")
                .header("x-requestid", &request_id)
                .body(Body::from(serde_json::to_vec(&new_user(&email)).unwrap()))
                .unwrap();
            app.send(request)
        };
        let _ = tokio::time::timeout(Duration::from_micros(cut_after_us), send()).await;
        let retry = send().await;
        retry.expect(201);
        let created = app.count(&format!("SELECT COUNT(*) FROM users WHERE email = '{email}'"));
        assert_eq!(created, 1, "cut after {cut_after_us} µs: one row");
        let pool_is_clean = app.count("SELECT COUNT(*) FROM users") > 0;
        assert!(pool_is_clean);
    }
    // Every connection went back to the pool outside a transaction: eight writes in a row work.
    for n in 0..8 {
        app.call(Method::POST, "/api/user/register", Some(&admin.token), Some(new_user(&format!("after{n}@perk.az"))))
            .await
            .expect(201);
    }
}

fn framed(boundary: &str, fields: &[(&str, &str)], file: &[u8]) -> (String, Vec<u8>) {
    let mut body = Vec::new();
    for (name, value) in fields {
        body.extend_from_slice(
            format!("--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n").as_bytes(),
        );
    }
    body.extend_from_slice(
        format!(
            "--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"logo.png\"\r\nContent-Type: image/png\r\n\r\n"
        )
        .as_bytes(),
    );
    body.extend_from_slice(file);
    body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
    (format!("multipart/form-data; boundary={boundary}"), body)
}

#[tokio::test]
async fn a_multipart_retry_with_a_new_boundary_is_the_same_request() {
    let app = test_app();
    let admin = app.admin().await;
    let fields = [
        ("name", "Xəzər Telekom"),
        ("contactPerson", "Nigar Həsənova"),
        ("phoneNumber", "994501234567"),
        ("email", "nigar@xezer.az"),
        ("barcodePrefix", "XT1"),
    ];
    let send = |boundary: &'static str, fields: Vec<(&'static str, &'static str)>| {
        let (content_type, body) = framed(boundary, &fields, PNG);
        let request = Request::post("/api/asset")
            .header("authorization", format!("Bearer {}", admin.token))
            .header("content-type", content_type)
            .header("x-requestid", "asset-1")
            .body(Body::from(body))
            .unwrap();
        app.send(request)
    };
    let first = send("----WebKitFormBoundaryA1", fields.to_vec()).await;
    first.expect(201);
    let retry = send("----WebKitFormBoundaryZ9", fields.to_vec()).await;
    retry.expect(201);
    assert_eq!(retry.headers["x-idempotent-replay"], "true");
    assert_eq!(retry.json(), first.json());
    assert_eq!(app.count("SELECT COUNT(*) FROM assets"), 1);
    let mut other = fields.to_vec();
    other[0] = ("name", "Başqa ad");
    send("----WebKitFormBoundaryQ5", other)
        .await
        .expect_message(422, "This x-requestid was already used for a different request.");
}
