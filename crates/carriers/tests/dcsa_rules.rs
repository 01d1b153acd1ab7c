//! DCSA's own messages. Values that break their own rules are not stored as truth: an
//! event whose equipment reference fails ISO 6346, whose UN/LOCODE names no country, whose
//! vessel's IMO number fails its check digit, or that has no `eventID` is dropped; an
//! answer with no valid event left is not understood. And nothing the carrier said is
//! lost: DCSA's own 2.2 sample keeps every event of its container as reported, including
//! the vessel's arrival at the port of loading and the estimated load of an empty box,
//! which make no milestone. Events reach the connector from the carrier simulator over
//! HTTP, injected through its admin API.

use std::time::Duration;

use carrier_sim::{ClockMode, SimConfig, Simulator};
use serde_json::{Value, json};
use tidemark_carriers::auth::Auth;
use tidemark_carriers::dcsa::{DcsaConfig, DcsaConnector};
use tidemark_carriers::{CarrierConnector, Lookup, Secret};
use tidemark_domain::{
    CarrierEvent, CarrierEventType, EventClassifier, LookupOutcome, RequestType, TemporaryReason,
    Timestamp,
};
use time::macros::datetime;

const KEY: &str = "rules-key";
const ADMIN: &str = "rules-admin";

/// DCSA's sample answer (see `fixtures/README.md` at the workspace root).
fn sample() -> Vec<Value> {
    serde_json::from_str(include_str!("../../../fixtures/dcsa/tnt-2.2-sample.json"))
        .expect("valid JSON")
}

async fn simulator() -> (Simulator, String) {
    let mut config = SimConfig::new(KEY);
    config.epoch = datetime!(2026-06-01 0:00 UTC);
    config.clock = ClockMode::Stepped;
    config.admin_key = Some(ADMIN.to_owned());
    // The simulated world knows no number: what the carrier says is what is injected.
    config.chances = carrier_sim::Chances {
        not_found: 100,
        awaiting_manifest: 0,
        cancelled: 0,
    };
    let sim = Simulator::new(config);
    let base = sim.clone().spawn().await.expect("simulator listens");
    (sim, base)
}

async fn inject(base: &str, events: &[Value]) {
    let response = reqwest::Client::new()
        .post(format!("{base}/admin/events"))
        .header("Admin-Key", ADMIN)
        .json(&json!({"scac": "ZIMU", "events": events}))
        .send()
        .await
        .expect("request");
    assert_eq!(response.status(), 201);
}

fn connector(base: &str) -> DcsaConnector {
    let mut config = DcsaConfig::new(
        format!("{base}/ZIMU"),
        Auth::Header {
            name: "API-Key".into(),
            value: Secret::new(KEY),
        },
    );
    config.timeout = Duration::from_secs(5);
    DcsaConnector::new(config).expect("valid config")
}

/// An equipment event of `container` at `locode`, loaded on vessel `imo`.
fn load(id: Option<&str>, container: &str, locode: &str, imo: &str) -> Value {
    let mut event = json!({
        "eventType": "EQUIPMENT", "eventClassifierCode": "ACT",
        "eventCreatedDateTime": "2026-05-20T00:00:00Z", "eventDateTime": "2026-05-20T00:00:00Z",
        "equipmentEventTypeCode": "LOAD", "equipmentReference": container,
        "emptyIndicatorCode": "LADEN",
        "documentReferences": [{"documentReferenceType": "BKG", "documentReferenceValue": "RULES1"}],
        "transportCall": {"transportCallID": format!("TC-{locode}"), "transportCallSequenceNumber": 1,
            "UNLocationCode": locode, "modeOfTransport": "VESSEL",
            "vessel": {"vesselIMONumber": imo, "vesselName": "RULE BREAKER"}},
    });
    if let Some(id) = id {
        event["eventID"] = json!(id);
    }
    event
}

fn booking() -> Lookup {
    Lookup::new("RULES1", RequestType::BookingNumber)
}

#[tokio::test]
async fn events_breaking_their_own_rules_are_dropped_and_the_rest_kept() {
    let (_sim, base) = simulator().await;
    inject(
        &base,
        &[
            load(Some("a1"), "CSQU3054383", "CNSHA", "9811000"),
            // A wrong check digit, a country that does not exist, an IMO number failing its
            // check digit, a placeholder IMO number, no eventID.
            load(Some("b1"), "CSQU3054384", "CNSHA", "9811000"),
            load(Some("b2"), "MSKU1234565", "XYABC", "9811000"),
            load(Some("b3"), "MSKU1234565", "CNSHA", "9811001"),
            load(Some("b4"), "MSKU1234565", "CNSHA", "1234567"),
            load(None, "MSKU1234565", "CNSHA", "9811000"),
        ],
    )
    .await;
    let LookupOutcome::Found(snapshot) = connector(&base).lookup(&booking()).await else {
        panic!("the valid event is found");
    };
    let numbers: Vec<&str> = snapshot
        .containers
        .iter()
        .map(|c| c.number.as_str())
        .collect();
    assert_eq!(numbers, ["CSQU3054383"], "only the valid event's container");
    let places: Vec<&str> = snapshot
        .calls
        .iter()
        .map(|call| call.place.locode.as_str())
        .collect();
    assert!(!places.contains(&"XYABC"), "{places:?}");
}

#[tokio::test]
async fn an_answer_without_one_valid_event_is_not_understood() {
    let (_sim, base) = simulator().await;
    inject(
        &base,
        &[
            load(Some("b1"), "CSQU3054384", "CNSHA", "9811000"),
            load(Some("b2"), "MSKU1234565", "XYABC", "9811000"),
        ],
    )
    .await;
    let outcome = connector(&base).lookup(&booking()).await;
    assert!(
        matches!(
            &outcome,
            LookupOutcome::Temporary(TemporaryReason::Unrecognized(detail))
                if detail.contains("ISO 6346") || detail.contains("check digit")
        ),
        "{outcome:?}"
    );
}

fn at(text: &str) -> Timestamp {
    Timestamp::parse_rfc3339(text).expect("a date-time")
}

fn by_id<'a>(events: &'a [CarrierEvent], id: &str) -> &'a CarrierEvent {
    events
        .iter()
        .find(|e| e.source_id == id)
        .unwrap_or_else(|| panic!("event {id} is kept: {events:#?}"))
}

#[tokio::test]
async fn the_official_sample_keeps_every_event_of_its_container() {
    let (_sim, base) = simulator().await;
    inject(&base, &sample()).await;
    let lookup = Lookup::new("ABC123123123", RequestType::BookingNumber);
    let LookupOutcome::Found(snapshot) = connector(&base).lookup(&lookup).await else {
        panic!("the sample is a manifested booking");
    };
    assert_eq!(snapshot.containers.len(), 1);
    let container = &snapshot.containers[0];
    assert_eq!(container.number, "APZU4812090");
    assert!(
        container.milestones.is_empty(),
        "neither event is a milestone: {:?}",
        container.milestones
    );

    // The vessel's arrival is the shipment's, listed with every container.
    let arrival = by_id(
        &snapshot.shipment_events,
        "3cecb101-7a1a-43a4-9d62-e88a131651e2",
    );
    assert_eq!(arrival.event_type, CarrierEventType::Transport);
    assert_eq!(arrival.code, "ARRI");
    assert_eq!(arrival.classifier, EventClassifier::Actual);
    assert_eq!(arrival.at, at("2021-01-09T13:12:56Z"), "+01:00 read as UTC");
    assert_eq!(arrival.reported_at, at("2021-01-09T14:12:56Z"));
    assert_eq!(arrival.milestone, None, "an arrival at the port of loading");
    let place = arrival.place.as_ref().expect("the call's place");
    assert_eq!(place.locode, "FRPAR");
    assert_eq!(place.facility.as_deref(), Some("ADT"));
    let vessel = arrival.vessel.as_ref().expect("the call's vessel");
    assert_eq!(vessel.imo, "9321483");
    assert_eq!(vessel.name.as_deref(), Some("King of the Seas"));
    assert_eq!(arrival.voyage.as_deref(), Some("2103S"));
    assert_eq!(
        arrival.call_id.as_deref(),
        Some("123e4567-e89b-12d3-a456-426614174000")
    );

    let load = by_id(
        &container.raw_events,
        "3cecb101-7a1a-43a4-9d62-e88a131651e4",
    );
    assert_eq!(load.event_type, CarrierEventType::Equipment);
    assert_eq!(load.code, "LOAD");
    assert_eq!(load.classifier, EventClassifier::Estimated);
    assert!(load.is_estimate());
    assert_eq!(load.empty, Some(true));
    assert_eq!(load.at, at("2019-11-11T23:11:00Z"), "+08:30 read as UTC");
    assert_eq!(load.milestone, None, "loading an empty box is no milestone");
    let place = load.place.as_ref().expect("the event's location");
    assert_eq!(place.name.as_deref(), Some("Eiffel Tower"));

    let kinds = |events: &[CarrierEvent]| -> Vec<String> {
        events
            .iter()
            .map(|e| format!("{} {}", e.event_type.as_str(), e.code))
            .collect()
    };
    assert_eq!(
        kinds(&container.raw_events),
        ["EQUIPMENT LOAD", "EQUIPMENT LOAD"],
        "both of the sample's loads are the container's"
    );
    let shared = kinds(&snapshot.shipment_events);
    assert_eq!(
        shared.iter().filter(|k| *k == "TRANSPORT ARRI").count(),
        2,
        "both of the sample's arrivals are the shipment's: {shared:?}"
    );
}
