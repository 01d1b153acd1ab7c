//! Values that break their own rules are not stored as truth (issue: DCSA's own messages):
//! an event whose equipment reference fails ISO 6346, whose UN/LOCODE names no country,
//! whose vessel's IMO number fails its check digit, or that has no `eventID` is dropped;
//! an answer with no valid event left is not understood. Events reach the connector from
//! the carrier simulator over HTTP, injected through its admin API.

use std::time::Duration;

use carrier_sim::{ClockMode, SimConfig, Simulator};
use serde_json::{Value, json};
use tidemark_carriers::auth::Auth;
use tidemark_carriers::dcsa::{DcsaConfig, DcsaConnector};
use tidemark_carriers::{CarrierConnector, Lookup, Secret};
use tidemark_domain::{LookupOutcome, RequestType, TemporaryReason};
use time::macros::datetime;

const KEY: &str = "rules-key";
const ADMIN: &str = "rules-admin";

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
    Lookup {
        number: "RULES1".into(),
        kind: RequestType::BookingNumber,
    }
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
