//! `perkdesk copy-to-postgres`: the demo installation moved from its SQLite file to an empty
//! PostgreSQL database by the real binary, then every list, dashboard and report the API serves
//! read on both and found equal, and a second copy into the now full database refused.

use crate::common;

use std::process::Command;

use serde_json::Value;

/// The paths every figure of the product is read from: each GET without a path parameter or a
/// required query (lists with their totals, the dashboard, the reports, the pickers), but those
/// whose answers are about the caller's own session or change with each request.
fn figure_paths() -> Vec<String> {
    let (_, document, _) = perkdesk::app::api().into_parts();
    let document: Value = serde_json::from_str(&document.to_json().unwrap()).unwrap();
    let skip = ["/api/activity", "/api/auth", "/api/openapi.json", "/api/health", "/api/session", "/api/me"];
    let mut paths: Vec<String> = document["paths"]
        .as_object()
        .unwrap()
        .iter()
        .filter(|(path, item)| {
            let get = &item["get"];
            !get.is_null()
                && !path.contains('{')
                && !skip.iter().any(|prefix| path.starts_with(prefix))
                && !get["parameters"].as_array().is_some_and(|params| params.iter().any(|p| p["required"] == true))
                && get["security"].as_array().is_some_and(|security| security.iter().any(|s| s.get("bearer").is_some()))
        })
        .map(|(path, _)| path.clone())
        .collect();
    paths.sort();
    paths
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: ./scripts/test starts one and runs it"]
async fn postgres_copy_moves_an_installation_and_every_figure_stays() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("demo.db");
    let admin = {
        let db = perkdesk::app::open_db(&file).unwrap();
        let admin = perkdesk::cli::demo::prepare(&db, true).unwrap();
        db.checkpoint().unwrap();
        admin
    };
    drop(common::postgres::fresh_postgres("perkdesk_copy"));
    let url = common::postgres::postgres_url("perkdesk_copy");
    let copy = |to: &str| {
        Command::new(env!("CARGO_BIN_EXE_perkdesk"))
            .args(["copy-to-postgres", "--from", file.to_str().unwrap(), "--to", to])
            .output()
            .unwrap()
    };

    let copied = copy(&url);
    let printed = String::from_utf8_lossy(&copied.stdout).to_string();
    assert!(copied.status.success(), "{printed}{}", String::from_utf8_lossy(&copied.stderr));
    let files_line = printed.lines().find(|line| line.starts_with("files ")).expect(&printed);
    let sides: Vec<&str> = files_line.split_whitespace().skip(1).collect();
    assert!(sides.len() == 2 && sides[0] == sides[1] && sides[0] != "0", "the images, both sides: {files_line}");
    assert!(printed.contains("maintained counts equal on both sides"), "{printed}");

    // The planner has measured the tables that received rows, and not those the copy left empty:
    // one measured empty is planned as empty until autovacuum measures it again (a sequential
    // scan of the stored x-requestid answers at every look-up, however many there are by then);
    // one never measured is planned as one of some pages, through its indexes.
    let measured = |table: &str| -> f64 {
        let conn = perkdesk::db::sql::Connection::connect_postgres(&url).unwrap();
        conn.query_row("SELECT reltuples::float8 FROM pg_class WHERE relname = ?1", [table], |r| r.get(0)).unwrap()
    };
    assert!(measured("users") > 0.0, "users: {}", measured("users"));
    assert_eq!(measured("idempotency_keys"), -1.0, "the stored answers, which the copy leaves empty");

    // Into a database that holds data now: refused in one line, nothing touched.
    let again = copy(&url);
    let said = String::from_utf8_lossy(&again.stderr);
    assert!(!again.status.success() && said.trim().lines().count() == 1, "{said}");
    assert!(said.contains("already holds data"), "{said}");

    // The same figures from both engines, through the API.
    let sqlite = common::test_app_on(perkdesk::app::open_db(&file).unwrap());
    let postgres = common::test_app_on(perkdesk::app::open_db(std::path::Path::new(&url)).unwrap());
    let paths = figure_paths();
    assert!(paths.len() > 20, "{paths:?}");
    let mut tokens = Vec::new();
    for app in [&sqlite, &postgres] {
        let code = perkdesk::auth::totp::current_code(&admin.totp_secret).unwrap();
        let signed_in = app.sign_in_raw(&admin.email, &admin.password, &code).await;
        signed_in.expect(200);
        tokens.push(signed_in.json()["token"].as_str().unwrap().to_string());
    }
    for path in &paths {
        let (on_sqlite, on_postgres) = (sqlite.get(path, &tokens[0]).await, postgres.get(path, &tokens[1]).await);
        assert_eq!(on_sqlite.status, on_postgres.status, "{path}");
        assert_eq!(on_sqlite.status, 200, "{path}: {}", on_sqlite.message());
        if on_sqlite.headers.get("content-type").is_some_and(|t| t.to_str().unwrap_or("").contains("json")) {
            assert_eq!(on_sqlite.json(), on_postgres.json(), "{path}");
        } else {
            // Spreadsheets carry the time they were made: their rows are compared.
            assert_eq!(common::workbook_rows(&on_sqlite.bytes), common::workbook_rows(&on_postgres.bytes), "{path}");
        }
    }

    // New rows continue each table's ids after the highest copied.
    let conn = postgres.state.db.conn().unwrap();
    let most_users: i64 = conn.query_row("SELECT MAX(id) FROM users", [], |r| r.get(0)).unwrap();
    let next_user = postgres.insert_user("new@perk.az", 1).0;
    assert_eq!(next_user, most_users + 1);
}
