//! The DCSA and terminal connectors against the simulator over real HTTP on loopback: every
//! scenario, every fault, paging, credentials, and a voyage played step by step.

mod auth_styles;
mod event_push;
mod faults;
mod mapping;
mod notices;
mod profiles;
mod quirks;
mod subscriptions;
mod terminal;
mod transport;
mod versions;
mod voyage;

use std::time::Duration;

use carrier_sim::{ClockMode, Fault, FaultRule, OAuthClient, SimConfig, Simulator};
use tidemark_carriers::auth::Auth;
use tidemark_carriers::dcsa::{DcsaConfig, DcsaConnector};
use tidemark_carriers::{Lookup, Secret};
use tidemark_domain::{LookupOutcome, Milestone, RequestType, Snapshot};
use time::macros::datetime;

pub(crate) const KEY: &str = "carrier-key";

pub(crate) fn sim_config() -> SimConfig {
    let mut config = SimConfig::new(KEY);
    config.seed = 11;
    config.epoch = datetime!(2026-06-01 0:00 UTC);
    config.clock = ClockMode::Stepped;
    // Every number sails here; the seeded unhappy fates are the simulator's own tests.
    config.chances = carrier_sim::Chances {
        not_found: 0,
        awaiting_manifest: 0,
        cancelled: 0,
    };
    config.oauth_clients = vec![OAuthClient {
        client_id: "tidemark".into(),
        client_secret: "s3cret".into(),
    }];
    config
}

pub(crate) struct World {
    pub(crate) sim: Simulator,
    pub(crate) base: String,
}

impl World {
    pub(crate) async fn start(config: SimConfig) -> Self {
        let sim = Simulator::new(config);
        let base = sim.clone().spawn().await.expect("simulator listens");
        Self { sim, base }
    }

    pub(crate) fn config(&self, scac: &str) -> DcsaConfig {
        let mut config = DcsaConfig::new(
            format!("{}/{scac}", self.base),
            Auth::Header {
                name: "API-Key".into(),
                value: Secret::new(KEY),
            },
        );
        config.timeout = Duration::from_secs(5);
        config
    }

    pub(crate) fn connector(&self, scac: &str) -> DcsaConnector {
        DcsaConnector::new(self.config(scac)).expect("valid config")
    }

    pub(crate) fn advance_days(&self, days: i64) {
        self.sim.clock().advance(time::Duration::days(days));
    }

    pub(crate) fn fault(&self, fault: Fault) {
        self.sim.add_fault(FaultRule {
            terminal: None,
            scac: None,
            reference: None,
            fault,
            times: Some(1),
        });
    }
}

pub(crate) fn lookup(number: &str, kind: RequestType) -> Lookup {
    Lookup::new(number.to_owned(), kind)
}

pub(crate) fn bill(number: &str) -> Lookup {
    lookup(number, RequestType::BillOfLading)
}

pub(crate) fn found(outcome: LookupOutcome) -> Snapshot {
    match outcome {
        LookupOutcome::Found(snapshot) => snapshot,
        other => panic!("expected a snapshot, got {other:?}"),
    }
}

pub(crate) fn milestones(snapshot: &Snapshot, container: usize) -> Vec<Milestone> {
    snapshot.containers[container]
        .milestones
        .iter()
        .map(|m| m.milestone)
        .collect()
}

/// What a receiver was sent: a header's value and the body, per call.
pub(crate) type Received = std::sync::Arc<std::sync::Mutex<Vec<(String, Vec<u8>)>>>;

/// A receiver on loopback keeping each call's `header` and body; its URL.
pub(crate) async fn receiver(header: &'static str) -> (String, Received) {
    let received: Received = std::sync::Arc::default();
    let kept = std::sync::Arc::clone(&received);
    let app = axum::Router::new().fallback(
        move |headers: axum::http::HeaderMap, body: axum::body::Bytes| {
            let kept = std::sync::Arc::clone(&kept);
            async move {
                let value = headers
                    .get(header)
                    .and_then(|v| v.to_str().ok())
                    .unwrap_or_default()
                    .to_owned();
                kept.lock().expect("lock").push((value, body.to_vec()));
                "{}"
            }
        },
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let url = format!("http://{}/push", listener.local_addr().expect("address"));
    tokio::spawn(async move { axum::serve(listener, app).await });
    (url, received)
}
