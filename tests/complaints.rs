//! Complaints: list with the reason's id and name and the whole description, the Read/Unread
//! filter, the read flag (Call Center may set it), the unread count, roles and repeats.

use crate::common;
use crate::people;

use axum::http::Method;
use common::*;
use serde_json::json;

const LONG: &str = "Kassada endirim tətbiq olunmadı, kassir kampaniyanın bitdiyini dedi";

#[tokio::test]
async fn list_detail_filter_and_unread_count() {
    let app = test_app();
    let admin = app.admin().await;
    let ids: Vec<i64> = {
        let conn = app.state.db.conn().unwrap();
        (1..=5).map(|reason| people::complaint(&conn, reason, LONG, reason == 3)).collect()
    };
    let page = app.get("/api/complaint?Skip=0&Take=10&SortField=reasonId&OrderBy=true", &admin.token).await;
    page.expect(200);
    assert_eq!(page.json()["totalCount"], 5);
    let names: Vec<String> =
        page.json()["data"].as_array().unwrap().iter().map(|r| r["reasonName"].as_str().unwrap().to_owned()).collect();
    // A system word in the caller's language, Azerbaijani unless Accept-Language says otherwise.
    assert_eq!(
        names,
        ["Endirim tətbiq edilmədi", "Endirimin məbləği səhvdir", "İşçilərin davranışı", "Tətbiqdə problem", "Digər"]
    );
    for (language, fourth) in [("2", "App problem"), ("3", "Проблема с приложением")] {
        let page = app
            .call_with(
                Method::GET,
                "/api/complaint?Skip=0&Take=10&SortField=reasonId&OrderBy=true",
                Some(&admin.token),
                None,
                &[("accept-language", language)],
            )
            .await;
        assert_eq!(page.json()["data"][3]["reasonName"], fourth, "Accept-Language {language}");
    }
    assert_eq!(page.json()["data"][0]["description"], LONG, "the whole text; the screen cuts it");
    let unread = app.get("/api/complaint/filter?Skip=0&Take=10&IsRead=false", &admin.token).await;
    assert_eq!(unread.json()["totalCount"], 4);
    let read = app.get("/api/complaint/filter?Skip=0&Take=10&IsRead=true", &admin.token).await;
    assert_eq!(read.json()["data"][0]["reasonId"], 3);
    let count = app.get("/api/complaint/unreadCount", &admin.token).await;
    count.expect(200);
    assert_eq!(count.json()["count"], 4);
    let detail = app.get(&format!("/api/complaint/{}", ids[0]), &admin.token).await;
    assert_eq!(detail.json()["fullName"], "Gülnar Əliyeva");
    assert_eq!(detail.json()["isRead"], false);
    app.get("/api/complaint/999", &admin.token).await.expect_message(404, "Complaint not found.");
}

#[tokio::test]
async fn call_center_marks_read_and_unread() {
    let app = test_app();
    let id = people::complaint(&app.state.db.conn().unwrap(), 1, LONG, false);
    let call_center = app.user_with_role("cc@perk.az", 2).await;
    let read = app
        .call(Method::PUT, "/api/complaint", Some(&call_center.token), Some(json!({"id": id, "status": true})))
        .await;
    read.expect(200);
    assert_eq!(read.json()["isRead"], true);
    assert_eq!(app.get("/api/complaint/unreadCount", &call_center.token).await.json()["count"], 0);
    let unread = app
        .call(Method::PUT, "/api/complaint", Some(&call_center.token), Some(json!({"id": id, "status": false})))
        .await;
    assert_eq!(unread.json()["isRead"], false);
    for (body, field, message) in [
        (json!({"id": id, "status": "maybe"}), "status", "Status must be true (read) or false (unread)"),
        (json!({"id": id}), "status", "Status must be true (read) or false (unread)"),
        (json!({"status": true}), "id", "Id is required"),
    ] {
        let refused = app.call(Method::PUT, "/api/complaint", Some(&call_center.token), Some(body)).await;
        refused.expect_message(400, message);
        assert_eq!(refused.json()["errors"][field], message);
    }
    app.call(Method::PUT, "/api/complaint", Some(&call_center.token), Some(json!({"id": 999, "status": true})))
        .await
        .expect_message(404, "Complaint not found.");
    app.call(Method::PUT, "/api/complaint", None, Some(json!({"id": id, "status": true}))).await.expect(401);
    app.call(Method::GET, "/api/complaint/unreadCount", None, None).await.expect(401);
    // Complaints have no delete call: the method is not allowed for anyone.
    app.call(Method::DELETE, "/api/complaint", Some(&call_center.token), Some(json!({"id": [id]}))).await.expect(405);

    let headers = [("x-requestid", "complaint-read-1")];
    let body = json!({"id": id, "status": true});
    let first =
        app.call_with(Method::PUT, "/api/complaint", Some(&call_center.token), Some(body.clone()), &headers).await;
    first.expect(200);
    let again = app.call_with(Method::PUT, "/api/complaint", Some(&call_center.token), Some(body), &headers).await;
    assert_eq!(again.bytes, first.bytes);
}
