//! `Tracking`: the app with a real tracker asking the carrier simulator over HTTP, both
//! clocks in the test's hands.

use std::sync::Arc;

use serde_json::json;
use tidemark::app;
use tidemark_api::ApiConfig;
use tidemark_domain::Clock;
use tidemark_store::testing::Backend;

use super::TestApp;

/// An app with a tracker asking a carrier simulator over HTTP; the test moves both clocks
/// and drains the queue.
pub struct Tracking {
    pub app: TestApp,
    pub sim: carrier_sim::Simulator,
    /// The simulator's base URL; its admin API takes the key [`SIM_ADMIN_KEY`].
    pub sim_url: String,
    pub clock: Arc<tidemark_domain::ManualClock>,
    pub runner: tidemark_workers::Runner<tidemark_workers::Tracker>,
}

impl Tracking {
    pub async fn spawn(backend: Backend) -> Option<Self> {
        Self::spawn_with(backend, tidemark_domain::SandboxScope::AllCarriers).await
    }

    /// A tracking app whose sandbox reaches as far as `scope` (the API agrees).
    pub async fn spawn_with(
        backend: Backend,
        scope: tidemark_domain::SandboxScope,
    ) -> Option<Self> {
        Self::spawn_configured(backend, scope, |_| {}).await
    }

    /// As [`Tracking::spawn_with`], with the simulator's settings changed by `configure`.
    pub async fn spawn_configured(
        backend: Backend,
        scope: tidemark_domain::SandboxScope,
        configure: impl FnOnce(&mut carrier_sim::SimConfig),
    ) -> Option<Self> {
        Self::spawn_inner(backend, scope, configure, false, "").await
    }

    /// A tracking app whose carriers are `endpoints` (the `[endpoints.SCAC]` tables of
    /// `[carriers]`, `{sim}` standing for the simulator's URL), each reached at the
    /// simulator as `configure` sets it up; the sandbox line `TEST` beside them.
    pub async fn spawn_carriers(
        backend: Backend,
        configure: impl FnOnce(&mut carrier_sim::SimConfig),
        endpoints: &str,
    ) -> Option<Self> {
        let scope = tidemark_domain::SandboxScope::TestOnly;
        Self::spawn_inner(backend, scope, configure, false, endpoints).await
    }

    /// A tracking app the simulator's terminals are asked to push to (it subscribes).
    pub async fn spawn_pushed(backend: Backend) -> Option<Self> {
        Self::spawn_inner(
            backend,
            tidemark_domain::SandboxScope::AllCarriers,
            |_| {},
            true,
            "",
        )
        .await
    }

    async fn spawn_inner(
        backend: Backend,
        scope: tidemark_domain::SandboxScope,
        configure: impl FnOnce(&mut carrier_sim::SimConfig),
        pushed: bool,
        endpoints: &str,
    ) -> Option<Self> {
        let mut config = tidemark_testkit::sim_config(3);
        configure(&mut config);
        let simulated = tidemark_testkit::Simulated::start(config).await;
        let clock = Arc::clone(&simulated.clock);
        // The simulator's terminals and carriers push to this app (a subscription names
        // where).
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let app_url = format!("http://{}", listener.local_addr().expect("address"));
        let endpoints = endpoints
            .replace("{sim}", &simulated.url)
            .replace("{app}", &app_url);
        let mut settings = tidemark::config::Config {
            carriers: toml::from_str(&endpoints).expect("endpoints"),
            ..tidemark::config::Config::default()
        };
        let api = ApiConfig {
            coverage: tidemark_domain::Coverage::new(
                settings
                    .carriers
                    .endpoints
                    .keys()
                    .filter_map(|k| tidemark_domain::Scac::parse(k).ok()),
                scope,
            )
            .with_details(
                tidemark_carriers::registry::describe(&settings.carriers).expect("described"),
            ),
            ..ApiConfig::default()
        };
        let sandbox = simulated.sandbox(tidemark::config::SandboxConfig::default().connection);
        if pushed {
            settings.terminals.callback_base_url = Some(app_url);
        }
        let registry = app::registry(&settings, Some(sandbox), scope).expect("registry");
        let inbox_registry = Arc::clone(&registry);
        let inbox_clock = Arc::clone(&clock) as Arc<dyn Clock>;
        let app = TestApp::spawn_receiving(
            backend,
            api,
            Arc::clone(&clock) as Arc<dyn Clock>,
            (listener, app::ServerSettings::default()),
            move |store| {
                let deps = tidemark_workers::Deps {
                    store,
                    carriers: inbox_registry,
                    matrix: app::carriers(None).expect("carriers"),
                    clock: inbox_clock,
                };
                let policy = tidemark_domain::lifecycle::Policy::default();
                Some(app::callbacks(tidemark_workers::Inbox::new(deps, policy)))
            },
        )
        .await?;
        let deps = tidemark_workers::Deps {
            store: Arc::clone(&app.store),
            carriers: registry,
            matrix: app::carriers(None).expect("carriers"),
            clock: Arc::clone(&clock) as Arc<dyn Clock>,
        };
        let runner = app::tracker(
            deps,
            &tidemark::config::TrackerConfig::default(),
            tidemark_domain::lifecycle::Policy::default(),
            None,
        );
        let tidemark_testkit::Simulated { sim, url, .. } = simulated;
        Some(Self {
            app,
            sim,
            sim_url: url,
            clock,
            runner,
        })
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

    /// Has the simulator push (`POST /admin/{what}`: `terminal-pushes`, `event-pushes`)
    /// to every subscriber, with `fault`; what each subscriber said.
    pub async fn sim_pushes(&self, what: &str, fault: Option<&str>) -> Vec<serde_json::Value> {
        let response = reqwest::Client::new()
            .post(format!("{}/admin/{what}", self.sim_url))
            .header("Admin-Key", tidemark_testkit::SIM_ADMIN_KEY)
            .json(&json!({"fault": fault}))
            .send()
            .await
            .expect("request");
        assert_eq!(response.status(), 200);
        let body: serde_json::Value = response.json().await.expect("json");
        body["pushes"].as_array().cloned().expect("pushes")
    }

    /// Every notification due now, claimed for a minute as a dispatcher would.
    pub async fn claim_due(&self) -> Vec<tidemark_domain::webhook::ClaimedNotification> {
        self.app
            .store
            .claim_notifications(
                100,
                100,
                std::time::Duration::from_secs(60),
                self.clock.now(),
            )
            .await
            .expect("claim")
    }

    /// Subscribes a webhook at `url` to every event.
    pub async fn subscribe(&self, url: &str) {
        let created = self
            .app
            .post_json(
                "/v2/webhooks",
                &self.app.key,
                &json!({"data": {"type": "webhook", "attributes": {"url": url}}}),
            )
            .await;
        assert_eq!(created.status(), 201);
    }
}

/// Runs `case` with a fresh tracking app on `backend`.
pub async fn with_tracking<F, Fut>(backend: Backend, case: F)
where
    F: FnOnce(Tracking) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    if let Some(tracking) = Tracking::spawn(backend).await {
        case(tracking).await;
    }
}
