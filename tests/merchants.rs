//! Merchants: create and edit at one of the partner's branches, the spec's messages, a branch of
//! another partner refused, the partner fixed on edit, unique e-mail, list filters, export,
//! partner lookups, roles and x-requestid repeats.

use crate::common;
use crate::people;

use axum::http::Method;
use common::*;
use serde_json::{Value, json};

fn new_merchant(world: &people::World) -> Value {
    json!({
        "firstName": "Rəşad", "lastName": "Nəsirov", "email": "resad@bravo.az", "phoneNumber": "994551112233",
        "partnerId": world.partner, "partnerCityId": world.branches[0],
    })
}

async fn create(app: &TestApp, token: &str, world: &people::World) -> Value {
    let created = app.call(Method::POST, "/api/partner/merchant", Some(token), Some(new_merchant(world))).await;
    created.expect(201);
    created.json()
}

#[tokio::test]
async fn create_edit_and_read_back() {
    let app = test_app();
    let admin = app.admin().await;
    let world = people::world(&app.state.db.conn().unwrap());
    let merchant = create(&app, &admin.token, &world).await;
    assert_eq!(merchant["userName"], "resad@bravo.az");
    assert_eq!(merchant["partnerName"], "Bravo");
    assert_eq!(merchant["partnerCityName"], "Bakı, Nizami küç. 10");
    let id = merchant["id"].as_i64().unwrap();
    let edit = json!({
        "id": id, "firstName": "Rəşad", "lastName": "Nəsirli", "email": "resad.n@bravo.az", "phone": "994701112233",
        "partnerId": world.partner, "partnerCityId": world.branches[1],
    });
    let saved = app.call(Method::PUT, "/api/partner/merchant", Some(&admin.token), Some(edit.clone())).await;
    saved.expect(200);
    assert_eq!(saved.json()["partnerCityName"], "Gəncə, Cavadxan küç. 21");
    assert_eq!(saved.json()["phone"], "994701112233");
    let detail = app.get(&format!("/api/partner/merchant/{id}"), &admin.token).await;
    assert_eq!(detail.json()["partnerCityId"], world.branches[1]);
    assert_eq!(detail.json()["partnerId"], world.partner);

    let list = app.get("/api/partner/merchant?Skip=0&Take=10&name=resad", &admin.token).await;
    assert_eq!(list.json()["totalCount"], 1, "rəşad found by resad");
    let by_partner = app.get("/api/partner/merchant?Skip=0&Take=10&partnerName=bravo", &admin.token).await;
    assert_eq!(by_partner.json()["totalCount"], 1);
    let file = app.get("/api/partner/merchant/export", &admin.token).await;
    file.expect(200);
    assert!(file.headers["content-disposition"].to_str().unwrap().contains("Merchant.xlsx"));
    assert_eq!(workbook_rows(&file.bytes)[1][1], "Nəsirli");

    let mut moved = edit.clone();
    moved["partnerId"] = json!(world.other_partner);
    moved["partnerCityId"] = json!(world.other_branch);
    let refused = app.call(Method::PUT, "/api/partner/merchant", Some(&admin.token), Some(moved)).await;
    refused.expect_message(409, "The partner of a merchant cannot be changed.");
    assert_eq!(refused.json()["errors"]["partnerId"], "The partner of a merchant cannot be changed.");
    let mut gone = edit;
    gone["id"] = json!(999);
    app.call(Method::PUT, "/api/partner/merchant", Some(&admin.token), Some(gone))
        .await
        .expect_message(404, "Merchant not found.");

    app.call(Method::DELETE, "/api/partner/merchant", Some(&admin.token), Some(json!({"id": [id]}))).await.expect(200);
    app.get(&format!("/api/partner/merchant/{id}"), &admin.token).await.expect(404);
}

#[tokio::test]
async fn every_message_names_its_field_and_writes_nothing() {
    let app = test_app();
    let admin = app.admin().await;
    let world = people::world(&app.state.db.conn().unwrap());
    let cases = [
        ("firstName", json!(""), "First name is required"),
        ("lastName", json!(null), "Last name is required"),
        ("email", json!(""), "Email is required"),
        ("email", json!("resad"), "Wrong email format. E.g. name@example.com"),
        ("email", json!("a@b"), "Wrong email format. E.g. name@example.com"),
        ("email", json!(format!("{}@bravo.az", "r".repeat(42))), "Maximum 50 symbols"),
        ("phoneNumber", json!(""), "Phone is required"),
        ("phoneNumber", json!("994521112233"), "Wrong phone format. E.g. 994501234567"),
        ("partnerId", json!(0), "Partner Id is required"),
        ("partnerId", json!(null), "Partner Id is required"),
        ("partnerId", json!("abc"), "Partner Id must be a number"),
        ("partnerCityId", json!(""), "Partner City Id is required"),
        ("partnerCityId", json!(true), "Partner City Id must be a number"),
    ];
    for (field, value, message) in cases {
        let mut body = new_merchant(&world);
        body[field] = value;
        let refused = app.call(Method::POST, "/api/partner/merchant", Some(&admin.token), Some(body)).await;
        refused.expect_message(400, message);
        assert_eq!(refused.json()["errors"][field], message, "{field}");
    }
    let mut foreign = new_merchant(&world);
    foreign["partnerCityId"] = json!(world.other_branch);
    let refused = app.call(Method::POST, "/api/partner/merchant", Some(&admin.token), Some(foreign)).await;
    refused.expect_message(404, "This city is not a branch of the chosen partner.");
    assert_eq!(refused.json()["errors"]["partnerCityId"], "This city is not a branch of the chosen partner.");
    let mut no_partner = new_merchant(&world);
    no_partner["partnerId"] = json!(999);
    app.call(Method::POST, "/api/partner/merchant", Some(&admin.token), Some(no_partner))
        .await
        .expect_message(404, "The chosen partner does not exist.");
    assert_eq!(app.count("SELECT COUNT(*) FROM merchants"), 0, "nothing half-written");

    create(&app, &admin.token, &world).await;
    let mut twin = new_merchant(&world);
    twin["email"] = json!("RESAD@bravo.az");
    let taken = app.call(Method::POST, "/api/partner/merchant", Some(&admin.token), Some(twin)).await;
    taken.expect_message(409, "A merchant with this e-mail already exists.");
    assert_eq!(taken.json()["errors"]["email"], "A merchant with this e-mail already exists.");
}

#[tokio::test]
async fn partner_lookups_the_forms_use() {
    let app = test_app();
    let admin = app.admin().await;
    let world = people::world(&app.state.db.conn().unwrap());
    let cities = app.get(&format!("/api/partner/cities/{}", world.partner), &admin.token).await;
    cities.expect(200);
    assert_eq!(cities.json()["data"].as_array().unwrap().len(), 2);
    assert_eq!(cities.json()["data"][0]["address"], "Nizami küç. 10");
    let picker = app.get("/api/partner/filter?name=araz&Skip=0&Take=30", &admin.token).await;
    assert_eq!(picker.json()["totalCount"], 1);
    assert_eq!(picker.json()["data"][0]["name"], "Araz Market");
    let promo = app.get("/api/partner?status=true", &admin.token).await;
    assert_eq!(promo.json()["totalCount"], 1, "only partners with promo codes on");
    assert_eq!(promo.json()["data"][0]["id"], world.partner);
    let assets = app.get("/api/asset", &admin.token).await;
    assert_eq!(assets.json()["data"][0]["name"], "Azercell");
}

#[tokio::test]
async fn roles_sign_in_and_repeats() {
    let app = test_app();
    let admin = app.admin().await;
    let world = people::world(&app.state.db.conn().unwrap());
    app.call(Method::GET, "/api/partner/merchant", None, None).await.expect(401);
    app.call(Method::POST, "/api/partner/merchant", None, Some(new_merchant(&world))).await.expect(401);
    let call_center = app.user_with_role("cc@perk.az", 2).await;
    app.get("/api/partner/merchant?Skip=0&Take=10", &call_center.token).await.expect(200);
    app.call(Method::POST, "/api/partner/merchant", Some(&call_center.token), Some(new_merchant(&world)))
        .await
        .expect(403);
    app.call(Method::PUT, "/api/partner/merchant", Some(&call_center.token), Some(json!({"id": 1}))).await.expect(403);
    app.call(Method::DELETE, "/api/partner/merchant", Some(&call_center.token), Some(json!({"id": [1]})))
        .await
        .expect(403);

    let headers = [("x-requestid", "merchant-create-1")];
    let first = app
        .call_with(Method::POST, "/api/partner/merchant", Some(&admin.token), Some(new_merchant(&world)), &headers)
        .await;
    first.expect(201);
    let again = app
        .call_with(Method::POST, "/api/partner/merchant", Some(&admin.token), Some(new_merchant(&world)), &headers)
        .await;
    again.expect(201);
    assert_eq!(again.bytes, first.bytes);
    assert_eq!(app.count("SELECT COUNT(*) FROM merchants"), 1, "created once");
}
