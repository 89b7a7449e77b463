//! Lists sort text in the Azerbaijani alphabet (A B C Ç D E Ə F G Ğ H X I İ J K Q L M N O Ö P R S
//! Ş T U Ü V Y Z), without regard to case, Cyrillic after Latin, in both directions and on deep
//! pages, from the `az`-collated indexes.

use crate::common;

use common::*;

/// Last names in the alphabet's order (a lower-case one among them: case does not count).
const IN_ORDER: [&str; 31] = [
    "Abbasova",
    "Bağırov",
    "Cəfərova",
    "Çələbiyev",
    "Dadaşov",
    "Eyvazov",
    "Əliyev",
    "Fərzəliyev",
    "Gəncəli",
    "Hüseynova",
    "Xəlilov",
    "Işıqlı",
    "İsmayılov",
    "Jabbarlı",
    "Kərimova",
    "Quliyev",
    "Ləzgiyev",
    "məmmədli",
    "Məmmədova",
    "Mustafayeva",
    "Nəsibov",
    "Orucov",
    "Ömərov",
    "Paşayev",
    "Rzayev",
    "Sadıqov",
    "Şahbazov",
    "Talıbov",
    "Üzeyirova",
    "Zeynalova",
    "Абдуллаев",
];

#[tokio::test]
async fn users_sort_by_last_name_in_the_azerbaijani_alphabet() {
    let app = test_app();
    let admin = app.admin().await;
    {
        let conn = app.state.db.conn().unwrap();
        // Inserted in reverse code-point order, so neither insertion nor code points give the answer.
        let mut shuffled = IN_ORDER.to_vec();
        shuffled.sort_by(|a, b| b.cmp(a));
        for (i, last_name) in shuffled.iter().enumerate() {
            conn.execute(
                "INSERT INTO users (kind, first_name, last_name, email, phone, role_id, password_hash, totp_secret)
                 VALUES ('staff', 'Ad', ?1, ?2, '994501234567', 1, 'x', 'y')",
                (last_name, format!("az{i}@perk.az")),
            )
            .unwrap();
        }
    }
    let names = |ascending: bool| {
        let app = &app;
        let token = admin.token.clone();
        async move {
            let page =
                app.get(&format!("/api/user?Skip=0&Take=100&SortField=lastName&OrderBy={ascending}"), &token).await;
            page.expect(200);
            page.json()["data"]
                .as_array()
                .unwrap()
                .iter()
                .map(|row| row["lastName"].as_str().unwrap().to_string())
                .filter(|name| name != "User") // the signed-in Admin
                .collect::<Vec<_>>()
        }
    };
    assert_eq!(names(true).await, IN_ORDER);
    let mut descending = IN_ORDER.to_vec();
    descending.reverse();
    assert_eq!(names(false).await, descending);
    // Code points would have put the Azerbaijani letters after Z.
    let mut by_code_point = IN_ORDER.to_vec();
    by_code_point.sort();
    assert_ne!(by_code_point, IN_ORDER);
}

/// A page read from its anchor (a remembered row deep in the list) equals the page stepped to,
/// with Azerbaijani names that the collation and code points order differently.
#[tokio::test]
async fn deep_pages_in_azerbaijani_order_start_from_the_right_row() {
    let app = test_app();
    let admin = app.admin().await;
    {
        let conn = app.state.db.conn().unwrap();
        conn.execute_batch(
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2600)
             INSERT INTO users (kind, first_name, last_name, email, phone, role_id, password_hash, totp_secret)
             SELECT 'staff', 'Ad', CASE i % 5 WHEN 0 THEN 'Şahin' WHEN 1 THEN 'Zeynalov' WHEN 2 THEN 'Əliyev'
                                               WHEN 3 THEN 'ismayılov' ELSE 'İsmayılova' END,
                    'deep' || i || '@perk.az', '994501234567', 1, 'x', 'y' FROM n",
        )
        .unwrap();
    }
    let conn = app.state.db.conn().unwrap();
    for ascending in [true, false] {
        let direction = if ascending { "ASC" } else { "DESC" };
        let expected: Vec<i64> = conn
            .prepare(&format!(
                "SELECT id FROM users WHERE kind = 'staff' AND deleted_at IS NULL
                 ORDER BY last_name COLLATE az {direction}, id {direction} LIMIT 10 OFFSET 2100"
            ))
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        let page =
            app.get(&format!("/api/user?Skip=2100&Take=10&SortField=lastName&OrderBy={ascending}"), &admin.token).await;
        page.expect(200);
        let seen: Vec<i64> =
            page.json()["data"].as_array().unwrap().iter().map(|row| row["id"].as_i64().unwrap()).collect();
        assert_eq!(seen, expected, "{direction}");
    }
}

/// Lookups by equality keep their indexes beside the az-collated sort indexes: the inbound API
/// finds the employee of every use by e-mail, and a scan there cost 60 % of the use's throughput.
#[test]
fn lookups_by_e_mail_still_read_an_index() {
    if common::sqlite_only("SQLite's query plans") {
        return;
    }
    let app = test_app();
    let conn = app.state.db.conn().unwrap();
    let plan = |sql: &str| -> String {
        conn.prepare(&format!("EXPLAIN QUERY PLAN {sql}"))
            .unwrap()
            .query_map(["e@perk.az"], |r| r.get::<String>(3))
            .unwrap()
            .map(Result::unwrap)
            .collect::<Vec<_>>()
            .join(" | ")
    };
    let employee = plan("SELECT id FROM employees WHERE email = ?1 AND deleted_at IS NULL ORDER BY id LIMIT 1");
    assert!(employee.contains("USING INDEX employees_email "), "{employee}");
    let user = plan("SELECT id FROM users WHERE email = ?1 AND kind = 'staff' AND deleted_at IS NULL");
    assert!(user.contains("USING INDEX users_staff_email"), "{user}");
    assert!(!user.contains("users_staff_email_sorted"), "{user}");
}

/// A tool that writes with stand-ins for the collation and its sort key (the bench's Python fills)
/// leaves the sort indexes in the stand-in's order and clears the `collations` record: the next
/// open re-keys every index built on `az_key`, so the file checks whole and sorts in the alphabet.
#[test]
fn rows_written_with_a_stand_in_key_are_re_keyed_at_the_next_open() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("perkdesk.db");
    drop(perkdesk::app::open_db(&path).unwrap());
    {
        let foreign = rusqlite::Connection::open(&path).unwrap();
        foreign.create_collation("az", |a: &str, b: &str| a.cmp(b)).unwrap();
        foreign
            .create_scalar_function("az_key", 1, rusqlite::functions::FunctionFlags::SQLITE_DETERMINISTIC, |ctx| {
                Ok(ctx.get::<Option<String>>(0)?.map(String::into_bytes))
            })
            .unwrap();
        // A foreign writer writes the search indexes at once (migration 18), as scripts/perkdesk_sqlite.py.
        foreign
            .create_scalar_function("search_deferred", 1, rusqlite::functions::FunctionFlags::SQLITE_UTF8, |_| {
                Ok(false)
            })
            .unwrap();
        // The activity log's triggers ask who writes (scripts/perkdesk_sqlite.py answers the command line).
        foreign
            .create_scalar_function("activity_actor", 1, rusqlite::functions::FunctionFlags::SQLITE_UTF8, |ctx| {
                Ok(if ctx.get::<i64>(0)? == 1 { None } else { Some("cli".to_string()) })
            })
            .unwrap();
        for (i, name) in ["Zeynalov", "Əliyev", "Cəfərov", "çələbi"].iter().enumerate() {
            foreign
                .execute(
                    "INSERT INTO users (kind, first_name, last_name, email, phone, role_id, password_hash, totp_secret)
                     VALUES ('staff', 'Ad', ?1, ?2, '994501234567', 1, 'x', 'y')",
                    (name, format!("foreign{i}@perk.az")),
                )
                .unwrap();
        }
        foreign.execute("DELETE FROM collations", []).unwrap();
    }
    let db = perkdesk::app::open_db(&path).unwrap();
    let conn = db.conn().unwrap();
    let check: String = conn.query_row("PRAGMA integrity_check", [], |r| r.get(0)).unwrap();
    assert_eq!(check, "ok");
    let sorted: Vec<String> = conn
        .prepare(
            "SELECT last_name FROM users WHERE kind = 'staff' AND deleted_at IS NULL AND email LIKE 'foreign%'
             ORDER BY az_key(last_name), id",
        )
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(sorted, ["Cəfərov", "çələbi", "Əliyev", "Zeynalov"]);
}
