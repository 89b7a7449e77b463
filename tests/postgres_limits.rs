//! A campaign's total limit is exact across app servers: 64 uses at once by 64 employees, half
//! through each of two servers on one PostgreSQL database, of a campaign capped at 10 store
//! exactly 10, and the other 54 are told the limit is reached; one employee's 16 uses at once of a
//! campaign allowing 3 per employee store exactly 3; and one redemption code confirmed at once
//! through both servers, 8 times, is one use. Uses run read committed on PostgreSQL, taking the
//! employee's row and a limited campaign's with row locks: these show the locks hold the limits. Run by `./scripts/test` (the server's URL
//! in `PERKDESK_TEST_POSTGRES`).

use crate::common;

use std::process::Command;

use common::servers::*;
use serde_json::{Value, json};

/// A key of kind `employee-app`, or `partner` of `partner`, made at the command line.
fn key_of(url: &str, kind: &str, partner: Option<i64>) -> String {
    let mut command = Command::new(env!("CARGO_BIN_EXE_perkdesk"));
    command
        .args(["api-client", "create", "--db", url, "--name", kind, "--kind", kind])
        .args(["--rate-limit", "100000"]);
    if let Some(partner) = partner {
        command.args(["--partner-id", &partner.to_string()]);
    }
    let made = command.output().unwrap();
    let printed = String::from_utf8_lossy(&made.stdout);
    assert!(made.status.success(), "{printed}{}", String::from_utf8_lossy(&made.stderr));
    printed.lines().nth(2).unwrap().trim().to_string()
}

/// An asset, a partner and its running campaign offered to the asset, capped at 10 uses; the
/// campaign's and the partner's ids.
fn campaign_of(db: &perkdesk::db::sql::Connection) -> (i64, i64, i64) {
    let asset = db
        .insert(
            "INSERT INTO assets (name, contact_person, contact_person_phone_number, contact_person_email, barcode_prefix)
             VALUES ('Azercell', 'Aysel Məmmədova', '994501234567', 'hr@azercell.az', 'AZC')",
            [],
        )
        .unwrap();
    let partner = db
        .insert(
            "INSERT INTO partners (name, contact_person_first_name, contact_person_last_name, phone_number, email)
             VALUES ('Bravo', 'Elvin', 'Quliyev', '994551234567', 'info@bravo.az')",
            [],
        )
        .unwrap();
    let category = db
        .insert("INSERT INTO campaign_categories (name_az, name_en, name_ru) VALUES ('Market', 'Market', 'Маркет')", [])
        .unwrap();
    let campaign = db
        .insert(
            "INSERT INTO campaigns (partner_id, campaign_category_id, discount_percent, start_date, expire_date,
                                    name_az, name_en, name_ru, description_az, description_en, description_ru,
                                    order_no, usage_limit_total)
             VALUES (?1, ?2, 10, '2020-01-01T00:00:00.000Z', '2999-01-01T00:00:00.000Z', 'Endirim', 'Sale', 'Скидка',
                     'Təsvir', 'Description', 'Описание', 1, 10)",
            (partner, category),
        )
        .unwrap();
    db.execute("INSERT INTO campaign_assets (campaign_id, asset_id) VALUES (?1, ?2)", (campaign, asset)).unwrap();
    (campaign, partner, asset)
}

/// A fresh database `name` with an admin, an employee-app key, two app servers on it and the
/// campaign of [`campaign_of`]: the connection, the key, the servers, the campaign and its asset.
fn two_servers_and_a_campaign(name: &str) -> (perkdesk::db::sql::Connection, String, [Server; 2], i64, i64) {
    let db = common::postgres::fresh_postgres(name);
    let url = common::postgres::postgres_url(name);
    let _secret = create_admin(&url);
    let key = key_of(&url, "employee-app", None);
    let servers = [serve(&url), serve(&url)];
    let (campaign, _, asset) = campaign_of(&db);
    (db, key, servers, campaign, asset)
}

#[test]
#[ignore = "needs PostgreSQL: ./scripts/test starts one and runs it"]
fn postgres_two_app_servers_store_exactly_a_campaigns_limit() {
    let (db, key, [a, b], campaign, asset) = two_servers_and_a_campaign("perkdesk_cluster_limits");
    let emails: Vec<String> = (0..64).map(|i| format!("racer{i}@azercell.az")).collect();
    for (i, email) in emails.iter().enumerate() {
        db.execute(
            "INSERT INTO employees (asset_id, first_name, last_name, email, phone) VALUES (?1, 'Racer', ?2, ?3, ?4)",
            (asset, format!("R{i}"), email, format!("99455{:07}", 2000000 + i)),
        )
        .unwrap();
    }

    let emails: Vec<&str> = emails.iter().map(String::as_str).collect();
    uses_at_once_store(&db, [&a, &b], &key, campaign, &emails, 10, "This campaign has reached its limit of 10 uses.");
}

/// Sends a use of `campaign` by each of `emails` at once, alternately through the two servers:
/// exactly `limit` are stored, and every other answer is a 409 saying `reached`.
fn uses_at_once_store(
    db: &perkdesk::db::sql::Connection,
    servers: [&Server; 2],
    key: &str,
    campaign: i64,
    emails: &[&str],
    limit: usize,
    reached: &str,
) {
    let answers = at_once(
        emails
            .iter()
            .enumerate()
            .map(|(i, email)| {
                let server = servers[i % 2];
                Box::new(move || {
                    let body = json!({"employeeEmail": email, "campaignId": campaign});
                    call(server, "POST", "/api/app/usage", Some(key), Some(body))
                }) as Box<dyn FnOnce() -> (u16, Value) + Send>
            })
            .collect(),
    );
    assert_eq!(statuses(&answers), [vec![201; limit], vec![409; emails.len() - limit]].concat(), "{answers:?}");
    for (status, body) in &answers {
        assert!(*status == 201 || body["message"] == reached, "{body}");
    }
    let stored: i64 = db
        .query_row(
            "SELECT COUNT(*) FROM usage_history WHERE campaign_id = ?1 AND deleted_at IS NULL",
            [campaign],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(stored, limit as i64);
}

#[test]
#[ignore = "needs PostgreSQL: ./scripts/test starts one and runs it"]
fn postgres_two_app_servers_store_exactly_an_employees_limit() {
    let (db, key, [a, b], campaign, asset) = two_servers_and_a_campaign("perkdesk_cluster_employee_limit");
    db.execute(
        "UPDATE campaigns SET usage_limit_per_employee = 3, usage_limit_period = 'campaign' WHERE id = ?1",
        [campaign],
    )
    .unwrap();
    db.execute(
        "INSERT INTO employees (asset_id, first_name, last_name, email, phone)
         VALUES (?1, 'Tək', 'İşçi', 'single@azercell.az', '994552000000')",
        [asset],
    )
    .unwrap();

    let reached = "This employee has used this campaign 3 times during this campaign; the limit is 3.";
    uses_at_once_store(&db, [&a, &b], &key, campaign, &["single@azercell.az"; 16], 3, reached);
}

#[test]
#[ignore = "needs PostgreSQL: ./scripts/test starts one and runs it"]
fn postgres_two_app_servers_confirm_one_redemption_code_once() {
    let name = "perkdesk_cluster_codes";
    let db = common::postgres::fresh_postgres(name);
    let url = common::postgres::postgres_url(name);
    let _secret = create_admin(&url);
    let (campaign, partner, asset) = campaign_of(&db);
    let (app_key, partner_key) = (key_of(&url, "employee-app", None), key_of(&url, "partner", Some(partner)));
    let (a, b) = (serve(&url), serve(&url));
    db.execute(
        "INSERT INTO employees (asset_id, first_name, last_name, email, phone) VALUES (?1, 'Leyla', 'Əliyeva', 'leyla@azercell.az', '994551234568')",
        [asset],
    )
    .unwrap();
    let body = json!({"employeeEmail": "leyla@azercell.az", "campaignId": campaign});
    let (status, code) = call(&a, "POST", "/api/app/redemptions", Some(&app_key), Some(body));
    assert_eq!(status, 201, "{code}");
    let code = code["code"].as_str().unwrap().to_string();
    let servers = [&a, &b];
    let answers = at_once(
        (0..8)
            .map(|i| {
                let (server, key, code) = (servers[i % 2], &partner_key, &code);
                Box::new(move || {
                    call(server, "POST", "/api/partner-portal/redemptions", Some(key), Some(json!({"code": code})))
                }) as Box<dyn FnOnce() -> (u16, Value) + Send>
            })
            .collect(),
    );
    assert_eq!(statuses(&answers), [vec![201], vec![409; 7]].concat(), "{answers:?}");
    let stored: i64 = db
        .query_row("SELECT COUNT(*) FROM usage_history WHERE campaign_id = ?1 AND verified = 1", [campaign], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(stored, 1);
}
