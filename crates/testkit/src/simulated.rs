//! A carrier simulator on loopback, with Tidemark's clock and the simulator's moved
//! together by the test.

use std::sync::Arc;

use carrier_sim::{Chances, ClockMode, SimConfig, Simulator};
use tidemark_carriers::Secret;
use tidemark_carriers::registry::{ConnectionSettings, Sandbox};
use tidemark_domain::{ManualClock, Timestamp};
use time::macros::datetime;

/// The simulator's API key.
pub const SIM_KEY: &str = "sim-key";

/// The key of the simulator's admin API.
pub const SIM_ADMIN_KEY: &str = "sim-admin";

/// A simulator where every number sails, its clock stepped by the test, seeded by `seed`.
#[must_use]
pub fn sim_config(seed: u64) -> SimConfig {
    let mut config = SimConfig::new(SIM_KEY);
    config.admin_key = Some(SIM_ADMIN_KEY.to_owned());
    config.seed = seed;
    config.epoch = datetime!(2026-06-01 0:00 UTC);
    config.clock = ClockMode::Stepped;
    config.chances = Chances {
        not_found: 0,
        awaiting_manifest: 0,
        cancelled: 0,
    };
    config
}

/// A running simulator and the clock Tidemark reads, both at the simulator's epoch.
pub struct Simulated {
    /// The simulator (its clock: `sim.clock()`).
    pub sim: Simulator,
    /// Its base URL; its admin API takes the key [`SIM_ADMIN_KEY`].
    pub url: String,
    /// The clock Tidemark reads.
    pub clock: Arc<ManualClock>,
}

impl Simulated {
    /// Starts a simulator with `config` on a free port.
    ///
    /// # Panics
    /// When it cannot listen.
    pub async fn start(config: SimConfig) -> Self {
        let clock = Arc::new(ManualClock::new(Timestamp::from_datetime(config.epoch)));
        let sim = Simulator::new(config);
        let url = sim.clone().spawn().await.expect("simulator listens");
        Self { sim, url, clock }
    }

    /// The simulator as Tidemark's sandbox carrier, with `settings` for its connection.
    #[must_use]
    pub fn sandbox(&self, settings: ConnectionSettings) -> Sandbox {
        sandbox_at(&self.url, settings)
    }

    /// Moves both clocks.
    pub fn advance(&self, by: time::Duration) {
        self.clock.advance(by);
        self.sim.clock().advance(by);
    }
}

/// The simulator at `url` as Tidemark's sandbox carrier, with `settings` for its connection.
#[must_use]
pub fn sandbox_at(url: &str, settings: ConnectionSettings) -> Sandbox {
    Sandbox {
        base_url: url.to_owned(),
        api_key: Secret::new(SIM_KEY),
        settings,
        ais_feed: None,
    }
}
