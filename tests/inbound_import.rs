//! The employee import: a workbook of good and bad rows, its dry run (nothing written) and its
//! apply (the good rows in one transaction, the bad ones listed with their row numbers), the
//! template, the roles, and the command line.

mod common;
mod people;

use axum::http::Method;
use common::*;
use rust_xlsxwriter::Workbook;

/// A workbook with a header row and these rows; phones as numbers when they look like numbers,
/// as spreadsheets keep them.
fn workbook(rows: &[[&str; 6]]) -> Vec<u8> {
    let mut book = Workbook::new();
    let sheet = book.add_worksheet();
    for (col, header) in ["Email", "First name", "Last name", "Phone number", "Asset", "Active"].iter().enumerate() {
        sheet.write_string(0, col as u16, *header).unwrap();
    }
    for (r, row) in rows.iter().enumerate() {
        for (col, value) in row.iter().enumerate() {
            let (r, col) = (r as u32 + 1, col as u16);
            match value.parse::<f64>() {
                Ok(number) if col == 3 => sheet.write_number(r, col, number).unwrap(),
                _ if value.is_empty() => sheet,
                _ => sheet.write_string(r, col, *value).unwrap(),
            };
        }
    }
    book.save_to_buffer().unwrap()
}

fn rows(asset: i64) -> Vec<[String; 6]> {
    let asset = asset.to_string();
    vec![
        // New, by asset id.
        ["nergiz@azercell.az", "Nərgiz", "Əliyeva", "994701234567", &asset, ""].map(String::from),
        // An employee already listed: updated, deactivated.
        ["ilkin.mammadov@azercell.az", "İlkin", "Məmmədli", "994501112233", "AZC", "no"].map(String::from),
        // Bad e-mail.
        ["not-an-email", "Ayan", "Quliyeva", "994551234567", &asset, ""].map(String::from),
        // Unknown asset.
        ["orxan@azercell.az", "Orxan", "Rzayev", "994551234567", "999", ""].map(String::from),
        // Bad phone, by barcode prefix.
        ["samir@azercell.az", "Samir", "Əhmədov", "0501234567", "AZC", ""].map(String::from),
        // The same e-mail as row 2.
        ["NERGIZ@azercell.az", "Nərgiz", "Əliyeva", "994701234567", &asset, ""].map(String::from),
    ]
}

fn bytes_of(rows: &[[String; 6]]) -> Vec<u8> {
    let borrowed: Vec<[&str; 6]> = rows.iter().map(|r| r.each_ref().map(String::as_str)).collect();
    workbook(&borrowed)
}

async fn send(app: &TestApp, token: &str, dry_run: bool, bytes: &[u8]) -> Response {
    let path = format!("/api/employee/import?dryRun={dry_run}");
    app.send_form(Method::POST, &path, token, &[], &[("file", "employees.xlsx", bytes)]).await
}

#[tokio::test]
async fn a_dry_run_reports_and_the_apply_writes_the_good_rows_in_one_go() {
    let app = test_app();
    let admin = app.admin().await;
    let world = people::world(&app.state.db.conn().unwrap());
    let bytes = bytes_of(&rows(world.asset));
    let before = app.count("SELECT COUNT(*) FROM employees");

    let dry = send(&app, &admin.token, true, &bytes).await;
    dry.expect(200);
    let report = dry.json();
    assert_eq!(report["applied"], false);
    assert_eq!(report["rows"], 6);
    assert_eq!(report["added"], 1);
    assert_eq!(report["updated"], 1);
    let refused: Vec<(i64, String, String)> = report["refused"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (r["row"].as_i64().unwrap(), r["field"].as_str().unwrap().into(), r["message"].as_str().unwrap().into())
        })
        .collect();
    assert_eq!(
        refused,
        [
            (4, "Email".into(), perkdesk::validation::EMAIL_FORMAT.into()),
            (5, "Asset".into(), "There is no asset with id 999.".into()),
            (6, "Phone number".into(), perkdesk::validation::PHONE_FORMAT.into()),
            (7, "Email".into(), "The e-mail is already on row 2".into()),
        ]
    );
    assert_eq!(app.count("SELECT COUNT(*) FROM employees"), before, "a dry run writes nothing");

    let applied = send(&app, &admin.token, false, &bytes).await;
    applied.expect(200);
    assert_eq!(applied.json()["applied"], true);
    assert_eq!(applied.json()["refused"].as_array().unwrap().len(), 4);
    assert_eq!(app.count("SELECT COUNT(*) FROM employees"), before + 1);
    let listed = app.get("/api/employee/filter/admin?Email=nergiz", &admin.token).await;
    assert_eq!(listed.json()["totalCount"], 1);
    assert_eq!(listed.json()["data"][0]["phone"], "994701234567");
    let updated = app.get(&format!("/api/employee/{}", world.employees[0]), &admin.token).await;
    assert_eq!(updated.json()["lastName"], "Məmmədli");
    assert_eq!(updated.json()["isActive"], false);
    // Applying again adds nothing: the rows are now updates.
    let again = send(&app, &admin.token, true, &bytes).await;
    assert_eq!(again.json()["added"], 0);
    assert_eq!(again.json()["updated"], 2);
}

#[tokio::test]
async fn bad_files_roles_and_the_template() {
    let app = test_app();
    let admin = app.admin().await;
    let operator = app.user_with_role("cc@perk.az", 2).await;
    let not_xlsx = send(&app, &admin.token, true, b"Email,First name\n").await;
    not_xlsx.expect_message(400, perkdesk::inbound::import::NOT_A_WORKBOOK);
    assert_eq!(not_xlsx.json()["errors"]["file"], perkdesk::inbound::import::NOT_A_WORKBOOK);
    let mut book = Workbook::new();
    book.add_worksheet().write_string(0, 0, "Email").unwrap();
    let headless = send(&app, &admin.token, true, &book.save_to_buffer().unwrap()).await;
    headless.expect(400);
    assert!(headless.message().contains("'First name' is missing"), "{}", headless.message());
    app.send_form(Method::POST, "/api/employee/import", &admin.token, &[], &[])
        .await
        .expect_message(400, perkdesk::inbound::import::FILE_REQUIRED);
    send(&app, &operator.token, true, &bytes_of(&[])).await.expect(403);
    let template = app.get("/api/employee/import/template", &admin.token).await;
    template.expect(200);
    assert!(template.headers["content-disposition"].to_str().unwrap().contains("EmployeeImport.xlsx"));
    assert_eq!(
        workbook_rows(&template.bytes),
        [["Email", "First name", "Last name", "Phone number", "Asset", "Active"]]
    );
}

#[tokio::test]
async fn ten_thousand_rows_import_in_one_transaction() {
    let app = test_app();
    let admin = app.admin().await;
    let world = people::world(&app.state.db.conn().unwrap());
    let asset = world.asset.to_string();
    let rows: Vec<[String; 6]> = (0..10_000)
        .map(|i| {
            [
                format!("worker{i}@azercell.az"),
                "Ad".into(),
                "Soyad".into(),
                format!("99450{:07}", i),
                asset.clone(),
                String::new(),
            ]
        })
        .collect();
    let bytes = bytes_of(&rows);
    let started = std::time::Instant::now();
    let applied = send(&app, &admin.token, false, &bytes).await;
    let took = started.elapsed();
    applied.expect(200);
    assert_eq!(applied.json()["added"], 10_000);
    assert_eq!(app.count("SELECT COUNT(*) FROM employees"), 10_000 + people::EMPLOYEES.len() as i64);
    // A debug build on a shared machine: the release target (10 s) has room to spare here.
    assert!(took.as_secs() < 60, "{took:?}");
    eprintln!("10,000 rows imported in {took:?} (debug build)");
}
