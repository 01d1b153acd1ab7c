//! A tracker over a fresh database, asking a carrier simulator over real HTTP on loopback,
//! with Tidemark's clock and the simulator's clock moved together by the test.
#![allow(
    dead_code,
    reason = "shared by several test binaries, each of which uses part of it"
)]

use std::sync::Arc;
use std::time::Duration;

use carrier_sim::{SimConfig, Simulator};
use tidemark_carriers::registry::{CarriersConfig, ConnectionSettings, Registry};
use tidemark_domain::lifecycle::Policy;
use tidemark_domain::{
    Account, AccountId, AccountName, CarrierMatrix, Clock, DomainEvent, Limits, ManualClock,
    NewTrackingRequest, Tracked, TrackingRequest, TrackingRequestDraft,
};
use tidemark_store::Store;
use tidemark_store::testing::{Backend, TestDatabase};
use tidemark_testkit::Simulated;
use tidemark_workers::{Deps, Runner, RunnerSettings, Tracker, TrackerSettings};

/// A simulator where every number sails, with the clock stepped by the test.
pub fn sim_config() -> SimConfig {
    tidemark_testkit::sim_config(5)
}

pub struct Harness {
    pub store: Arc<dyn Store>,
    pub sim: Simulator,
    /// The simulator's base URL.
    pub sim_url: String,
    pub clock: Arc<ManualClock>,
    pub runner: Runner<Tracker>,
    pub account: Account,
    pub matrix: Arc<CarrierMatrix>,
    pub database: TestDatabase,
    pub registry: Arc<Registry>,
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

/// Tracker settings for tests: the contract's policy, a short lease.
pub fn settings() -> TrackerSettings {
    TrackerSettings {
        lease: Duration::from_secs(60),
        policy: Policy::default(),
    }
}

/// The simulator as the only carrier (the sandbox, for every SCAC), with generous limits.
pub fn registry(simulated: &Simulated) -> Arc<Registry> {
    let settings = ConnectionSettings {
        timeout: std::time::Duration::from_secs(2),
        connect_timeout: std::time::Duration::from_secs(2),
        per_second: std::num::NonZeroU32::new(10_000).expect("non-zero"),
        burst: std::num::NonZeroU32::new(10_000).expect("non-zero"),
        concurrency: std::num::NonZeroU32::new(64).expect("non-zero"),
        ..ConnectionSettings::default()
    };
    Arc::new(
        Registry::build(
            &CarriersConfig::default(),
            Some(simulated.sandbox(settings)),
            tidemark_domain::SandboxScope::AllCarriers,
        )
        .expect("valid carriers config"),
    )
}

impl Harness {
    pub async fn start(backend: Backend) -> Option<Self> {
        Self::with(backend, sim_config()).await
    }

    pub async fn with(backend: Backend, config: SimConfig) -> Option<Self> {
        let database = TestDatabase::create(backend).await;
        let store = database.connect().await;
        let simulated = Simulated::start(config).await;
        let registry = registry(&simulated);
        let Simulated { sim, clock, url } = simulated;
        let matrix = Arc::new(CarrierMatrix::bundled().expect("matrix"));
        let deps = Deps {
            store: Arc::clone(&store),
            carriers: Arc::clone(&registry),
            matrix: Arc::clone(&matrix),
            clock: Arc::clone(&clock) as Arc<dyn Clock>,
        };
        let tracker = Tracker::new(deps, settings());
        let runner = Runner::new(
            Arc::new(tracker),
            Arc::clone(&clock) as Arc<dyn Clock>,
            RunnerSettings::default(),
        );
        let account = Account {
            id: AccountId::new(),
            name: AccountName::parse("acme").expect("name"),
            created_at: clock.now(),
        };
        store.create_account(&account).await.expect("account");
        Some(Self {
            store,
            sim,
            sim_url: url,
            clock,
            runner,
            account,
            matrix,
            database,
            registry,
        })
    }

    /// Creates a tracking request as the API would.
    /// A bill of lading of the sandbox line `TEST`, created.
    pub async fn test_bill(&self, number: &str) -> TrackingRequest {
        self.create("bill_of_lading", number, Some("TEST")).await
    }

    pub async fn create(&self, kind: &str, number: &str, scac: Option<&str>) -> TrackingRequest {
        let draft = TrackingRequestDraft {
            request_type: Some(kind.to_owned()),
            request_number: Some(number.to_owned()),
            scac: scac.map(str::to_owned),
            auto_detect_scac: scac.is_none(),
            ..TrackingRequestDraft::default()
        };
        let new = NewTrackingRequest::validate(
            draft,
            &self.matrix,
            &tidemark_domain::Coverage::new([], tidemark_domain::SandboxScope::AllCarriers),
            &Limits::default(),
        )
        .expect("a valid request");
        let request = TrackingRequest::open(self.account.id, new, self.clock.now());
        self.store
            .insert_tracking_request(&request)
            .await
            .expect("inserted");
        request
    }

    /// This harness's store, carriers, carrier data and clock.
    pub fn deps(&self) -> Deps {
        Deps {
            store: Arc::clone(&self.store),
            carriers: Arc::clone(&self.registry),
            matrix: Arc::clone(&self.matrix),
            clock: Arc::clone(&self.clock) as Arc<dyn Clock>,
        }
    }

    /// Another tracker over this harness's store, carriers and clock, as another process
    /// (or this one restarted) would run it.
    pub fn tracker(&self, settings: TrackerSettings) -> Runner<Tracker> {
        let tracker = Tracker::new(self.deps(), settings);
        Runner::new(
            Arc::new(tracker),
            Arc::clone(&self.clock) as Arc<dyn Clock>,
            RunnerSettings::default(),
        )
    }

    /// Works every job due now.
    pub async fn drain(&self) -> usize {
        self.runner.run_until_idle().await.expect("drained")
    }

    /// Moves both clocks.
    pub fn advance(&self, by: time::Duration) {
        self.clock.advance(by);
        self.sim.clock().advance(by);
    }

    pub async fn request(&self, request: &TrackingRequest) -> TrackingRequest {
        self.store
            .tracking_request(self.account.id, request.id)
            .await
            .expect("read")
            .expect("exists")
    }

    /// What `request` tracks now, which must be something.
    pub async fn tracked(&self, request: &TrackingRequest) -> Tracked {
        self.store
            .tracked(request.id)
            .await
            .expect("read")
            .expect("tracks a shipment")
    }

    /// How many of the account's domain events are named `name`.
    pub async fn count_events(&self, name: &str) -> usize {
        let names = self.event_names().await;
        names.iter().filter(|n| *n == name).count()
    }

    /// The names of the account's domain events, oldest first.
    pub async fn event_names(&self) -> Vec<String> {
        self.store
            .domain_events(self.account.id)
            .await
            .expect("events")
            .iter()
            .map(|event| event.name.name())
            .collect()
    }
}

/// Runs `case` with a harness of the default simulated world on `backend`.
pub async fn with_harness<F, Fut>(backend: Backend, case: F)
where
    F: FnOnce(Harness) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    if let Some(harness) = Harness::start(backend).await {
        case(harness).await;
    }
}

/// Runs `case`, which prepares its own harness, on `backend`.
pub async fn on<F, Fut>(backend: Backend, case: F)
where
    F: FnOnce(Backend) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    case(backend).await;
}
