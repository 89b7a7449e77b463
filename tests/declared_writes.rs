//! Table-driven over every declared write (`resources::declared_writes`): each required field
//! missing answers its own message, each format rule refuses with its message, an empty form
//! names every required field, a taken unique value is a 409 on its field, and a role the route
//! does not document is refused before the form is read.

use crate::common;

use common::{TestApp, test_app};
use perkdesk::core::error::FORBIDDEN;
use perkdesk::crud::writes::{DeclaredWrite, Mode};
use serde_json::{Map, Value};

/// An id no row has: an edit's form is checked before its row is looked up.
const NO_SUCH_ID: &str = "987654";

/// Sends `fields` as the write's body (multipart or a JSON object of texts), with the id an edit
/// needs (one no row has, unless the fields name one).
async fn send(app: &TestApp, token: &str, write: &DeclaredWrite, fields: &[(&str, String)]) -> common::Response {
    send_with_image(app, token, write, fields, false).await
}

async fn send_with_image(
    app: &TestApp,
    token: &str,
    write: &DeclaredWrite,
    fields: &[(&str, String)],
    image: bool,
) -> common::Response {
    let mut fields: Vec<(&str, String)> = fields.to_vec();
    if write.mode == Mode::Update && !fields.iter().any(|(name, _)| *name == "id") {
        fields.insert(0, ("id", NO_SUCH_ID.to_string()));
    }
    if write.multipart {
        let texts: Vec<(&str, &str)> = fields.iter().map(|(name, value)| (*name, value.as_str())).collect();
        let name = write.form.image.as_ref().map_or("file", |image| image.names[0]);
        let files: &[(&str, &str, &[u8])] = if image { &[(name, "logo.png", common::PNG)] } else { &[] };
        app.send_form(write.method.clone(), &write.path, token, &texts, files).await
    } else {
        let object: Map<String, Value> = fields
            .iter()
            .map(|(name, value)| {
                let value = match value.parse::<i64>() {
                    Ok(number) if *name == "id" || name.ends_with("Id") => Value::from(number),
                    _ => Value::from(value.as_str()),
                };
                (name.to_string(), value)
            })
            .collect();
        app.call(write.method.clone(), &write.path, Some(token), Some(Value::Object(object))).await
    }
}

/// Every field the write reads, with a value its rules accept (e-mails told apart by `n`), and
/// the fields beyond the declaration it needs (`links`: a row the write points to).
fn valid(write: &DeclaredWrite, n: usize, links: &[(&str, &'static str, String)]) -> Vec<(&'static str, String)> {
    let linked = links.iter().filter(|(path, ..)| *path == write.path).map(|(_, name, value)| (*name, value.clone()));
    write
        .form
        .fields
        .iter()
        .filter(|field| field.read_on(write.mode))
        .map(|field| {
            let example = field.example();
            let value = if example.contains('@') { format!("w{n}.{example}") } else { example.to_string() };
            (field.name, value)
        })
        .chain(linked)
        .collect()
}

fn error_of(answer: &common::Response, field: &str) -> String {
    answer.json()["errors"][field].as_str().unwrap_or_default().to_string()
}

#[tokio::test]
async fn every_declared_write_enforces_its_declaration() {
    let app = test_app();
    let admin = app.admin().await;
    let others = [app.user_with_role("user@perk.az", 1).await, app.user_with_role("callcenter@perk.az", 2).await];
    let access = perkdesk::app::api().access();
    let writes = perkdesk::resources::declared_writes();
    // Rows that writes point to: an HR account's asset, a merchant's partner and branch, a
    // notification's category.
    let asset =
        perkdesk::resources::assets::ASSET_FORM.fields.iter().map(|f| (f.name, f.example())).collect::<Vec<_>>();
    let asset_id = app
        .send_form(axum::http::Method::POST, "/api/asset", &admin.token, &asset, &[("file", "logo.png", common::PNG)])
        .await
        .expect(201)
        .json()["id"]
        .to_string();
    let partner = [
        ("name", "Araz"),
        ("contactPersonFirstName", "Elvin"),
        ("contactPersonLastName", "Məmmədov"),
        ("phoneNumber", "994501234567"),
        ("email", "araz@perk.az"),
        ("Cities[0].CityId", "1"),
        ("Cities[0].Address", "Nizami küçəsi 10"),
        ("Cities[0].Latitude", "40.4"),
        ("Cities[0].Longitude", "49.8"),
    ];
    let partner_id = app
        .send_form(axum::http::Method::POST, "/api/partner", &admin.token, &partner, &[])
        .await
        .expect(201)
        .json()["id"]
        .to_string();
    let branch_id = app.count("SELECT MAX(id) FROM partner_cities").to_string();
    let category = [("nameAz", "Qida"), ("nameEn", "Food"), ("nameRu", "Еда")];
    let category_id = app
        .send_form(axum::http::Method::POST, "/api/campaign/category", &admin.token, &category, &[])
        .await
        .expect(201)
        .json()["id"]
        .to_string();
    let links = [
        ("/api/humanResource", "assetId", asset_id),
        ("/api/partner/merchant", "partnerId", partner_id),
        ("/api/partner/merchant", "partnerCityId", branch_id),
        ("/api/notification", "type", "1".to_string()),
        ("/api/notification", "categoryId", category_id),
        ("/api/partner", "Cities[0].CityId", "1".to_string()),
        ("/api/partner", "Cities[0].Address", "Nizami küçəsi 10".to_string()),
        ("/api/partner", "Cities[0].Latitude", "40.4".to_string()),
        ("/api/partner", "Cities[0].Longitude", "49.8".to_string()),
    ];
    // The last row each resource's valid create wrote, which its edit then changes; employees
    // arrive through the app and the import, so the one to edit is written here.
    let mut created = std::collections::HashMap::new();
    app.state
        .db
        .conn()
        .unwrap()
        .execute(
            "INSERT INTO employees (asset_id, first_name, last_name, email, phone) VALUES (?1, 'Aysel', 'Quliyeva', 'aysel@perk.az', '994501234567')",
            [links[0].2.parse::<i64>().unwrap()],
        )
        .unwrap();
    created.insert("employee", app.count("SELECT MAX(id) FROM employees").to_string());
    assert!(writes.len() >= 8, "only {} declared writes", writes.len());

    for (n, write) in writes.iter().enumerate() {
        let at = format!("{} {}", write.method, write.path);
        let documented = access
            .iter()
            .find(|a| a.method == write.method && a.path.eq_ignore_ascii_case(&write.path))
            .unwrap_or_else(|| panic!("{at} is not a route"));
        let roles = documented.roles.clone().unwrap_or_else(|| panic!("{at} documents no roles"));

        // A role the route does not document is refused, whatever the form holds.
        for (other, name) in others.iter().zip(["User", "Call Center"]) {
            if !roles.contains(&name) {
                send(&app, &other.token, write, &valid(write, n, &links)).await.expect_message(403, FORBIDDEN);
            }
        }

        // An empty form names every required field with its message.
        let empty = send(&app, &admin.token, write, &[]).await;
        empty.expect(400);
        let required: Vec<_> =
            write.form.fields.iter().filter_map(|f| Some((f.name, f.required_on(write.mode)?))).collect();
        // (A write whose own parts are checked first leads with their message.)
        if !links.iter().any(|(path, ..)| *path == write.path) {
            assert_eq!(empty.message(), required.first().map(|(_, m)| *m).unwrap_or_default(), "{at}");
        }
        for (field, message) in &required {
            assert_eq!(error_of(&empty, field), *message, "{at}: {field} when the form is empty");
        }

        for field in write.form.fields.iter().filter(|f| f.read_on(write.mode)) {
            // Only this field missing: its own message leads.
            if let Some(message) = field.required_on(write.mode) {
                let without: Vec<_> =
                    valid(write, n, &links).into_iter().filter(|(name, _)| *name != field.name).collect();
                send(&app, &admin.token, write, &without).await.expect_message(400, message);
                let blank: Vec<_> = valid(write, n, &links)
                    .into_iter()
                    .map(|(name, value)| if name == field.name { (name, "   ".to_string()) } else { (name, value) })
                    .collect();
                send(&app, &admin.token, write, &blank).await.expect_message(400, message);
            }
            // Only this field malformed: its format rule's message leads.
            if let Some((refused, message)) = field.refused_example() {
                let malformed: Vec<_> = valid(write, n, &links)
                    .into_iter()
                    .map(|(name, value)| if name == field.name { (name, refused.to_string()) } else { (name, value) })
                    .collect();
                let answer = send(&app, &admin.token, write, &malformed).await;
                answer.expect_message(400, message);
                assert_eq!(error_of(&answer, field.name), message, "{at}: {}", field.name);
            }
        }

        // A valid write succeeds: a create answers 201 with the row, an edit of that row 200.
        match write.mode {
            Mode::Create => {
                let answer = send_with_image(&app, &admin.token, write, &valid(write, n, &links), true).await;
                answer.expect(201);
                created.insert(write.form.resource.path, answer.json()["id"].to_string());
            }
            Mode::Update => {
                let id = created.get(write.form.resource.path).unwrap_or_else(|| panic!("{at}: no row to edit"));
                let mut fields = valid(write, 2000 + n, &links);
                fields.insert(0, ("id", id.clone()));
                let answer = send(&app, &admin.token, write, &fields).await;
                answer.expect(200);
                let first = write.form.fields.iter().find(|f| f.read_on(Mode::Update) && f.column.is_some());
                if let Some(field) = first {
                    let value = fields.iter().find(|(name, _)| *name == field.name).map(|(_, v)| v.as_str());
                    assert_eq!(answer.json()[field.name].as_str(), value, "{at}: {} written", field.name);
                }
            }
        }

        // A taken unique value: the second create is a 409 on the field, nothing written twice.
        if write.mode == Mode::Create {
            for field in write.form.fields.iter().filter(|f| f.unique.is_some()) {
                let fields = valid(write, 1000 + n, &links);
                send_with_image(&app, &admin.token, write, &fields, true).await.expect(201);
                let answer = send_with_image(&app, &admin.token, write, &fields, true).await;
                answer.expect_message(409, field.unique.unwrap_or_default());
                assert_eq!(error_of(&answer, field.name), field.unique.unwrap_or_default(), "{at}");
            }
        }
    }
}

/// The columns `columns` of `table` can be read: each is a column of the table on this engine.
fn assert_columns(conn: &perkdesk::db::sql::Connection, table: &str, columns: &[&str]) {
    let sql = format!("SELECT {} FROM {table} WHERE 1 = 0", columns.join(", "));
    if let Err(error) = conn.prepare(&sql) {
        panic!("{table} has not every column a declaration names ({}): {error}", columns.join(", "));
    }
}

/// Every column a declared form names (its fields', its image's, its computed ones, its child
/// tables') is a column of its table: the statements made from a declaration name no column the
/// schema lacks, on either engine.
#[tokio::test]
async fn every_declared_column_is_a_column_of_its_table() {
    let app = test_app();
    let conn = app.state.db.conn().unwrap();
    let forms: Vec<_> =
        perkdesk::resources::write_forms().into_iter().chain(perkdesk::inbound::write_forms()).collect();
    assert!(forms.len() >= 17, "only {} declared forms", forms.len());
    for form in forms {
        let mut columns: Vec<&str> = form.fields.iter().filter_map(|field| field.column).collect();
        columns.extend(form.image.iter().map(|image| image.column));
        columns.extend(form.computed);
        assert_columns(&conn, form.table, &columns);
        for children in form.children {
            let columns: Vec<&str> = std::iter::once(children.parent).chain(children.columns.iter().copied()).collect();
            assert_columns(&conn, children.table, &columns);
        }
    }
}
