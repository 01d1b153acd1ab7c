//! `tidemark serve`: the API, the tracker and the dispatcher (or the roles given), until a
//! shutdown signal.

use std::sync::Arc;

use anyhow::Context;
use tidemark_api::AppState;
use tidemark_domain::{CarrierMatrix, Clock};
use tidemark_store::Store;
use tidemark_store::wake_ups::{Announcement, ring_on_announcements};
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

use crate::config::{Config, Role};
use crate::{app, output};

/// Opens the database, starts the roles asked for, and runs until a shutdown signal: the
/// API stops taking requests and drains them, the tracker finishes the jobs in hand.
pub async fn run(config: Config) -> anyhow::Result<()> {
    crate::memory::apply(&config.memory);
    // The metrics recorder, before anything records (`/metrics`).
    tidemark_api::metrics::handle();
    let carriers = app::carriers(config.carriers_file.as_deref())?;
    tracing::info!(
        carriers = carriers.carriers().len(),
        "carrier matrix loaded"
    );
    let store = super::open(&config, true).await?;
    tracing::info!(backend = store.backend(), database = %config.database_url.redacted(), "database ready");
    let clock = app::system_clock();
    let shutdown = CancellationToken::new();
    app::cancel_on_signal(shutdown.clone());

    // A tracker and a dispatcher in one process: the tracker's commits that record events
    // wake the dispatcher, which otherwise notices new notifications at its next poll.
    let events_recorded = Arc::new(tokio::sync::Notify::new());
    // And pushes received by the API that queue work (a carrier's news, a notice that is
    // out) wake the tracker.
    let work_queued = Arc::new(tokio::sync::Notify::new());
    ring_on_other_processes(&config, (&events_recorded, &work_queued), &shutdown);
    let registry = if config.roles.contains(&Role::Tracker) || config.roles.contains(&Role::Api) {
        Some(connectors(&config, &shutdown).await?)
    } else {
        None
    };
    let deps = registry.map(|registry| tidemark_workers::Deps {
        store: Arc::clone(&store),
        carriers: registry,
        matrix: Arc::clone(&carriers),
        clock: Arc::clone(&clock),
    });
    let mut loops = Vec::new();
    let tracker = match (&deps, config.roles.contains(&Role::Tracker)) {
        (Some(deps), true) => {
            let bells = (Arc::clone(&events_recorded), Arc::clone(&work_queued));
            let (task, beat) = start_tracker(&config, deps.clone(), &shutdown, bells).await?;
            loops.push(beat);
            Some(task)
        }
        _ => None,
    };
    let inbox = deps.map(|deps| {
        tidemark_workers::Inbox::new(deps, config.tracking)
            .ring_on_events(Arc::clone(&events_recorded))
            .ring_on_work(work_queued)
    });
    let dispatcher = if config.roles.contains(&Role::Dispatcher) {
        let (task, beat) = start_dispatcher(&config, (&store, &clock), events_recorded, &shutdown)?;
        loops.push(beat);
        let (pruning, beat) = start_pruner(&config, (&store, &clock), &shutdown)?;
        loops.push(beat);
        Some((task, pruning))
    } else {
        None
    };
    let workers: Arc<dyn tidemark_api::health::Workers> = Arc::new(app::Loops(loops));
    let callbacks = inbox.map(app::callbacks);
    serve_http(
        &config,
        (store, carriers, clock),
        (callbacks, workers),
        shutdown,
    )
    .await?;
    if let Some(tracker) = tracker {
        tracker.await.context("the tracker stopped abnormally")?;
    }
    if let Some((dispatcher, pruner)) = dispatcher {
        dispatcher
            .await
            .context("the dispatcher stopped abnormally")?;
        pruner.await.context("the pruner stopped abnormally")?;
    }
    tracing::info!("stopped");
    Ok(())
}

/// Work another process records rings the same bells as this process's own: the
/// dispatcher's at a notification due, the tracker's at a job scheduled (PostgreSQL's
/// announcements; nothing on SQLite, where one process runs).
fn ring_on_other_processes(
    config: &Config,
    (events_recorded, work_queued): (&Arc<tokio::sync::Notify>, &Arc<tokio::sync::Notify>),
    shutdown: &CancellationToken,
) {
    let options = config.connect_options();
    for (role, announcement, bell) in [
        (
            Role::Dispatcher,
            Announcement::NotificationDue,
            events_recorded,
        ),
        (Role::Tracker, Announcement::JobScheduled, work_queued),
    ] {
        if config.roles.contains(&role) {
            let (options, bell, shutdown) = (options.clone(), Arc::clone(bell), shutdown.clone());
            tokio::spawn(async move {
                tokio::select! {
                    () = shutdown.cancelled() => {}
                    () = ring_on_announcements(&options, announcement, bell) => {}
                }
            });
        }
    }
}

/// The connectors, with the sandbox started when it is enabled.
async fn connectors(
    config: &Config,
    shutdown: &CancellationToken,
) -> anyhow::Result<Arc<tidemark_carriers::registry::Registry>> {
    let sandbox = if config.sandbox.enabled {
        let sandbox = app::start_sandbox(&config.sandbox, shutdown.clone())
            .await
            .context("cannot start the sandbox carrier")?;
        tracing::info!(
            url = %sandbox.base_url,
            clock_factor = config.sandbox.clock_factor,
            "sandbox carrier started"
        );
        Some(sandbox)
    } else {
        None
    };
    let registry = app::registry(config, sandbox, config.sandbox_scope())?;
    tracing::info!(carriers = %registry.describe(), "where each SCAC is tracked");
    Ok(registry)
}

async fn start_tracker(
    config: &Config,
    deps: tidemark_workers::Deps,
    shutdown: &CancellationToken,
    (events_recorded, work_queued): (Arc<tokio::sync::Notify>, Arc<tokio::sync::Notify>),
) -> anyhow::Result<Loop> {
    let runner = app::tracker(
        deps,
        &config.tracker,
        config.tracking,
        Some(events_recorded),
    )
    .wake_on(work_queued);
    let moved = runner.worker().align_schedule().await?;
    if moved > 0 {
        tracing::info!(
            jobs = moved,
            "brought forward lookups queued under longer intervals than these settings'"
        );
    }
    tracing::info!(workers = config.tracker.workers.get(), "tracker started");
    Ok(spawn(runner, shutdown))
}

fn start_dispatcher(
    config: &Config,
    (store, clock): (&Arc<dyn Store>, &Arc<dyn Clock>),
    events_recorded: Arc<tokio::sync::Notify>,
    shutdown: &CancellationToken,
) -> anyhow::Result<Loop> {
    let networks = config.webhook_networks().map_err(anyhow::Error::msg)?;
    let runner = app::dispatcher(
        Arc::clone(store),
        Arc::clone(clock),
        config.dispatcher_settings(networks),
        config.dispatcher.runner(),
    )?
    .wake_on(events_recorded);
    tracing::info!(
        workers = config.dispatcher.workers.get(),
        "dispatcher started"
    );
    Ok(spawn(runner, shutdown))
}

/// A background loop: its task, and its beat for readiness.
type Loop = (
    tokio::task::JoinHandle<()>,
    Arc<tidemark_workers::Heartbeat>,
);

/// Runs `runner` on a task of its own until `shutdown`.
fn spawn<W: tidemark_workers::Worker>(
    runner: tidemark_workers::Runner<W>,
    shutdown: &CancellationToken,
) -> Loop {
    let shutdown = shutdown.clone();
    let beat = runner.heartbeat();
    (
        tokio::spawn(async move { runner.run(shutdown).await }),
        beat,
    )
}

/// The delivery log's pruner, beside the dispatcher.
fn start_pruner(
    config: &Config,
    (store, clock): (&Arc<dyn Store>, &Arc<dyn Clock>),
    shutdown: &CancellationToken,
) -> anyhow::Result<Loop> {
    let retention = config.retention().map_err(anyhow::Error::msg)?;
    let runner = app::pruner(Arc::clone(store), Arc::clone(clock), retention);
    tracing::info!(
        retention_days = retention.duration().as_secs() / 86_400,
        "delivery log pruner started"
    );
    Ok(spawn(runner, shutdown))
}

/// The API when this process serves it; else, when `health_listen` is set, `/healthz`,
/// `/readyz` and `/metrics` there; else nothing: until `shutdown`.
async fn serve_http(
    config: &Config,
    parts: (Arc<dyn Store>, Arc<CarrierMatrix>, Arc<dyn Clock>),
    (callbacks, workers): (
        Option<Arc<dyn tidemark_api::CarrierCallbacks>>,
        Arc<dyn tidemark_api::health::Workers>,
    ),
    shutdown: CancellationToken,
) -> anyhow::Result<()> {
    if config.roles.contains(&Role::Api) {
        return serve_api(config, parts, (callbacks, workers), shutdown).await;
    }
    let Some(address) = config.health_listen else {
        shutdown.cancelled().await;
        return Ok(());
    };
    let (store, carriers, clock) = parts;
    let listener = TcpListener::bind(address)
        .await
        .with_context(|| format!("cannot listen on {address}"))?;
    let address = listener.local_addr()?;
    let networks = config.webhook_networks().map_err(anyhow::Error::msg)?;
    let sender = app::webhook_sender(config.dispatcher_settings(networks), Arc::clone(&clock))?;
    let state = AppState::new(store, carriers, config.api(), clock, sender).with_workers(workers);
    tracing::info!(%address, "health and metrics on http://{address}");
    app::serve(
        listener,
        tidemark_api::operations_router(state),
        shutdown,
        config.server(),
    )
    .await?;
    Ok(())
}

async fn serve_api(
    config: &Config,
    (store, carriers, clock): (Arc<dyn Store>, Arc<CarrierMatrix>, Arc<dyn Clock>),
    (callbacks, workers): (
        Option<Arc<dyn tidemark_api::CarrierCallbacks>>,
        Arc<dyn tidemark_api::health::Workers>,
    ),
    shutdown: CancellationToken,
) -> anyhow::Result<()> {
    let listener = TcpListener::bind(config.listen)
        .await
        .with_context(|| format!("cannot listen on {}", config.listen))?;
    let address = listener.local_addr()?;

    if let Some(key) = app::bootstrap(store.as_ref(), clock.as_ref()).await? {
        tracing::info!(
            prefix = key.prefix(),
            "created the first account, \"default\", and printed its API key"
        );
        output::line(format!(
            "\nTidemark created the account \"default\" and its first API key.\n\
             It is shown only this once; keep it somewhere safe:\n\n    {key}\n\n\
             Try:\n    curl -H 'Authorization: Token {key}' http://{address}/v2/tracking_requests\n",
            key = key.expose(),
        ))?;
    }

    let networks = config.webhook_networks().map_err(anyhow::Error::msg)?;
    let sender = app::webhook_sender(config.dispatcher_settings(networks), Arc::clone(&clock))?;
    let state = AppState::new(store, carriers, config.api(), clock, sender)
        .with_callbacks(callbacks)
        .with_workers(workers);
    let router = tidemark_api::router(state);
    tracing::info!(%address, "listening on http://{address}");
    app::serve(listener, router, shutdown, config.server()).await?;
    Ok(())
}
