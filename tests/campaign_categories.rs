//! Category Names: multipart create and edit with the spec's messages, names in the caller's
//! language, positions, the status switch, delete rules and roles.

use crate::common;

use axum::http::Method;
use common::*;
use serde_json::{Value, json};

const BASE: &str = "/api/campaign/category";

async fn create(app: &TestApp, token: &str, name: &str, extra: &[(&str, &str)]) -> Value {
    let (az, en, ru) = (format!("{name} az"), format!("{name} en"), format!("{name} ru"));
    let mut fields = vec![("nameAz", az.as_str()), ("nameEn", en.as_str()), ("nameRu", ru.as_str())];
    fields.extend_from_slice(extra);
    let response = app.send_form(Method::POST, BASE, token, &fields, &[("photo", "p.png", PNG)]).await;
    response.expect(201);
    response.json()
}

async fn order_of(app: &TestApp, token: &str) -> Vec<i64> {
    let page = app.get(&format!("{BASE}?SortField=order&OrderBy=true"), token).await.json();
    let rows = page["data"].as_array().unwrap();
    for (index, row) in rows.iter().enumerate() {
        assert_eq!(row["order"], index as i64 + 1, "positions 1..n: {page}");
    }
    rows.iter().map(|row| row["id"].as_i64().unwrap()).collect()
}

#[tokio::test]
async fn create_edit_and_read_in_every_language() {
    let app = test_app();
    let admin = app.admin().await;
    let created = app
        .send_form(
            Method::POST,
            BASE,
            &admin.token,
            &[("nameAz", "Geyim"), ("nameEn", "Clothing"), ("nameRu", "Одежда")],
            &[("file", "p.png", PNG)],
        )
        .await;
    created.expect(201);
    let row = created.json();
    assert_eq!(row["order"], 1);
    assert_eq!(row["isActive"], true);
    assert!(row["photo"].as_str().unwrap().starts_with("cdn/"));
    assert_eq!(row["photo"], row["filePath"]);
    let id = row["id"].as_i64().unwrap();
    for (language, name) in [("1", "Geyim"), ("2", "Clothing"), ("3", "Одежда")] {
        let list = app.call_with(Method::GET, BASE, Some(&admin.token), None, &[("accept-language", language)]).await;
        assert_eq!(list.json()["data"][0]["name"], name, "language {language}");
        assert_eq!(list.json()["data"][0]["nameAz"], "Geyim");
    }
    let edited = app
        .send_form(
            Method::PUT,
            BASE,
            &admin.token,
            &[("id", &id.to_string()), ("nameAz", "Geyim və ayaqqabı"), ("nameEn", "Clothing"), ("nameRu", "Одежда")],
            &[],
        )
        .await;
    edited.expect(200);
    assert_eq!(edited.json()["nameAz"], "Geyim və ayaqqabı");
    assert_eq!(edited.json()["photo"], row["photo"], "without a file the photo stays");
    app.send_form(
        Method::PUT,
        BASE,
        &admin.token,
        &[("id", "999"), ("nameAz", "a"), ("nameEn", "b"), ("nameRu", "c")],
        &[],
    )
    .await
    .expect_message(404, "Campaign category not found.");
    app.get(&format!("{BASE}/999"), &admin.token).await.expect_message(404, "Campaign category not found.");
}

#[tokio::test]
async fn names_are_required_in_every_language() {
    let app = test_app();
    let admin = app.admin().await;
    for (missing, message) in
        [("nameAz", "Name Az is required"), ("nameEn", "Name En is required"), ("nameRu", "Name Ru is required")]
    {
        let fields: Vec<(&str, &str)> = [("nameAz", "Geyim"), ("nameEn", "Clothing"), ("nameRu", "Одежда")]
            .into_iter()
            .filter(|(k, _)| *k != missing)
            .collect();
        let response = app.send_form(Method::POST, BASE, &admin.token, &fields, &[]).await;
        response.expect_message(400, message);
        assert_eq!(response.json()["errors"][missing], message);
    }
    let bad_order = [("nameAz", "a"), ("nameEn", "b"), ("nameRu", "c"), ("order", "first")];
    let response = app.send_form(Method::POST, BASE, &admin.token, &bad_order, &[]).await;
    assert_eq!(response.json()["errors"]["order"], "Order must be a whole number of 1 or more.");
    let not_image = app
        .send_form(Method::POST, BASE, &admin.token, &bad_order[..3], &[("file", "x.png", b"not an image".as_slice())])
        .await;
    not_image.expect(415);
    // A single-valued field sent twice is refused, not read by its first part (a list such as a
    // campaign's `assets` may repeat).
    let twice = [("nameAz", "Geyim"), ("nameAz", "Paltar"), ("nameEn", "Clothing"), ("nameRu", "Одежда")];
    let response = app.send_form(Method::POST, BASE, &admin.token, &twice, &[]).await;
    response.expect_message(400, "nameAz must be sent once.");
    assert_eq!(response.json()["errors"]["nameAz"], "nameAz must be sent once.");
    assert_eq!(app.count("SELECT COUNT(*) FROM campaign_categories"), 0);
}

#[tokio::test]
async fn positions_shift_and_close_gaps() {
    let app = test_app();
    let admin = app.admin().await;
    let token = &admin.token;
    let mut ids = vec![];
    for name in ["a", "b", "c"] {
        ids.push(create(&app, token, name, &[]).await["id"].as_i64().unwrap());
    }
    let [a, b, c] = [ids[0], ids[1], ids[2]];
    let d = create(&app, token, "d", &[("order", "2")]).await["id"].as_i64().unwrap();
    assert_eq!(order_of(&app, token).await, [a, d, b, c]);
    let moved = app
        .send_form(
            Method::PUT,
            BASE,
            token,
            &[("id", &c.to_string()), ("nameAz", "c"), ("nameEn", "c"), ("nameRu", "c"), ("order", "1")],
            &[],
        )
        .await;
    moved.expect(200);
    assert_eq!(order_of(&app, token).await, [c, a, d, b]);
    app.call(Method::DELETE, BASE, Some(token), Some(json!({"id": [a]}))).await.expect(200);
    assert_eq!(order_of(&app, token).await, [c, d, b]);
}

#[tokio::test]
async fn status_switch_delete_rules_and_roles() {
    let app = test_app();
    let admin = app.admin().await;
    let call_center = app.user_with_role("cc@perk.az", 2).await;
    let category = create(&app, &admin.token, "Kino", &[]).await["id"].as_i64().unwrap();
    let path = "/api/campaign/category/changeStatus";
    let body = json!({"id": category, "isActive": false});
    let changed = app.call(Method::PUT, path, Some(&admin.token), Some(body.clone())).await;
    changed.expect(200);
    assert_eq!(changed.json(), body);
    assert_eq!(app.get(&format!("{BASE}/{category}"), &admin.token).await.json()["isActive"], false);
    assert_eq!(app.get(&format!("{BASE}?IsActive=true"), &admin.token).await.json()["totalCount"], 0);
    app.call(Method::PUT, path, Some(&admin.token), Some(json!({"id": 999, "isActive": true}))).await.expect(404);
    app.call(Method::PUT, path, Some(&call_center.token), Some(body.clone())).await.expect(403);
    app.call(Method::PUT, path, None, Some(body)).await.expect(401);
    app.send_form(Method::POST, BASE, &call_center.token, &[("nameAz", "a"), ("nameEn", "b"), ("nameRu", "c")], &[])
        .await
        .expect(403);
    app.call(Method::DELETE, BASE, Some(&call_center.token), Some(json!({"id": [category]}))).await.expect(403);
    app.get(BASE, &call_center.token).await.expect(200);
    app.call(Method::GET, BASE, None, None).await.expect(401);

    // A category with a live campaign stays.
    let conn = app.state.db.conn().unwrap();
    conn.execute(
        "INSERT INTO partners (name, contact_person_first_name, contact_person_last_name, phone_number, email)
         VALUES ('P', 'A', 'B', '994501234567', 'p@p.az')",
        [],
    )
    .unwrap();
    conn.execute(
        "INSERT INTO campaigns (partner_id, campaign_category_id, discount_percent, start_date, expire_date, name_az,
                                name_en, name_ru, description_az, description_en, description_ru, order_no)
         VALUES (1, ?1, 10, '2026-01-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z', 'a', 'b', 'c', 'd', 'e', 'f', 1)",
        [category],
    )
    .unwrap();
    let refused = app.call(Method::DELETE, BASE, Some(&admin.token), Some(json!({"id": [category]}))).await;
    refused.expect(409);
    assert!(refused.message().starts_with("A category that still has campaigns cannot be deleted."));
    assert_eq!(app.count("SELECT COUNT(*) FROM campaign_categories WHERE deleted_at IS NULL"), 1);
    conn.execute("UPDATE campaigns SET deleted_at = '2026-01-02T00:00:00.000Z'", []).unwrap();
    app.call(Method::DELETE, BASE, Some(&admin.token), Some(json!({"id": [category]}))).await.expect(200);
}
