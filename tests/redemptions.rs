//! Redemption codes (issue 41): the app asks for a code, refused exactly as the use itself would
//! be; the partner's till confirms it, which records a verified use at the branch, counted like
//! any use; unknown, expired and other partners' codes are one 404, a used code a 409 saying when,
//! wrong codes throttled per key; eight tills confirming one code at once record one use.

use crate::common;
use crate::people;

use axum::http::Method;
use common::*;
use perkdesk::inbound::app::{CAMPAIGN_EXPIRED, CAMPAIGN_INACTIVE, CAMPAIGN_NOT_OFFERED};
use perkdesk::inbound::redemptions::{CODE_NOT_FOUND, QR_PREFIX};
use perkdesk::resources::campaigns::limits::VERIFIED_ONLY;
use serde_json::{Value, json};

const ALPHABET: &str = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";

struct Till {
    app: TestApp,
    world: people::World,
    app_key: String,
    partner_key: String,
}

fn till() -> Till {
    let app = test_app();
    let world = people::offered_world(&app.state.db.conn().unwrap());
    let app_key = app.api_key("employee-app", None, 100_000);
    let partner_key = app.api_key("partner", Some(world.partner), 100_000);
    Till { app, world, app_key, partner_key }
}

fn employee(i: usize) -> &'static str {
    people::EMPLOYEES[i].2
}

impl Till {
    async fn ask(&self, employee: &str, campaign: i64) -> Response {
        let body = json!({"employeeEmail": employee, "campaignId": campaign});
        self.app.call(Method::POST, "/api/app/redemptions", Some(&self.app_key), Some(body)).await
    }

    async fn code(&self, employee: &str) -> String {
        let asked = self.ask(employee, self.world.campaign).await;
        asked.expect(201);
        asked.json()["code"].as_str().unwrap().to_string()
    }

    async fn confirm_with(&self, key: &str, code: &str, branch: Option<i64>) -> Response {
        let body = json!({"code": code, "partnerCityId": branch});
        self.app.call(Method::POST, "/api/partner-portal/redemptions", Some(key), Some(body)).await
    }

    async fn confirm(&self, code: &str) -> Response {
        self.confirm_with(&self.partner_key, code, Some(self.world.branches[1])).await
    }

    fn sql(&self, sql: &str, params: impl perkdesk::db::sql::Params) {
        self.app.state.db.conn().unwrap().execute(sql, params).unwrap();
    }
}

#[tokio::test]
async fn a_code_is_eight_clear_characters_and_asking_again_answers_the_same() {
    let till = till();
    let asked = till.ask(employee(0), till.world.campaign).await;
    asked.expect(201);
    let answer = asked.json();
    let code = answer["code"].as_str().unwrap();
    assert_eq!(code.len(), 8, "{answer}");
    assert!(code.chars().all(|c| ALPHABET.contains(c)), "{code}");
    assert_eq!(answer["campaignId"], till.world.campaign);
    assert_eq!(answer["qrPayload"], format!("{QR_PREFIX}{code}"));
    let expires = time::OffsetDateTime::parse(
        answer["expiresAt"].as_str().unwrap(),
        &time::format_description::well_known::Rfc3339,
    )
    .unwrap();
    let left = expires - time::OffsetDateTime::now_utc();
    assert!(left > time::Duration::seconds(290) && left <= time::Duration::seconds(300), "{left}");

    // Asking again while it lives answers the same code and expiry; another employee gets another.
    let again = till.ask(employee(0), till.world.campaign).await;
    again.expect(201);
    assert_eq!(again.json(), answer);
    assert_ne!(till.code(employee(1)).await, code);
    assert_eq!(till.app.count("SELECT COUNT(*) FROM redemption_codes"), 2);
    // Once it expired, a new one.
    till.sql("UPDATE redemption_codes SET expires_at = '2020-01-01T00:00:00.000Z' WHERE code = ?1", [code]);
    assert_ne!(till.code(employee(0)).await, code);
    // Each code given is an event of its campaign's, without the code.
    let entries = till.app.count(&format!(
        "SELECT COUNT(*) FROM activity WHERE resource = 'campaign' AND record_id = {} AND action = 'redemptionCodeIssued'",
        till.world.campaign
    ));
    assert_eq!(entries, 3);
    assert_eq!(till.app.count(&format!("SELECT COUNT(*) FROM activity WHERE changes LIKE '%{code}%'")), 0);
}

#[tokio::test]
async fn a_code_is_refused_as_the_use_would_be() {
    let till = till();
    let campaign = till.world.campaign;
    let refused = |response: Response, status: u16, message: &str| {
        response.expect_message(status, message);
        assert_eq!(response.json()["errors"]["campaignId"], message);
    };
    refused(till.ask(employee(0), till.world.other_campaign).await, 409, CAMPAIGN_NOT_OFFERED);
    till.sql("UPDATE campaigns SET is_active = 0 WHERE id = ?1", [campaign]);
    refused(till.ask(employee(0), campaign).await, 409, CAMPAIGN_INACTIVE);
    till.sql("UPDATE campaigns SET is_active = 1, expire_date = '2021-01-01T00:00:00.000Z' WHERE id = ?1", [campaign]);
    refused(till.ask(employee(0), campaign).await, 409, CAMPAIGN_EXPIRED);
    till.sql(
        "UPDATE campaigns SET expire_date = '2999-01-01T00:00:00.000Z', usage_limit_total = 1 WHERE id = ?1",
        [campaign],
    );
    people::usage(&till.app.state.db.conn().unwrap(), till.world.employees[3], campaign, "2026-01-01T00:00:00.000Z");
    refused(till.ask(employee(0), campaign).await, 409, "This campaign has reached its limit of 1 uses.");
    till.sql("UPDATE campaigns SET usage_limit_total = NULL, usage_limit_per_employee = 1, usage_limit_period = 'campaign' WHERE id = ?1", [campaign]);
    refused(
        till.ask(employee(3), campaign).await,
        409,
        "This employee has used this campaign 1 times during this campaign; the limit is 1.",
    );
    till.ask(employee(4), 999_999).await.expect_message(404, "There is no campaign with id 999999.");
    till.ask("nobody@azercell.az", campaign).await.expect(404);
    let bad = till.ask("not an e-mail", campaign).await;
    bad.expect(400);
    assert!(bad.json()["errors"]["employeeEmail"].is_string(), "{}", bad.json());
    let bad = till
        .app
        .call(Method::POST, "/api/app/redemptions", Some(&till.app_key), Some(json!({"employeeEmail": employee(0)})))
        .await;
    bad.expect(400);
    assert_eq!(bad.json()["errors"]["campaignId"], "Campaign is required");
    assert_eq!(till.app.count("SELECT COUNT(*) FROM redemption_codes"), 0, "no refusal gave a code");

    // A verified-only campaign is used only with a code: the code is given, the app's use is not.
    till.sql("UPDATE campaigns SET usage_limit_per_employee = NULL, usage_limit_period = NULL, verified_only = 1 WHERE id = ?1", [campaign]);
    let code = till.code(employee(0)).await;
    let body = json!({"employeeEmail": employee(0), "campaignId": campaign});
    till.app
        .call(Method::POST, "/api/app/usage", Some(&till.app_key), Some(body))
        .await
        .expect_message(409, VERIFIED_ONLY);
    till.confirm(&code).await.expect(201);
}

#[tokio::test]
async fn the_till_confirms_a_code_and_the_use_is_verified_at_the_branch_and_counted() {
    let till = till();
    let admin = till.app.admin().await;
    let before = till.app.get("/api/dashboard", &admin.token).await.json()["totalUsageCount"].as_i64().unwrap();
    let code = till.code(employee(2)).await;
    // The QR code's text, in any case, is the code too.
    let confirmed = till.confirm(&format!("{QR_PREFIX}{}", code.to_lowercase())).await;
    confirmed.expect(201);
    let answer = confirmed.json();
    let usage = answer["usageId"].as_i64().unwrap();
    assert_eq!(
        answer,
        json!({
            "usageId": usage,
            "campaignId": till.world.campaign,
            "campaignName": "Həftəsonu endirimi",
            "discountPercent": 15,
            "employeeName": "Şahin Q.",
            "verified": true,
        })
    );
    let row = till.app.get(&format!("/api/usageHistory/{usage}"), &admin.token).await.json();
    assert_eq!(row["verified"], true, "{row}");
    assert_eq!(row["partnerCityId"], till.world.branches[1]);
    assert!(row["branchName"].as_str().unwrap().ends_with("Cavadxan küç. 21"), "{row}");
    assert_eq!(row["employeeEmail"], employee(2));
    let campaign = till.app.get(&format!("/api/campaign/{}", till.world.campaign), &admin.token).await.json();
    assert_eq!(campaign["usesCount"], 1);
    let after = till.app.get("/api/dashboard", &admin.token).await.json()["totalUsageCount"].as_i64().unwrap();
    assert_eq!(after, before + 1);
    // The use is in the history as the usage record's creation.
    let created = till.app.count(&format!(
        "SELECT COUNT(*) FROM activity WHERE resource = 'usageHistory' AND record_id = {usage} AND action = 'create'"
    ));
    assert_eq!(created, 1);

    // Again: a 409 saying when.
    let used_at: String = till
        .app
        .state
        .db
        .conn()
        .unwrap()
        .query_row("SELECT confirmed_at FROM redemption_codes WHERE code = ?1", [&code], |r| r.get(0))
        .unwrap();
    let again = till.confirm(&code).await;
    again.expect_message(409, &format!("This redemption code was already used at {used_at}."));
    assert_eq!(again.json()["errors"]["code"], again.message());
    // The app's use of the campaign is counted with it: a limit of 2 leaves one.
    till.sql("UPDATE campaigns SET usage_limit_total = 2 WHERE id = ?1", [till.world.campaign]);
    let second = till.code(employee(3)).await;
    let third = till.code(employee(4)).await;
    till.confirm_with(&till.partner_key, &second, None).await.expect(201);
    till.confirm(&third).await.expect_message(409, "This campaign has reached its limit of 2 uses.");
    assert_eq!(till.app.count("SELECT COUNT(*) FROM usage_history"), 2);
    assert_eq!(till.app.count("SELECT COUNT(*) FROM redemption_codes WHERE confirmed_at IS NOT NULL"), 2);
    // A branch of another partner is not the till's.
    till.sql("UPDATE campaigns SET usage_limit_total = NULL WHERE id = ?1", [till.world.campaign]);
    till.confirm_with(&till.partner_key, &third, Some(till.world.other_branch))
        .await
        .expect_message(404, &format!("The campaign's partner has no branch with id {}.", till.world.other_branch));
}

#[tokio::test]
async fn unknown_expired_and_other_partners_codes_are_one_404_and_each_refusal_is_logged() {
    let till = till();
    let code = till.code(employee(0)).await;
    let other_key = till.app.api_key("partner", Some(till.world.other_partner), 100_000);
    let unknown = till.confirm("ZZZZ2222").await;
    let others = till.confirm_with(&other_key, &code, None).await;
    till.sql("UPDATE redemption_codes SET expires_at = '2020-01-01T00:00:00.000Z' WHERE code = ?1", [&code]);
    let expired = till.confirm(&code).await;
    for refused in [&unknown, &others, &expired] {
        refused.expect_message(404, CODE_NOT_FOUND);
        assert_eq!(refused.json(), unknown.json(), "the same words for each");
    }
    assert_eq!(till.app.count("SELECT COUNT(*) FROM usage_history"), 0);
    let logged =
        till.app.count("SELECT COUNT(*) FROM activity WHERE resource = 'redemption' AND action = 'redemptionRefused'");
    assert_eq!(logged, 3);
    assert_eq!(till.app.count(&format!("SELECT COUNT(*) FROM activity WHERE changes LIKE '%{code}%'")), 0);
    assert_eq!(till.app.count("SELECT COUNT(*) FROM activity WHERE changes LIKE '%ZZZZ2222%'"), 0);
    let reasons: Vec<String> = {
        let conn = till.app.state.db.conn().unwrap();
        let mut statement =
            conn.prepare("SELECT changes FROM activity WHERE resource = 'redemption' ORDER BY id").unwrap();
        statement.query_map([], |r| r.get::<String>(0)).unwrap().map(Result::unwrap).collect()
    };
    for (entry, reason) in reasons.iter().zip(["unknown", "another partner's", "expired"]) {
        let changes: Value = serde_json::from_str(entry).unwrap();
        assert_eq!(changes["reason"][1], reason, "{entry}");
        assert_eq!(changes["status"][1], 404);
    }
    let empty = till.confirm_with(&till.partner_key, "", None).await;
    empty.expect(400);
    assert_eq!(empty.json()["errors"]["code"], "Code is required");
}

#[tokio::test]
async fn wrong_codes_are_throttled_per_key() {
    let till = till();
    let code = till.code(employee(0)).await;
    for i in 0..20 {
        till.confirm(&format!("WRNG{:04}", 2000 + i)).await.expect(404);
    }
    let throttled = till.confirm(&code).await;
    throttled.expect(429);
    let wait: u64 = throttled.headers["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((1..=60).contains(&wait), "{wait}");
    assert!(
        throttled.message().starts_with("Too many wrong redemption codes from this key."),
        "{}",
        throttled.message()
    );
    // The document says so.
    let document = till.app.call(Method::GET, "/api/openapi.json", None, None).await.json();
    let refusal = &document["paths"]["/api/partner-portal/redemptions"]["post"]["responses"]["429"];
    assert_eq!(refusal["headers"]["Retry-After"]["schema"]["type"], "integer", "{refusal}");
    // Another partner's key is not throttled by them.
    let other_key = till.app.api_key("partner", Some(till.world.other_partner), 100_000);
    till.confirm_with(&other_key, "WRNG3333", None).await.expect(404);
    assert_eq!(till.app.count("SELECT COUNT(*) FROM usage_history"), 0);
}

#[tokio::test]
async fn the_routes_take_only_their_own_kind_of_key() {
    let till = till();
    let admin = till.app.admin().await;
    let body = json!({"employeeEmail": employee(0), "campaignId": till.world.campaign});
    let path = "/api/app/redemptions";
    till.app.call(Method::POST, path, Some(&till.partner_key), Some(body.clone())).await.expect(403);
    till.app.call(Method::POST, path, Some(&admin.token), Some(body.clone())).await.expect(401);
    till.app.call(Method::POST, path, None, Some(body)).await.expect(401);
    let code = till.code(employee(0)).await;
    let body = json!({"code": code});
    let path = "/api/partner-portal/redemptions";
    till.app.call(Method::POST, path, Some(&till.app_key), Some(body.clone())).await.expect(403);
    till.app.call(Method::POST, path, Some(&admin.token), Some(body.clone())).await.expect(401);
    till.app.call(Method::POST, path, None, Some(body)).await.expect(401);
    assert_eq!(till.app.count("SELECT COUNT(*) FROM usage_history"), 0);
}

#[tokio::test]
async fn a_repeated_request_id_answers_the_first_code() {
    let till = till();
    let body = json!({"employeeEmail": employee(0), "campaignId": till.world.campaign});
    let send = || {
        till.app.call_with(
            Method::POST,
            "/api/app/redemptions",
            Some(&till.app_key),
            Some(body.clone()),
            &[("x-requestid", "issue-1")],
        )
    };
    let first = send().await;
    first.expect(201);
    // The code expires and a new one would be drawn; the replay answers the first all the same.
    till.sql("UPDATE redemption_codes SET expires_at = '2020-01-01T00:00:00.000Z'", ());
    let replay = send().await;
    replay.expect(201);
    assert_eq!(replay.json(), first.json());
    assert_eq!(till.app.count("SELECT COUNT(*) FROM redemption_codes"), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn eight_tills_confirming_one_code_at_once_record_one_use() {
    let till = std::sync::Arc::new(till());
    let code = till.code(employee(0)).await;
    let running: Vec<_> = (0..8)
        .map(|_| {
            let (till, code) = (till.clone(), code.clone());
            tokio::spawn(async move { till.confirm(&code).await })
        })
        .collect();
    let mut statuses = Vec::new();
    for answer in running {
        statuses.push(answer.await.unwrap().status.as_u16());
    }
    statuses.sort();
    assert_eq!(statuses, [201, 409, 409, 409, 409, 409, 409, 409]);
    assert_eq!(till.app.count("SELECT COUNT(*) FROM usage_history"), 1);
}

#[tokio::test]
async fn unused_codes_are_forgotten_a_week_after_they_expired_and_used_ones_stay() {
    let till = till();
    let old = till.code(employee(0)).await;
    let recent = till.code(employee(1)).await;
    let used = till.code(employee(2)).await;
    till.confirm(&used).await.expect(201);
    let ago = |days: i64| perkdesk::db::format_iso(time::OffsetDateTime::now_utc() - time::Duration::days(days));
    for (code, days) in [(&old, 8), (&recent, 6), (&used, 30)] {
        till.sql("UPDATE redemption_codes SET expires_at = ?2 WHERE code = ?1", (code, ago(days)));
    }
    assert_eq!(perkdesk::app::housekeeping::forget_unused_codes(&till.app.state.db).await.unwrap(), 1);
    let left = |code: &str| till.app.count(&format!("SELECT COUNT(*) FROM redemption_codes WHERE code = '{code}'"));
    assert_eq!((left(&old), left(&recent), left(&used)), (0, 1, 1));
    // A forgotten code is unknown at the till, like any other.
    till.confirm(&old).await.expect_message(404, CODE_NOT_FOUND);
}

/// A confirmed code is a use like the app's: the review rules read it in its transaction (the
/// fourth use by one employee within ten minutes is flagged).
#[tokio::test]
async fn confirmed_codes_are_checked_by_the_review_rules() {
    let till = till();
    let admin = till.app.admin().await;
    let mut uses = Vec::new();
    for _ in 0..4 {
        let code = till.code(employee(3)).await;
        let confirmed = till.confirm(&code).await;
        confirmed.expect(201);
        uses.push(confirmed.json()["usageId"].as_i64().unwrap());
    }
    let queue = till.app.get("/api/usageReview?Skip=0&Take=10", &admin.token).await.expect(200).json();
    let flagged: Vec<(i64, String)> = queue["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| (row["usageId"].as_i64().unwrap(), row["reason"].as_str().unwrap().to_string()))
        .collect();
    assert_eq!(flagged, vec![(uses[3], "manyUses".to_string())], "{queue}");
}
