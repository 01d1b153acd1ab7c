//! Settings of the background work: which roles a process plays, the tracking lifecycle's
//! intervals and limits, and the built-in sandbox carrier.

use std::num::NonZeroU32;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use tidemark_carriers::registry::ConnectionSettings;
use tidemark_domain::lifecycle::Policy;
use tidemark_domain::webhook::Networks;
use tidemark_workers::{DispatcherSettings, RunnerSettings, TrackerSettings};

/// A part of Tidemark a process runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// The HTTP API.
    Api,
    /// The tracker: lookups and refreshes at the carriers.
    Tracker,
    /// The dispatcher: webhook deliveries.
    Dispatcher,
}

/// `[tracking]`: the lifecycle of api.md §2 and the refresh cadence.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TrackingConfig {
    /// Seconds before the first retry after a temporary problem (doubling after).
    pub retry_first_secs: u64,
    /// Longest wait between retries, in seconds.
    pub retry_max_secs: u64,
    /// Retries before a request fails with `retries_exhausted`.
    pub max_retries: u32,
    /// Seconds between checks while awaiting the manifest.
    pub manifest_recheck_secs: u64,
    /// Seconds after creation at which a request still awaiting its manifest expires.
    pub manifest_expiry_secs: u64,
    /// Refresh interval before departure and after pickup, in seconds.
    pub refresh_secs: u64,
    /// Refresh interval at sea, far from arrival.
    pub refresh_at_sea_secs: u64,
    /// Refresh interval near arrival and at the terminal.
    pub refresh_near_secs: u64,
    /// How close to the estimated arrival "near" starts, in seconds.
    pub near_window_secs: u64,
    /// Tracking stops this many days after arrival at the port of discharge.
    pub stop_after_arrival_days: u64,
    /// Tracking stops after this many days without news from the carrier.
    pub stop_without_updates_days: u64,
    /// Lookups in flight at once in this process.
    pub workers: NonZeroU32,
    /// Seconds a claimed job is held; a process that dies loses its jobs after this.
    pub lease_secs: u64,
    /// Longest pause, in milliseconds, before an idle tracker notices new work.
    pub poll_ms: u64,
}

impl Default for TrackingConfig {
    fn default() -> Self {
        let policy = Policy::default();
        let runner = RunnerSettings::default();
        let tracker = TrackerSettings::default();
        let days = |d: Duration| d.as_secs() / 86_400;
        Self {
            retry_first_secs: policy.retry_first.as_secs(),
            retry_max_secs: policy.retry_max.as_secs(),
            max_retries: policy.max_retries,
            manifest_recheck_secs: policy.manifest_recheck.as_secs(),
            manifest_expiry_secs: policy.manifest_expiry.as_secs(),
            refresh_secs: policy.refresh.as_secs(),
            refresh_at_sea_secs: policy.refresh_at_sea.as_secs(),
            refresh_near_secs: policy.refresh_near.as_secs(),
            near_window_secs: policy.near_window.as_secs(),
            stop_after_arrival_days: days(policy.stop_after_arrival),
            stop_without_updates_days: days(policy.stop_without_updates),
            workers: NonZeroU32::new(u32::try_from(runner.concurrency).unwrap_or(32))
                .unwrap_or(NonZeroU32::MIN),
            lease_secs: tracker.lease.as_secs(),
            poll_ms: u64::try_from(runner.poll.as_millis()).unwrap_or(100),
        }
    }
}

impl TrackingConfig {
    /// The tracker's settings.
    #[must_use]
    pub fn tracker(&self) -> TrackerSettings {
        let secs = Duration::from_secs;
        let days = |d: u64| Duration::from_secs(d.saturating_mul(86_400));
        TrackerSettings {
            lease: secs(self.lease_secs.max(1)),
            policy: Policy {
                retry_first: secs(self.retry_first_secs),
                retry_max: secs(self.retry_max_secs),
                max_retries: self.max_retries,
                manifest_recheck: secs(self.manifest_recheck_secs),
                manifest_expiry: secs(self.manifest_expiry_secs),
                refresh: secs(self.refresh_secs),
                refresh_at_sea: secs(self.refresh_at_sea_secs),
                refresh_near: secs(self.refresh_near_secs),
                near_window: secs(self.near_window_secs),
                stop_after_arrival: days(self.stop_after_arrival_days),
                stop_without_updates: days(self.stop_without_updates_days),
            },
        }
    }

    /// The runner's pacing.
    #[must_use]
    pub fn runner(&self) -> RunnerSettings {
        RunnerSettings {
            concurrency: usize::try_from(self.workers.get()).unwrap_or(32),
            poll: Duration::from_millis(self.poll_ms.max(1)),
        }
    }
}

/// `[sandbox]`: the carrier simulator started in-process for every SCAC without a real
/// endpoint (api.md §6).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SandboxConfig {
    /// Start it. Off: SCACs without an endpoint cannot be tracked, not even `TEST`.
    pub enabled: bool,
    /// Serve every SCAC without an endpoint, not only `TEST`, with made-up voyages.
    pub all_carriers: bool,
    /// Simulated seconds per real second (1 = real time; 3600 plays an hour a second).
    pub clock_factor: f64,
    /// Another seed, another world of shipments.
    pub seed: u64,
    /// Its connection limits.
    pub connection: ConnectionSettings,
}

impl Default for SandboxConfig {
    fn default() -> Self {
        // The simulator is local: no real carrier's rate to respect.
        let connection = ConnectionSettings {
            per_second: NonZeroU32::new(5_000).unwrap_or(NonZeroU32::MIN),
            burst: NonZeroU32::new(5_000).unwrap_or(NonZeroU32::MIN),
            concurrency: NonZeroU32::new(64).unwrap_or(NonZeroU32::MIN),
            timeout_secs: 10,
            ..ConnectionSettings::default()
        };
        Self {
            enabled: true,
            all_carriers: false,
            clock_factor: 1.0,
            seed: 0,
            connection,
        }
    }
}

/// Every role.
#[must_use]
pub fn all_roles() -> Vec<Role> {
    vec![Role::Api, Role::Tracker, Role::Dispatcher]
}

/// `[webhooks]`: how the dispatcher delivers (api.md §5).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct WebhooksConfig {
    /// Deliveries in flight at once in this process.
    pub workers: NonZeroU32,
    /// Deliveries in flight at once to one webhook.
    pub per_webhook: NonZeroU32,
    /// Seconds a receiver may take to answer.
    pub timeout_secs: u64,
    /// Seconds a claimed delivery is held; a process that dies loses it after this.
    pub lease_secs: u64,
    /// The header carrying the hex HMAC-SHA256 of the body.
    pub signature_header: String,
    /// Days of failures, without a success, after which a webhook is turned off.
    pub disable_after_days: u64,
    /// Longest pause, in milliseconds, before an idle dispatcher notices new work.
    pub poll_ms: u64,
    /// The addresses deliveries leave from, published at `GET /v2/webhooks/ips`.
    pub source_ips: Vec<std::net::IpAddr>,
}

impl Default for WebhooksConfig {
    fn default() -> Self {
        let dispatcher = DispatcherSettings::default();
        Self {
            workers: NonZeroU32::new(64).unwrap_or(NonZeroU32::MIN),
            per_webhook: NonZeroU32::new(u32::try_from(dispatcher.per_webhook).unwrap_or(4))
                .unwrap_or(NonZeroU32::MIN),
            timeout_secs: dispatcher.timeout.as_secs(),
            lease_secs: dispatcher.lease.as_secs(),
            signature_header: dispatcher.signature_header,
            disable_after_days: dispatcher.disable_after.as_secs() / 86_400,
            poll_ms: 100,
            source_ips: Vec::new(),
        }
    }
}

impl WebhooksConfig {
    /// The dispatcher's settings, with the networks webhooks may reach.
    #[must_use]
    pub fn dispatcher(&self, networks: Networks) -> DispatcherSettings {
        DispatcherSettings {
            lease: Duration::from_secs(self.lease_secs.max(1)),
            timeout: Duration::from_secs(self.timeout_secs.max(1)),
            per_webhook: usize::try_from(self.per_webhook.get()).unwrap_or(4),
            signature_header: self.signature_header.clone(),
            networks: std::sync::Arc::new(networks),
            disable_after: Duration::from_secs(self.disable_after_days.saturating_mul(86_400)),
            ..DispatcherSettings::default()
        }
    }

    /// How the dispatcher's runner paces itself.
    #[must_use]
    pub fn runner(&self) -> RunnerSettings {
        RunnerSettings {
            concurrency: usize::try_from(self.workers.get()).unwrap_or(64),
            poll: Duration::from_millis(self.poll_ms.max(1)),
        }
    }
}
