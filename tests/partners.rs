//! Partners: multipart create and edit with city rows in one transaction, promo-code rules.

use crate::common;

use axum::http::Method;
use common::*;
use serde_json::Value;

const BASE: &[(&str, &str)] = &[
    ("name", "Dadlı Market"),
    ("contactPersonFirstName", "Elvin"),
    ("contactPersonLastName", "Quliyev"),
    ("phoneNumber", "994551234567"),
    ("email", "info@dadli.az"),
];

fn form<'a>(extra: &[(&'a str, &'a str)]) -> Vec<(&'a str, &'a str)> {
    let mut fields: Vec<(&str, &str)> = BASE.to_vec();
    for (key, value) in extra {
        fields.retain(|(k, _)| k != key);
        fields.push((key, value));
    }
    fields
}

const TWO_CITIES: &[(&str, &str)] = &[
    ("Cities[0].CityId", "1"),
    ("Cities[0].Address", "Nizami küç. 52"),
    ("Cities[0].Latitude", "40.3725"),
    ("Cities[0].Longitude", "49.8433"),
    ("Cities[1].CityId", "2"),
    ("Cities[1].Address", "Cavadxan küç. 21"),
    ("Cities[1].Latitude", "40.6828"),
    ("Cities[1].Longitude", "46.3606"),
];

async fn create(app: &TestApp, token: &str) -> Value {
    let fields = form(&[TWO_CITIES, &[("isPromoCodeUsing", "true"), ("promoCodeVersion", "1")]].concat());
    let response = app.send_form(Method::POST, "/api/partner", token, &fields, &[("file", "logo.png", PNG)]).await;
    response.expect(201);
    response.json()
}

#[tokio::test]
async fn create_with_branches_and_read_them() {
    let app = test_app();
    let admin = app.admin().await;
    let partner = create(&app, &admin.token).await;
    assert_eq!(partner["contactPerson"], "Elvin Quliyev");
    assert_eq!(partner["isPromoCodeUsing"], true);
    assert_eq!(partner["promoCodeVersion"], 1);
    assert_eq!(partner["promoCode"], "Bəli");
    let cities = partner["cities"].as_array().unwrap();
    assert_eq!(cities.len(), 2);
    assert_eq!(cities[0]["cityName"], "Bakı");
    assert_eq!(cities[1]["latitude"], 40.6828);
    let id = partner["id"].as_i64().unwrap();
    let english = app
        .call_with(
            Method::GET,
            &format!("/api/partner/cities/{id}"),
            Some(&admin.token),
            None,
            &[("accept-language", "2")],
        )
        .await;
    english.expect(200);
    assert_eq!(english.json()["totalCount"], 2);
    assert_eq!(english.json()["data"][0]["cityName"], "Baku");
    app.get("/api/partner/cities/999", &admin.token).await.expect_message(404, "Partner not found.");
    // The contact person may also arrive as one field.
    let whole = [
        &BASE[..1],
        &[("contactPerson", "Leyla Abbasova"), ("phoneNumber", "994551234567"), ("email", "l@araz.az")],
        &TWO_CITIES[..4],
    ]
    .concat();
    let created = app.send_form(Method::POST, "/api/partner", &admin.token, &whole, &[]).await;
    created.expect(201);
    assert_eq!(created.json()["contactPersonLastName"], "Abbasova");
    assert_eq!(created.json()["promoCode"], "Xeyr");
    assert_eq!(created.json()["filePath"], Value::Null, "the image is optional; clients show the default logo");
}

#[tokio::test]
async fn create_validation_messages() {
    let app = test_app();
    let admin = app.admin().await;
    type Case<'a> = (Vec<(&'a str, &'a str)>, &'a str, &'a str);
    let cases: Vec<Case> = vec![
        (form(&[("name", "")]), "name", "Name is required"),
        (form(&[("contactPersonFirstName", "")]), "contactPersonFirstName", "Contact person firstname is required"),
        (form(&[("contactPersonLastName", "")]), "contactPersonLastName", "Contact person lastname is required"),
        (form(&[("phoneNumber", "")]), "phoneNumber", "Phone number is required"),
        (form(&[("email", "info")]), "email", "Wrong email format. E.g. name@example.com"),
        (form(&[]), "cityId", "Cities is required"),
        (
            form(&[("Cities[0].CityId", "1"), ("Cities[0].Address", "Nizami 5")]),
            "cities[0].address",
            "Address, Latitude and Longitude fields are required.",
        ),
        (
            form(&[("Cities[0].Address", "Nizami 5"), ("Cities[0].Latitude", "40"), ("Cities[0].Longitude", "49")]),
            "cities[0].cityId",
            "Cities is required",
        ),
        (
            form(&[
                ("Cities[0].CityId", "1"),
                ("Cities[0].Address", "Nizami 5"),
                ("Cities[0].Latitude", "91"),
                ("Cities[0].Longitude", "49"),
            ]),
            "cities[0].latitude",
            "Latitude must be a number between -90 and 90.",
        ),
        (
            form(&[
                ("Cities[0].CityId", "1"),
                ("Cities[0].Address", "Nizami 5"),
                ("Cities[0].Latitude", "40"),
                ("Cities[0].Longitude", "east"),
            ]),
            "cities[0].longitude",
            "Longitude must be a number between -180 and 180.",
        ),
        (
            form(&[TWO_CITIES, &[("isPromoCodeUsing", "true")]].concat()),
            "promoCodeVersion",
            "Choose the promo code version: Integration (1) or Static (2).",
        ),
        (
            form(&[TWO_CITIES, &[("isPromoCodeUsing", "true"), ("promoCodeVersion", "3")]].concat()),
            "promoCodeVersion",
            "Choose the promo code version: Integration (1) or Static (2).",
        ),
    ];
    for (fields, field, message) in cases {
        let response = app.send_form(Method::POST, "/api/partner", &admin.token, &fields, &[]).await;
        response.expect(400);
        assert_eq!(response.json()["errors"][field], message, "{field}: {}", response.message());
    }
    let unknown_city = form(&[
        ("Cities[0].CityId", "99"),
        ("Cities[0].Address", "X"),
        ("Cities[0].Latitude", "40"),
        ("Cities[0].Longitude", "49"),
    ]);
    app.send_form(Method::POST, "/api/partner", &admin.token, &unknown_city, &[])
        .await
        .expect_message(404, "There is no city with id 99.");
    assert_eq!(app.count("SELECT COUNT(*) FROM partners"), 0);
    assert_eq!(app.count("SELECT COUNT(*) FROM partner_cities"), 0);
}

#[tokio::test]
async fn edit_adds_edits_and_removes_branches_in_one_transaction() {
    let app = test_app();
    let admin = app.admin().await;
    let partner = create(&app, &admin.token).await;
    let id = partner["id"].to_string();
    let first = partner["cities"][0]["id"].to_string();
    let second = partner["cities"][1]["id"].to_string();
    let other = create(&app, &admin.token).await;
    let foreign = other["cities"][0]["id"].to_string();

    // A row of another partner makes the whole edit fail: nothing changes.
    let bad = form(&[
        ("id", id.as_str()),
        ("name", "Renamed"),
        ("Cities[0].Id", foreign.as_str()),
        ("Cities[0].CityId", "3"),
        ("Cities[0].Address", "X"),
        ("Cities[0].Latitude", "40"),
        ("Cities[0].Longitude", "49"),
        ("deletedCities[0]", second.as_str()),
    ]);
    let refused = app.send_form(Method::PUT, "/api/partner", &admin.token, &bad, &[]).await;
    refused.expect(404);
    assert!(refused.message().ends_with("does not belong to this partner."), "{}", refused.message());
    let unchanged = app.get(&format!("/api/partner/{id}"), &admin.token).await.json();
    assert_eq!(unchanged["name"], "Dadlı Market");
    assert_eq!(unchanged["cities"].as_array().unwrap().len(), 2);

    // A row's id that is no 64-bit id, 0 or blank (`null`, what a careless client's FormData makes
    // of a missing value, other text, a fraction, a negative or a too large number) names no row:
    // refused on its field, not read as a new branch.
    for sent in ["null", "abc", "1.5", "-1", "17972448773224928378880"] {
        let bad = form(&[
            ("id", id.as_str()),
            ("Cities[0].Id", sent),
            ("Cities[0].CityId", "3"),
            ("Cities[0].Address", "X"),
            ("Cities[0].Latitude", "40"),
            ("Cities[0].Longitude", "49"),
        ]);
        let refused = app.send_form(Method::PUT, "/api/partner", &admin.token, &bad, &[]).await;
        refused.expect(400);
        assert_eq!(
            refused.json()["errors"]["cities[0].id"],
            "A branch's Id must be a whole number: its row's id, or 0 or blank for a new branch.",
            "{sent}: {}",
            refused.json()
        );
    }
    assert_eq!(
        app.get(&format!("/api/partner/{id}"), &admin.token).await.json()["cities"].as_array().unwrap().len(),
        2
    );

    let edit = form(&[
        ("id", id.as_str()),
        ("isPromoCodeUsing", "false"),
        ("promoCodeVersion", "2"),
        ("Cities[0].Id", first.as_str()),
        ("Cities[0].CityId", "1"),
        ("Cities[0].Address", "Nizami küç. 60"),
        ("Cities[0].Latitude", "40.3730"),
        ("Cities[0].Longitude", "49.8440"),
        ("Cities[1].Id", "0"),
        ("Cities[1].CityId", "6"),
        ("Cities[1].Address", "M.F. Axundzadə küç. 17"),
        ("Cities[1].Latitude", "41,1975"),
        ("Cities[1].Longitude", "47.1706"),
        ("deletedCities[0]", second.as_str()),
    ]);
    let edited = app.send_form(Method::PUT, "/api/partner", &admin.token, &edit, &[]).await;
    edited.expect(200);
    let edited = edited.json();
    assert_eq!(edited["isPromoCodeUsing"], false);
    assert_eq!(edited["promoCodeVersion"], Value::Null, "turning promo codes off clears the version");
    assert_eq!(edited["filePath"], partner["filePath"], "the image stays");
    let cities = edited["cities"].as_array().unwrap();
    assert_eq!(cities.len(), 2);
    assert_eq!(cities[0]["address"], "Nizami küç. 60");
    assert_eq!(cities[1]["cityName"], "Şəki");
    assert_eq!(cities[1]["latitude"], 41.1975);
    assert_eq!(
        app.count(&format!("SELECT COUNT(*) FROM partner_cities WHERE id = {second} AND deleted_at IS NOT NULL")),
        1
    );

    let missing = form(&[("id", "999")]);
    app.send_form(Method::PUT, "/api/partner", &admin.token, &missing, &[])
        .await
        .expect_message(404, "Partner not found.");
}

#[tokio::test]
async fn edit_never_leaves_a_partner_without_branches() {
    let app = test_app();
    let admin = app.admin().await;
    let partner = create(&app, &admin.token).await;
    let id = partner["id"].to_string();
    let first = partner["cities"][0]["id"].to_string();
    let second = partner["cities"][1]["id"].to_string();

    let remove_all =
        form(&[("id", id.as_str()), ("deletedCities[0]", first.as_str()), ("deletedCities[1]", second.as_str())]);
    let refused = app.send_form(Method::PUT, "/api/partner", &admin.token, &remove_all, &[]).await;
    refused.expect_message(409, "Cities is required");
    assert_eq!(refused.json()["errors"]["cityId"], "Cities is required");
    assert_eq!(
        app.count(&format!("SELECT COUNT(*) FROM partner_cities WHERE partner_id = {id} AND deleted_at IS NULL")),
        2,
        "the refused edit removed nothing"
    );

    // Removing one row while keeping the other is fine.
    let remove_one = form(&[("id", id.as_str()), ("deletedCities[0]", second.as_str())]);
    let edited = app.send_form(Method::PUT, "/api/partner", &admin.token, &remove_one, &[]).await;
    edited.expect(200);
    assert_eq!(edited.json()["cities"].as_array().unwrap().len(), 1);
}
