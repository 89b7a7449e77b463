//! Filtered totals are remembered between requests, so they must follow every write at once:
//! through the API, and from another connection or process on the same file.

mod common;

use axum::http::Method;
use common::*;
use serde_json::json;

const BY_NAME: &str = "/api/user/filter?Skip=0&Take=10&FirstName=Aysel";
const BY_NAME_AND_ROLE: &str = "/api/user/filter?Skip=0&Take=10&FirstName=Aysel&RoleId=2";

#[tokio::test]
async fn filtered_totals_follow_every_write() {
    let app = test_app();
    let admin = app.admin().await;
    let total = |path: &'static str| {
        let app = &app;
        let token = admin.token.clone();
        async move { app.get(path, &token).await.json()["totalCount"].as_i64().unwrap() }
    };
    assert_eq!(total(BY_NAME).await, 0);
    assert_eq!(total(BY_NAME_AND_ROLE).await, 0);

    let created = app
        .call(
            Method::POST,
            "/api/user/register",
            Some(&admin.token),
            Some(json!({"firstName": "Aysel", "lastName": "Məmmədova", "email": "aysel@perk.az",
                        "password": "Secret-123!", "phone": "994501234567", "roleId": 2})),
        )
        .await;
    created.expect(201);
    assert_eq!(total(BY_NAME).await, 1, "a create through the API");
    assert_eq!(total(BY_NAME_AND_ROLE).await, 1);

    // Another connection to the same file, as `perkdesk create-admin` beside the server would be.
    let outside = rusqlite::Connection::open(app.state.db.path()).unwrap();
    outside
        .execute(
            "INSERT INTO users (kind, first_name, last_name, email, role_id, password_hash, totp_secret)
             VALUES ('staff', 'Aysel', 'Quliyeva', 'aysel.q@perk.az', 2, 'x', 'y')",
            [],
        )
        .unwrap();
    assert_eq!(total(BY_NAME).await, 2, "a write from outside the server");
    assert_eq!(total(BY_NAME_AND_ROLE).await, 2);

    let id = created.json()["id"].as_i64().unwrap();
    app.call(Method::DELETE, "/api/user", Some(&admin.token), Some(json!({"id": [id]}))).await.expect(200);
    assert_eq!(total(BY_NAME).await, 1, "a soft delete");
    assert_eq!(total(BY_NAME_AND_ROLE).await, 1);
    outside.execute("UPDATE users SET role_id = 1 WHERE email = 'aysel.q@perk.az'", []).unwrap();
    assert_eq!(total(BY_NAME_AND_ROLE).await, 0, "an edit from outside");
}
