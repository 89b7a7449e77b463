//! Campaigns and Expected Campaigns: multipart create and edit with two images and assets, the
//! spec's messages, positions within a category, approve, send-notification once, roles, the
//! export and the pickers.

use crate::common;

use axum::body::Body;
use axum::http::{Method, Request};
use common::*;
use serde_json::{Value, json};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

struct Seeded {
    partner: i64,
    categories: [i64; 2],
    assets: [i64; 2],
}

fn seed(app: &TestApp) -> Seeded {
    let conn = app.state.db.conn().unwrap();
    let partner = conn
        .insert(
            "INSERT INTO partners (name, contact_person_first_name, contact_person_last_name, phone_number, email)
         VALUES ('Dadlı Market', 'Elvin', 'Quliyev', '994501234567', 'info@dadli.az')",
            [],
        )
        .unwrap();
    let mut categories = [0; 2];
    for (index, (az, en, ru)) in [("Geyim", "Clothing", "Одежда"), ("Kino", "Cinema", "Кино")].iter().enumerate()
    {
        let inserted = conn
            .insert(
                "INSERT INTO campaign_categories (name_az, name_en, name_ru, order_no) VALUES (?1, ?2, ?3, ?4)",
                (az, en, ru, index as i64 + 1),
            )
            .unwrap();
        categories[index] = inserted;
    }
    let mut assets = [0; 2];
    for (index, name) in ["Xəzər Telekom", "Qafqaz Bank"].iter().enumerate() {
        let inserted = conn.insert(
            "INSERT INTO assets (name, contact_person, contact_person_phone_number, contact_person_email, barcode_prefix)
             VALUES (?1, 'Nigar Həsənova', '994501234567', 'n@x.az', 'X1')",
            [name],
        )
        .unwrap();
        assets[index] = inserted;
    }
    Seeded { partner, categories, assets }
}

fn at(days: i64) -> String {
    (OffsetDateTime::now_utc() + time::Duration::days(days)).format(&Rfc3339).unwrap()
}

/// The create form's fields, with `extra` replacing or adding fields (an empty value removes one).
fn fields(s: &Seeded, extra: &[(&str, &str)]) -> Vec<(String, String)> {
    let mut fields: Vec<(String, String)> = vec![
        ("partnerId".into(), s.partner.to_string()),
        ("campaignCategoryId".into(), s.categories[0].to_string()),
        ("discountPercent".into(), "20".into()),
        ("startDate".into(), at(1)),
        ("expireDate".into(), at(30)),
        ("nameAz".into(), "Qış endirimi".into()),
        ("nameEn".into(), "Winter sale".into()),
        ("nameRu".into(), "Зимняя скидка".into()),
        ("descriptionAz".into(), "Bütün geyimlərə 20% endirim".into()),
        ("descriptionEn".into(), "20% off all clothing".into()),
        ("descriptionRu".into(), "Скидка 20% на всю одежду".into()),
        ("specialOffer".into(), "true".into()),
        ("isPremium".into(), "false".into()),
        ("assets".into(), s.assets[0].to_string()),
        ("assets".into(), s.assets[1].to_string()),
    ];
    for (key, value) in extra {
        if *key != "assets" {
            fields.retain(|(k, _)| k != key);
        }
        if !value.is_empty() {
            fields.push((key.to_string(), value.to_string()));
        }
    }
    fields
}

const IMAGES: &[(&str, &str, &[u8])] = &[("file", "card.png", PNG), ("backgroundFile", "back.png", PNG)];

async fn send(
    app: &TestApp,
    method: Method,
    token: &str,
    fields: &[(String, String)],
    files: &[(&str, &str, &[u8])],
) -> Response {
    let borrowed: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    app.send_form(method, "/api/campaign", token, &borrowed, files).await
}

async fn create(app: &TestApp, token: &str, s: &Seeded, extra: &[(&str, &str)]) -> Value {
    let response = send(app, Method::POST, token, &fields(s, extra), IMAGES).await;
    response.expect(201);
    response.json()
}

async fn get_lang(app: &TestApp, path: &str, token: &str, language: &str) -> Value {
    let response = app.call_with(Method::GET, path, Some(token), None, &[("accept-language", language)]).await;
    response.expect(200);
    response.json()
}

/// (id, order) of a category's positions, as the order picker lists them.
async fn positions(app: &TestApp, token: &str, category: i64) -> Vec<(i64, i64)> {
    let page = app.get(&format!("/api/campaign/campaignOrdersNew?categoryId={category}"), token).await;
    page.expect(200);
    page.json()["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| (row["id"].as_i64().unwrap(), row["order"].as_i64().unwrap()))
        .collect()
}

/// Every category's live campaigns hold exactly the positions 1..n.
fn assert_no_gaps(app: &TestApp) {
    let conn = app.state.db.conn().unwrap();
    let mut stmt = conn
        .prepare(
            "SELECT campaign_category_id, group_concat(CAST(order_no AS TEXT), ',' ORDER BY order_no)
             FROM campaigns WHERE deleted_at IS NULL GROUP BY campaign_category_id",
        )
        .unwrap();
    let groups: Vec<(i64, String)> =
        stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?))).unwrap().map(Result::unwrap).collect();
    for (category, orders) in groups {
        let expected: Vec<String> = (1..=orders.split(',').count()).map(|n| n.to_string()).collect();
        assert_eq!(orders, expected.join(","), "category {category}");
    }
}

fn id(row: &Value) -> i64 {
    row["id"].as_i64().unwrap()
}

#[tokio::test]
async fn create_then_read_in_every_language_with_images_and_assets() {
    let app = test_app();
    let admin = app.admin().await;
    let s = seed(&app);
    let created = create(&app, &admin.token, &s, &[]).await;
    assert_eq!(created["nameEn"], "Winter sale");
    assert_eq!(created["discountPercent"], 20);
    assert_eq!(created["specialOffer"], true);
    assert_eq!(created["isPremium"], false);
    assert_eq!(created["isConfirmed"], true, "made in the back office, so confirmed");
    assert_eq!(created["notificationStatus"], 0);
    assert_eq!(created["order"], 1);
    assert_eq!(created["partnerName"], "Dadlı Market");
    assert_eq!(created["assets"], json!(s.assets.to_vec()));
    assert_eq!(created["assetList"][0]["name"], "Xəzər Telekom");
    let (image, background) = (created["filePath"].as_str().unwrap(), created["backgroundFilePath"].as_str().unwrap());
    assert!(image.starts_with("cdn/") && background.starts_with("cdn/") && image != background);
    app.call(Method::GET, &format!("/{background}"), None, None).await.expect(200);

    for (language, name, category, description) in [
        ("1", "Qış endirimi", "Geyim", "Bütün geyimlərə 20% endirim"),
        ("2", "Winter sale", "Clothing", "20% off all clothing"),
        ("3", "Зимняя скидка", "Одежда", "Скидка 20% на всю одежду"),
    ] {
        let list = get_lang(&app, "/api/campaign?Skip=0&Take=10", &admin.token, language).await;
        assert_eq!(list["totalCount"], 1);
        assert_eq!(list["data"][0]["name"], name, "list in language {language}");
        assert_eq!(list["data"][0]["categoryName"], category);
        let detail = get_lang(&app, &format!("/api/campaign/{}", id(&created)), &admin.token, language).await;
        assert_eq!(detail["name"], name);
        assert_eq!(detail["description"], description);
        assert_eq!(detail["nameRu"], "Зимняя скидка", "detail carries every language");
        let filtered = get_lang(&app, "/api/campaign/filter?CampaignName=ЗИМНЯЯ", &admin.token, language).await;
        assert_eq!(filtered["totalCount"], 1, "a name in any language finds it");
    }
}

#[tokio::test]
async fn every_rule_of_the_form_has_its_message_and_nothing_is_written() {
    let app = test_app();
    let admin = app.admin().await;
    let s = seed(&app);
    let yesterday = at(-1);
    let soon = at(2);
    let start_later = [("startDate", soon.as_str()), ("expireDate", "")];
    type Case<'a> = (Vec<(&'a str, &'a str)>, &'a str, &'a str);
    let cases: Vec<Case> = vec![
        (vec![("partnerId", "")], "partnerId", "Partner is required"),
        (vec![("discountPercent", "")], "discountPercent", "Discount percent is required"),
        (vec![("discountPercent", "lots")], "discountPercent", "Discount percent must be a number"),
        (vec![("discountPercent", "-1")], "discountPercent", "Discount percent must be at least 0"),
        (vec![("discountPercent", "101")], "discountPercent", "Discount percent cannot be greater than 100"),
        (vec![("discountPercent", "12.5")], "discountPercent", "Discount percent must be a whole number"),
        (vec![("startDate", "")], "startDate", "Start date is required"),
        (vec![("startDate", yesterday.as_str())], "startDate", "Start date cannot be earlier than now"),
        (vec![("startDate", "soon")], "startDate", "Send the date and time as e.g. 2026-12-01T10:00:00+04:00"),
        (start_later.to_vec(), "expireDate", "Expire date is required"),
        (
            vec![("expireDate", soon.as_str()), ("startDate", at(3).leak())],
            "expireDate",
            "Expire date must be after the start date",
        ),
        (vec![("campaignCategoryId", "")], "campaignCategoryId", "Campaign category is required"),
        (vec![("campaignCategoryId", "x")], "campaignCategoryId", "campaignCategoryId must be a whole number"),
        (vec![("nameAz", "")], "nameAz", "Name is required"),
        (vec![("nameEn", " ")], "nameEn", "Name is required"),
        (vec![("nameRu", "")], "nameRu", "Name is required"),
        (vec![("descriptionAz", "")], "descriptionAz", "Description is required"),
        (vec![("descriptionEn", "")], "descriptionEn", "Description is required"),
        (vec![("descriptionRu", "")], "descriptionRu", "Description is required"),
        (vec![("assets", "first")], "assets", "assets must be asset ids"),
        (vec![("isPremium", "maybe")], "isPremium", "isPremium must be true or false"),
        (vec![("order", "0")], "order", "Order must be a whole number of 1 or more."),
    ];
    for (extra, field, message) in cases {
        let response = send(&app, Method::POST, &admin.token, &fields(&s, &extra), IMAGES).await;
        response.expect(400);
        assert_eq!(response.json()["errors"][field], message, "{field}: {}", response.message());
    }
    for (files, field, message) in
        [(&IMAGES[1..], "file", "File is required"), (&IMAGES[..1], "backgroundFile", "Background file is required")]
    {
        let response = send(&app, Method::POST, &admin.token, &fields(&s, &[]), files).await;
        response.expect_message(400, message);
        assert_eq!(response.json()["errors"][field], message);
    }
    // The first failing field is the message.
    let blank = send(&app, Method::POST, &admin.token, &[], &[]).await;
    blank.expect_message(400, "Partner is required");
    assert_eq!(blank.json()["errors"].as_object().unwrap().len(), 13, "{}", blank.json());

    // Bytes that are not an image are refused under the field that carried them.
    let script: &[u8] = b"<script>alert(1)</script>";
    let refused =
        send(&app, Method::POST, &admin.token, &fields(&s, &[]), &[IMAGES[0], ("backgroundFile", "x.png", script)])
            .await;
    refused.expect(415);
    assert!(refused.json()["errors"]["backgroundFile"].is_string(), "{}", refused.json());
    // Unknown partner, category and asset ids are named.
    for (extra, field, message) in [
        (("partnerId", "999"), "partnerId", "There is no partner with id 999."),
        (("campaignCategoryId", "999"), "campaignCategoryId", "There is no campaign category with id 999."),
        (("assets", "999"), "assets", "There is no asset with id 999."),
    ] {
        let response = send(&app, Method::POST, &admin.token, &fields(&s, &[extra]), IMAGES).await;
        response.expect_message(404, message);
        assert_eq!(response.json()["errors"][field], message);
    }
    assert_eq!(app.count("SELECT COUNT(*) FROM campaigns"), 0);
    assert_eq!(app.count("SELECT COUNT(*) FROM campaign_assets"), 0);
    assert_eq!(app.count("SELECT COUNT(*) FROM files"), 0, "no image is kept from a refused form");
}

#[tokio::test]
async fn edit_changes_everything_and_keeps_images_unless_sent() {
    let app = test_app();
    let admin = app.admin().await;
    let s = seed(&app);
    let created = create(&app, &admin.token, &s, &[]).await;
    let campaign = id(&created).to_string();
    let past = at(-10);
    let edit = fields(
        &s,
        &[
            ("id", campaign.as_str()),
            ("nameEn", "Big winter sale"),
            ("discountPercent", "35"),
            // An edit may keep a start date that has passed.
            ("startDate", past.as_str()),
            ("isTrend", "true"),
            ("specialOffer", "false"),
        ],
    );
    let edit: Vec<(String, String)> =
        edit.into_iter().filter(|(k, v)| k != "assets" || *v == s.assets[1].to_string()).collect();
    let edited = send(&app, Method::PUT, &admin.token, &edit, &[]).await;
    edited.expect(200);
    let row = edited.json();
    assert_eq!(row["nameEn"], "Big winter sale");
    assert_eq!(row["discountPercent"], 35);
    assert_eq!(row["isTrend"], true);
    assert_eq!(row["specialOffer"], false);
    assert_eq!(row["assets"], json!([s.assets[1]]));
    assert_eq!(row["filePath"], created["filePath"], "no file: the image stays");
    assert_eq!(row["backgroundFilePath"], created["backgroundFilePath"]);
    let missing = fields(&s, &[("id", "999")]);
    send(&app, Method::PUT, &admin.token, &missing, &[]).await.expect_message(404, "Campaign not found.");
    let bad = fields(&s, &[("id", campaign.as_str()), ("discountPercent", "101")]);
    send(&app, Method::PUT, &admin.token, &bad, &[])
        .await
        .expect_message(400, "Discount percent cannot be greater than 100");
    assert_eq!(app.get(&format!("/api/campaign/{campaign}"), &admin.token).await.json()["discountPercent"], 35);
}

#[tokio::test]
async fn positions_shift_on_insert_move_delete_and_category_change() {
    let app = test_app();
    let admin = app.admin().await;
    let s = seed(&app);
    let token = &admin.token;
    let mut ids = vec![];
    for _ in 0..3 {
        ids.push(id(&create(&app, token, &s, &[]).await));
    }
    let [a, b, c] = [ids[0], ids[1], ids[2]];
    assert_eq!(positions(&app, token, s.categories[0]).await, [(a, 1), (b, 2), (c, 3)]);

    // A taken position moves the others down.
    let d = id(&create(&app, token, &s, &[("order", "1")]).await);
    assert_eq!(positions(&app, token, s.categories[0]).await, [(d, 1), (a, 2), (b, 3), (c, 4)]);
    // Past the end means last.
    let e = id(&create(&app, token, &s, &[("order", "99")]).await);
    assert_eq!(positions(&app, token, s.categories[0]).await.last(), Some(&(e, 5)));

    // Moving up and down within the category.
    let c_id = c.to_string();
    let move_c = fields(&s, &[("id", c_id.as_str()), ("order", "2")]);
    send(&app, Method::PUT, token, &move_c, &[]).await.expect(200);
    assert_eq!(positions(&app, token, s.categories[0]).await, [(d, 1), (c, 2), (a, 3), (b, 4), (e, 5)]);
    let move_d = fields(&s, &[("id", d.to_string().leak()), ("order", "4")]);
    send(&app, Method::PUT, token, &move_d, &[]).await.expect(200);
    assert_eq!(positions(&app, token, s.categories[0]).await, [(c, 1), (a, 2), (b, 3), (d, 4), (e, 5)]);
    // An edit without an order keeps the position.
    let keep = fields(&s, &[("id", a.to_string().leak())]);
    send(&app, Method::PUT, token, &keep, &[]).await.expect(200);
    assert_eq!(positions(&app, token, s.categories[0]).await[1], (a, 2));

    // Deleting closes the gaps.
    app.call(Method::DELETE, "/api/campaign", Some(token), Some(json!({"id": [a, d]}))).await.expect(200);
    assert_eq!(positions(&app, token, s.categories[0]).await, [(c, 1), (b, 2), (e, 3)]);

    // Another category: the old one closes the gap, the new one makes room.
    let other = s.categories[1].to_string();
    let f = id(&create(&app, token, &s, &[("campaignCategoryId", other.as_str())]).await);
    let move_b = fields(&s, &[("id", b.to_string().leak()), ("campaignCategoryId", other.as_str()), ("order", "1")]);
    send(&app, Method::PUT, token, &move_b, &[]).await.expect(200);
    assert_eq!(positions(&app, token, s.categories[0]).await, [(c, 1), (e, 2)]);
    assert_eq!(positions(&app, token, s.categories[1]).await, [(b, 1), (f, 2)]);
    // Without an order it goes last there.
    let move_c = fields(&s, &[("id", c.to_string().leak()), ("campaignCategoryId", other.as_str())]);
    send(&app, Method::PUT, token, &move_c, &[]).await.expect(200);
    assert_eq!(positions(&app, token, s.categories[1]).await, [(b, 1), (f, 2), (c, 3)]);
    assert_eq!(positions(&app, token, s.categories[0]).await, [(e, 1)]);
    assert_no_gaps(&app);

    // The picker names the partner and the campaign in the caller's language, and `orders` lists all.
    let english = get_lang(&app, &format!("/api/campaign/campaignOrdersNew?categoryId={other}"), token, "2").await;
    assert_eq!(english["data"][0]["partnerName"], "Dadlı Market");
    assert_eq!(english["data"][0]["campaignName"], "Winter sale");
    assert_eq!(english["totalCount"], 3);
    let page = app.get(&format!("/api/campaign/campaignOrdersNew?categoryId={other}&Skip=1&Take=1"), token).await;
    assert_eq!(page.json()["data"][0]["id"], f);
    assert_eq!(app.get("/api/campaign/orders", token).await.json()["totalCount"], 4);
    app.get("/api/campaign/campaignOrdersNew", token).await.expect_message(400, "Campaign category is required");
    app.get("/api/campaign/campaignOrdersNew?categoryId=x", token).await.expect(400);
}

#[tokio::test]
async fn approve_moves_a_campaign_from_expected_to_campaigns() {
    let app = test_app();
    let admin = app.admin().await;
    let s = seed(&app);
    let token = &admin.token;
    let expected = id(&create(&app, token, &s, &[]).await);
    let confirmed = id(&create(&app, token, &s, &[]).await);
    // Partners' campaigns arrive unconfirmed (their inbound API comes later).
    app.state.db.conn().unwrap().execute("UPDATE campaigns SET is_confirmed = 0 WHERE id = ?1", [expected]).unwrap();
    let ids = |page: Value| -> Vec<i64> { page["data"].as_array().unwrap().iter().map(id).collect() };
    assert_eq!(ids(app.get("/api/campaign/notConfirmed?Skip=0&Take=10", token).await.json()), [expected]);
    assert_eq!(ids(app.get("/api/campaign?Skip=0&Take=10", token).await.json()), [confirmed]);
    // An expected campaign opens (for its edit form) through campaign/{id}.
    assert_eq!(app.get(&format!("/api/campaign/{expected}"), token).await.json()["isConfirmed"], false);

    let approved = app.call(Method::PUT, "/api/campaign/approve", Some(token), Some(json!({"id": expected}))).await;
    approved.expect(200);
    assert_eq!(approved.json()["isConfirmed"], true);
    assert_eq!(app.get("/api/campaign/notConfirmed", token).await.json()["totalCount"], 0);
    let campaigns = app.get("/api/campaign?Skip=0&Take=10", token).await.json();
    assert_eq!(campaigns["totalCount"], 2);
    assert_eq!(ids(campaigns), [confirmed, expected]);
    app.call(Method::PUT, "/api/campaign/approve", Some(token), Some(json!({"id": expected})))
        .await
        .expect_message(409, "The campaign is already approved.");
    app.call(Method::PUT, "/api/campaign/approve", Some(token), Some(json!({"id": 999})))
        .await
        .expect_message(404, "Campaign not found.");
    app.call(Method::PUT, "/api/campaign/approve", Some(token), Some(json!({"id": "x"}))).await.expect(400);

    // Expected campaigns are deleted through DELETE campaign too.
    app.state.db.conn().unwrap().execute("UPDATE campaigns SET is_confirmed = 0 WHERE id = ?1", [confirmed]).unwrap();
    app.call(Method::DELETE, "/api/campaign", Some(token), Some(json!({"id": [confirmed]}))).await.expect(200);
    assert_eq!(app.get("/api/campaign/notConfirmed", token).await.json()["totalCount"], 0);
    assert_no_gaps(&app);
}

#[tokio::test]
async fn a_notification_is_sent_once() {
    let app = test_app();
    let admin = app.admin().await;
    let s = seed(&app);
    let token = &admin.token;
    let campaign = id(&create(&app, token, &s, &[]).await);
    let path = "/api/campaign/changeNotificationStatus";
    let blank = app.call(Method::PUT, path, Some(token), Some(json!({"id": campaign, "text": "  "}))).await;
    blank.expect_message(400, "Notification text is required");
    assert_eq!(blank.json()["errors"]["text"], "Notification text is required");

    let sent = app.call(Method::PUT, path, Some(token), Some(json!({"id": campaign, "text": "Yeni endirim!"}))).await;
    sent.expect(200);
    assert_eq!(sent.json()["notificationStatus"], 1);
    let stored: (String, String, i64, i64) = app
        .state
        .db
        .conn()
        .unwrap()
        .query_row("SELECT header, text, type, campaign_id FROM notifications", [], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
        })
        .unwrap();
    assert_eq!(stored, ("Qış endirimi".to_string(), "Yeni endirim!".to_string(), 2, campaign));
    let notifications = app.get("/api/notification", token).await.json();
    assert_eq!(notifications["data"][0]["campaignId"], campaign);

    app.call(Method::PUT, path, Some(token), Some(json!({"id": campaign, "text": "Again"})))
        .await
        .expect_message(409, "A notification was already sent for this campaign.");
    assert_eq!(app.count("SELECT COUNT(*) FROM notifications"), 1);
    app.call(Method::PUT, path, Some(token), Some(json!({"id": 999, "text": "x"}))).await.expect(404);
    let expected = id(&create(&app, token, &s, &[]).await);
    app.state.db.conn().unwrap().execute("UPDATE campaigns SET is_confirmed = 0 WHERE id = ?1", [expected]).unwrap();
    app.call(Method::PUT, path, Some(token), Some(json!({"id": expected, "text": "x"})))
        .await
        .expect_message(409, "Approve the campaign before sending a notification.");
}

#[tokio::test]
async fn signed_out_is_401_call_center_reads_only_and_missing_is_404() {
    let app = test_app();
    let admin = app.admin().await;
    let s = seed(&app);
    let campaign = id(&create(&app, &admin.token, &s, &[]).await);
    let call_center = app.user_with_role("cc@perk.az", 2).await;
    let user = app.user_with_role("user@perk.az", 1).await;

    for path in ["/api/campaign", "/api/campaign/notConfirmed", "/api/campaign/orders", "/api/campaign/export"] {
        app.call(Method::GET, path, None, None).await.expect(401);
        app.get(path, &call_center.token).await.expect(200);
    }
    app.get(&format!("/api/campaign/{campaign}"), &call_center.token).await.expect(200);
    app.get("/api/campaign/999", &call_center.token).await.expect_message(404, "Campaign not found.");
    send(&app, Method::POST, "", &fields(&s, &[]), IMAGES).await.expect(401);

    let cc = &call_center.token;
    send(&app, Method::POST, cc, &fields(&s, &[]), IMAGES).await.expect(403);
    send(&app, Method::PUT, cc, &fields(&s, &[("id", campaign.to_string().leak())]), &[]).await.expect(403);
    for (method, path, body) in [
        (Method::PUT, "/api/campaign/approve", json!({"id": campaign})),
        (Method::PUT, "/api/campaign/changeNotificationStatus", json!({"id": campaign, "text": "x"})),
        (Method::PATCH, "/api/campaign/active", json!({"id": campaign, "isActive": false})),
        (Method::DELETE, "/api/campaign", json!({"id": [campaign]})),
    ] {
        app.call(method.clone(), path, Some(cc), Some(body.clone())).await.expect(403);
        app.call(method, path, None, Some(body)).await.expect(401);
    }
    assert_eq!(app.count("SELECT COUNT(*) FROM campaigns WHERE deleted_at IS NULL AND is_active = 1"), 1);

    // A User writes.
    let toggled = app
        .call(
            Method::PATCH,
            "/api/campaign/active",
            Some(&user.token),
            Some(json!({"id": campaign, "isActive": false})),
        )
        .await;
    toggled.expect(200);
    assert_eq!(app.get(&format!("/api/campaign/{campaign}"), &user.token).await.json()["isActive"], false);
    create(&app, &user.token, &s, &[]).await;
}

#[tokio::test]
async fn a_repeated_request_id_creates_one_campaign() {
    let app = test_app();
    let admin = app.admin().await;
    let s = seed(&app);
    let fields = fields(&s, &[]);
    let borrowed: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let (content_type, body) = multipart(&borrowed, IMAGES);
    let mut answers = vec![];
    for _ in 0..2 {
        let request = Request::builder()
            .method(Method::POST)
            .uri("/api/campaign")
            .header("authorization", format!("Bearer {}", admin.token))
            .header("content-type", &content_type)
            .header("x-requestid", "create-campaign-1")
            .body(Body::from(body.clone()))
            .unwrap();
        answers.push(app.send(request).await);
    }
    answers[0].expect(201);
    answers[1].expect(201);
    assert_eq!(answers[0].json(), answers[1].json());
    assert_eq!(answers[1].headers["x-idempotent-replay"], "true");
    assert_eq!(app.count("SELECT COUNT(*) FROM campaigns"), 1);
    assert_eq!(app.count("SELECT COUNT(*) FROM files"), 2);

    let campaign = id(&answers[0].json());
    let headers = [("x-requestid", "notify-1")];
    let body = json!({"id": campaign, "text": "Bir dəfə"});
    for _ in 0..2 {
        let sent = app
            .call_with(
                Method::PUT,
                "/api/campaign/changeNotificationStatus",
                Some(&admin.token),
                Some(body.clone()),
                &headers,
            )
            .await;
        sent.expect(200);
    }
    assert_eq!(app.count("SELECT COUNT(*) FROM notifications"), 1);
}

#[tokio::test]
async fn export_has_typed_cells_and_follows_the_filter() {
    use calamine::{Data, Reader, Xlsx};
    let app = test_app();
    let admin = app.admin().await;
    let s = seed(&app);
    create(&app, &admin.token, &s, &[]).await;
    create(&app, &admin.token, &s, &[("discountPercent", "45"), ("nameEn", "Cinema night")]).await;
    let file = app
        .call_with(
            Method::GET,
            "/api/campaign/export?DiscountPercent=45",
            Some(&admin.token),
            None,
            &[("accept-language", "2")],
        )
        .await;
    file.expect(200);
    assert!(file.headers["content-disposition"].to_str().unwrap().contains("Campaign.xlsx"));
    let mut workbook: Xlsx<_> = calamine::open_workbook_from_rs(std::io::Cursor::new(file.bytes.clone())).unwrap();
    let sheet = workbook.worksheet_range_at(0).unwrap().unwrap();
    let rows: Vec<&[Data]> = sheet.rows().collect();
    assert_eq!(rows.len(), 2, "header and the one filtered row");
    assert_eq!(rows[0][0], Data::String("Partner name".into()));
    assert_eq!(rows[1][1], Data::String("Cinema night".into()), "named in the caller's language");
    assert_eq!(rows[1][3], Data::Float(45.0), "discount as a number");
    assert!(matches!(rows[1][8], Data::DateTime(_)), "expire date as an Excel date: {:?}", rows[1][8]);
    assert_eq!(rows[0][11], Data::String("Notification status".into()));
    assert_eq!(rows[1][11], Data::String("Not sent".into()), "the notification state in words, as the screen says it");
    assert_eq!(workbook_rows(&app.get("/api/campaign/export", &admin.token).await.bytes).len(), 3);
    let expected = app.get("/api/campaign/notConfirmed/export", &admin.token).await;
    expected.expect(200);
    assert_eq!(workbook_rows(&expected.bytes).len(), 1, "no expected campaigns yet");
}

#[tokio::test]
async fn pickers_for_notifications_and_promo_codes() {
    let app = test_app();
    let admin = app.admin().await;
    let s = seed(&app);
    let token = &admin.token;
    let active = id(&create(&app, token, &s, &[]).await);
    let inactive = id(&create(&app, token, &s, &[]).await);
    let expected = id(&create(&app, token, &s, &[]).await);
    let conn = app.state.db.conn().unwrap();
    conn.execute("UPDATE campaigns SET is_active = 0 WHERE id = ?1", [inactive]).unwrap();
    conn.execute("UPDATE campaigns SET is_confirmed = 0 WHERE id = ?1", [expected]).unwrap();
    conn.execute("UPDATE campaign_categories SET is_active = 0 WHERE id = ?1", [s.categories[1]]).unwrap();

    let categories = get_lang(&app, "/api/campaign/notificationCategory", token, "3").await;
    assert_eq!(categories["totalCount"], 1, "active categories only");
    assert_eq!(categories["data"][0], json!({"id": s.categories[0], "name": "Одежда", "nameAz": "Geyim"}));

    let campaigns = get_lang(&app, "/api/campaign/notficationCampany", token, "2").await;
    assert_eq!(campaigns["totalCount"], 1, "active confirmed campaigns only");
    assert_eq!(campaigns["data"][0]["id"], active);
    assert_eq!(campaigns["data"][0]["name"], "Winter sale");
    assert_eq!(app.get("/api/campaign/notficationCampany?name=yok", token).await.json()["totalCount"], 0);
    assert_eq!(
        app.get("/api/campaign/notficationCampany?Skip=0&Take=30&name=ENDIRIM", token).await.json()["totalCount"],
        1
    );

    let promo = app.get(&format!("/api/campaign/forPromoCode?partnerId={}", s.partner), token).await;
    promo.expect(200);
    assert_eq!(promo.json()["totalCount"], 2, "the partner's confirmed campaigns");
    assert_eq!(promo.json()["data"][1], json!({"id": active, "name": "Qış endirimi", "nameAz": "Qış endirimi"}));
    app.get("/api/campaign/forPromoCode", token).await.expect_message(400, "Partner is required");
    app.get("/api/campaign/forPromoCode?partnerId=999", token).await.expect_message(404, "Partner not found.");
    app.get("/api/campaign/forPromoCode?partnerId=1&Take=101", token).await.expect(400);
}

#[tokio::test]
async fn the_demo_has_campaigns_in_three_languages_expected_ones_and_sent_notifications() {
    let app = test_app();
    perkdesk::cli::demo::prepare(&app.state.db, true).unwrap();
    let admin = app.admin().await;
    let token = &admin.token;
    let campaigns = get_lang(&app, "/api/campaign?Skip=0&Take=100", token, "3").await;
    assert_eq!(campaigns["totalCount"], 11);
    let rows = campaigns["data"].as_array().unwrap();
    assert!(rows.iter().any(|row| row["name"] == "Киносреда"), "Russian names");
    assert!(rows.iter().all(|row| row["filePath"].as_str().is_some_and(|p| p.starts_with("cdn/"))));
    assert_eq!(rows.iter().filter(|row| row["notificationStatus"] == 1).count(), 3);
    assert_eq!(app.get("/api/campaign/notConfirmed", token).await.json()["totalCount"], 3);
    let detail = app.get(&format!("/api/campaign/{}", rows[0]["id"]), token).await.json();
    let background = detail["backgroundFilePath"].as_str().unwrap();
    app.call(Method::GET, &format!("/{background}"), None, None).await.expect(200);
    assert!(!detail["assets"].as_array().unwrap().is_empty());
    let categories = get_lang(&app, "/api/campaign/category", token, "2").await;
    assert_eq!(categories["totalCount"], 6);
    assert!(categories["data"].as_array().unwrap().iter().any(|row| row["name"] == "Electronics"));
    let notifications = app.get("/api/notification", token).await.json();
    assert_eq!(notifications["totalCount"], 6);
    assert_no_gaps(&app);
}
