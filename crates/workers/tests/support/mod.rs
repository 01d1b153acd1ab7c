//! Tidemark built as `serve` builds it (the test kit's `TestApp`) over a fresh database,
//! its tracker asking a carrier simulator over real HTTP on loopback, with Tidemark's clock
//! and the simulator's clock moved together by the test.
#![allow(
    dead_code,
    reason = "shared by several test binaries, each of which uses part of it"
)]

use std::time::Duration;

use carrier_sim::SimConfig;
use tidemark_domain::DomainEvent;
use tidemark_domain::lifecycle::Policy;
use tidemark_store::testing::Backend;
use tidemark_workers::TrackerSettings;

pub use tidemark_testkit::TestApp;

/// A simulator where every number sails, with the clock stepped by the test.
pub fn sim_config() -> SimConfig {
    tidemark_testkit::sim_config(5)
}

/// What an event's frozen records say, as its notifications will carry them: the
/// tracking request's status, and the numbers of the containers included.
pub fn frozen(event: &DomainEvent) -> (String, Vec<String>) {
    let mut status = String::new();
    let mut containers = Vec::new();
    for record in &event.included {
        match record["type"].as_str() {
            Some("tracking_request") => {
                status = record["attributes"]["status"]
                    .as_str()
                    .unwrap_or_default()
                    .to_owned();
            }
            Some("container") => containers.push(
                record["attributes"]["number"]
                    .as_str()
                    .unwrap_or_default()
                    .to_owned(),
            ),
            _ => {}
        }
    }
    (status, containers)
}

/// Tracker settings for tests: the contract's policy for every line, the sandbox's
/// included (these tests play the contract's lifecycle with the sandbox's numbers), a
/// short lease.
pub fn settings() -> TrackerSettings {
    TrackerSettings {
        lease: Duration::from_secs(60),
        policies: Policy::default().into(),
    }
}

/// Tidemark, as `serve` builds it, over a fresh database on `backend`, reading the clock
/// of the simulated world `config`; the sandbox (the simulator) serves every SCAC, with
/// short timeouts; leases are a minute (`settings`); the API's rate limits out of the way.
pub async fn start(backend: Backend, config: SimConfig) -> TestApp {
    TestApp::build(backend)
        .world_clock()
        .simulator(|sim| *sim = config)
        .config(|config| {
            config.tracker.lease = settings().lease;
            config.sandbox.tracking = config.tracking;
            // These tests create hundreds of requests a minute; the API's rates are not
            // what they test.
            let many = std::num::NonZeroU32::new(100_000).expect("non-zero");
            config.rate_limits.create_per_minute = many;
            config.rate_limits.default_per_minute = many;
            let connection = &mut config.sandbox.connection.http;
            connection.timeout = Duration::from_secs(2);
            connection.connect_timeout = Duration::from_secs(2);
        })
        .spawn()
        .await
}

/// Runs `case` with a harness of the default simulated world on `backend`.
pub async fn with_harness<F, Fut>(backend: Backend, case: F)
where
    F: FnOnce(TestApp) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    case(start(backend, sim_config()).await).await;
}

/// Runs `case`, which prepares its own harness, on `backend`.
pub async fn on<F, Fut>(backend: Backend, case: F)
where
    F: FnOnce(Backend) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    case(backend).await;
}
