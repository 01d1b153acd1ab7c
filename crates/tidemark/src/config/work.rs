//! Settings of the background work: which roles a process plays, how the tracker runs,
//! and the built-in sandbox carrier.

use std::num::NonZeroU32;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use tidemark_carriers::registry::ConnectionSettings;
use tidemark_domain::lifecycle::{Policies, Policy};
use tidemark_workers::{RunnerSettings, TrackerSettings};

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
    /// The AIS reader: vessels' positions from the feeds of `[ais] sources`.
    Ais,
}

/// `[tracker]`: how this process's tracker runs. (The lifecycle's intervals and limits,
/// `[tracking]`, are the domain's [`Policy`] itself.) Durations are written `"5s"`,
/// `"100ms"`; the older keys, in `[tracking]` and in seconds or milliseconds, are still
/// read (`config/legacy.rs`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TrackerConfig {
    /// Lookups in flight at once in this process.
    pub workers: NonZeroU32,
    /// How long a claimed job is held; a process that dies loses its jobs after this.
    #[serde(with = "humantime_serde")]
    pub lease: Duration,
    /// Longest pause before an idle tracker notices new work.
    #[serde(with = "humantime_serde")]
    pub poll: Duration,
}

impl Default for TrackerConfig {
    fn default() -> Self {
        let runner = RunnerSettings::default();
        Self {
            workers: NonZeroU32::new(u32::try_from(runner.concurrency).unwrap_or(32))
                .unwrap_or(NonZeroU32::MIN),
            lease: TrackerSettings::default().lease,
            poll: runner.poll,
        }
    }
}

impl TrackerConfig {
    /// The tracker's settings, deciding by `policies`.
    #[must_use]
    pub fn settings(&self, policies: Policies) -> TrackerSettings {
        TrackerSettings {
            lease: self.lease.max(Duration::from_secs(1)),
            policies,
        }
    }

    /// The runner's pacing.
    #[must_use]
    pub fn runner(&self) -> RunnerSettings {
        RunnerSettings {
            concurrency: usize::try_from(self.workers.get()).unwrap_or(32),
            poll: self.poll.max(Duration::from_millis(1)),
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
    /// The lifecycle's intervals and limits for the sandbox line `TEST` (the keys of
    /// `[tracking]`): by default minutes, so that each scripted number plays its path in
    /// one sitting (`Policy::sandbox`).
    pub tracking: Policy,
}

impl Default for SandboxConfig {
    fn default() -> Self {
        // The simulator is local: no real carrier's rate to respect.
        let mut connection = ConnectionSettings::default();
        connection.http.per_second = NonZeroU32::new(5_000).unwrap_or(NonZeroU32::MIN);
        connection.http.burst = NonZeroU32::new(5_000).unwrap_or(NonZeroU32::MIN);
        connection.http.concurrency = NonZeroU32::new(64).unwrap_or(NonZeroU32::MIN);
        connection.http.timeout = std::time::Duration::from_secs(10);
        Self {
            enabled: true,
            all_carriers: false,
            clock_factor: 1.0,
            seed: 0,
            connection,
            tracking: Policy::sandbox(),
        }
    }
}

/// Every role.
#[must_use]
pub fn all_roles() -> Vec<Role> {
    vec![Role::Api, Role::Tracker, Role::Dispatcher, Role::Ais]
}

/// `[dispatcher]`: how this process's dispatcher runs. (How it delivers, `[webhooks]`, is
/// the workers' [`tidemark_workers::DispatcherSettings`] itself.) These were `[webhooks]` `workers` and
/// `poll_ms` before, which are still read (`config/legacy.rs`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DispatcherConfig {
    /// Deliveries in flight at once in this process.
    pub workers: NonZeroU32,
    /// Longest pause before an idle dispatcher notices new work.
    #[serde(with = "humantime_serde")]
    pub poll: Duration,
}

impl Default for DispatcherConfig {
    fn default() -> Self {
        Self {
            workers: NonZeroU32::new(64).unwrap_or(NonZeroU32::MIN),
            poll: Duration::from_millis(100),
        }
    }
}

impl DispatcherConfig {
    /// How the dispatcher's runner paces itself.
    #[must_use]
    pub fn runner(&self) -> RunnerSettings {
        RunnerSettings {
            concurrency: usize::try_from(self.workers.get()).unwrap_or(64),
            poll: self.poll.max(Duration::from_millis(1)),
        }
    }
}
