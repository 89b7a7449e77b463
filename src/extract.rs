//! Request extractors whose rejections are `AppError`s, so bad JSON or queries get the same
//! `{message}` body as every other failure.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};

use axum::extract::rejection::JsonRejection;
use axum::extract::{ConnectInfo, FromRequest, FromRequestParts, Request};
use axum::http::StatusCode;
use axum::http::request::Parts;
use serde::de::DeserializeOwned;

use crate::error::AppError;

/// `axum::Json` with errors rendered as `{message}`.
pub struct ApiJson<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for ApiJson<T> {
    type Rejection = AppError;

    async fn from_request(req: Request, state: &S) -> Result<Self, AppError> {
        match axum::Json::<T>::from_request(req, state).await {
            Ok(axum::Json(value)) => Ok(ApiJson(value)),
            Err(rejection) => Err(json_rejection(rejection)),
        }
    }
}

fn json_rejection(rejection: JsonRejection) -> AppError {
    match rejection.status() {
        StatusCode::PAYLOAD_TOO_LARGE => AppError::PayloadTooLarge("The request body is too large.".into()),
        StatusCode::UNSUPPORTED_MEDIA_TYPE => {
            AppError::UnsupportedMediaType("Send the request body as application/json.".into())
        }
        _ => {
            let detail = match &rejection {
                JsonRejection::JsonDataError(e) => e.body_text(),
                JsonRejection::JsonSyntaxError(e) => e.body_text(),
                other => other.body_text(),
            };
            let detail = detail
                .trim_start_matches("Failed to deserialize the JSON body into the target type: ")
                .trim_start_matches("Failed to parse the request body as JSON: ");
            AppError::BadRequest(format!("The request body is not valid: {detail}"))
        }
    }
}

/// Query parameters with case-insensitive names (`skip`, `Skip` and `SKIP` are one parameter),
/// as the original back end accepted them.
#[derive(Debug, Default, Clone)]
pub struct QueryMap(HashMap<String, String>);

impl QueryMap {
    pub fn parse(query: Option<&str>) -> QueryMap {
        let pairs = query
            .map(|q| {
                form_urlencoded::parse(q.as_bytes()).map(|(k, v)| (k.to_ascii_lowercase(), v.into_owned())).collect()
            })
            .unwrap_or_default();
        QueryMap(pairs)
    }

    /// The trimmed value, `None` when missing or blank.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0.get(&name.to_ascii_lowercase()).map(|v| v.trim()).filter(|v| !v.is_empty())
    }

    /// A whole number, or a 400 naming the parameter.
    pub fn int(&self, name: &str) -> Result<Option<i64>, AppError> {
        self.get(name)
            .map(|v| v.parse::<i64>().map_err(|_| AppError::BadRequest(format!("{name} must be a whole number."))))
            .transpose()
    }

    pub fn bool(&self, name: &str) -> Result<Option<bool>, AppError> {
        self.get(name)
            .map(|v| match v.to_ascii_lowercase().as_str() {
                "true" | "1" => Ok(true),
                "false" | "0" => Ok(false),
                _ => Err(AppError::BadRequest(format!("{name} must be true or false."))),
            })
            .transpose()
    }
}

impl<S: Send + Sync> FromRequestParts<S> for QueryMap {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, AppError> {
        Ok(QueryMap::parse(parts.uri.query()))
    }
}

/// The client's address; unknown (e.g. in router tests) counts as loopback.
pub struct ClientIp(pub IpAddr);

impl<S: Send + Sync> FromRequestParts<S> for ClientIp {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, AppError> {
        let ip = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|ConnectInfo(addr)| addr.ip())
            .unwrap_or(IpAddr::V4(Ipv4Addr::LOCALHOST));
        Ok(ClientIp(ip))
    }
}

/// A numeric `{id}` path segment with a JSON 400 when it is not a number.
pub struct PathId(pub i64);

impl<S: Send + Sync> FromRequestParts<S> for PathId {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, AppError> {
        let axum::extract::Path(raw) = axum::extract::Path::<String>::from_request_parts(parts, state)
            .await
            .map_err(|_| AppError::BadRequest("The id in the address is missing.".into()))?;
        raw.parse::<i64>().map(PathId).map_err(|_| AppError::BadRequest(format!("'{raw}' is not a valid id.")))
    }
}
