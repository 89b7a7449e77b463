//! The employee import: a workbook of good and bad rows, its dry run (nothing written) and its
//! apply (the good rows in one transaction, the bad ones listed with their row numbers), the
//! template, the roles, and the command line.

use crate::common;
use crate::people;

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
            (4, "Email".into(), perkdesk::core::validation::EMAIL_FORMAT.into()),
            (5, "Asset".into(), "There is no asset with id 999.".into()),
            (6, "Phone number".into(), perkdesk::core::validation::PHONE_FORMAT.into()),
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

/// `bytes` (an .xlsx) with the part `name` replaced by `header`, then `padding` bytes of spaces,
/// then `footer`: a part that inflates to far more than the upload's size (a zip bomb).
fn with_padded_part(bytes: &[u8], name: &str, header: &str, padding: usize, footer: &str) -> Vec<u8> {
    use std::io::{Read, Write};
    let mut source = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
    let mut out = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    let mut replaced = false;
    for index in 0..source.len() {
        let mut part = source.by_index(index).unwrap();
        let part_name = part.name().to_string();
        out.start_file(part_name.as_str(), options).unwrap();
        if part_name == name {
            out.write_all(header.as_bytes()).unwrap();
            let spaces = vec![b' '; 1 << 20];
            for _ in 0..padding >> 20 {
                out.write_all(&spaces).unwrap();
            }
            out.write_all(footer.as_bytes()).unwrap();
            replaced = true;
        } else {
            let mut content = vec![];
            part.read_to_end(&mut content).unwrap();
            out.write_all(&content).unwrap();
        }
    }
    assert!(replaced, "the workbook has no part {name}");
    out.finish().unwrap().into_inner()
}

#[tokio::test]
async fn a_cell_in_the_sheets_last_corner_reads_as_one_row() {
    let app = test_app();
    let admin = app.admin().await;
    // A header and one e-mail at A1048576, plus a cell at XFD1048576: the sheet's extent is the
    // whole grid (17 billion cells), its content two cells.
    let mut book = Workbook::new();
    let sheet = book.add_worksheet();
    for (col, header) in ["Email", "First name", "Last name", "Phone number", "Asset"].iter().enumerate() {
        sheet.write_string(0, col as u16, *header).unwrap();
    }
    sheet.write_string(1_048_575, 0, "far@azercell.az").unwrap();
    sheet.write_string(1_048_575, 16_383, "corner").unwrap();
    let bytes = book.save_to_buffer().unwrap();
    assert!(bytes.len() < 8_000, "the file is small: {} bytes", bytes.len());

    let report = send(&app, &admin.token, true, &bytes).await;
    report.expect(200);
    let report = report.json();
    assert_eq!(report["rows"], 1);
    assert_eq!(report["refused"][0]["row"], 1_048_576);
    assert_eq!(report["refused"][0]["message"], "First name is required");
}

#[tokio::test]
async fn a_workbook_that_unpacks_past_the_limits_is_refused_unread() {
    let app = test_app();
    let admin = app.admin().await;
    let world = people::world(&app.state.db.conn().unwrap());
    let good = bytes_of(&rows(world.asset));
    let sheet_bomb = with_padded_part(
        &good,
        "xl/worksheets/sheet1.xml",
        r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>"#,
        49 << 20,
        "</sheetData></worksheet>",
    );
    let strings_bomb = with_padded_part(
        &good,
        "xl/sharedStrings.xml",
        r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="1" uniqueCount="1"><si><t xml:space="preserve">"#,
        17 << 20,
        "</t></si></sst>",
    );
    for bomb in [sheet_bomb, strings_bomb] {
        assert!(bomb.len() < 200_000, "a small upload: {} bytes", bomb.len());
        let refused = send(&app, &admin.token, true, &bomb).await;
        refused.expect(400);
        assert_eq!(
            refused.json()["errors"]["file"],
            "The workbook holds more than an import can take (64 MB of sheet data once unpacked); split it into smaller files."
        );
    }
    // The same rows unpadded still import.
    send(&app, &admin.token, true, &good).await.expect(200);
}

#[tokio::test]
async fn an_error_value_is_not_a_name() {
    let app = test_app();
    let admin = app.admin().await;
    let world = people::world(&app.state.db.conn().unwrap());
    let mut book = Workbook::new();
    let sheet = book.add_worksheet();
    for (col, header) in ["Email", "First name", "Last name", "Phone number", "Asset"].iter().enumerate() {
        sheet.write_string(0, col as u16, *header).unwrap();
    }
    sheet.write_string(1, 0, "div@azercell.az").unwrap();
    sheet.write_formula(1, 1, rust_xlsxwriter::Formula::new("=1/0").set_result("#DIV/0!")).unwrap();
    sheet.write_string(1, 2, "Əliyeva").unwrap();
    sheet.write_string(1, 3, "994701234567").unwrap();
    sheet.write_number(1, 4, world.asset as f64).unwrap();
    let report = send(&app, &admin.token, true, &book.save_to_buffer().unwrap()).await;
    report.expect(200);
    let report = report.json();
    assert_eq!(report["added"], 0);
    assert_eq!(report["refused"][0]["row"], 2);
    assert_eq!(report["refused"][0]["field"], "First name");
    assert_eq!(report["refused"][0]["message"], "The cell holds the error #DIV/0!, not a value.");
}
