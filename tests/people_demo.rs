//! The demo's employees, requests, applications, complaints, merchants, promo codes and a year of
//! usage history, read back through the API.

mod common;

use common::*;

#[tokio::test]
async fn the_demo_has_people_and_a_year_of_activity() {
    let app = test_app();
    perkdesk::cli::demo::prepare(&app.state.db, true).unwrap();
    let admin = app.admin().await;
    let token = &admin.token;
    let total = |path: &'static str| {
        let app = &app;
        async move { app.get(path, token).await.json()["totalCount"].as_i64().unwrap() }
    };
    assert!(total("/api/employee/forAdmin?Skip=0&Take=30").await >= 100);
    for name in ["ilkin", "ismayil", "sahin", "gulnar", "cavid", "cingiz"] {
        let found = app.get(&format!("/api/employee/filter/admin?FullName={name}"), token).await;
        assert!(found.json()["totalCount"].as_i64().unwrap() >= 1, "{name}");
    }
    assert!(total("/api/wishList?Skip=0&Take=10").await >= 30);
    // The employees who left (listed as Deleted in the reports) each have a name of their own.
    assert!(app.count("SELECT COUNT(*) FROM employees WHERE deleted_at IS NOT NULL") >= 6);
    assert_eq!(
        app.count(
            "SELECT COUNT(*) FROM (SELECT first_name, last_name FROM employees WHERE deleted_at IS NOT NULL
             GROUP BY first_name, last_name HAVING COUNT(*) > 1) AS shared"
        ),
        0,
        "no two deleted employees share a name"
    );
    let applications = app.get("/api/apply?Skip=0&Take=10", token).await.json();
    assert_eq!(applications["totalCount"], 8);
    let file = applications["data"][0]["file"].as_str().unwrap().to_string();
    app.call(axum::http::Method::GET, &format!("/{file}"), None, None).await.expect(200);
    assert!(!applications["data"][0]["cityNames"].as_str().unwrap().is_empty());
    for reason in 1..=5 {
        let complaints = app.get(&format!("/api/complaint/filter?ReasonId={reason}"), token).await;
        assert!(complaints.json()["totalCount"].as_i64().unwrap() >= 1, "reason {reason}");
    }
    assert!(app.get("/api/complaint/unreadCount", token).await.json()["count"].as_i64().unwrap() > 0);
    let merchants = app.get("/api/partner/merchant?Skip=0&Take=10", token).await.json();
    assert!(merchants["totalCount"].as_i64().unwrap() >= 10);
    assert!(merchants["data"][0]["partnerCityName"].as_str().unwrap().contains(", "));
    assert!(total("/api/promoCode?Skip=0&Take=10").await >= 30);
    let usage = app.get("/api/usageHistory?Skip=0&Take=1&SortField=createdDate&OrderBy=true", token).await.json();
    assert_eq!(usage["totalCount"], 3000);
    let months =
        app.count("SELECT COUNT(DISTINCT substr(created_at, 1, 7)) FROM usage_history WHERE deleted_at IS NULL");
    assert!(months >= 12, "a year of usage: {months} months");
}
