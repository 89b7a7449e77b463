//! The embedded single-page app: hashed assets with long caching, `index.html` for every other
//! path so deep links work, and never an HTML page for an unknown `/api/...` path.

use axum::body::Body;
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use rust_embed::RustEmbed;

use crate::error::AppError;

#[derive(RustEmbed)]
#[folder = "frontend/dist/"]
struct Ui;

const NOT_BUILT: &str = "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>perkdesk</title></head>\
<body><h1>perkdesk</h1><p>The web interface was not built into this binary (PERKDESK_SKIP_FRONTEND=1). \
The API is available under /api.</p></body></html>";

pub async fn fallback(uri: Uri, headers: HeaderMap) -> Response {
    let path = uri.path();
    if path == "/api" || path.starts_with("/api/") {
        return AppError::NotFound(format!("There is no API endpoint at {path}.")).into_response();
    }
    let file = path.trim_start_matches('/');
    if !file.is_empty() && file != "index.html" {
        if let Some(content) = Ui::get(file) {
            let cache = if file.starts_with("assets/") {
                "public, max-age=31536000, immutable"
            } else {
                "public, max-age=3600"
            };
            return asset(file, content, cache, &headers);
        }
        if file.starts_with("assets/") || file.contains('.') && !file.contains('/') {
            return (StatusCode::NOT_FOUND, "Not found").into_response();
        }
    }
    match Ui::get("index.html") {
        Some(index) => asset("index.html", index, "no-cache", &headers),
        None => ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], NOT_BUILT).into_response(),
    }
}

fn asset(name: &str, content: rust_embed::EmbeddedFile, cache: &'static str, headers: &HeaderMap) -> Response {
    let etag = format!("\"{}\"", hex::encode(content.metadata.sha256_hash()));
    let mut response = if headers.get(header::IF_NONE_MATCH).and_then(|v| v.to_str().ok()) == Some(etag.as_str()) {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        Response::new(Body::from(content.data))
    };
    let mime = mime_guess::from_path(name).first_or_octet_stream();
    let response_headers = response.headers_mut();
    if let Ok(value) = HeaderValue::from_str(mime.as_ref()) {
        response_headers.insert(header::CONTENT_TYPE, value);
    }
    response_headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    if let Ok(value) = HeaderValue::from_str(&etag) {
        response_headers.insert(header::ETAG, value);
    }
    response
}
