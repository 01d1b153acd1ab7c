//! Building and serving the application: the same code runs in `tidemark serve` and in tests.

use std::sync::Arc;

pub use crate::http_server::{MAX_HEADER_BYTES, MAX_HEADERS, ServerSettings, serve};
use carrier_sim::{ClockMode, SimConfig, Simulator};
use rand::Rng;
use tidemark_api::{CarrierCallbacks, WebhookSender};
use tidemark_carriers::Secret;
use tidemark_carriers::registry::{Registry, Sandbox};
use tidemark_domain::{
    Account, AccountName, ApiKey, ApiKeySecret, CarrierMatrix, Clock, SandboxScope, SystemClock,
};
use tidemark_store::{Store, StoreError};
use tidemark_workers::{Runner, Tracker};
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

use crate::config::{Config, SandboxConfig, TrackerConfig};

/// The loops of this process's workers, for its readiness.
#[derive(Debug)]
pub struct Loops(pub Vec<Arc<tidemark_workers::Heartbeat>>);

impl tidemark_api::health::Workers for Loops {
    fn stalled(&self) -> Vec<(&'static str, std::time::Duration)> {
        self.0
            .iter()
            .filter(|beat| beat.stalled())
            .map(|beat| (beat.name(), beat.silent_for()))
            .collect()
    }
}

/// What receives the lines' and the terminals' pushes: `inbox`, behind the API's port.
#[must_use]
pub fn callbacks(inbox: tidemark_workers::Inbox) -> Arc<dyn CarrierCallbacks> {
    Arc::new(inbox)
}

/// What sends webhook tests: signed, timed out and guarded exactly as deliveries are.
///
/// # Errors
/// When its HTTP client cannot be built.
pub fn webhook_sender(
    settings: tidemark_workers::DispatcherSettings,
    clock: Arc<dyn Clock>,
) -> anyhow::Result<Arc<dyn WebhookSender>> {
    let sender = tidemark_workers::Sender::new(settings, clock)?;
    Ok(Arc::new(sender))
}

/// Starts the built-in carrier simulator on a free loopback port, serving until
/// `shutdown`; returns where the registry finds it. Its world starts three hours before
/// now, so a new shipment (`TEST-TR-JOURNEY` included) is manifested at once.
///
/// # Errors
/// When no loopback port can be bound.
pub async fn start_sandbox(
    config: &SandboxConfig,
    shutdown: CancellationToken,
) -> std::io::Result<Sandbox> {
    let key = hex::encode(rand::rng().random::<[u8; 16]>());
    let mut sim = SimConfig::new(key.clone());
    sim.seed = config.seed;
    sim.clock = ClockMode::Running {
        factor: config.clock_factor,
    };
    let head_start = time::Duration::hours(3);
    sim.epoch -= head_start;
    let simulator = Simulator::new(sim);
    // The world starts earlier; the simulator's clock reads now.
    simulator.clock().advance(head_start);
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let base_url = format!("http://{}", listener.local_addr()?);
    tokio::spawn(simulator.serve(listener, async move { shutdown.cancelled().await }));
    Ok(Sandbox {
        base_url,
        api_key: Secret::new(key),
        settings: config.connection.clone(),
    })
}

/// The connectors: the configured carrier and terminal endpoints, and `sandbox` for every
/// other SCAC (and the terminals of the sandbox's containers).
///
/// # Errors
/// A bad endpoint setting.
pub fn registry(
    config: &Config,
    sandbox: Option<Sandbox>,
    scope: SandboxScope,
) -> anyhow::Result<Arc<Registry>> {
    Ok(Arc::new(
        Registry::build(&config.carriers, sandbox, scope)?
            .with_terminals(&config.terminals)?
            .with_arrival_notices(&config.arrival_notices)?,
    ))
}

/// The tracker and its runner; `events_recorded` rings when a lookup records events.
#[must_use]
pub fn tracker(
    deps: tidemark_workers::Deps,
    config: &TrackerConfig,
    policy: tidemark_domain::lifecycle::Policy,
    events_recorded: Option<Arc<tokio::sync::Notify>>,
) -> Runner<Tracker> {
    let clock = Arc::clone(&deps.clock);
    let mut tracker = Tracker::new(deps, config.settings(policy));
    if let Some(bell) = events_recorded {
        tracker = tracker.ring_on_events(bell);
    }
    Runner::new(Arc::new(tracker), clock, config.runner())
}

/// The dispatcher and its runner.
///
/// # Errors
/// When its HTTP client cannot be built.
pub fn dispatcher(
    store: Arc<dyn Store>,
    clock: Arc<dyn Clock>,
    settings: tidemark_workers::DispatcherSettings,
    runner: tidemark_workers::RunnerSettings,
) -> anyhow::Result<Runner<tidemark_workers::Dispatcher>> {
    let dispatcher = tidemark_workers::Dispatcher::new(store, Arc::clone(&clock), settings)?;
    Ok(Runner::new(Arc::new(dispatcher), clock, runner))
}

/// The delivery log's pruner and its runner: one batch at a time, looking again at least
/// once a minute.
#[must_use]
pub fn pruner(
    store: Arc<dyn Store>,
    clock: Arc<dyn Clock>,
    retention: tidemark_domain::webhook::Retention,
) -> Runner<tidemark_workers::Pruner> {
    let settings = tidemark_workers::RunnerSettings {
        concurrency: 1,
        poll: std::time::Duration::from_secs(60),
    };
    let pruner = tidemark_workers::Pruner::new(store, retention);
    Runner::new(Arc::new(pruner), clock, settings)
}

/// The carrier matrix: the file at `path` when given, else the one shipped with Tidemark.
/// Loaded and validated once, at start.
///
/// # Errors
/// An unreadable file, or a matrix that does not validate (the message names the rows).
pub fn carriers(path: Option<&std::path::Path>) -> anyhow::Result<Arc<CarrierMatrix>> {
    use anyhow::Context;
    let matrix = match path {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read the carrier matrix {}", path.display()))?;
            CarrierMatrix::parse_toml(&text)
                .with_context(|| format!("invalid carrier matrix {}", path.display()))?
        }
        None => CarrierMatrix::bundled().context("the bundled carrier matrix is invalid")?,
    };
    Ok(Arc::new(matrix))
}

/// The system clock, shared.
#[must_use]
pub fn system_clock() -> Arc<dyn Clock> {
    Arc::new(SystemClock)
}

/// Creates the account `default` and its first key if the database has no account yet.
/// Returns the key to show once, or `None` when accounts already existed.
///
/// # Errors
/// A storage failure.
pub async fn bootstrap(
    store: &dyn Store,
    clock: &dyn Clock,
) -> Result<Option<ApiKeySecret>, StoreError> {
    let now = clock.now();
    let Ok(name) = AccountName::parse("default") else {
        return Ok(None);
    };
    let account = Account {
        id: tidemark_domain::AccountId::new(),
        name,
        created_at: now,
    };
    let key = ApiKey::generate(account.id, now);
    let created = store.bootstrap_account(&account, &key.record).await?;
    Ok(created.then_some(key.secret))
}

/// Cancels `token` on Ctrl-C or SIGTERM.
pub fn cancel_on_signal(token: CancellationToken) {
    tokio::spawn(async move {
        let ctrl_c = async {
            let _ = tokio::signal::ctrl_c().await;
        };
        #[cfg(unix)]
        let terminate = async {
            match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                Ok(mut signal) => {
                    signal.recv().await;
                }
                Err(_) => std::future::pending::<()>().await,
            }
        };
        #[cfg(not(unix))]
        let terminate = std::future::pending::<()>();
        tokio::select! {
            () = ctrl_c => {},
            () = terminate => {},
        }
        tracing::info!("shutdown signal received; draining requests");
        token.cancel();
    });
}
