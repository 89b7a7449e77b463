//! Accepting connections with limits: how many may be open at once, how long a client may take
//! to send a request's head, and what happens when the process runs out of file descriptors.
//!
//! The protocol work is hyper's (HTTP/1.1 with its header-read timeout and keep-alive) and the
//! graceful shutdown is hyper-util's; this module only owns the accept loop around them, because
//! `axum::serve` offers neither a head timeout nor a connection cap.

use std::convert::Infallible;
use std::future::Future;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::Router;
use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tower::ServiceExt;

/// Limits on connections, from the `serve` flags.
#[derive(Clone, Copy, Debug)]
pub struct ConnectionLimits {
    /// A connection that has not sent a complete request head this long after it opened, or
    /// after its last answer, is closed. This also closes idle keep-alive connections.
    pub request_head_timeout: Duration,
    /// At most this many connections are open; further clients wait in the kernel's queue.
    pub max_connections: usize,
}

/// Descriptors kept free beside the connections: the database files, the log, the exports'
/// temporary files, the blocking pool.
const RESERVED_DESCRIPTORS: u64 = 256;

/// Raises the soft open-file limit to the hard limit and returns the connection cap that fits
/// under it (`wanted`, or fewer when the limit is low).
pub fn fit_to_file_limit(wanted: usize) -> usize {
    let limit = match rlimit::increase_nofile_limit(u64::MAX) {
        Ok(limit) => limit,
        Err(error) => {
            tracing::warn!(%error, "cannot raise the open-file limit");
            rlimit::getrlimit(rlimit::Resource::NOFILE).map(|(soft, _)| soft).unwrap_or(1024)
        }
    };
    let fits = limit.saturating_sub(RESERVED_DESCRIPTORS).max(16);
    let cap = (wanted as u64).min(fits) as usize;
    if cap < wanted {
        tracing::warn!(open_file_limit = limit, max_connections = cap, "the open-file limit allows fewer connections");
    }
    cap
}

/// Serves `app` on `listener` until `shutdown` completes, then lets open requests finish for up
/// to `grace`.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: ConnectionLimits,
    shutdown: impl Future<Output = ()>,
    grace: Duration,
) {
    let slots = Arc::new(Semaphore::new(limits.max_connections.max(1)));
    let graceful = GracefulShutdown::new();
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new()).header_read_timeout(limits.request_head_timeout).keep_alive(true);
    tokio::pin!(shutdown);
    let mut last_accept_error: Option<Instant> = None;
    loop {
        // A slot first: at the cap, nothing more is accepted until a connection closes.
        let slot = tokio::select! {
            slot = slots.clone().acquire_owned() => match slot {
                Ok(slot) => slot,
                Err(_) => break,
            },
            () = &mut shutdown => break,
        };
        let (stream, remote) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(error) => {
                    // Most often "too many open files": wait for descriptors to be freed instead
                    // of spinning, and say so once a second at most.
                    if last_accept_error.is_none_or(|at| at.elapsed() >= Duration::from_secs(1)) {
                        tracing::warn!(%error, "cannot accept a connection; retrying shortly");
                        last_accept_error = Some(Instant::now());
                    }
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let _ = stream.set_nodelay(true);
        let router = app.clone();
        let service = hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
            request.extensions_mut().insert(ConnectInfo(remote));
            let router = router.clone();
            async move {
                let Ok(response) = router.oneshot(request.map(axum::body::Body::new)).await;
                Ok::<_, Infallible>(response)
            }
        });
        let connection = graceful.watch(http.serve_connection(TokioIo::new(stream), service));
        tokio::spawn(async move {
            // A client that goes away or times out ends its connection; nothing to report.
            let _ = connection.await;
            drop(slot);
        });
    }
    drop(listener);
    if tokio::time::timeout(grace, graceful.shutdown()).await.is_err() {
        tracing::warn!("requests were still running after the grace period; stopping anyway");
    }
}
