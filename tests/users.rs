//! The Users API: every call's success, validation messages, roles, missing rows and repeats.

use crate::common;

use axum::http::Method;
use common::*;
use serde_json::{Value, json};

fn new_user(email: &str) -> Value {
    json!({
        "firstName": "Leyla", "lastName": "Abbasova", "email": email, "phone": "994551234567",
        "roleId": 1, "password": "Secret-123!", "confirmPassword": "Secret-123!"
    })
}

#[tokio::test]
async fn create_user_and_read_it_back() {
    let app = test_app();
    let admin = app.admin().await;
    let created =
        app.call(Method::POST, "/api/user/register", Some(&admin.token), Some(new_user("leyla@perk.az"))).await;
    created.expect(201);
    let row = created.json();
    assert_eq!(row["email"], "leyla@perk.az");
    assert_eq!(row["isActive"], true);
    assert!(row.get("password").is_none() && row.get("passwordHash").is_none());
    let detail = app.get(&format!("/api/user/{}", row["id"]), &admin.token).await;
    detail.expect(200);
    assert_eq!(detail.json()["phone"], "994551234567");
    assert_eq!(detail.json()["roleName"], "User");
    let dup = app.call(Method::POST, "/api/user/register", Some(&admin.token), Some(new_user("LEYLA@perk.az"))).await;
    dup.expect_message(409, "A user with this e-mail already exists.");
    assert_eq!(dup.json()["errors"]["email"], "A user with this e-mail already exists.", "the form can mark the field");
}

#[tokio::test]
async fn create_user_validation_messages() {
    let app = test_app();
    let admin = app.admin().await;
    let cases: &[(&str, Value, &str)] = &[
        ("firstName", json!(""), "Firstname is required"),
        ("lastName", json!(""), "Lastname is required"),
        ("email", json!(""), "Email is required"),
        ("email", json!("leyla"), "Wrong email format. E.g. name@example.com"),
        ("email", json!(format!("{}@perk.az", "l".repeat(45))), "Maximum 50 symbols"),
        ("phone", json!("0501234567"), "Wrong phone format. E.g. 994501234567"),
        ("password", json!(""), "Password is required"),
        (
            "password",
            json!("secret123"),
            "Password must consist of an uppercase letter, a lowercase letter, a number and a character.",
        ),
        ("confirmPassword", json!(""), "Confirm Password is required"),
        ("confirmPassword", json!("Secret-124!"), "Both password need to be the same"),
        ("roleId", json!(7), "Role must be Admin, User or Call Center"),
    ];
    for (field, value, message) in cases {
        let mut body = new_user("leyla@perk.az");
        body[*field] = value.clone();
        let response = app.call(Method::POST, "/api/user/register", Some(&admin.token), Some(body)).await;
        response.expect(400);
        assert_eq!(response.json()["errors"][*field], *message, "{field} = {value}");
    }
    assert_eq!(app.count("SELECT COUNT(*) FROM users"), 1, "nothing was written");
}

#[tokio::test]
async fn edit_user() {
    let app = test_app();
    let admin = app.admin().await;
    let (id, _) = app.insert_user("rashad@perk.az", 1);
    let edit = |body: Value| app.call(Method::PUT, "/api/user", Some(&admin.token), Some(body));
    let body = json!({"id": id, "firstName": "Rəşad", "lastName": "Əliyev", "email": "rashad@perk.az", "phone": "994701112233", "roleId": 2});
    let edited = edit(body.clone()).await;
    edited.expect(200);
    assert_eq!(edited.json()["firstName"], "Rəşad");
    assert_eq!(edited.json()["roleId"], 2);
    for (field, value, message) in [
        ("firstName", json!(" "), "Firstname is required"),
        ("lastName", json!(""), "Lastname is required"),
        ("phone", json!(""), "Phone number is required"),
        ("email", json!("x@"), "Wrong email format. E.g. name@example.com"),
    ] {
        let mut invalid = body.clone();
        invalid[field] = value;
        edit(invalid).await.expect_message(400, message);
    }
    let mut missing = body.clone();
    missing["id"] = json!(999);
    edit(missing).await.expect_message(404, "User not found.");
    let mut taken = body.clone();
    taken["email"] = json!("admin@perk.az");
    edit(taken).await.expect_message(409, "A user with this e-mail already exists.");
    let own = json!({"id": admin.id, "firstName": "A", "lastName": "B", "email": "admin@perk.az", "phone": "994501234567", "roleId": 1});
    edit(own).await.expect_message(409, "You cannot change your own role.");
}

#[tokio::test]
async fn toggle_active_and_sessions_end_on_deactivation() {
    let app = test_app();
    let admin = app.admin().await;
    let user = app.user_with_role("rashad@perk.az", 0).await;
    let toggle = |id: i64, active: bool| {
        app.call(Method::PATCH, "/api/user/active", Some(&admin.token), Some(json!({"id": id, "isActive": active})))
    };
    let off = toggle(user.id, false).await;
    off.expect(200);
    assert_eq!(off.json(), json!({"id": user.id, "isActive": false}));
    app.get("/api/auth/profile", &user.token).await.expect(401);
    let otp = app.otp_for("rashad@perk.az");
    app.sign_in_raw("rashad@perk.az", PASSWORD, &otp).await.expect(403);
    toggle(user.id, true).await.expect(200);
    app.sign_in("rashad@perk.az").await;
    toggle(999, false).await.expect_message(404, "User not found.");
    toggle(admin.id, false).await.expect_message(409, "You cannot deactivate your own account.");
}

#[tokio::test]
async fn delete_users_one_or_many_with_safe_repeats() {
    let app = test_app();
    let admin = app.admin().await;
    let victim = app.user_with_role("victim@perk.az", 1).await;
    let (second, _) = app.insert_user("second@perk.az", 1);
    let remove = async |body: Value, request_id: &str| {
        let headers: Vec<(&str, &str)> = if request_id.is_empty() { vec![] } else { vec![("x-requestid", request_id)] };
        app.call_with(Method::DELETE, "/api/user", Some(&admin.token), Some(body), &headers).await
    };
    let first = remove(json!({"id": [victim.id, second]}), "del-1").await;
    first.expect(200);
    assert_eq!(first.json()["deleted"], 2);
    let repeat = remove(json!({"id": [victim.id, second]}), "del-1").await;
    repeat.expect(200);
    assert_eq!(repeat.json(), first.json());
    assert_eq!(repeat.headers["x-idempotent-replay"], "true");
    remove(json!({"id": [second]}), "del-1")
        .await
        .expect_message(422, "This x-requestid was already used for a different request.");
    remove(json!({"id": [victim.id]}), "").await.expect_message(404, "User not found.");
    remove(json!([]), "").await.expect_message(400, "Select at least one record to delete.");
    remove(json!({"id": [admin.id]}), "").await.expect_message(409, "You cannot delete your own account.");
    app.get("/api/auth/profile", &victim.token).await.expect(401);
    let list = app.get("/api/user?Skip=0&Take=10", &admin.token).await;
    assert_eq!(list.json()["totalCount"], 1);
    assert_eq!(app.count("SELECT COUNT(*) FROM users WHERE deleted_at IS NOT NULL"), 2, "soft deleted, not erased");
    // The e-mail of a deleted user may be used again.
    app.call(Method::POST, "/api/user/register", Some(&admin.token), Some(new_user("victim@perk.az")))
        .await
        .expect(201);
}

#[tokio::test]
async fn a_repeated_create_is_done_once() {
    let app = test_app();
    let admin = app.admin().await;
    let headers = [("x-requestid", "create-1")];
    let first = app
        .call_with(Method::POST, "/api/user/register", Some(&admin.token), Some(new_user("l@perk.az")), &headers)
        .await;
    first.expect(201);
    let again = app
        .call_with(Method::POST, "/api/user/register", Some(&admin.token), Some(new_user("l@perk.az")), &headers)
        .await;
    again.expect(201);
    // The same user, without the recovery codes: a secret is shown once (tests/secrets.rs).
    let mut shown_once = first.json();
    shown_once.as_object_mut().unwrap().remove("recoveryCodes");
    assert_eq!(again.json(), shown_once);
    assert_eq!(app.count("SELECT COUNT(*) FROM users WHERE email = 'l@perk.az'"), 1);
    // A failed attempt is not remembered: correcting the form with the same id works.
    let mut invalid = new_user("m@perk.az");
    invalid["firstName"] = json!("");
    let headers = [("x-requestid", "create-2")];
    app.call_with(Method::POST, "/api/user/register", Some(&admin.token), Some(invalid), &headers).await.expect(400);
    app.call_with(Method::POST, "/api/user/register", Some(&admin.token), Some(new_user("m@perk.az")), &headers)
        .await
        .expect(201);
}

#[tokio::test]
async fn change_own_password() {
    let app = test_app();
    let user = app.user_with_role("rashad@perk.az", 2).await;
    let other_session = app.sign_in("rashad@perk.az").await;
    let change = |body: Value| app.call(Method::PUT, "/api/user/changePassword", Some(&user.token), Some(body));
    for (body, message) in [
        (json!({"newPassword": "newpass1", "newPasswordConfirm": "newpass1"}), "Old password is required"),
        (json!({"oldPassword": PASSWORD, "newPasswordConfirm": "newpass1"}), "New password is required"),
        (
            json!({"oldPassword": PASSWORD, "newPassword": "12345678", "newPasswordConfirm": "12345678"}),
            "Password must consist of a letter, a number.",
        ),
        (json!({"oldPassword": PASSWORD, "newPassword": "newpass1"}), "Confirm password is required"),
        (
            json!({"oldPassword": PASSWORD, "newPassword": "newpass1", "newPasswordConfirm": "newpass2"}),
            "Both new password need to be the same",
        ),
    ] {
        change(body).await.expect_message(400, message);
    }
    let wrong = json!({"oldPassword": "Wrong-123!", "newPassword": "newpass1", "newPasswordConfirm": "newpass1"});
    let refused = change(wrong).await;
    refused.expect_message(403, "Old password is incorrect.");
    assert_eq!(refused.json()["errors"]["oldPassword"], "Old password is incorrect.");
    change(json!({"oldPassword": PASSWORD, "newPassword": "newpass1", "newPasswordConfirm": "newpass1"}))
        .await
        .expect(200);
    app.get("/api/auth/profile", &user.token).await.expect(200);
    app.get("/api/auth/profile", &other_session.token).await.expect(401);
    let otp = app.otp_for("rashad@perk.az");
    app.sign_in_raw("rashad@perk.az", "newpass1", &otp).await.expect(200);
}

#[tokio::test]
async fn admin_changes_another_users_password() {
    let app = test_app();
    let admin = app.admin().await;
    let user = app.user_with_role("rashad@perk.az", 1).await;
    let change = async |token: &str, body: Value| {
        app.call(Method::PUT, "/api/user/changePassword", Some(token), Some(body)).await
    };
    let valid =
        json!({"id": user.id, "oldPassword": PASSWORD, "newPassword": "changed12", "newPasswordConfirm": "changed12"});
    change(
        &user.token,
        json!({"id": admin.id, "oldPassword": PASSWORD, "newPassword": "changed12", "newPasswordConfirm": "changed12"}),
    )
    .await
    .expect_message(403, "You do not have permission to do this.");
    for (field, value, message) in [
        ("oldPassword", "", "Password is required"),
        ("newPassword", "", "Password is required"),
        ("newPassword", "abcdefgh", "Password must consist of a number."),
        ("newPasswordConfirm", "", "Confirm Password is required"),
        ("newPasswordConfirm", "changed13", "Both password need to be the same"),
    ] {
        let mut body = valid.clone();
        body[field] = json!(value);
        change(&admin.token, body).await.expect_message(400, message);
    }
    let mut wrong = valid.clone();
    wrong["oldPassword"] = json!("Wrong-123!");
    change(&admin.token, wrong).await.expect_message(403, "Your password is incorrect.");
    let mut missing = valid.clone();
    missing["id"] = json!(999);
    change(&admin.token, missing).await.expect_message(404, "User not found.");
    change(&admin.token, valid).await.expect(200);
    app.get("/api/auth/profile", &user.token).await.expect(401);
    app.get("/api/auth/profile", &admin.token).await.expect(200);
    let otp = app.otp_for("rashad@perk.az");
    app.sign_in_raw("rashad@perk.az", "changed12", &otp).await.expect(200);
}

#[tokio::test]
async fn qr_code_is_a_png_data_url() {
    let app = test_app();
    let admin = app.admin().await;
    let user = app.user_with_role("rashad@perk.az", 1).await;
    let qr = app.get(&format!("/api/user/get-qr?id={}", user.id), &admin.token).await;
    qr.expect(200);
    assert!(qr.json()["data"].as_str().unwrap().starts_with("data:image/png;base64,iVBOR"));
    app.get("/api/user/get-qr?id=999", &admin.token).await.expect_message(404, "User not found.");
    app.get("/api/user/get-qr", &admin.token).await.expect_message(400, "id is required");
    app.get(&format!("/api/user/get-qr?id={}", admin.id), &user.token).await.expect(403);
}

#[tokio::test]
async fn roles_guard_every_users_call() {
    let app = test_app();
    let admin = app.admin().await;
    let user = app.user_with_role("user@perk.az", 1).await;
    let call_center = app.user_with_role("cc@perk.az", 2).await;
    let calls: Vec<(Method, String, Option<Value>)> = vec![
        (Method::GET, "/api/user?Skip=0&Take=10".into(), None),
        (Method::GET, "/api/user/filter?FirstName=Test".into(), None),
        (Method::GET, format!("/api/user/{}", admin.id), None),
        (Method::GET, "/api/user/export".into(), None),
        (Method::POST, "/api/user/register".into(), Some(new_user("x@perk.az"))),
        (Method::PUT, "/api/user".into(), Some(json!({"id": admin.id}))),
        (Method::PATCH, "/api/user/active".into(), Some(json!({"id": admin.id, "isActive": false}))),
        (Method::DELETE, "/api/user".into(), Some(json!({"id": [admin.id]}))),
    ];
    for (method, path, body) in calls {
        app.call(method.clone(), &path, None, body.clone()).await.expect(401);
        for token in [&user.token, &call_center.token] {
            app.call(method.clone(), &path, Some(token), body.clone())
                .await
                .expect_message(403, "You do not have permission to do this.");
        }
    }
    app.get(&format!("/api/user/get-qr?id={}", admin.id), &call_center.token).await.expect(403);
    // Everyone may change their own password and read their profile.
    app.get("/api/auth/profile", &call_center.token).await.expect(200);
}

#[tokio::test]
async fn export_is_a_workbook_of_the_filtered_rows() {
    let app = test_app();
    let admin = app.admin().await;
    app.insert_user("leyla@perk.az", 1);
    app.insert_user("tural@perk.az", 2);
    let all = app.get("/api/user/export", &admin.token).await;
    all.expect(200);
    assert_eq!(all.headers["content-disposition"], "attachment; filename=\"Users.xlsx\"");
    assert_eq!(all.headers["content-length"], all.bytes.len().to_string().as_str());
    let rows = workbook_rows(&all.bytes);
    assert_eq!(rows[0], ["First name", "Last name", "Email", "Phone number", "Role", "Active"]);
    assert_eq!(rows.len(), 4);
    let filtered = app.get("/api/user/export?RoleId=2", &admin.token).await;
    let rows = workbook_rows(&filtered.bytes);
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[1][2], "tural@perk.az");
    assert_eq!(rows[1][4], "Call Center");
}

#[tokio::test]
async fn an_admin_resets_another_users_authenticator_and_signs_them_out() {
    let app = test_app();
    let admin = app.admin().await;
    let user = app.user_with_role("rashad@perk.az", 1).await;
    let reset = |token: String, id: i64| {
        let app = &app;
        async move { app.call(Method::PUT, "/api/user/resetAuthenticator", Some(&token), Some(json!({"id": id}))).await }
    };
    reset(user.token.clone(), admin.id).await.expect_message(403, "You do not have permission to do this.");
    reset(admin.token.clone(), admin.id).await.expect_message(403, perkdesk::resources::users::RESET_OWN);
    reset(admin.token.clone(), 9999).await.expect(404);

    let old_code = perkdesk::auth::totp::current_code(&user.secret).unwrap();
    let answer = reset(admin.token.clone(), user.id).await;
    answer.expect(200);
    assert!(answer.json()["data"].as_str().unwrap().starts_with("data:image/png;base64,"));
    app.get("/api/auth/profile", &user.token).await.expect(401);
    let new_secret: String = app
        .state
        .db
        .conn()
        .unwrap()
        .query_row("SELECT totp_secret FROM users WHERE id = ?1", [user.id], |r| r.get(0))
        .unwrap();
    assert_ne!(new_secret, user.secret);
    // The key to read out by phone is the stored secret itself, in base32.
    assert_eq!(answer.json()["secret"], new_secret.as_str());
    assert!(new_secret.chars().all(|c| c.is_ascii_uppercase() || ('2'..='7').contains(&c) || c == '='));
    app.sign_in_raw("rashad@perk.az", PASSWORD, &old_code).await.expect(401);
    app.sign_in("rashad@perk.az").await;

    // On record as the Admin's authenticator reset, the secret only as changed.
    let history = app.get(&format!("/api/user/{}/history", user.id), &admin.token).await.json();
    let entry =
        history["data"].as_array().unwrap().iter().find(|e| e["action"] == "authenticatorReset").unwrap().clone();
    assert_eq!(entry["actorId"], admin.id);
    assert_eq!(entry["changes"], r#"{"totpSecret":"changed"}"#);
}
