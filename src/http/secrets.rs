//! Answers that carry a secret (a token pair, a new authenticator's key or QR code, recovery
//! codes, a new API key) are never kept by a browser or a proxy (`Cache-Control: no-store`), and
//! never stored with the secret for an `x-requestid` replay (`reply::ShowsSecretOnce`: a repeat
//! gets the stored answer without it, [`withheld`]; a token pair is not stored at all): a secret
//! is shown once.
//!
//! Which answers those are is read from the API document itself: an operation whose success
//! answer names a secret field anywhere in its schema ([`FIELDS`]), or one its `Doc` marks
//! (`Doc::carries_secret`, for a secret whose field name does not say so, as a QR code's `data`).
//! A new route is covered without a line here, and the document marks each such operation
//! ([`EXTENSION`]), which `tests/secrets.rs` holds to the answers.

use std::collections::HashSet;
use std::sync::Arc;

use axum::Router;
use axum::extract::{MatchedPath, Request};
use axum::http::Method;
use axum::middleware::Next;
use axum::response::Response;
use serde_json::Value;
use utoipa::openapi::OpenApi;
use utoipa::openapi::path::Operation;

use super::reply::ShowsSecretOnce;

/// Fields whose value is a secret wherever an answer has them.
pub const FIELDS: &[&str] = &["token", "refreshToken", "recoveryCodes", "secret", "key"];

/// The document's mark on an operation whose success answer carries a secret.
pub const EXTENSION: &str = "x-answer-carries-secret";

/// Finds every operation whose answer carries a secret, marks it in the document, and makes the
/// router mark those answers (no-store, never replayed).
pub fn protect<S: Clone + Send + Sync + 'static>(router: Router<S>, openapi: &mut OpenApi) -> Router<S> {
    let found = carrying(openapi);
    for (path, item) in openapi.paths.paths.iter_mut() {
        for (method, operation) in operations(item) {
            if let Some(operation) = operation
                && found.contains(&(method, path.to_ascii_lowercase()))
            {
                operation
                    .extensions
                    .get_or_insert_with(Default::default)
                    .insert(EXTENSION.to_string(), Value::Bool(true));
            }
        }
    }
    let found = Arc::new(found);
    router.layer(axum::middleware::from_fn(move |request: Request, next: Next| {
        let secret = request
            .extensions()
            .get::<MatchedPath>()
            .is_some_and(|matched| found.contains(&(request.method().clone(), matched.as_str().to_string())));
        async move {
            let mut response: Response = next.run(request).await;
            if secret && response.status().is_success() {
                ShowsSecretOnce::mark(&mut response);
            }
            response
        }
    }))
}

fn operations(item: &mut utoipa::openapi::PathItem) -> [(Method, &mut Option<Operation>); 5] {
    [
        (Method::GET, &mut item.get),
        (Method::POST, &mut item.post),
        (Method::PUT, &mut item.put),
        (Method::PATCH, &mut item.patch),
        (Method::DELETE, &mut item.delete),
    ]
}

/// (method, lower-cased path as routed) of every operation whose answer carries a secret.
fn carrying(openapi: &OpenApi) -> HashSet<(Method, String)> {
    let Ok(document) = serde_json::to_value(openapi) else { return HashSet::new() };
    answers_with_secrets(&document)
        .into_iter()
        .filter_map(|(method, path)| Some((Method::from_bytes(method.as_bytes()).ok()?, path.to_ascii_lowercase())))
        .collect()
}

/// (METHOD, path) of every operation of `document` whose success answer names a secret field, or
/// that is marked as carrying one.
pub fn answers_with_secrets(document: &Value) -> Vec<(String, String)> {
    let components = &document["components"]["schemas"];
    let mut found = Vec::new();
    let Some(paths) = document["paths"].as_object() else { return found };
    for (path, item) in paths {
        let Some(item) = item.as_object() else { continue };
        for (method, operation) in item {
            let marked = operation.get(EXTENSION).and_then(Value::as_bool) == Some(true);
            let named = operation["responses"].as_object().is_some_and(|responses| {
                responses
                    .iter()
                    .filter(|(status, _)| status.starts_with('2'))
                    .any(|(_, answer)| names_secret(&answer["content"], components, &mut Vec::new()))
            });
            if marked || named {
                found.push((method.to_ascii_uppercase(), path.clone()));
            }
        }
    }
    found
}

/// Whether a schema (or any schema inside it, references followed once) has a secret field.
fn names_secret<'a>(schema: &'a Value, components: &'a Value, followed: &mut Vec<&'a str>) -> bool {
    match schema {
        Value::Object(object) => object.iter().any(|(key, inner)| match (key.as_str(), inner) {
            ("$ref", Value::String(reference)) => {
                let name = reference.rsplit('/').next().unwrap_or_default();
                if followed.contains(&name) {
                    return false;
                }
                followed.push(name);
                names_secret(&components[name], components, followed)
            }
            ("properties", Value::Object(properties)) => properties
                .iter()
                .any(|(field, inner)| FIELDS.contains(&field.as_str()) || names_secret(inner, components, followed)),
            _ => names_secret(inner, components, followed),
        }),
        Value::Array(items) => items.iter().any(|inner| names_secret(inner, components, followed)),
        _ => false,
    }
}

/// A JSON answer without its secrets, as it is stored for a replay: the [`FIELDS`] anywhere in it,
/// and a QR code's image (a `data:` URL: only authenticators' QR codes are answered so). `None`
/// when the answer is not JSON.
pub fn withheld(answer: &[u8]) -> Option<Vec<u8>> {
    fn strip(value: &mut Value) {
        match value {
            Value::Object(object) => {
                object.retain(|field, inner| {
                    let qr_code = inner.as_str().is_some_and(|text| text.starts_with("data:"));
                    !FIELDS.contains(&field.as_str()) && !qr_code
                });
                object.values_mut().for_each(strip);
            }
            Value::Array(items) => items.iter_mut().for_each(strip),
            _ => {}
        }
    }
    let mut value: Value = serde_json::from_slice(answer).ok()?;
    strip(&mut value);
    serde_json::to_vec(&value).ok()
}
