//! An export's sort or search result never grows in memory: a whole list sorted by a column
//! without an index (here 100,000 employees by full name) spills to a temporary file beyond the
//! connection's page cache. The only test of its binary, so SQLite's process-wide memory
//! high-water mark moves only by what it does.

use crate::common;

use common::*;

/// SQLite's memory in use, and its high-water mark since the last reset (`reset` starts it over).
fn sqlite_memory(reset: bool) -> (i64, i64) {
    // SAFETY: both calls only read (and, for the high-water mark, reset) SQLite's global memory
    // counters; they take no pointers and are safe to call from any thread at any time.
    unsafe { (rusqlite::ffi::sqlite3_memory_used(), rusqlite::ffi::sqlite3_memory_highwater(i32::from(reset))) }
}

#[tokio::test]
async fn an_export_sorted_without_an_index_spills_to_disk_instead_of_memory() {
    if common::sqlite_only("SQLite's memory while sorting") {
        return;
    }
    let app = test_app();
    let admin = app.admin().await;
    {
        let conn = app.state.db.conn().unwrap();
        conn.execute(
            "INSERT INTO assets (id, name, contact_person, contact_person_phone_number, contact_person_email, barcode_prefix)
             VALUES (1, 'Azercell', 'Kontakt', '994501234567', 'a@perk.az', 'AZC')",
            [],
        )
        .unwrap();
        // 100,000 employees with 80-character names: about 25 MB to sort.
        conn.execute_batch(
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000)
             INSERT INTO employees (asset_id, first_name, last_name, email, phone)
             SELECT 1, printf('%040d', (i * 7919) % 100000), printf('%040d', i), 'e' || i || '@perk.az', '994501234567'
             FROM n;",
        )
        .unwrap();
    }
    let (used, _) = sqlite_memory(true);
    let exported = app.get("/api/employee/export/admin?SortField=fullName&OrderBy=true", &admin.token).await;
    exported.expect(200);
    let (_, peak) = sqlite_memory(false);
    let grown_mb = (peak - used) as f64 / 1_048_576.0;
    assert!(grown_mb < 12.0, "SQLite's memory grew {grown_mb:.1} MB during the export");
}
