//! Filtered lists: totals are remembered between requests, so they must follow every write at once
//! (through the API, and from another connection on the same file); pages agree with their totals.

use crate::common;

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

/// A list answer names its data with an ETag; the same request with it in If-None-Match answers
/// 304, without a body, until anything is written (through the API or beside the server), and
/// never across requests that differ in their query or their language.
#[tokio::test]
async fn a_list_answers_304_while_its_data_has_not_changed() {
    let app = test_app();
    let admin = app.admin().await;
    let list = |path: &'static str, headers: Vec<(&'static str, String)>| {
        let app = &app;
        let token = admin.token.clone();
        async move {
            let headers: Vec<(&str, &str)> = headers.iter().map(|(name, value)| (*name, value.as_str())).collect();
            app.call_with(Method::GET, path, Some(&token), None, &headers).await
        }
    };
    let first = list(BY_NAME, vec![]).await;
    first.expect(200);
    let etag = first.headers["etag"].to_str().unwrap().to_string();
    assert!(etag.starts_with("W/\""), "a weak tag: {etag}");
    // On PostgreSQL the clock is the cluster's snapshot, which any transaction that writes moves
    // (another test's database, an autoanalyze): a 200 there is right too, with a new tag to ask
    // with. On SQLite nothing else writes the file: the first ask is a 304.
    let etag = unchanged_after(&app, &admin.token, BY_NAME, etag).await;
    // Another query, another language, another list, a stale tag: 200, each with its own tag.
    list(BY_NAME_AND_ROLE, vec![("if-none-match", etag.clone())]).await.expect(200);
    list(BY_NAME, vec![("if-none-match", etag.clone()), ("accept-language", "2".into())]).await.expect(200);
    list("/api/user/filter?Skip=0&Take=10&FirstName=Aysel&OrderBy=true", vec![("if-none-match", etag.clone())])
        .await
        .expect(200);
    list(BY_NAME, vec![("if-none-match", "W/\"stale\"".into())]).await.expect(200);

    // A write: the data changed, so the old tag gets the new list.
    app.call(
        Method::POST,
        "/api/user/register",
        Some(&admin.token),
        Some(json!({"firstName": "Aysel", "lastName": "Məmmədova", "email": "aysel@perk.az",
                    "password": "Secret-123!", "phone": "994501234567", "roleId": 2})),
    )
    .await
    .expect(201);
    let changed = list(BY_NAME, vec![("if-none-match", etag.clone())]).await;
    changed.expect(200);
    assert_eq!(changed.json()["totalCount"], 1);
    let newer = changed.headers["etag"].to_str().unwrap().to_string();
    assert_ne!(newer, etag);
    let newer = unchanged_after(&app, &admin.token, BY_NAME, newer).await;

    if common::sqlite_only("the clock moved by nothing but this test, and a second connection writing") {
        return;
    }
    // Among other tags, and a compressed answer asked for: still 304, still no body.
    let listed =
        list(BY_NAME, vec![("if-none-match", format!("W/\"other\", {newer}")), ("accept-encoding", "gzip".into())])
            .await;
    listed.expect(304);
    assert!(listed.bytes.is_empty(), "a 304 has no body");
    assert_eq!(listed.headers["etag"].to_str().unwrap(), newer);
    let outside = rusqlite::Connection::open(app.state.db.path().unwrap()).unwrap();
    perkdesk::db::register_functions(&outside).unwrap();
    outside.execute("UPDATE users SET last_name = 'Quliyeva' WHERE email = 'aysel@perk.az'", []).unwrap();
    let outside_write = list(BY_NAME, vec![("if-none-match", newer)]).await;
    outside_write.expect(200);
    assert_eq!(outside_write.json()["data"][0]["lastName"], "Quliyeva", "a write from outside the server");
}

/// Asks for `path` with `etag` until the answer is a 304 (on SQLite the first must be; on
/// PostgreSQL at most five asks, each with the tag the last answer named); the tag that got it.
async fn unchanged_after(app: &TestApp, token: &str, path: &str, mut etag: String) -> String {
    let asks = if matches!(std::env::var("PERKDESK_TEST_ENGINE").as_deref(), Ok("postgres")) { 5 } else { 1 };
    for _ in 0..asks {
        let answer = app.call_with(Method::GET, path, Some(token), None, &[("if-none-match", &etag)]).await;
        if answer.status.as_u16() == 304 {
            assert!(answer.bytes.is_empty(), "a 304 has no body");
            return etag;
        }
        answer.expect(200);
        etag = answer.headers["etag"].to_str().unwrap().to_string();
    }
    panic!("{path} never answered 304 to its own tag");
}
