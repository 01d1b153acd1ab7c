//! Simulated ocean carriers that speak DCSA Track & Trace 2.2, and the terminals they
//! discharge at.
//!
//! One simulator impersonates every carrier, each under its own base path:
//! `GET /{SCAC}/v2/events`, and every terminal of discharge, under
//! `POST /terminals/{CODE}/import-availability` ([`terminal`]), behind the `API-Key` header
//! (or an OAuth2 client-credentials token from `POST /oauth/token`). Behind it is a deterministic world ([`world`]): any
//! reference at any SCAC names the same seeded booking, voyage and containers every time,
//! progressing with the simulator's clock ([`clock`]). The sandbox carrier `TEST` has
//! scripted numbers ([`scenario`]). Faults can be injected per carrier or per reference
//! ([`faults`]), from the configuration or through the admin API under `/admin`, which has
//! its own key and also moves the clock and injects events.
//!
//! It depends on nothing of Tidemark's but the public map data of `seaways`: it is an
//! outside party that speaks DCSA and the
//! terminal protocol Tidemark documents.

pub mod ais;
pub mod clock;
pub mod data;
pub mod event_subscriptions;
pub mod faults;
mod http;
pub mod plays;
pub mod query;
pub mod scenario;
pub mod terminal;
pub mod timeline;
pub mod v1;
pub mod v3;
pub mod world;

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};
use time::OffsetDateTime;

pub use clock::{ClockMode, SimClock};
pub use faults::{Fault, FaultRule};
pub use plays::{Plays, Quirk};
pub use world::Chances;

/// The DCSA contract version the simulator serves.
pub const API_VERSION: &str = "2.2.0";

/// How `Next-Page` names the next page.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NextPage {
    /// A bare cursor token, as in the 2.2 examples.
    #[default]
    Token,
    /// A full URL with every original parameter and the cursor.
    Url,
}

/// An OAuth2 client allowed to get tokens from `POST /oauth/token`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OAuthClient {
    /// `client_id`.
    pub client_id: String,
    /// `client_secret`.
    pub client_secret: String,
}

/// Everything a simulator is started with.
#[derive(Debug, Clone)]
pub struct SimConfig {
    /// The key expected in `API-Key`.
    pub api_key: String,
    /// The key expected in `Admin-Key` on `/admin/...`; the admin API is off without one.
    pub admin_key: Option<String>,
    /// Clients that may use OAuth2 client credentials instead of the API key.
    pub oauth_clients: Vec<OAuthClient>,
    /// Header credentials also taken, as real carriers take them: a request carrying every
    /// header of one set is let in (a `keyId` of its own, a client id and secret pair).
    pub header_credentials: Vec<Vec<(String, String)>>,
    /// Headers every call must carry besides its credentials, token requests included (a
    /// `Consumer-Key` that goes with an OAuth2 token).
    pub required_headers: Vec<(String, String)>,
    /// Salt of the world's seeds: another seed, another world.
    pub seed: u64,
    /// The instant shipments are placed around, and where the clock starts.
    pub epoch: OffsetDateTime,
    /// How the clock moves.
    pub clock: ClockMode,
    /// Chances of the unhappy fates.
    pub chances: Chances,
    /// How `Next-Page` is written.
    pub next_page: NextPage,
    /// Faults active from the start.
    pub faults: Vec<FaultRule>,
    /// The real lines' ways played, by SCAC ([`plays`]).
    pub quirks: BTreeMap<String, Vec<Quirk>>,
}

impl SimConfig {
    /// A simulator with `api_key`, starting now in real time, seed 0.
    #[must_use]
    pub fn new(api_key: impl Into<String>) -> Self {
        Self {
            api_key: api_key.into(),
            admin_key: None,
            oauth_clients: Vec::new(),
            header_credentials: Vec::new(),
            required_headers: Vec::new(),
            seed: 0,
            epoch: OffsetDateTime::now_utc()
                .replace_nanosecond(0)
                .unwrap_or(OffsetDateTime::UNIX_EPOCH),
            clock: ClockMode::Running { factor: 1.0 },
            chances: Chances::default(),
            next_page: NextPage::Token,
            faults: Vec::new(),
            quirks: BTreeMap::new(),
        }
    }
}

/// Shared state behind the routes.
#[derive(Debug)]
struct State {
    config: SimConfig,
    world: world::World,
    clock: SimClock,
    faults: Mutex<faults::Faults>,
    injected: Mutex<HashMap<String, Vec<timeline::TimedEvent>>>,
    lookups: Mutex<HashMap<(String, String), u32>>,
    calls: Mutex<HashMap<String, Vec<u64>>>,
    terminals: Mutex<terminal::Index>,
    subscriptions: Mutex<terminal::subscriptions::Subscriptions>,
    event_subscriptions: Mutex<event_subscriptions::EventSubscriptions>,
    tokens: Mutex<HashMap<String, OffsetDateTime>>,
    /// When each scripted sandbox number was first asked about: its own epoch.
    first_asked: Mutex<HashMap<String, OffsetDateTime>>,
    fleet: Mutex<ais::Fleet>,
}

/// A simulator: its state and routes. Cheap to clone.
#[derive(Debug, Clone)]
pub struct Simulator {
    state: Arc<State>,
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Simulator {
    /// A simulator as configured.
    #[must_use]
    pub fn new(config: SimConfig) -> Self {
        let mut faults = faults::Faults::default();
        for rule in &config.faults {
            faults.add(rule.clone());
        }
        Self {
            state: Arc::new(State {
                world: world::World {
                    seed: config.seed,
                    epoch: config.epoch,
                    chances: config.chances,
                },
                clock: SimClock::new(config.epoch, config.clock),
                faults: Mutex::new(faults),
                injected: Mutex::new(HashMap::new()),
                lookups: Mutex::new(HashMap::new()),
                calls: Mutex::new(HashMap::new()),
                terminals: Mutex::new(terminal::Index::default()),
                subscriptions: Mutex::new(terminal::subscriptions::Subscriptions::default()),
                event_subscriptions: Mutex::default(),
                tokens: Mutex::new(HashMap::new()),
                first_asked: Mutex::new(HashMap::new()),
                fleet: Mutex::default(),
                config,
            }),
        }
    }

    /// The HTTP routes: the carriers' DCSA API, the OAuth2 token endpoint and the admin API.
    pub fn router(&self) -> axum::Router {
        http::router(self.clone())
    }

    /// The simulator's clock (tests in the same process may drive it directly).
    #[must_use]
    pub fn clock(&self) -> &SimClock {
        &self.state.clock
    }

    /// The world behind the answers (tests in the same process may ask it what a reference
    /// names).
    #[must_use]
    pub fn world(&self) -> &world::World {
        &self.state.world
    }

    /// The world that places the shipment of `reference` at `scac`: a scripted sandbox
    /// number's timeline is its own, placed around the instant it was first asked about
    /// (remembered from this call on), so it plays its path in minutes whenever it is
    /// tracked; every other number's is placed around the simulator's epoch.
    #[must_use]
    pub fn world_of(&self, scac: &str, reference: &str) -> world::World {
        if scenario::script(scac, reference).is_none() {
            return self.state.world.clone();
        }
        let now = self.state.clock.now();
        let epoch = *lock(&self.state.first_asked)
            .entry(reference.to_owned())
            .or_insert(now);
        self.state.world.around(epoch)
    }

    /// Adds a fault; returns its id.
    pub fn add_fault(&self, rule: FaultRule) -> u64 {
        lock(&self.state.faults).add(rule)
    }

    /// The ways the line `scac` plays.
    #[must_use]
    pub fn plays(&self, scac: &str) -> Plays {
        Plays::new(
            self.state
                .config
                .quirks
                .iter()
                .filter(|(line, _)| line.eq_ignore_ascii_case(scac))
                .flat_map(|(_, quirks)| quirks.iter().copied()),
        )
    }

    /// Removes every fault.
    pub fn clear_faults(&self) {
        lock(&self.state.faults).clear();
    }

    /// How many first-page lookups `reference` at `scac` has had.
    #[must_use]
    pub fn lookups(&self, scac: &str, reference: &str) -> u32 {
        lock(&self.state.lookups)
            .get(&(scac.to_ascii_uppercase(), reference.to_owned()))
            .copied()
            .unwrap_or(0)
    }

    /// When each call to `scac`'s events was made, in milliseconds since the Unix epoch by
    /// the wall clock (the first million calls): how fast the line is called, whatever
    /// the simulated clock does.
    #[must_use]
    pub fn calls(&self, scac: &str) -> Vec<u64> {
        lock(&self.state.calls)
            .get(&scac.to_ascii_uppercase())
            .cloned()
            .unwrap_or_default()
    }

    /// Notes a call to `scac`'s events now.
    fn note_call(&self, scac: &str) {
        const KEPT: usize = 1_000_000;
        let at = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |since| {
                u64::try_from(since.as_millis()).unwrap_or(u64::MAX)
            });
        let mut calls = lock(&self.state.calls);
        let noted = calls.entry(scac.to_owned()).or_default();
        if noted.len() < KEPT {
            noted.push(at);
        }
    }

    /// Serves on `listener` until `shutdown` completes.
    ///
    /// # Errors
    /// When the listener fails.
    pub async fn serve(
        self,
        listener: tokio::net::TcpListener,
        shutdown: impl std::future::Future<Output = ()> + Send + 'static,
    ) -> std::io::Result<()> {
        axum::serve(listener, self.router())
            .with_graceful_shutdown(shutdown)
            .await
    }

    /// Starts serving on a free loopback port in the background; returns the base URL.
    ///
    /// # Errors
    /// When no port can be bound.
    pub async fn spawn(self) -> std::io::Result<String> {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let base = format!("http://{}", listener.local_addr()?);
        tokio::spawn(self.serve(listener, std::future::pending()));
        Ok(base)
    }
}
