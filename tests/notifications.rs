//! Notifications: multipart create of both types with the spec's messages, edit, filter by
//! header, export at `Notification/export`, delete, roles and a repeated request id.

use crate::common;

use axum::http::Method;
use common::*;
use serde_json::{Value, json};

const BASE: &str = "/api/notification";

/// A category (id 1) and a campaign (id 1) to point notifications at.
fn seed(app: &TestApp) {
    app.state
        .db
        .conn()
        .unwrap()
        .execute_batch(
            "INSERT INTO partners (name, contact_person_first_name, contact_person_last_name, phone_number, email)
             VALUES ('Şəhər Kino', 'Murad', 'Zeynalov', '994501234567', 'info@seherkino.az');
             INSERT INTO campaign_categories (name_az, name_en, name_ru, order_no) VALUES ('Kino', 'Cinema', 'Кино', 1);
             INSERT INTO campaigns (partner_id, campaign_category_id, discount_percent, start_date, expire_date, name_az,
                                    name_en, name_ru, description_az, description_en, description_ru, order_no)
             VALUES (1, 1, 30, '2026-01-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z', 'Kino gecəsi', 'Movie night',
                     'Вечер кино', 'a', 'b', 'c', 1);",
        )
        .unwrap();
}

async fn create(app: &TestApp, token: &str, fields: &[(&str, &str)]) -> Value {
    let response = app.send_form(Method::POST, BASE, token, fields, &[("file", "n.png", PNG)]).await;
    response.expect(201);
    response.json()
}

#[tokio::test]
async fn create_both_types_edit_filter_and_delete() {
    let app = test_app();
    let admin = app.admin().await;
    seed(&app);
    let token = &admin.token;
    let category = create(
        &app,
        token,
        &[
            ("header", "Yeni kinolar"),
            ("text", "Həftə sonu premyeralar"),
            ("type", "1"),
            ("categoryId", "1"),
            ("campaignId", "1"),
        ],
    )
    .await;
    assert_eq!(category["type"], 1);
    assert_eq!(category["categoryId"], 1);
    assert_eq!(category["campaignId"], Value::Null, "only the id its type uses is kept");
    assert_eq!(category["targetName"], "Kino");
    assert!(category["filePath"].as_str().unwrap().starts_with("cdn/"));
    let campaign =
        create(&app, token, &[("header", "Kino gecəsi"), ("text", "30% endirim"), ("type", "2"), ("campaignId", "1")])
            .await;
    assert_eq!(campaign["campaignId"], 1);
    let english = app
        .call_with(Method::GET, &format!("{BASE}/{}", campaign["id"]), Some(token), None, &[("accept-language", "2")])
        .await;
    assert_eq!(english.json()["targetName"], "Movie night");

    let edited = app
        .send_form(
            Method::PUT,
            BASE,
            token,
            &[("id", &campaign["id"].to_string()), ("header", "Kino gecəsi!"), ("text", "35% endirim")],
            &[],
        )
        .await;
    edited.expect(200);
    assert_eq!(edited.json()["text"], "35% endirim");
    assert_eq!(edited.json()["type"], 2, "without a type the target stays");
    assert_eq!(edited.json()["filePath"], campaign["filePath"]);

    let filtered = app.get(&format!("{BASE}/filter?Header=kinolar"), token).await.json();
    assert_eq!(filtered["totalCount"], 1);
    assert_eq!(filtered["data"][0]["id"], category["id"]);

    let file = app.get("/api/Notification/export?Header=kino", token).await;
    file.expect(200);
    assert!(file.headers["content-disposition"].to_str().unwrap().contains("Notifications.xlsx"));
    let rows = workbook_rows(&file.bytes);
    assert_eq!(rows[0], ["Header", "Text", "Type", "Category or campaign", "Created"]);
    assert_eq!(rows.len(), 3);

    app.call(Method::DELETE, BASE, Some(token), Some(json!({"id": [category["id"]]}))).await.expect(200);
    assert_eq!(app.get(BASE, token).await.json()["totalCount"], 1);
    app.get(&format!("{BASE}/{}", category["id"]), token).await.expect_message(404, "Notification not found.");
}

#[tokio::test]
async fn every_message_of_create_and_edit() {
    let app = test_app();
    let admin = app.admin().await;
    seed(&app);
    let full = [("header", "H"), ("text", "T"), ("type", "1"), ("categoryId", "1")];
    let without = |field: &str| -> Vec<(&str, &str)> { full.iter().copied().filter(|(k, _)| *k != field).collect() };
    let with = |field: &'static str, value: &'static str| -> Vec<(&'static str, &'static str)> {
        let mut fields: Vec<(&str, &str)> = full.iter().copied().filter(|(k, _)| *k != field).collect();
        fields.push((field, value));
        fields
    };
    for (fields, field, message) in [
        (without("header"), "header", "Header is required"),
        (without("text"), "text", "Text is required"),
        (without("type"), "type", "type is required"),
        (with("type", "3"), "type", "type must be 1 (category) or 2 (campaign)"),
        (without("categoryId"), "categoryId", "Category is required"),
        (with("type", "2"), "campaignId", "Campaign is required"),
        // The id the type does not use is ignored, but one sent must be an id, as documented.
        (
            vec![("header", "H"), ("text", "T"), ("type", "2"), ("campaignId", "1"), ("categoryId", "-3")],
            "categoryId",
            "Category is required",
        ),
        (with("campaignId", "abc"), "campaignId", "Campaign is required"),
        // `null` is no number: a form's optional number is the number or blank, on every field.
        (with("campaignId", "null"), "campaignId", "Campaign is required"),
    ] {
        let response = app.send_form(Method::POST, BASE, &admin.token, &fields, &[]).await;
        response.expect(400);
        assert_eq!(response.json()["errors"][field], message, "{}", response.json());
    }
    // A category or campaign that does not exist is a 404 named on its field.
    let unknown_category = with("categoryId", "99");
    let response = app.send_form(Method::POST, BASE, &admin.token, &unknown_category, &[]).await;
    response.expect_message(404, "There is no campaign category with id 99.");
    assert_eq!(response.json()["errors"]["categoryId"], "There is no campaign category with id 99.");
    let unknown_campaign = [("header", "H"), ("text", "T"), ("type", "2"), ("campaignId", "99")];
    app.send_form(Method::POST, BASE, &admin.token, &unknown_campaign, &[])
        .await
        .expect_message(404, "There is no campaign with id 99.");
    assert_eq!(app.count("SELECT COUNT(*) FROM notifications"), 0);

    let id = create(&app, &admin.token, &full).await["id"].to_string();
    for (fields, message) in [
        (vec![("id", id.as_str()), ("text", "T")], "Header is required"),
        (vec![("id", id.as_str()), ("header", "H")], "Text is required"),
    ] {
        app.send_form(Method::PUT, BASE, &admin.token, &fields, &[]).await.expect_message(400, message);
    }
    app.send_form(Method::PUT, BASE, &admin.token, &[("id", "999"), ("header", "H"), ("text", "T")], &[])
        .await
        .expect_message(404, "Notification not found.");
}

#[tokio::test]
async fn roles_and_a_repeated_request_id() {
    let app = test_app();
    let admin = app.admin().await;
    seed(&app);
    let call_center = app.user_with_role("cc@perk.az", 2).await;
    let fields = [("header", "H"), ("text", "T"), ("type", "1"), ("categoryId", "1")];
    app.send_form(Method::POST, BASE, &call_center.token, &fields, &[]).await.expect(403);
    app.send_form(Method::PUT, BASE, &call_center.token, &[("id", "1"), ("header", "H"), ("text", "T")], &[])
        .await
        .expect(403);
    app.call(Method::DELETE, BASE, Some(&call_center.token), Some(json!({"id": [1]}))).await.expect(403);
    app.get(BASE, &call_center.token).await.expect(200);
    app.get("/api/notification/export", &call_center.token).await.expect(200);
    app.call(Method::GET, BASE, None, None).await.expect(401);
    app.call(Method::DELETE, BASE, None, Some(json!({"id": [1]}))).await.expect(401);

    let created = create(&app, &admin.token, &fields).await;
    let headers = [("x-requestid", "delete-notification-1")];
    for _ in 0..2 {
        app.call_with(Method::DELETE, BASE, Some(&admin.token), Some(json!({"id": [created["id"]]})), &headers)
            .await
            .expect(200);
    }
    assert_eq!(app.count("SELECT COUNT(*) FROM notifications WHERE deleted_at IS NOT NULL"), 1);
}
