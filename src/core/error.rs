//! One error type for every handler; it renders as `{ "message", "errors" }` and never leaks internals.

use std::collections::BTreeMap;

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

pub type AppResult<T> = Result<T, AppError>;

#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error("{message}")]
    Validation { message: String, errors: BTreeMap<String, String> },
    #[error("{0}")]
    BadRequest(String),
    #[error("{0}")]
    Unauthorized(String),
    #[error("{0}")]
    Forbidden(String),
    #[error("{0}")]
    NotFound(String),
    #[error("{}", METHOD_NOT_ALLOWED)]
    MethodNotAllowed,
    #[error("{0}")]
    Conflict(String),
    #[error("{0}")]
    PayloadTooLarge(String),
    #[error("{0}")]
    UnsupportedMediaType(String),
    #[error("{0}")]
    Unprocessable(String),
    /// A non-400 refusal caused by one form field (an image's bytes: 413/415; a taken e-mail:
    /// 409); the message is also given as `errors.{field}` so the form can mark that field.
    #[error("{message}")]
    FieldRefused { status: StatusCode, field: &'static str, message: String },
    #[error("{0}")]
    Locked(String),
    #[error("{message}")]
    TooManyRequests { message: String, retry_after_secs: u64 },
    /// The write lost to a concurrent one on another app server (PostgreSQL's serialization
    /// failure or deadlock) and left nothing behind: run again, it sees the winner's work.
    #[error("{}", CONTENDED)]
    Contended,
    /// The change could not be recorded in the activity log, so it was not made (the log is part
    /// of every write's transaction); the cause is logged.
    #[error("{}", NOT_RECORDED)]
    NotRecorded,
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

pub const INVALID_CREDENTIALS: &str = "Invalid credentials.";
pub const LOCKED: &str = "You are locked.";
pub const FORBIDDEN: &str = "You do not have permission to do this.";
pub const METHOD_NOT_ALLOWED: &str = "This method is not allowed here.";
/// A write that lost to concurrent ones on every retry (`Contended`).
pub const CONTENDED: &str = "The database was busy with a conflicting change; nothing was saved. Please try again.";
/// A write whose activity log entry could not be written (`NotRecorded`).
pub const NOT_RECORDED: &str = "Nothing was saved: the change could not be recorded in the activity log. Please try again; if this keeps happening, tell your administrator.";
/// What a client is told of a failure on the server's side (the cause is logged, never sent).
pub const INTERNAL: &str = "Something went wrong on our side. Please try again.";

/// Marks an answer of [`AppError::Contended`], so the request can be run again before the client
/// sees it (`app::retry`).
#[derive(Clone, Copy, Debug)]
pub struct Contended;

#[derive(Serialize)]
struct ErrorBody<'a> {
    message: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    errors: Option<&'a BTreeMap<String, String>>,
}

/// Whole seconds a client must wait, rounded up (a client that waits exactly this long is let
/// in), at least one.
pub fn seconds_to_wait(wait: std::time::Duration) -> u64 {
    (wait.as_secs() + u64::from(wait.subsec_nanos() > 0)).max(1)
}

impl AppError {
    pub fn status(&self) -> StatusCode {
        match self {
            AppError::Validation { .. } | AppError::BadRequest(_) => StatusCode::BAD_REQUEST,
            AppError::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            AppError::Forbidden(_) => StatusCode::FORBIDDEN,
            AppError::NotFound(_) => StatusCode::NOT_FOUND,
            AppError::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            AppError::Conflict(_) => StatusCode::CONFLICT,
            AppError::PayloadTooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            AppError::UnsupportedMediaType(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            AppError::Unprocessable(_) => StatusCode::UNPROCESSABLE_ENTITY,
            AppError::FieldRefused { status, .. } => *status,
            AppError::Locked(_) => StatusCode::LOCKED,
            AppError::TooManyRequests { .. } => StatusCode::TOO_MANY_REQUESTS,
            AppError::Contended | AppError::NotRecorded => StatusCode::SERVICE_UNAVAILABLE,
            AppError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    pub fn forbidden() -> Self {
        AppError::Forbidden(FORBIDDEN.into())
    }

    pub fn invalid_credentials() -> Self {
        AppError::Unauthorized(INVALID_CREDENTIALS.into())
    }

    /// An image that is too large (413).
    pub fn image_too_large(message: &str) -> Self {
        AppError::FieldRefused { status: StatusCode::PAYLOAD_TOO_LARGE, field: "file", message: message.into() }
    }

    /// Bytes that are not an accepted image (415).
    pub fn not_an_image(message: &str) -> Self {
        AppError::FieldRefused { status: StatusCode::UNSUPPORTED_MEDIA_TYPE, field: "file", message: message.into() }
    }

    /// A value that must be unique and is taken (409), e.g. an e-mail.
    pub fn taken(field: &'static str, message: &str) -> Self {
        AppError::FieldRefused { status: StatusCode::CONFLICT, field, message: message.into() }
    }

    /// A row the request names under `field` that does not exist, or not where the request's
    /// other fields put it (404); the form marks that field.
    pub fn no_such(field: &'static str, message: impl Into<String>) -> Self {
        AppError::FieldRefused { status: StatusCode::NOT_FOUND, field, message: message.into() }
    }

    /// A row that exists but whose state refuses what the request asks (409), marked on `field`.
    pub fn conflict_on(field: &'static str, message: impl Into<String>) -> Self {
        AppError::FieldRefused { status: StatusCode::CONFLICT, field, message: message.into() }
    }

    /// A single-field validation failure.
    pub fn field(field: &str, message: impl Into<String>) -> Self {
        let message = message.into();
        AppError::Validation { errors: BTreeMap::from([(field.to_string(), message.clone())]), message }
    }
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        let status = self.status();
        let field_errors;
        let (message, errors) = match &self {
            AppError::Internal(error) => {
                tracing::error!(error = format!("{error:#}"), "request failed");
                (INTERNAL.to_string(), None)
            }
            AppError::Validation { message, errors } => (message.clone(), Some(errors)),
            AppError::FieldRefused { field, message, .. } => {
                field_errors = BTreeMap::from([(field.to_string(), message.clone())]);
                (message.clone(), Some(&field_errors))
            }
            other => (other.to_string(), None),
        };
        #[cfg(debug_assertions)]
        if let Some(text) = first_undeclared(&message, errors, super::refusals::is_declared) {
            // A tripwire for the tests (debug builds only): every refusal text is declared, so the
            // OpenAPI document lists it and the panel's catalogues can translate it.
            tracing::error!(text, "refusal text not declared");
            let message = format!("Undeclared refusal text (declare it beside its route): {text}");
            let body = ErrorBody { message: &message, errors: None };
            return (StatusCode::INTERNAL_SERVER_ERROR, axum::Json(body)).into_response();
        }
        let body = ErrorBody { message: &message, errors };
        let mut response = (status, axum::Json(body)).into_response();
        match self {
            AppError::TooManyRequests { retry_after_secs, .. } => {
                response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(retry_after_secs));
            }
            AppError::Contended => {
                response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(1));
                response.extensions_mut().insert(Contended);
            }
            _ => {}
        }
        response
    }
}

/// The first of a refusal's texts (its message, then its fields') that `is_declared` says is not
/// declared; a check that cannot tell (`None`) passes.
#[cfg(any(debug_assertions, test))]
fn first_undeclared<'a>(
    message: &'a str,
    errors: Option<&'a BTreeMap<String, String>>,
    is_declared: impl Fn(&str) -> Option<bool>,
) -> Option<&'a str> {
    std::iter::once(message)
        .chain(errors.into_iter().flat_map(|errors| errors.values().map(String::as_str)))
        .find(|text| is_declared(text) == Some(false))
}

impl From<r2d2::Error> for AppError {
    fn from(error: r2d2::Error) -> Self {
        AppError::Internal(error.into())
    }
}

impl From<tokio::task::JoinError> for AppError {
    fn from(error: tokio::task::JoinError) -> Self {
        AppError::Internal(error.into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refusal_whose_message_or_field_text_is_not_declared_is_found() {
        let declared = |text: &str| Some(["Name is required", "Image not found."].contains(&text));
        let errors = BTreeMap::from([("name".to_string(), "Name is required".to_string())]);
        assert_eq!(first_undeclared("Name is required", Some(&errors), declared), None);
        assert_eq!(first_undeclared("Gone.", Some(&errors), declared), Some("Gone."));
        let errors = BTreeMap::from([("file".to_string(), "Too big".to_string())]);
        assert_eq!(first_undeclared("Image not found.", Some(&errors), declared), Some("Too big"));
        // Before any router declared the texts, nothing is refused.
        assert_eq!(first_undeclared("Gone.", None, |_| None), None);
    }
}
