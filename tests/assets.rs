//! Assets: multipart create and edit with images, their checks, and the image route.

use crate::common;

use axum::http::Method;
use common::*;

const FIELDS: &[(&str, &str)] = &[
    ("name", "Xəzər Telekom"),
    ("contactPerson", "Nigar Həsənova"),
    ("phoneNumber", "994501234567"),
    ("email", "nigar@xezer.az"),
    ("barcodePrefix", "XT1"),
];

fn with(field: &str, value: &'static str) -> Vec<(&'static str, &'static str)> {
    FIELDS.iter().map(|(k, v)| if *k == field { (*k, value) } else { (*k, *v) }).collect()
}

#[tokio::test]
async fn create_with_an_image_and_serve_it() {
    let app = test_app();
    let admin = app.admin().await;
    let created = app.send_form(Method::POST, "/api/asset", &admin.token, FIELDS, &[("file", "logo.png", PNG)]).await;
    created.expect(201);
    let asset = created.json();
    assert_eq!(asset["name"], "Xəzər Telekom");
    assert_eq!(asset["contactPersonPhoneNumber"], "994501234567");
    assert_eq!(asset["barcodePrefix"], "XT1");
    let path = asset["filePath"].as_str().unwrap().to_string();
    assert!(path.starts_with("cdn/") && path.ends_with(".png"), "{path}");

    let image = app.call(Method::GET, &format!("/{path}"), None, None).await;
    image.expect(200);
    assert_eq!(image.bytes, PNG);
    assert_eq!(image.headers["content-type"], "image/png");
    assert_eq!(image.headers["cache-control"], "public, max-age=31536000, immutable");
    let etag = image.headers["etag"].to_str().unwrap().to_string();
    let again = app.call_with(Method::GET, &format!("/{path}"), None, None, &[("if-none-match", &etag)]).await;
    again.expect(304);
    app.call(Method::GET, "/cdn/999.png", None, None).await.expect(404);
    app.call(Method::GET, &format!("/{}", path.replace(".png", ".gif")), None, None).await.expect(404);
    let listed = app.get("/api/asset?Skip=0&Take=10", &admin.token).await;
    assert_eq!(listed.json()["data"][0]["filePath"], path.as_str());
}

#[tokio::test]
async fn create_validation_messages() {
    let app = test_app();
    let admin = app.admin().await;
    let cases = [
        ("name", "", "Name is required"),
        ("contactPerson", "", "Contact person is required"),
        ("phoneNumber", "", "Phone number is required"),
        ("phoneNumber", "0501234567", "Wrong phone format. E.g. 994501234567"),
        ("email", "", "Email is required"),
        ("email", "nigar", "Wrong email format. E.g. name@example.com"),
        ("barcodePrefix", "", "Barcode is required"),
        ("barcodePrefix", "ABCD", "Barcode must consist of max 3 letter or number"),
        ("barcodePrefix", "A-1", "Barcode must consist of max 3 letter or number"),
    ];
    for (field, value, message) in cases {
        let response = app
            .send_form(Method::POST, "/api/asset", &admin.token, &with(field, value), &[("file", "logo.png", PNG)])
            .await;
        response.expect_message(400, message);
        assert_eq!(response.json()["errors"][field], message);
    }
    app.send_form(Method::POST, "/api/asset", &admin.token, FIELDS, &[]).await.expect_message(400, "File is required");
    assert_eq!(app.count("SELECT COUNT(*) FROM assets"), 0);
    assert_eq!(app.count("SELECT COUNT(*) FROM files"), 0);
}

#[tokio::test]
async fn only_real_images_of_at_most_5_mb_are_stored() {
    let app = test_app();
    let admin = app.admin().await;
    let not_images: [(&str, &[u8]); 3] = [
        ("evil.png", b"<script>alert('x')</script>"),
        ("logo.png", b"<svg xmlns=\"http://www.w3.org/2000/svg\"><script>alert(1)</script></svg>"),
        ("doc.png", b"%PDF-1.7 not an image"),
    ];
    for (name, bytes) in not_images {
        let refused = app.send_form(Method::POST, "/api/asset", &admin.token, FIELDS, &[("file", name, bytes)]).await;
        refused.expect_message(415, "Only PNG, JPEG, WebP or GIF images are accepted.");
        assert_eq!(refused.json()["errors"]["file"], "Only PNG, JPEG, WebP or GIF images are accepted.");
    }
    let mut oversized = PNG.to_vec();
    oversized.resize(5 * 1024 * 1024 + 1, 0);
    let refused =
        app.send_form(Method::POST, "/api/asset", &admin.token, FIELDS, &[("file", "big.png", &oversized)]).await;
    refused.expect_message(413, "The image is larger than 5 MB.");
    assert_eq!(refused.json()["errors"]["file"], "The image is larger than 5 MB.");
    let mut huge = PNG.to_vec();
    huge.resize(7 * 1024 * 1024, 0);
    app.send_form(Method::POST, "/api/asset", &admin.token, FIELDS, &[("file", "huge.png", &huge)])
        .await
        .expect_message(413, "The image is larger than 5 MB.");
    assert_eq!(app.count("SELECT COUNT(*) FROM assets"), 0, "nothing stored");
    assert_eq!(app.count("SELECT COUNT(*) FROM files"), 0, "nothing stored");
    let json = app.call(Method::POST, "/api/asset", Some(&admin.token), Some(serde_json::json!({"name": "x"}))).await;
    json.expect_message(415, "Send the form as multipart/form-data.");
}

#[tokio::test]
async fn edit_keeps_or_replaces_the_image() {
    let app = test_app();
    let admin = app.admin().await;
    let created =
        app.send_form(Method::POST, "/api/asset", &admin.token, FIELDS, &[("file", "logo.png", PNG)]).await.json();
    let id = created["id"].to_string();
    let mut fields = with("name", "Xəzər Telekom MMC");
    fields.push(("id", &id));
    fields.retain(|(k, _)| *k != "barcodePrefix");
    fields.push(("filePath", created["filePath"].as_str().unwrap()));
    let edited = app.send_form(Method::PUT, "/api/asset", &admin.token, &fields, &[]).await;
    edited.expect(200);
    assert_eq!(edited.json()["name"], "Xəzər Telekom MMC");
    assert_eq!(edited.json()["filePath"], created["filePath"], "the old image stays");
    assert_eq!(edited.json()["barcodePrefix"], "XT1", "the barcode stays when not sent");
    let gif: &[u8] = b"GIF89a\x01\x00\x01\x00\x80\x00\x00\xff\xff\xff\x00\x00\x00!\xf9\x04\x01\x00\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;";
    let replaced = app.send_form(Method::PUT, "/api/asset", &admin.token, &fields, &[("file", "new.gif", gif)]).await;
    replaced.expect(200);
    assert!(replaced.json()["filePath"].as_str().unwrap().ends_with(".gif"));
    let mut invalid = fields.clone();
    invalid.retain(|(k, _)| *k != "contactPerson");
    app.send_form(Method::PUT, "/api/asset", &admin.token, &invalid, &[])
        .await
        .expect_message(400, "Contact person is required");
    let mut missing = fields.clone();
    missing.retain(|(k, _)| *k != "id");
    missing.push(("id", "999"));
    app.send_form(Method::PUT, "/api/asset", &admin.token, &missing, &[]).await.expect_message(404, "Asset not found.");
}

#[tokio::test]
async fn call_center_reads_but_does_not_write() {
    let app = test_app();
    let admin = app.admin().await;
    let reader = app.user_with_role("cc@perk.az", 2).await;
    let editor = app.user_with_role("user@perk.az", 1).await;
    app.send_form(Method::POST, "/api/asset", &editor.token, FIELDS, &[("file", "logo.png", PNG)]).await.expect(201);
    app.get("/api/asset?Skip=0&Take=10", &reader.token).await.expect(200);
    app.get("/api/asset/1", &reader.token).await.expect(200);
    app.get("/api/asset/export", &reader.token).await.expect(200);
    app.send_form(Method::POST, "/api/asset", &reader.token, FIELDS, &[("file", "logo.png", PNG)]).await.expect(403);
    app.send_form(Method::PUT, "/api/asset", &reader.token, &[("id", "1")], &[]).await.expect(403);
    let toggle = serde_json::json!({"id": 1, "isActive": false});
    app.call(Method::PATCH, "/api/asset/active", Some(&reader.token), Some(toggle.clone())).await.expect(403);
    app.call(Method::DELETE, "/api/asset", Some(&reader.token), Some(serde_json::json!({"id": [1]}))).await.expect(403);
    app.call(Method::PATCH, "/api/asset/active", Some(&admin.token), Some(toggle)).await.expect(200);
    app.call(Method::DELETE, "/api/asset", Some(&editor.token), Some(serde_json::json!({"id": [1]}))).await.expect(200);
    app.get("/api/asset", &reader.token).await.expect(200);
}
