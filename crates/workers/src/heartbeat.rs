//! Whether a worker's loop still turns: the runner beats at each turn of its loop (it
//! turns at least once per poll, claiming or waiting), and a loop that has not beaten for
//! [`Heartbeat::limit`] is stalled: a claim that never returns, a database that hangs. A
//! process's readiness says so.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// The beat of one worker's loop.
#[derive(Debug)]
pub struct Heartbeat {
    name: &'static str,
    started: Instant,
    /// Milliseconds from `started` to the last beat.
    last: AtomicU64,
    limit: Duration,
}

impl Heartbeat {
    /// The beat of worker `name`, whose loop waits at most `poll` between turns: stalled
    /// after three polls without a beat, and never sooner than 30 s.
    #[must_use]
    pub fn new(name: &'static str, poll: Duration) -> Self {
        Self::with_limit(name, (poll * 3).max(Duration::from_secs(30)))
    }

    /// The beat of worker `name`, stalled after `limit` without one.
    #[must_use]
    pub fn with_limit(name: &'static str, limit: Duration) -> Self {
        Self {
            name,
            started: Instant::now(),
            last: AtomicU64::new(0),
            limit,
        }
    }

    /// The worker's name.
    #[must_use]
    pub const fn name(&self) -> &'static str {
        self.name
    }

    /// How long the loop may go without a beat.
    #[must_use]
    pub const fn limit(&self) -> Duration {
        self.limit
    }

    /// A turn of the loop.
    pub fn beat(&self) {
        let now = u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX);
        self.last.store(now, Ordering::Relaxed);
    }

    /// How long since the last beat (since the start, before the first).
    #[must_use]
    pub fn silent_for(&self) -> Duration {
        let last = Duration::from_millis(self.last.load(Ordering::Relaxed));
        self.started.elapsed().saturating_sub(last)
    }

    /// Whether the loop has stalled.
    #[must_use]
    pub fn stalled(&self) -> bool {
        self.silent_for() > self.limit
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_loop_stalls_after_three_polls_and_never_under_thirty_seconds() {
        assert_eq!(
            Heartbeat::new("tracker", Duration::from_millis(100)).limit(),
            Duration::from_secs(30)
        );
        assert_eq!(
            Heartbeat::new("dispatcher", Duration::from_secs(60)).limit(),
            Duration::from_secs(180)
        );
        let beat = Heartbeat::new("tracker", Duration::from_millis(100));
        beat.beat();
        assert!(!beat.stalled());
        assert!(beat.silent_for() < Duration::from_secs(1));
    }
}
