//! The admin API.

use serde_json::{Value, json};

use crate::*;

#[tokio::test]
async fn the_admin_api_is_guarded() {
    let sim = Sim::start(config()).await;
    let anonymous = sim
        .client
        .get(format!("{}/admin/clock", sim.base))
        .send()
        .await
        .expect("request");
    assert_eq!(anonymous.status(), 401);
    let mut off = config();
    off.admin_key = None;
    let closed = Sim::start(off).await;
    assert_eq!(
        closed
            .admin(reqwest::Method::GET, "/admin/clock", None)
            .await
            .status(),
        404
    );
}

#[tokio::test]
async fn the_admin_api_injects_events_and_moves_time() {
    let sim = Sim::start(config()).await;
    let event = json!({
        "eventID": "5e51e72c-d872-11ea-811c-0f8f10a32ea1",
        "eventType": "SHIPMENT", "eventClassifierCode": "ACT",
        "eventCreatedDateTime": "2026-06-02T00:00:00Z", "eventDateTime": "2026-06-02T00:00:00Z",
        "shipmentEventTypeCode": "HOLD", "documentTypeCode": "BKG", "documentID": "INJECTED1",
    });
    let injected = sim
        .admin(
            reqwest::Method::POST,
            "/admin/events",
            Some(json!({"scac": "MAEU", "events": [event]})),
        )
        .await;
    assert_eq!(injected.status(), 201);
    let query = "/MAEU/v2/events?carrierBookingReference=INJECTED1";
    let before = sim.all(query).await;
    assert!(
        before.iter().all(|e| e["shipmentEventTypeCode"] != "HOLD"),
        "not yet created"
    );
    let moved: Value = sim
        .admin_json(
            reqwest::Method::POST,
            "/admin/clock",
            Some(json!({"set": "2026-06-03T00:00:00Z"})),
        )
        .await;
    assert_eq!(moved["now"], "2026-06-03T00:00:00Z");
    let after = sim.all(query).await;
    assert!(after.iter().any(|e| e["shipmentEventTypeCode"] == "HOLD"));

    let bad = sim
        .admin(
            reqwest::Method::POST,
            "/admin/events",
            Some(json!({"scac": "MAEU", "events": [{"eventType": "SHIPMENT"}]})),
        )
        .await;
    assert_eq!(bad.status(), 400);
    let back = sim
        .admin(
            reqwest::Method::POST,
            "/admin/clock",
            Some(json!({"advance_seconds": -5})),
        )
        .await;
    assert_eq!(back.status(), 400);
    let lookups: Value = sim
        .admin_json(
            reqwest::Method::GET,
            "/admin/lookups?scac=MAEU&reference=INJECTED1",
            None,
        )
        .await;
    assert_eq!(lookups["lookups"], 2);
    // Every call to the line's events, pages and refusals too, by the wall clock.
    let calls: Value = sim
        .admin_json(reqwest::Method::GET, "/admin/calls?scac=maeu", None)
        .await;
    let noted = calls["calls"].as_array().cloned().expect("calls");
    assert!(noted.len() >= 2, "{noted:?}");
    assert!(noted.windows(2).all(|w| w[0].as_u64() <= w[1].as_u64()));
    let missing = sim.admin(reqwest::Method::GET, "/admin/calls", None).await;
    assert_eq!(missing.status(), 400);
    let reset: Value = sim
        .admin_json(reqwest::Method::POST, "/admin/reset", None)
        .await;
    assert_eq!(reset["now"], "2026-06-01T00:00:00Z");
    let calls: Value = sim
        .admin_json(reqwest::Method::GET, "/admin/calls?scac=MAEU", None)
        .await;
    assert_eq!(calls["calls"], json!([]), "reset forgets the calls");
}
