//! Accepting connections with limits: how many may be open at once and how many one client
//! address may hold (`connections`), how long a client may take to send a request's head, and
//! what happens when the process runs out of file descriptors.
//!
//! The protocol work is hyper's (HTTP/1.1 with its header-read timeout, keep-alive and a
//! connection's graceful shutdown); this module only owns the accept loop around it, because
//! `axum::serve` offers neither a head timeout nor a connection cap.

use std::convert::Infallible;
use std::future::Future;
use std::net::IpAddr;
use std::time::{Duration, Instant};

use axum::Router;
use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;
use tokio_util::task::TaskTracker;
use tower::ServiceExt;

use super::connections::{Admission, Registry, Shares};

/// Limits on connections, from the `serve` flags.
#[derive(Clone, Debug)]
pub struct ConnectionLimits {
    /// A connection that has not sent a complete request head this long after it opened, or
    /// after its last answer, is closed. This also closes idle keep-alive connections.
    pub request_head_timeout: Duration,
    /// At most this many connections are open (near it, the address holding the most gives way).
    pub max_connections: usize,
    /// At most this many of them from one client address.
    pub per_address: usize,
    /// Load balancers and proxies in front, which carry many clients and hold no share.
    pub exempt: Vec<IpAddr>,
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
    let cap = limits.max_connections.max(1);
    let registry =
        Registry::new(Shares { cap, per_address: limits.per_address.clamp(1, cap), exempt: limits.exempt.clone() });
    let (stopping, stop) = tokio::sync::watch::channel(false);
    let tasks = TaskTracker::new();
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new()).header_read_timeout(limits.request_head_timeout).keep_alive(true);
    tokio::pin!(shutdown);
    let mut last_accept_error: Option<Instant> = None;
    loop {
        let (stream, remote) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(error) => {
                    // Most often "too many open files": the address holding the most gives up its
                    // idlest connection for the clients waiting in the kernel's queue, and the
                    // loop waits for descriptors to be freed instead of spinning, saying so once
                    // a second at most.
                    registry.make_room();
                    if last_accept_error.is_none_or(|at| at.elapsed() >= Duration::from_secs(1)) {
                        tracing::warn!(%error, "cannot accept a connection; retrying shortly");
                        last_accept_error = Some(Instant::now());
                    }
                    tokio::time::sleep(Duration::from_millis(10)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let place = match registry.admit(remote.ip()) {
            Admission::Admitted(place) => place,
            // Closed at once: the client's address holds its share, all of it busy.
            Admission::Refused => continue,
        };
        let _ = stream.set_nodelay(true);
        let router = app.clone();
        let on_connection = place.connection().clone();
        let service = hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
            request.extensions_mut().insert(ConnectInfo(remote));
            let (router, connection) = (router.clone(), on_connection.clone());
            connection.begin();
            async move {
                let Ok(response) = router.oneshot(request.map(axum::body::Body::new)).await;
                connection.end();
                Ok::<_, Infallible>(response)
            }
        });
        let connection = http.serve_connection(TokioIo::new(stream), service);
        let mut stop = stop.clone();
        tasks.spawn(async move {
            tokio::pin!(connection);
            // Asked to close (the server stops, or its place goes to another client): hyper
            // closes an idle connection at once and a busy one after its answer.
            tokio::select! {
                _ = connection.as_mut() => return,
                () = place.connection().closing() => {}
                _ = stop.wait_for(|stopping| *stopping) => {}
            }
            connection.as_mut().graceful_shutdown();
            // A client that goes away or times out ends its connection; nothing to report.
            let _ = connection.await;
        });
    }
    drop(listener);
    let _ = stopping.send(true);
    tasks.close();
    if tokio::time::timeout(grace, tasks.wait()).await.is_err() {
        tracing::warn!("requests were still running after the grace period; stopping anyway");
    }
}
