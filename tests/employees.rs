//! Employees: the admin list paths and the picker, edit with the spec's messages, the active
//! switch, delete, the per-asset export, roles and x-requestid repeats.

use crate::common;
use crate::people;

use axum::http::Method;
use common::*;
use serde_json::json;

fn edit(id: i64) -> serde_json::Value {
    json!({"id": id, "email": "ilkin.m@azercell.az", "phone": "994701234567", "firstName": "İlkin", "lastName": "Məmmədli"})
}

#[tokio::test]
async fn admin_lists_picker_and_detail() {
    let app = test_app();
    let admin = app.admin().await;
    let world = people::world(&app.state.db.conn().unwrap());
    let page = app.get("/api/employee/forAdmin?Skip=0&Take=30", &admin.token).await;
    page.expect(200);
    assert_eq!(page.json()["totalCount"], 6);
    let first = &page.json()["data"][0];
    assert_eq!(first["userName"], "cingiz.abbasov@azercell.az", "the picker's {{id, userName}}");
    assert!(first["id"].is_i64());
    let filtered =
        app.get("/api/employee/filter/admin?Skip=0&Take=10&FullName=ilkin&IsActive=true", &admin.token).await;
    filtered.expect(200);
    assert_eq!(filtered.json()["totalCount"], 1);
    assert_eq!(filtered.json()["data"][0]["assetName"], "Azercell");
    let detail = app.get(&format!("/api/employee/{}", world.employees[0]), &admin.token).await;
    detail.expect(200);
    assert_eq!(detail.json()["fullName"], "İlkin Məmmədov");
    app.get("/api/employee/999", &admin.token).await.expect_message(404, "Employee not found.");
    app.get("/api/employee/forAdmin?Skip=0&Take=10&IsActive=maybe", &admin.token)
        .await
        .expect_message(400, "IsActive must be true or false.");
}

#[tokio::test]
async fn edit_saves_and_answers_the_row() {
    let app = test_app();
    let admin = app.admin().await;
    let world = people::world(&app.state.db.conn().unwrap());
    let id = world.employees[0];
    let saved = app.call(Method::PUT, "/api/employee", Some(&admin.token), Some(edit(id))).await;
    saved.expect(200);
    assert_eq!(saved.json()["lastName"], "Məmmədli");
    assert_eq!(saved.json()["phone"], "994701234567");
    assert_eq!(saved.json()["email"], "ilkin.m@azercell.az");
    let missing = app.call(Method::PUT, "/api/employee", Some(&admin.token), Some(edit(999))).await;
    missing.expect_message(404, "Employee not found.");
}

#[tokio::test]
async fn edit_messages_name_their_fields() {
    let app = test_app();
    let admin = app.admin().await;
    let world = people::world(&app.state.db.conn().unwrap());
    let id = world.employees[0];
    let cases = [
        ("firstName", json!(""), "First name is required"),
        ("lastName", json!("  "), "Last name is required"),
        ("email", json!(""), "Email is required"),
        ("email", json!("ilkin"), "Wrong email format. E.g. name@example.com"),
        ("email", json!(format!("{}@azercell.az", "a".repeat(45))), "Maximum 50 symbols"),
        ("phone", json!(""), "Phone is required"),
        ("phone", json!("0501234567"), "Wrong phone format. E.g. 994501234567"),
        ("phone", json!(994501234567_i64), "phone must be text"),
        ("id", json!("abc"), "Id must be a number"),
    ];
    for (field, value, message) in cases {
        let mut body = edit(id);
        body[field] = value;
        let refused = app.call(Method::PUT, "/api/employee", Some(&admin.token), Some(body)).await;
        refused.expect_message(400, message);
        assert_eq!(refused.json()["errors"][field], message, "{field}");
    }
    let unchanged: String = app
        .state
        .db
        .conn()
        .unwrap()
        .query_row("SELECT last_name FROM employees WHERE id = ?1", [id], |r| r.get(0))
        .unwrap();
    assert_eq!(unchanged, "Məmmədov");
    app.call(Method::PUT, "/api/employee", Some(&admin.token), Some(json!([1]))).await.expect(400);
}

#[tokio::test]
async fn toggle_delete_and_export_by_asset() {
    let app = test_app();
    let admin = app.admin().await;
    let world = people::world(&app.state.db.conn().unwrap());
    app.call(
        Method::PATCH,
        "/api/employee/active",
        Some(&admin.token),
        Some(json!({"id": world.employees[1], "isActive": false})),
    )
    .await
    .expect(200);
    let inactive = app.get("/api/employee/filter/admin?Skip=0&Take=10&IsActive=false", &admin.token).await;
    assert_eq!(inactive.json()["totalCount"], 1);
    let file = app.get(&format!("/api/employee/export/admin?assetId={}", world.asset), &admin.token).await;
    file.expect(200);
    assert!(file.headers["content-disposition"].to_str().unwrap().contains("EmployeeList.xlsx"));
    let rows = workbook_rows(&file.bytes);
    assert_eq!(rows.len(), 7);
    assert_eq!(rows[0][0], "First name");
    let none = app.get("/api/employee/export/admin?assetId=999", &admin.token).await;
    assert_eq!(workbook_rows(&none.bytes).len(), 1);
    app.get("/api/employee/export/admin?assetId=x", &admin.token)
        .await
        .expect_message(400, "assetId must be a whole number.");
    app.call(Method::DELETE, "/api/employee", Some(&admin.token), Some(json!({"id": [world.employees[2]]})))
        .await
        .expect(200);
    assert_eq!(app.get("/api/employee/forAdmin?Skip=0&Take=10", &admin.token).await.json()["totalCount"], 5);
}

#[tokio::test]
async fn roles_sign_in_and_repeats() {
    let app = test_app();
    let admin = app.admin().await;
    let world = people::world(&app.state.db.conn().unwrap());
    let id = world.employees[0];
    app.call(Method::GET, "/api/employee/forAdmin", None, None).await.expect(401);
    app.call(Method::PUT, "/api/employee", None, Some(edit(id))).await.expect(401);
    let call_center = app.user_with_role("cc@perk.az", 2).await;
    app.get("/api/employee/forAdmin?Skip=0&Take=10", &call_center.token).await.expect(200);
    app.get(&format!("/api/employee/export/admin?assetId={}", world.asset), &call_center.token).await.expect(200);
    app.call(Method::PUT, "/api/employee", Some(&call_center.token), Some(edit(id))).await.expect(403);
    app.call(
        Method::PATCH,
        "/api/employee/active",
        Some(&call_center.token),
        Some(json!({"id": id, "isActive": false})),
    )
    .await
    .expect(403);
    app.call(Method::DELETE, "/api/employee", Some(&call_center.token), Some(json!({"id": [id]}))).await.expect(403);
    let user = app.user_with_role("user@perk.az", 1).await;
    app.call(Method::PUT, "/api/employee", Some(&user.token), Some(edit(id))).await.expect(200);

    let headers = [("x-requestid", "employee-edit-1")];
    let first = app.call_with(Method::PUT, "/api/employee", Some(&admin.token), Some(edit(id)), &headers).await;
    first.expect(200);
    app.state.db.conn().unwrap().execute("UPDATE employees SET last_name = 'Changed' WHERE id = ?1", [id]).unwrap();
    let again = app.call_with(Method::PUT, "/api/employee", Some(&admin.token), Some(edit(id)), &headers).await;
    again.expect(200);
    assert_eq!(again.bytes, first.bytes, "the stored answer");
    let last_name: String = app
        .state
        .db
        .conn()
        .unwrap()
        .query_row("SELECT last_name FROM employees WHERE id = ?1", [id], |r| r.get(0))
        .unwrap();
    assert_eq!(last_name, "Changed", "the repeat did not run the edit again");
    let mut other = edit(id);
    other["lastName"] = json!("Other");
    app.call_with(Method::PUT, "/api/employee", Some(&admin.token), Some(other), &headers).await.expect(422);
}
