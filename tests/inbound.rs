//! The inbound API: API clients (admin calls, key checks, kinds, revocation, rate), the employee
//! app's calls and refusals, the partner portal (scoped to its partner) and the public merchant
//! application, each write checked on the back-office list it feeds.

use crate::common;
use crate::people;

use axum::http::Method;
use common::*;
use perkdesk::auth::api_keys;
use perkdesk::resources::api_clients as clients;
use serde_json::{Value, json};

/// A client made directly; returns its key.
fn client(app: &TestApp, kind: &str, partner: Option<i64>, per_minute: i64) -> String {
    app.api_key(kind, partner, per_minute)
}

/// The world of the people tests, with the first campaign offered to its asset and the other not.
fn world(app: &TestApp) -> people::World {
    people::offered_world(&app.state.db.conn().unwrap())
}

const EMPLOYEE: &str = people::EMPLOYEES[0].2;

async fn post(app: &TestApp, path: &str, key: &str, body: Value) -> Response {
    app.call(Method::POST, path, Some(key), Some(body)).await
}

#[tokio::test]
async fn admins_make_list_and_revoke_clients_and_see_each_key_once() {
    let app = test_app();
    let admin = app.admin().await;
    let user = app.user_with_role("user@perk.az", 1).await;
    let made =
        post(&app, "/api/apiClient", &admin.token, json!({"name": "Employee app", "kind": "employee-app"})).await;
    made.expect(201);
    let key = made.json()["key"].as_str().unwrap().to_string();
    assert!(key.starts_with("pk_") && key.len() > 40, "{key}");
    let id = made.json()["client"]["id"].as_i64().unwrap();
    assert_eq!(made.json()["client"]["kind"], "employee-app");
    assert_eq!(made.json()["client"]["isRevoked"], false);
    // Stored only as a hash: the key appears nowhere in the database file's rows.
    let stored: (String, String) = app
        .state
        .db
        .conn()
        .unwrap()
        .query_row("SELECT key_hash, key_prefix FROM api_clients WHERE id = ?1", [id], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap();
    assert_ne!(stored.0, key);
    assert_eq!(stored.0.len(), 64);
    assert!(key.starts_with(&stored.1));
    // Listed without its key; a repeat with the same x-requestid is not served the key again.
    let list = app.get("/api/apiClient?Skip=0&Take=10", &admin.token).await;
    list.expect(200);
    assert_eq!(list.json()["totalCount"], 1);
    assert!(!String::from_utf8_lossy(&list.bytes).contains(&key));
    let body = json!({"name": "Twice", "kind": "employee-app"});
    let headers = [("x-requestid", "make-once")];
    let first = app.call_with(Method::POST, "/api/apiClient", Some(&admin.token), Some(body.clone()), &headers).await;
    let second = app.call_with(Method::POST, "/api/apiClient", Some(&admin.token), Some(body), &headers).await;
    first.expect(201);
    second.expect(201);
    assert_eq!(second.headers["x-idempotent-replay"], "true", "the repeat makes no second client");
    assert_eq!(second.json()["client"]["id"], first.json()["client"]["id"]);
    assert!(second.json().get("key").is_none(), "a key is never replayed");
    // Admins only.
    post(&app, "/api/apiClient", &user.token, json!({"name": "x", "kind": "employee-app"})).await.expect(403);
    app.get("/api/apiClient", &user.token).await.expect(403);
    // Validation names the field.
    let bad = post(&app, "/api/apiClient", &admin.token, json!({"name": " ", "kind": "robot"})).await;
    bad.expect(400);
    assert_eq!(bad.json()["errors"]["name"], clients::NAME_REQUIRED);
    assert_eq!(bad.json()["errors"]["kind"], clients::KIND_INVALID);
    post(&app, "/api/apiClient", &admin.token, json!({"name": "P", "kind": "partner"}))
        .await
        .expect_message(400, clients::PARTNER_REQUIRED);
    post(&app, "/api/apiClient", &admin.token, json!({"name": "P", "kind": "partner", "partnerId": 999}))
        .await
        .expect_message(404, "There is no partner with id 999.");
    post(&app, "/api/apiClient", &admin.token, json!({"name": "R", "kind": "employee-app", "rateLimitPerMinute": 0}))
        .await
        .expect_message(400, clients::RATE_RANGE);

    // The key works until it is revoked, and is refused at once afterwards.
    let world = world(&app);
    let _ = world;
    let campaigns = format!("/api/app/campaigns?employeeEmail={EMPLOYEE}");
    app.get(&campaigns, &key).await.expect(200);
    let detail = app.get(&format!("/api/apiClient/{id}"), &admin.token).await;
    assert!(detail.json()["lastUsedAt"].is_string(), "last use recorded");
    app.call(Method::PUT, "/api/apiClient/revoke", Some(&admin.token), Some(json!({"id": id}))).await.expect(200);
    app.get(&campaigns, &key).await.expect_message(401, api_keys::KEY_REVOKED);
    app.call(Method::PUT, "/api/apiClient/revoke", Some(&admin.token), Some(json!({"id": id})))
        .await
        .expect_message(409, clients::ALREADY_REVOKED);
    app.call(Method::PUT, "/api/apiClient/revoke", Some(&admin.token), Some(json!({"id": 999}))).await.expect(404);
}

#[tokio::test]
async fn keys_and_staff_tokens_each_open_only_their_own_api() {
    let app = test_app();
    let admin = app.admin().await;
    let world = world(&app);
    let app_key = client(&app, "employee-app", None, 1000);
    let partner_key = client(&app, "partner", Some(world.partner), 1000);
    let campaigns = format!("/api/app/campaigns?employeeEmail={EMPLOYEE}");
    app.get(&campaigns, &admin.token).await.expect_message(401, api_keys::STAFF_TOKEN_REFUSED);
    app.call(Method::GET, &campaigns, None, None).await.expect_message(401, api_keys::KEY_REQUIRED);
    app.get(&campaigns, "pk_not-a-real-key").await.expect_message(401, api_keys::KEY_UNKNOWN);
    app.get(&campaigns, &partner_key).await.expect(403);
    app.get("/api/partner-portal/campaigns", &app_key).await.expect(403);
    app.get("/api/partner-portal/campaigns", &admin.token).await.expect(401);
    for path in ["/api/user", "/api/employee/forAdmin", "/api/usageHistory"] {
        app.get(path, &app_key).await.expect_message(401, perkdesk::auth::API_KEY_NOT_HERE);
    }
}

#[tokio::test]
async fn the_app_puts_employees_into_employee_list() {
    let app = test_app();
    let admin = app.admin().await;
    let world = world(&app);
    let key = client(&app, "employee-app", None, 1000);
    let body = json!({"assetId": world.asset, "firstName": "Nərgiz", "lastName": "Əliyeva", "phone": "994701234567"});
    let created = app.call(Method::PUT, "/api/app/employees/nergiz@azercell.az", Some(&key), Some(body)).await;
    created.expect(201);
    assert_eq!(created.json()["assetName"], "Azercell");
    assert_eq!(created.json()["isActive"], true);
    let id = created.json()["id"].as_i64().unwrap();
    let listed = app.get("/api/employee/filter/admin?Email=nergiz", &admin.token).await;
    assert_eq!(listed.json()["totalCount"], 1);
    // The same e-mail again updates (by barcode prefix this time) and may deactivate.
    let body = json!({"assetBarcodePrefix": "AZC", "firstName": "Nərgiz", "lastName": "Hüseynova",
                      "phone": "994501234567", "isActive": false});
    let updated = app.call(Method::PUT, "/api/app/employees/nergiz@azercell.az", Some(&key), Some(body)).await;
    updated.expect(200);
    assert_eq!(updated.json()["id"], id);
    assert_eq!(updated.json()["lastName"], "Hüseynova");
    assert_eq!(updated.json()["isActive"], false);
    // The back office's rules and messages.
    let bad = json!({"assetId": world.asset, "firstName": "", "lastName": "X", "phone": "0501234567"});
    let refused = app.call(Method::PUT, "/api/app/employees/not-an-email", Some(&key), Some(bad)).await;
    refused.expect(400);
    assert_eq!(refused.json()["errors"]["email"], perkdesk::core::validation::EMAIL_FORMAT);
    assert_eq!(refused.json()["errors"]["firstName"], "First name is required");
    assert_eq!(refused.json()["errors"]["phone"], perkdesk::core::validation::PHONE_FORMAT);
    let unknown = json!({"assetId": 999, "firstName": "A", "lastName": "B", "phone": "994501234567"});
    app.call(Method::PUT, "/api/app/employees/a@b.az", Some(&key), Some(unknown))
        .await
        .expect_message(404, "There is no asset with id 999.");
    let none = json!({"firstName": "A", "lastName": "B", "phone": "994501234567"});
    let missing = app.call(Method::PUT, "/api/app/employees/a@b.az", Some(&key), Some(none)).await;
    missing.expect(400);
    assert_eq!(missing.json()["errors"]["assetId"], perkdesk::inbound::app::ASSET_REQUIRED);
}

#[tokio::test]
async fn the_app_lists_the_campaigns_offered_to_the_employee() {
    let app = test_app();
    let world = world(&app);
    let key = client(&app, "employee-app", None, 1000);
    let page = app.get(&format!("/api/app/campaigns?employeeEmail={EMPLOYEE}&lang=en&Skip=0&Take=10"), &key).await;
    page.expect(200);
    let body = page.json();
    assert_eq!(body["totalCount"], 1, "the other campaign is not offered to the asset: {body}");
    let campaign = &body["data"][0];
    assert_eq!(campaign["id"], world.campaign);
    assert_eq!(campaign["partner"]["name"], "Bravo");
    assert_eq!(campaign["category"]["name"], "Market");
    assert_eq!(campaign["discountPercent"], 15);
    assert_eq!(campaign["branches"].as_array().unwrap().len(), 2);
    assert_eq!(campaign["branches"][0]["address"], "Nizami küç. 10");
    // The parameter's first name is still read (an app built against it keeps working); the new
    // one wins when both are sent.
    let first_name = app.get(&format!("/api/app/campaigns?employee={EMPLOYEE}&lang=en"), &key).await;
    first_name.expect(200);
    assert_eq!(first_name.json()["data"], body["data"]);
    let both = app.get(&format!("/api/app/campaigns?employeeEmail={EMPLOYEE}&employee=nobody@azercell.az"), &key).await;
    assert_eq!(both.json()["totalCount"], 1);
    // Expired, inactive or unconfirmed campaigns are not offered.
    let conn = app.state.db.conn().unwrap();
    conn.execute("UPDATE campaigns SET expire_date = '2021-01-01T00:00:00.000Z' WHERE id = ?1", [world.campaign])
        .unwrap();
    let page = app.get(&format!("/api/app/campaigns?employeeEmail={EMPLOYEE}"), &key).await;
    assert_eq!(page.json()["totalCount"], 0);
    app.get(&format!("/api/app/campaigns?employeeEmail={EMPLOYEE}&lang=de"), &key)
        .await
        .expect_message(400, perkdesk::inbound::app::LANG_INVALID);
    app.get("/api/app/campaigns?employeeEmail=nobody@azercell.az", &key)
        .await
        .expect_message(404, perkdesk::inbound::app::EMPLOYEE_UNKNOWN);
    conn.execute("UPDATE employees SET is_active = 0 WHERE id = ?1", [world.employees[0]]).unwrap();
    app.get(&format!("/api/app/campaigns?employeeEmail={EMPLOYEE}"), &key)
        .await
        .expect_message(409, perkdesk::inbound::app::EMPLOYEE_INACTIVE);
    let missing = app.get("/api/app/campaigns", &key).await;
    missing.expect_message(400, perkdesk::inbound::app::EMPLOYEE_REQUIRED);
    assert_eq!(missing.json()["errors"]["employeeEmail"], perkdesk::inbound::app::EMPLOYEE_REQUIRED);
    let unknown = app.get("/api/app/campaigns?employeeEmail=nobody@azercell.az", &key).await;
    assert_eq!(unknown.json()["errors"]["employeeEmail"], perkdesk::inbound::app::EMPLOYEE_UNKNOWN);
}

#[tokio::test]
async fn a_use_lands_in_usage_history_and_the_refusals_name_their_field() {
    use perkdesk::inbound::app::*;
    let app = test_app();
    let admin = app.admin().await;
    let world = world(&app);
    let key = client(&app, "employee-app", None, 1000);
    let body = json!({"employeeEmail": EMPLOYEE, "campaignId": world.campaign, "partnerCityId": world.branches[1], "rating": 4});
    let used = post(&app, "/api/app/usage", &key, body.clone()).await;
    used.expect(201);
    assert_eq!(used.json()["campaignName"], "Həftəsonu endirimi");
    assert_eq!(used.json()["partnerName"], "Bravo");
    assert_eq!(used.json()["rating"], 4);
    let listed = app.get("/api/usageHistory?Skip=0&Take=10", &admin.token).await;
    assert_eq!(listed.json()["totalCount"], 1);
    assert_eq!(listed.json()["data"][0]["employeeEmail"], EMPLOYEE);
    // On record as the API client's.
    let record = listed.json()["data"][0]["id"].as_i64().unwrap();
    let history = app.get(&format!("/api/usageHistory/{record}/history"), &admin.token).await.json();
    assert_eq!(history["data"][0]["action"], "create");
    assert_eq!(history["data"][0]["actorKind"], "client");
    assert_eq!(history["data"][0]["actorName"], "employee-app test");

    // An idempotent repeat answers the same without a second row; another payload is a 422.
    let headers = [("x-requestid", "use-1")];
    let first = app.call_with(Method::POST, "/api/app/usage", Some(&key), Some(body.clone()), &headers).await;
    let again = app.call_with(Method::POST, "/api/app/usage", Some(&key), Some(body.clone()), &headers).await;
    first.expect(201);
    again.expect(201);
    assert_eq!(first.json(), again.json());
    assert_eq!(again.headers["x-idempotent-replay"], "true");
    assert_eq!(app.count("SELECT COUNT(*) FROM usage_history"), 2);
    let other = json!({"employeeEmail": EMPLOYEE, "campaignId": world.campaign});
    app.call_with(Method::POST, "/api/app/usage", Some(&key), Some(other), &headers).await.expect(422);
    // The same request id from another client is that client's own.
    let other_key = client(&app, "employee-app", None, 1000);
    app.call_with(Method::POST, "/api/app/usage", Some(&other_key), Some(body.clone()), &headers).await.expect(201);
    assert_eq!(app.count("SELECT COUNT(*) FROM usage_history"), 3);
    // Its first call stamped its last use (on PostgreSQL once the use's transaction, which held
    // the claim, had ended: `Db::write_aside`).
    let stamped =
        "SELECT COUNT(*) FROM api_clients WHERE id = (SELECT MAX(id) FROM api_clients) AND last_used_at IS NOT NULL";
    assert_eq!(app.count(stamped), 1, "the new key's first use is stamped");
    // Once its client is revoked, the key's stored answer is replayed to nobody: the key is
    // checked with the claim, before any stored answer is looked at.
    let other_client = app.count("SELECT MAX(id) FROM api_clients");
    app.call(Method::PUT, "/api/apiClient/revoke", Some(&admin.token), Some(json!({"id": other_client})))
        .await
        .expect(200);
    let revoked = app.call_with(Method::POST, "/api/app/usage", Some(&other_key), Some(body.clone()), &headers).await;
    revoked.expect_message(401, api_keys::KEY_REVOKED);
    assert!(!revoked.headers.contains_key("x-idempotent-replay"));
    // An unknown key with the same id is refused as unknown, not answered from anyone's store.
    let unknown = "pk_0000000000000000000000000000000000000000000";
    let refused = app.call_with(Method::POST, "/api/app/usage", Some(unknown), Some(body.clone()), &headers).await;
    refused.expect_message(401, api_keys::KEY_UNKNOWN);
    assert_eq!(app.count("SELECT COUNT(*) FROM usage_history"), 3);

    let refusal = |body: Value, status: u16, field: &'static str, message: &'static str| {
        let app = &app;
        let key = key.clone();
        async move {
            let response = post(app, "/api/app/usage", &key, body).await;
            response.expect_message(status, message);
            assert_eq!(response.json()["errors"][field], message, "{field}");
        }
    };
    let usage = |campaign: i64| json!({"employeeEmail": EMPLOYEE, "campaignId": campaign});
    refusal(usage(world.other_campaign), 409, "campaignId", CAMPAIGN_NOT_OFFERED).await;
    refusal(usage(999), 404, "campaignId", "There is no campaign with id 999.").await;
    refusal(
        json!({"employeeEmail": EMPLOYEE, "campaignId": world.campaign, "partnerCityId": world.other_branch}),
        404,
        "partnerCityId",
        "The campaign's partner has no branch with id 3.",
    )
    .await;
    refusal(json!({"employeeEmail": EMPLOYEE, "campaignId": world.campaign, "rating": 7}), 400, "rating", RATING_RANGE)
        .await;
    refusal(json!({"campaignId": world.campaign}), 400, "employeeEmail", EMPLOYEE_REQUIRED).await;
    refusal(
        json!({"employeeEmail": "nobody@azercell.az", "campaignId": world.campaign}),
        404,
        "employeeEmail",
        EMPLOYEE_UNKNOWN,
    )
    .await;
    let conn = app.state.db.conn().unwrap();
    conn.execute("UPDATE campaigns SET is_active = 0 WHERE id = ?1", [world.campaign]).unwrap();
    refusal(usage(world.campaign), 409, "campaignId", CAMPAIGN_INACTIVE).await;
    conn.execute(
        "UPDATE campaigns SET is_active = 1, expire_date = '2021-01-01T00:00:00.000Z' WHERE id = ?1",
        [world.campaign],
    )
    .unwrap();
    refusal(usage(world.campaign), 409, "campaignId", CAMPAIGN_EXPIRED).await;
    conn.execute(
        "UPDATE campaigns SET start_date = '2998-01-01T00:00:00.000Z', expire_date = '2999-01-01T00:00:00.000Z' WHERE id = ?1",
        [world.campaign],
    )
    .unwrap();
    refusal(usage(world.campaign), 409, "campaignId", CAMPAIGN_NOT_STARTED).await;
    conn.execute("UPDATE campaigns SET start_date = '2020-01-01T00:00:00.000Z' WHERE id = ?1", [world.campaign])
        .unwrap();
    conn.execute("UPDATE employees SET is_active = 0 WHERE id = ?1", [world.employees[0]]).unwrap();
    refusal(usage(world.campaign), 409, "employeeEmail", EMPLOYEE_INACTIVE).await;
    assert_eq!(app.count("SELECT COUNT(*) FROM usage_history"), 3, "no refusal wrote anything");
}

#[tokio::test]
async fn wishes_complaints_and_notifications() {
    let app = test_app();
    let admin = app.admin().await;
    let world = world(&app);
    let key = client(&app, "employee-app", None, 1000);
    let wish =
        post(&app, "/api/app/wishes", &key, json!({"employeeEmail": EMPLOYEE, "text": "Kinoteatr endirimi"})).await;
    wish.expect(201);
    assert_eq!(wish.json()["statusName"], "New");
    let listed = app.get("/api/wishList?Skip=0&Take=10", &admin.token).await;
    assert_eq!(listed.json()["data"][0]["text"], "Kinoteatr endirimi");
    post(&app, "/api/app/wishes", &key, json!({"employeeEmail": EMPLOYEE, "text": "  "}))
        .await
        .expect_message(400, perkdesk::inbound::app::TEXT_REQUIRED);

    let from_employee = json!({"employeeEmail": EMPLOYEE, "reasonId": 3, "description": "Kassir endirimi vermədi"});
    let complaint = post(&app, "/api/app/complaints", &key, from_employee).await;
    complaint.expect(201);
    assert_eq!(complaint.json()["fullName"], "İlkin Məmmədov");
    assert_eq!(
        complaint.json()["reasonName"],
        "İşçilərin davranışı",
        "in the caller's language (Azerbaijani by default)"
    );
    let anyone = json!({"fullName": "Ləman Quliyeva", "email": "leman@mail.az", "phone": "994551234567",
                        "reasonId": 5, "description": "Tətbiq açılmır"});
    post(&app, "/api/app/complaints", &key, anyone).await.expect(201);
    let listed = app.get("/api/complaint?Skip=0&Take=10", &admin.token).await;
    assert_eq!(listed.json()["totalCount"], 2);
    let bad = post(&app, "/api/app/complaints", &key, json!({"fullName": "", "email": "x", "reasonId": 0})).await;
    bad.expect(400);
    for field in ["fullName", "email", "reasonId", "description"] {
        assert!(bad.json()["errors"][field].is_string(), "{field}: {}", bad.json());
    }
    post(&app, "/api/app/complaints", &key, json!({"employeeEmail": EMPLOYEE, "reasonId": 99, "description": "x"}))
        .await
        .expect_message(404, "There is no complaint reason with id 99.");

    let conn = app.state.db.conn().unwrap();
    conn.execute(
        "INSERT INTO notifications (header, text, type, category_id) VALUES ('Yeni', 'Hamıya', 1, ?1)",
        [world.category],
    )
    .unwrap();
    conn.execute(
        "INSERT INTO notifications (header, text, type, campaign_id) VALUES ('Bravo', 'Sizə', 2, ?1)",
        [world.campaign],
    )
    .unwrap();
    conn.execute(
        "INSERT INTO notifications (header, text, type, campaign_id) VALUES ('Araz', 'Başqasına', 2, ?1)",
        [world.other_campaign],
    )
    .unwrap();
    let seen = app.get(&format!("/api/app/notifications?employeeEmail={EMPLOYEE}"), &key).await;
    seen.expect(200);
    assert_eq!(seen.json()["totalCount"], 2);
    assert_eq!(seen.json()["data"][0]["header"], "Bravo");
    assert_eq!(seen.json()["data"][1]["text"], "Hamıya");
}

#[tokio::test]
async fn each_client_has_its_own_rate() {
    let app = test_app();
    world(&app);
    let slow = client(&app, "employee-app", None, 2);
    let fast = client(&app, "employee-app", None, 1000);
    let path = format!("/api/app/notifications?employeeEmail={EMPLOYEE}");
    app.get(&path, &slow).await.expect(200);
    app.get(&path, &slow).await.expect(200);
    let limited = app.get(&path, &slow).await;
    limited.expect(429);
    assert!(limited.headers.contains_key("retry-after"));
    app.get(&path, &fast).await.expect(200);
}

fn campaign_fields(category: i64) -> Vec<(String, String)> {
    let start = time::OffsetDateTime::now_utc() + time::Duration::days(1);
    let expire = start + time::Duration::days(30);
    let iso = |at: time::OffsetDateTime| at.format(&time::format_description::well_known::Rfc3339).unwrap();
    [
        ("campaignCategoryId", category.to_string()),
        ("discountPercent", "20".into()),
        ("startDate", iso(start)),
        ("expireDate", iso(expire)),
        ("nameAz", "Yay endirimi".into()),
        ("nameEn", "Summer sale".into()),
        ("nameRu", "Летняя скидка".into()),
        ("descriptionAz", "Təsvir".into()),
        ("descriptionEn", "Description".into()),
        ("descriptionRu", "Описание".into()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect()
}

#[tokio::test]
async fn a_partner_submits_campaigns_that_wait_for_approval() {
    let app = test_app();
    let admin = app.admin().await;
    let world = world(&app);
    let key = client(&app, "partner", Some(world.partner), 1000);
    let other_key = client(&app, "partner", Some(world.other_partner), 1000);
    let fields = campaign_fields(world.category);
    let borrowed: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let images: &[(&str, &str, &[u8])] = &[("file", "a.png", PNG), ("backgroundFile", "b.png", PNG)];
    let sent = app.send_form(Method::POST, "/api/partner-portal/campaigns", &key, &borrowed, images).await;
    sent.expect(201);
    let id = sent.json()["id"].as_i64().unwrap();
    assert_eq!(sent.json()["isConfirmed"], false);
    assert_eq!(sent.json()["partnerName"], "Bravo");
    let expected = app.get("/api/campaign/notConfirmed?Skip=0&Take=10", &admin.token).await;
    assert_eq!(expected.json()["totalCount"], 1);
    assert_eq!(expected.json()["data"][0]["id"], id);
    // The back office's rules and messages.
    let without_name: Vec<(&str, &str)> = borrowed.iter().copied().filter(|(k, _)| *k != "nameAz").collect();
    let refused = app.send_form(Method::POST, "/api/partner-portal/campaigns", &key, &without_name, &[]).await;
    refused.expect(400);
    assert_eq!(refused.json()["errors"]["nameAz"], perkdesk::resources::campaigns::NAME_REQUIRED);
    assert_eq!(refused.json()["errors"]["file"], perkdesk::resources::campaigns::FILE_REQUIRED);
    // Its own list with states; another partner sees neither the list entry nor the campaign.
    let own = app.get("/api/partner-portal/campaigns", &key).await;
    own.expect(200);
    let own = own.json();
    let states: Vec<&str> = own["data"].as_array().unwrap().iter().map(|c| c["state"].as_str().unwrap()).collect();
    assert_eq!(states, ["awaiting approval", "active"]);
    app.get(&format!("/api/partner-portal/campaigns/{id}"), &key).await.expect(200);
    app.get(&format!("/api/partner-portal/campaigns/{id}"), &other_key)
        .await
        .expect_message(404, perkdesk::inbound::partner::CAMPAIGN_UNKNOWN);
    assert_eq!(app.get("/api/partner-portal/campaigns", &other_key).await.json()["totalCount"], 1);
    // Naming its own partner is fine; naming another partner is refused, not quietly ignored.
    let named = |partner: i64| {
        let mut fields = fields.clone();
        fields.push(("partnerId".into(), partner.to_string()));
        fields
    };
    let own_named = named(world.partner);
    let own_named: Vec<(&str, &str)> = own_named.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    app.send_form(Method::POST, "/api/partner-portal/campaigns", &key, &own_named, images).await.expect(201);
    let foreign = named(world.other_partner);
    let foreign: Vec<(&str, &str)> = foreign.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let before = app.count("SELECT COUNT(*) FROM campaigns");
    app.send_form(Method::POST, "/api/partner-portal/campaigns", &key, &foreign, images)
        .await
        .expect_message(403, perkdesk::resources::campaigns::FOREIGN_PARTNER);
    assert_eq!(app.count("SELECT COUNT(*) FROM campaigns"), before);
    // The app key is the wrong kind here.
    let app_key = client(&app, "employee-app", None, 1000);
    app.send_form(Method::POST, "/api/partner-portal/campaigns", &app_key, &borrowed, images).await.expect(403);
}

#[tokio::test]
async fn a_partner_redeems_its_own_codes_once() {
    use perkdesk::resources::promo_codes::{CODE_UNKNOWN, CODE_USED};
    let app = test_app();
    let admin = app.admin().await;
    let world = world(&app);
    let key = client(&app, "partner", Some(world.partner), 1000);
    let other_key = client(&app, "partner", Some(world.other_partner), 1000);
    let conn = app.state.db.conn().unwrap();
    conn.execute(
        "INSERT INTO promo_codes (partner_id, campaign_id, code) VALUES (?1, ?2, 'ABCD2345')",
        (world.partner, world.campaign),
    )
    .unwrap();
    let body = json!({"code": "abcd2345"});
    post(&app, "/api/partner-portal/promo-codes/redeem", &other_key, body.clone())
        .await
        .expect_message(404, CODE_UNKNOWN);
    let redeemed = post(&app, "/api/partner-portal/promo-codes/redeem", &key, body.clone()).await;
    redeemed.expect(200);
    assert_eq!(redeemed.json()["used"], "Bəli");
    assert!(redeemed.json()["usedDate"].is_string());
    let listed = app.get("/api/promoCode?Skip=0&Take=10", &admin.token).await;
    assert_eq!(listed.json()["data"][0]["used"], "Bəli");
    let again = post(&app, "/api/partner-portal/promo-codes/redeem", &key, body).await;
    again.expect_message(409, CODE_USED);
    assert_eq!(again.json()["errors"]["code"], CODE_USED);
    post(&app, "/api/partner-portal/promo-codes/redeem", &key, json!({"code": ""}))
        .await
        .expect_message(400, perkdesk::inbound::partner::CODE_REQUIRED);
}

#[tokio::test]
async fn merchants_apply_publicly_within_a_rate_per_address() {
    let mut settings = settings();
    // Three applications, then the limit; the admin's sign-ins from the same address have a
    // bucket of their own.
    settings.sign_in_per_minute = 3;
    let app = test_app_with(settings);
    let admin = app.admin().await;
    let (content_type, body) = multipart(&APPLICATION_FIELDS, &[("file", "license.png", PNG)]);
    let applied = app.send(apply_request(&content_type, body.clone())).await;
    applied.expect(201);
    assert_eq!(applied.json()["partnerName"], "Çay evi");
    let listed = app.get("/api/apply?Skip=0&Take=10", &admin.token).await;
    assert_eq!(listed.json()["totalCount"], 1);
    assert!(listed.json()["data"][0]["file"].as_str().unwrap().starts_with("cdn/"));
    let (content_type2, bad) = multipart(&[("email", "x")], &[]);
    let refused = app.send(apply_request(&content_type2, bad)).await;
    refused.expect(400);
    for field in ["partnerName", "fullName", "email", "phone", "cityIds", "file"] {
        assert!(refused.json()["errors"][field].is_string(), "{field}: {}", refused.json());
    }
    app.send(apply_request(&content_type, body.clone())).await.expect(201);
    app.send(apply_request(&content_type, body)).await.expect(429);
    // Over the quota the body is not even read: what would be a 415 (not a form) is a 429.
    app.send(apply_request("text/plain", b"not a form".to_vec())).await.expect(429);
    app.user_with_role("second-admin@perk.az", 0).await;
}

#[tokio::test]
async fn the_document_describes_the_inbound_api_under_its_own_tags_with_the_key_scheme() {
    let app = test_app();
    let doc = app.call(Method::GET, "/api/openapi.json", None, None).await.json();
    assert_eq!(doc["components"]["securitySchemes"]["apiKey"]["scheme"], "bearer");
    for (path, method, tag) in [
        ("/api/app/employees/{email}", "put", "Employee app"),
        ("/api/app/campaigns", "get", "Employee app"),
        ("/api/app/usage", "post", "Employee app"),
        ("/api/app/wishes", "post", "Employee app"),
        ("/api/app/complaints", "post", "Employee app"),
        ("/api/app/notifications", "get", "Employee app"),
        ("/api/partner-portal/campaigns", "post", "Partner portal"),
        ("/api/partner-portal/campaigns", "get", "Partner portal"),
        ("/api/partner-portal/promo-codes/redeem", "post", "Partner portal"),
    ] {
        let operation = &doc["paths"][path][method];
        assert_eq!(operation["tags"][0], tag, "{method} {path}");
        assert_eq!(operation["security"][0]["apiKey"], json!([]), "{method} {path}");
        for status in ["401", "403", "429"] {
            assert!(operation["responses"][status].is_object(), "{method} {path} lacks {status}");
        }
    }
    let apply = &doc["paths"]["/api/apply"]["post"];
    assert!(apply.get("security").is_none(), "the application form is public");
    assert!(apply["responses"]["429"].is_object());
    assert_eq!(doc["paths"]["/api/app/employees/{email}"]["put"]["parameters"][0]["schema"]["type"], "string");
}

#[tokio::test]
async fn concurrent_repeats_of_one_request_id_write_once_and_never_fail() {
    let app = test_app();
    let world = world(&app);
    let key = client(&app, "employee-app", None, 100_000);
    let body = json!({"employeeEmail": EMPLOYEE, "campaignId": world.campaign});
    for round in 0..5 {
        let id = format!("race-{round}");
        let calls = (0..16).map(|_| {
            let (app, key, body, id) = (&app, key.clone(), body.clone(), id.clone());
            async move {
                app.call_with(Method::POST, "/api/app/usage", Some(&key), Some(body), &[("x-requestid", &id)]).await
            }
        });
        let answers = futures_util::future::join_all(calls).await;
        for answer in &answers {
            // The first is written, repeats get it back, repeats arriving while it runs are told so.
            assert!(
                [201, 409].contains(&answer.status.as_u16()),
                "{} {}",
                answer.status,
                String::from_utf8_lossy(&answer.bytes)
            );
        }
        assert!(answers.iter().any(|a| a.status.as_u16() == 201));
    }
    assert_eq!(app.count("SELECT COUNT(*) FROM usage_history"), 5, "one use per request id");
}
