//! Small answer bodies that handlers of several modules share, and the marks that tell the
//! `x-requestid` middleware (in the app layer) how to treat a request and its answer.

use axum::Json;
use axum::http::Method;
use axum::response::Response;
use serde::Serialize;
use utoipa::ToSchema;

/// A request that may write: what `x-requestid` covers, and what is run again when its write
/// loses to another server's.
pub fn is_mutation(method: &Method) -> bool {
    matches!(*method, Method::POST | Method::PUT | Method::PATCH | Method::DELETE)
}

/// `{"message": "..."}`: the answer of a call that has nothing else to say.
#[derive(Serialize, ToSchema)]
pub struct MessageBody {
    pub message: String,
}

impl MessageBody {
    pub fn json(message: impl Into<String>) -> Json<MessageBody> {
        Json(MessageBody { message: message.into() })
    }
}

/// The header that makes a mutation safe to retry: its first successful answer is kept and
/// replayed to the same session (`app::idempotency`).
pub const REQUEST_ID: &str = "x-requestid";

/// Put in a response's extensions by answers that carry a session's credentials (a token pair):
/// such an answer is never stored, so it can never be served twice (a sign-in or a refresh has
/// its own rules for a repeat).
#[derive(Clone, Copy, Debug)]
pub struct CarriesCredentials;

impl CarriesCredentials {
    /// Marks `response` as carrying credentials: never stored here, and `Cache-Control: no-store`
    /// so no browser or proxy cache keeps it either.
    pub fn mark(response: &mut Response) {
        response.extensions_mut().insert(CarriesCredentials);
        no_store(response);
    }
}

/// Put in a response's extensions by answers that show a secret once (a new API key, recovery
/// codes, an authenticator's key or QR code; `http::secrets`): `Cache-Control: no-store`, and a
/// repeat with the same x-requestid is answered from what was stored without the secret.
#[derive(Clone, Copy, Debug)]
pub struct ShowsSecretOnce;

impl ShowsSecretOnce {
    pub fn mark(response: &mut Response) {
        response.extensions_mut().insert(ShowsSecretOnce);
        no_store(response);
    }
}

fn no_store(response: &mut Response) {
    response.headers_mut().insert(axum::http::header::CACHE_CONTROL, axum::http::HeaderValue::from_static("no-store"));
}
