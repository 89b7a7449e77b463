//! Requests by Employee (wishList) and by Merchant (apply): lists, filters, the wish status,
//! the exports (WishLists.xlsx, MerchantRequests.xlsx), the applicant's file, roles and repeats.

use crate::common;
use crate::people;

use axum::http::Method;
use common::*;
use serde_json::json;

#[tokio::test]
async fn wish_list_filters_status_and_export() {
    let app = test_app();
    let admin = app.admin().await;
    let (world, ids) = {
        let conn = app.state.db.conn().unwrap();
        let world = people::world(&conn);
        let ids = vec![
            people::wish(&conn, world.employees[3], "Kinoteatrlarda endirim olsun"),
            people::wish(&conn, world.employees[0], "İdman zalı ilə müqavilə"),
        ];
        (world, ids)
    };
    let page = app.get("/api/wishList?Skip=0&Take=10", &admin.token).await;
    page.expect(200);
    assert_eq!(page.json()["totalCount"], 2);
    let row = &page.json()["data"][0];
    assert_eq!(row["employeeFullName"], "İlkin Məmmədov");
    assert_eq!(row["assetName"], "Azercell");
    assert_eq!(row["status"], 0);
    let by_name = app.get("/api/wishList/filter?Skip=0&Take=10&EmployeeFullName=gulnar", &admin.token).await;
    assert_eq!(by_name.json()["totalCount"], 1);
    let by_asset = app.get(&format!("/api/wishList/filter?AssetId={}&Text=idman", world.asset), &admin.token).await;
    assert_eq!(by_asset.json()["totalCount"], 1);

    let done = app
        .call(Method::PUT, "/api/wishList/updateStatus", Some(&admin.token), Some(json!({"id": ids[0], "status": 2})))
        .await;
    done.expect(200);
    assert_eq!(done.json()["statusName"], "Done");
    let refused = app
        .call(Method::PUT, "/api/wishList/updateStatus", Some(&admin.token), Some(json!({"id": ids[0], "status": 3})))
        .await;
    refused.expect_message(400, "Status must be 0 (new), 1 (in review) or 2 (done)");
    assert_eq!(refused.json()["errors"]["status"], "Status must be 0 (new), 1 (in review) or 2 (done)");
    app.call(Method::PUT, "/api/wishList/updateStatus", Some(&admin.token), Some(json!({"id": 999, "status": 1})))
        .await
        .expect_message(404, "Request not found.");

    let file = app.get("/api/wishList/export", &admin.token).await;
    file.expect(200);
    assert!(file.headers["content-disposition"].to_str().unwrap().contains("WishLists.xlsx"));
    let rows = workbook_rows(&file.bytes);
    assert_eq!(rows.len(), 3);
    assert_eq!(rows[0][0], "Employee full name");

    app.call(Method::GET, "/api/wishList", None, None).await.expect(401);
    let call_center = app.user_with_role("cc@perk.az", 2).await;
    app.get("/api/wishList?Skip=0&Take=10", &call_center.token).await.expect(200);
    app.call(
        Method::PUT,
        "/api/wishList/updateStatus",
        Some(&call_center.token),
        Some(json!({"id": ids[0], "status": 1})),
    )
    .await
    .expect(403);
    let headers = [("x-requestid", "wish-status-1")];
    let body = json!({"id": ids[1], "status": 1});
    let first = app
        .call_with(Method::PUT, "/api/wishList/updateStatus", Some(&admin.token), Some(body.clone()), &headers)
        .await;
    first.expect(200);
    let again =
        app.call_with(Method::PUT, "/api/wishList/updateStatus", Some(&admin.token), Some(body), &headers).await;
    assert_eq!(again.bytes, first.bytes);
}

#[tokio::test]
async fn merchant_requests_with_cities_file_and_export() {
    let app = test_app();
    let admin = app.admin().await;
    let id = {
        let conn = app.state.db.conn().unwrap();
        let file = conn.insert(
            "INSERT INTO files (content_type, ext, size, sha256, bytes, public_name) VALUES ('image/png', 'png', ?1, 'x', ?2, 'f00dfeedf00dfeedf00dfeedf00dfeed')",
            (PNG.len() as i64, PNG),
        )
        .unwrap();
        let id = conn
            .insert(
                "INSERT INTO merchant_applications (partner_name, full_name, email, phone, file_id)
             VALUES ('Şirin Dünya', 'Nərmin Bağırova', 'info@sirindunya.az', '994552223344', ?1)",
                [file],
            )
            .unwrap();
        for city in [2, 1] {
            conn.execute(
                "INSERT INTO merchant_application_cities (application_id, city_id) VALUES (?1, ?2)",
                (id, city),
            )
            .unwrap();
        }
        id
    };
    let page = app.get("/api/apply?Skip=0&Take=10", &admin.token).await;
    page.expect(200);
    let row = &page.json()["data"][0];
    assert_eq!(row["partnerName"], "Şirin Dünya");
    assert_eq!(row["cityNames"], "Bakı, Gəncə");
    let path = row["file"].as_str().unwrap().to_string();
    assert_eq!(path, "cdn/f00dfeedf00dfeedf00dfeedf00dfeed.png");
    let download = app.call(Method::GET, &format!("/{path}"), None, None).await;
    download.expect(200);
    assert_eq!(download.bytes, PNG, "the applicant's file downloads from its link");
    let english = app
        .call_with(Method::GET, &format!("/api/apply/{id}"), Some(&admin.token), None, &[("accept-language", "2")])
        .await;
    assert_eq!(english.json()["cities"][0]["cityName"], "Baku");
    assert_eq!(app.get("/api/apply/filter?PartnerName=sirin", &admin.token).await.json()["totalCount"], 1);
    let file = app.get("/api/apply/export", &admin.token).await;
    file.expect(200);
    assert!(file.headers["content-disposition"].to_str().unwrap().contains("MerchantRequests.xlsx"));
    let rows = workbook_rows(&file.bytes);
    assert_eq!(
        rows[1][..5],
        ["Şirin Dünya", "Nərmin Bağırova", "info@sirindunya.az", "+994 55 222 33 44", "Bakı, Gəncə"]
    );
    // The file is an absolute link that opens it: the text shows the address, the cell links it.
    let link = format!("http://perkdesk.test/{path}");
    assert_eq!(rows[1][5], link);
    assert!(workbook_part(&file.bytes, "xl/worksheets/_rels/sheet1.xml.rels").contains(&format!("Target=\"{link}\"")));
    app.get("/api/apply/999", &admin.token).await.expect_message(404, "Merchant request not found.");
    app.call(Method::GET, "/api/apply", None, None).await.expect(401);
    let call_center = app.user_with_role("cc@perk.az", 2).await;
    app.get("/api/apply/export", &call_center.token).await.expect(200);
}
