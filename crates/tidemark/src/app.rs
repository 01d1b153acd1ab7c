//! The pieces `serve` and [`crate::application`] share: the sandbox carrier, the first
//! account, the readiness of the loops, the shutdown signal.

use std::sync::Arc;

pub use crate::http_server::{MAX_HEADER_BYTES, MAX_HEADERS, ServerSettings, serve};
use anyhow::Context;
use carrier_sim::{ClockMode, SimConfig, Simulator};
use rand::Rng;
use tidemark_carriers::Secret;
use tidemark_carriers::registry::{Registry, Sandbox};
use tidemark_domain::{Account, AccountName, ApiKey, ApiKeySecret, Clock, SystemClock};
use tidemark_store::{Store, StoreError};
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

use crate::config::SandboxConfig;

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

/// Starts the built-in carrier simulator on a free loopback port, and its AIS feed on
/// another, serving until `shutdown`; returns where the registry finds them. Its world starts three hours before
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
    let feed = TcpListener::bind("127.0.0.1:0").await?;
    let ais_feed = format!("tcp://{}", feed.local_addr()?);
    let (vessels, stop) = (simulator.clone(), shutdown.clone());
    tokio::spawn(async move {
        tokio::select! {
            () = stop.cancelled() => {}
            () = vessels.serve_ais(feed, std::time::Duration::from_secs(1)) => {}
        }
    });
    tokio::spawn(simulator.serve(listener, async move { shutdown.cancelled().await }));
    Ok(Sandbox {
        base_url,
        api_key: Secret::new(key),
        settings: config.connection.clone(),
        ais_feed: Some(ais_feed),
    })
}

/// The connectors: the configured carrier and terminal endpoints, and the sandbox (the
/// one passed in, else the built-in simulator when enabled) for the SCACs it serves.
pub(crate) async fn connectors(
    settings: &crate::settings::Settings,
    sandbox: Option<Sandbox>,
    shutdown: &CancellationToken,
) -> anyhow::Result<Arc<Registry>> {
    let config = &settings.config;
    let sandbox = match sandbox {
        Some(sandbox) => Some(sandbox),
        None if config.sandbox.enabled => {
            let sandbox = start_sandbox(&config.sandbox, shutdown.clone())
                .await
                .context("cannot start the sandbox carrier")?;
            tracing::info!(
                url = %sandbox.base_url,
                clock_factor = config.sandbox.clock_factor,
                "sandbox carrier started"
            );
            Some(sandbox)
        }
        None => None,
    };
    let registry = Registry::build(&config.carriers, sandbox, config.sandbox_scope())?
        .with_terminals(&config.terminals)?
        .with_arrival_notices(&config.arrival_notices)?;
    tracing::info!(carriers = %registry.describe(), "where each SCAC is tracked");
    Ok(Arc::new(registry))
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
