//! Filtered lists: totals are remembered between requests, so they must follow every write at once
//! (through the API, and from another connection on the same file); pages agree with their totals.

mod common;

use axum::http::Method;
use common::*;
use serde_json::json;

const BY_NAME: &str = "/api/user/filter?Skip=0&Take=10&FirstName=Aysel";
const BY_NAME_AND_ROLE: &str = "/api/user/filter?Skip=0&Take=10&FirstName=Aysel&RoleId=2";

#[tokio::test]
async fn filtered_totals_follow_every_write() {
    if common::sqlite_only("a second SQLite connection writing beside the server") {
        return;
    }
    let app = test_app();
    let admin = app.admin().await;
    let total = |path: &'static str| {
        let app = &app;
        let token = admin.token.clone();
        async move { app.get(path, &token).await.json()["totalCount"].as_i64().unwrap() }
    };
    assert_eq!(total(BY_NAME).await, 0);
    assert_eq!(total(BY_NAME_AND_ROLE).await, 0);

    let created = app
        .call(
            Method::POST,
            "/api/user/register",
            Some(&admin.token),
            Some(json!({"firstName": "Aysel", "lastName": "Məmmədova", "email": "aysel@perk.az",
                        "password": "Secret-123!", "phone": "994501234567", "roleId": 2})),
        )
        .await;
    created.expect(201);
    assert_eq!(total(BY_NAME).await, 1, "a create through the API");
    assert_eq!(total(BY_NAME_AND_ROLE).await, 1);

    // Another connection to the same file, as `perkdesk create-admin` beside the server would be.
    let outside = rusqlite::Connection::open(app.state.db.path().unwrap()).unwrap();
    perkdesk::db::register_functions(&outside).unwrap();
    outside
        .execute(
            "INSERT INTO users (kind, first_name, last_name, email, role_id, password_hash, totp_secret)
             VALUES ('staff', 'Aysel', 'Quliyeva', 'aysel.q@perk.az', 2, 'x', 'y')",
            [],
        )
        .unwrap();
    assert_eq!(total(BY_NAME).await, 2, "a write from outside the server");
    assert_eq!(total(BY_NAME_AND_ROLE).await, 2);

    let id = created.json()["id"].as_i64().unwrap();
    app.call(Method::DELETE, "/api/user", Some(&admin.token), Some(json!({"id": [id]}))).await.expect(200);
    assert_eq!(total(BY_NAME).await, 1, "a soft delete");
    assert_eq!(total(BY_NAME_AND_ROLE).await, 1);
    outside.execute("UPDATE users SET role_id = 1 WHERE email = 'aysel.q@perk.az'", []).unwrap();
    assert_eq!(total(BY_NAME_AND_ROLE).await, 0, "an edit from outside");
}

/// A searched page is read by scanning when matches are common and through the trigram index
/// when they are rare, and which one depends on how deep the page is. Paging through a whole
/// filtered list, in id order and sorted, crosses from one to the other and must still give
/// every match once, in order, with the same Unicode case folding on both sides.
#[tokio::test]
async fn searched_pages_agree_whichever_way_they_are_read() {
    if common::sqlite_only("SQLite's FTS5 index and its ways of reading it") {
        return;
    }
    let app = test_app();
    let admin = app.admin().await;
    let conn = seed_bulk_users(&app);
    for (sort, order) in [("", "id DESC"), ("&SortField=lastName&OrderBy=true", "last_name COLLATE az ASC, id ASC")] {
        let expected = ids(&conn, "first_name = 'ŞAHİN' OR first_name = 'Şahin'", order);
        let (total, seen) = every_page(&app, &admin.token, &format!("FirstName=%C5%9Fah{sort}")).await;
        assert_eq!(total, expected.len() as i64, "{sort}");
        assert_eq!(seen, expected, "{sort}");
    }
}

/// A term whose first letters every e-mail shares (`bul`, `ulk`) is looked up by its rare
/// trigrams and its rows tested for the whole term; it must find exactly what the whole term finds.
#[tokio::test]
async fn terms_with_common_trigrams_find_exactly_the_whole_term() {
    if common::sqlite_only("SQLite's FTS5 rare-trigram look-up") {
        return;
    }
    let app = test_app();
    let admin = app.admin().await;
    let conn = seed_bulk_users(&app);
    let cases = [
        ("Email=bulk1234", "email LIKE '%bulk1234%'"),
        ("Email=ULK1999&RoleId=1", "email LIKE '%ulk1999%' AND role_id = 1"),
        ("Email=bulk99999", "email LIKE '%bulk99999%'"),
        ("Email=lk1@perk&LastName=Soyad1", "email LIKE '%lk1@perk%' AND last_name LIKE '%soyad1%'"),
    ];
    for (filter, condition) in cases {
        for (sort, order) in [("", "id DESC"), ("&SortField=lastName&OrderBy=true", "last_name COLLATE az ASC, id ASC")]
        {
            let expected = ids(&conn, condition, order);
            let (total, seen) = every_page(&app, &admin.token, &format!("{filter}{sort}")).await;
            assert_eq!(total, expected.len() as i64, "{filter}{sort}");
            assert_eq!(seen, expected, "{filter}{sort}");
        }
    }
    assert!(!ids(&conn, "email LIKE '%bulk1234%'", "id").is_empty(), "the cases must find something");
}

/// 20,000 staff users with e-mails `bulk<i>@perk.az`, and a connection to read them back.
fn seed_bulk_users(app: &TestApp) -> rusqlite::Connection {
    let conn = rusqlite::Connection::open(app.state.db.path().unwrap()).unwrap();
    // The sort indexes are ordered in perkdesk's Azerbaijani collation; its search triggers ask
    // whether perkdesk's writer defers them.
    perkdesk::db::register_functions(&conn).unwrap();
    conn.execute_batch(
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
         INSERT INTO users (kind, first_name, last_name, email, role_id, password_hash, totp_secret)
         SELECT 'staff', CASE i % 9 WHEN 0 THEN 'ŞAHİN' WHEN 1 THEN 'Şahin' ELSE 'Aysel' END,
                'Soyad' || (i % 89), 'bulk' || i || '@perk.az', i % 3, 'x', 'y' FROM n;",
    )
    .unwrap();
    conn
}

/// Ids of the live staff users meeting `condition`, in `order`.
fn ids(conn: &rusqlite::Connection, condition: &str, order: &str) -> Vec<i64> {
    conn.prepare(&format!(
        "SELECT id FROM users WHERE kind = 'staff' AND deleted_at IS NULL AND ({condition}) ORDER BY {order}"
    ))
    .unwrap()
    .query_map([], |r| r.get(0))
    .unwrap()
    .map(Result::unwrap)
    .collect()
}

/// The total and the ids of every page of the filtered user list, 100 at a time.
async fn every_page(app: &TestApp, token: &str, filter: &str) -> (i64, Vec<i64>) {
    let mut seen = vec![];
    let mut total = None;
    for skip in (0..).step_by(100) {
        let page = app.get(&format!("/api/user/filter?Skip={skip}&Take=100&{filter}"), token).await.json();
        total.get_or_insert(page["totalCount"].as_i64().unwrap());
        let ids: Vec<i64> = page["data"].as_array().unwrap().iter().map(|u| u["id"].as_i64().unwrap()).collect();
        if ids.is_empty() {
            break;
        }
        seen.extend(ids);
    }
    (total.unwrap_or(0), seen)
}
