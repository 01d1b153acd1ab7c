//! The sandbox line `TEST` and its scripted numbers (api.md §6), over HTTP against the
//! carrier simulator.

use serde_json::Value;

use crate::common::{Tracking, document, tracking_request};
use crate::tracking_backends;

tracking_backends!(the_failed_test_number_fails_at_its_first_lookup_whatever_its_type);

async fn the_failed_test_number_fails_at_its_first_lookup_whatever_its_type(t: Tracking) {
    for kind in ["bill_of_lading", "booking_number"] {
        let created = document(
            t.app
                .create(&tracking_request(kind, "TEST-TR-FAILED", "TEST"))
                .await,
        )
        .await;
        let id = created["data"]["id"].as_str().expect("id");
        t.drain().await;
        let body = document(t.app.get(&format!("/v2/tracking_requests/{id}")).await).await;
        let attributes = &body["data"]["attributes"];
        assert_eq!(attributes["status"], "failed", "{body}");
        assert_eq!(attributes["failed_reason"], "not_found");
        assert_eq!(
            attributes["retry_count"],
            Value::Null,
            "at the first lookup"
        );
    }
    let events: Vec<String> = t
        .app
        .store
        .domain_events(t.app.account.id)
        .await
        .expect("events")
        .iter()
        .map(|event| event.name.name())
        .collect();
    assert_eq!(
        events,
        ["tracking_request.failed", "tracking_request.failed"]
    );
}
