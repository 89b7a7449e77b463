//! The OpenAPI document says what the server does: statuses with the error schema, the bearer
//! scheme, paging ranges, delete lists, the image route. schemathesis (scripts/schemathesis)
//! checks the whole surface against the running binary; these are the document's fixed points.

use crate::common;

use axum::http::Method;
use common::*;
use serde_json::Value;

async fn document(app: &TestApp) -> Value {
    let response = app.call(Method::GET, "/api/openapi.json", None, None).await;
    response.expect(200);
    response.json()
}

fn operations(doc: &Value) -> Vec<(String, String, &Value)> {
    let mut found = Vec::new();
    for (path, item) in doc["paths"].as_object().expect("paths") {
        for (method, operation) in item.as_object().expect("path item") {
            found.push((method.to_uppercase(), path.clone(), operation));
        }
    }
    found
}

#[tokio::test]
async fn every_refusal_is_documented_with_the_error_schema() {
    let app = test_app();
    let doc = document(&app).await;
    assert_eq!(doc["components"]["securitySchemes"]["bearer"]["scheme"], "bearer");
    assert_eq!(doc["components"]["schemas"]["Error"]["required"], serde_json::json!(["message"]));
    for (method, path, operation) in operations(&doc) {
        let responses = operation["responses"].as_object().expect("responses");
        for (status, response) in responses {
            if status.starts_with('2') {
                continue;
            }
            if status == "304" {
                // A list's revalidation: no body, and the request's If-None-Match header beside it.
                assert!(response.get("content").is_none(), "{method} {path} 304 has no body");
                let asks = operation["parameters"].as_array().into_iter().flatten();
                assert!(
                    asks.filter(|p| p["in"] == "header").any(|p| p["name"] == "If-None-Match"),
                    "{method} {path}: 304 without If-None-Match"
                );
                continue;
            }
            assert_eq!(
                response["content"]["application/json"]["schema"]["$ref"], "#/components/schemas/Error",
                "{method} {path} {status}"
            );
        }
        if operation.get("security").is_some() {
            for status in ["401", "403"] {
                assert!(responses.contains_key(status), "{method} {path} lacks {status}");
            }
        }
        if operation.get("requestBody").is_some() {
            for status in ["400", "413", "415"] {
                assert!(responses.contains_key(status), "{method} {path} lacks {status}");
            }
        }
        if ["POST", "PUT", "PATCH", "DELETE"].contains(&method.as_str()) {
            let header = operation["parameters"]
                .as_array()
                .and_then(|params| params.iter().find(|p| p["name"] == "x-requestid"))
                .unwrap_or_else(|| panic!("{method} {path} lacks x-requestid"));
            assert_eq!(header["in"], "header");
            assert_eq!(header["schema"]["maxLength"], 100);
            for status in ["400", "409", "422"] {
                assert!(responses.contains_key(status), "{method} {path} lacks {status}");
            }
        }
    }
}

#[tokio::test]
async fn lists_document_their_paging_ranges_and_deletes_at_least_one_id() {
    let app = test_app();
    let doc = document(&app).await;
    let list = &doc["paths"]["/api/user/filter"]["get"];
    let param = |name: &str| {
        list["parameters"].as_array().unwrap().iter().find(|p| p["name"] == name).cloned().unwrap_or(Value::Null)
    };
    assert_eq!(param("Skip")["schema"]["anyOf"][0]["minimum"], 0);
    assert_eq!(param("Take")["schema"]["anyOf"][0]["minimum"], 1);
    assert_eq!(param("Take")["schema"]["anyOf"][0]["maximum"], 100);
    // A number with white space around it, which the query's trimming reads as the number
    // (`Take=%0D+4` is 4): the range's plain numbers, no fraction.
    let padded = param("Take")["schema"]["anyOf"][1]["pattern"].as_str().unwrap_or_default().to_string();
    assert!(padded.contains("[1-9]") && !padded.contains(r"\.0"), "padded Take pattern: {padded}");
    let sort = param("SortField")["schema"]["pattern"].as_str().unwrap_or_default().to_string();
    assert!(sort.contains("[eE][mM][aA][iI][lL]"), "{sort}");
    let delete = &doc["paths"]["/api/user"]["delete"]["requestBody"]["content"]["application/json"]["schema"];
    for variant in delete["oneOf"].as_array().expect("oneOf") {
        let ids = match variant["properties"].as_object() {
            Some(keyed) => keyed.values().next().cloned().unwrap_or_default(),
            None => variant.clone(),
        };
        assert_eq!(ids["minItems"], 1, "{variant}");
        assert_eq!(ids["maxItems"], 1000, "{variant}");
    }
    // And the server answers what the document says.
    let admin = app.admin().await;
    app.get("/api/user/filter?Take=0", &admin.token).await.expect(400);
    app.get("/api/user/filter?Take=100&Skip=0&SortField=EMAIL&OrderBy=TRUE", &admin.token).await.expect(200);
    app.get("/api/user/filter?Skip=&Take=", &admin.token).await.expect(200);
    app.get("/api/user/filter?Skip=%09&Take=%0D+4", &admin.token).await.expect(200);
    app.call(Method::DELETE, "/api/user", Some(&admin.token), Some(serde_json::json!({"id": []}))).await.expect(400);
}

#[tokio::test]
async fn the_image_route_answers_images_or_json_404s() {
    let app = test_app();
    let doc = document(&app).await;
    let cdn = &doc["paths"]["/cdn/{file}"]["get"];
    assert_eq!(cdn["parameters"][0]["schema"]["type"], "string");
    assert!(cdn["responses"]["200"]["content"]["image/*"].is_object());
    assert_eq!(cdn["responses"]["404"]["content"]["application/json"]["schema"]["$ref"], "#/components/schemas/Error");
    let missing = app.call(Method::GET, "/cdn/nothing.png", None, None).await;
    missing.expect_message(404, "Image not found.");
    assert_eq!(missing.headers["content-type"], "application/json");
}

#[tokio::test]
async fn multipart_image_parts_name_the_image_media_types() {
    let app = test_app();
    let doc = document(&app).await;
    let body = &doc["paths"]["/api/asset"]["post"]["requestBody"]["content"]["multipart/form-data"];
    assert_eq!(body["encoding"]["file"]["contentType"], "image/png, image/jpeg, image/webp, image/gif");
    assert_eq!(body["schema"]["properties"]["file"]["format"], "binary");
    let required = body["schema"]["required"].as_array().expect("required");
    for field in ["name", "contactPerson", "phoneNumber", "email", "barcodePrefix", "file"] {
        assert!(required.iter().any(|r| r == field), "{field}");
    }
}

#[tokio::test]
async fn integral_numbers_are_integers() {
    // JSON has one number type: 2.0 is the integer 2 to every schema validator.
    let app = test_app();
    let admin = app.admin().await;
    let created = app
        .call(
            Method::POST,
            "/api/user/register",
            Some(&admin.token),
            Some(serde_json::json!({
                "firstName": "Aysel", "lastName": "Quliyeva", "email": "aysel@perk.az",
                "password": "Strong-pass1", "roleId": 2.0
            })),
        )
        .await;
    created.expect(201);
    assert_eq!(created.json()["roleId"], 2);
}

/// The panel translates every refusal it can be sent: the document lists those texts (people) apart
/// from the ones only machines meet, each once, and what the server sends is among them.
#[tokio::test]
async fn refusal_texts_are_listed_by_who_reads_them() {
    let app = test_app();
    let doc = document(&app).await;
    let texts = |audience: &str| -> Vec<String> {
        doc["x-refusals"][audience]
            .as_array()
            .expect(audience)
            .iter()
            .map(|t| t.as_str().unwrap().to_string())
            .collect()
    };
    let (people, machines) = (texts("people"), texts("machines"));
    let mut sorted = people.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted, people, "people's texts are listed once each, sorted");
    assert!(people.iter().all(|text| !machines.contains(text)), "a text is for people or for machines");
    for text in [
        "A category that still has campaigns cannot be deleted. Move its campaigns to another category or delete them first.",
        "You cannot delete your own account.",
        "{kind} not found.",
        "{kind} «{label}» cannot be restored while its {parent} is deleted: restore the {parent} first.",
        "Campaign category",
        "city branch",
        "Something went wrong on our side. Please try again.",
    ] {
        assert!(people.contains(&text.to_string()), "people read {text}");
    }
    for text in ["The API key is not valid.", "No employee has this e-mail.", "'{raw}' is not a valid id."] {
        assert!(machines.contains(&text.to_string()), "machines read {text}");
    }

    // What a refusal sends is a listed text, or a listed template filled in.
    let admin = app.admin().await;
    let own =
        app.call(Method::DELETE, "/api/user", Some(&admin.token), Some(serde_json::json!({"id": [admin.id]}))).await;
    own.expect(409);
    assert!(people.contains(&own.message()));
    let missing = app.call(Method::GET, "/api/user/999999", Some(&admin.token), None).await;
    missing.expect_message(404, "User not found.");
    assert!(perkdesk::core::refusals::fills("{kind} not found.", &missing.message()));
}

#[tokio::test]
async fn bodies_say_what_they_are_and_date_fields_their_format() {
    let app = test_app();
    let doc = document(&app).await;
    let body = |method: &str, path: &str, content: &str| {
        doc["paths"][path][method]["requestBody"]["content"][content]["schema"].clone()
    };
    let restore = body("put", "/api/trash/restore", "application/json");
    assert!(restore["description"].as_str().unwrap().contains("to restore"), "{restore}");
    let purge = body("delete", "/api/trash", "application/json");
    assert!(purge["description"].as_str().unwrap().contains("to delete for good"), "{purge}");
    for (method, path) in
        [("post", "/api/campaign"), ("put", "/api/campaign"), ("post", "/api/partner-portal/campaigns")]
    {
        let form = body(method, path, "multipart/form-data");
        for field in ["startDate", "expireDate"] {
            let described = form["properties"][field]["description"].as_str().unwrap_or_default();
            assert!(
                described.contains("yyyy-MM-dd") && described.contains("ISO 8601"),
                "{method} {path} {field}: {described}"
            );
        }
    }
    let notification = body("post", "/api/notification", "multipart/form-data");
    let category = notification["properties"]["categoryId"].to_string();
    assert!(category.contains("ignored when type is 2"), "{category}");
}

/// The document is the same bytes however its hash maps iterate: a property's extensions
/// (a campaign's `assets`: `x-messages` and `x-repeated`) come in name order.
#[test]
fn the_document_is_written_the_same_every_time() {
    let written = || {
        let (_, document, _) = perkdesk::app::api().into_parts();
        perkdesk::http::api::document_json(&document, false).unwrap()
    };
    let first = written();
    for _ in 0..4 {
        assert_eq!(written(), first);
    }
    let document: Value = serde_json::from_str(&first).unwrap();
    let assets = &document["paths"]["/api/campaign"]["post"]["requestBody"]["content"]["multipart/form-data"]["schema"];
    let text = assets.to_string();
    let (messages, repeated) = (text.find("\"x-messages\""), text.find("\"x-repeated\""));
    assert!(messages.is_some() && repeated.is_some() && messages < repeated, "{text}");
}
