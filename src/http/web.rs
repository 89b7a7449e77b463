//! The embedded single-page app: hashed assets with long caching, `index.html` for every other
//! path so deep links work, and never an HTML page for an unknown `/api/...` path.
//!
//! The frontend build writes a gzip (`.gz`) copy beside every text file, and a Brotli (`.br`)
//! one where that is smaller (`frontend/vite.config.ts`, `precompress`), so a response is
//! compressed once at build time and here only chosen by the request's `Accept-Encoding`; nothing
//! is compressed per request. The binary carries text files in their compressed copies only (half
//! the panel's weight): a client that accepts neither encoding, which no browser is, gets the
//! gzip copy inflated. In a debug build rust-embed reads `frontend/dist` from disk with the same
//! exclusions, so both builds answer alike.

use std::borrow::Cow;

use axum::body::Body;
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use rust_embed::RustEmbed;

use crate::core::error::AppError;

#[derive(RustEmbed)]
#[folder = "frontend/dist/"]
// The text files the build compresses (COMPRESSIBLE in vite.config.ts), carried as their copies.
#[exclude = "*.js"]
#[exclude = "*.css"]
#[exclude = "*.html"]
#[exclude = "*.svg"]
#[exclude = "*.json"]
#[exclude = "*.txt"]
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
        let cache =
            if file.starts_with("assets/") { "public, max-age=31536000, immutable" } else { "public, max-age=3600" };
        if let Some(answer) = asset(file, cache, &headers) {
            return answer;
        }
        if file.starts_with("assets/") || file.contains('.') && !file.contains('/') {
            return (StatusCode::NOT_FOUND, "Not found").into_response();
        }
    }
    asset("index.html", "no-cache", &headers)
        .unwrap_or_else(|| ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], NOT_BUILT).into_response())
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

/// One representation of an embedded file: its content, the encoding it is sent in, and the
/// validator that names it.
struct Representation {
    encoding: Option<&'static str>,
    etag: String,
    content: Content,
}

/// What a representation's body is made from.
enum Content {
    /// Bytes sent as they are embedded.
    Stored(Cow<'static, [u8]>),
    /// A text file's gzip copy, inflated for a client that accepts no compression, and only when
    /// a body is sent (not for a 304).
    Inflated(Cow<'static, [u8]>),
}

impl Content {
    /// The body's bytes; `None` when the gzip copy cannot be read (the build's fault, told as no
    /// file).
    fn into_bytes(self, name: &str) -> Option<Cow<'static, [u8]>> {
        match self {
            Content::Stored(bytes) => Some(bytes),
            Content::Inflated(gzip) => {
                let mut plain = Vec::new();
                if let Err(error) = std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&gzip[..]), &mut plain)
                {
                    tracing::error!(file = name, %error, "the panel's gzip copy cannot be read");
                    return None;
                }
                Some(Cow::Owned(plain))
            }
        }
    }
}

/// The file `name` as the request accepts it: a compressed copy (Brotli, then gzip) when the
/// client takes one, else the plain bytes (the file itself, or a text file's gzip copy
/// inflated); `None` when the panel has no such file.
fn representation(name: &str, headers: &HeaderMap) -> Option<(Representation, bool)> {
    let mut copies: Vec<(&'static str, rust_embed::EmbeddedFile)> = ENCODINGS
        .iter()
        .filter_map(|(coding, suffix)| Ui::get(&format!("{name}{suffix}")).map(|file| (*coding, file)))
        .collect();
    let has_copies = !copies.is_empty();
    // Each representation has its own validator, so a cache never answers 304 for another encoding.
    let tag = |file: &rust_embed::EmbeddedFile, suffix: &str| {
        format!("\"{}{suffix}\"", hex::encode(file.metadata.sha256_hash()))
    };
    if let Some(at) = copies.iter().position(|(coding, _)| accepts(headers, coding)) {
        let (coding, file) = copies.swap_remove(at);
        let etag = tag(&file, &format!("-{coding}"));
        return Some((
            Representation { encoding: Some(coding), etag, content: Content::Stored(file.data) },
            has_copies,
        ));
    }
    if let Some(file) = Ui::get(name) {
        let etag = tag(&file, "");
        return Some((Representation { encoding: None, etag, content: Content::Stored(file.data) }, has_copies));
    }
    let at = copies.iter().position(|(coding, _)| *coding == "gzip")?;
    let (_, gzip) = copies.swap_remove(at);
    let etag = tag(&gzip, "-identity");
    Some((Representation { encoding: None, etag, content: Content::Inflated(gzip.data) }, has_copies))
}

fn asset(name: &str, cache: &'static str, headers: &HeaderMap) -> Option<Response> {
    let (Representation { encoding, etag, content }, has_copies) = representation(name, headers)?;
    let mut response = if headers.get(header::IF_NONE_MATCH).and_then(|v| v.to_str().ok()) == Some(etag.as_str()) {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        Response::new(Body::from(content.into_bytes(name)?))
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
    if has_copies {
        // The answer depends on Accept-Encoding: shared caches must key on it.
        response_headers.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    }
    Some(response)
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
