//! Mapping tests: DCSA event sequences and the milestones they make.

use serde_json::{Value, json};
use tidemark_domain::{LookupOutcome, Milestone, RequestType, Snapshot};

use super::outcome;
use crate::Lookup;
use crate::dcsa::model::RawEvent;

fn call(id: &str, sequence: i64, locode: &str, imo: &str, mode: &str) -> Value {
    json!({"transportCallID": id, "transportCallSequenceNumber": sequence, "UNLocationCode": locode,
           "modeOfTransport": mode, "vessel": {"vesselIMONumber": imo}})
}

fn event(id: &str, created: &str, at: &str, classifier: &str, body: Value) -> Value {
    let mut event = body;
    event["eventID"] = json!(id);
    event["eventCreatedDateTime"] = json!(format!("2026-06-{created}T00:00:00Z"));
    event["eventDateTime"] = json!(format!("2026-06-{at}T00:00:00Z"));
    event["eventClassifierCode"] = json!(classifier);
    event
}

fn transport(code: &str, call: Value) -> Value {
    json!({"eventType": "TRANSPORT", "transportEventTypeCode": code, "transportCall": call})
}

fn equipment(code: &str, empty: bool, container: &str, call: Option<Value>) -> Value {
    let mut body = json!({"eventType": "EQUIPMENT", "equipmentEventTypeCode": code,
        "equipmentReference": container, "emptyIndicatorCode": if empty { "EMPTY" } else { "LADEN" }});
    if let Some(call) = call {
        body["transportCall"] = call;
    }
    body
}

fn run(events: &[Value]) -> LookupOutcome {
    let checked = events
        .iter()
        .map(|e| {
            serde_json::from_value::<RawEvent>(e.clone())
                .expect("parses")
                .check()
                .expect("valid")
        })
        .collect();
    outcome(checked, &Lookup::new("BL1", RequestType::BillOfLading))
}

fn snapshot(events: &[Value]) -> Snapshot {
    match run(events) {
        LookupOutcome::Found(snapshot) => snapshot,
        other => panic!("{other:?}"),
    }
}

fn names(snapshot: &Snapshot) -> Vec<Milestone> {
    snapshot.containers[0]
        .milestones
        .iter()
        .map(|m| m.milestone)
        .collect()
}

#[test]
fn a_transshipment_route_names_each_leg() {
    let pol = call("C1", 1, "CNSHA", "9000003", "VESSEL");
    let hub_in = call("C2", 2, "SGSIN", "9000003", "VESSEL");
    let hub_out = call("C3", 3, "SGSIN", "9100009", "VESSEL");
    let pod = call("C4", 4, "NLRTM", "9100009", "VESSEL");
    let box_ = "MSKU1234565";
    let events = [
        event(
            "e1",
            "01",
            "01",
            "ACT",
            equipment("LOAD", false, box_, Some(pol.clone())),
        ),
        event("e2", "02", "02", "ACT", transport("DEPA", pol.clone())),
        event("e3", "03", "03", "ACT", transport("ARRI", hub_in.clone())),
        event(
            "e4",
            "04",
            "04",
            "ACT",
            equipment("DISC", false, box_, Some(hub_in.clone())),
        ),
        event("e5", "05", "05", "ACT", transport("DEPA", hub_in.clone())),
        event("e6", "05", "05", "ACT", transport("ARRI", hub_out.clone())),
        event(
            "e7",
            "06",
            "06",
            "ACT",
            equipment("LOAD", false, box_, Some(hub_out.clone())),
        ),
        event("e8", "07", "07", "ACT", transport("DEPA", hub_out)),
        event("e9", "08", "09", "ACT", transport("ARRI", pod.clone())),
        event(
            "e10",
            "09",
            "10",
            "ACT",
            equipment("DISC", false, box_, Some(pod.clone())),
        ),
        event("e11", "10", "11", "ACT", transport("DEPA", pod)),
    ];
    assert_eq!(
        names(&snapshot(&events)),
        [
            Milestone::VesselLoaded,
            Milestone::VesselDeparted,
            Milestone::TransshipmentArrived,
            Milestone::TransshipmentDischarged,
            Milestone::TransshipmentLoaded,
            Milestone::TransshipmentDeparted,
            Milestone::VesselArrived,
            Milestone::VesselDischarged,
        ]
    );
}

#[test]
fn repeated_and_corrected_events_count_once_with_the_latest_values() {
    let pol = call("C1", 1, "CNSHA", "9000003", "VESSEL");
    let pod = call("C2", 2, "USLAX", "9000003", "VESSEL");
    let load = event(
        "e1",
        "01",
        "01",
        "ACT",
        equipment("LOAD", false, "MSKU1234565", Some(pol.clone())),
    );
    let events = [
        load.clone(),
        load,
        // The departure, then the same event corrected (same id, created later).
        event("e2", "02", "02", "ACT", transport("DEPA", pol.clone())),
        event("e2", "03", "03", "ACT", transport("DEPA", pol.clone())),
        // The same milestone re-sent under a new id: the later record wins.
        event("e3", "04", "02", "ACT", transport("DEPA", pol)),
        event("e4", "05", "20", "PLN", transport("ARRI", pod.clone())),
        event("e5", "06", "22", "EST", transport("ARRI", pod.clone())),
        event("e6", "07", "21", "EST", transport("ARRI", pod)),
    ];
    let snapshot = snapshot(&events);
    assert_eq!(
        names(&snapshot),
        [Milestone::VesselLoaded, Milestone::VesselDeparted]
    );
    let departed = &snapshot.containers[0].milestones[1];
    assert_eq!(departed.at.to_string(), "2026-06-02T00:00:00Z");
    let pod = snapshot.port_of_discharge().expect("POD");
    assert_eq!(
        pod.original_eta.map(|t| t.to_string()).as_deref(),
        Some("2026-06-20T00:00:00Z")
    );
    assert_eq!(
        pod.eta.map(|t| t.to_string()).as_deref(),
        Some("2026-06-21T00:00:00Z")
    );
    assert_eq!(pod.ata, None);
}

#[test]
fn rail_legs_and_loads_without_a_call_are_named() {
    let rail = call("R1", 3, "USCHI", "9321483", "RAIL");
    let events = [
        event(
            "e1",
            "01",
            "01",
            "ACT",
            equipment("GTOT", true, "MSKU1234565", None),
        ),
        event(
            "e2",
            "02",
            "02",
            "ACT",
            equipment("GTIN", false, "MSKU1234565", None),
        ),
        event(
            "e3",
            "03",
            "03",
            "ACT",
            equipment("LOAD", false, "MSKU1234565", None),
        ),
        event(
            "e4",
            "04",
            "04",
            "ACT",
            equipment("LOAD", false, "MSKU1234565", None),
        ),
        event(
            "e5",
            "05",
            "05",
            "ACT",
            equipment("LOAD", false, "MSKU1234565", Some(rail.clone())),
        ),
        event("e6", "06", "06", "ACT", transport("DEPA", rail.clone())),
        event("e7", "07", "07", "ACT", transport("ARRI", rail.clone())),
        event(
            "e8",
            "08",
            "08",
            "ACT",
            equipment("DISC", false, "MSKU1234565", Some(rail)),
        ),
        event(
            "e9",
            "09",
            "09",
            "ACT",
            equipment("GTIN", true, "MSKU1234565", None),
        ),
    ];
    assert_eq!(
        names(&snapshot(&events)),
        [
            Milestone::EmptyOut,
            Milestone::FullIn,
            Milestone::VesselLoaded,
            Milestone::TransshipmentLoaded,
            Milestone::RailLoaded,
            Milestone::RailDeparted,
            Milestone::RailArrived,
            Milestone::RailUnloaded,
            Milestone::EmptyIn,
        ]
    );
}

#[test]
fn shipment_events_alone_mean_booked_or_cancelled() {
    let booked = |code: &str, id: &str| {
        event(
            id,
            "01",
            "01",
            "ACT",
            json!({"eventType": "SHIPMENT", "shipmentEventTypeCode": code,
            "documentTypeCode": "BKG", "documentID": "BK1"}),
        )
    };
    assert_eq!(
        run(&[booked("RECE", "s1")]),
        LookupOutcome::NotYetManifested
    );
    assert_eq!(
        run(&[booked("RECE", "s1"), booked("VOID", "s2")]),
        LookupOutcome::BookingCancelled
    );
    assert_eq!(run(&[]), LookupOutcome::NotFound);
}

#[test]
fn events_missing_what_the_standard_requires_are_refused() {
    for broken in [
        json!({"eventType": "TRANSPORT", "transportEventTypeCode": "ARRI"}),
        json!({"eventType": "EQUIPMENT", "equipmentEventTypeCode": "LOAD"}),
        json!({"eventType": "PARCEL"}),
        json!({"eventType": "TRANSPORT", "transportEventTypeCode": "LAND",
               "transportCall": call("C1", 1, "X", "1", "VESSEL")}),
    ] {
        let raw: RawEvent =
            serde_json::from_value(event("x", "01", "01", "ACT", broken.clone())).expect("parses");
        assert!(raw.check().is_err(), "{broken}");
    }
    let raw: RawEvent =
        serde_json::from_value(json!({"eventType": "SHIPMENT", "eventClassifierCode": "ACT"}))
            .expect("parses");
    assert!(
        raw.check()
            .is_err_and(|e| e.contains("eventCreatedDateTime"))
    );
}
