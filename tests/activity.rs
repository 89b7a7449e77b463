//! The activity log: an entry per write with its actor and changed fields, never a secret; the
//! Activity screen's list, filters and export for Admins; each record's History tab; no write
//! route; retention.

use crate::common;

use axum::http::Method;
use common::*;
use serde_json::{Value, json};

/// The entries of the log, oldest first, as the Activity list answers them.
async fn entries(app: &TestApp, token: &str, query: &str) -> Vec<Value> {
    let page = app.get(&format!("/api/activity/filter?Take=100&OrderBy=true&{query}"), token).await;
    page.expect(200);
    page.json()["data"].as_array().unwrap().clone()
}

fn actions(entries: &[Value]) -> Vec<&str> {
    entries.iter().map(|e| e["action"].as_str().unwrap()).collect()
}

fn changes(entry: &Value) -> Value {
    serde_json::from_str(entry["changes"].as_str().unwrap()).unwrap()
}

const ASSET: &[(&str, &str)] = &[
    ("name", "Xəzər Telekom"),
    ("contactPerson", "Nigar Həsənova"),
    ("phoneNumber", "994501234567"),
    ("email", "nigar@xezer.az"),
    ("barcodePrefix", "XT1"),
];

#[tokio::test]
async fn each_change_of_a_record_is_one_entry_with_its_actor_and_changed_fields() {
    let app = test_app();
    let admin = app.admin().await;
    let made = app.send_form(Method::POST, "/api/asset", &admin.token, ASSET, &[("file", "logo.png", PNG)]).await;
    made.expect(201);
    let id = made.json()["id"].as_i64().unwrap();
    let mut edited: Vec<(&str, &str)> =
        ASSET.iter().map(|(k, v)| if *k == "name" { (*k, "Xəzər") } else { (*k, *v) }).collect();
    let id_text = id.to_string();
    edited.push(("id", &id_text));
    app.send_form(Method::PUT, "/api/asset", &admin.token, &edited, &[]).await.expect(200);
    // Saving the same values again changes nothing, and records nothing.
    app.send_form(Method::PUT, "/api/asset", &admin.token, &edited, &[]).await.expect(200);
    app.call(Method::PATCH, "/api/asset/active", Some(&admin.token), Some(json!({"id": id, "isActive": false})))
        .await
        .expect(200);
    app.call(Method::DELETE, "/api/asset", Some(&admin.token), Some(json!({"id": [id]}))).await.expect(200);

    let log = entries(&app, &admin.token, &format!("Resource=asset&RecordId={id}")).await;
    assert_eq!(actions(&log), ["create", "update", "statusChange", "delete"]);
    assert!(log.iter().all(|entry| entry["recordName"] == "Xəzər"), "each entry names its record as it is now");
    for entry in &log {
        assert_eq!(entry["actorKind"], "user");
        assert_eq!(entry["actorId"], admin.id);
        assert_eq!(entry["actorName"], "Test User");
        assert_eq!(entry["resource"], "asset");
        assert_eq!(entry["recordId"], id);
    }
    assert_eq!(log[0]["changes"], Value::Null);
    assert_eq!(changes(&log[1]), json!({"name": ["Xəzər Telekom", "Xəzər"]}));
    assert_eq!(changes(&log[2]), json!({"isActive": [1, 0]}));
    assert_eq!(changes(&log[3])["deletedAt"][0], Value::Null);

    // The History tab: the same entries, newest first, for whoever may read assets.
    let call_center = app.user_with_role("cc@perk.az", 2).await;
    let history = app.get(&format!("/api/asset/{id}/history"), &call_center.token).await;
    history.expect(200);
    assert_eq!(history.json()["totalCount"], 4);
    let newest_first = history.json()["data"].as_array().unwrap().clone();
    assert_eq!(actions(&newest_first), ["delete", "statusChange", "update", "create"]);
    let paged = app.get(&format!("/api/asset/{id}/history?Skip=1&Take=1&Resource=user"), &admin.token).await;
    assert_eq!(paged.json()["data"][0]["action"], "statusChange", "the record's filters cannot be replaced");
    app.get(&format!("/api/asset/{id}/history"), "not-a-token").await.expect(401);
    // The Activity screen is the Admins'.
    app.get("/api/activity", &call_center.token).await.expect(403);
}

#[tokio::test]
async fn sign_ins_passwords_and_keys_are_recorded_and_no_secret_ever_is() {
    let app = test_app();
    let admin = app.admin().await;
    let user = app.user_with_role("rashad@perk.az", 1).await;
    app.sign_in_raw("rashad@perk.az", "Wrong-123!", "000000").await.expect(401);
    app.sign_in_raw("nobody@perk.az", "Wrong-123!", "000000").await.expect(401);
    let body = json!({"oldPassword": PASSWORD, "newPassword": "changed12", "newPasswordConfirm": "changed12"});
    app.call(Method::PUT, "/api/user/changePassword", Some(&user.token), Some(body)).await.expect(200);
    let made = app
        .call(
            Method::POST,
            "/api/apiClient",
            Some(&admin.token),
            Some(json!({"name": "Employee app", "kind": "employee-app"})),
        )
        .await;
    made.expect(201);
    let key = made.json()["key"].as_str().unwrap().to_string();
    let client = made.json()["client"]["id"].as_i64().unwrap();
    app.call(Method::PUT, "/api/apiClient/revoke", Some(&admin.token), Some(json!({"id": client}))).await.expect(200);

    let log = entries(&app, &admin.token, "Resource=user").await;
    let of_user: Vec<&Value> = log.iter().filter(|e| e["recordId"] == user.id).collect();
    let kinds: Vec<&str> = of_user.iter().map(|e| e["action"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["create", "signIn", "signInFailed", "passwordChange"]);
    assert_eq!(of_user[1]["actorId"], user.id, "a sign-in is the user's own");
    assert_eq!(of_user[2]["actorKind"], "public");
    assert_eq!(of_user[2]["actorName"], "rashad@perk.az", "a failed sign-in is named by the e-mail typed");
    assert_eq!(changes(of_user[3]), json!({"passwordHash": "changed"}));
    let unknown = log.iter().find(|e| e["actorName"] == "nobody@perk.az").unwrap();
    assert_eq!((unknown["action"].as_str(), &unknown["recordId"]), (Some("signInFailed"), &Value::Null));

    let keys = entries(&app, &admin.token, &format!("Resource=apiClient&RecordId={client}")).await;
    assert_eq!(actions(&keys), ["keyCreated", "keyRevoked"]);

    // No entry holds a password hash, a TOTP secret, a key or its hash.
    let conn = app.state.db.conn().unwrap();
    let mut secrets: Vec<String> = conn
        .prepare("SELECT password_hash FROM users UNION ALL SELECT totp_secret FROM users UNION ALL SELECT key_hash FROM api_clients")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    secrets.push(key);
    secrets.push(user.secret.clone());
    let dump: String = conn
        .query_row("SELECT group_concat(coalesce(changes, '') || actor_name, ' ') FROM activity", [], |r| r.get(0))
        .unwrap();
    for secret in secrets {
        assert!(!dump.contains(&secret), "a secret is in the log");
    }
}

#[tokio::test]
async fn the_log_has_no_write_route() {
    let app = test_app();
    let admin = app.admin().await;
    for method in [Method::POST, Method::PUT, Method::PATCH, Method::DELETE] {
        for path in ["/api/activity", "/api/activity/1", "/api/activity/active", "/api/asset/1/history"] {
            let answer = app.call(method.clone(), path, Some(&admin.token), Some(json!({"id": [1]}))).await;
            assert_eq!(answer.status.as_u16(), 405, "{method} {path}");
        }
    }
}

#[tokio::test]
async fn filters_narrow_the_list_and_the_export_is_activity_xlsx() {
    let app = test_app();
    let admin = app.admin().await;
    let other = app.user_with_role("other@perk.az", 0).await;
    for name in ["Bakı", "Gəncə"] {
        app.call(Method::POST, "/api/city", Some(&admin.token), Some(json!({"name": name}))).await;
    }
    let by_admin = entries(&app, &admin.token, &format!("UserId={}&Action=signIn", admin.id)).await;
    assert_eq!(by_admin.len(), 1);
    let by_other = entries(&app, &admin.token, &format!("UserId={}", other.id)).await;
    assert_eq!(actions(&by_other), ["signIn"]);
    let today = time::OffsetDateTime::now_utc().date();
    let all = app.get("/api/activity", &admin.token).await.json()["totalCount"].as_i64().unwrap();
    let dated = app.get(&format!("/api/activity/filter?StartDate={today}&EndDate={today}"), &admin.token).await;
    assert_eq!(dated.json()["totalCount"], all);
    let yesterday = today.previous_day().unwrap();
    let before = app.get(&format!("/api/activity/filter?EndDate={yesterday}"), &admin.token).await;
    assert_eq!(before.json()["totalCount"], 0);
    app.get("/api/activity/filter?UserId=x", &admin.token).await.expect(400);

    let export = app.get("/api/activity/export?Action=signIn", &admin.token).await;
    export.expect(200);
    assert!(export.headers["content-disposition"].to_str().unwrap().contains("Activity.xlsx"));
    let rows = workbook_rows(&export.bytes);
    assert_eq!(rows[0], ["Date", "Who", "Kind", "Resource", "Record", "Name", "Action", "Changes"]);
    assert_eq!(rows.len(), 3, "a header and the two sign-ins");
    assert_eq!(rows[1][5], "Test User", "a sign-in's record is its user, named as the Users screen names them");
}

#[tokio::test]
async fn retention_removes_only_entries_older_than_its_days() {
    let app = test_app();
    // The oldest entries first, as a log grows.
    let conn = app.state.db.conn().unwrap();
    conn.execute(
        "INSERT INTO activity (at, actor_kind, actor_name, resource, record_id, action) VALUES
         ('2020-01-01T00:00:00.000Z', 'cli', 'cli', 'asset', 1, 'create'),
         ('2020-01-02T00:00:00.000Z', 'cli', 'cli', 'asset', 1, 'update')",
        [],
    )
    .unwrap();
    let admin = app.admin().await;
    let before = app.count("SELECT COUNT(*) FROM activity");
    assert_eq!(perkdesk::db::activity::prune(&conn, 365, 1).unwrap(), 1, "in steps of the limit");
    // As the server runs it: step after step until none is left.
    assert_eq!(perkdesk::app::housekeeping::prune_activity(&app.state.db, 365).await.unwrap(), 1);
    assert_eq!(perkdesk::app::housekeeping::prune_activity(&app.state.db, 365).await.unwrap(), 0);
    assert_eq!(app.count("SELECT COUNT(*) FROM activity"), before - 2);
    let listed = app.get("/api/activity", &admin.token).await;
    assert_eq!(listed.json()["totalCount"], before - 2, "the total follows");
    assert_eq!(listed.json()["totalCount"], app.count("SELECT COUNT(*) FROM activity"));
    // Entries inside the window stay, however many steps run.
    assert_eq!(perkdesk::db::activity::prune(&conn, 1, 1).unwrap(), 0);
    assert_eq!(app.count("SELECT COUNT(*) FROM activity"), before - 2);
}

/// The History tab and the user filter read their entries from their indexes, newest first,
/// however long the log: at 60,000 entries, mostly the inbound API's.
#[test]
fn a_record_and_a_user_are_found_through_their_indexes() {
    use perkdesk::crud::{Language, ListQuery, SearchVia};
    use perkdesk::http::extract::QueryMap;
    use perkdesk::resources::activity::ACTIVITY;
    let dir = tempfile::tempdir().unwrap();
    let db = perkdesk::app::open_db(&dir.path().join("plan.db")).unwrap();
    let conn = db.conn().unwrap();
    conn.execute_batch(
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 60000)
         INSERT INTO activity (actor_kind, actor_id, actor_name, resource, record_id, action)
         SELECT CASE WHEN i % 20 = 0 THEN 'user' ELSE 'client' END, 1 + i % 7, 'W', 
                CASE WHEN i % 20 = 0 THEN 'asset' ELSE 'usageHistory' END, i / 3, 'create' FROM n;
         ANALYZE;",
    )
    .unwrap();
    for (raw, index) in [("UserId=3", "activity_user"), ("Resource=asset&RecordId=40", "activity_record")] {
        let query =
            ListQuery::parse(&ACTIVITY, &QueryMap::parse(Some(&format!("Take=10&{raw}"))), Language::En).unwrap();
        let statement = query.page_statement(&ACTIVITY, SearchVia::Index, None);
        let plan = query_plan(&conn, &statement);
        assert!(plan.contains(index) && !plan.contains("TEMP B-TREE"), "{raw}: {plan}");
    }
}

/// The entries of one record, as its History tab answers them.
async fn history_of(app: &TestApp, token: &str, resource: &str, id: i64) -> Vec<String> {
    let entries = entries(app, token, &format!("Resource={resource}&RecordId={id}")).await;
    actions(&entries).iter().map(|action| action.to_string()).collect()
}

#[tokio::test]
async fn an_export_does_not_stop_the_history_of_the_writes_after_it() {
    // An export spills its sort to disk by changing the connection's `temp_store`, which deletes
    // that connection's temporary triggers: when the log was made of them, every later write on
    // the connection went unrecorded until the server restarted.
    let app = test_app();
    let admin = app.admin().await;
    let made = app.send_form(Method::POST, "/api/asset", &admin.token, ASSET, &[("file", "logo.png", PNG)]).await;
    let id = made.expect(201).json()["id"].as_i64().unwrap();
    for path in ["/api/asset/export", "/api/user/export", "/api/activity/export"] {
        app.get(path, &admin.token).await.expect(200);
    }
    // Every pooled connection, in turn, after the exports.
    for round in 0..12 {
        let active = round % 2 == 1;
        app.call(Method::PATCH, "/api/asset/active", Some(&admin.token), Some(json!({"id": id, "isActive": active})))
            .await
            .expect(200);
    }
    app.call(Method::DELETE, "/api/asset", Some(&admin.token), Some(json!({"id": [id]}))).await.expect(200);
    let history = history_of(&app, &admin.token, "asset", id).await;
    assert_eq!(history.len(), 14, "{history:?}");
    assert_eq!(history.first().map(String::as_str), Some("create"));
    assert_eq!(history.last().map(String::as_str), Some("delete"));
    assert!(history[1..13].iter().all(|action| action == "statusChange"), "{history:?}");
}

#[tokio::test]
async fn a_connection_without_perkdesks_functions_cannot_write_a_recorded_table() {
    if sqlite_only("a second connection to the SQLite file") {
        return;
    }
    let app = test_app();
    let path = app.state.db.path().unwrap().to_path_buf();
    let bare = rusqlite::Connection::open(&path).unwrap();
    let refused = bare.execute("UPDATE cities SET name_en = 'Bakı' WHERE id = 1", []);
    let error = refused.expect_err("a write the log would not record").to_string();
    assert!(error.contains("activity_"), "{error}");
    // With perkdesk's functions (as `perkdesk sql` and a second process have them), it is recorded.
    let known = rusqlite::Connection::open(&path).unwrap();
    perkdesk::db::register_functions(&known).unwrap();
    known.execute("UPDATE cities SET name_en = 'Baku city' WHERE id = 1", []).unwrap();
    assert_eq!(
        app.count("SELECT COUNT(*) FROM activity WHERE resource = 'city' AND record_id = 1 AND action = 'update'"),
        1
    );
}

#[tokio::test]
async fn the_history_goes_on_across_a_schema_change_made_by_another_process() {
    if sqlite_only("a second connection to the SQLite file") {
        return;
    }
    let app = test_app();
    let admin = app.admin().await;
    let made = app.send_form(Method::POST, "/api/asset", &admin.token, ASSET, &[("file", "logo.png", PNG)]).await;
    let id = made.expect(201).json()["id"].as_i64().unwrap();
    let other = rusqlite::Connection::open(app.state.db.path().unwrap()).unwrap();
    other.execute_batch("CREATE TABLE scratch (a); DROP TABLE scratch;").unwrap();
    for active in [false, true, false, true, false, true, false, true, false] {
        app.call(Method::PATCH, "/api/asset/active", Some(&admin.token), Some(json!({"id": id, "isActive": active})))
            .await
            .expect(200);
    }
    assert_eq!(history_of(&app, &admin.token, "asset", id).await.len(), 10);
}

#[tokio::test]
async fn a_write_whose_entry_cannot_be_recorded_is_not_made_and_says_why() {
    let app = test_app();
    let admin = app.admin().await;
    let made = app.send_form(Method::POST, "/api/asset", &admin.token, ASSET, &[("file", "logo.png", PNG)]).await;
    let id = made.expect(201).json()["id"].as_i64().unwrap();
    // The log refuses entries from now on (as a full disk or a damaged table would).
    let refuse = if app.state.db.is_shared() {
        "CREATE FUNCTION refuse_entries() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'the activity log is out of space'; END $$;
         CREATE TRIGGER refuse_entries BEFORE INSERT ON activity FOR EACH ROW EXECUTE FUNCTION refuse_entries();"
    } else {
        "CREATE TRIGGER refuse_entries BEFORE INSERT ON activity BEGIN SELECT RAISE(ABORT, 'the activity log is out of space'); END;"
    };
    app.state.db.conn().unwrap().execute_batch(refuse).unwrap();
    let refused = app
        .call(Method::PATCH, "/api/asset/active", Some(&admin.token), Some(json!({"id": id, "isActive": false})))
        .await;
    refused.expect_message(503, perkdesk::core::error::NOT_RECORDED);
    assert_eq!(
        app.count(&format!("SELECT COUNT(*) FROM assets WHERE id = {id} AND is_active = 1")),
        1,
        "nothing was changed"
    );
}
