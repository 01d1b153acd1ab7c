//! Waiting for something another task or process does: poll with a deadline, the one
//! place a test pauses between looks.

use std::future::Future;
use std::time::{Duration, Instant};

/// Polls `check` every 20 ms until it holds; fails, saying `what`, once `limit` has passed
/// since `from`.
pub async fn poll_until<F, Fut>(
    from: Instant,
    limit: Duration,
    what: impl Fn() -> String,
    mut check: F,
) where
    F: FnMut() -> Fut,
    Fut: Future<Output = bool>,
{
    while !check().await {
        assert!(from.elapsed() < limit, "not within {limit:?}: {}", what());
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}
