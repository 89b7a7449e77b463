//! Usage history: list and filters (ids, campaign name, date range), detail with every field,
//! the status update, Admin-only delete, the UsageHistory.xlsx export by dates, roles and repeats.

use crate::common;
use crate::people;

use axum::http::Method;
use common::*;
use serde_json::json;

fn seeded(app: &TestApp) -> (people::World, Vec<i64>) {
    let conn = app.state.db.conn().unwrap();
    let world = people::world(&conn);
    let mut ids = vec![];
    for (i, day) in ["2026-01-15", "2026-03-01", "2026-03-31", "2026-06-10", "2026-11-20"].iter().enumerate() {
        let campaign = if i % 2 == 0 { world.campaign } else { world.other_campaign };
        ids.push(people::usage(&conn, world.employees[i], campaign, &format!("{day}T12:00:00.000Z")));
    }
    // The second was confirmed at the partner's till, at its branch (a redemption code).
    conn.execute(
        "UPDATE usage_history SET verified = 1, partner_city_id = ?2 WHERE id = ?1",
        (ids[1], world.other_branch),
    )
    .unwrap();
    (world, ids)
}

#[tokio::test]
async fn list_filters_and_detail() {
    let app = test_app();
    let admin = app.admin().await;
    let (world, ids) = seeded(&app);
    let page = app.get("/api/usageHistory?Skip=0&Take=10&SortField=createdDate&OrderBy=false", &admin.token).await;
    page.expect(200);
    assert_eq!(page.json()["totalCount"], 5);
    assert_eq!(page.json()["data"][0]["createdDate"], "2026-11-20T12:00:00.000Z");
    let filtered = |query: String| {
        let app = &app;
        let token = admin.token.clone();
        async move {
            app.get(&format!("/api/usageHistory/filter?Skip=0&Take=10&{query}"), &token).await.json()["totalCount"]
                .clone()
        }
    };
    assert_eq!(filtered(format!("PartnerId={}", world.partner)).await, 3);
    assert_eq!(filtered(format!("AssetId={}", world.asset)).await, 5);
    assert_eq!(filtered(format!("EmployeeId={}", world.employees[1])).await, 1);
    assert_eq!(filtered("CampaignName=heftesonu".into()).await, 3, "həftəsonu typed without its letters");
    assert_eq!(filtered("CampaignName=ARAZ".into()).await, 2);
    assert_eq!(filtered("StartDate=2026-03-01&EndDate=2026-03-31".into()).await, 2, "both days inclusive");
    assert_eq!(filtered("StartDate=2026-06-01".into()).await, 2);
    assert_eq!(filtered("Verified=true".into()).await, 1);
    assert_eq!(filtered("Verified=false".into()).await, 4);
    app.get("/api/usageHistory/filter?Verified=maybe", &admin.token)
        .await
        .expect_message(400, "Verified must be true or false.");
    app.get("/api/usageHistory/filter?StartDate=2026-04-01&EndDate=2026-03-01", &admin.token)
        .await
        .expect_message(400, "The end date must not be before the start date.");
    app.get("/api/usageHistory/filter?StartDate=01.03.2026", &admin.token)
        .await
        .expect_message(400, "StartDate must be a date like 2026-11-22.");
    app.get("/api/usageHistory/filter?PartnerId=bravo", &admin.token)
        .await
        .expect_message(400, "PartnerId must be a whole number.");
    app.get("/api/usageHistory/filter?PartnerId=-0.0", &admin.token)
        .await
        .expect_message(400, "PartnerId must be a whole number.");
    app.get("/api/usageHistory/01.0", &admin.token).await.expect_message(400, "'01.0' is not a valid id.");

    let detail = app.get(&format!("/api/usageHistory/{}", ids[0]), &admin.token).await;
    detail.expect(200);
    let row = detail.json();
    assert_eq!(row["employeeEmail"], "ilkin.mammadov@azercell.az");
    // The id and a filter written as a client holding numbers as floats writes them (`RoleId=2.0`
    // from schemathesis's fuzzing) read as the same numbers.
    let spelled = app.get(&format!("/api/usageHistory/{}.0", ids[0]), &admin.token).await;
    spelled.expect(200);
    assert_eq!(spelled.json(), row);
    let partner = row["partnerId"].as_i64().unwrap();
    let by_partner = app.get(&format!("/api/usageHistory/filter?PartnerId={partner}"), &admin.token).await.json();
    let by_spelled = app.get(&format!("/api/usageHistory/filter?PartnerId=%20{partner}.00"), &admin.token).await.json();
    assert_eq!(by_spelled, by_partner);
    assert_eq!(row["assetName"], "Azercell");
    assert_eq!(row["partnerName"], "Bravo");
    assert_eq!(row["campaignName"], "Həftəsonu endirimi");
    assert_eq!(row["merchantCategory"], "Market");
    assert_eq!(row["discountPercent"], 15);
    assert_eq!(row["status"], 0);
    assert_eq!(row["statusName"], "Confirmed");
    assert_eq!(row["createdDate"], "2026-01-15T12:00:00.000Z");
    assert_eq!((row["verified"].clone(), row["branchName"].clone()), (json!(false), serde_json::Value::Null));
    let verified = app.get(&format!("/api/usageHistory/{}", ids[1]), &admin.token).await.json();
    assert_eq!(verified["verified"], true);
    assert_eq!(verified["partnerCityId"], world.other_branch);
    assert!(verified["branchName"].as_str().unwrap().ends_with(", Sülh küç. 4"), "{verified}");
    app.get("/api/usageHistory/999", &admin.token).await.expect_message(404, "Usage record not found.");
}

#[tokio::test]
async fn status_update_and_admin_delete() {
    let app = test_app();
    let admin = app.admin().await;
    let (_, ids) = seeded(&app);
    let body = json!({"id": ids[0], "status": 1});
    let cancelled = app.call(Method::PUT, "/api/usageHistory/updateStatus", Some(&admin.token), Some(body)).await;
    cancelled.expect(200);
    assert_eq!(cancelled.json()["status"], 1);
    assert_eq!(cancelled.json()["statusName"], "Cancelled");
    for (body, field, message) in [
        (json!({"id": ids[0], "status": 2}), "status", "Status must be 0 (confirmed) or 1 (cancelled)"),
        (json!({"id": ids[0], "status": "x"}), "status", "Status must be 0 (confirmed) or 1 (cancelled)"),
        (json!({"id": ids[0]}), "status", "Status is required"),
        (json!({"status": 1}), "id", "Id is required"),
    ] {
        let refused = app.call(Method::PUT, "/api/usageHistory/updateStatus", Some(&admin.token), Some(body)).await;
        refused.expect_message(400, message);
        assert_eq!(refused.json()["errors"][field], message);
    }
    app.call(Method::PUT, "/api/usageHistory/updateStatus", Some(&admin.token), Some(json!({"id": 999, "status": 0})))
        .await
        .expect_message(404, "Usage record not found.");

    let user = app.user_with_role("user@perk.az", 1).await;
    app.call(
        Method::PUT,
        "/api/usageHistory/updateStatus",
        Some(&user.token),
        Some(json!({"id": ids[1], "status": 1})),
    )
    .await
    .expect(200);
    app.call(Method::DELETE, "/api/usageHistory", Some(&user.token), Some(json!({"id": [ids[1]]}))).await.expect(403);
    app.call(Method::DELETE, "/api/usageHistory", Some(&admin.token), Some(json!({"id": [ids[1], ids[2]]})))
        .await
        .expect(200);
    assert_eq!(app.get("/api/usageHistory?Skip=0&Take=10", &admin.token).await.json()["totalCount"], 3);
    assert_eq!(
        app.get("/api/usageHistory/filter?Skip=0&Take=10&CampaignName=heftesonu", &admin.token).await.json()["totalCount"],
        2,
        "deleted rows leave the search index"
    );
}

#[tokio::test]
async fn export_by_dates() {
    let app = test_app();
    let admin = app.admin().await;
    seeded(&app);
    let file = app.get("/api/usageHistory/export/admin?startDate=2026-03-01&endDate=2026-06-10", &admin.token).await;
    file.expect(200);
    assert!(file.headers["content-disposition"].to_str().unwrap().contains("UsageHistory.xlsx"));
    assert!(file.headers.contains_key("content-length"), "for the download progress bar");
    let rows = workbook_rows(&file.bytes);
    assert_eq!(rows.len(), 4, "three records from 1 March to 10 June inclusive, and the header");
    assert_eq!(rows[0][0], "Employee email");
    let verified = rows[0].iter().position(|cell| cell == "Verified").expect("a Verified column");
    let branch = rows[0].iter().position(|cell| cell == "Branch").expect("a Branch column");
    // 1 March is the verified use, at the other partner's branch in Sülh küç. 4.
    let first = rows.iter().find(|row| row[branch].ends_with("Sülh küç. 4")).expect("the branch exported");
    assert_ne!(first[verified], rows.iter().find(|row| row[branch].is_empty()).unwrap()[verified]);
    let all = app.get("/api/usageHistory/export/admin", &admin.token).await;
    assert_eq!(workbook_rows(&all.bytes).len(), 6);
    app.get("/api/usageHistory/export/admin?startDate=2026-06-10&endDate=2026-03-01", &admin.token)
        .await
        .expect_message(400, "The end date must not be before the start date.");
}

#[tokio::test]
async fn roles_sign_in_and_repeats() {
    let app = test_app();
    let admin = app.admin().await;
    let (_, ids) = seeded(&app);
    app.call(Method::GET, "/api/usageHistory", None, None).await.expect(401);
    app.call(Method::PUT, "/api/usageHistory/updateStatus", None, Some(json!({"id": ids[0], "status": 1})))
        .await
        .expect(401);
    let call_center = app.user_with_role("cc@perk.az", 2).await;
    app.get("/api/usageHistory?Skip=0&Take=10", &call_center.token).await.expect(200);
    app.get(&format!("/api/usageHistory/{}", ids[0]), &call_center.token).await.expect(200);
    app.get("/api/usageHistory/export/admin", &call_center.token).await.expect(200);
    app.call(
        Method::PUT,
        "/api/usageHistory/updateStatus",
        Some(&call_center.token),
        Some(json!({"id": ids[0], "status": 1})),
    )
    .await
    .expect(403);
    app.call(Method::DELETE, "/api/usageHistory", Some(&call_center.token), Some(json!({"id": [ids[0]]})))
        .await
        .expect(403);

    let headers = [("x-requestid", "usage-status-1")];
    let body = json!({"id": ids[0], "status": 1});
    let first = app
        .call_with(Method::PUT, "/api/usageHistory/updateStatus", Some(&admin.token), Some(body.clone()), &headers)
        .await;
    first.expect(200);
    let again =
        app.call_with(Method::PUT, "/api/usageHistory/updateStatus", Some(&admin.token), Some(body), &headers).await;
    assert_eq!(again.bytes, first.bytes);
    let other = json!({"id": ids[0], "status": 0});
    app.call_with(Method::PUT, "/api/usageHistory/updateStatus", Some(&admin.token), Some(other), &headers)
        .await
        .expect(422);
}
