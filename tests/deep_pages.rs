//! A page deep enough to start from a remembered row (every 1,000 rows, for a sort by a column
//! declared `never_null`) holds the same rows as the same page read by stepping over every row
//! before it, for every such column of a resource, in both directions, with many equal values.

use crate::common;

use common::test_app;
use perkdesk::resources::employees::EMPLOYEES;
use serde_json::Value;

/// More rows than the first anchor, with few distinct values so that ties cross the anchor.
const ROWS: usize = 1_150;

fn ids(page: &Value) -> Vec<i64> {
    page["data"].as_array().map(|rows| rows.iter().filter_map(|row| row["id"].as_i64()).collect()).unwrap_or_default()
}

#[tokio::test]
async fn anchored_pages_equal_stepped_pages_for_every_never_null_sort() {
    if common::sqlite_only("bulk rows written through a second SQLite connection") {
        return;
    }
    let app = test_app();
    let admin = app.admin().await;
    {
        let mut conn = rusqlite::Connection::open(app.state.db.path().unwrap()).unwrap();
        // The sort indexes are ordered in perkdesk's Azerbaijani collation; its search triggers ask
        // whether perkdesk's writer defers them.
        perkdesk::db::register_functions(&conn).unwrap();
        let tx = conn.transaction().unwrap();
        for asset in 0..3 {
            tx.execute(
                "INSERT INTO assets (name, contact_person, contact_person_phone_number, contact_person_email, barcode_prefix)
                 VALUES (?1, 'Aysel Əliyeva', '994551234567', ?2, ?3)",
                (["Şəki Holding", "Azercell", "Bakcell"][asset], format!("a{asset}@asset.az"), format!("A{asset}")),
            )
            .unwrap();
        }
        for i in 0..ROWS {
            tx.execute(
                "INSERT INTO employees (asset_id, first_name, last_name, email, phone, is_active, created_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                (
                    1 + (i % 3) as i64,
                    ["İlkin", "Şahin", "Gülnar", "Çingiz"][i % 4],
                    ["Məmmədov", "Quliyeva"][i % 2],
                    format!("e{i:04}@asset.az"),
                    format!("99450{:07}", 1_000_000 + (i % 7)),
                    i % 3 != 0,
                    format!("2026-0{}-1{}T10:00:00.000Z", 1 + i % 9, i % 10),
                ),
            )
            .unwrap();
        }
        tx.commit().unwrap();
    }
    let sorts: Vec<&str> =
        EMPLOYEES.columns.iter().filter(|c| c.never_null && c.sortable && c.in_list).map(|c| c.field).collect();
    assert!(sorts.len() >= 6, "{sorts:?}");
    for field in sorts {
        for ascending in ["true", "false"] {
            let page = |skip: usize, take: usize| {
                let app = &app;
                let token = admin.token.clone();
                async move {
                    let path = format!("/api/employee?Skip={skip}&Take={take}&SortField={field}&OrderBy={ascending}");
                    let answer = app.get(&path, &token).await;
                    answer.expect(200);
                    ids(&answer.json())
                }
            };
            // From the anchor at row 1,000, and by stepping from row 990 (no anchor below 1,000).
            let anchored = page(1_010, 20).await;
            let stepped = page(990, 40).await;
            assert_eq!(anchored.len(), 20, "{field} {ascending}");
            assert_eq!(anchored, stepped[20..].to_vec(), "{field} ascending={ascending}");
        }
    }
}
