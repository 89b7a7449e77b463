//! Outbound webhooks: the Admin's calls (each refusal with its message, roles, 404s, the secret
//! shown once), the outbox written in each change's transaction (a refused write leaves nothing,
//! an endpoint limited to one asset hears only of it), and delivery by the worker to a receiver on
//! loopback: signed as the Standard Webhooks specification says, retried with the same
//! webhook-id, replayed, and an endpoint that keeps failing switched off.

use crate::common;
use crate::people;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::http::{HeaderMap, Method, StatusCode};
use common::*;
use perkdesk::app::webhooks::{Delivery, sign};
use perkdesk::core::targets;
use perkdesk::resources::webhooks as hooks;
use serde_json::{Value, json};

const EMPLOYEE: &str = people::EMPLOYEES[0].2;

fn private_app() -> TestApp {
    test_app_with(perkdesk::http::state::Settings { webhooks_allow_private: true, ..settings() })
}

async fn make(app: &TestApp, token: &str, body: Value) -> Response {
    app.call(Method::POST, "/api/webhook", Some(token), Some(body)).await
}

/// The employee's use of `campaign` through the employee app's key.
async fn use_campaign(app: &TestApp, key: &str, campaign: i64) -> Response {
    app.call(
        Method::POST,
        "/api/app/usage",
        Some(key),
        Some(json!({"employeeEmail": EMPLOYEE, "campaignId": campaign})),
    )
    .await
}

fn messages(app: &TestApp, event: &str) -> i64 {
    app.count(&format!("SELECT COUNT(*) FROM webhook_messages WHERE event = '{event}'"))
}

#[tokio::test]
async fn admins_add_change_rotate_and_delete_endpoints_and_see_each_secret_once() {
    let app = private_app();
    let admin = app.admin().await;
    let user = app.user_with_role("user@perk.az", 1).await;
    let caller = app.user_with_role("calls@perk.az", 2).await;
    let body = json!({"url": "http://127.0.0.1:9/hook", "events": ["employee.created", "usage.created"],
                      "description": "ERP"});
    let made = make(&app, &admin.token, body.clone()).await;
    made.expect(201);
    let secret = made.json()["secret"].as_str().unwrap().to_string();
    assert!(secret.starts_with("whsec_") && secret.len() > 40, "{secret}");
    let webhook = &made.json()["webhook"];
    let id = webhook["id"].as_i64().unwrap();
    assert_eq!(webhook["events"], json!(["employee.created", "usage.created"]));
    assert_eq!(webhook["state"], "active");
    assert_eq!(webhook["isActive"], true);
    // Never again: not in the list, the detail, the history, or an idempotent repeat.
    let list = app.get("/api/webhook?Skip=0&Take=10", &admin.token).await;
    list.expect(200);
    assert_eq!(list.json()["totalCount"], 1);
    let detail = app.get(&format!("/api/webhook/{id}"), &admin.token).await;
    detail.expect(200);
    let history = app.get(&format!("/api/webhook/{id}/history"), &admin.token).await;
    history.expect(200);
    assert_eq!(history.json()["data"][0]["action"], "create");
    for answer in [&list, &detail, &history] {
        assert!(!String::from_utf8_lossy(&answer.bytes).contains(&secret[6..]));
    }
    assert_eq!(app.count(&format!("SELECT COUNT(*) FROM activity WHERE changes LIKE '%{}%'", &secret[6..])), 0);
    let headers = [("x-requestid", "hook-once")];
    let first = app.call_with(Method::POST, "/api/webhook", Some(&admin.token), Some(body.clone()), &headers).await;
    let again = app.call_with(Method::POST, "/api/webhook", Some(&admin.token), Some(body.clone()), &headers).await;
    first.expect(201);
    again.expect(201);
    assert_eq!(again.headers["x-idempotent-replay"], "true");
    assert!(again.json().get("secret").is_none(), "a secret is never replayed");
    assert_eq!(again.json()["webhook"]["id"], first.json()["webhook"]["id"]);
    assert_eq!(app.count("SELECT COUNT(*) FROM webhooks"), 2);

    // Edit; isActive false pauses it.
    let edit = json!({"url": "http://127.0.0.1:9/other", "events": ["campaign.approved"], "isActive": false});
    let edited = app.call(Method::PUT, &format!("/api/webhook/{id}"), Some(&admin.token), Some(edit.clone())).await;
    edited.expect(200);
    assert_eq!(edited.json()["url"], "http://127.0.0.1:9/other");
    assert_eq!(edited.json()["state"], "paused");
    assert_eq!(edited.json()["description"], Value::Null);
    // Sent as true (or "on", or 1) it is active again.
    for on in [json!(true), json!("on"), json!(1)] {
        let body = json!({"url": "http://127.0.0.1:9/other", "events": ["campaign.approved"], "isActive": on});
        let again = app.call(Method::PUT, &format!("/api/webhook/{id}"), Some(&admin.token), Some(body)).await;
        assert_eq!(again.expect(200).json()["state"], "active", "{on}");
    }
    let paused = json!({"url": "http://127.0.0.1:9/other", "events": ["campaign.approved"], "isActive": false});
    app.call(Method::PUT, &format!("/api/webhook/{id}"), Some(&admin.token), Some(paused)).await.expect(200);
    let sent_on = json!({"url": "http://127.0.0.1:9/on", "events": ["usage.created"], "isActive": true});
    assert_eq!(make(&app, &admin.token, sent_on).await.json()["webhook"]["state"], "active");
    app.call(Method::DELETE, "/api/webhook", Some(&admin.token), Some(json!({"id": [first.json()["webhook"]["id"]]})))
        .await
        .expect(200);
    app.call(Method::PUT, "/api/webhook/999", Some(&admin.token), Some(edit))
        .await
        .expect_message(404, "Webhook not found.");

    // Rotate: a new secret, the old one still signs for a day.
    let rotated = app.call(Method::POST, &format!("/api/webhook/{id}/rotate-secret"), Some(&admin.token), None).await;
    rotated.expect(201);
    let new_secret = rotated.json()["secret"].as_str().unwrap().to_string();
    assert_ne!(new_secret, secret);
    assert!(rotated.json()["webhook"]["previousSecretExpiresAt"].is_string());
    app.call(Method::POST, "/api/webhook/999/rotate-secret", Some(&admin.token), None)
        .await
        .expect_message(404, "Webhook not found.");

    // Admins only.
    for other in [&user, &caller] {
        make(&app, &other.token, body.clone()).await.expect(403);
        app.get("/api/webhook", &other.token).await.expect(403);
        app.get(&format!("/api/webhook/{id}/deliveries"), &other.token).await.expect(403);
    }
    app.call(Method::GET, "/api/webhook", None, None).await.expect(401);

    // Delete: gone from the list; again is a 404.
    let deleted = app.call(Method::DELETE, &format!("/api/webhook/{id}"), Some(&admin.token), None).await;
    deleted.expect(200);
    assert_eq!(deleted.json()["deleted"], 1);
    app.call(Method::DELETE, &format!("/api/webhook/{id}"), Some(&admin.token), None)
        .await
        .expect_message(404, "Webhook not found.");
    assert_eq!(app.get("/api/webhook", &admin.token).await.json()["totalCount"], 1);
}

#[tokio::test]
async fn bad_endpoints_are_refused_with_the_field_named() {
    let app = test_app();
    let admin = app.admin().await;
    let world = people::world(&app.state.db.conn().unwrap());
    let refused = |body: Value, status: u16, field: &'static str, message: &'static str| {
        let app = &app;
        let token = admin.token.clone();
        async move {
            let answer = make(app, &token, body.clone()).await;
            answer.expect(status);
            assert_eq!(answer.message(), message, "{body}");
            if status == 400 {
                assert_eq!(answer.json()["errors"][field], message, "{body}");
            }
        }
    };
    let events = json!(["usage.created"]);
    refused(json!({"events": events}), 400, "url", targets::URL_REQUIRED).await;
    refused(json!({"url": "ftp://example.com/x", "events": events}), 400, "url", targets::URL_SCHEME).await;
    for inside in [
        "http://127.0.0.1/x",
        "http://localhost:8080/x",
        "http://169.254.169.254/latest",
        "http://[::1]/x",
        "http://10.0.0.5/x",
        "http://192.168.1.1/x",
    ] {
        refused(json!({"url": inside, "events": events}), 400, "url", targets::URL_FORBIDDEN).await;
    }
    refused(json!({"url": "https://no-such-host.invalid/x", "events": events}), 400, "url", targets::URL_UNRESOLVED)
        .await;
    refused(json!({"url": "https://93.184.215.14/x"}), 400, "events", hooks::EVENTS_REQUIRED).await;
    refused(json!({"url": "https://93.184.215.14/x", "events": []}), 400, "events", hooks::EVENTS_REQUIRED).await;
    refused(json!({"url": "https://93.184.215.14/x", "events": "usage.created"}), 400, "events", hooks::EVENTS_INVALID)
        .await;
    let unknown = make(&app, &admin.token, json!({"url": "https://93.184.215.14/x", "events": ["usage.eaten"]})).await;
    unknown.expect_message(400, "Unknown event: usage.eaten");
    refused(
        json!({"url": "https://93.184.215.14/x", "events": events, "partnerId": world.partner, "assetId": world.asset}),
        400,
        "assetId",
        hooks::ONE_SCOPE,
    )
    .await;
    make(&app, &admin.token, json!({"url": "https://93.184.215.14/x", "events": events, "partnerId": 999}))
        .await
        .expect_message(404, "There is no partner with id 999.");
    make(&app, &admin.token, json!({"url": "https://93.184.215.14/x", "events": events, "assetId": 999}))
        .await
        .expect_message(404, "There is no asset with id 999.");
    assert_eq!(app.count("SELECT COUNT(*) FROM webhooks"), 0, "nothing half-written");
    // A public address by number needs no name to resolve.
    make(&app, &admin.token, json!({"url": "https://93.184.215.14/x", "events": events})).await.expect(201);
}

#[tokio::test]
async fn each_change_leaves_its_message_in_its_own_transaction_and_a_refused_one_none() {
    let app = private_app();
    let admin = app.admin().await;
    let world = people::offered_world(&app.state.db.conn().unwrap());
    let all = perkdesk::resources::webhook_events();
    assert_eq!(all.len(), 11, "{all:?}");
    make(&app, &admin.token, json!({"url": "http://127.0.0.1:9/all", "events": all})).await.expect(201);
    // Limited to another asset: hears of no employee of this one.
    let other_asset = app.state.db.conn().unwrap().insert(
        "INSERT INTO assets (name, contact_person, contact_person_phone_number, contact_person_email, barcode_prefix)
         VALUES ('Bakcell', 'X Y', '994501234568', 'hr@bakcell.az', 'BKC')",
        [],
    ).unwrap();
    make(
        &app,
        &admin.token,
        json!({"url": "http://127.0.0.1:9/other", "events": ["usage.created"], "assetId": other_asset}),
    )
    .await
    .expect(201);
    let key = app.api_key("employee-app", None, 1000);

    // A use: one message for the endpoint that hears all, none for the other asset's.
    let used = use_campaign(&app, &key, world.campaign).await;
    used.expect(201);
    assert_eq!(messages(&app, "usage.created"), 1);
    let payload: String = app
        .state
        .db
        .conn()
        .unwrap()
        .query_row("SELECT payload FROM webhook_messages WHERE event = 'usage.created'", [], |r| r.get(0))
        .unwrap();
    let payload: Value = serde_json::from_str(&payload).unwrap();
    assert_eq!(payload["type"], "usage.created");
    assert!(payload["timestamp"].is_string());
    // `data` is what the back office's GET of the record answers.
    let usage_id = used.json()["id"].as_i64().unwrap();
    let got = app.get(&format!("/api/usageHistory/{usage_id}"), &admin.token).await.json();
    assert_eq!(payload["data"], got);

    // A refused use (a campaign not offered) leaves nothing.
    use_campaign(&app, &key, world.other_campaign).await.expect(409);
    assert_eq!(messages(&app, "usage.created"), 1);

    // Employees: arrival, change, delete.
    let body = json!({"assetId": world.asset, "firstName": "Nərgiz", "lastName": "Əliyeva", "phone": "994701234567"});
    let created = app.call(Method::PUT, "/api/app/employees/nergiz@azercell.az", Some(&key), Some(body.clone())).await;
    created.expect(201);
    app.call(Method::PUT, "/api/app/employees/nergiz@azercell.az", Some(&key), Some(body)).await.expect(200);
    let employee = created.json()["id"].as_i64().unwrap();
    app.call(Method::DELETE, "/api/employee", Some(&admin.token), Some(json!({"id": [employee]}))).await.expect(200);
    assert_eq!(
        (messages(&app, "employee.created"), messages(&app, "employee.updated"), messages(&app, "employee.deleted")),
        (1, 1, 1)
    );

    // A complaint; a campaign approved.
    app.call(
        Method::POST,
        "/api/app/complaints",
        Some(&key),
        Some(json!({"employeeEmail": EMPLOYEE, "reasonId": 1, "description": "Endirim verilmədi"})),
    )
    .await
    .expect(201);
    assert_eq!(messages(&app, "complaint.created"), 1);
    let unconfirmed = people::campaign(&app.state.db.conn().unwrap(), world.partner, world.category, "Gözləyən");
    app.state.db.conn().unwrap().execute("UPDATE campaigns SET is_confirmed = 0 WHERE id = ?1", [unconfirmed]).unwrap();
    app.call(Method::PUT, "/api/campaign/approve", Some(&admin.token), Some(json!({"id": unconfirmed})))
        .await
        .expect(200);
    assert_eq!(messages(&app, "campaign.approved"), 1);
    // Approving it again is refused and leaves no second message.
    app.call(Method::PUT, "/api/campaign/approve", Some(&admin.token), Some(json!({"id": unconfirmed})))
        .await
        .expect(409);
    assert_eq!(messages(&app, "campaign.approved"), 1);
    // A paused endpoint hears nothing.
    let id: i64 = app
        .state
        .db
        .conn()
        .unwrap()
        .query_row("SELECT id FROM webhooks WHERE url LIKE '%/all'", [], |r| r.get(0))
        .unwrap();
    app.call(Method::PATCH, "/api/webhook/active", Some(&admin.token), Some(json!({"id": id, "isActive": false})))
        .await
        .expect(200);
    use_campaign(&app, &key, world.campaign).await.expect(201);
    assert_eq!(messages(&app, "usage.created"), 1);
}

/// A receiver on loopback that answers each request with the next status of `answers` (the last
/// one after), recording what it got.
#[derive(Clone, Default)]
struct Receiver {
    got: Arc<Mutex<Vec<(HeaderMap, String)>>>,
    answers: Arc<Mutex<Vec<u16>>>,
}

impl Receiver {
    async fn start(answers: &[u16]) -> (Receiver, String) {
        let receiver = Receiver { got: Default::default(), answers: Arc::new(Mutex::new(answers.to_vec())) };
        let state = receiver.clone();
        let router = axum::Router::new().route(
            "/hook",
            axum::routing::post(move |headers: HeaderMap, body: String| {
                let state = state.clone();
                async move {
                    state.got.lock().unwrap().push((headers, body));
                    let status = {
                        let mut answers = state.answers.lock().unwrap();
                        if answers.len() > 1 { answers.remove(0) } else { answers[0] }
                    };
                    // 0: a receiver that hangs (longer than any delivery waits).
                    if status == 0 {
                        tokio::time::sleep(Duration::from_secs(60)).await;
                    }
                    let mut answer = axum::response::Response::new(axum::body::Body::empty());
                    *answer.status_mut() = StatusCode::from_u16(status.max(200)).unwrap();
                    if status == 302 {
                        answer.headers_mut().insert("location", "/elsewhere".parse().unwrap());
                    }
                    answer
                }
            }),
        );
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/hook", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
        (receiver, url)
    }

    fn got(&self) -> Vec<(HeaderMap, String)> {
        self.got.lock().unwrap().clone()
    }
}

/// Waits (at most 15 s) until `done` holds.
async fn until(what: &str, mut done: impl FnMut() -> bool) {
    for _ in 0..300 {
        if done() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("timed out waiting until {what}");
}

fn quick(retries: &[u64], disable_after: Duration) -> Delivery {
    let mut delivery =
        Delivery::new(retries.iter().map(|ms| Duration::from_millis(*ms)).collect(), disable_after, true);
    delivery.poll = Duration::from_millis(20);
    delivery
}

#[tokio::test]
async fn deliveries_are_signed_retried_with_the_same_id_and_replayed() {
    let app = private_app();
    let admin = app.admin().await;
    let world = people::offered_world(&app.state.db.conn().unwrap());
    let (receiver, url) = Receiver::start(&[500, 503, 204]).await;
    let made = make(&app, &admin.token, json!({"url": url, "events": ["usage.created"]})).await;
    made.expect(201);
    let secret = made.json()["secret"].as_str().unwrap().to_string();
    let webhook = made.json()["webhook"]["id"].as_i64().unwrap();
    let worker =
        perkdesk::app::webhooks::spawn(app.state.db.clone(), quick(&[100, 100], Duration::from_secs(3600))).unwrap();
    let key = app.api_key("employee-app", None, 1000);
    use_campaign(&app, &key, world.campaign).await.expect(201);
    until("three attempts", || receiver.got().len() == 3).await;
    let got = receiver.got();
    let ids: Vec<&str> = got.iter().map(|(headers, _)| headers["webhook-id"].to_str().unwrap()).collect();
    assert!(ids[0].starts_with("msg_") && ids.iter().all(|id| *id == ids[0]), "{ids:?}");
    for (headers, body) in &got {
        let timestamp: i64 = headers["webhook-timestamp"].to_str().unwrap().parse().unwrap();
        assert!((timestamp - time::OffsetDateTime::now_utc().unix_timestamp()).abs() < 60);
        let expected = sign(&secret, ids[0], timestamp, body).unwrap();
        assert_eq!(headers["webhook-signature"].to_str().unwrap(), expected);
        assert_eq!(headers["content-type"], "application/json");
        assert_eq!(serde_json::from_str::<Value>(body).unwrap()["type"], "usage.created");
    }
    until("recorded as delivered", || {
        app.count("SELECT COUNT(*) FROM webhook_messages WHERE state = 'delivered'") == 1
    })
    .await;
    let list = app.get(&format!("/api/webhook/{webhook}/deliveries"), &admin.token).await;
    list.expect(200);
    let row = &list.json()["data"][0];
    assert_eq!(
        (row["attempt"].as_i64(), row["statusCode"].as_i64(), row["state"].as_str()),
        (Some(3), Some(204), Some("delivered"))
    );
    let delivery = row["id"].as_i64().unwrap();
    let detail = app.get(&format!("/api/webhook/delivery/{delivery}"), &admin.token).await;
    detail.expect(200);
    let statuses: Vec<i64> =
        detail.json()["attempts"].as_array().unwrap().iter().map(|a| a["statusCode"].as_i64().unwrap()).collect();
    assert_eq!(statuses, [500, 503, 204]);
    assert_eq!(detail.json()["payload"], got[0].1.as_str());
    let endpoint = app.get(&format!("/api/webhook/{webhook}"), &admin.token).await.json();
    assert_eq!((endpoint["lastStatusCode"].as_i64(), endpoint["failingSince"].is_null()), (Some(204), true));

    // Replay: the same webhook-id once more.
    let replayed =
        app.call(Method::POST, &format!("/api/webhook/delivery/{delivery}/replay"), Some(&admin.token), None).await;
    replayed.expect(200);
    until("the replay", || receiver.got().len() == 4).await;
    assert_eq!(receiver.got()[3].0["webhook-id"], ids[0]);
    app.call(Method::POST, "/api/webhook/delivery/999/replay", Some(&admin.token), None)
        .await
        .expect_message(404, "Webhook delivery not found.");
    app.get("/api/webhook/delivery/999", &admin.token).await.expect_message(404, "Webhook delivery not found.");
    app.get("/api/webhook/999/deliveries", &admin.token).await.expect_message(404, "Webhook not found.");
    // Its endpoint deleted, a delivery cannot be replayed.
    app.call(Method::DELETE, &format!("/api/webhook/{webhook}"), Some(&admin.token), None).await.expect(200);
    app.call(Method::POST, &format!("/api/webhook/delivery/{delivery}/replay"), Some(&admin.token), None)
        .await
        .expect_message(409, "The webhook was deleted; its deliveries cannot be replayed.");
    worker.stop();
}

#[tokio::test]
async fn an_endpoint_that_keeps_failing_is_switched_off_and_fails_its_messages_after_the_last_retry() {
    let app = private_app();
    let admin = app.admin().await;
    let world = people::offered_world(&app.state.db.conn().unwrap());
    let (receiver, url) = Receiver::start(&[500]).await;
    let made = make(&app, &admin.token, json!({"url": url, "events": ["usage.created"]})).await;
    let webhook = made.json()["webhook"]["id"].as_i64().unwrap();
    let worker = perkdesk::app::webhooks::spawn(app.state.db.clone(), quick(&[50], Duration::from_millis(1))).unwrap();
    let key = app.api_key("employee-app", None, 1000);
    use_campaign(&app, &key, world.campaign).await.expect(201);
    until("switched off", || app.count("SELECT COUNT(*) FROM webhooks WHERE disabled_at IS NOT NULL") == 1).await;
    let endpoint = app.get(&format!("/api/webhook/{webhook}"), &admin.token).await.json();
    assert_eq!((endpoint["state"].as_str(), endpoint["isActive"].as_bool()), (Some("disabled"), Some(false)));
    assert!(endpoint["disabledReason"].as_str().unwrap().starts_with("Every delivery failed from"));
    let banner = app.get("/api/webhook/filter?State=disabled&Take=5", &admin.token).await;
    assert_eq!(banner.json()["totalCount"], 1);
    let history = app.get(&format!("/api/webhook/{webhook}/history"), &admin.token).await.json();
    assert_eq!(history["data"][0]["actorKind"], "system");
    // Switched off, it hears nothing more and nothing more is sent to it.
    let sent = receiver.got().len();
    use_campaign(&app, &key, world.campaign).await.expect(201);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(receiver.got().len(), sent);
    // Switched back on, it starts afresh and its waiting message is sent; with the schedule
    // spent, the message has failed for good.
    app.call(Method::PATCH, "/api/webhook/active", Some(&admin.token), Some(json!({"id": webhook, "isActive": true})))
        .await
        .expect(200);
    let endpoint = app.get(&format!("/api/webhook/{webhook}"), &admin.token).await.json();
    assert_eq!((endpoint["state"].as_str(), endpoint["failingSince"].is_null()), (Some("active"), true));
    until("failed for good", || app.count("SELECT COUNT(*) FROM webhook_messages WHERE state = 'failed'") == 1).await;
    assert_eq!(
        app.count("SELECT attempts FROM webhook_messages WHERE state = 'failed'"),
        2,
        "the first try and one retry"
    );
    worker.stop();
}

#[tokio::test]
async fn a_delivery_to_an_address_inside_is_refused_at_sending_time_unless_allowed() {
    let app = private_app();
    let admin = app.admin().await;
    let world = people::offered_world(&app.state.db.conn().unwrap());
    let (receiver, url) = Receiver::start(&[204]).await;
    make(&app, &admin.token, json!({"url": url.replace("127.0.0.1", "localhost"), "events": ["usage.created"]}))
        .await
        .expect(201);
    // This worker does not allow private receivers: the name resolves to loopback, so no request leaves.
    let mut delivery = quick(&[], Duration::from_secs(3600));
    delivery.allow_private = false;
    let worker = perkdesk::app::webhooks::spawn(app.state.db.clone(), delivery).unwrap();
    let key = app.api_key("employee-app", None, 1000);
    use_campaign(&app, &key, world.campaign).await.expect(201);
    until("failed", || app.count("SELECT COUNT(*) FROM webhook_messages WHERE state = 'failed'") == 1).await;
    assert!(receiver.got().is_empty());
    let error: String =
        app.state.db.conn().unwrap().query_row("SELECT error FROM webhook_attempts", [], |r| r.get(0)).unwrap();
    assert!(error.contains(targets::URL_FORBIDDEN), "{error}");
    worker.stop();
}

#[tokio::test]
async fn a_receiver_that_hangs_holds_only_its_own_share_and_redirects_are_not_followed() {
    let app = private_app();
    let admin = app.admin().await;
    let world = people::offered_world(&app.state.db.conn().unwrap());
    let (hanging, hanging_url) = Receiver::start(&[0]).await;
    let (fast, fast_url) = Receiver::start(&[204]).await;
    let (moved, moved_url) = Receiver::start(&[302]).await;
    for url in [&hanging_url, &fast_url, &moved_url] {
        make(&app, &admin.token, json!({"url": url, "events": ["usage.created"]})).await.expect(201);
    }
    let mut delivery = quick(&[], Duration::from_secs(3600));
    (delivery.per_endpoint, delivery.in_all, delivery.timeout) = (2, 8, Duration::from_secs(30));
    let worker = perkdesk::app::webhooks::spawn(app.state.db.clone(), delivery).unwrap();
    let key = app.api_key("employee-app", None, 1000);
    let started = std::time::Instant::now();
    for _ in 0..6 {
        use_campaign(&app, &key, world.campaign).await.expect(201);
    }
    until("the fast receiver has all six", || fast.got().len() == 6).await;
    assert!(started.elapsed() < Duration::from_secs(5), "the hanging receiver delayed the others");
    assert_eq!(hanging.got().len(), 2, "the hanging receiver holds its two places, no more");
    // A redirect is an answer, not followed: the attempt failed with its 302.
    until("the redirect recorded", || app.count("SELECT COUNT(*) FROM webhook_attempts WHERE status_code = 302") == 6)
        .await;
    assert_eq!(moved.got().len(), 6, "each sent once, none to the redirect's target");
    worker.stop();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "needs PostgreSQL: ./scripts/test starts one and runs it"]
async fn postgres_two_servers_send_each_message_once() {
    let database = common::postgres::TestDatabase::new();
    let url = std::path::Path::new(&database.url);
    let (first, second) = (perkdesk::app::open_db(url).unwrap(), perkdesk::app::open_db(url).unwrap());
    let (receiver, hook) = Receiver::start(&[204]).await;
    let conn = first.conn().unwrap();
    let webhook = conn
        .insert(
            "INSERT INTO webhooks (url, events, signing_secret) VALUES (?1, '[\"usage.created\"]', 'whsec_c2VjcmV0c2VjcmV0')",
            [&hook],
        )
        .unwrap();
    let now = perkdesk::db::now_iso();
    for i in 0..400 {
        conn.execute(
            "INSERT INTO webhook_messages (webhook_id, event, message_id, payload, next_attempt_at, created_at)
             VALUES (?1, 'usage.created', ?2, '{}', ?3, ?3)",
            (webhook, format!("msg_{i}"), &now),
        )
        .unwrap();
    }
    drop(conn);
    let workers = [first.clone(), second.clone()]
        .map(|db| perkdesk::app::webhooks::spawn(db, quick(&[100], Duration::from_secs(3600))).unwrap());
    let db = first.clone();
    until("all delivered", || {
        db.conn()
            .unwrap()
            .query_row("SELECT COUNT(*) AS n FROM webhook_messages WHERE state = 'delivered'", [], |r| {
                r.get::<i64>("n")
            })
            .unwrap()
            == 400
    })
    .await;
    let ids: Vec<String> =
        receiver.got().iter().map(|(headers, _)| headers["webhook-id"].to_str().unwrap().to_string()).collect();
    let distinct: std::collections::BTreeSet<&String> = ids.iter().collect();
    assert_eq!((ids.len(), distinct.len()), (400, 400), "each message sent once by one of the two servers");
    let attempts: i64 =
        first.conn().unwrap().query_row("SELECT COUNT(*) AS n FROM webhook_attempts", [], |r| r.get("n")).unwrap();
    assert_eq!(attempts, 400);
    for worker in workers {
        worker.stop();
    }
}
