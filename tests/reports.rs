//! The report calls on a database with known rows: names with their states (deleted rows
//! counted as deleted), paging and search, the two spreadsheets opened and read cell by cell,
//! roles, and `perkdesk export-reports`.

use crate::common;

use std::process::Command;

use axum::http::Method;
use calamine::{Data, Reader, Xlsx};
use common::{TestApp, test_app};
use perkdesk::db::sql::Connection;
use serde_json::{Value, json};

const REPORTS: [&str; 4] = ["/api/report/asset", "/api/report/partner", "/api/report/campaign", "/api/report/employee"];
const EXPORTS: [&str; 2] = ["/api/report/export/counts", "/api/report/export"];

/// Assets: 2 active, 1 deactive, 1 deleted. Partners: 2 active, 1 deleted. Campaigns: 1 active,
/// 1 deactive (and unconfirmed), 1 deleted. Employees: 1 active, 2 deactive, 1 deleted, 1 removed
/// from the file altogether.
fn seed(conn: &Connection) {
    conn.execute_batch(
        "INSERT INTO assets (id, name, contact_person, contact_person_phone_number, contact_person_email, barcode_prefix, is_active)
         VALUES (1, 'Azərsun', 'K', '994501234567', 'a@b.az', 'AB1', 1),
                (2, 'Bakcell', 'K', '994501234567', 'a@b.az', 'AB1', 1),
                (3, 'Çinar', 'K', '994501234567', 'a@b.az', 'AB1', 0),
                (4, 'Dəniz', 'K', '994501234567', 'a@b.az', 'AB1', 1);
         UPDATE assets SET deleted_at = '2026-05-01T00:00:00.000Z' WHERE id = 4;
         INSERT INTO partners (id, name, contact_person_first_name, contact_person_last_name, phone_number, email)
         VALUES (1, 'Araz Market', 'E', 'Q', '994501234567', 'p@b.az'),
                (2, 'Bravo', 'E', 'Q', '994501234567', 'p@b.az'),
                (3, 'Köhnə Partner', 'E', 'Q', '994501234567', 'p@b.az');
         UPDATE partners SET deleted_at = '2026-05-01T00:00:00.000Z' WHERE id = 3;
         INSERT INTO campaign_categories (id, name_az, name_en, name_ru) VALUES (1, 'Yemək', 'Food', 'Еда');
         INSERT INTO campaigns (id, partner_id, campaign_category_id, discount_percent, start_date, expire_date,
                                name_az, name_en, name_ru, description_az, description_en, description_ru, is_active, is_confirmed)
         VALUES (1, 1, 1, 10, '2026-01-01', '2027-01-01', 'Yay endirimi', 'Summer sale', 'Летняя скидка', 'd', 'd', 'd', 1, 1),
                (2, 1, 1, 10, '2026-01-01', '2027-01-01', 'Qış endirimi', 'Winter sale', 'Зимняя скидка', 'd', 'd', 'd', 0, 0),
                (3, 2, 1, 10, '2026-01-01', '2027-01-01', 'Köhnə', 'Old', 'Старая', 'd', 'd', 'd', 1, 1);
         UPDATE campaigns SET deleted_at = '2026-05-01T00:00:00.000Z' WHERE id = 3;
         INSERT INTO employees (id, asset_id, first_name, last_name, email, is_active)
         VALUES (1, 1, 'Aysel', 'Məmmədova', 'a@x.az', 1),
                (2, 1, 'Rəşad', 'Əliyev', 'r@x.az', 0),
                (3, 2, 'Günel', 'Hüseynova', 'g@x.az', 0),
                (4, 2, 'İlkin', 'Quliyev', 'i@x.az', 1),
                (5, 2, 'Silinən', 'İşçi', 's@x.az', 1);
         UPDATE employees SET deleted_at = '2026-05-01T00:00:00.000Z' WHERE id = 4;
         DELETE FROM employees WHERE id = 5;",
    )
    .unwrap();
}

fn seeded() -> TestApp {
    let app = test_app();
    seed(&app.state.db.conn().unwrap());
    app
}

fn names(body: &Value) -> Vec<(String, String)> {
    body["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| (row["name"].as_str().unwrap().to_string(), row["state"].as_str().unwrap().to_string()))
        .collect()
}

fn counts(body: &Value) -> [i64; 4] {
    ["activeCount", "deactiveCount", "deletedCount", "allCount"].map(|field| body[field].as_i64().unwrap())
}

#[tokio::test]
async fn each_report_lists_every_name_with_its_state_and_counts_deleted_rows_as_deleted() {
    let app = seeded();
    let cc = app.user_with_role("cc@perk.az", 2).await;
    let assets = app.get("/api/report/asset", &cc.token).await.expect(200).json();
    assert_eq!(
        names(&assets),
        [("Dəniz", "deleted"), ("Çinar", "deactive"), ("Bakcell", "active"), ("Azərsun", "active")]
            .map(|(n, s)| (n.to_string(), s.to_string()))
    );
    assert_eq!(counts(&assets), [2, 1, 1, 4]);
    assert_eq!(assets["totalCount"], 4);
    assert_eq!(assets["data"][0], json!({"id": 4, "name": "Dəniz", "state": "deleted"}));

    let partners = app.get("/api/report/partner", &cc.token).await.expect(200).json();
    assert_eq!(counts(&partners), [2, 0, 1, 3]);

    let campaigns = app
        .call_with(Method::GET, "/api/report/campaign", Some(&cc.token), None, &[("accept-language", "2")])
        .await
        .expect(200)
        .json();
    assert_eq!(
        names(&campaigns),
        [("Old", "deleted"), ("Winter sale", "deactive"), ("Summer sale", "active")]
            .map(|(n, s)| (n.to_string(), s.to_string()))
    );
    assert_eq!(counts(&campaigns), [1, 1, 1, 3], "campaigns count confirmed or not");

    let employees = app.get("/api/report/employee", &cc.token).await.expect(200).json();
    assert_eq!(
        names(&employees),
        [
            ("İlkin Quliyev", "deleted"),
            ("Günel Hüseynova", "deactive"),
            ("Rəşad Əliyev", "deactive"),
            ("Aysel Məmmədova", "active")
        ]
        .map(|(n, s)| (n.to_string(), s.to_string()))
    );
    assert_eq!(counts(&employees), [1, 2, 1, 4], "the row removed from the file is not counted");

    // A change through the API moves the counts at once.
    let admin = app.admin().await;
    app.call(Method::DELETE, "/api/employee", Some(&admin.token), Some(json!({"id": [1]}))).await.expect(200);
    let employees = app.get("/api/report/employee", &cc.token).await.expect(200).json();
    assert_eq!(counts(&employees), [0, 2, 2, 4]);
}

#[tokio::test]
async fn the_names_page_and_search_while_the_counts_stay_the_kinds() {
    let app = seeded();
    let admin = app.admin().await;
    let page =
        app.get("/api/report/asset?Skip=1&Take=2&SortField=name&OrderBy=true", &admin.token).await.expect(200).json();
    assert_eq!(
        names(&page).iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>(),
        ["Bakcell", "Çinar"],
        "names sort as the lists do, in the Azerbaijani alphabet (Ç before D)"
    );
    assert_eq!(page["totalCount"], 4);
    let found = app.get("/api/report/employee?Name=ilkin", &admin.token).await.expect(200).json();
    assert_eq!(names(&found), [("İlkin Quliyev".to_string(), "deleted".to_string())], "Azerbaijani letters fold");
    assert_eq!(found["totalCount"], 1);
    assert_eq!(counts(&found), [1, 2, 1, 4], "the counts are the whole kind's, whatever the search");
    let any_language = app.get("/api/report/campaign?Name=winter", &admin.token).await.expect(200).json();
    assert_eq!(names(&any_language), [("Qış endirimi".to_string(), "deactive".to_string())]);
    let none = app.get("/api/report/partner?Name=zzz", &admin.token).await.expect(200).json();
    assert_eq!((none["data"].clone(), none["totalCount"].clone()), (json!([]), json!(0)));
    for bad in ["Take=0", "Take=101", "Skip=-1", "Skip=x", "SortField=state", "SortField=nope", "OrderBy=maybe"] {
        let refused = app.get(&format!("/api/report/partner?{bad}"), &admin.token).await;
        refused.expect(400);
        assert!(!refused.message().is_empty(), "{bad}");
    }
}

fn open(bytes: &[u8]) -> Xlsx<std::io::Cursor<Vec<u8>>> {
    calamine::open_workbook_from_rs(std::io::Cursor::new(bytes.to_vec())).unwrap()
}

fn sheet(workbook: &mut Xlsx<std::io::Cursor<Vec<u8>>>, name: &str) -> Vec<Vec<Data>> {
    let range = workbook.worksheet_range(name).unwrap();
    range.rows().map(<[Data]>::to_vec).collect()
}

fn text(value: &str) -> Data {
    Data::String(value.to_string())
}

fn check_counts_workbook(bytes: &[u8]) {
    let mut workbook = open(bytes);
    assert_eq!(workbook.sheet_names(), ["Counts"]);
    let rows = sheet(&mut workbook, "Counts");
    let expected: Vec<Vec<Data>> = vec![
        ["Report", "Active", "Deactive", "Deleted", "Total"].map(text).to_vec(),
        vec![text("Asset"), Data::Float(2.0), Data::Float(1.0), Data::Float(1.0), Data::Float(4.0)],
        vec![text("Partner"), Data::Float(2.0), Data::Float(0.0), Data::Float(1.0), Data::Float(3.0)],
        vec![text("Campaign"), Data::Float(1.0), Data::Float(1.0), Data::Float(1.0), Data::Float(3.0)],
        vec![text("Employee"), Data::Float(1.0), Data::Float(2.0), Data::Float(1.0), Data::Float(4.0)],
    ];
    assert_eq!(rows, expected, "numbers are numbers");
}

fn check_names_workbook(bytes: &[u8], campaign_names: [&str; 3]) {
    let mut workbook = open(bytes);
    assert_eq!(workbook.sheet_names(), ["Asset", "Partner", "Campaign", "Employee"]);
    let header = ["Id", "Name", "State"].map(text).to_vec();
    let row = |id: f64, name: &str, state: &str| vec![Data::Float(id), text(name), text(state)];
    assert_eq!(
        sheet(&mut workbook, "Asset"),
        [
            header.clone(),
            row(4.0, "Dəniz", "Deleted"),
            row(3.0, "Çinar", "Deactive"),
            row(2.0, "Bakcell", "Active"),
            row(1.0, "Azərsun", "Active")
        ]
    );
    assert_eq!(
        sheet(&mut workbook, "Partner"),
        [
            header.clone(),
            row(3.0, "Köhnə Partner", "Deleted"),
            row(2.0, "Bravo", "Active"),
            row(1.0, "Araz Market", "Active")
        ]
    );
    assert_eq!(
        sheet(&mut workbook, "Campaign"),
        [
            header.clone(),
            row(3.0, campaign_names[0], "Deleted"),
            row(2.0, campaign_names[1], "Deactive"),
            row(1.0, campaign_names[2], "Active")
        ]
    );
    assert_eq!(sheet(&mut workbook, "Employee").len(), 5);
    assert_eq!(sheet(&mut workbook, "Employee")[1], row(4.0, "İlkin Quliyev", "Deleted"));
}

#[tokio::test]
async fn both_exports_open_as_workbooks_with_typed_cells() {
    let app = seeded();
    let user = app.user_with_role("user@perk.az", 1).await;
    let counts = app.get("/api/report/export/counts", &user.token).await;
    counts.expect(200);
    assert!(counts.headers["content-disposition"].to_str().unwrap().contains("Reports-count.xlsx"));
    assert_eq!(counts.headers["content-length"].to_str().unwrap(), counts.bytes.len().to_string());
    check_counts_workbook(&counts.bytes);
    let names =
        app.call_with(Method::GET, "/api/report/export", Some(&user.token), None, &[("accept-language", "2")]).await;
    names.expect(200);
    assert!(names.headers["content-disposition"].to_str().unwrap().contains("Reports-name.xlsx"));
    check_names_workbook(&names.bytes, ["Old", "Winter sale", "Summer sale"]);
}

#[tokio::test]
async fn reports_are_for_every_role_and_exports_for_admins_and_users() {
    let app = seeded();
    let cc = app.user_with_role("cc@perk.az", 2).await;
    let admin = app.admin().await;
    for path in REPORTS.iter().chain(EXPORTS.iter()) {
        app.call(Method::GET, path, None, None).await.expect(401);
    }
    for path in REPORTS {
        app.get(path, &cc.token).await.expect(200);
    }
    for path in EXPORTS {
        app.get(path, &cc.token).await.expect(403);
        app.get(path, &admin.token).await.expect(200);
    }
}

#[tokio::test]
async fn every_report_route_is_in_the_openapi_document() {
    let app = test_app();
    let doc = app.call(Method::GET, "/api/openapi.json", None, None).await.expect(200).json();
    for path in REPORTS.iter().chain(EXPORTS.iter()).chain(
        [
            "/api/dashboard",
            "/api/dashboard/usageCategories",
            "/api/dashboard/usageEmployees",
            "/api/dashboard/assetEmployees",
            "/api/dashboard/usageHistory",
        ]
        .iter(),
    ) {
        let operation = &doc["paths"][*path]["get"];
        assert!(operation.is_object(), "{path} is documented");
        assert!(operation["responses"]["401"].is_object(), "{path} documents 401");
    }
    let listed = &doc["paths"]["/api/report/employee"]["get"]["parameters"];
    let params: Vec<&str> = listed.as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap()).collect();
    for name in ["Skip", "Take", "SortField", "OrderBy", "Name"] {
        assert!(params.contains(&name), "{name} in {params:?}");
    }
    assert!(doc["paths"]["/api/report/export"]["get"]["description"].as_str().unwrap().contains("Admin, User"));
    for schema in ["Summary", "TopPartner", "ReportPage", "ReportName"] {
        assert!(doc["components"]["schemas"][schema].is_object(), "{schema} is described");
    }
    let months = &doc["paths"]["/api/dashboard/usageHistory"]["get"];
    assert_eq!(months["responses"]["200"]["content"]["application/json"]["schema"]["type"], "array");
    assert!(months["responses"]["400"].is_object(), "a bad year is a documented 400");
}

fn perkdesk(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_perkdesk")).args(args).env_remove("PERKDESK_DB").output().unwrap()
}

#[test]
fn export_reports_writes_both_files_and_fails_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let db_path = dir.path().join("perkdesk.db");
    {
        let db = perkdesk::app::open_db(&db_path).unwrap();
        seed(&db.conn().unwrap());
    }
    let out = dir.path().join("reports/2026-11");
    let done = perkdesk(&["export-reports", "--db", db_path.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert!(done.status.success(), "{}", String::from_utf8_lossy(&done.stderr));
    let printed = String::from_utf8_lossy(&done.stdout).into_owned();
    let counts_path = out.join("Reports-count.xlsx");
    let names_path = out.join("Reports-name.xlsx");
    assert_eq!(printed, format!("{}\n{}\n", counts_path.display(), names_path.display()));
    check_counts_workbook(&std::fs::read(&counts_path).unwrap());
    check_names_workbook(&std::fs::read(&names_path).unwrap(), ["Köhnə", "Qış endirimi", "Yay endirimi"]);
    assert_eq!(std::fs::read_dir(&out).unwrap().count(), 2, "no temporary files are left");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&names_path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600, "its owner's alone, as every file perkdesk writes (it names people)");
    }

    let missing = perkdesk(&[
        "export-reports",
        "--db",
        dir.path().join("nope.db").to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(!missing.status.success());
    let message = String::from_utf8_lossy(&missing.stderr).into_owned();
    assert_eq!(message.lines().count(), 1, "{message}");
    assert!(message.contains("does not exist"), "{message}");
    assert!(!dir.path().join("nope.db").exists(), "a missing database is not created");

    let blocker = dir.path().join("a-file");
    std::fs::write(&blocker, "x").unwrap();
    let unwritable = perkdesk(&[
        "export-reports",
        "--db",
        db_path.to_str().unwrap(),
        "--out",
        blocker.join("sub").to_str().unwrap(),
    ]);
    assert!(!unwritable.status.success());
    let message = String::from_utf8_lossy(&unwritable.stderr).into_owned();
    assert_eq!(message.lines().count(), 1, "{message}");
    assert!(message.contains("cannot create the folder"), "{message}");
}
