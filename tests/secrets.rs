//! Secrets are shown once and never cached: every operation whose answer carries one (read from
//! the served document: a secret field in its success answer, or the document's mark) answers
//! with `Cache-Control: no-store`, its answer is never stored with the secret, and a repeat with
//! the same x-requestid never hands the same secret back. A new such operation fails here until
//! it has a case below.

use crate::common;

use axum::http::Method;
use common::*;
use perkdesk::auth::totp;
use serde_json::{Value, json};

/// The success answer's secret fields (those this test looks for) found in `answer`.
fn secrets_in(answer: &Value) -> Vec<String> {
    let mut found = Vec::new();
    match answer {
        Value::Object(object) => {
            for (field, inner) in object {
                if perkdesk::http::secrets::FIELDS.contains(&field.as_str()) || field == "data" {
                    found.push(inner.to_string());
                }
                found.extend(secrets_in(inner));
            }
        }
        Value::Array(items) => items.iter().for_each(|item| found.extend(secrets_in(item))),
        _ => {}
    }
    found
}

#[tokio::test]
async fn every_answer_with_a_secret_is_no_store_and_never_replayed() {
    let app = test_app();
    let admin = app.admin().await;
    let document = app.call(Method::GET, "/api/openapi.json", None, None).await.json();
    let mut operations = perkdesk::http::secrets::answers_with_secrets(&document);
    operations.sort();
    // What the document must count among them, whatever else it adds.
    for known in [
        ("POST", "/api/auth/admin/token"),
        ("POST", "/api/auth/refreshToken"),
        ("POST", "/api/auth/recoveryCodes"),
        ("POST", "/api/auth/authenticator"),
        ("PUT", "/api/auth/authenticator"),
        ("PUT", "/api/user/resetAuthenticator"),
        ("POST", "/api/user/register"),
        ("GET", "/api/user/get-qr"),
        ("POST", "/api/apiClient"),
        ("POST", "/api/webhook"),
        ("POST", "/api/webhook/{id}/rotate-secret"),
    ] {
        assert!(operations.iter().any(|(m, p)| (m.as_str(), p.as_str()) == known), "{known:?} is not counted");
    }
    let (other_id, _) = app.insert_user("reset.me@perk.az", 1);
    let mut users = 0;
    for (method, path) in &operations {
        let marked = document["paths"][path][method.to_ascii_lowercase()][perkdesk::http::secrets::EXTENSION].clone();
        assert_eq!(marked, true, "{method} {path} is marked in the document");
        // Each case: the request to make (twice with one x-requestid where a repeat makes sense).
        let fresh = app.sign_in(&admin.email).await;
        let (body, query) = match (method.as_str(), path.as_str()) {
            ("POST", "/api/auth/admin/token") => {
                let otp = app.otp_for(&admin.email);
                (Some(json!({"userName": admin.email, "password": PASSWORD, "otp": otp})), "")
            }
            ("POST", "/api/auth/refreshToken") => (Some(json!({"refreshToken": fresh.refresh_token})), ""),
            ("POST", "/api/auth/recoveryCodes") | ("POST", "/api/auth/authenticator") => {
                (Some(json!({"password": PASSWORD})), "")
            }
            ("PUT", "/api/auth/authenticator") => {
                let started = app
                    .call(
                        Method::POST,
                        "/api/auth/authenticator",
                        Some(&fresh.token),
                        Some(json!({"password": PASSWORD})),
                    )
                    .await;
                let secret = started.expect(200).json()["secret"].as_str().unwrap().to_string();
                (Some(json!({"otp": totp::current_code(&secret).unwrap()})), "")
            }
            ("PUT", "/api/user/resetAuthenticator") => (Some(json!({"id": other_id})), ""),
            ("POST", "/api/user/register") => {
                users += 1;
                let email = format!("secret{users}@perk.az");
                let body = json!({"firstName": "Aysel", "lastName": "Quliyeva", "email": email, "password": PASSWORD,
                                  "phone": "994501234567", "roleId": 1});
                (Some(body), "")
            }
            ("GET", "/api/user/get-qr") => (None, "?id=1"),
            ("POST", "/api/apiClient") => (Some(json!({"name": "Till", "kind": "employee-app"})), ""),
            ("POST", "/api/webhook") => {
                (Some(json!({"url": "https://93.184.215.14/hook", "events": ["usage.created"]})), "")
            }
            ("POST", "/api/webhook/{id}/rotate-secret") => (None, ""),
            other => panic!("{other:?} answers with a secret and has no case in this test: add one"),
        };
        let method = Method::from_bytes(method.as_bytes()).unwrap();
        let uri = if path.contains("{id}") {
            // A record of its own to act on (the webhook whose secret is rotated).
            let made = app
                .call(
                    Method::POST,
                    "/api/webhook",
                    Some(&fresh.token),
                    Some(json!({"url": "https://93.184.215.14/rotated", "events": ["usage.created"]})),
                )
                .await;
            let id = made.expect(201).json()["webhook"]["id"].as_i64().unwrap();
            format!("{}{query}", path.replace("{id}", &id.to_string()))
        } else {
            format!("{path}{query}")
        };
        let headers = [("x-requestid", "secret-once")];
        let first = app.call_with(method.clone(), &uri, Some(&fresh.token), body.clone(), &headers).await;
        assert!(first.status.is_success(), "{method} {path}: {} {}", first.status, first.message());
        assert_eq!(first.headers["cache-control"], "no-store", "{method} {path}");
        let shown = secrets_in(&first.json());
        assert!(!shown.is_empty(), "{method} {path} answered a secret");
        let stored: Vec<Vec<u8>> = {
            let conn = app.state.db.conn().unwrap();
            let mut statement = conn
                .prepare("SELECT body FROM idempotency_keys WHERE request_id = 'secret-once' AND path = ?1")
                .unwrap();
            statement.query_map([path.as_str()], |row| row.get(0)).unwrap().map(Result::unwrap).collect()
        };
        for body in &stored {
            let body = String::from_utf8_lossy(body);
            assert!(
                shown.iter().all(|secret| !body.contains(secret.trim_matches('"'))),
                "{method} {path}: stored in clear"
            );
        }
        // A refresh repeated within its grace window answers the same pair, sealed for the spent
        // token's holder only (two tabs refreshing at once both stay signed in; tests/auth.rs).
        if method != Method::GET && path != "/api/auth/refreshToken" {
            let again = app.call_with(method.clone(), &uri, Some(&fresh.token), body, &headers).await;
            if again.status.is_success() {
                let repeated = secrets_in(&again.json());
                assert!(
                    repeated.iter().all(|secret| !shown.contains(secret)),
                    "{method} {path}: a secret handed out twice"
                );
            }
        }
    }
}
