//! The review queue of uses (issue 41): the app's use flagged by each rule with the default and
//! with changed thresholds (and not below them), the list's paging, filters, sort, total and
//! export, clearing, voiding with a reason (the use leaves the usage list, the dashboard's count
//! and the campaign's uses; the trash and the activity log keep it with who and why), the
//! refusals with their messages, the roles, and a restore from the trash reopening the review.

use crate::common;
use crate::people;

use axum::http::Method;
use common::*;
use perkdesk::core::validation::MAXIMUM_SYMBOLS;
use perkdesk::resources::usage_review::*;
use serde_json::{Value, json};
use time::OffsetDateTime;

struct Setup {
    app: TestApp,
    admin: TestUser,
    key: String,
    world: people::World,
}

/// A world whose two campaigns (at two partners) are both running and offered to the employees.
async fn setup() -> Setup {
    let app = test_app();
    let admin = app.admin().await;
    let conn = app.state.db.conn().unwrap();
    let world = people::offered_world(&conn);
    conn.execute(
        "INSERT INTO campaign_assets (campaign_id, asset_id) VALUES (?1, ?2)",
        (world.other_campaign, world.asset),
    )
    .unwrap();
    let key = app.api_key("employee-app", None, 100_000);
    Setup { app, admin, key, world }
}

fn email(i: usize) -> &'static str {
    people::EMPLOYEES[i].2
}

async fn use_of(s: &Setup, employee: usize, campaign: i64) -> i64 {
    let body = json!({"employeeEmail": email(employee), "campaignId": campaign});
    let used = s.app.call(Method::POST, "/api/app/usage", Some(&s.key), Some(body)).await;
    used.expect(201);
    used.json()["id"].as_i64().unwrap()
}

async fn list(s: &Setup, query: &str) -> Value {
    s.app.get(&format!("/api/usageReview?Skip=0&Take=100{query}"), &s.admin.token).await.expect(200).json()
}

fn rows(page: &Value) -> Vec<Value> {
    page["data"].as_array().unwrap().clone()
}

/// A use of `employee` at `campaign` written `minutes` ago, as the app writes it (not flagged).
fn earlier_use(s: &Setup, employee: usize, campaign: i64, minutes: i64) -> i64 {
    let at = perkdesk::db::format_iso(OffsetDateTime::now_utc() - time::Duration::minutes(minutes));
    people::usage(&s.app.state.db.conn().unwrap(), s.world.employees[employee], campaign, &at)
}

async fn put_settings(s: &Setup, token: &str, body: Value) -> Response {
    s.app.call(Method::PUT, "/api/usageReview/settings", Some(token), Some(body)).await
}

#[tokio::test]
async fn each_rule_flags_a_use_with_the_default_thresholds_and_not_below_them() {
    let s = setup().await;
    let defaults = s.app.get("/api/usageReview/settings", &s.admin.token).await.expect(200).json();
    assert_eq!(defaults, json!({"manyUses": 3, "manyUsesMinutes": 10, "twoPartnersMinutes": 5}));

    // Three uses within ten minutes are not more than three: nothing; the fourth is.
    for _ in 0..3 {
        use_of(&s, 0, s.world.campaign).await;
    }
    assert_eq!(list(&s, "").await["totalCount"], 0);
    let fourth = use_of(&s, 0, s.world.campaign).await;
    let page = list(&s, "").await;
    assert_eq!(page["totalCount"], 1, "{page}");
    let row = &rows(&page)[0];
    assert_eq!(row["usageId"], fourth);
    assert_eq!(row["reason"], MANY_USES);
    assert_eq!(row["reasonName"], "Many uses");
    assert_eq!(row["employeeEmail"], email(0));
    assert_eq!(row["partnerName"], "Bravo");
    assert_eq!(row["partnerId"], s.world.partner);
    assert_eq!((row["counted"].clone(), row["windowMinutes"].clone()), (json!(4), json!(10)));
    assert_eq!((row["state"].clone(), row["stateName"].clone()), (json!(OPEN), json!("Open")));
    assert_eq!(row["voidReason"], Value::Null);

    // Uses older than the window do not count.
    for _ in 0..3 {
        earlier_use(&s, 1, s.world.campaign, 11);
    }
    use_of(&s, 1, s.world.campaign).await;
    assert_eq!(list(&s, "").await["totalCount"], 1);

    // Another partner within five minutes; at the same partner, or six minutes ago, it is not.
    use_of(&s, 2, s.world.campaign).await;
    use_of(&s, 2, s.world.campaign).await;
    assert_eq!(list(&s, "").await["totalCount"], 1, "one partner");
    earlier_use(&s, 3, s.world.other_campaign, 6);
    use_of(&s, 3, s.world.campaign).await;
    assert_eq!(list(&s, "").await["totalCount"], 1, "the other partner six minutes ago");
    let second = use_of(&s, 2, s.world.other_campaign).await;
    let page = list(&s, &format!("&Reason={TWO_PARTNERS}")).await;
    assert_eq!(page["totalCount"], 1, "{page}");
    let row = &rows(&page)[0];
    assert_eq!(row["usageId"], second);
    assert_eq!(row["partnerName"], "Araz Market");
    assert_eq!((row["counted"].clone(), row["windowMinutes"].clone()), (json!(2), json!(5)));

    // A use may break both rules: one row per rule.
    use_of(&s, 0, s.world.other_campaign).await;
    let both = list(&s, &format!("&EmployeeEmail={}", email(0))).await;
    let reasons: Vec<String> = rows(&both).iter().map(|r| r["reason"].as_str().unwrap().to_string()).collect();
    assert_eq!(both["totalCount"], 3, "{both}");
    assert_eq!(reasons.iter().filter(|r| *r == TWO_PARTNERS).count(), 1);
    assert_eq!(reasons.iter().filter(|r| *r == MANY_USES).count(), 2);
}

#[tokio::test]
async fn an_admin_changes_the_thresholds_with_their_rules() {
    let s = setup().await;
    let changed = json!({"manyUses": 1, "manyUsesMinutes": 60, "twoPartnersMinutes": 10});
    let answer = put_settings(&s, &s.admin.token, changed.clone()).await;
    answer.expect(200);
    assert_eq!(answer.json(), changed);
    let user = s.app.user_with_role("user@perk.az", 1).await;
    let call_center = s.app.user_with_role("cc@perk.az", 2).await;
    assert_eq!(s.app.get("/api/usageReview/settings", &call_center.token).await.expect(200).json(), changed);
    put_settings(&s, &user.token, changed.clone()).await.expect(403);
    put_settings(&s, &call_center.token, changed.clone()).await.expect(403);
    s.app.call(Method::PUT, "/api/usageReview/settings", None, Some(changed.clone())).await.expect(401);

    // The second use within an hour is more than one; a use at another partner 8 minutes ago is
    // within ten.
    use_of(&s, 0, s.world.campaign).await;
    assert_eq!(list(&s, "").await["totalCount"], 0);
    use_of(&s, 0, s.world.campaign).await;
    let page = list(&s, "").await;
    assert_eq!(rows(&page)[0]["reason"], MANY_USES);
    assert_eq!(rows(&page)[0]["windowMinutes"], 60);
    earlier_use(&s, 4, s.world.other_campaign, 8);
    put_settings(&s, &s.admin.token, json!({"manyUses": 1000, "manyUsesMinutes": 1, "twoPartnersMinutes": 10}))
        .await
        .expect(200);
    use_of(&s, 4, s.world.campaign).await;
    let page = list(&s, &format!("&Reason={TWO_PARTNERS}")).await;
    assert_eq!(page["totalCount"], 1, "{page}");

    let refusals: [(Value, &str, &str); 7] = [
        (json!({"manyUses": 0, "manyUsesMinutes": 10, "twoPartnersMinutes": 5}), "manyUses", MANY_USES_RANGE),
        (json!({"manyUses": 1001, "manyUsesMinutes": 10, "twoPartnersMinutes": 5}), "manyUses", MANY_USES_RANGE),
        (json!({"manyUses": "x", "manyUsesMinutes": 10, "twoPartnersMinutes": 5}), "manyUses", MANY_USES_RANGE),
        (
            json!({"manyUses": 3, "manyUsesMinutes": 1441, "twoPartnersMinutes": 5}),
            "manyUsesMinutes",
            MANY_USES_MINUTES_RANGE,
        ),
        (
            json!({"manyUses": 3, "manyUsesMinutes": 10, "twoPartnersMinutes": 0}),
            "twoPartnersMinutes",
            TWO_PARTNERS_MINUTES_RANGE,
        ),
        (json!({"manyUsesMinutes": 10, "twoPartnersMinutes": 5}), "manyUses", MANY_USES_REQUIRED),
        (json!({"manyUses": 3, "manyUsesMinutes": 10}), "twoPartnersMinutes", TWO_PARTNERS_MINUTES_REQUIRED),
    ];
    for (body, field, message) in refusals {
        let refused = put_settings(&s, &s.admin.token, body.clone()).await;
        refused.expect(400);
        assert_eq!(refused.json()["errors"][field], message, "{body}");
    }
    let kept = s.app.get("/api/usageReview/settings", &s.admin.token).await.json();
    assert_eq!(kept["manyUses"], 1000, "a refused change changes nothing");
    // The thresholds' history: who changed them, from what to what.
    let history = s.app.get("/api/usageReview/0/history?Skip=0&Take=10", &s.admin.token).await.expect(200).json();
    assert_eq!(history["totalCount"], 2, "{history}");
    let newest = &rows(&history)[0];
    assert_eq!(newest["actorId"], s.admin.id);
    assert!(
        newest["changes"].as_str().unwrap().contains("twoPartnersMinutes")
            || newest["changes"].as_str().unwrap().contains("manyUses")
    );
}

/// Flags for the list's tests: employee 0 four uses at the first partner (one manyUses), then
/// employee 2 at both partners (one twoPartners); answers the flagged uses' reviews by reason.
async fn flagged(s: &Setup) -> (i64, i64) {
    for _ in 0..4 {
        use_of(s, 0, s.world.campaign).await;
    }
    use_of(s, 2, s.world.campaign).await;
    use_of(s, 2, s.world.other_campaign).await;
    let page = list(s, "&SortField=id&OrderBy=true").await;
    let ids: Vec<i64> = rows(&page).iter().map(|r| r["id"].as_i64().unwrap()).collect();
    assert_eq!(ids.len(), 2, "{page}");
    (ids[0], ids[1])
}

#[tokio::test]
async fn the_queue_is_a_list_like_every_other() {
    let s = setup().await;
    let (many, two) = flagged(&s).await;
    let ids = |page: &Value| rows(page).iter().map(|r| r["id"].as_i64().unwrap()).collect::<Vec<_>>();
    assert_eq!(ids(&list(&s, "").await), [two, many], "newest first by default");
    let paged = s.app.get("/api/usageReview?Skip=1&Take=1", &s.admin.token).await.expect(200).json();
    assert_eq!((paged["totalCount"].clone(), ids(&paged)), (json!(2), vec![many]));
    assert_eq!(ids(&list(&s, &format!("&State={OPEN}")).await), [two, many]);
    assert_eq!(list(&s, &format!("&State={CLEARED}")).await["totalCount"], 0);
    assert_eq!(ids(&list(&s, &format!("&Reason={MANY_USES}")).await), [many]);
    assert_eq!(ids(&list(&s, "&EmployeeEmail=SAHIN").await), [two], "folded, any case");
    assert_eq!(ids(&list(&s, &format!("&PartnerId={}", s.world.other_partner)).await), [two]);
    assert_eq!(list(&s, "&StartDate=2000-01-01&EndDate=2999-01-01").await["totalCount"], 2);
    assert_eq!(list(&s, "&EndDate=2001-01-01").await["totalCount"], 0);
    assert_eq!(ids(&list(&s, "&SortField=employeeEmail&OrderBy=true").await), [many, two], "ilkin before şahin");
    assert_eq!(ids(&list(&s, "&SortField=partnerName&OrderBy=true").await), [two, many], "Araz before Bravo");
    let refused = s.app.get("/api/usageReview?SortField=voidReason", &s.admin.token).await;
    refused.expect(400);
    assert!(refused.message().starts_with("Cannot sort by 'voidReason'."), "{}", refused.message());
    s.app.get("/api/usageReview/filter?State=x", &s.admin.token).await.expect(400);

    let one = s.app.get(&format!("/api/usageReview/{many}"), &s.admin.token).await.expect(200).json();
    assert_eq!(one["reason"], MANY_USES);
    s.app.get("/api/usageReview/999999", &s.admin.token).await.expect_message(404, "Flagged use not found.");

    let export = s.app.get(&format!("/api/usageReview/export?Reason={TWO_PARTNERS}"), &s.admin.token).await;
    export.expect(200);
    assert!(export.headers["content-disposition"].to_str().unwrap().contains("UsageReview.xlsx"));
    let sheet = workbook_rows(&export.bytes);
    assert_eq!(sheet[0][..4], ["Id", "Usage id", "Employee email", "Partner name"]);
    assert_eq!(sheet.len(), 2, "the header and the one row the filter leaves");
    assert_eq!(sheet[1][2], email(2));
    assert_eq!(sheet[1][6], "Two partners");
    assert_eq!(sheet[1][9], "Open");
}

async fn void(s: &Setup, token: &str, id: i64, body: Value) -> Response {
    s.app.call(Method::POST, &format!("/api/usageReview/{id}/void"), Some(token), Some(body)).await
}

async fn clear(s: &Setup, token: &str, id: i64) -> Response {
    s.app.call(Method::POST, &format!("/api/usageReview/{id}/clear"), Some(token), None).await
}

#[tokio::test]
async fn a_void_takes_the_use_out_of_every_count_and_keeps_who_and_why() {
    let s = setup().await;
    let (many, two) = flagged(&s).await;
    let token = s.admin.token.clone();
    let usage_of = |row: &Value| row["usageId"].as_i64().unwrap();
    let many_use = usage_of(&s.app.get(&format!("/api/usageReview/{many}"), &token).await.json());
    let usage_total =
        || async { s.app.get("/api/usageHistory?Skip=0&Take=1", &token).await.json()["totalCount"].clone() };
    let dashboard_total = || async { s.app.get("/api/dashboard", &token).await.json()["totalUsageCount"].clone() };
    let campaign_uses = || async {
        s.app.get(&format!("/api/campaign/{}", s.world.campaign), &token).await.json()["usesCount"].clone()
    };
    assert_eq!((usage_total().await, dashboard_total().await, campaign_uses().await), (json!(6), json!(6), json!(5)));

    // The reason is required, at most 500 characters, and named.
    let refused = void(&s, &token, many, json!({})).await;
    refused.expect(400);
    assert_eq!(refused.json()["errors"]["reason"], VOID_REASON_REQUIRED);
    let refused = void(&s, &token, many, json!({"reason": "   "})).await;
    assert_eq!(refused.json()["errors"]["reason"], VOID_REASON_REQUIRED);
    let refused = void(&s, &token, many, json!({"reason": "x".repeat(501)})).await;
    refused.expect(400);
    assert_eq!(refused.json()["errors"]["reason"], MAXIMUM_SYMBOLS.replace("{max}", "500"));
    void(&s, &token, 999_999, json!({"reason": "Test"})).await.expect_message(404, "Flagged use not found.");

    let reason = "The employee's card was used by a colleague";
    let voided = void(&s, &token, many, json!({"reason": reason})).await;
    voided.expect(200);
    let row = voided.json();
    assert_eq!((row["state"].clone(), row["stateName"].clone()), (json!(VOIDED), json!("Voided")));
    assert_eq!(row["voidReason"], reason);
    assert!(row["decidedBy"].as_str().unwrap().contains(&s.admin.email), "{row}");
    assert!(row["decidedAt"].is_string());

    // Out of the usage list, the dashboard and the campaign's uses.
    assert_eq!((usage_total().await, dashboard_total().await, campaign_uses().await), (json!(5), json!(5), json!(4)));
    s.app.get(&format!("/api/usageHistory/{many_use}"), &token).await.expect(404);
    // Still in the queue, as voided.
    assert_eq!(list(&s, &format!("&State={VOIDED}")).await["totalCount"], 1);

    // In the trash, with who and why.
    let trash = s.app.get("/api/trash?Skip=0&Take=10&Kind=usageHistory", &token).await.expect(200).json();
    let entry = rows(&trash).into_iter().find(|r| r["recordId"] == many_use).expect("the use is in the trash");
    assert!(entry["label"].as_str().unwrap().ends_with(&format!(" · voided: {reason}")), "{entry}");
    assert!(entry["deletedBy"].as_str().unwrap().contains("Admin") || entry["deletedBy"].is_string(), "{entry}");
    // In the activity log: the use deleted by the admin, the review voided with the reason.
    let used = s.app.get(&format!("/api/usageHistory/{many_use}/history?Skip=0&Take=10"), &token).await.json();
    let deleted = rows(&used).into_iter().find(|e| e["action"] == "delete").expect("a delete entry");
    assert_eq!(deleted["actorId"], s.admin.id);
    let reviewed = s.app.get(&format!("/api/usageReview/{many}/history?Skip=0&Take=10"), &token).await.json();
    let change = rows(&reviewed).into_iter().find(|e| e["action"] == "update").expect("an update entry");
    assert_eq!(change["actorId"], s.admin.id);
    let changes: Value = serde_json::from_str(change["changes"].as_str().unwrap()).unwrap();
    assert_eq!(changes["voidReason"][1], reason, "{changes}");

    // A voided review refuses both decisions.
    void(&s, &token, many, json!({"reason": "Again"})).await.expect_message(409, ALREADY_VOIDED);
    clear(&s, &token, many).await.expect_message(409, ALREADY_VOIDED);

    // Clearing the other: once, then refused, and a cleared review is not voided.
    let cleared = clear(&s, &token, two).await;
    cleared.expect(200);
    assert_eq!((cleared.json()["state"].clone(), cleared.json()["voidReason"].clone()), (json!(CLEARED), Value::Null));
    assert!(cleared.json()["decidedBy"].as_str().unwrap().contains(&s.admin.email));
    clear(&s, &token, two).await.expect_message(409, ALREADY_CLEARED);
    void(&s, &token, two, json!({"reason": "Late"})).await.expect_message(409, ALREADY_CLEARED);
    assert_eq!(usage_total().await, json!(5), "a clear keeps the use");
    clear(&s, &token, 999_999).await.expect_message(404, "Flagged use not found.");

    // Restored from the trash, the use counts again and its review is open again.
    let trash_id = entry["id"].as_i64().unwrap();
    s.app.call(Method::PUT, "/api/trash/restore", Some(&token), Some(json!({"id": [trash_id]}))).await.expect(200);
    assert_eq!((usage_total().await, campaign_uses().await), (json!(6), json!(5)));
    let reopened = s.app.get(&format!("/api/usageReview/{many}"), &token).await.json();
    assert_eq!((reopened["state"].clone(), reopened["voidReason"].clone()), (json!(OPEN), Value::Null));
}

#[tokio::test]
async fn a_use_with_two_flags_is_voided_once_and_a_deleted_use_is_not_reviewed() {
    let s = setup().await;
    let token = s.admin.token.clone();
    for _ in 0..4 {
        use_of(&s, 0, s.world.campaign).await;
    }
    let both = use_of(&s, 0, s.world.other_campaign).await;
    let flags = list(&s, &format!("&SortField=id&OrderBy=true&EmployeeEmail={}", email(0))).await;
    let of_both: Vec<i64> =
        rows(&flags).iter().filter(|r| r["usageId"] == both).map(|r| r["id"].as_i64().unwrap()).collect();
    assert_eq!(of_both.len(), 2, "{flags}");
    void(&s, &token, of_both[0], json!({"reason": "Fraud"})).await.expect(200);
    let other = s.app.get(&format!("/api/usageReview/{}", of_both[1]), &token).await.json();
    assert_eq!((other["state"].clone(), other["voidReason"].clone()), (json!(VOIDED), json!("Fraud")));

    // Deleted for good from the trash, the use takes its flags with it.
    let trash = s.app.get("/api/trash?Skip=0&Take=10", &token).await.json();
    let entry = rows(&trash).into_iter().find(|r| r["recordId"] == both).expect("the voided use is in the trash");
    s.app.call(Method::DELETE, "/api/trash", Some(&token), Some(json!({"id": [entry["id"]]}))).await.expect(200);
    assert_eq!(s.app.count(&format!("SELECT COUNT(*) FROM usage_review WHERE usage_id = {both}")), 0);
    assert_eq!(s.app.count(&format!("SELECT COUNT(*) FROM usage_history WHERE id = {both}")), 0);
    s.app.get(&format!("/api/usageReview/{}", of_both[0]), &token).await.expect(404);

    // A flagged use an Admin deleted from Usage history waits in the trash; it is not voided here.
    let first = rows(&flags).iter().find(|r| r["usageId"] != both).unwrap()["id"].as_i64().unwrap();
    let first_use = rows(&flags).iter().find(|r| r["id"] == first).unwrap()["usageId"].as_i64().unwrap();
    s.app.call(Method::DELETE, "/api/usageHistory", Some(&token), Some(json!({"id": [first_use]}))).await.expect(200);
    void(&s, &token, first, json!({"reason": "Fraud"})).await.expect_message(409, USE_DELETED);
    clear(&s, &token, first).await.expect_message(409, USE_DELETED);
}

#[tokio::test]
async fn users_decide_and_call_center_reads() {
    let s = setup().await;
    let (many, two) = flagged(&s).await;
    let user = s.app.user_with_role("user@perk.az", 1).await;
    let call_center = s.app.user_with_role("cc@perk.az", 2).await;
    s.app.get("/api/usageReview?Skip=0&Take=10", &call_center.token).await.expect(200);
    s.app.get("/api/usageReview/export", &call_center.token).await.expect(200);
    void(&s, &call_center.token, many, json!({"reason": "No"})).await.expect(403);
    clear(&s, &call_center.token, many).await.expect(403);
    s.app.call(Method::POST, &format!("/api/usageReview/{many}/clear"), None, None).await.expect(401);
    s.app.call(Method::GET, "/api/usageReview", None, None).await.expect(401);
    let voided = void(&s, &user.token, many, json!({"reason": "Checked with the partner"})).await;
    voided.expect(200);
    assert!(voided.json()["decidedBy"].as_str().unwrap().contains("user@perk.az"));
    clear(&s, &user.token, two).await.expect(200);
}
