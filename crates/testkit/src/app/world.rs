//! The test's hands on a [`TestApp`]'s time and work: both clocks, the tracker's and the
//! dispatcher's queues, the simulator's pushes, and what is stored.

use serde_json::json;
use tidemark_domain::{Tracked, TrackingRequest};

use super::TestApp;

impl TestApp {
    /// Works every tracking job due now (the tracker's queue, drained); how many.
    ///
    /// # Panics
    /// When this process runs no tracker, or a job fails to be worked.
    pub async fn drain(&self) -> usize {
        let tracker = self.app.tracker().expect("a tracker");
        tracker.run_until_idle().await.expect("drained")
    }

    /// Sends every webhook notification due now (the dispatcher's queue, drained); how
    /// many.
    ///
    /// # Panics
    /// When this process runs no dispatcher, or a delivery fails to be worked.
    pub async fn deliver(&self) -> usize {
        let dispatcher = self.app.dispatcher().expect("a dispatcher");
        dispatcher.run_until_idle().await.expect("delivered")
    }

    /// Moves both clocks: the simulated world's and the simulator's.
    pub fn advance(&self, by: time::Duration) {
        self.clock.advance(by);
        self.sim.clock().advance(by);
    }

    /// Has the simulator push (`POST /admin/{what}`: `terminal-pushes`, `event-pushes`)
    /// to every subscriber, with `fault`; what each subscriber said.
    ///
    /// # Panics
    /// When the simulator refuses.
    pub async fn sim_pushes(&self, what: &str, fault: Option<&str>) -> Vec<serde_json::Value> {
        let response = self
            .client
            .post(format!("{}/admin/{what}", self.sim_url))
            .header("Admin-Key", crate::SIM_ADMIN_KEY)
            .json(&json!({"fault": fault}))
            .send()
            .await
            .expect("request");
        assert_eq!(response.status(), 200);
        let body: serde_json::Value = response.json().await.expect("json");
        body["pushes"].as_array().cloned().expect("pushes")
    }

    /// Every notification due now, claimed for a minute as a dispatcher would.
    ///
    /// # Panics
    /// When the store fails.
    pub async fn claim_due(&self) -> Vec<tidemark_domain::webhook::ClaimedNotification> {
        self.store
            .claim_notifications(
                100,
                100,
                std::time::Duration::from_secs(60),
                self.app_clock.now(),
            )
            .await
            .expect("claim")
    }

    /// `request` as stored now.
    ///
    /// # Panics
    /// When it is not stored.
    pub async fn stored(&self, request: &TrackingRequest) -> TrackingRequest {
        self.store
            .tracking_request(self.account.id, request.id)
            .await
            .expect("read")
            .expect("exists")
    }

    /// What `request` tracks now, which must be something.
    ///
    /// # Panics
    /// When it tracks nothing.
    pub async fn tracked(&self, request: &TrackingRequest) -> Tracked {
        self.store
            .tracked(request.id)
            .await
            .expect("read")
            .expect("tracks a shipment")
    }

    /// The names of the account's domain events, oldest first.
    ///
    /// # Panics
    /// When the store fails.
    pub async fn event_names(&self) -> Vec<String> {
        self.store
            .domain_events(self.account.id)
            .await
            .expect("events")
            .iter()
            .map(|event| event.name.name())
            .collect()
    }

    /// How many of the account's domain events are named `name`.
    pub async fn count_events(&self, name: &str) -> usize {
        let names = self.event_names().await;
        names.iter().filter(|n| *n == name).count()
    }
}
