//! The HTTP surface as a whole: health, OpenAPI completeness, headers, fallbacks and limits.

use crate::common;

use axum::body::Body;
use axum::http::{Method, Request};
use common::*;

#[tokio::test]
async fn health_answers_once_the_database_is_ready() {
    let app = test_app();
    let health = app.call(Method::GET, "/api/health", None, None).await;
    health.expect(200);
    assert_eq!(health.json()["status"], "ok");
    assert_eq!(health.json()["schemaVersion"], perkdesk::db::SCHEMA_VERSION);
}

#[tokio::test]
async fn the_openapi_document_describes_every_endpoint() {
    let app = test_app();
    let doc = app.call(Method::GET, "/api/openapi.json", None, None).await;
    doc.expect(200);
    let doc = doc.json();
    assert_eq!(doc["openapi"], "3.1.0");
    let endpoints = perkdesk::app::api().endpoints();
    assert!(endpoints.len() >= 25, "{} endpoints", endpoints.len());
    for (method, path) in endpoints {
        let operation = &doc["paths"][&path][method.to_lowercase()];
        assert!(operation.is_object(), "{method} {path} is missing from the OpenAPI document");
        assert!(operation["summary"].is_string(), "{method} {path} has no summary");
    }
    for spec_path in ["/api/auth/admin/token", "/api/user/filter", "/api/user/get-qr", "/api/user/changePassword"] {
        assert!(doc["paths"][spec_path].is_object(), "{spec_path}");
    }
}

/// The routes whose writes take row locks say so, and the `x-requestid` claim begins their
/// transaction so (on PostgreSQL: `Db::claim_then_look_up`); every other route's writes are
/// serializable. A route missing here would run its row-locking writes serializable, where
/// concurrent uses fail each other.
#[test]
fn the_routes_writing_under_row_locks_are_the_use_and_the_tills_confirmation() {
    use perkdesk::db::dialect::Isolation;
    let (_, _, isolation) = perkdesk::app::api().into_parts();
    for path in ["/api/app/usage", "/api/partner-portal/redemptions"] {
        assert_eq!(isolation.of(&Method::POST, Some(path)), Isolation::RowLocks, "{path}");
    }
    assert_eq!(isolation.of(&Method::POST, Some("/api/campaign/category")), Isolation::Serializable);
    assert_eq!(isolation.of(&Method::POST, None), Isolation::Serializable, "a request no route matched");
}

#[tokio::test]
async fn every_response_carries_the_security_headers() {
    let app = test_app();
    for path in ["/api/health", "/users", "/api/nowhere"] {
        let response = app.call(Method::GET, path, None, None).await;
        assert_eq!(response.headers["x-content-type-options"], "nosniff", "{path}");
        assert_eq!(response.headers["referrer-policy"], "same-origin", "{path}");
        assert!(
            response.headers["content-security-policy"].to_str().unwrap().contains("frame-ancestors 'none'"),
            "{path}"
        );
        assert!(!response.headers.contains_key("strict-transport-security"));
    }
    let behind_tls = test_app_with(perkdesk::http::state::Settings { behind_tls: true, ..settings() });
    let response = behind_tls.call(Method::GET, "/api/health", None, None).await;
    assert!(response.headers.contains_key("strict-transport-security"));
}

#[tokio::test]
async fn unknown_api_paths_are_json_and_other_paths_get_the_app() {
    let app = test_app();
    let missing = app.call(Method::GET, "/api/no/such/thing", None, None).await;
    missing.expect_message(404, "There is no API endpoint at /api/no/such/thing.");
    for deep_link in ["/", "/users", "/auth/login", "/error/error-v5", "/anything/else"] {
        let page = app.call(Method::GET, deep_link, None, None).await;
        page.expect(200);
        assert!(page.headers["content-type"].to_str().unwrap().starts_with("text/html"), "{deep_link}");
    }
    app.call(Method::GET, "/assets/missing-abc123.js", None, None).await.expect(404);
    let wrong_method = app.call(Method::POST, "/api/health", None, None).await;
    wrong_method.expect_message(405, "This method is not allowed here.");
}

#[tokio::test]
async fn paths_are_case_insensitive() {
    let app = test_app();
    let admin = app.admin().await;
    app.get("/API/Auth/Profile", &admin.token).await.expect(200);
    app.get("/api/USER/filter?FIRSTNAME=adm", &admin.token).await.expect(200);
}

#[tokio::test]
async fn oversized_json_is_refused_with_413() {
    let app = test_app();
    let huge = format!("{{\"userName\": \"{}\"}}", "a".repeat(1_100_000));
    let request = Request::post("/api/auth/admin/token")
        .header("content-type", "application/json")
        .body(Body::from(huge))
        .unwrap();
    app.send(request).await.expect_message(413, "The request body is too large.");
    let request =
        Request::post("/api/auth/admin/token").header("content-type", "text/plain").body(Body::from("{}")).unwrap();
    app.send(request).await.expect_message(415, "Send the request body as application/json.");
}

#[tokio::test]
async fn idempotency_keys_are_scoped_per_user_and_checked_for_length() {
    let app = test_app();
    let admin = app.admin().await;
    let long_id = "x".repeat(101);
    let response = app
        .call_with(
            Method::PUT,
            "/api/user/changePassword",
            Some(&admin.token),
            Some(serde_json::json!({})),
            &[("x-requestid", &long_id)],
        )
        .await;
    response.expect_message(400, "x-requestid must be at most 100 characters.");
}

#[tokio::test]
async fn dates_at_the_end_of_the_calendar_are_a_400_not_a_panic() {
    let app = test_app();
    let admin = app.admin().await;
    for path in [
        "/api/humanResource/filter?startDate=9999-12-31",
        "/api/humanResource/filter?endDate=9999-12-31",
        "/api/humanResource?startDate=9999-12-31",
        "/api/humanResource/export?startDate=2026-01-01&endDate=9999-12-31",
        "/api/humanResource/export?startDate=9999-12-31T23:00:00-05:00&endDate=9999-12-31",
    ] {
        let response = app.get(path, &admin.token).await;
        response.expect(400);
        assert!(response.message().contains("must be a date between"), "{path}: {}", response.message());
    }
}

#[tokio::test]
async fn control_characters_in_a_text_filter_are_a_400() {
    let app = test_app();
    let admin = app.admin().await;
    for path in [
        "/api/user/filter?FirstName=ab%00",
        "/api/user/filter?LastName=abc%00def",
        "/api/user/filter?Email=%00%00%00",
        "/api/user/export?Email=ab%01c",
        "/api/user/filter?FirstName=%00",
        // An exact-match text filter too: PostgreSQL refuses a NUL in any text it is sent.
        "/api/activity/export?ActorKind=%00user",
        "/api/activity/filter?Resource=user%00",
        // A picker's search as well.
        "/api/campaign/notficationCampany?name=a%00b",
    ] {
        let response = app.get(path, &admin.token).await;
        response.expect(400);
        assert!(response.message().ends_with("must not contain control characters."), "{path}");
    }
    // Quotes and FTS operators are taken literally.
    for term in ["%22", "a%22b%22c", "NEAR(a", "*", "a%20OR%20b", "%5E%5E%5E"] {
        app.get(&format!("/api/user/filter?FirstName={term}"), &admin.token).await.expect(200);
    }
}

#[tokio::test]
async fn a_query_parameter_sent_twice_is_refused_not_read_as_one_of_its_values() {
    let app = test_app();
    let admin = app.admin().await;
    // Any spelling of a name is the name: `skip` after `Skip` is the same parameter again.
    for (path, named) in [
        ("/api/trash/filter?Skip=%C3%A0&Skip=+&Take=10", "Skip"),
        ("/api/user/filter?Skip=0&Take=10&skip=5", "skip"),
        ("/api/user/filter?Skip=0&Take=10&FirstName=a&FirstName=b", "FirstName"),
    ] {
        let message = format!("The query parameter {named} is given more than once.");
        app.get(path, &admin.token).await.expect_message(400, &message);
    }
    app.get("/api/trash/filter?Skip=0&Take=10", &admin.token).await.expect(200);
}

#[tokio::test]
async fn a_number_with_white_space_around_it_is_the_number() {
    let app = test_app();
    let admin = app.admin().await;
    app.insert_user("second@perkdesk.test", 1);
    let plain = app.get("/api/user/filter?Skip=0&Take=1", &admin.token).await.json();
    // schemathesis's `Take=%0D+4`: the query's trimming reads it as 4 (the document says so:
    // `tests/openapi.rs`).
    let padded = app.get("/api/user/filter?Skip=%09&Take=%0D+1%E2%80%83", &admin.token).await;
    padded.expect(200);
    assert_eq!(padded.json(), plain);
    assert_eq!(plain["data"].as_array().map(Vec::len), Some(1));
}

#[tokio::test]
async fn bad_json_is_explained_in_the_callers_terms() {
    let app = test_app();
    let admin = app.admin().await;
    let cases = [
        (
            Method::DELETE,
            "/api/user",
            serde_json::json!({"id": "abc"}),
            "The request body must be a list of ids, e.g. {\"id\": [1, 2]}.",
        ),
        (
            Method::PATCH,
            "/api/user/active",
            serde_json::json!({"id": "x", "isActive": true}),
            "The field 'id' must be a whole number, not text.",
        ),
        (
            Method::POST,
            "/api/user/register",
            serde_json::json!(5),
            "The request body must be an object, not the number 5.",
        ),
    ];
    for (method, path, body, message) in cases {
        app.call(method, path, Some(&admin.token), Some(body)).await.expect_message(400, message);
    }
}

#[tokio::test]
async fn a_delete_reads_ids_as_json_schema_integers() {
    let app = test_app();
    let admin = app.admin().await;
    // 7.0 is the integer 7 to JSON Schema (and so to the OpenAPI document): it names a row like 7.
    for body in [serde_json::json!([7.0]), serde_json::json!({"id": [7.0, 7]}), serde_json::json!([-685.0])] {
        app.call(Method::DELETE, "/api/asset", Some(&admin.token), Some(body)).await.expect(404);
    }
    for body in [serde_json::json!([7.5]), serde_json::json!([1e300]), serde_json::json!([18446744073709551615u64])] {
        app.call(Method::DELETE, "/api/asset", Some(&admin.token), Some(body))
            .await
            .expect_message(400, "The request body must be a list of ids, e.g. {\"id\": [1, 2]}.");
    }
}
