//! Search as Azerbaijani staff type: `ilkin` finds `İlkin`, `ismayil` `İsmayıl`, `sahin` `Şahin`,
//! `gulnar` `Gülnar`, `cavid` `Cavid`, `cingiz` `Çingiz`, `memmedov` `Məmmədov`, on a trigram-indexed
//! list (users, usage history) and on a row-tested one (employees), each total and page checked
//! against a SQL reference that spells the folding out by hand.

use crate::common;
use crate::people;

use common::*;
use serde_json::Value;

/// The reference: Azerbaijani letters replaced by their base letters, then SQLite's ASCII lower().
fn folded_sql(column: &str) -> String {
    let mut sql = column.to_string();
    for (from, to) in [
        ("İ", "i"),
        ("ı", "i"),
        ("Ş", "s"),
        ("ş", "s"),
        ("Ç", "c"),
        ("ç", "c"),
        ("Ü", "u"),
        ("ü", "u"),
        ("Ö", "o"),
        ("ö", "o"),
        ("Ğ", "g"),
        ("ğ", "g"),
        ("Ə", "e"),
        ("ə", "e"),
    ] {
        sql = format!("replace({sql}, '{from}', '{to}')");
    }
    format!("lower({sql})")
}

const TERMS: [&str; 14] = [
    "ilkin", "ismayil", "sahin", "gulnar", "cavid", "cingiz", "ilk", "İLK", "memmedov", "ŞAH", "Gül", "ismayıl",
    "eliyeva", "hesen",
];

fn ids(page: &Value) -> Vec<i64> {
    let mut ids: Vec<i64> = page["data"].as_array().unwrap().iter().map(|r| r["id"].as_i64().unwrap()).collect();
    ids.sort_unstable();
    ids
}

fn reference(app: &TestApp, sql: &str, term: &str) -> Vec<i64> {
    let conn = app.state.db.conn().unwrap();
    let needle = format!("%{}%", perkdesk::db::fold_search(term));
    let mut stmt = conn.prepare(sql).unwrap();
    let mut ids: Vec<i64> = stmt.query_map([needle], |r| r.get(0)).unwrap().map(Result::unwrap).collect();
    ids.sort_unstable();
    ids
}

#[tokio::test]
async fn indexed_and_row_tested_lists_fold_azerbaijani_letters() {
    let app = test_app();
    let admin = app.admin().await;
    {
        let conn = app.state.db.conn().unwrap();
        let world = people::world(&conn);
        for (i, (first, last, _)) in people::EMPLOYEES.iter().enumerate() {
            conn.execute(
                "INSERT INTO users (first_name, last_name, email, password_hash, totp_secret) VALUES (?1, ?2, ?3, 'x', 'y')",
                (first, last, format!("staff{i}@perk.az")),
            )
            .unwrap();
            people::usage(
                &conn,
                world.employees[i],
                if i % 2 == 0 { world.campaign } else { world.other_campaign },
                "2026-05-05T10:00:00.000Z",
            );
        }
        // Enough other rows that selective terms are answered by the index, not by testing rows.
        conn.execute_batch(
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000)
             INSERT INTO users (first_name, last_name, email, password_hash, totp_secret)
             SELECT 'Ad' || i, 'Soyad' || i, 'bulk' || i || '@perk.az', 'x', 'y' FROM n;",
        )
        .unwrap();
    }
    let users_sql = format!(
        "SELECT id FROM users WHERE kind = 'staff' AND deleted_at IS NULL AND {} LIKE ?1",
        folded_sql("first_name")
    );
    let employees_sql = format!(
        "SELECT id FROM employees WHERE deleted_at IS NULL AND {} LIKE ?1",
        folded_sql("first_name || ' ' || last_name")
    );
    let mut found_any = 0;
    for term in TERMS {
        let encoded: String = form_urlencoded::byte_serialize(term.as_bytes()).collect();
        let expected = reference(&app, &users_sql, term);
        let page = app.get(&format!("/api/user/filter?Skip=0&Take=100&FirstName={encoded}"), &admin.token).await;
        page.expect(200);
        assert_eq!(page.json()["totalCount"], expected.len(), "users: {term}");
        assert_eq!(ids(&page.json()), expected, "users: {term}");

        let expected = reference(&app, &employees_sql, term);
        let page =
            app.get(&format!("/api/employee/filter/admin?Skip=0&Take=100&FullName={encoded}"), &admin.token).await;
        assert_eq!(page.json()["totalCount"], expected.len(), "employees: {term}");
        assert_eq!(ids(&page.json()), expected, "employees: {term}");
        found_any += expected.len();
    }
    assert!(found_any >= TERMS.len(), "every term finds someone");
    for (term, count) in [("ilkin", 1), ("sahin", 1), ("gulnar", 1), ("cingiz", 1), ("İsmayıl", 1), ("cavid", 1)] {
        let page = app.get(&format!("/api/employee/filter/admin?FullName={term}"), &admin.token).await;
        assert_eq!(page.json()["totalCount"], count, "{term}");
    }

    let usage_sql =
        format!("SELECT id FROM usage_history WHERE deleted_at IS NULL AND {} LIKE ?1", folded_sql("campaign_name"));
    for term in ["heftesonu", "HƏFTƏSONU", "endirim", "araz end", "həftə"] {
        let encoded: String = form_urlencoded::byte_serialize(term.as_bytes()).collect();
        let expected = reference(&app, &usage_sql, term);
        assert!(!expected.is_empty(), "{term}");
        let page =
            app.get(&format!("/api/usageHistory/filter?Skip=0&Take=100&CampaignName={encoded}"), &admin.token).await;
        assert_eq!(page.json()["totalCount"], expected.len(), "usage: {term}");
        assert_eq!(ids(&page.json()), expected, "usage: {term}");
    }
}
