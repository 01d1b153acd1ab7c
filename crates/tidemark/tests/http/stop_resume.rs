//! Stopping, resuming and refreshing a tracked shipment over HTTP (api.md §4): the request
//! moves through the lifecycle, a resume looks at once, refreshes have their own rate
//! limit, and a resume that would duplicate is the duplicate rule's answer.

use reqwest::Method;
use serde_json::json;

use crate::common::{TestApp, codes, document, errors, tracking_request, with_tracking};
use crate::shipments::{shipment_action, shipment_id, track};

tidemark_store::backends!(
    with_tracking,
    stopping_and_resuming_move_the_request_and_refresh_follows,
    refreshes_have_their_own_rate_limit,
    resuming_is_refused_while_a_newer_request_tracks_the_number,
);

async fn stopping_and_resuming_move_the_request_and_refresh_follows(t: TestApp) {
    let request = track(&t, "TEST-TR-SUCCEEDED", "TEST").await;
    let request_id = request["data"]["id"].as_str().expect("id").to_owned();
    let shipment_id = shipment_id(&request);
    let stopped = shipment_action(&t, &shipment_id, "stop_tracking").await;
    assert_eq!(stopped.status(), 200);
    let stopped = document(stopped).await;
    assert_eq!(
        stopped["data"]["attributes"]["line_tracking_stopped_reason"],
        "cancelled_by_user"
    );
    assert!(stopped["data"]["attributes"]["line_tracking_stopped_at"].is_string());
    let now = document(t.get(&format!("/v2/tracking_requests/{request_id}")).await).await;
    assert_eq!(now["data"]["attributes"]["status"], "tracking_stopped");
    // Stopping again changes nothing.
    let again = shipment_action(&t, &shipment_id, "stop_tracking").await;
    assert_eq!(again.status(), 200);
    let events = t.store.domain_events(t.account.id).await.expect("events");
    assert_eq!(
        events
            .iter()
            .filter(|e| e.name.name() == "tracking_request.tracking_stopped")
            .count(),
        1
    );

    let container = document(t.get("/v2/containers").await).await;
    let container_id = container["data"][0]["id"].as_str().expect("id").to_owned();
    let refused = t
        .call(
            Method::PATCH,
            &format!("/v2/containers/{container_id}/refresh"),
        )
        .await;
    assert_eq!(
        codes(&errors(refused, 409).await),
        [("tracking_stopped".to_owned(), String::new())]
    );

    let lookups_before = t.sim.lookups("TEST", "TEST-TR-SUCCEEDED");
    let resumed = shipment_action(&t, &shipment_id, "resume_tracking").await;
    assert_eq!(resumed.status(), 200);
    let resumed = document(resumed).await;
    assert!(resumed["data"]["attributes"]["line_tracking_stopped_at"].is_null());
    let now = document(t.get(&format!("/v2/tracking_requests/{request_id}")).await).await;
    assert_eq!(now["data"]["attributes"]["status"], "created");
    assert_eq!(t.drain().await, 1, "resuming looks at once");
    assert_eq!(
        t.sim.lookups("TEST", "TEST-TR-SUCCEEDED"),
        lookups_before + 1
    );

    let accepted = t
        .call(
            Method::PATCH,
            &format!("/v2/containers/{container_id}/refresh"),
        )
        .await;
    assert_eq!(accepted.status(), 200);
    assert!(
        accepted.headers()["content-type"]
            .to_str()
            .is_ok_and(|t| t.starts_with("application/json"))
    );
    let answer: serde_json::Value = accepted.json().await.expect("JSON");
    assert_eq!(
        answer,
        json!({"message": "Started refresh for Shipping line"})
    );
    assert_eq!(t.drain().await, 1, "a refresh asks the carrier now");
    assert_eq!(
        t.sim.lookups("TEST", "TEST-TR-SUCCEEDED"),
        lookups_before + 2
    );
}

async fn refreshes_have_their_own_rate_limit(t: TestApp) {
    track(&t, "TEST-TR-SUCCEEDED", "TEST").await;
    let container = document(t.get("/v2/containers").await).await;
    let id = container["data"][0]["id"].as_str().expect("id").to_owned();
    for _ in 0..10 {
        let accepted = t
            .call(Method::PATCH, &format!("/v2/containers/{id}/refresh"))
            .await;
        assert_eq!(accepted.status(), 200);
    }
    let limited = t
        .call(Method::PATCH, &format!("/v2/containers/{id}/refresh"))
        .await;
    assert!(limited.headers().contains_key("retry-after"));
    errors(limited, 429).await;
    // Reads are not charged to that bucket.
    assert_eq!(t.get("/v2/containers").await.status(), 200);
}

async fn resuming_is_refused_while_a_newer_request_tracks_the_number(t: TestApp) {
    let request = track(&t, "TEST-TR-SUCCEEDED", "TEST").await;
    let shipment_id = shipment_id(&request);
    let stop = shipment_action(&t, &shipment_id, "stop_tracking").await;
    assert_eq!(stop.status(), 200);
    // A stopped request no longer blocks a new one for the same number.
    let again = t
        .create(&tracking_request(
            "bill_of_lading",
            "TEST-TR-SUCCEEDED",
            "TEST",
        ))
        .await;
    assert_eq!(again.status(), 201);
    let resume = shipment_action(&t, &shipment_id, "resume_tracking").await;
    // The duplicate rule answers as it does on create.
    assert_eq!(
        codes(&errors(resume, 422).await),
        [("duplicate".to_owned(), String::new())]
    );
    let shipment = document(t.get(&format!("/v2/shipments/{shipment_id}")).await).await;
    assert!(
        shipment["data"]["attributes"]["line_tracking_stopped_at"].is_string(),
        "still stopped"
    );
}
