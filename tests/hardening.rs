//! The second hardening, through the router: a form's unused file parts are never decoded, a
//! refused address's application is not read, Retry-After is honoured exactly, token and key
//! answers are not cached, a locked sign-in tells nothing about accounts, two refreshes of one
//! token both stay signed in, control characters are refused in every text field, a path id may
//! be written `1.0`, and Requests by Merchant rows carry their cities as the spec's entity.

mod common;
mod people;

use std::time::Duration;

use axum::http::Method;
use common::*;
use perkdesk::resources::api_clients::NewClient;
use serde_json::json;

/// A 2×2 GIF of two frames.
fn animated_gif() -> Vec<u8> {
    use image::codecs::gif::GifEncoder;
    use image::{Delay, Frame, Rgba, RgbaImage};
    let mut bytes = Vec::new();
    {
        let mut encoder = GifEncoder::new(&mut bytes);
        for shade in [0u8, 255] {
            let frame = Frame::from_parts(
                RgbaImage::from_pixel(2, 2, Rgba([shade, 0, 0, 255])),
                0,
                0,
                Delay::from_numer_denom_ms(10, 1),
            );
            encoder.encode_frame(frame).unwrap();
        }
    }
    bytes
}

/// The tests of this binary that upload images take turns, so the process-wide decode count moves
/// only by what the counting test sends.
static IMAGE_UPLOADS: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

#[tokio::test]
async fn an_application_decodes_its_named_file_once_and_no_other_part() {
    let _turn = IMAGE_UPLOADS.lock().await;
    let app = test_app();
    let gif = animated_gif();
    let mut files: Vec<(String, &str, &[u8])> = (0..100).map(|n| (format!("other{n}"), "a.gif", &gif[..])).collect();
    files.push(("file".into(), "licence.gif", &gif[..]));
    files.push(("file".into(), "second.gif", b"not an image"));
    let borrowed: Vec<(&str, &str, &[u8])> = files.iter().map(|(n, f, b)| (n.as_str(), *f, *b)).collect();
    let (content_type, body) = multipart(&APPLICATION_FIELDS, &borrowed);
    let before = perkdesk::http::files::images_checked();
    let applied = app.send(apply_request(&content_type, body)).await;
    applied.expect(201);
    assert_eq!(perkdesk::http::files::images_checked() - before, 1, "only the first `file` part is decoded");
}

#[tokio::test]
async fn an_address_over_its_application_quota_is_refused_before_its_form_is_read() {
    let _turn = IMAGE_UPLOADS.lock().await;
    let mut settings = settings();
    settings.sign_in_per_minute = 1;
    let app = test_app_with(settings);
    let (content_type, body) = multipart(&APPLICATION_FIELDS, &[("file", "a.png", PNG)]);
    app.send(apply_request(&content_type, body)).await.expect(201);
    // Not even a form: were it read, this would be a 415.
    let refused = app.send(apply_request("text/plain", b"x".to_vec())).await;
    refused.expect(429);
    assert!(refused.headers.contains_key("retry-after"));
}

#[tokio::test]
async fn waiting_exactly_retry_after_is_enough() {
    // Sign-in: 20 a minute, one every 3 seconds; the bucket holds 20, so they are used up first.
    let app = test_app_with(perkdesk::http::state::Settings { sign_in_per_minute: 20, ..settings() });
    let mut refused = None;
    // Each attempt with another e-mail, so no lock (five failures of one e-mail) gets in the way.
    for n in 0..60 {
        let answer = app.sign_in_raw(&format!("nobody{n}@perk.az"), "Wrong-123!", "123456").await;
        if answer.status.as_u16() == 429 {
            refused = Some(answer);
            break;
        }
    }
    let refused = refused.expect("sign-ins beyond the bucket are refused");
    let seconds: u64 = refused.headers["retry-after"].to_str().unwrap().parse().unwrap();
    assert!(refused.message().ends_with(&format!("Try again in {seconds} seconds.")));
    tokio::time::sleep(Duration::from_secs(seconds)).await;
    app.sign_in_raw("somebody@perk.az", "Wrong-123!", "123456").await.expect(401);

    // An API client at 60 a minute.
    let world = people::world(&app.state.db.conn().unwrap());
    let new = NewClient::from_json(
        &serde_json::json!({"name": "Rate", "kind": "employee-app", "partnerId": null, "rateLimitPerMinute": 60}),
    )
    .unwrap();
    let key = new.insert(&app.state.db.conn().unwrap()).unwrap().1;
    let path = format!("/api/app/notifications?employeeEmail={}", people::EMPLOYEES[0].2);
    let mut refused = None;
    for _ in 0..200 {
        let answer = app.get(&path, &key).await;
        if answer.status.as_u16() == 429 {
            refused = Some(answer);
            break;
        }
    }
    let refused = refused.expect("calls beyond the bucket are refused");
    let seconds: u64 = refused.headers["retry-after"].to_str().unwrap().parse().unwrap();
    tokio::time::sleep(Duration::from_secs(seconds)).await;
    app.get(&path, &key).await.expect(200);
    drop(world);
}

#[tokio::test]
async fn answers_carrying_tokens_or_keys_are_not_cached() {
    let app = test_app();
    app.insert_user("cache@perk.az", 0);
    let otp = app.otp_for("cache@perk.az");
    let signed_in = app.sign_in_raw("cache@perk.az", PASSWORD, &otp).await;
    signed_in.expect(200);
    assert_eq!(signed_in.headers["cache-control"], "no-store");
    let refresh_token = signed_in.json()["refreshToken"].as_str().unwrap().to_string();
    let token = signed_in.json()["token"].as_str().unwrap().to_string();
    let refreshed =
        app.call(Method::POST, "/api/auth/refreshToken", None, Some(json!({"refreshToken": refresh_token}))).await;
    refreshed.expect(200);
    assert_eq!(refreshed.headers["cache-control"], "no-store");
    let created = app
        .call(Method::POST, "/api/apiClient", Some(&token), Some(json!({"name": "Cache test", "kind": "employee-app"})))
        .await;
    created.expect(201);
    assert_eq!(created.headers["cache-control"], "no-store");
    // An ordinary answer may be cached by the browser as it likes.
    assert!(app.get("/api/auth/profile", &token).await.headers.get("cache-control").is_none());
}

#[tokio::test]
async fn a_lock_answers_alike_for_known_and_unknown_e_mails() {
    let app = test_app();
    app.insert_user("known@perk.az", 0);
    let mut answers = vec![];
    for email in ["known@perk.az", "unknown@perk.az"] {
        let statuses: Vec<u16> = {
            let mut statuses = vec![];
            for _ in 0..7 {
                statuses.push(app.sign_in_raw(email, "Wrong-123!", "123456").await.status.as_u16());
            }
            statuses
        };
        answers.push(statuses);
    }
    assert_eq!(answers[0], [401, 401, 401, 401, 423, 423, 423]);
    assert_eq!(answers[0], answers[1], "an unknown e-mail locks like a known one");
    let locked = app.sign_in_raw("UNKNOWN@perk.az", "Wrong-123!", "123456").await;
    locked.expect_message(423, "You are locked.");
    // The known account's lock holds even for its right password and code, as before.
    let otp = app.otp_for("known@perk.az");
    app.sign_in_raw("known@perk.az", PASSWORD, &otp).await.expect_message(423, "You are locked.");
}

#[tokio::test]
async fn two_refreshes_of_one_token_at_once_both_stay_signed_in() {
    let app = test_app();
    let admin = app.admin().await;
    let refresh = || {
        let body = json!({"refreshToken": admin.refresh_token});
        app.call(Method::POST, "/api/auth/refreshToken", None, Some(body))
    };
    let (first, second) = tokio::join!(refresh(), refresh());
    first.expect(200);
    second.expect(200);
    assert_eq!(first.json(), second.json(), "both tabs hold the same new pair");
    let token = first.json()["token"].as_str().unwrap().to_string();
    app.get("/api/auth/profile", &token).await.expect(200);
    let next = first.json()["refreshToken"].as_str().unwrap().to_string();
    app.call(Method::POST, "/api/auth/refreshToken", None, Some(json!({"refreshToken": next}))).await.expect(200);
}

#[tokio::test]
async fn control_characters_are_refused_in_every_text_field() {
    let _turn = IMAGE_UPLOADS.lock().await;
    let app = test_app();
    let admin = app.admin().await;
    // JSON: a user's first name.
    let user = json!({"firstName": "Ay\u{0}sel", "lastName": "Əliyeva", "email": "nul@perk.az", "phone": "994501234567",
        "roleId": 1, "password": "Secret-123!", "confirmPassword": "Secret-123!"});
    let refused = app.call(Method::POST, "/api/user/register", Some(&admin.token), Some(user)).await;
    refused.expect_message(400, "firstName must not contain control characters.");
    assert_eq!(refused.json()["errors"]["firstName"], "firstName must not contain control characters.");
    // One line: a tab or a line break inside a name is refused too; around it, it is trimmed.
    let tabbed = json!({"firstName": "Ay\tsel", "lastName": "Əliyeva", "email": "tab@perk.az", "phone": "994501234567",
        "roleId": 1, "password": "Secret-123!", "confirmPassword": "Secret-123!"});
    app.call(Method::POST, "/api/user/register", Some(&admin.token), Some(tabbed))
        .await
        .expect_message(400, "firstName must not contain control characters.");
    let trimmed = json!({"firstName": "\tAysel\n", "lastName": "Əliyeva", "email": "trim@perk.az",
        "phone": "994501234567", "roleId": 1, "password": "Secret-123!", "confirmPassword": "Secret-123!"});
    app.call(Method::POST, "/api/user/register", Some(&admin.token), Some(trimmed)).await.expect(201);
    // A form: an asset's name.
    let fields = [
        ("name", "Bakı\u{1}"),
        ("contactPerson", "Rəşad"),
        ("phoneNumber", "994501234567"),
        ("email", "asset@perk.az"),
        ("barcodePrefix", "BK"),
    ];
    app.send_form(Method::POST, "/api/asset", &admin.token, &fields, &[("file", "a.png", PNG)])
        .await
        .expect_message(400, "name must not contain control characters.");
    // Multi-line text (a complaint's description) keeps its tabs and line breaks, but not a NUL.
    people::world(&app.state.db.conn().unwrap());
    let new = NewClient::from_json(
        &serde_json::json!({"name": "App", "kind": "employee-app", "partnerId": null, "rateLimitPerMinute": 1000}),
    )
    .unwrap();
    let key = new.insert(&app.state.db.conn().unwrap()).unwrap().1;
    let complaint = |description: &str| {
        json!({"fullName": "Ləman Quliyeva", "email": "leman@mail.az", "phone": "994551234567", "reasonId": 5,
               "description": description})
    };
    let kept = app.call(Method::POST, "/api/app/complaints", Some(&key), Some(complaint("Açılmır.\n\tİki dəfə"))).await;
    kept.expect(201);
    assert_eq!(kept.json()["description"], "Açılmır.\n\tİki dəfə");
    app.call(Method::POST, "/api/app/complaints", Some(&key), Some(complaint("Açılmır\u{0}")))
        .await
        .expect_message(400, "description must not contain control characters.");
    // PostgreSQL's text cannot hold a NUL at all.
    if !common::sqlite_only("a NUL stored in SQLite text") {
        assert_eq!(app.count("SELECT COUNT(*) FROM users WHERE instr(first_name, char(0)) > 0"), 0);
    }
}

#[tokio::test]
async fn a_field_the_route_does_not_declare_is_ignored_whatever_it_holds() {
    let _turn = IMAGE_UPLOADS.lock().await;
    let app = test_app();
    let admin = app.admin().await;
    // The document allows properties beyond the declared ones, and the server ignores them: a
    // control character in one is no reason to refuse the request.
    let user = json!({"firstName": "Aysel", "lastName": "Əliyeva", "email": "extra@perk.az", "phone": "994501234567",
        "roleId": 1, "password": "Secret-123!", "confirmPassword": "Secret-123!", "note\u{1}": ["x\u{0}", {"y": "\u{7}"}]});
    app.call(Method::POST, "/api/user/register", Some(&admin.token), Some(user)).await.expect(201);
    // A route whose path has capitals (the router matches it lowercased) reads its body the same way.
    let refresh = json!({"refreshToken": "not-a-token", "x": "\u{1}"});
    app.call(Method::POST, "/api/auth/refreshToken", None, Some(refresh)).await.expect(401);
    let fields = [
        ("name", "Bakı"),
        ("contactPerson", "Rəşad"),
        ("phoneNumber", "994501234567"),
        ("email", "extra-asset@perk.az"),
        ("barcodePrefix", "BX"),
        ("comment", "\u{1}"),
    ];
    app.send_form(Method::POST, "/api/asset", &admin.token, &fields, &[("file", "a.png", PNG)]).await.expect(201);
    // A password may hold any character: it is hashed, never shown.
    let odd = json!({"firstName": "Odd", "lastName": "Password", "email": "odd@perk.az", "phone": "994501234567",
        "roleId": 1, "password": "Secret-123!\u{1}", "confirmPassword": "Secret-123!\u{1}"});
    app.call(Method::POST, "/api/user/register", Some(&admin.token), Some(odd)).await.expect(201);
}

#[tokio::test]
async fn a_path_id_may_be_written_as_a_whole_number_with_a_fraction() {
    let app = test_app();
    let admin = app.admin().await;
    let id = app.count("SELECT id FROM users WHERE email = 'admin@perk.az'");
    let plain = app.get(&format!("/api/user/{id}"), &admin.token).await;
    plain.expect(200);
    let written = app.get(&format!("/api/user/{id}.0"), &admin.token).await;
    written.expect(200);
    assert_eq!(written.json(), plain.json());
    app.get(&format!("/api/user/{id}.5"), &admin.token)
        .await
        .expect_message(400, &format!("'{id}.5' is not a valid id."));
}

#[tokio::test]
async fn requests_by_merchant_rows_carry_their_cities_as_the_specs_entity() {
    let _turn = IMAGE_UPLOADS.lock().await;
    let app = test_app();
    let admin = app.admin().await;
    let (content_type, body) = multipart(&APPLICATION_FIELDS, &[("file", "a.png", PNG)]);
    app.send(apply_request(&content_type, body)).await.expect(201);
    let listed = app.get("/api/apply?Skip=0&Take=10", &admin.token).await;
    listed.expect(200);
    let row = &listed.json()["data"][0];
    let cities = row["cities"].as_array().expect("cities is a list");
    assert_eq!(cities.len(), 2);
    for city in cities {
        assert!(city["id"].as_i64().is_some() && city["cityName"].as_str().is_some(), "{city}");
    }
    let names: Vec<&str> = cities.iter().map(|c| c["cityName"].as_str().unwrap()).collect();
    assert_eq!(row["cityNames"], names.join(", "));
    let id = row["id"].as_i64().unwrap();
    let detail = app.get(&format!("/api/apply/{id}"), &admin.token).await;
    assert_eq!(detail.json()["cities"], row["cities"]);
}

#[tokio::test]
async fn a_maximum_length_counts_what_the_document_counts_blanks_around_included() {
    let _turn = IMAGE_UPLOADS.lock().await;
    let app = test_app();
    let admin = app.admin().await;
    // 101 characters as sent (100 and a NEL the server would trim): the document's maxLength 100 refuses it.
    let padded = format!("{}\u{85}", "Ə".repeat(100));
    let fields: Vec<(&str, &str)> = APPLICATION_FIELDS
        .iter()
        .map(|(k, v)| if *k == "fullName" { (*k, padded.as_str()) } else { (*k, *v) })
        .collect();
    let (content_type, body) = multipart(&fields, &[("file", "a.png", PNG)]);
    let refused = app.send(apply_request(&content_type, body)).await;
    refused.expect(400);
    assert_eq!(refused.json()["errors"]["fullName"], "Maximum 100 symbols");
    let exact = "Ə".repeat(100);
    let fields: Vec<(&str, &str)> = APPLICATION_FIELDS
        .iter()
        .map(|(k, v)| if *k == "fullName" { (*k, exact.as_str()) } else { (*k, *v) })
        .collect();
    let (content_type, body) = multipart(&fields, &[("file", "a.png", PNG)]);
    app.send(apply_request(&content_type, body)).await.expect(201);
    // The same in JSON: an e-mail of 50 characters with a blank after it is 51 as sent.
    let email = format!("{}@perk.az", "a".repeat(42));
    let user = |email: String| {
        json!({"firstName": "Aysel", "lastName": "Quliyeva", "email": email, "phone": "994501234567",
               "password": PASSWORD, "roleId": 1})
    };
    let refused =
        app.call(Method::POST, "/api/user/register", Some(&admin.token), Some(user(format!("{email} ")))).await;
    refused.expect(400);
    assert_eq!(refused.json()["errors"]["email"], "Maximum 50 symbols");
    app.call(Method::POST, "/api/user/register", Some(&admin.token), Some(user(email))).await.expect(201);
}
