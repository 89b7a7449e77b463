//! Uploads are real images: a decoder reads each one whole within its limits before it is
//! stored; stored images are served under random names; forms past the limit say which part.

use crate::common;

use std::io::Cursor;

use axum::body::Body;
use axum::http::{Method, Request};
use common::*;
use http_body_util::BodyExt;
use image::{DynamicImage, ImageFormat, RgbImage};
use tower::ServiceExt;

const FIELDS: &[(&str, &str)] = &[
    ("name", "Xəzər Telekom"),
    ("contactPerson", "Nigar Həsənova"),
    ("phoneNumber", "994501234567"),
    ("email", "nigar@xezer.az"),
    ("barcodePrefix", "XT1"),
];
const NOT_AN_IMAGE: &str = "Only PNG, JPEG, WebP or GIF images are accepted.";
const PNG_SIGNATURE: &[u8] = &[0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A];

/// A small real image in `format`, made by the same library the server decodes with.
fn encoded(format: ImageFormat) -> Vec<u8> {
    let pixels = RgbImage::from_fn(24, 16, |x, y| image::Rgb([(x * 10) as u8, (y * 15) as u8, 128]));
    let mut out = Cursor::new(Vec::new());
    DynamicImage::ImageRgb8(pixels).write_to(&mut out, format).unwrap();
    out.into_inner()
}

fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = 0xFFFF_FFFFu32;
    for byte in bytes {
        crc ^= u32::from(*byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 { (crc >> 1) ^ 0xEDB8_8320 } else { crc >> 1 };
        }
    }
    !crc
}

fn chunk(kind: &[u8; 4], data: &[u8]) -> Vec<u8> {
    let mut out = (data.len() as u32).to_be_bytes().to_vec();
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    let mut checked = kind.to_vec();
    checked.extend_from_slice(data);
    out.extend_from_slice(&crc32(&checked).to_be_bytes());
    out
}

/// A well-formed PNG (valid chunk CRCs) whose header declares `width`×`height` RGB pixels, with
/// one tiny compressed row of data: the header alone would make a decoder allocate gigabytes.
fn png_declaring(width: u32, height: u32) -> Vec<u8> {
    let mut header = width.to_be_bytes().to_vec();
    header.extend_from_slice(&height.to_be_bytes());
    header.extend_from_slice(&[8, 2, 0, 0, 0]);
    // zlib stream of a few zero bytes (stored block).
    let idat = [0x78, 0x01, 0x01, 0x04, 0x00, 0xFB, 0xFF, 0, 0, 0, 0, 0x00, 0x00, 0x00, 0x01];
    let mut png = PNG_SIGNATURE.to_vec();
    png.extend(chunk(b"IHDR", &header));
    png.extend(chunk(b"IDAT", &idat));
    png.extend(chunk(b"IEND", &[]));
    png
}

/// The inputs that were stored (201) and served publicly before uploads were decoded.
fn refused_inputs() -> Vec<(&'static str, Vec<u8>)> {
    let real_png = encoded(ImageFormat::Png);
    vec![
        ("16-byte truncated PNG", real_png[..16].to_vec()),
        ("8-byte PNG signature", PNG_SIGNATURE.to_vec()),
        ("PNG declaring 50000×50000 pixels", png_declaring(50_000, 50_000)),
        ("PNG declaring 8001×1 pixels", png_declaring(8001, 1)),
        ("GIF/JS polyglot", b"GIF89a/*\x0a\x00\x00\x00\x00*/=1;alert(document.cookie);//\x00;".to_vec()),
        (
            "PNG magic followed by HTML",
            [PNG_SIGNATURE, b"<html><body><script>alert(document.cookie)</script></body></html>"].concat(),
        ),
        ("PNG cut inside its image data", real_png[..real_png.len() - 20].to_vec()),
        ("JPEG cut after its header", encoded(ImageFormat::Jpeg)[..200].to_vec()),
    ]
}

#[tokio::test]
async fn uploads_the_decoder_cannot_read_whole_are_refused_and_nothing_is_stored() {
    let app = test_app();
    let admin = app.admin().await;
    for (what, bytes) in refused_inputs() {
        let refused =
            app.send_form(Method::POST, "/api/asset", &admin.token, FIELDS, &[("file", "logo.png", &bytes)]).await;
        assert_eq!(refused.status.as_u16(), 415, "{what}: {}", String::from_utf8_lossy(&refused.bytes));
        assert_eq!(refused.message(), NOT_AN_IMAGE, "{what}");
        assert_eq!(refused.json()["errors"]["file"], NOT_AN_IMAGE, "{what}");
    }
    assert_eq!(app.count("SELECT COUNT(*) FROM assets"), 0, "nothing stored");
    assert_eq!(app.count("SELECT COUNT(*) FROM files"), 0, "nothing stored");
}

#[tokio::test]
async fn an_edit_with_a_bad_image_changes_nothing() {
    let app = test_app();
    let admin = app.admin().await;
    let created = app
        .send_form(
            Method::POST,
            "/api/asset",
            &admin.token,
            FIELDS,
            &[("file", "logo.png", &encoded(ImageFormat::Png))],
        )
        .await;
    created.expect(201);
    let id = created.json()["id"].to_string();
    let mut fields = FIELDS.to_vec();
    fields.push(("id", &id));
    fields[0] = ("name", "Renamed");
    app.send_form(
        Method::PUT,
        "/api/asset",
        &admin.token,
        &fields,
        &[("file", "x.png", &png_declaring(50_000, 50_000))],
    )
    .await
    .expect_message(415, NOT_AN_IMAGE);
    assert_eq!(app.count("SELECT COUNT(*) FROM files"), 1);
    assert_eq!(app.count("SELECT COUNT(*) FROM assets WHERE name = 'Renamed'"), 0);
}

#[tokio::test]
async fn real_images_are_stored_as_uploaded_and_served_under_random_names() {
    let app = test_app();
    let admin = app.admin().await;
    let mut paths = Vec::new();
    for (format, ext, content_type) in [
        (ImageFormat::Png, "png", "image/png"),
        (ImageFormat::Jpeg, "jpg", "image/jpeg"),
        (ImageFormat::WebP, "webp", "image/webp"),
        (ImageFormat::Gif, "gif", "image/gif"),
    ] {
        let bytes = encoded(format);
        let created =
            app.send_form(Method::POST, "/api/asset", &admin.token, FIELDS, &[("file", "logo", &bytes)]).await;
        created.expect(201);
        let path = created.json()["filePath"].as_str().unwrap().to_string();
        let name = path.strip_prefix("cdn/").and_then(|p| p.strip_suffix(&format!(".{ext}"))).unwrap_or_default();
        assert!(name.len() == 32 && name.bytes().all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase()), "{path}");
        let served = app.call(Method::GET, &format!("/{path}"), None, None).await;
        served.expect(200);
        assert_eq!(served.bytes, bytes, "stored as uploaded, not re-encoded");
        assert_eq!(served.headers["content-type"], content_type);
        paths.push(path);
    }
    paths.sort();
    paths.dedup();
    assert_eq!(paths.len(), 4);
    // Sequential ids are not names: counting through uploads finds nothing.
    for guess in ["/cdn/1.png", "/cdn/2.jpg", "/cdn/0001.png", "/cdn/..png"] {
        let missing = app.call(Method::GET, guess, None, None).await;
        missing.expect_message(404, "Image not found.");
        assert_eq!(missing.headers["content-type"], "application/json");
    }
}

#[tokio::test]
async fn a_form_past_the_limit_says_which_part_is_too_large() {
    let app = test_app();
    let admin = app.admin().await;
    let not_an_image = vec![b'x'; 7 * 1024 * 1024];
    app.send_form(Method::POST, "/api/asset", &admin.token, FIELDS, &[("file", "notes.txt", &not_an_image)])
        .await
        .expect_message(413, "The form is too large.");
    let long_text = "y".repeat(7 * 1024 * 1024);
    let mut fields = FIELDS.to_vec();
    fields.push(("notes", &long_text));
    app.send_form(Method::POST, "/api/asset", &admin.token, &fields, &[])
        .await
        .expect_message(413, "The form is too large.");
    let mut big_png = encoded(ImageFormat::Png);
    big_png.resize(7 * 1024 * 1024, 0);
    let refused =
        app.send_form(Method::POST, "/api/asset", &admin.token, FIELDS, &[("file", "big.png", &big_png)]).await;
    refused.expect_message(413, "The image is larger than 5 MB.");
    assert_eq!(refused.json()["errors"]["file"], "The image is larger than 5 MB.");
    assert_eq!(app.count("SELECT COUNT(*) FROM files"), 0);
}

/// A database written before files had public names: its images get names in the migration,
/// lists name the new paths, and the old sequential paths are no longer served.
#[tokio::test]
async fn files_stored_before_public_names_are_renamed_by_the_migration() {
    use perkdesk::db::MIGRATIONS;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.db");
    let png = encoded(ImageFormat::Png);
    {
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.execute_batch(
            "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL,
             applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')))",
        )
        .unwrap();
        for migration in MIGRATIONS.iter().take_while(|m| m.name != "files_public_name") {
            conn.execute_batch(migration.sql).unwrap();
            conn.execute(
                "INSERT INTO schema_migrations (version, name) VALUES (?1, ?2)",
                (migration.version, migration.name),
            )
            .unwrap();
        }
        conn.execute(
            "INSERT INTO files (id, content_type, ext, size, sha256, bytes) VALUES (12, 'image/png', 'png', ?1, 'x', ?2)",
            (png.len() as i64, &png),
        )
        .unwrap();
    }
    let db = perkdesk::app::open_db(&path).unwrap();
    let name: String =
        db.conn().unwrap().query_row("SELECT public_name FROM files WHERE id = 12", [], |r| r.get(0)).unwrap();
    assert_eq!(name.len(), 32, "{name}");
    let state = perkdesk::app::state(db, settings(), perkdesk::core::mail::Mailer::Memory(Default::default())).unwrap();
    let router = perkdesk::app::app(state);
    let get = |uri: String| {
        let router = router.clone();
        async move {
            let response = router.oneshot(Request::get(uri).body(Body::empty()).unwrap()).await.unwrap();
            let status = response.status().as_u16();
            (status, response.into_body().collect().await.unwrap().to_bytes().to_vec())
        }
    };
    assert_eq!(get(format!("/cdn/{name}.png")).await, (200, png));
    assert_eq!(get("/cdn/12.png".into()).await.0, 404);
}
