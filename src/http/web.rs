//! The embedded single-page app: hashed assets with long caching, `index.html` for every other
//! path so deep links work, and never an HTML page for an unknown `/api/...` path.
//!
//! The frontend build writes a Brotli (`.br`) and a gzip (`.gz`) copy beside every text file
//! (`frontend/vite.config.ts`, `precompress`), so a response is compressed once at build time and
//! here only chosen by the request's `Accept-Encoding`; nothing is compressed per request. In a
//! debug build rust-embed reads `frontend/dist` from disk, siblings included, so both builds
//! answer alike.

use axum::body::Body;
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use rust_embed::RustEmbed;

use crate::core::error::AppError;

#[derive(RustEmbed)]
#[folder = "frontend/dist/"]
struct Ui;

const NOT_BUILT: &str = "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>perkdesk</title></head>\
<body><h1>perkdesk</h1><p>The web interface was not built into this binary (PERKDESK_SKIP_FRONTEND=1). \
The API is available under /api.</p></body></html>";

/// The answer to an address under /api that no route serves (`core::refusals`).
pub const REFUSALS: &[&str] = &["There is no API endpoint at {path}."];

/// The encodings the build writes, best first: (Content-Encoding token, file suffix).
const ENCODINGS: [(&str, &str); 2] = [("br", ".br"), ("gzip", ".gz")];

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

/// Whether `Accept-Encoding` admits `coding`: named (or `*`) without `q=0`.
fn accepts(headers: &HeaderMap, coding: &str) -> bool {
    let Some(value) = headers.get(header::ACCEPT_ENCODING).and_then(|v| v.to_str().ok()) else {
        return false;
    };
    let mut wildcard = false;
    for item in value.split(',') {
        let mut parts = item.split(';');
        let name = parts.next().unwrap_or("").trim();
        let refused = parts.any(|param| {
            let param = param.trim();
            param
                .strip_prefix("q=")
                .or_else(|| param.strip_prefix("Q="))
                .is_some_and(|q| q.trim().parse::<f32>().is_ok_and(|q| q <= 0.0))
        });
        if name.eq_ignore_ascii_case(coding) {
            return !refused;
        }
        if name == "*" {
            wildcard = !refused;
        }
    }
    wildcard
}

fn asset(name: &str, content: rust_embed::EmbeddedFile, cache: &'static str, headers: &HeaderMap) -> Response {
    // A precompressed sibling the client accepts, else the file as it is.
    let compressed = ENCODINGS.iter().find_map(|(coding, suffix)| {
        if !accepts(headers, coding) {
            return None;
        }
        Ui::get(&format!("{name}{suffix}")).map(|file| (*coding, file))
    });
    let has_siblings = ENCODINGS.iter().any(|(_, suffix)| Ui::get(&format!("{name}{suffix}")).is_some());
    let (encoding, body) = match compressed {
        Some((coding, file)) => (Some(coding), file),
        None => (None, content),
    };
    // Each representation has its own validator, so a cache never answers 304 for another encoding.
    let etag = match encoding {
        Some(coding) => format!("\"{}-{coding}\"", hex::encode(body.metadata.sha256_hash())),
        None => format!("\"{}\"", hex::encode(body.metadata.sha256_hash())),
    };
    let mut response = if headers.get(header::IF_NONE_MATCH).and_then(|v| v.to_str().ok()) == Some(etag.as_str()) {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        Response::new(Body::from(body.data))
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
    if let Some(coding) = encoding {
        response_headers.insert(header::CONTENT_ENCODING, HeaderValue::from_static(coding));
    }
    if has_siblings {
        // The answer depends on Accept-Encoding: shared caches must key on it.
        response_headers.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    }
    response
}

#[cfg(test)]
mod tests {
    use super::accepts;
    use axum::http::{HeaderMap, HeaderValue, header};

    fn with(value: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(header::ACCEPT_ENCODING, HeaderValue::from_str(value).unwrap());
        headers
    }

    #[test]
    fn accept_encoding_is_read_with_its_weights() {
        assert!(accepts(&with("gzip, deflate, br, zstd"), "br"));
        assert!(accepts(&with("gzip;q=1.0, br;q=0.5"), "br"));
        assert!(!accepts(&with("gzip, br;q=0"), "br"));
        assert!(accepts(&with("*"), "gzip"));
        assert!(!accepts(&with("*, gzip;q=0"), "gzip"));
        assert!(!accepts(&with("identity"), "gzip"));
        assert!(!accepts(&HeaderMap::new(), "br"));
    }
}
