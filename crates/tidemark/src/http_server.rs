//! The HTTP/1.1 server under the router: accepts connections, cuts clients too slow to send
//! their headers, and shuts down gracefully. axum's own `serve` has no header timeout, so
//! connections are served with hyper directly, one task each.
//!
//! What this layer answers before the router sees a request (docs/operations.md): a
//! malformed request line or header block (a bad header line, an HTTP version other than
//! 1.0 or 1.1, two different `Content-Length`s, a `Transfer-Encoding` other than chunked)
//! gets a bare `400` with `connection: close`, and so does a header value with a control
//! character or a `Content-Length` that is no number; a header block over
//! [`MAX_HEADER_BYTES`] or of more than [`MAX_HEADERS`] headers gets `431`; headers not
//! complete within `header_timeout` close the connection, and so does HTTP/2 spoken
//! without an upgrade (its preface is not an HTTP/1 request line).

use std::time::Duration;

use axum::Router;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

/// The largest header block accepted (431 beyond): keys and ids are short, and hyper's own
/// default (about 400 KiB) lets one request hold far more memory than any client needs.
pub const MAX_HEADER_BYTES: usize = 32 * 1024;

/// The most headers a request may have (431 beyond): hyper's default is 100, which a
/// client within [`MAX_HEADER_BYTES`] can pass with short headers; this lets any request
/// of short headers that fits the block through, and no more.
pub const MAX_HEADERS: usize = 400;

/// How the server treats slow clients and shutdowns.
#[derive(Debug, Clone, Copy)]
pub struct ServerSettings {
    /// Longest wait for a request's headers, from its first byte (or from the connection's
    /// start or its last answer when idle).
    pub header_timeout: Duration,
    /// How long requests in flight may finish after shutdown begins.
    pub grace: Duration,
}

impl Default for ServerSettings {
    fn default() -> Self {
        Self {
            header_timeout: Duration::from_secs(10),
            grace: Duration::from_secs(5),
        }
    }
}

/// Serves `router` on `listener` until `shutdown` is cancelled, then lets requests in
/// flight finish for up to `settings.grace`.
///
/// # Errors
/// Never today: a failed accept is logged and the loop goes on.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    shutdown: CancellationToken,
    settings: ServerSettings,
) -> std::io::Result<()> {
    let graceful = GracefulShutdown::new();
    let mut http = http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(settings.header_timeout)
        .max_header_size(MAX_HEADER_BYTES)
        .max_headers(MAX_HEADERS)
        .keep_alive(true);
    loop {
        let (stream, _peer) = tokio::select! {
            () = shutdown.cancelled() => break,
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(error) => {
                    // Out of file descriptors and the like: wait a moment, keep serving.
                    tracing::warn!(%error, "accepting a connection failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
        };
        let _ = stream.set_nodelay(true);
        let service = TowerToHyperService::new(router.clone());
        let connection = graceful.watch(http.serve_connection(TokioIo::new(stream), service));
        tokio::spawn(async move {
            if let Err(error) = connection.await {
                tracing::debug!(%error, "connection ended with an error");
            }
        });
    }
    drop(listener);
    tokio::select! {
        () = graceful.shutdown() => {}
        () = tokio::time::sleep(settings.grace) => {
            tracing::warn!(
                grace_secs = settings.grace.as_secs(),
                "requests still in flight after the grace period; stopping"
            );
        }
    }
    Ok(())
}
