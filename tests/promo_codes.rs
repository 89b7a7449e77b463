//! Promo codes: generation (unique, unambiguous, at most 500, in one transaction, only for
//! partners with promo codes on and their own campaigns), the spec's messages, the list, delete,
//! the per-campaign export, roles and x-requestid repeats.

use crate::common;
use crate::people;

use std::collections::HashSet;

use axum::http::Method;
use common::*;
use serde_json::{Value, json};

fn request(world: &people::World, count: Value) -> Value {
    json!({"partnerId": world.partner, "campaignId": world.campaign, "count": count})
}

#[tokio::test]
async fn generates_unique_unambiguous_codes_up_to_500() {
    let app = test_app();
    let admin = app.admin().await;
    let world = people::world(&app.state.db.conn().unwrap());
    let made = app.call(Method::POST, "/api/promoCode", Some(&admin.token), Some(request(&world, json!(500)))).await;
    made.expect(201);
    assert_eq!(made.json()["count"], 500);
    let again = app.call(Method::POST, "/api/promoCode", Some(&admin.token), Some(request(&world, json!("25")))).await;
    again.expect(201);
    assert_eq!(app.count("SELECT COUNT(*) FROM promo_codes"), 525);
    assert_eq!(app.count("SELECT COUNT(DISTINCT code) FROM promo_codes"), 525, "unique across the table");
    let codes: Vec<String> = app
        .state
        .db
        .conn()
        .unwrap()
        .prepare("SELECT code FROM promo_codes")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    for code in &codes {
        assert_eq!(code.len(), 8, "{code}");
        assert!(code.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit()), "{code}");
        assert!(!code.contains(['0', 'O', '1', 'I', 'L']), "ambiguous: {code}");
    }
    // Every letter of the alphabet turns up: the codes are not drawn from a narrow range.
    let letters: HashSet<char> = codes.iter().flat_map(|c| c.chars()).collect();
    assert_eq!(letters.len(), 31);

    let list = app.get("/api/promoCode?Skip=0&Take=5&SortField=code&OrderBy=true", &admin.token).await;
    list.expect(200);
    assert_eq!(list.json()["totalCount"], 525);
    let row = &list.json()["data"][0];
    assert_eq!(row["partnerName"], "Bravo");
    assert_eq!(row["campaignName"], "Həftəsonu endirimi");
    assert_eq!(row["used"], "Xeyr");
    assert_eq!(row["isUsed"], false);
    assert_eq!(row["usedDate"], Value::Null);
    let id = row["id"].as_i64().unwrap();
    app.call(Method::DELETE, "/api/promoCode", Some(&admin.token), Some(json!({"id": [id]}))).await.expect(200);
    assert_eq!(app.get("/api/promoCode?Skip=0&Take=5", &admin.token).await.json()["totalCount"], 524);
}

#[tokio::test]
async fn count_partner_and_category_messages() {
    let app = test_app();
    let admin = app.admin().await;
    let world = people::world(&app.state.db.conn().unwrap());
    let cases = [
        ("count", json!(501), "Count must be less than or equal to 500"),
        ("count", json!(null), "Count is required"),
        ("count", json!(""), "Count is required"),
        ("count", json!("abc"), "Count must be a number"),
        ("count", json!(2.5), "Count must be a number"),
        ("count", json!(0), "Count must be at least 1"),
        ("partnerId", json!(null), "Partner is required"),
        ("partnerId", json!(0), "Partner is required"),
        ("campaignId", json!(null), "Campaign category is required"),
        ("campaignId", json!("x"), "Campaign category is required"),
    ];
    for (field, value, message) in cases {
        let mut body = request(&world, json!(3));
        body[field] = value;
        let refused = app.call(Method::POST, "/api/promoCode", Some(&admin.token), Some(body)).await;
        refused.expect_message(400, message);
        assert_eq!(refused.json()["errors"][field], message, "{field}");
    }
    let no_promo = json!({"partnerId": world.other_partner, "campaignId": world.other_campaign, "count": 3});
    let refused = app.call(Method::POST, "/api/promoCode", Some(&admin.token), Some(no_promo)).await;
    refused.expect_message(409, "This partner does not hand out promo codes.");
    let foreign = json!({"partnerId": world.partner, "campaignId": world.other_campaign, "count": 3});
    let refused = app.call(Method::POST, "/api/promoCode", Some(&admin.token), Some(foreign)).await;
    refused.expect_message(404, "This campaign is not one of the partner's campaigns.");
    assert_eq!(refused.json()["errors"]["campaignId"], "This campaign is not one of the partner's campaigns.");
    let unknown = json!({"partnerId": world.partner, "campaignId": 999, "count": 3});
    app.call(Method::POST, "/api/promoCode", Some(&admin.token), Some(unknown))
        .await
        .expect_message(404, "The chosen campaign does not exist.");
    assert_eq!(app.count("SELECT COUNT(*) FROM promo_codes"), 0, "nothing half-written");
}

#[tokio::test]
async fn for_promo_code_choices_and_export_by_campaign() {
    let app = test_app();
    let admin = app.admin().await;
    let world = people::world(&app.state.db.conn().unwrap());
    let choices = app.get(&format!("/api/campaign/forPromoCode?partnerId={}", world.partner), &admin.token).await;
    choices.expect(200);
    let choice = &choices.json()["data"][0];
    assert_eq!(choice["id"], world.campaign, "the choice's id is what POST promoCode takes as campaignId");
    assert_eq!(choice["nameAz"], "Həftəsonu endirimi");
    let body = json!({"partnerId": world.partner, "campaignId": choice["id"], "count": 7});
    app.call(Method::POST, "/api/promoCode", Some(&admin.token), Some(body)).await.expect(201);
    let file = app.get(&format!("/api/promoCode/export/{}", world.campaign), &admin.token).await;
    file.expect(200);
    assert!(file.headers["content-disposition"].to_str().unwrap().contains("Promocode.xlsx"));
    let rows = workbook_rows(&file.bytes);
    assert_eq!(rows.len(), 8);
    assert_eq!(rows[0], ["Partner name", "Campaign name", "Code", "Used", "Used date"]);
    assert_eq!(rows[1][3], "Xeyr");
    let checked =
        app.get(&format!("/api/promoCode/export/{}?partnerId={}", world.campaign, world.partner), &admin.token).await;
    assert_eq!(workbook_rows(&checked.bytes).len(), 8);
    app.get(&format!("/api/promoCode/export/{}?partnerId={}", world.campaign, world.other_partner), &admin.token)
        .await
        .expect_message(404, "This campaign is not one of the partner's campaigns.");
    app.get(&format!("/api/promoCode/export/{}?partnerId=0", world.campaign), &admin.token)
        .await
        .expect_message(400, "Partner is required");
    app.get("/api/promoCode/export/0", &admin.token).await.expect_message(404, "Campaign not found.");
    app.get("/api/promoCode/export/999", &admin.token).await.expect_message(404, "Campaign not found.");
    app.get("/api/promoCode/export/abc", &admin.token).await.expect(400);
}

#[tokio::test]
async fn roles_sign_in_and_repeats() {
    let app = test_app();
    let admin = app.admin().await;
    let world = people::world(&app.state.db.conn().unwrap());
    app.call(Method::GET, "/api/promoCode", None, None).await.expect(401);
    app.call(Method::POST, "/api/promoCode", None, Some(request(&world, json!(1)))).await.expect(401);
    let call_center = app.user_with_role("cc@perk.az", 2).await;
    app.get("/api/promoCode?Skip=0&Take=10", &call_center.token).await.expect(200);
    app.get(&format!("/api/promoCode/export/{}", world.campaign), &call_center.token).await.expect(200);
    app.call(Method::POST, "/api/promoCode", Some(&call_center.token), Some(request(&world, json!(1))))
        .await
        .expect(403);
    app.call(Method::DELETE, "/api/promoCode", Some(&call_center.token), Some(json!({"id": [1]}))).await.expect(403);
    let user = app.user_with_role("user@perk.az", 1).await;
    app.call(Method::POST, "/api/promoCode", Some(&user.token), Some(request(&world, json!(1)))).await.expect(201);

    let headers = [("x-requestid", "promo-1")];
    let first = app
        .call_with(Method::POST, "/api/promoCode", Some(&admin.token), Some(request(&world, json!(5))), &headers)
        .await;
    first.expect(201);
    let again = app
        .call_with(Method::POST, "/api/promoCode", Some(&admin.token), Some(request(&world, json!(5))), &headers)
        .await;
    again.expect(201);
    assert_eq!(again.bytes, first.bytes, "the same codes answered again");
    assert_eq!(app.count("SELECT COUNT(*) FROM promo_codes"), 6, "written once");
}
