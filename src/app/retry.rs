//! On PostgreSQL, a write that lost to a concurrent one on another app server (a serialization
//! failure or a deadlock: `AppError::Contended`) left nothing behind, so the whole request is run
//! again, reading afresh what the winner wrote: approving a campaign twice at once on two servers
//! answers one 200 and one "already approved", never a 500. Write transactions are SERIALIZABLE
//! (`db::sql`), so every read-then-write handler is covered without locks of its own.
//!
//! A request is tried [`ATTEMPTS`] times with short, growing, jittered pauses (about 1.5 s in
//! all at most); the last loser answers 503 with `Retry-After`. Its body is kept for the retries,
//! up to the largest body any route accepts; a larger one is passed on as it came, tried once,
//! for the route to refuse. On SQLite (one writer at a time) no write ever contends, and requests
//! pass straight through.

use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::Response;
use bytes::BytesMut;
use futures_util::StreamExt;
use rand::Rng;

use crate::core::error::Contended;
use crate::http::reply::is_mutation;
use crate::http::state::AppState;

/// Runs of one request at most: writers racing for the same rows (a dozen placing categories
/// at once) win one per round.
const ATTEMPTS: u32 = 10;
/// The first pause; each next one doubles up to [`LONGEST_PAUSE`], with up to as much again at
/// random so the losers do not meet again.
const FIRST_PAUSE: Duration = Duration::from_millis(5);
const LONGEST_PAUSE: Duration = Duration::from_millis(200);

pub async fn middleware(State(state): State<AppState>, request: Request, next: Next) -> Response {
    if !is_mutation(request.method()) || !state.db.is_shared() {
        return next.run(request).await;
    }
    let (parts, body) = request.into_parts();
    let bytes = match kept(body, super::idempotency::MAX_BODY).await {
        Kept::Whole(bytes) => bytes,
        // Larger than any route takes: the handler refuses it in its own words, once.
        Kept::Passed(body) => return next.run(Request::from_parts(parts, body)).await,
    };
    let (mut attempt, mut pause) = (1, FIRST_PAUSE);
    loop {
        let response = next.clone().run(Request::from_parts(parts.clone(), Body::from(bytes.clone()))).await;
        // The last try's answer is the client's, a 503 of `AppError::Contended` included.
        if attempt == ATTEMPTS || response.extensions().get::<Contended>().is_none() {
            return response;
        }
        let jitter = rand::rng().random_range(0..=pause.as_millis() as u64);
        tracing::info!(attempt, "running a request again after it lost to a concurrent write");
        tokio::time::sleep(pause + Duration::from_millis(jitter)).await;
        (attempt, pause) = (attempt + 1, (pause * 2).min(LONGEST_PAUSE));
    }
}

/// A request body, kept whole for the retries, or passed on as it came when it is larger than
/// `most` (or breaks off): what was read goes first, then the rest of the stream.
enum Kept {
    Whole(Bytes),
    Passed(Body),
}

async fn kept(body: Body, most: usize) -> Kept {
    let mut stream = body.into_data_stream();
    let (mut chunks, mut size) = (Vec::new(), 0usize);
    while let Some(chunk) = stream.next().await {
        match chunk {
            Ok(chunk) => {
                size += chunk.len();
                chunks.push(Ok(chunk));
                if size > most {
                    return Kept::Passed(Body::from_stream(futures_util::stream::iter(chunks).chain(stream)));
                }
            }
            Err(error) => {
                chunks.push(Err(error));
                return Kept::Passed(Body::from_stream(futures_util::stream::iter(chunks)));
            }
        }
    }
    let mut whole = BytesMut::with_capacity(size);
    for chunk in chunks.into_iter().flatten() {
        whole.extend_from_slice(&chunk);
    }
    Kept::Whole(whole.freeze())
}
