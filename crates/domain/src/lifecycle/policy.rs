//! How often a request is looked at and when it gives up: the lifecycle's and the
//! tracking cadence's settings, configured by the operator.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::Scac;

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
    /// How often Tidemark's own arrival estimate of a shipment at sea is made again from
    /// its vessel's latest position.
    #[serde(with = "humantime_serde")]
    pub predict_every: Duration,
    /// How far Tidemark's arrival estimate and the carrier's may differ before
    /// `shipment.predicted_arrival.diverged` is recorded.
    #[serde(with = "humantime_serde")]
    pub prediction_margin: Duration,
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
            predict_every: Duration::from_secs(3600),
            prediction_margin: Duration::from_secs(12 * 3600),
        }
    }
}

impl Policy {
    /// The sandbox line's cadence: each path of its scripted numbers within minutes (a
    /// retry after 2 s doubling to 20 s, 14 of them in about four minutes; the manifest
    /// checked every 30 s for 4 minutes; a refresh every minute, every 30 s near
    /// arrival; its own arrival estimate made every minute). Its stop rules and the
    /// estimate's margin are the contract's.
    #[must_use]
    pub fn sandbox() -> Self {
        Self {
            retry_first: Duration::from_secs(2),
            retry_max: Duration::from_secs(20),
            max_retries: 14,
            manifest_recheck: Duration::from_secs(30),
            manifest_expiry: Duration::from_secs(4 * 60),
            refresh: Duration::from_secs(60),
            refresh_at_sea: Duration::from_secs(60),
            refresh_near: Duration::from_secs(30),
            refresh_pushed: Duration::from_secs(10 * 60),
            predict_every: Duration::from_secs(60),
            ..Self::default()
        }
    }

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

/// The policy each request is decided by: the sandbox line `TEST`'s own (`[sandbox.tracking]`,
/// so that its scripted numbers play their paths within minutes), the configured one
/// (`[tracking]`) for every other line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Policies {
    /// Every line's but the sandbox's.
    pub line: Policy,
    /// The sandbox line's.
    pub sandbox: Policy,
}

impl Default for Policies {
    fn default() -> Self {
        Self {
            line: Policy::default(),
            sandbox: Policy::sandbox(),
        }
    }
}

impl From<Policy> for Policies {
    /// One policy for every line, the sandbox's included.
    fn from(policy: Policy) -> Self {
        Self {
            line: policy,
            sandbox: policy,
        }
    }
}

impl Policies {
    /// The policy of a request or shipment of line `scac` (`None`: not known yet).
    #[must_use]
    pub fn of(&self, scac: Option<Scac>) -> &Policy {
        if scac == Some(Scac::SANDBOX) {
            &self.sandbox
        } else {
            &self.line
        }
    }

    /// The longest wait before a shipment's next refresh under either policy.
    #[must_use]
    pub fn longest_refresh(&self) -> Duration {
        self.line
            .longest_refresh()
            .max(self.sandbox.longest_refresh())
    }

    /// The longest wait before a request's next lookup under either policy.
    #[must_use]
    pub fn longest_lookup_wait(&self) -> Duration {
        self.line
            .longest_lookup_wait()
            .max(self.sandbox.longest_lookup_wait())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sandbox_line_has_its_own_policy_and_every_other_line_the_configured_one() {
        let policies = Policies::default();
        assert_eq!(policies.of(Some(Scac::SANDBOX)), &Policy::sandbox());
        let maersk = Scac::parse("MAEU").ok();
        assert_eq!(policies.of(maersk), &Policy::default());
        assert_eq!(policies.of(None), &Policy::default());
        let one = Policies::from(Policy::default());
        assert_eq!(one.of(Some(Scac::SANDBOX)), &Policy::default());
    }

    #[test]
    fn the_sandbox_plays_each_lookup_path_within_five_minutes() {
        let policy = Policy::sandbox();
        let retries: Duration = (1..=policy.max_retries)
            .map(|retry| policy.retry_delay(retry))
            .sum();
        assert!(retries <= Duration::from_secs(5 * 60), "{retries:?}");
        assert!(policy.manifest_expiry <= Duration::from_secs(5 * 60));
        assert!(policy.manifest_recheck < policy.manifest_expiry);
        assert!(policy.longest_refresh() <= Duration::from_secs(2 * 60));
        assert_eq!(policy.max_retries, Policy::default().max_retries);
    }
}
