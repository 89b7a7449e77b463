//! The demo's employees, requests, applications, complaints, merchants, promo codes and a year of
//! usage history, read back through the API.

use crate::common;

use common::*;

#[tokio::test]
async fn the_demo_has_people_and_a_year_of_activity() {
    let app = test_app();
    perkdesk::cli::demo::prepare(&app.state.db, true).unwrap();
    let admin = app.admin().await;
    let token = &admin.token;
    let total = |path: &'static str| {
        let app = &app;
        async move { app.get(path, token).await.json()["totalCount"].as_i64().unwrap() }
    };
    assert!(total("/api/employee/forAdmin?Skip=0&Take=30").await >= 100);
    for name in ["ilkin", "ismayil", "sahin", "gulnar", "cavid", "cingiz"] {
        let found = app.get(&format!("/api/employee/filter/admin?FullName={name}"), token).await;
        assert!(found.json()["totalCount"].as_i64().unwrap() >= 1, "{name}");
    }
    assert!(total("/api/wishList?Skip=0&Take=10").await >= 30);
    // A quarter of the uses were confirmed at a partner's till, each at a branch.
    let verified = total("/api/usageHistory/filter?Verified=true&Skip=0&Take=10").await;
    assert!(verified >= 500, "{verified}");
    assert_eq!(app.count("SELECT COUNT(*) FROM usage_history WHERE verified = 1 AND partner_city_id IS NULL"), 0);
    // The employees who left (listed as Deleted in the reports) each have a name of their own.
    assert!(app.count("SELECT COUNT(*) FROM employees WHERE deleted_at IS NOT NULL") >= 6);
    assert_eq!(
        app.count(
            "SELECT COUNT(*) FROM (SELECT first_name, last_name FROM employees WHERE deleted_at IS NOT NULL
             GROUP BY first_name, last_name HAVING COUNT(*) > 1) AS shared"
        ),
        0,
        "no two deleted employees share a name"
    );
    let applications = app.get("/api/apply?Skip=0&Take=10", token).await.json();
    assert_eq!(applications["totalCount"], 8);
    let file = applications["data"][0]["file"].as_str().unwrap().to_string();
    app.call(axum::http::Method::GET, &format!("/{file}"), None, None).await.expect(200);
    assert!(!applications["data"][0]["cityNames"].as_str().unwrap().is_empty());
    for reason in 1..=5 {
        let complaints = app.get(&format!("/api/complaint/filter?ReasonId={reason}"), token).await;
        assert!(complaints.json()["totalCount"].as_i64().unwrap() >= 1, "reason {reason}");
    }
    assert!(app.get("/api/complaint/unreadCount", token).await.json()["count"].as_i64().unwrap() > 0);
    let merchants = app.get("/api/partner/merchant?Skip=0&Take=10", token).await.json();
    assert!(merchants["totalCount"].as_i64().unwrap() >= 10);
    assert!(merchants["data"][0]["partnerCityName"].as_str().unwrap().contains(", "));
    assert!(total("/api/promoCode?Skip=0&Take=10").await >= 30);
    let usage = app.get("/api/usageHistory?Skip=0&Take=1&SortField=createdDate&OrderBy=true", token).await.json();
    assert_eq!(usage["totalCount"], 3000);
    let months =
        app.count("SELECT COUNT(DISTINCT substr(created_at, 1, 7)) FROM usage_history WHERE deleted_at IS NULL");
    assert!(months >= 12, "a year of usage: {months} months");
}

/// Every name a person has in the demo, one row per person: (who, full name).
const PEOPLE: &str = "SELECT 'user ' || id, first_name || ' ' || last_name FROM users
    UNION ALL SELECT 'employee ' || id, first_name || ' ' || last_name FROM employees
    UNION ALL SELECT 'merchant ' || id, first_name || ' ' || last_name FROM merchants
    UNION ALL SELECT 'partner contact ' || id, contact_person_first_name || ' ' || contact_person_last_name FROM partners
    UNION ALL SELECT 'asset contact ' || id, contact_person FROM assets
    UNION ALL SELECT 'applicant ' || id, full_name FROM merchant_applications";

/// The demo's first names by the gender they are given to in Azerbaijan, kept here apart from
/// the demo's own lists so the test does not take the demo's word for it.
const WOMEN: &[&str] = &[
    "Aysel",
    "Günel",
    "Nigar",
    "Leyla",
    "Səbinə",
    "Aygün",
    "Nərmin",
    "Lalə",
    "Könül",
    "Sevinc",
    "Zəhra",
    "Fidan",
    "Gülnar",
    "Təranə",
    "Gülnarə",
    "Aynur",
    "Ülviyyə",
    "Şəbnəm",
    "Xədicə",
    "Gülşən",
    "Samirə",
    "Vüsalə",
    "Rəna",
    "Aytən",
    "Nailə",
    "Kəmalə",
    "Mehriban",
    "Sevda",
    "Türkan",
    "Nuranə",
    "Əsmər",
    "Fatimə",
    "Məleykə",
    "Ləman",
    "Röya",
    "Elmira",
    "Tamilla",
    "Sona",
    "Mədinə",
    "Nərgiz",
];
const MEN: &[&str] = &[
    "Rəşad",
    "Elvin",
    "Tural",
    "Orxan",
    "Kamran",
    "Fərid",
    "Ramil",
    "Vüqar",
    "Emin",
    "Murad",
    "Anar",
    "Elnur",
    "İlkin",
    "İsmayıl",
    "Şahin",
    "Cavid",
    "Çingiz",
    "Vüsal",
    "Elçin",
    "Rauf",
    "Kənan",
    "Nicat",
    "Toğrul",
    "Rüfət",
    "Zaur",
    "Samir",
    "Fuad",
    "Namiq",
    "Cavad",
    "Nihad",
    "Pərviz",
    "Azər",
    "Teymur",
    "Mahir",
    "Elşən",
    "Ceyhun",
    "Yusif",
    "Babək",
    "Rövşən",
    "Hikmət",
];

#[test]
fn every_person_in_the_demo_has_a_name_of_their_own_that_fits_them() {
    let app = test_app();
    perkdesk::cli::demo::prepare(&app.state.db, true).unwrap();
    let conn = app.state.db.conn().unwrap();
    let people: Vec<(String, String)> = conn
        .prepare(PEOPLE)
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert!(people.len() > 200, "{} people", people.len());

    let mut holders: std::collections::BTreeMap<&str, Vec<&str>> = Default::default();
    for (who, name) in &people {
        holders.entry(name.as_str()).or_default().push(who.as_str());
    }
    let shared: Vec<String> = holders
        .iter()
        .filter(|(_, who)| who.len() > 1)
        .map(|(name, who)| format!("{name}: {}", who.join(", ")))
        .collect();
    assert!(shared.is_empty(), "names held by more than one person:\n{}", shared.join("\n"));

    let mismatched: Vec<String> = people
        .iter()
        .filter(|(_, name)| {
            let (first, surname) = name.split_once(' ').unwrap_or((name, ""));
            // Patronymic-free Azerbaijani surnames: -ov/-yev/-ev for a man, -ova/-yeva/-eva for a woman.
            let female_surname = surname.ends_with("ova") || surname.ends_with("eva");
            let male_surname = surname.ends_with("ov") || surname.ends_with("ev");
            let fits = (WOMEN.contains(&first) && female_surname) || (MEN.contains(&first) && male_surname);
            !fits
        })
        .map(|(who, name)| format!("{who}: {name}"))
        .collect();
    assert!(mismatched.is_empty(), "names whose first name and surname do not agree:\n{}", mismatched.join("\n"));

    // A complaint is signed by the employee who sent it, under the employee's own name.
    assert_eq!(
        app.count(
            "SELECT COUNT(*) FROM complaints c JOIN employees e ON e.id = c.employee_id
             WHERE c.full_name <> e.first_name || ' ' || e.last_name"
        ),
        0
    );
}

#[tokio::test]
async fn the_demos_deleted_records_outlast_the_trash_retention_at_the_first_start() {
    let app = test_app();
    perkdesk::cli::demo::prepare(&app.state.db, true).unwrap();
    let in_trash = app.count("SELECT COUNT(*) FROM trash");
    assert_eq!(in_trash, 9, "an employee per asset, an asset, a partner and a campaign");
    // What the server does as it starts, with its default window.
    let (purged, _) = perkdesk::app::housekeeping::empty_trash(&app.state.db, 30).await.unwrap();
    assert_eq!(purged, 0);
    assert_eq!(app.count("SELECT COUNT(*) FROM trash"), in_trash);
    // Deleted within the window, not in the future, and after they were made.
    let now = perkdesk::db::now_iso();
    let window = perkdesk::db::format_iso(time::OffsetDateTime::now_utc() - time::Duration::days(30));
    let (earliest, latest): (String, String) = app
        .state
        .db
        .conn()
        .unwrap()
        .query_row("SELECT MIN(deleted_at), MAX(deleted_at) FROM trash", [], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap();
    assert!(earliest > window && latest <= now, "deleted between {earliest} and {latest}");
    assert_eq!(app.count("SELECT COUNT(*) FROM employees WHERE deleted_at <= created_at"), 0);

    let admin = app.admin().await;
    let trash = app.get("/api/trash?Skip=0&Take=30", &admin.token).await.expect(200).json();
    assert_eq!(trash["totalCount"], in_trash);
    for kind in ["asset", "partner", "campaign", "employee"] {
        let report = app.get(&format!("/api/report/{kind}?Skip=0&Take=10"), &admin.token).await.expect(200).json();
        assert!(report["deletedCount"].as_i64().unwrap() > 0, "{kind}: {report}");
    }
}

#[test]
fn the_demo_is_current_whenever_it_is_made() {
    let app = test_app();
    perkdesk::cli::demo::prepare(&app.state.db, true).unwrap();
    let now = perkdesk::db::now_iso();
    let count = |sql: &str| -> i64 { app.state.db.conn().unwrap().query_row(sql, [&now], |r| r.get(0)).unwrap() };
    let running = count(
        "SELECT COUNT(*) FROM campaigns WHERE deleted_at IS NULL AND is_confirmed = 1 AND is_active = 1
         AND start_date <= ?1 AND expire_date > ?1",
    );
    assert!(running >= 6, "{running} campaigns running today");
    let ended =
        count("SELECT COUNT(*) FROM campaigns WHERE deleted_at IS NULL AND is_confirmed = 1 AND expire_date <= ?1");
    assert!(ended >= 1, "some campaigns have ended");
    // Each use was made while its campaign ran.
    assert_eq!(
        app.count(
            "SELECT COUNT(*) FROM usage_history u JOIN campaigns c ON c.id = u.campaign_id
             WHERE u.created_at < c.start_date OR u.created_at >= c.expire_date"
        ),
        0
    );
    // Nothing the demo dates has happened yet.
    for (what, sql) in [
        ("employees", "SELECT COUNT(*) FROM employees WHERE created_at > ?1 OR deleted_at > ?1"),
        ("HR accounts", "SELECT COUNT(*) FROM hr_accounts WHERE created_at > ?1"),
        ("uses", "SELECT COUNT(*) FROM usage_history WHERE created_at > ?1"),
        ("wishes", "SELECT COUNT(*) FROM wish_list_requests WHERE request_date > ?1"),
        ("complaints", "SELECT COUNT(*) FROM complaints WHERE record_date > ?1"),
        ("applications", "SELECT COUNT(*) FROM merchant_applications WHERE created_at > ?1"),
        ("promo codes", "SELECT COUNT(*) FROM promo_codes WHERE used_date > ?1"),
        ("campaigns' starts", "SELECT COUNT(*) FROM campaigns WHERE is_confirmed = 1 AND start_date > ?1"),
    ] {
        assert_eq!(count(sql), 0, "{what} dated after now");
    }
}

#[tokio::test]
async fn the_demo_admins_recovery_codes_sign_in() {
    let app = test_app();
    let admin = perkdesk::cli::demo::prepare(&app.state.db, true).unwrap();
    assert_eq!(admin.recovery_codes.len(), 10);
    let body = serde_json::json!({
        "userName": admin.email, "password": admin.password, "recoveryCode": admin.recovery_codes[0],
    });
    app.call(axum::http::Method::POST, "/api/auth/admin/token", None, Some(body)).await.expect(200);

    // A later start cannot read the earlier codes back from their hashes: it makes a new set.
    let again = perkdesk::cli::demo::prepare(&app.state.db, false).unwrap();
    assert_eq!(again.recovery_codes.len(), 10);
    assert!(again.codes_replaced && !admin.codes_replaced);
    let old = serde_json::json!({
        "userName": admin.email, "password": admin.password, "recoveryCode": admin.recovery_codes[1],
    });
    app.call(axum::http::Method::POST, "/api/auth/admin/token", None, Some(old)).await.expect(401);
    let new = serde_json::json!({
        "userName": admin.email, "password": admin.password, "recoveryCode": again.recovery_codes[1],
    });
    app.call(axum::http::Method::POST, "/api/auth/admin/token", None, Some(new)).await.expect(200);
}
