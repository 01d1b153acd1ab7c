//! The composition root: [`Application::build`] wires the store, the carriers, the use
//! cases, the workers and the HTTP server from [`Settings`] and the [`Seams`] a caller
//! passes in. `tidemark serve` and every test start Tidemark through it.

use std::net::SocketAddr;
use std::sync::Arc;

use anyhow::Context;
use tidemark_api::AppState;
use tidemark_carriers::registry::{Registry, Sandbox};
use tidemark_domain::Clock;
use tidemark_store::Store;
use tidemark_store::wake_ups::{Announcement, ring_on_announcements};
use tidemark_workers::{AisReader, Dispatcher, Heartbeat, Pruner, Runner, Tracker};
use tokio::net::TcpListener;
use tokio::sync::Notify;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use crate::app;

mod parts;
use crate::config::Role;
use crate::settings::Settings;

/// What the application takes from outside its settings.
#[derive(Debug)]
pub struct Seams {
    /// Where "now" comes from.
    pub clock: Arc<dyn Clock>,
    /// Where HTTP is served; `None`: bound at `listen` (or `health_listen` for a process
    /// without the API).
    pub listener: Option<TcpListener>,
    /// The sandbox carrier, already running; `None`: started when `[sandbox]` enables it.
    pub sandbox: Option<Sandbox>,
    /// Cancelled to stop: the server drains its requests, the workers the jobs in hand.
    pub shutdown: CancellationToken,
}

impl Seams {
    /// The system clock, the configured addresses, and a shutdown no one has cancelled.
    #[must_use]
    pub fn production() -> Self {
        Self {
            clock: app::system_clock(),
            listener: None,
            sandbox: None,
            shutdown: CancellationToken::new(),
        }
    }
}

/// A built application: its HTTP server and its workers, not yet running.
pub struct Application {
    store: Arc<dyn Store>,
    clock: Arc<dyn Clock>,
    http: Option<(TcpListener, axum::Router)>,
    address: Option<SocketAddr>,
    server: crate::http_server::ServerSettings,
    carriers: Option<Arc<Registry>>,
    tracker: Option<Runner<Tracker>>,
    dispatcher: Option<Runner<Dispatcher>>,
    pruner: Option<Runner<Pruner>>,
    ais: Option<AisReader>,
    wake_ups: Vec<(Announcement, Arc<Notify>)>,
    connect: tidemark_store::ConnectOptions,
    shutdown: CancellationToken,
}

/// The bells between the parts of one process: the tracker's commits (and the inbox's)
/// that record events wake the dispatcher; pushes that queue work wake the tracker.
#[derive(Default)]
struct Bells {
    events_recorded: Arc<Notify>,
    work_queued: Arc<Notify>,
}

impl Application {
    /// Opens (and migrates) the database, builds the parts the configured roles need, and
    /// binds the HTTP listener.
    ///
    /// # Errors
    /// A database that cannot be opened, an address that cannot be bound, a sandbox that
    /// cannot start, an HTTP client that cannot be built.
    pub async fn build(settings: &Settings, seams: Seams) -> anyhow::Result<Self> {
        let config = &settings.config;
        let Seams {
            clock,
            listener,
            sandbox,
            shutdown,
        } = seams;
        let connect = config.connect_options();
        let store = tidemark_store::connect(&connect).await.with_context(|| {
            format!(
                "cannot open the database {}",
                config.database_url.redacted()
            )
        })?;
        tracing::info!(backend = store.backend(), database = %config.database_url.redacted(), "database ready");
        let runs = |role| config.roles.contains(&role);
        let bells = Bells::default();
        let deps = if runs(Role::Tracker) || runs(Role::Api) {
            let registry = app::connectors(settings, sandbox, &shutdown).await?;
            Some(tidemark_workers::Deps {
                store: Arc::clone(&store),
                carriers: registry,
                matrix: Arc::clone(&settings.matrix),
                clock: Arc::clone(&clock),
                public_url: settings.api.links.public_url.clone(),
            })
        } else {
            None
        };
        let carriers = deps.as_ref().map(|deps| Arc::clone(&deps.carriers));
        let tracker = match (&deps, runs(Role::Tracker)) {
            (Some(deps), true) => Some(parts::tracker(settings, deps.clone(), &bells)),
            _ => None,
        };
        let (dispatcher, pruner) = if runs(Role::Dispatcher) {
            let (dispatcher, pruner) = parts::delivery(settings, &store, &clock, &bells)?;
            (Some(dispatcher), Some(pruner))
        } else {
            (None, None)
        };
        let ais = parts::ais_reader(settings, carriers.as_deref(), (&store, &clock))?
            .filter(|_| runs(Role::Ais));
        let beats: Vec<Arc<Heartbeat>> = (tracker.iter().map(Runner::heartbeat))
            .chain(dispatcher.iter().map(Runner::heartbeat))
            .chain(pruner.iter().map(Runner::heartbeat))
            .collect();
        let state = state(settings, (&store, &clock), deps, &bells, beats)?;
        let http = http(config, state, listener).await?;
        let address = match &http {
            Some((listener, _)) => Some(listener.local_addr()?),
            None => None,
        };
        // Work another process records rings the same bells as this process's own
        // (PostgreSQL's announcements; nothing on SQLite, where one process runs).
        let mut wake_ups = Vec::new();
        if dispatcher.is_some() {
            wake_ups.push((Announcement::NotificationDue, bells.events_recorded));
        }
        if tracker.is_some() {
            wake_ups.push((Announcement::JobScheduled, bells.work_queued));
        }
        Ok(Self {
            store,
            clock,
            http,
            address,
            server: settings.server,
            carriers,
            tracker,
            dispatcher,
            pruner,
            ais,
            wake_ups,
            connect,
            shutdown,
        })
    }

    /// Where HTTP is served, when this process serves it.
    #[must_use]
    pub fn address(&self) -> Option<SocketAddr> {
        self.address
    }

    /// The database.
    #[must_use]
    pub fn store(&self) -> &Arc<dyn Store> {
        &self.store
    }

    /// Where "now" comes from.
    #[must_use]
    pub fn clock(&self) -> &Arc<dyn Clock> {
        &self.clock
    }

    /// The connectors to carriers and terminals, when this process has them (it tracks
    /// or serves the API).
    #[must_use]
    pub fn carriers(&self) -> Option<&Arc<Registry>> {
        self.carriers.as_ref()
    }

    /// The tracker, when this process runs one.
    #[must_use]
    pub fn tracker(&self) -> Option<&Runner<Tracker>> {
        self.tracker.as_ref()
    }

    /// The dispatcher, when this process runs one.
    #[must_use]
    pub fn dispatcher(&self) -> Option<&Runner<Dispatcher>> {
        self.dispatcher.as_ref()
    }

    /// The delivery log's pruner, beside the dispatcher.
    #[must_use]
    pub fn pruner(&self) -> Option<&Runner<Pruner>> {
        self.pruner.as_ref()
    }

    /// Reads the AIS feeds until the shutdown, when this process has the `ais` role and
    /// feeds to read; nothing otherwise or when already reading. The reader runs on a
    /// thread and runtime of its own: a busy feed's decoding and batching never hold the
    /// runtime threads the API answers on. The handle ends when the reader does.
    pub fn spawn_ais(&mut self) -> Option<JoinHandle<()>> {
        let reader = self.ais.take()?;
        let shutdown = self.shutdown.clone();
        let (done, ended) = tokio::sync::oneshot::channel::<()>();
        let thread = std::thread::Builder::new()
            .name("ais-reader".to_owned())
            .spawn(move || {
                match tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                {
                    Ok(runtime) => runtime.block_on(reader.run(shutdown)),
                    Err(error) => tracing::error!(%error, "the AIS reader's runtime did not start"),
                }
                drop(done);
            });
        if let Err(error) = thread {
            tracing::error!(%error, "the AIS reader's thread did not start");
            return None;
        }
        Some(tokio::spawn(async move {
            let _ = ended.await;
        }))
    }

    /// Serves HTTP on a task of its own until the shutdown; the workers stay in the
    /// caller's hands (a test drains them). Nothing when HTTP is not served or already is.
    pub fn spawn_http(&mut self) -> Option<JoinHandle<std::io::Result<()>>> {
        let (listener, router) = self.http.take()?;
        Some(tokio::spawn(crate::http_server::serve(
            listener,
            router,
            self.shutdown.clone(),
            self.server,
        )))
    }

    /// Runs everything built until the shutdown: HTTP drains its requests, the tracker
    /// finishes the jobs in hand.
    ///
    /// # Errors
    /// A failure to serve, or a worker that stopped abnormally.
    pub async fn run_until_stopped(mut self) -> anyhow::Result<()> {
        for (announcement, bell) in std::mem::take(&mut self.wake_ups) {
            let (options, shutdown) = (self.connect.clone(), self.shutdown.clone());
            tokio::spawn(async move {
                tokio::select! {
                    () = shutdown.cancelled() => {}
                    () = ring_on_announcements(&options, announcement, bell) => {}
                }
            });
        }
        let mut loops = Vec::new();
        if let Some(tracker) = self.tracker.take() {
            let moved = tracker.worker().align_schedule().await?;
            if moved > 0 {
                tracing::info!(
                    jobs = moved,
                    "brought forward lookups queued under longer intervals than these settings'"
                );
            }
            loops.push(("tracker", spawn(tracker, &self.shutdown)));
        }
        if let Some(dispatcher) = self.dispatcher.take() {
            loops.push(("dispatcher", spawn(dispatcher, &self.shutdown)));
        }
        if let Some(pruner) = self.pruner.take() {
            loops.push(("pruner", spawn(pruner, &self.shutdown)));
        }
        if let Some(reader) = self.spawn_ais() {
            loops.push(("AIS reader", reader));
        }
        // Served as the tests serve it (`spawn_http`).
        match self.spawn_http() {
            Some(server) => {
                server
                    .await
                    .context("the HTTP server stopped abnormally")??;
            }
            None => self.shutdown.cancelled().await,
        }
        for (name, task) in loops {
            task.await
                .with_context(|| format!("the {name} stopped abnormally"))?;
        }
        tracing::info!("stopped");
        Ok(())
    }
}

/// The API's state: its use cases, the inbox for the lines' pushes (with `deps`), the
/// loops whose `beats` make the process ready.
fn state(
    settings: &Settings,
    (store, clock): (&Arc<dyn Store>, &Arc<dyn Clock>),
    deps: Option<tidemark_workers::Deps>,
    bells: &Bells,
    beats: Vec<Arc<Heartbeat>>,
) -> anyhow::Result<AppState> {
    let config = &settings.config;
    let callbacks = deps.map(|deps| {
        let inbox = tidemark_workers::Inbox::new(deps, config.policies())
            .ring_on_events(Arc::clone(&bells.events_recorded))
            .ring_on_work(Arc::clone(&bells.work_queued));
        Arc::new(inbox) as Arc<dyn tidemark_api::CarrierCallbacks>
    });
    let sender = tidemark_workers::Sender::new(settings.dispatcher.clone(), Arc::clone(clock))?;
    Ok(AppState::new(tidemark_api::Parts {
        store: Arc::clone(store),
        carriers: Arc::clone(&settings.matrix),
        config: settings.api.clone(),
        clock: Arc::clone(clock),
        tracking: tidemark_app::Tracking::new(
            Arc::clone(store),
            Arc::clone(&settings.matrix),
            Arc::clone(clock),
            config.policies(),
        )
        .links_under(settings.api.links.public_url.as_deref()),
        webhooks: tidemark_app::Webhooks::new(
            Arc::clone(store),
            Arc::clone(clock),
            Arc::clone(&settings.matrix),
            Arc::new(sender),
            settings.secret_grace(),
        )
        .links_under(settings.api.links.public_url.as_deref()),
        callbacks,
        workers: Some(Arc::new(app::Loops(beats))),
    }))
}

/// The HTTP this process serves and where: the API at `listen`; else, when
/// `health_listen` is set, `/healthz`, `/readyz` and `/metrics` there; else nothing. A
/// `listener` passed in takes the place of the configured address.
async fn http(
    config: &crate::config::Config,
    state: AppState,
    listener: Option<TcpListener>,
) -> anyhow::Result<Option<(TcpListener, axum::Router)>> {
    let served = if config.roles.contains(&Role::Api) {
        Some((config.listen, tidemark_api::router(state)))
    } else {
        config
            .health_listen
            .map(|address| (address, tidemark_api::operations_router(state)))
    };
    Ok(match (served, listener) {
        (Some((_, router)), Some(listener)) => Some((listener, router)),
        (Some((address, router)), None) => {
            let listener = TcpListener::bind(address)
                .await
                .with_context(|| format!("cannot listen on {address}"))?;
            Some((listener, router))
        }
        (None, _) => None,
    })
}

/// Runs `runner` on a task of its own until `shutdown`.
fn spawn<W: tidemark_workers::Worker>(
    runner: Runner<W>,
    shutdown: &CancellationToken,
) -> JoinHandle<()> {
    let shutdown = shutdown.clone();
    tokio::spawn(async move { runner.run(shutdown).await })
}
