//! How often a request is looked at and when it gives up: the lifecycle's and the
//! tracking cadence's settings, configured by the operator.

use std::time::Duration;

use serde::{Deserialize, Serialize};

/// The intervals and limits of the lifecycle (all from configuration: the `[tracking]`
/// section, durations written as `"90s"`, `"3h"`, `"7days"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Policy {
    /// Wait before the first retry after a temporary problem.
    #[serde(with = "humantime_serde")]
    pub retry_first: Duration,
    /// Longest wait between retries (the wait doubles up to it).
    #[serde(with = "humantime_serde")]
    pub retry_max: Duration,
    /// Retries before giving up with `retries_exhausted`.
    pub max_retries: u32,
    /// Wait between checks while awaiting the manifest.
    #[serde(with = "humantime_serde")]
    pub manifest_recheck: Duration,
    /// Time after creation at which a request still awaiting its manifest expires.
    #[serde(with = "humantime_serde")]
    pub manifest_expiry: Duration,
    /// Refresh interval of a shipment before departure or after pickup.
    #[serde(with = "humantime_serde")]
    pub refresh: Duration,
    /// Refresh interval while the containers are at sea, far from arrival.
    #[serde(with = "humantime_serde")]
    pub refresh_at_sea: Duration,
    /// Refresh interval near arrival and while containers wait at the terminal.
    #[serde(with = "humantime_serde")]
    pub refresh_near: Duration,
    /// Refresh interval while the carrier pushes the shipment's events: a safety net.
    #[serde(with = "humantime_serde")]
    pub refresh_pushed: Duration,
    /// How close to the estimated arrival "near" starts.
    #[serde(with = "humantime_serde")]
    pub near_window: Duration,
    /// Tracking stops this long after the arrival at the port of discharge.
    #[serde(with = "humantime_serde")]
    pub stop_after_arrival: Duration,
    /// Tracking stops after this long without a change in the carrier's data.
    #[serde(with = "humantime_serde")]
    pub stop_without_updates: Duration,
}

impl Default for Policy {
    /// The contract's values: 14 retries over about 24 hours (1, 2, 4 … minutes, then every
    /// 3 hours), a manifest check every 24 hours for 7 days.
    fn default() -> Self {
        Self {
            retry_first: Duration::from_secs(60),
            retry_max: Duration::from_secs(3 * 3600),
            max_retries: 14,
            manifest_recheck: Duration::from_secs(24 * 3600),
            manifest_expiry: Duration::from_secs(7 * 24 * 3600),
            refresh: Duration::from_secs(3 * 3600),
            refresh_at_sea: Duration::from_secs(6 * 3600),
            refresh_near: Duration::from_secs(3600),
            refresh_pushed: Duration::from_secs(24 * 3600),
            near_window: Duration::from_secs(48 * 3600),
            stop_after_arrival: Duration::from_secs(56 * 24 * 3600),
            stop_without_updates: Duration::from_secs(56 * 24 * 3600),
        }
    }
}

impl Policy {
    /// The longest this policy waits before a shipment's next refresh.
    #[must_use]
    pub fn longest_refresh(&self) -> Duration {
        // Not `refresh_pushed`: a start that brings refreshes forward reads a pushed
        // shipment once more than it must, rather than leaving the others late.
        self.refresh.max(self.refresh_at_sea).max(self.refresh_near)
    }

    /// The longest this policy waits before a request's next lookup (a manifest re-check
    /// or a retry).
    #[must_use]
    pub fn longest_lookup_wait(&self) -> Duration {
        self.manifest_recheck.max(self.retry_max)
    }

    /// The wait before retry number `retry` (1 = the first): doubling from `retry_first`,
    /// at most `retry_max`.
    #[must_use]
    pub fn retry_delay(&self, retry: u32) -> Duration {
        let doublings = retry.saturating_sub(1).min(30);
        self.retry_first
            .saturating_mul(1 << doublings)
            .min(self.retry_max)
    }
}
