//! HR accounts: create, edit, password, QR, and their login following delete and deactivation.

use crate::common;

use axum::http::Method;
use common::*;
use serde_json::{Value, json};

async fn asset(app: &TestApp, token: &str) -> i64 {
    let fields = [
        ("name", "Qafqaz Bank"),
        ("contactPerson", "Kamran Nəsirov"),
        ("phoneNumber", "994501234567"),
        ("email", "k@qb.az"),
        ("barcodePrefix", "QB"),
    ];
    app.send_form(Method::POST, "/api/asset", token, &fields, &[("file", "logo.png", PNG)]).await.json()["id"]
        .as_i64()
        .unwrap()
}

fn new_account(asset_id: i64) -> Value {
    json!({
        "firstName": "Günel", "lastName": "Hüseynova", "email": "gunel@qb.az", "phone": "994701234567",
        "password": "hrpass123", "confirmPassword": "hrpass123", "assetId": asset_id,
        "isMfaActive": true, "isEmployeeSeen": false
    })
}

#[tokio::test]
async fn create_and_read_an_hr_account() {
    let app = test_app();
    let admin = app.admin().await;
    let asset_id = asset(&app, &admin.token).await;
    let created = app.call(Method::POST, "/api/humanResource", Some(&admin.token), Some(new_account(asset_id))).await;
    created.expect(201);
    let account = created.json();
    assert_eq!(account["assetName"], "Qafqaz Bank");
    assert_eq!(account["fullName"], "Günel Hüseynova");
    assert_eq!(account["isMfaActive"], true);
    assert_eq!(account["isEmployeeSeen"], false);
    assert!(account.get("password").is_none());
    let login = account["userId"].as_i64().unwrap();
    assert_eq!(app.count(&format!("SELECT COUNT(*) FROM users WHERE id = {login} AND kind = 'hr'")), 1);
    // HR logins are not back-office users.
    assert_eq!(app.get("/api/user?Skip=0&Take=10", &admin.token).await.json()["totalCount"], 1);
    let otp = app.otp_for("gunel@qb.az");
    app.sign_in_raw("gunel@qb.az", "hrpass123", &otp).await.expect(401);
    let taken = app.call(Method::POST, "/api/humanResource", Some(&admin.token), Some(new_account(asset_id))).await;
    taken.expect_message(409, "A user with this e-mail already exists.");
    assert_eq!(taken.json()["errors"]["email"], "A user with this e-mail already exists.");
}

#[tokio::test]
async fn create_validation_messages() {
    let app = test_app();
    let admin = app.admin().await;
    let asset_id = asset(&app, &admin.token).await;
    let cases: &[(&str, Value, &str)] = &[
        ("firstName", json!(""), "First name is required"),
        ("lastName", json!(""), "Last name is required"),
        ("email", json!(""), "Email is required"),
        ("email", json!("gunel"), "Wrong email format. E.g. name@example.com"),
        ("phone", json!(""), "Phone is required"),
        ("password", json!(""), "Password is required"),
        ("password", json!("hrpassword"), "Password must consist of a letter, a number."),
        ("confirmPassword", json!(""), "Confirm Password is required"),
        ("confirmPassword", json!("hrpass124"), "Both password need to be the same"),
        ("assetId", json!(null), "Asset Id is required"),
    ];
    for (field, value, message) in cases {
        let mut body = new_account(asset_id);
        body[*field] = value.clone();
        let response = app.call(Method::POST, "/api/humanResource", Some(&admin.token), Some(body)).await;
        response.expect(400);
        assert_eq!(response.json()["errors"][*field], *message, "{field}");
    }
    // A well-formed request pointing at a missing asset is a 404 that names the field.
    let mut body = new_account(asset_id);
    body["assetId"] = json!(999);
    let missing = app.call(Method::POST, "/api/humanResource", Some(&admin.token), Some(body)).await;
    missing.expect_message(404, "The chosen asset does not exist.");
    assert_eq!(missing.json()["errors"]["assetId"], "The chosen asset does not exist.");
    assert_eq!(app.count("SELECT COUNT(*) FROM hr_accounts"), 0);
    assert_eq!(app.count("SELECT COUNT(*) FROM users WHERE kind = 'hr'"), 0);
}

#[tokio::test]
async fn edit_password_qr_toggle_and_delete() {
    let app = test_app();
    let admin = app.admin().await;
    let editor = app.user_with_role("user@perk.az", 1).await;
    let reader = app.user_with_role("cc@perk.az", 2).await;
    let asset_id = asset(&app, &admin.token).await;
    let account =
        app.call(Method::POST, "/api/humanResource", Some(&editor.token), Some(new_account(asset_id))).await.json();
    let (id, login) = (account["id"].as_i64().unwrap(), account["userId"].as_i64().unwrap());

    let edit = json!({"id": id, "assetId": asset_id, "firstName": "Günel", "lastName": "Əliyeva", "email": "gunel.a@qb.az", "phone": "994771234567", "isMfaActive": false, "isEmployeeSeen": true});
    let edited = app.call(Method::PUT, "/api/humanResource", Some(&editor.token), Some(edit.clone())).await;
    edited.expect(200);
    assert_eq!(edited.json()["lastName"], "Əliyeva");
    assert_eq!(edited.json()["isEmployeeSeen"], true);
    let mut no_asset = edit.clone();
    no_asset["assetId"] = json!(0);
    app.call(Method::PUT, "/api/humanResource", Some(&editor.token), Some(no_asset))
        .await
        .expect_message(400, "Asset Id is required");
    let mut missing = edit.clone();
    missing["id"] = json!(999);
    app.call(Method::PUT, "/api/humanResource", Some(&editor.token), Some(missing))
        .await
        .expect_message(404, "Human resource not found.");
    app.call(Method::PUT, "/api/humanResource", Some(&reader.token), Some(edit)).await.expect(403);

    let password = |body: Value| {
        app.call(Method::PUT, "/api/humanResource/changePasswordByAdmin", Some(&editor.token), Some(body))
    };
    password(json!({"id": id, "password": ""})).await.expect_message(400, "Password is required");
    password(json!({"id": id, "password": "abcdefgh"})).await.expect_message(400, "Password must consist of a number.");
    password(json!({"id": 999, "password": "newpass12"})).await.expect(404);
    // The spec's payload exactly: no confirmation field (the form checks it).
    password(json!({"id": id, "password": "newpass12"})).await.expect(200);
    let hash: String = app
        .state
        .db
        .conn()
        .unwrap()
        .query_row("SELECT password_hash FROM users WHERE id = ?1", [login], |r| r.get(0))
        .unwrap();
    assert!(perkdesk::auth::password::verify(&hash, "newpass12"));

    let qr = app.get(&format!("/api/user/get-qr?id={login}"), &editor.token).await;
    qr.expect(200);
    assert!(qr.json()["data"].as_str().unwrap().starts_with("data:image/png;base64,"));
    app.get(&format!("/api/user/get-qr?id={login}"), &reader.token).await.expect(403);

    let toggle = json!({"id": id, "isActive": false});
    app.call(Method::PATCH, "/api/humanResource/active", Some(&editor.token), Some(toggle)).await.expect(200);
    assert_eq!(
        app.count(&format!("SELECT is_active FROM users WHERE id = {login}")),
        0,
        "the login is deactivated too"
    );
    app.call(Method::DELETE, "/api/humanResource", Some(&editor.token), Some(json!({"id": [id]}))).await.expect(200);
    assert_eq!(
        app.count(&format!("SELECT COUNT(*) FROM users WHERE id = {login} AND deleted_at IS NOT NULL")),
        1,
        "the login is deleted too"
    );
    // Its e-mail is free again.
    app.call(Method::POST, "/api/humanResource", Some(&editor.token), Some(new_account(asset_id))).await.expect(201);
}

#[tokio::test]
async fn export_between_two_dates() {
    let app = test_app();
    let admin = app.admin().await;
    let asset_id = asset(&app, &admin.token).await;
    for (index, created_at) in
        ["2026-03-01T08:00:00.000Z", "2026-03-15T23:59:00.000Z", "2026-04-02T10:00:00.000Z"].iter().enumerate()
    {
        let mut body = new_account(asset_id);
        body["email"] = json!(format!("hr{index}@qb.az"));
        let id = app.call(Method::POST, "/api/humanResource", Some(&admin.token), Some(body)).await.json()["id"]
            .as_i64()
            .unwrap();
        app.state
            .db
            .conn()
            .unwrap()
            .execute("UPDATE hr_accounts SET created_at = ?2 WHERE id = ?1", (id, created_at))
            .unwrap();
    }
    let file = app.get("/api/humanResource/export?startDate=2026-03-01&endDate=2026-03-15", &admin.token).await;
    file.expect(200);
    assert_eq!(file.headers["content-disposition"], "attachment; filename=\"HumanResources.xlsx\"");
    let rows = workbook_rows(&file.bytes);
    assert_eq!(rows.len(), 3, "header plus the two accounts made from 1 to 15 March inclusive");
    assert_eq!(rows[0][0], "Asset name");
    app.get("/api/humanResource/export?startDate=15.03.2026", &admin.token)
        .await
        .expect_message(400, "startDate must be a date like 2026-11-22.");
    app.get("/api/humanResource/export?startDate=2026-03-15&endDate=2026-03-14", &admin.token)
        .await
        .expect_message(400, "The end date must not be before the start date.");
    let one_day = app.get("/api/humanResource/export?startDate=2026-03-15&endDate=2026-03-15", &admin.token).await;
    one_day.expect(200);
}
