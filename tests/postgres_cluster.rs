//! Two app servers on one PostgreSQL database are one system: the real binary twice, on the
//! server `./scripts/test` starts (its URL in `PERKDESK_TEST_POSTGRES`). What one writes the
//! other lists at once (its remembered totals follow the database's change clock), who wrote is
//! logged whichever server took the write, the trash holds what either deleted, and the counts'
//! deltas are folded by one of them.

use crate::common;

use std::process::Command;

use common::servers::*;
use serde_json::{Value, json};

#[test]
#[ignore = "needs PostgreSQL: ./scripts/test starts one and runs it"]
fn postgres_two_app_servers_are_one_system() {
    let name = "perkdesk_cluster";
    let db = common::postgres::fresh_postgres(name);
    let url = common::postgres::postgres_url(name);

    let secret = create_admin(&url);

    // Backups of a PostgreSQL database are PostgreSQL's tools' work: one line says which.
    let backup = Command::new(env!("CARGO_BIN_EXE_perkdesk"))
        .args(["backup", "--db", &url, "/nonexistent/copy.db"])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&backup.stderr);
    assert!(!backup.status.success() && said.trim().lines().count() == 1 && said.contains("pg_dump"), "{said}");

    // Two app servers; the second starts on the schema the first made.
    let (a, b) = (serve(&url), serve(&url));
    let token = &sign_in(&a, &secret);

    // B remembers the list's total; A writes; B lists the new user at once.
    assert_eq!(get(&b, "/api/user?Skip=0&Take=10&Email=perk.az", token)["totalCount"], 1);
    let new_user = json!({
        "firstName": "Leyla", "lastName": "Abbasova", "email": "leyla@perk.az", "phone": "994551234567",
        "roleId": 1, "password": "Secret-123!", "confirmPassword": "Secret-123!"
    });
    let (status, user) = call(&a, "POST", "/api/user/register", Some(token), Some(new_user));
    assert_eq!(status, 201, "{user}");
    let listed = get(&b, "/api/user?Skip=0&Take=10&Email=perk.az", token);
    assert_eq!(listed["totalCount"], 2, "B sees A's write at once: {listed}");
    assert_eq!(get(&b, "/api/user?Skip=0&Take=10", token)["totalCount"], 2, "the maintained total too");

    // B deletes; A finds it in the trash, and the log names who did each, on either server.
    let (status, answer) = call(&b, "DELETE", "/api/user", Some(token), Some(json!({"id": [user["id"]]})));
    assert_eq!(status, 200, "{answer}");
    let trash = get(&a, "/api/trash?Skip=0&Take=10", token);
    assert_eq!(trash["data"][0]["recordId"], user["id"], "{trash}");
    assert_eq!(trash["data"][0]["label"], "Leyla Abbasova <leyla@perk.az>");
    let log = get(&a, &format!("/api/activity?Skip=0&Take=10&Resource=user&RecordId={}", user["id"]), token);
    let entries: Vec<(String, String, String)> = log["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|entry| {
            let text = |field: &str| entry[field].as_str().unwrap_or_default().to_string();
            (text("actorKind"), text("actorName"), text("action"))
        })
        .collect();
    let by_aysel = |action: &str| ("user".to_string(), "Aysel Məmmədova".to_string(), action.to_string());
    assert_eq!(entries, [by_aysel("delete"), by_aysel("create")], "{log}");
    let made_by: String = db
        .query_row(
            "SELECT actor_kind FROM activity WHERE resource = 'user' AND record_id = 1 AND action = 'create'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(made_by, "cli", "create-admin is the command line's");
    assert_eq!(get(&a, "/api/user?Skip=0&Take=10", token)["totalCount"], 1);

    // One of the servers folds the counts' deltas within a few seconds; the totals stay exact.
    let deltas = || -> i64 { db.query_row("SELECT COUNT(*) FROM row_counts_deltas", [], |r| r.get(0)).unwrap() };
    let folded = (0..50).any(|_| {
        std::thread::sleep(std::time::Duration::from_millis(200));
        deltas() == 0
    });
    assert!(folded, "the deltas were folded ({} left)", deltas());
    let staff: i64 = db.query_row("SELECT n FROM row_counts WHERE name = 'users:staff'", [], |r| r.get(0)).unwrap();
    assert_eq!(staff, 1);
    assert_eq!(get(&b, "/api/user?Skip=0&Take=10", token)["totalCount"], 1);
}

#[test]
#[ignore = "needs PostgreSQL: ./scripts/test starts one and runs it"]
fn postgres_two_app_servers_race_and_each_write_happens_once() {
    let name = "perkdesk_cluster_race";
    let db = common::postgres::fresh_postgres(name);
    let url = common::postgres::postgres_url(name);
    let secret = create_admin(&url);
    let (a, b) = (serve(&url), serve(&url));
    let both_serving = std::time::Instant::now();
    let token = &sign_in(&a, &secret);
    let servers = [&a, &b, &a, &b];
    // Every attempt to insert a category is counted by a sequence, which a rollback does not
    // undo: the servers take the table's ids ahead in blocks, so its ids no longer tell.
    db.execute_batch(
        "CREATE SEQUENCE category_attempts;
         CREATE FUNCTION count_category_attempt() RETURNS trigger LANGUAGE plpgsql
             AS $$ BEGIN PERFORM nextval('category_attempts'); RETURN NEW; END $$;
         CREATE TRIGGER count_category_attempt BEFORE INSERT ON campaign_categories
             FOR EACH ROW EXECUTE FUNCTION count_category_attempt();",
    )
    .unwrap();
    let attempts = || -> i64 {
        db.query_row("SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM category_attempts", [], |r| r.get(0))
            .unwrap()
    };

    // One x-requestid sent four times at once, twice to each server: the category is made once;
    // the others are told it is still running, or get its answer back.
    for round in 0..8 {
        let (content_type, body) =
            common::multipart(&[("nameAz", &format!("Yarış {round}")), ("nameEn", "Race"), ("nameRu", "Гонка")], &[]);
        let request_id = format!("race-{round}");
        let headers = [("Content-Type", content_type.as_str()), ("x-requestid", request_id.as_str())];
        let answers = at_once(
            servers
                .iter()
                .map(|server| {
                    let (headers, body) = (&headers, &body);
                    Box::new(move || exchange(server, "POST", "/api/campaign/category", Some(token), headers, body))
                        as Box<dyn FnOnce() -> (u16, Value) + Send>
                })
                .collect(),
        );
        let made: Vec<&Value> =
            answers.iter().filter(|(status, _)| *status == 201).map(|(_, body)| &body["id"]).collect();
        assert!(!made.is_empty() && made.iter().all(|id| *id == made[0]), "round {round}: {answers:?}");
        // Ran once, not twice with one run rolled back: a rolled-back insert would have been
        // counted too.
        assert_eq!(attempts(), round + 1, "round {round} was attempted once: {answers:?}");
        for (status, body) in &answers {
            assert!(
                *status == 201 || (*status == 409 && body["message"] == perkdesk::app::idempotency::RUNNING),
                "round {round}: {answers:?}"
            );
        }
        let stored: i64 = db
            .query_row(
                "SELECT COUNT(*) FROM campaign_categories WHERE name_az = ?1",
                [format!("Yarış {round}")],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(stored, 1, "round {round} ran once: {answers:?}");
    }

    // Twelve categories placed at once, six through each server: the positions stay 1..n.
    let answers = at_once(
        (0..12)
            .map(|i| {
                let server = servers[i % 2];
                Box::new(move || {
                    let order = (1 + i % 5).to_string();
                    let (content_type, body) = common::multipart(
                        &[
                            ("nameAz", &format!("Sıra {i}")),
                            ("nameEn", "Order"),
                            ("nameRu", "Порядок"),
                            ("order", &order),
                        ],
                        &[],
                    );
                    exchange(
                        server,
                        "POST",
                        "/api/campaign/category",
                        Some(token),
                        &[("Content-Type", &content_type)],
                        &body,
                    )
                }) as Box<dyn FnOnce() -> (u16, Value) + Send>
            })
            .collect(),
    );
    assert_eq!(statuses(&answers), vec![201; 12], "{answers:?}");
    let mut positions: Vec<i64> = {
        let mut statement = db.prepare("SELECT order_no FROM campaign_categories WHERE deleted_at IS NULL").unwrap();
        statement.query_map([], |r| r.get(0)).unwrap().collect::<Result<_, _>>().unwrap()
    };
    positions.sort_unstable();
    assert_eq!(positions, (1..=20).collect::<Vec<i64>>(), "one sequence of positions");

    // Ten expected campaigns, each approved twice at once (once on each server), then its
    // notification sent twice at once: one of each pair wins, the other is told why not.
    let partner = db
        .insert(
            "INSERT INTO partners (name, contact_person_first_name, contact_person_last_name, phone_number, email,
                                   is_promo_code_using, promo_code_version)
             VALUES ('Dadlı Market', 'Elvin', 'Quliyev', '994501234567', 'info@dadli.az', 1, 1)",
            [],
        )
        .unwrap();
    let category: i64 = db.query_row("SELECT MIN(id) FROM campaign_categories", [], |r| r.get(0)).unwrap();
    let campaigns: Vec<i64> = (0..10)
        .map(|i| {
            db.insert(
                "INSERT INTO campaigns (partner_id, campaign_category_id, discount_percent, start_date, expire_date,
                                        name_az, name_en, name_ru, description_az, description_en, description_ru,
                                        is_confirmed, order_no)
                 VALUES (?1, ?2, 10, '2026-01-01T00:00:00.000Z', '2099-01-01T00:00:00.000Z', ?3, 'Sale', 'Скидка',
                         'Təsvir', 'Description', 'Описание', 0, ?4)",
                (partner, category, format!("Endirim {i}"), i + 1),
            )
            .unwrap()
        })
        .collect();
    let pairs = |path: &'static str, body: &dyn Fn(i64) -> Value| -> Vec<Vec<(u16, Value)>> {
        campaigns
            .iter()
            .map(|id| {
                let body = body(*id);
                at_once(
                    [&a, &b]
                        .into_iter()
                        .map(|server| {
                            let body = body.clone();
                            Box::new(move || call(server, "PUT", path, Some(token), Some(body)))
                                as Box<dyn FnOnce() -> (u16, Value) + Send>
                        })
                        .collect(),
                )
            })
            .collect()
    };
    for answers in pairs("/api/campaign/approve", &|id| json!({"id": id})) {
        assert_eq!(statuses(&answers), [200, 409], "{answers:?}");
        assert!(answers.iter().any(|(_, body)| body["message"] == "The campaign is already approved."), "{answers:?}");
    }
    for answers in pairs("/api/campaign/changeNotificationStatus", &|id| json!({"id": id, "text": "Yeni endirim!"})) {
        assert_eq!(statuses(&answers), [200, 409], "{answers:?}");
        let refused = "A notification was already sent for this campaign.";
        assert!(answers.iter().any(|(_, body)| body["message"] == refused), "{answers:?}");
    }
    let sent: i64 = db.query_row("SELECT COUNT(*) FROM notifications", [], |r| r.get(0)).unwrap();
    assert_eq!(sent, 10, "one notification per campaign");

    // The partner's till redeems each of ten codes on both servers at once: once each.
    let (status, made) = call(
        &a,
        "POST",
        "/api/apiClient",
        Some(token),
        Some(json!({"name": "Till", "kind": "partner", "partnerId": partner})),
    );
    assert_eq!(status, 201, "{made}");
    let key = made["key"].as_str().unwrap();
    for i in 0..10 {
        let code = format!("RACE{i:04}");
        db.execute(
            "INSERT INTO promo_codes (partner_id, campaign_id, code) VALUES (?1, ?2, ?3)",
            (partner, campaigns[0], &code),
        )
        .unwrap();
        let answers = at_once(
            [&a, &b]
                .into_iter()
                .map(|server| {
                    let code = code.clone();
                    Box::new(move || {
                        call(
                            server,
                            "POST",
                            "/api/partner-portal/promo-codes/redeem",
                            Some(key),
                            Some(json!({"code": code})),
                        )
                    }) as Box<dyn FnOnce() -> (u16, Value) + Send>
                })
                .collect(),
        );
        assert_eq!(statuses(&answers), [200, 409], "{answers:?}");
        assert!(answers.iter().any(|(_, body)| body["message"] == "This promo code was already used."), "{answers:?}");
    }

    // The maintained totals equal a recount after all of it, on either server.
    let live: i64 =
        db.query_row("SELECT COUNT(*) FROM campaign_categories WHERE deleted_at IS NULL", [], |r| r.get(0)).unwrap();
    assert_eq!(live, 20);
    for server in [&a, &b] {
        assert_eq!(get(server, "/api/campaign/category?Skip=0&Take=1", token)["totalCount"], live);
        assert_eq!(get(server, "/api/campaign?Skip=0&Take=1", token)["totalCount"], 10);
        assert_eq!(get(server, "/api/notification?Skip=0&Take=1", token)["totalCount"], 10);
    }

    // A client's rate limit holds for the cluster: each of the two servers (counted every 10 s)
    // lets it make half of its four calls a minute. A server may be seen only from its own first
    // round (10 s after its start, when its counted connection opens), and the other server sees
    // it at its next round: 21 s after both serve, each has counted both.
    let (status, made) = call(
        &a,
        "POST",
        "/api/apiClient",
        Some(token),
        Some(json!({"name": "Slow till", "kind": "partner", "partnerId": partner, "rateLimitPerMinute": 4})),
    );
    assert_eq!(status, 201, "{made}");
    let slow = made["key"].as_str().unwrap();
    std::thread::sleep(std::time::Duration::from_secs(21).saturating_sub(both_serving.elapsed()));
    for server in [&a, &b] {
        let answers: Vec<u16> = (0..3)
            .map(|_| call(server, "GET", "/api/partner-portal/campaigns?Skip=0&Take=1", Some(slow), None).0)
            .collect();
        assert_eq!(answers, [200, 200, 429], "two of four a minute on each server");
    }
}

/// App servers on one database share its connection budget (`serve --postgres-connections`): a
/// server alone takes all of it, each of two takes half once they have counted each other, and
/// the one left takes all again once the other has gone.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: ./scripts/test starts one and runs it"]
async fn postgres_app_servers_share_the_connection_budget() {
    let database = common::postgres::TestDatabase::new();
    let open = || perkdesk::app::open_db(std::path::Path::new(&database.url)).unwrap();
    let (first, second) = (open(), open());
    for server in [&first, &second] {
        server.share_connections(10).await.unwrap();
        assert_eq!(server.connections_in_use_at_most().await, 10, "alone until it counts the others");
    }
    // A server is counted once it has asked: the first asks alone, then the second sees both.
    assert_eq!(first.count_servers().await.unwrap(), 1);
    assert_eq!(second.count_servers().await.unwrap(), 2);
    assert_eq!(first.count_servers().await.unwrap(), 2);
    for server in [&first, &second] {
        assert_eq!(server.connections_in_use_at_most().await, 5, "half each");
    }
    // The share holds under load: ten requests at once on a server of five turns all answer.
    let reads: Vec<_> = (0..10)
        .map(|_| {
            let first = first.clone();
            tokio::spawn(
                async move { first.run(|conn| Ok(conn.query_row("SELECT 1", [], |r| r.get::<i64>(0))?)).await },
            )
        })
        .collect();
    for read in reads {
        assert_eq!(read.await.unwrap().unwrap(), 1);
    }

    drop(second);
    // PostgreSQL ends a closed connection's session a moment after the client lets go.
    let mut counted = 0;
    for _ in 0..100 {
        counted = first.count_servers().await.unwrap();
        if counted == 1 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert_eq!(counted, 1, "the other server has gone");
    assert_eq!(first.connections_in_use_at_most().await, 10, "all of it again");
}
