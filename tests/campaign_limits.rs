//! A campaign's limits (issue 41): the four fields on the back office's form and the partner's
//! proposal with their rules, the uses a campaign has and has left in its reads, the app's use
//! refused past each limit with the message naming it, what the app is told is left, and 64 uses
//! at once of a campaign capped at 10 storing exactly 10.

use crate::common;
use crate::people;

use axum::http::Method;
use common::*;
use perkdesk::resources::campaigns::limits::*;
use serde_json::{Value, json};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

fn client(app: &TestApp, kind: &str, partner: Option<i64>) -> String {
    app.api_key(kind, partner, 100_000)
}

fn world(app: &TestApp) -> people::World {
    people::offered_world(&app.state.db.conn().unwrap())
}

fn iso(at: OffsetDateTime) -> String {
    at.format(&Rfc3339).unwrap()
}

/// A campaign form of the world's partner and category, with `extra` fields added.
fn form(world: &people::World, extra: &[(&str, &str)]) -> Vec<(String, String)> {
    let now = OffsetDateTime::now_utc();
    let mut fields: Vec<(String, String)> = [
        ("partnerId", world.partner.to_string()),
        ("campaignCategoryId", world.category.to_string()),
        ("discountPercent", "20".into()),
        ("startDate", iso(now + time::Duration::days(1))),
        ("expireDate", iso(now + time::Duration::days(30))),
        ("nameAz", "Yay endirimi".into()),
        ("nameEn", "Summer sale".into()),
        ("nameRu", "Летняя скидка".into()),
        ("descriptionAz", "Təsvir".into()),
        ("descriptionEn", "Description".into()),
        ("descriptionRu", "Описание".into()),
        ("assets", world.asset.to_string()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    fields.extend(extra.iter().map(|(k, v)| (k.to_string(), v.to_string())));
    fields
}

const IMAGES: &[(&str, &str, &[u8])] = &[("file", "a.png", PNG), ("backgroundFile", "b.png", PNG)];

async fn send(app: &TestApp, method: Method, path: &str, token: &str, fields: &[(String, String)]) -> Response {
    let borrowed: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let images = if method == Method::POST { IMAGES } else { &[] };
    app.send_form(method, path, token, &borrowed, images).await
}

/// Fields sent beside a valid form, the field refused and its message.
type Refusal = (&'static [(&'static str, &'static str)], &'static str, &'static str);

#[tokio::test]
async fn the_back_office_sets_limits_with_their_rules() {
    let app = test_app();
    let admin = app.admin().await;
    let world = world(&app);
    let limited = [
        ("usageLimitTotal", "500"),
        ("usageLimitPerEmployee", "2"),
        ("usageLimitPeriod", "week"),
        ("verifiedOnly", "true"),
    ];
    let made = send(&app, Method::POST, "/api/campaign", &admin.token, &form(&world, &limited)).await;
    made.expect(201);
    let id = made.json()["id"].as_i64().unwrap();
    let read = app.get(&format!("/api/campaign/{id}"), &admin.token).await.json();
    for row in [&made.json(), &read] {
        assert_eq!(row["usageLimitTotal"], 500, "{row}");
        assert_eq!(row["usageLimitPerEmployee"], 2);
        assert_eq!(row["usageLimitPeriod"], "week");
        assert_eq!(row["verifiedOnly"], true);
        assert_eq!(row["usesCount"], 0);
        assert_eq!(row["usesRemaining"], 500);
    }
    let listed = app.get("/api/campaign?Skip=0&Take=10", &admin.token).await.json();
    let row = listed["data"].as_array().unwrap().iter().find(|row| row["id"] == id).cloned().unwrap();
    assert_eq!((row["usesCount"].clone(), row["usageLimitTotal"].clone()), (json!(0), json!(500)), "{row}");
    let exported = workbook_rows(&app.get("/api/campaign/export", &admin.token).await.bytes);
    for header in ["Uses", "Usage limit", "Uses remaining", "Limit per employee", "Limit period", "Verified only"] {
        assert!(exported[0].iter().any(|cell| cell == header), "{header} in {:?}", exported[0]);
    }

    // An edit without them takes the limits away.
    let mut edit = form(&world, &[]);
    edit.push(("id".into(), id.to_string()));
    let edited = send(&app, Method::PUT, "/api/campaign", &admin.token, &edit).await;
    edited.expect(200);
    let edited = edited.json();
    assert_eq!(
        [&edited["usageLimitTotal"], &edited["usageLimitPerEmployee"], &edited["usageLimitPeriod"]],
        [&Value::Null, &Value::Null, &Value::Null]
    );
    assert_eq!((edited["verifiedOnly"].clone(), edited["usesRemaining"].clone()), (json!(false), Value::Null));

    let before = app.count("SELECT COUNT(*) FROM campaigns");
    let refusals: &[Refusal] = &[
        (&[("usageLimitTotal", "0")], "usageLimitTotal", TOTAL_LIMIT_RANGE),
        (&[("usageLimitTotal", "10000001")], "usageLimitTotal", TOTAL_LIMIT_RANGE),
        (&[("usageLimitTotal", "2.5")], "usageLimitTotal", TOTAL_LIMIT_RANGE),
        (&[("usageLimitTotal", "many")], "usageLimitTotal", TOTAL_LIMIT_RANGE),
        (
            &[("usageLimitPerEmployee", "1001"), ("usageLimitPeriod", "day")],
            "usageLimitPerEmployee",
            EMPLOYEE_LIMIT_RANGE,
        ),
        (&[("usageLimitPerEmployee", "2")], "usageLimitPeriod", PERIOD_REQUIRED),
        (&[("usageLimitPerEmployee", "2"), ("usageLimitPeriod", "year")], "usageLimitPeriod", PERIOD_FORMAT),
        (&[("verifiedOnly", "maybe")], "verifiedOnly", VERIFIED_FLAG),
    ];
    for (extra, field, message) in refusals {
        let refused = send(&app, Method::POST, "/api/campaign", &admin.token, &form(&world, extra)).await;
        refused.expect(400);
        assert_eq!(refused.json()["errors"][field], *message, "{extra:?}: {}", refused.json());
    }
    assert_eq!(app.count("SELECT COUNT(*) FROM campaigns"), before, "no refusal wrote anything");
    // A period without a per-employee limit means nothing: it is not stored.
    let alone =
        send(&app, Method::POST, "/api/campaign", &admin.token, &form(&world, &[("usageLimitPeriod", "week")])).await;
    alone.expect(201);
    assert_eq!(
        (alone.json()["usageLimitPerEmployee"].clone(), alone.json()["usageLimitPeriod"].clone()),
        (Value::Null, Value::Null)
    );
    let call_center = app.user_with_role("cc@perk.az", 2).await;
    send(&app, Method::POST, "/api/campaign", &call_center.token, &form(&world, &limited)).await.expect(403);
}

#[tokio::test]
async fn a_partner_proposes_limits_with_the_same_rules() {
    let app = test_app();
    let world = world(&app);
    let key = client(&app, "partner", Some(world.partner));
    let limited =
        form(&world, &[("usageLimitTotal", "100"), ("usageLimitPerEmployee", "1"), ("usageLimitPeriod", "day")]);
    let proposed = send(&app, Method::POST, "/api/partner-portal/campaigns", &key, &limited).await;
    proposed.expect(201);
    let proposed = proposed.json();
    assert_eq!((proposed["usageLimitTotal"].clone(), proposed["usageLimitPeriod"].clone()), (json!(100), json!("day")));
    assert_eq!(proposed["isConfirmed"], false);
    let without_period = form(&world, &[("usageLimitPerEmployee", "1")]);
    let refused = send(&app, Method::POST, "/api/partner-portal/campaigns", &key, &without_period).await;
    refused.expect(400);
    assert_eq!(refused.json()["errors"]["usageLimitPeriod"], PERIOD_REQUIRED);
}

async fn use_of(app: &TestApp, key: &str, employee: &str, campaign: i64) -> Response {
    let body = json!({"employeeEmail": employee, "campaignId": campaign});
    app.call(Method::POST, "/api/app/usage", Some(key), Some(body)).await
}

fn set_limits(app: &TestApp, campaign: i64, total: Option<i64>, per_employee: Option<(i64, &str)>) {
    let conn = app.state.db.conn().unwrap();
    conn.execute(
        "UPDATE campaigns SET usage_limit_total = ?2, usage_limit_per_employee = ?3, usage_limit_period = ?4 WHERE id = ?1",
        (campaign, total, per_employee.map(|(n, _)| n), per_employee.map(|(_, period)| period)),
    )
    .unwrap();
}

#[tokio::test]
async fn the_apps_use_stops_at_each_limit_with_a_message_naming_it() {
    let app = test_app();
    let admin = app.admin().await;
    let world = world(&app);
    let key = client(&app, "employee-app", None);
    let email = |i: usize| people::EMPLOYEES[i].2;
    let campaign = world.campaign;

    set_limits(&app, campaign, Some(3), None);
    for i in 0..3 {
        use_of(&app, &key, email(i), campaign).await.expect(201);
    }
    let refused = use_of(&app, &key, email(3), campaign).await;
    refused.expect_message(409, "This campaign has reached its limit of 3 uses.");
    assert_eq!(refused.json()["errors"]["campaignId"], "This campaign has reached its limit of 3 uses.");
    let read = app.get(&format!("/api/campaign/{campaign}"), &admin.token).await.json();
    assert_eq!((read["usesCount"].clone(), read["usesRemaining"].clone()), (json!(3), json!(0)));

    // Employee 0 has one use now: one more this week, then refused; another employee is not.
    set_limits(&app, campaign, None, Some((2, "week")));
    use_of(&app, &key, email(0), campaign).await.expect(201);
    use_of(&app, &key, email(0), campaign)
        .await
        .expect_message(409, "This employee has used this campaign 2 times this week; the limit is 2.");
    use_of(&app, &key, email(4), campaign).await.expect(201);
    for (period, said) in [("day", "today"), ("month", "this month"), ("campaign", "during this campaign")] {
        set_limits(&app, campaign, None, Some((2, period)));
        use_of(&app, &key, email(0), campaign)
            .await
            .expect_message(409, &format!("This employee has used this campaign 2 times {said}; the limit is 2."));
    }

    // Uses before the period began do not count in it, and do over the campaign's life.
    let conn = app.state.db.conn().unwrap();
    let ago = |days: i64| perkdesk::db::format_iso(OffsetDateTime::now_utc() - time::Duration::days(days));
    for days in [2, 9, 40] {
        people::usage(&conn, world.employees[5], campaign, &ago(days));
    }
    for (period, limit) in [("day", 1), ("week", 2), ("month", 3)] {
        set_limits(&app, campaign, None, Some((limit, period)));
        // Before this use, the employee's uses in the period are fewer than the limit.
        let used = use_of(&app, &key, email(5), campaign).await;
        used.expect(201);
        // Deleted, it counts no more.
        conn.execute("UPDATE usage_history SET deleted_at = ?2 WHERE id = ?1", (used.json()["id"].as_i64(), ago(0)))
            .unwrap();
    }
    set_limits(&app, campaign, None, Some((3, "campaign")));
    use_of(&app, &key, email(5), campaign)
        .await
        .expect_message(409, "This employee has used this campaign 3 times during this campaign; the limit is 3.");

    // A verified-only campaign is not used through the app at all.
    set_limits(&app, campaign, None, None);
    conn.execute("UPDATE campaigns SET verified_only = 1 WHERE id = ?1", [campaign]).unwrap();
    let before = app.count("SELECT COUNT(*) FROM usage_history");
    let refused = use_of(&app, &key, email(1), campaign).await;
    refused.expect_message(409, VERIFIED_ONLY);
    assert_eq!(refused.json()["errors"]["campaignId"], VERIFIED_ONLY);
    assert_eq!(app.count("SELECT COUNT(*) FROM usage_history"), before, "no refusal wrote anything");
}

#[tokio::test]
async fn a_day_begins_at_midnight_in_the_operators_time_zone() {
    let zone = perkdesk::core::periods::OperatorZone::named("America/New_York").unwrap();
    let app = test_app_with(perkdesk::http::state::Settings { time_zone: zone.clone(), ..settings() });
    let world = world(&app);
    let key = client(&app, "employee-app", None);
    let now = OffsetDateTime::now_utc();
    let midnight = zone.period_start(perkdesk::core::periods::Period::Day, now).unwrap();
    set_limits(&app, world.campaign, None, Some((1, "day")));
    let conn = app.state.db.conn().unwrap();
    // A second before New York's midnight is yesterday there.
    people::usage(
        &conn,
        world.employees[0],
        world.campaign,
        &perkdesk::db::format_iso(midnight - time::Duration::SECOND),
    );
    use_of(&app, &key, people::EMPLOYEES[0].2, world.campaign).await.expect(201);
    use_of(&app, &key, people::EMPLOYEES[0].2, world.campaign)
        .await
        .expect_message(409, "This employee has used this campaign 1 times today; the limit is 1.");
}

#[tokio::test]
async fn the_app_is_told_what_is_left_to_each_employee() {
    let app = test_app();
    let world = world(&app);
    let key = client(&app, "employee-app", None);
    let offered = |employee: &'static str| {
        let (app, key) = (&app, key.clone());
        async move {
            let page = app.get(&format!("/api/app/campaigns?employeeEmail={employee}"), &key).await;
            page.expect(200);
            page.json()["data"][0].clone()
        }
    };
    let first = offered(people::EMPLOYEES[0].2).await;
    assert_eq!((first["verifiedOnly"].clone(), first["remainingForEmployee"].clone()), (json!(false), Value::Null));
    set_limits(&app, world.campaign, Some(5), Some((2, "week")));
    use_of(&app, &key, people::EMPLOYEES[0].2, world.campaign).await.expect(201);
    assert_eq!(offered(people::EMPLOYEES[0].2).await["remainingForEmployee"], 1, "the week's limit leaves 1");
    assert_eq!(offered(people::EMPLOYEES[1].2).await["remainingForEmployee"], 2);
    set_limits(&app, world.campaign, Some(1), Some((2, "week")));
    assert_eq!(offered(people::EMPLOYEES[1].2).await["remainingForEmployee"], 0, "the total is used up");
    set_limits(&app, world.campaign, Some(4), None);
    assert_eq!(offered(people::EMPLOYEES[1].2).await["remainingForEmployee"], 3);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn sixty_four_uses_at_once_of_a_campaign_capped_at_ten_store_ten() {
    let app = std::sync::Arc::new(test_app());
    let world = world(&app);
    let key = client(&app, "employee-app", None);
    set_limits(&app, world.campaign, Some(10), None);
    let conn = app.state.db.conn().unwrap();
    let emails: Vec<String> = (0..64).map(|i| format!("racer{i}@azercell.az")).collect();
    for (i, email) in emails.iter().enumerate() {
        conn.execute(
            "INSERT INTO employees (asset_id, first_name, last_name, email, phone) VALUES (?1, 'Racer', ?2, ?3, ?4)",
            (world.asset, format!("R{i}"), email, format!("99455{:07}", 2000000 + i)),
        )
        .unwrap();
    }
    let running: Vec<_> = emails
        .into_iter()
        .map(|email| {
            let (app, key) = (app.clone(), key.clone());
            tokio::spawn(async move { use_of(&app, &key, &email, world.campaign).await })
        })
        .collect();
    let mut answers = Vec::new();
    for answer in running {
        answers.push(answer.await.unwrap());
    }
    let reached = "This campaign has reached its limit of 10 uses.";
    let stored = answers.iter().filter(|answer| answer.status.as_u16() == 201).count();
    let refused = answers.iter().filter(|answer| answer.status.as_u16() == 409 && answer.message() == reached).count();
    assert_eq!((stored, refused), (10, 54));
    assert_eq!(app.count(&format!("SELECT COUNT(*) FROM usage_history WHERE campaign_id = {}", world.campaign)), 10);
}
