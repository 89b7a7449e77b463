//! Uploaded images: checked by their bytes (PNG, JPEG, WebP, GIF; never SVG or scripts), at most
//! 5 MB, kept in the `files` table and served at `/cdn/{id}.{ext}` with an ETag and long caching.

use axum::body::Body;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use rusqlite::{OptionalExtension, Transaction};
use sha2::{Digest, Sha256};

use crate::api::{Api, Doc};
use crate::error::{AppError, AppResult};
use crate::state::AppState;

pub const MAX_IMAGE_BYTES: usize = 5 * 1024 * 1024;
pub const TOO_LARGE: &str = "The image is larger than 5 MB.";
pub const NOT_AN_IMAGE: &str = "Only PNG, JPEG, WebP or GIF images are accepted.";

pub fn routes() -> Api {
    Api::new().add(
        Method::GET,
        "/cdn/{file}",
        get(serve),
        Doc::new("Files", "An uploaded image, e.g. /cdn/12.png (public, cached)"),
    )
}

/// The content type and extension of an accepted image, from its first bytes.
pub fn sniff(bytes: &[u8]) -> AppResult<(&'static str, &'static str)> {
    match infer::get(bytes).map(|kind| kind.mime_type()) {
        Some("image/png") => Ok(("image/png", "png")),
        Some("image/jpeg") => Ok(("image/jpeg", "jpg")),
        Some("image/webp") => Ok(("image/webp", "webp")),
        Some("image/gif") => Ok(("image/gif", "gif")),
        _ => Err(AppError::not_an_image(NOT_AN_IMAGE)),
    }
}

/// Stores a checked upload, if any; returns the new file's id.
pub fn store_upload(tx: &Transaction, upload: Option<axum::body::Bytes>) -> AppResult<Option<i64>> {
    upload.map(|bytes| store_image(tx, &bytes)).transpose()
}

/// Checks and stores an image; returns its id.
pub fn store_image(tx: &Transaction, bytes: &[u8]) -> AppResult<i64> {
    if bytes.len() > MAX_IMAGE_BYTES {
        return Err(AppError::image_too_large(TOO_LARGE));
    }
    let (content_type, ext) = sniff(bytes)?;
    tx.execute(
        "INSERT INTO files (content_type, ext, size, sha256, bytes) VALUES (?1, ?2, ?3, ?4, ?5)",
        (content_type, ext, bytes.len() as i64, hex::encode(Sha256::digest(bytes)), bytes),
    )?;
    Ok(tx.last_insert_rowid())
}

/// The `filePath` of a resource's image, for a `FROM` that joins `files f`.
pub const FILE_PATH_SQL: &str = "CASE WHEN f.id IS NULL THEN NULL ELSE 'cdn/' || f.id || '.' || f.ext END";

/// Checks an optional upload before any write: an image of at most 5 MB, or a 413/415.
pub fn checked_upload(upload: Option<&crate::forms::Upload>) -> AppResult<Option<axum::body::Bytes>> {
    let Some(upload) = upload else { return Ok(None) };
    if upload.bytes.len() > MAX_IMAGE_BYTES {
        return Err(AppError::image_too_large(TOO_LARGE));
    }
    sniff(&upload.bytes)?;
    Ok(Some(upload.bytes.clone()))
}

async fn serve(State(state): State<AppState>, Path(file): Path<String>, headers: HeaderMap) -> Response {
    let Some(id) = file.split_once('.').and_then(|(id, _)| id.parse::<i64>().ok()) else {
        return (StatusCode::NOT_FOUND, "Not found").into_response();
    };
    let wanted_ext = file.split_once('.').map(|(_, ext)| ext.to_ascii_lowercase()).unwrap_or_default();
    let found = state
        .db
        .run(move |conn| {
            Ok(conn
                .query_row("SELECT content_type, ext, sha256, bytes FROM files WHERE id = ?1", [id], |r| {
                    Ok((
                        r.get::<_, String>(0)?,
                        r.get::<_, String>(1)?,
                        r.get::<_, String>(2)?,
                        r.get::<_, Vec<u8>>(3)?,
                    ))
                })
                .optional()?)
        })
        .await;
    let (content_type, _, sha, bytes) = match found {
        Ok(Some(row)) if row.1 == wanted_ext => row,
        Ok(_) => return (StatusCode::NOT_FOUND, "Not found").into_response(),
        Err(error) => return error.into_response(),
    };
    let etag = format!("\"{sha}\"");
    let mut response = if headers.get(header::IF_NONE_MATCH).and_then(|v| v.to_str().ok()) == Some(etag.as_str()) {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        Response::new(Body::from(bytes))
    };
    let out = response.headers_mut();
    out.insert(header::CACHE_CONTROL, HeaderValue::from_static("public, max-age=31536000, immutable"));
    for (name, value) in [(header::CONTENT_TYPE, content_type), (header::ETAG, etag)] {
        if let Ok(value) = HeaderValue::from_str(&value) {
            out.insert(name, value);
        }
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_real_images_pass() {
        assert_eq!(sniff(&[0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A, 0, 0]).unwrap().1, "png");
        assert_eq!(sniff(&[0xFF, 0xD8, 0xFF, 0xE0, 0, 0]).unwrap().1, "jpg");
        assert_eq!(sniff(b"GIF89a....").unwrap().1, "gif");
        assert_eq!(sniff(b"RIFF\0\0\0\0WEBPVP8 ").unwrap().1, "webp");
        assert!(sniff(b"<svg xmlns=\"http://www.w3.org/2000/svg\"></svg>").is_err());
        assert!(sniff(b"<script>alert(1)</script>").is_err());
        assert!(sniff(b"").is_err());
    }
}
