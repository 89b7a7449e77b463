//! Sign-in, session, lockout, throttling, registration and password reset through the router.

use crate::common;

use axum::http::Method;
use common::*;
use serde_json::json;

#[tokio::test]
async fn sign_in_returns_tokens_and_profile_follows() {
    let app = test_app();
    app.insert_user("aysel@perk.az", 0);
    let otp = app.otp_for("aysel@perk.az");
    let response = app.sign_in_raw("  AYSEL@perk.az ", PASSWORD, &otp).await;
    response.expect(200);
    let body = response.json();
    assert!(body["token"].as_str().unwrap().split('.').count() == 3);
    assert!(body["refreshToken"].as_str().unwrap().len() >= 40);
    assert!(body["expiresAt"].as_str().unwrap().ends_with('Z'));
    let profile = app.get("/api/auth/profile", body["token"].as_str().unwrap()).await;
    profile.expect(200);
    let profile = profile.json();
    assert_eq!(profile["email"], "aysel@perk.az");
    assert_eq!(profile["roleId"], 0);
    assert!(profile.get("passwordHash").is_none() && profile.get("totpSecret").is_none());
}

#[tokio::test]
async fn sign_in_validation_messages() {
    let app = test_app();
    let response = app.call(Method::POST, "/api/auth/admin/token", None, Some(json!({}))).await;
    response.expect_message(400, "Email is required");
    let errors = &response.json()["errors"];
    assert_eq!(errors["password"], "Required field");
    assert_eq!(errors["otp"], "Otp is required");
    app.call(Method::POST, "/api/auth/admin/token", None, Some(json!({"userName": "a@b.az"})))
        .await
        .expect_message(400, "Required field");
    app.call(Method::POST, "/api/auth/admin/token", None, Some(json!({"userName": "a@b.az", "password": "x"})))
        .await
        .expect_message(400, "Otp is required");
    let bad_json = app
        .send(
            axum::http::Request::post("/api/auth/admin/token")
                .header("content-type", "application/json")
                .body(axum::body::Body::from("{not json"))
                .unwrap(),
        )
        .await;
    bad_json.expect(400);
    assert!(bad_json.message().starts_with("The request body is not valid"));
}

#[tokio::test]
async fn wrong_password_wrong_code_and_unknown_email_are_the_same_401() {
    let app = test_app();
    app.insert_user("aysel@perk.az", 0);
    let otp = app.otp_for("aysel@perk.az");
    app.sign_in_raw("aysel@perk.az", "Wrong-123!", &otp).await.expect_message(401, "Invalid credentials.");
    app.sign_in_raw("aysel@perk.az", PASSWORD, "000000").await.expect_message(401, "Invalid credentials.");
    app.sign_in_raw("nobody@perk.az", PASSWORD, &otp).await.expect_message(401, "Invalid credentials.");
}

#[tokio::test]
async fn a_code_is_accepted_only_once() {
    let app = test_app();
    app.insert_user("aysel@perk.az", 0);
    let otp = app.otp_for("aysel@perk.az");
    app.sign_in_raw("aysel@perk.az", PASSWORD, &otp).await.expect(200);
    app.sign_in_raw("aysel@perk.az", PASSWORD, &otp).await.expect_message(401, "Invalid credentials.");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_code_sent_by_several_sign_ins_at_once_signs_in_one() {
    let app = test_app();
    app.insert_user("aysel@perk.az", 0);
    let otp = app.otp_for("aysel@perk.az");
    let attempts = (0..4).map(|_| app.sign_in_raw("aysel@perk.az", PASSWORD, &otp));
    let statuses: Vec<u16> = futures_util::future::join_all(attempts).await.iter().map(|r| r.status.as_u16()).collect();
    assert_eq!(statuses.iter().filter(|s| **s == 200).count(), 1, "{statuses:?}");
    assert_eq!(statuses.iter().filter(|s| **s == 401).count(), 3, "{statuses:?}");
}

#[tokio::test]
async fn five_failures_lock_the_account_even_for_correct_credentials() {
    let app = test_app();
    app.insert_user("aysel@perk.az", 0);
    for attempt in 1..=4 {
        let response = app.sign_in_raw("aysel@perk.az", "Wrong-123!", "123456").await;
        assert_eq!(response.status.as_u16(), 401, "attempt {attempt}");
    }
    app.sign_in_raw("aysel@perk.az", "Wrong-123!", "123456").await.expect_message(423, "You are locked.");
    let otp = app.otp_for("aysel@perk.az");
    app.sign_in_raw("aysel@perk.az", PASSWORD, &otp).await.expect_message(423, "You are locked.");
    // The lock lifts after its 15 minutes.
    app.state.db.conn().unwrap().execute("UPDATE sign_in_locks SET until = '2000-01-01T00:00:00.000Z'", []).unwrap();
    app.sign_in_raw("aysel@perk.az", PASSWORD, &otp).await.expect(200);
}

#[tokio::test]
async fn sign_in_attempts_are_throttled_per_address() {
    let app = test_app_with(perkdesk::http::state::Settings { sign_in_per_minute: 3, ..settings() });
    for _ in 0..3 {
        app.sign_in_raw("nobody@perk.az", PASSWORD, "123456").await.expect(401);
    }
    let throttled = app.sign_in_raw("nobody@perk.az", PASSWORD, "123456").await;
    throttled.expect(429);
    assert!(throttled.message().starts_with("Too many attempts"));
    assert!(throttled.headers.contains_key("retry-after"));
}

/// A failed sign-in sent through a balancer that says it came from `forwarded_for`.
async fn sign_in_through(app: &TestApp, forwarded_for: &str) -> u16 {
    let body = json!({"userName": "nobody@perk.az", "password": PASSWORD, "otp": "123456"});
    let headers = [("x-forwarded-for", forwarded_for)];
    app.call_with(Method::POST, "/api/auth/admin/token", None, Some(body), &headers).await.status.as_u16()
}

/// Behind a trusted balancer each client keeps its own quota (read from X-Forwarded-For); the
/// header from anyone else is not believed.
#[tokio::test]
async fn behind_a_trusted_balancer_each_client_address_has_its_own_quota() {
    let loopback = "127.0.0.1".parse().unwrap();
    let behind =
        perkdesk::http::state::Settings { sign_in_per_minute: 2, trusted_proxies: vec![loopback], ..settings() };
    let app = test_app_with(behind);
    assert_eq!(sign_in_through(&app, "203.0.113.1").await, 401);
    assert_eq!(sign_in_through(&app, "203.0.113.1").await, 401);
    assert_eq!(sign_in_through(&app, "203.0.113.1").await, 429);
    assert_eq!(sign_in_through(&app, "203.0.113.2").await, 401, "another client behind the same balancer");
    // What a client writes to the left of the balancer's entry changes nothing.
    assert_eq!(sign_in_through(&app, "203.0.113.2, 203.0.113.1").await, 429);

    // Not a trusted proxy: the header is ignored, every request is the peer's.
    let direct = test_app_with(perkdesk::http::state::Settings { sign_in_per_minute: 2, ..settings() });
    assert_eq!(sign_in_through(&direct, "203.0.113.1").await, 401);
    assert_eq!(sign_in_through(&direct, "203.0.113.2").await, 401);
    assert_eq!(sign_in_through(&direct, "203.0.113.3").await, 429);
}

#[tokio::test]
async fn refresh_rotates_and_a_reused_token_ends_the_session() {
    let app = test_app();
    let admin = app.admin().await;
    let refresh = |token: &str| {
        let body = json!({"refreshToken": token});
        app.call(Method::POST, "/api/auth/refreshToken", None, Some(body))
    };
    let first = refresh(&admin.refresh_token).await;
    first.expect(200);
    let rotated = first.json();
    assert_ne!(rotated["refreshToken"], admin.refresh_token.as_str());
    let new_access = rotated["token"].as_str().unwrap().to_string();
    app.get("/api/auth/profile", &new_access).await.expect(200);
    // The same exchange again within seconds (a second tab, a retried request) gets the same pair.
    let again = refresh(&admin.refresh_token).await;
    again.expect(200);
    assert_eq!(again.json(), rotated);
    app.get("/api/auth/profile", &new_access).await.expect(200);
    // The spent token comes back after the grace window: the whole session ends, including the
    // fresh access token.
    app.state
        .db
        .conn()
        .unwrap()
        .execute("UPDATE refresh_tokens SET used_at = '2000-01-01T00:00:00.000Z' WHERE used_at IS NOT NULL", [])
        .unwrap();
    refresh(&admin.refresh_token).await.expect_message(401, "Your session has ended. Sign in again.");
    app.get("/api/auth/profile", &new_access).await.expect(401);
    refresh(rotated["refreshToken"].as_str().unwrap()).await.expect(401);
    refresh("").await.expect_message(400, "Refresh token is required");
    refresh("made-up").await.expect(401);
}

#[tokio::test]
async fn logout_revokes_the_session_at_once() {
    let app = test_app();
    let admin = app.admin().await;
    let body = json!({"refreshToken": admin.refresh_token});
    app.call(Method::POST, "/api/auth/logout", Some(&admin.token), Some(body.clone())).await.expect(204);
    app.get("/api/auth/profile", &admin.token).await.expect_message(401, "Your session has ended. Sign in again.");
    app.call(Method::POST, "/api/auth/refreshToken", None, Some(body)).await.expect(401);
}

#[tokio::test]
async fn bad_tokens_are_401() {
    let app = test_app();
    let admin = app.admin().await;
    app.call(Method::GET, "/api/auth/profile", None, None).await.expect_message(401, "Sign in to continue.");
    let mut tampered = admin.token.clone();
    tampered.insert(tampered.len() - 2, 'x');
    app.get("/api/auth/profile", &tampered).await.expect(401);
    let payload = admin.token.split('.').nth(1).unwrap();
    app.get("/api/auth/profile", &format!("eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.{payload}.")).await.expect(401);
}

#[tokio::test]
async fn registration_is_closed_unless_enabled() {
    let app = test_app();
    let body = json!({"email": "new@perk.az", "fullname": "New Person", "username": "newbie", "password": "abc123"});
    app.call(Method::POST, "/api/auth/register", None, Some(body))
        .await
        .expect_message(403, "Registration is closed. Ask an administrator for an account.");
    let settings = app.call(Method::GET, "/api/auth/settings", None, None).await;
    assert_eq!(settings.json()["allowRegistration"], false);
}

#[tokio::test]
async fn registration_creates_an_inactive_account() {
    let app = test_app_with(perkdesk::http::state::Settings { allow_registration: true, ..settings() });
    let register = |body| app.call(Method::POST, "/api/auth/register", None, Some(body));
    register(json!({})).await.expect(400);
    register(json!({"email": "bad", "fullname": "Ne", "username": "nb", "password": "ab"}))
        .await
        .expect_message(400, "Minimum 3 symbols");
    let invalid =
        register(json!({"email": "bad", "fullname": "New Person", "username": "newbie", "password": "abc"})).await;
    invalid.expect_message(400, "Wrong email format");
    let body = json!({"email": "new@perk.az", "fullname": "New Person", "username": "newbie", "password": "abc123"});
    register(body.clone()).await.expect(201);
    register(body).await.expect_message(409, "A user with this e-mail already exists.");
    let (active, role, first, last): (bool, i64, String, String) = app
        .state
        .db
        .conn()
        .unwrap()
        .query_row("SELECT is_active, role_id, first_name, last_name FROM users WHERE email = 'new@perk.az'", [], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
        })
        .unwrap();
    assert_eq!((active, role, first.as_str(), last.as_str()), (false, 1, "New", "Person"));
    let otp = app.otp_for("new@perk.az");
    app.sign_in_raw("new@perk.az", "abc123", &otp)
        .await
        .expect_message(403, "Your account is not active yet. Ask an administrator to activate it.");
}

#[tokio::test]
async fn password_reset_by_link() {
    let app = test_app();
    let admin = app.admin().await;
    let ask = |email: &str| {
        let body = json!({"email": email});
        app.call(Method::PUT, "/api/auth/reset-password", None, Some(body))
    };
    ask("nobody@perk.az").await.expect(200);
    assert!(app.outbox.lock().unwrap().is_empty(), "no mail for an unknown address");
    ask("nope").await.expect_message(400, "Wrong email format. E.g. name@example.com");
    let answer = ask("admin@perk.az").await;
    answer.expect_message(200, "If the e-mail belongs to an account, a reset link has been sent to it.");
    let mail = app.outbox.lock().unwrap().pop().unwrap();
    assert_eq!(mail.to, "admin@perk.az");
    let token = mail.body.split("token=").nth(1).unwrap().split_whitespace().next().unwrap().to_string();
    assert!(mail.body.contains("http://perkdesk.test/auth/reset-password?token="));

    let confirm = |body| app.call(Method::POST, "/api/auth/reset-password/confirm", None, Some(body));
    confirm(json!({"token": token, "newPassword": "short", "newPasswordConfirm": "short"}))
        .await
        .expect_message(400, "Password must consist of a letter, a number.");
    confirm(json!({"token": token, "newPassword": "newpass123", "newPasswordConfirm": "newpass124"}))
        .await
        .expect_message(400, "Both new password need to be the same");
    confirm(json!({"token": "forged", "newPassword": "newpass123", "newPasswordConfirm": "newpass123"}))
        .await
        .expect_message(404, "This reset link is invalid or has expired. Ask for a new one.");
    confirm(json!({"token": token, "newPassword": "newpass123", "newPasswordConfirm": "newpass123"})).await.expect(200);
    confirm(json!({"token": token, "newPassword": "newpass123", "newPasswordConfirm": "newpass123"})).await.expect(404);
    app.get("/api/auth/profile", &admin.token).await.expect(401);
    let otp = app.otp_for("admin@perk.az");
    app.sign_in_raw("admin@perk.az", "newpass123", &otp).await.expect(200);
    // The spec's alias for the request.
    app.call(Method::POST, "/api/user/forgotPassword", None, Some(json!({"email": "admin@perk.az"}))).await.expect(200);
}

#[tokio::test]
async fn reset_links_are_limited_per_account_and_the_answer_never_changes() {
    let app = test_app();
    app.insert_user("admin@perk.az", 0);
    // Requests from many addresses (the router test has one; the limit is per account anyway).
    for _ in 0..5 {
        let body = json!({"email": "admin@perk.az"});
        app.call(Method::PUT, "/api/auth/reset-password", None, Some(body))
            .await
            .expect_message(200, "If the e-mail belongs to an account, a reset link has been sent to it.");
    }
    assert_eq!(app.outbox.lock().unwrap().len(), 3, "three links an hour for one account");
    assert_eq!(app.count("SELECT COUNT(*) FROM password_resets"), 3);
}

/// A sign-in from the client address `from` (the connection's peer, as the listener gives it).
async fn sign_in_from(app: &TestApp, from: &str, email: &str, password: &str, otp: &str) -> Response {
    let peer: std::net::SocketAddr = format!("{from}:40000").parse().unwrap();
    let body = json!({"userName": email, "password": password, "otp": otp});
    let request = axum::http::Request::post("/api/auth/admin/token")
        .header("content-type", "application/json")
        .extension(axum::extract::ConnectInfo(peer))
        .body(axum::body::Body::from(body.to_string()))
        .unwrap();
    app.send(request).await
}

#[tokio::test]
async fn a_lockout_from_one_address_does_not_lock_the_owner_out_from_another() {
    let app = test_app();
    app.insert_user("aysel@perk.az", 0);
    let attacker = "198.51.100.7";
    for _ in 1..=4 {
        sign_in_from(&app, attacker, "aysel@perk.az", "Wrong-123!", "123456").await.expect(401);
    }
    sign_in_from(&app, attacker, "aysel@perk.az", "Wrong-123!", "123456").await.expect_message(423, "You are locked.");
    let otp = app.otp_for("aysel@perk.az");
    sign_in_from(&app, attacker, "aysel@perk.az", PASSWORD, &otp).await.expect_message(423, "You are locked.");
    // The owner, elsewhere, signs in; and the lock stays on the attacker's address.
    sign_in_from(&app, "203.0.113.20", "aysel@perk.az", PASSWORD, &otp).await.expect(200);
    let next = app.otp_for("aysel@perk.az");
    sign_in_from(&app, attacker, "aysel@perk.az", PASSWORD, &next).await.expect_message(423, "You are locked.");
}

#[tokio::test]
async fn a_guess_spread_over_addresses_is_throttled_but_never_for_the_owners_own_address() {
    let app = test_app();
    app.insert_user("aysel@perk.az", 0);
    let own = "203.0.113.20";
    let otp = app.otp_for("aysel@perk.az");
    sign_in_from(&app, own, "aysel@perk.az", PASSWORD, &otp).await.expect(200);
    // Twenty failures from twenty addresses (four each would not lock any of them).
    for n in 0..20 {
        let from = format!("198.51.100.{}", n % 5 + 1);
        sign_in_from(&app, &from, "aysel@perk.az", "Wrong-123!", "123456").await.expect(401);
    }
    // A new address now waits half a minute after the latest failure, whatever it sends.
    let throttled = sign_in_from(&app, "192.0.2.99", "aysel@perk.az", PASSWORD, "000000").await;
    throttled.expect(429);
    assert!(throttled.message().starts_with("Too many failed sign-ins for this account. Try again in"));
    let wait: u64 = throttled.headers["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((1..=30).contains(&wait), "{wait}");
    // The same for an e-mail no account has: nothing tells which e-mails are accounts.
    for n in 0..20 {
        let from = format!("198.51.100.{}", n % 5 + 1);
        sign_in_from(&app, &from, "nobody@perk.az", "Wrong-123!", "123456").await.expect(401);
    }
    sign_in_from(&app, "192.0.2.99", "nobody@perk.az", PASSWORD, "000000").await.expect(429);
    // The owner's own address is never throttled.
    let next = app.otp_for("aysel@perk.az");
    let own_again = sign_in_from(&app, own, "aysel@perk.az", PASSWORD, &next).await;
    assert_ne!(own_again.status.as_u16(), 429, "{}", own_again.message());
    // Half a minute after the latest failure, a new address may try once more.
    app.state
        .db
        .conn()
        .unwrap()
        .execute("UPDATE sign_in_failures SET at = '2000-01-01T00:00:00.000Z' WHERE address <> ''", [])
        .unwrap();
    sign_in_from(&app, "192.0.2.99", "aysel@perk.az", "Wrong-123!", "123456").await.expect(401);
}

/// A list's caller is checked at every call. Where reads are round trips, a session checked before
/// is admitted by the list's gate on what that check found and checked again with the page, in the
/// same exchange (`auth::callers`): an ended session, a role the list does not admit and an
/// authenticator to set up are still refused, with the gate's own answers, and a refused query of
/// an ended session is refused for the session.
#[tokio::test]
async fn every_list_call_checks_its_caller() {
    let app = test_app();
    let admin = app.admin().await;
    let anyone = "/api/usageHistory?Skip=0&Take=10";
    let admins_only = "/api/activity?Skip=0&Take=10";
    let set = |sql: &str| {
        app.state.db.conn().unwrap().execute(sql, [admin.id]).unwrap();
    };
    for _ in 0..2 {
        app.get(anyone, &admin.token).await.expect(200);
        app.get(admins_only, &admin.token).await.expect(200);
    }
    set("UPDATE users SET role_id = 1 WHERE id = ?1");
    app.get(admins_only, &admin.token).await.expect(403);
    app.get(anyone, &admin.token).await.expect(200);
    app.get(admins_only, &admin.token).await.expect(403);
    set("UPDATE users SET role_id = 0 WHERE id = ?1");
    app.get(admins_only, &admin.token).await.expect(200);
    app.get(admins_only, &admin.token).await.expect(200);
    set("UPDATE users SET must_set_up_authenticator = 1 WHERE id = ?1");
    app.get(anyone, &admin.token).await.expect_message(403, perkdesk::auth::SET_UP_AUTHENTICATOR_FIRST);
    set("UPDATE users SET must_set_up_authenticator = 0 WHERE id = ?1");
    app.get(anyone, &admin.token).await.expect(200);
    app.get(anyone, &admin.token).await.expect(200);
    app.get("/api/usageHistory?Take=many", &admin.token).await.expect(400);
    set("UPDATE users SET is_active = 0 WHERE id = ?1");
    app.get(anyone, &admin.token).await.expect_message(401, "Your session has ended. Sign in again.");
    set("UPDATE users SET is_active = 1 WHERE id = ?1");
    app.get(anyone, &admin.token).await.expect(200);
    let body = json!({"refreshToken": admin.refresh_token});
    app.call(Method::POST, "/api/auth/logout", Some(&admin.token), Some(body)).await.expect(204);
    app.get("/api/usageHistory?Take=many", &admin.token)
        .await
        .expect_message(401, "Your session has ended. Sign in again.");
    app.get(anyone, &admin.token).await.expect_message(401, "Your session has ended. Sign in again.");
    app.get(admins_only, &admin.token).await.expect(401);
}
