//! `x-requestid` on mutations: the first successful answer is stored for 24 hours and a repeat
//! gets it back without the work being done again; the same id with another payload is a 422.

use axum::body::{Body, Bytes, to_bytes};
use axum::extract::{Request, State};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use rusqlite::OptionalExtension;
use sha2::{Digest, Sha256};
use time::{Duration, OffsetDateTime};

use crate::db::{format_iso, now_iso};
use crate::error::AppError;
use crate::state::AppState;

pub const HEADER: &str = "x-requestid";
const KEEP_FOR: Duration = Duration::hours(24);
/// A claim older than this whose request never finished (a crash) no longer blocks retries.
const ABANDONED_AFTER: Duration = Duration::minutes(5);
/// Largest request body the middleware buffers (the multipart cap).
pub const MAX_BODY: usize = 6 * 1024 * 1024;
const MAX_STORED_RESPONSE: usize = 1024 * 1024;

enum Claim {
    New,
    Done { status: u16, content_type: Option<String>, body: Vec<u8> },
    OtherPayload,
    Running,
}

pub async fn middleware(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let is_mutation = matches!(*request.method(), Method::POST | Method::PUT | Method::PATCH | Method::DELETE);
    let request_id = request
        .headers()
        .get(HEADER)
        .and_then(|v| v.to_str().ok())
        .map(|v| v.trim().to_string())
        .filter(|v| !v.is_empty());
    let (Some(request_id), true) = (request_id, is_mutation) else {
        return next.run(request).await;
    };
    if request_id.len() > 100 {
        return AppError::BadRequest("x-requestid must be at most 100 characters.".into()).into_response();
    }
    let user_id = crate::auth::bearer_token(request.headers())
        .and_then(|token| state.keys.verify(token))
        .map_or(0, |claims| claims.user_id);
    let (parts, body) = request.into_parts();
    let Ok(bytes) = to_bytes(body, MAX_BODY).await else {
        return AppError::PayloadTooLarge("The request body is too large.".into()).into_response();
    };
    let method = parts.method.to_string();
    let path = parts.uri.path().to_string();
    let payload_hash = {
        let mut hasher = Sha256::new();
        for part in [method.as_bytes(), path.as_bytes(), parts.uri.query().unwrap_or("").as_bytes(), &bytes] {
            hasher.update((part.len() as u64).to_le_bytes());
            hasher.update(part);
        }
        hex::encode(hasher.finalize())
    };
    let claim = {
        let (request_id, method, path, payload_hash) = (request_id.clone(), method, path, payload_hash);
        state.db.write(move |tx| claim(tx, &request_id, user_id, &method, &path, &payload_hash)).await
    };
    match claim {
        Err(error) => return error.into_response(),
        Ok(Claim::Done { status, content_type, body }) => return replay(status, content_type, body),
        Ok(Claim::OtherPayload) => {
            return AppError::Unprocessable("This x-requestid was already used for a different request.".into())
                .into_response();
        }
        Ok(Claim::Running) => {
            return AppError::Conflict("A request with this x-requestid is still being processed.".into())
                .into_response();
        }
        Ok(Claim::New) => {}
    }
    let response = next.run(Request::from_parts(parts, Body::from(bytes))).await;
    let (parts, body) = response.into_parts();
    if !parts.status.is_success() {
        // Nothing was done: a retry with this id may run again.
        release(&state, request_id, user_id).await;
        return Response::from_parts(parts, body);
    }
    let Ok(stored_body) = to_bytes(body, MAX_STORED_RESPONSE).await else {
        release(&state, request_id, user_id).await;
        return AppError::Internal(anyhow::anyhow!("a mutation answered more than can be stored")).into_response();
    };
    let content_type = parts.headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).map(str::to_string);
    let (status, stored) = (parts.status.as_u16(), stored_body.to_vec());
    let saved = state
        .db
        .write(move |tx| {
            tx.execute(
                "UPDATE idempotency_keys SET status = ?3, content_type = ?4, body = ?5
                 WHERE request_id = ?1 AND user_id = ?2",
                (&request_id, user_id, status, content_type, stored),
            )?;
            Ok(())
        })
        .await;
    if let Err(error) = saved {
        tracing::error!(error = %error, "cannot store the answer of an x-requestid");
    }
    Response::from_parts(parts, Body::from(stored_body))
}

async fn release(state: &AppState, request_id: String, user_id: i64) {
    let released = state
        .db
        .write(move |tx| {
            tx.execute("DELETE FROM idempotency_keys WHERE request_id = ?1 AND user_id = ?2", (&request_id, user_id))?;
            Ok(())
        })
        .await;
    if let Err(error) = released {
        tracing::error!(error = %error, "cannot release an x-requestid claim");
    }
}

fn claim(
    tx: &rusqlite::Transaction,
    request_id: &str,
    user_id: i64,
    method: &str,
    path: &str,
    payload_hash: &str,
) -> Result<Claim, AppError> {
    let now = OffsetDateTime::now_utc();
    tx.execute("DELETE FROM idempotency_keys WHERE created_at < ?1", [format_iso(now - KEEP_FOR)])?;
    let existing = tx
        .query_row(
            "SELECT payload_hash, status, content_type, body, created_at FROM idempotency_keys
             WHERE request_id = ?1 AND user_id = ?2",
            (request_id, user_id),
            |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, Option<u16>>(1)?,
                    r.get::<_, Option<String>>(2)?,
                    r.get::<_, Option<Vec<u8>>>(3)?,
                    r.get::<_, String>(4)?,
                ))
            },
        )
        .optional()?;
    match existing {
        Some((hash, _, _, _, _)) if hash != payload_hash => Ok(Claim::OtherPayload),
        Some((_, Some(status), content_type, body, _)) => {
            Ok(Claim::Done { status, content_type, body: body.unwrap_or_default() })
        }
        Some((_, None, _, _, created_at)) if created_at > format_iso(now - ABANDONED_AFTER) => Ok(Claim::Running),
        _ => {
            tx.execute(
                "INSERT OR REPLACE INTO idempotency_keys (request_id, user_id, method, path, payload_hash, created_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                (request_id, user_id, method, path, payload_hash, now_iso()),
            )?;
            Ok(Claim::New)
        }
    }
}

fn replay(status: u16, content_type: Option<String>, body: Vec<u8>) -> Response {
    let mut response = Response::new(Body::from(Bytes::from(body)));
    *response.status_mut() = StatusCode::from_u16(status).unwrap_or(StatusCode::OK);
    if let Some(value) = content_type.and_then(|c| HeaderValue::from_str(&c).ok()) {
        response.headers_mut().insert(header::CONTENT_TYPE, value);
    }
    response.headers_mut().insert("x-idempotent-replay", HeaderValue::from_static("true"));
    response
}
