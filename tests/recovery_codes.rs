//! Recovery codes: ten at each authenticator enrolment, stored as argon2id hashes; one signs in in
//! place of the six-digit code, once, and the account must then set up its authenticator again;
//! lockout as for codes; the own page's count, new set and new authenticator.

use crate::common;

use axum::http::Method;
use common::*;
use perkdesk::auth::totp;
use serde_json::{Value, json};

fn codes(answer: &Value) -> Vec<String> {
    answer["recoveryCodes"].as_array().unwrap().iter().map(|c| c.as_str().unwrap().to_string()).collect()
}

async fn with_code(app: &TestApp, email: &str, code: &str) -> Response {
    let body = json!({"userName": email, "password": PASSWORD, "recoveryCode": code});
    app.call(Method::POST, "/api/auth/admin/token", None, Some(body)).await
}

/// A user made on the Users screen, with the recovery codes its answer carries.
async fn new_user(app: &TestApp, admin: &TestUser, email: &str) -> Vec<String> {
    let body = json!({
        "firstName": "Nərmin", "lastName": "Qasımova", "email": email, "phone": "994501112233",
        "password": PASSWORD, "confirmPassword": PASSWORD, "roleId": 1
    });
    let created = app.call(Method::POST, "/api/user/register", Some(&admin.token), Some(body)).await;
    created.expect(201);
    assert_eq!(created.json()["email"], email, "the user's fields as before");
    codes(&created.json())
}

#[tokio::test]
async fn a_new_users_ten_codes_are_hashed_at_rest_and_each_signs_in_once_then_asks_for_a_new_authenticator() {
    let app = test_app();
    let admin = app.admin().await;
    let email = "nermin@perk.az";
    let codes = new_user(&app, &admin, email).await;
    assert_eq!(codes.len(), 10);
    assert_eq!(codes.iter().collect::<std::collections::HashSet<_>>().len(), 10);
    let conn = app.state.db.conn().unwrap();
    let stored: Vec<String> = conn
        .prepare("SELECT code_hash FROM recovery_codes r JOIN users u ON u.id = r.user_id WHERE u.email = ?1")
        .unwrap()
        .query_map([email], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(stored.len(), 10);
    for hash in &stored {
        assert!(hash.starts_with("$argon2id$"), "{hash}");
        assert!(codes.iter().all(|code| !hash.contains(code.as_str()) && !hash.contains(&code.replace('-', ""))));
    }

    // Signed in with a code instead of the six digits, typed loosely.
    let signed_in = with_code(&app, email, &codes[2].to_uppercase()).await;
    signed_in.expect(200);
    let token = signed_in.json()["token"].as_str().unwrap().to_string();
    let profile = app.get("/api/auth/profile", &token).await;
    assert_eq!(profile.json()["mustSetUpAuthenticator"], true);
    assert_eq!(app.get("/api/auth/recoveryCodes", &token).await.json(), json!({"left": 9}));
    // Once only.
    with_code(&app, email, &codes[2]).await.expect_message(401, "Invalid credentials.");
    // A code needs the right password too.
    let wrong = json!({"userName": email, "password": "Wrong-123!", "recoveryCode": codes[3]});
    app.call(Method::POST, "/api/auth/admin/token", None, Some(wrong)).await.expect(401);
    // Neither a code nor the six digits: the spec's message for the missing code.
    let neither = json!({"userName": email, "password": PASSWORD});
    app.call(Method::POST, "/api/auth/admin/token", None, Some(neither)).await.expect_message(400, "Otp is required");

    let log = app.get("/api/activity?Resource=user&Action=recoveryCodeUsed", &admin.token).await.json();
    assert_eq!(log["totalCount"], 1);
    assert_eq!(log["data"][0]["actorName"], "Nərmin Qasımova");
}

#[tokio::test]
async fn wrong_recovery_codes_lock_the_sign_in_as_wrong_six_digit_codes_do() {
    let app = test_app();
    let admin = app.admin().await;
    let email = "nermin@perk.az";
    let codes = new_user(&app, &admin, email).await;
    for _ in 0..4 {
        with_code(&app, email, "aaaaa-bbbbb").await.expect(401);
    }
    with_code(&app, email, "aaaaa-bbbbb").await.expect(423);
    with_code(&app, email, &codes[0]).await.expect(423);
    assert_eq!(app.count("SELECT COUNT(*) FROM recovery_codes WHERE used_at IS NOT NULL"), 0, "no code was spent");
}

#[tokio::test]
async fn the_own_page_counts_the_codes_makes_a_new_set_and_sets_up_a_new_authenticator() {
    let app = test_app();
    let admin = app.admin().await;
    let email = "nermin@perk.az";
    let first = new_user(&app, &admin, email).await;
    let recovered = with_code(&app, email, &first[0]).await.json();
    let token = recovered["token"].as_str().unwrap().to_string();
    let call = |method: Method, path: &'static str, body: Option<Value>| {
        let (app, token) = (&app, token.clone());
        async move { app.call(method, path, Some(&token), body).await }
    };

    // A new set asks for the password; the old codes stop working.
    let refused = call(Method::POST, "/api/auth/recoveryCodes", Some(json!({"password": "Wrong-123!"}))).await;
    refused.expect_message(403, "The password is not correct.");
    assert_eq!(refused.json()["errors"]["password"], "The password is not correct.");
    let second =
        codes(&call(Method::POST, "/api/auth/recoveryCodes", Some(json!({"password": PASSWORD}))).await.json());
    assert_eq!(second.len(), 10);
    assert_eq!(call(Method::GET, "/api/auth/recoveryCodes", None).await.json(), json!({"left": 10}));
    with_code(&app, email, &first[1]).await.expect(401);

    // A new authenticator: nothing started yet, then a wrong code, then the code from the new secret.
    call(Method::PUT, "/api/auth/authenticator", Some(json!({"otp": "123456"})))
        .await
        .expect_message(409, "Start setting up the authenticator first.");
    let other_session = with_code(&app, email, &second[0]).await.json()["token"].as_str().unwrap().to_string();
    let setup = call(Method::POST, "/api/auth/authenticator", Some(json!({"password": PASSWORD}))).await;
    setup.expect(200);
    assert!(setup.json()["data"].as_str().unwrap().starts_with("data:image/png;base64,"));
    let secret = setup.json()["secret"].as_str().unwrap().to_string();
    let wrong = call(Method::PUT, "/api/auth/authenticator", Some(json!({"otp": "000000"}))).await;
    wrong.expect(403);
    assert!(wrong.json()["errors"]["otp"].is_string());
    let code = totp::current_code(&secret).unwrap();
    let done = call(Method::PUT, "/api/auth/authenticator", Some(json!({"otp": code}))).await;
    done.expect(200);
    let third = codes(&done.json());
    assert_eq!(third.len(), 10);
    assert_eq!(call(Method::GET, "/api/auth/profile", None).await.json()["mustSetUpAuthenticator"], false);
    app.get("/api/auth/profile", &other_session).await.expect(401);
    with_code(&app, email, &second[1]).await.expect(401);
    let stored: String = app
        .state
        .db
        .conn()
        .unwrap()
        .query_row("SELECT totp_secret FROM users WHERE email = ?1", [email], |r| r.get(0))
        .unwrap();
    assert_eq!(stored, secret);
    let history = app.get("/api/activity?Resource=user&Action=authenticatorReset", &admin.token).await.json();
    let changes: Value = serde_json::from_str(history["data"][0]["changes"].as_str().unwrap()).unwrap();
    assert_eq!(changes, json!({"totpSecret": "changed", "mustSetUpAuthenticator": [1, 0]}), "the secret never");
    // The set-up is the signed-in user's own.
    app.call(Method::GET, "/api/auth/recoveryCodes", None, None).await.expect(401);
}

#[tokio::test]
async fn an_admins_reset_gives_a_new_set_and_the_old_codes_stop_working() {
    let app = test_app();
    let admin = app.admin().await;
    let email = "nermin@perk.az";
    let first = new_user(&app, &admin, email).await;
    let id = app.count("SELECT id FROM users WHERE email = 'nermin@perk.az'");
    let reset =
        app.call(Method::PUT, "/api/user/resetAuthenticator", Some(&admin.token), Some(json!({"id": id}))).await;
    reset.expect(200);
    let fresh = codes(&reset.json());
    assert_eq!(fresh.len(), 10);
    with_code(&app, email, &first[0]).await.expect(401);
    with_code(&app, email, &fresh[0]).await.expect(200);
}

#[tokio::test]
async fn until_the_authenticator_is_set_up_only_the_own_security_calls_answer() {
    let app = test_app();
    let admin = app.admin().await;
    let email = "aynur@perk.az";
    let first = new_user(&app, &admin, email).await;
    let token = with_code(&app, email, &first[0]).await.json()["token"].as_str().unwrap().to_string();
    let call = |method: Method, path: &'static str, body: Option<Value>| {
        let (app, token) = (&app, token.clone());
        async move { app.call(method, path, Some(&token), body).await }
    };
    // Everything else says what to do first.
    for (method, path) in [
        (Method::GET, "/api/user?Skip=0&Take=10"),
        (Method::GET, "/api/asset?Skip=0&Take=10"),
        (Method::GET, "/api/complaint/unreadCount"),
        (Method::PUT, "/api/user/changePassword"),
    ] {
        call(method.clone(), path, Some(json!({})))
            .await
            .expect_message(403, perkdesk::auth::SET_UP_AUTHENTICATOR_FIRST);
    }
    // The profile, the codes and the set-up answer.
    assert_eq!(call(Method::GET, "/api/auth/profile", None).await.json()["mustSetUpAuthenticator"], true);
    call(Method::GET, "/api/auth/recoveryCodes", None).await.expect(200);
    let setup = call(Method::POST, "/api/auth/authenticator", Some(json!({"password": PASSWORD}))).await;
    let secret = setup.expect(200).json()["secret"].as_str().unwrap().to_string();
    let otp = totp::current_code(&secret).unwrap();
    let done = call(Method::PUT, "/api/auth/authenticator", Some(json!({"otp": otp}))).await;
    let new_codes = codes(&done.expect(200).json());
    // Set up: the session reaches what its role allows.
    call(Method::GET, "/api/asset?Skip=0&Take=10", None).await.expect(200);
    // Signing out is always open.
    let other = with_code(&app, email, &new_codes[0]).await;
    let other_token = other.json()["token"].as_str().unwrap().to_string();
    app.state
        .db
        .conn()
        .unwrap()
        .execute("UPDATE users SET must_set_up_authenticator = 1 WHERE email = ?1", [email])
        .unwrap();
    app.call(Method::POST, "/api/auth/logout", Some(&other_token), None).await.expect(204);
}

#[tokio::test]
async fn the_sign_in_document_takes_a_recovery_code_in_place_of_the_six_digits() {
    let app = test_app();
    let document = app.call(Method::GET, "/api/openapi.json", None, None).await.json();
    let body =
        &document["paths"]["/api/auth/admin/token"]["post"]["requestBody"]["content"]["application/json"]["schema"];
    assert_eq!(body["required"], json!(["userName", "password"]));
    let choices = body["anyOf"].as_array().unwrap();
    let required: Vec<&Value> = choices.iter().map(|choice| &choice["required"]).collect();
    assert_eq!(required, [&json!(["otp"]), &json!(["recoveryCode"])]);
    // The one given is not blank; either may be blank beside the other.
    for (choice, field) in choices.iter().zip(["otp", "recoveryCode"]) {
        assert_eq!(choice["properties"][field]["pattern"], perkdesk::core::patterns::NOT_BLANK);
        assert_eq!(body["properties"][field]["pattern"], perkdesk::core::patterns::TEXT);
    }
}
