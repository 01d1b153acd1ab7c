//! From checked DCSA events to Tidemark's view of the shipment.
//!
//! - Events are deduplicated by `eventID` (the latest `eventCreatedDateTime` wins), so a
//!   repeated or corrected event never counts twice; an event the carrier withdraws is
//!   simply absent from the next answer, and so from the next snapshot.
//! - The route is the transport calls in `transportCallSequenceNumber` order (or by time).
//!   The first call is the port of loading, the last the port of discharge; calls between
//!   are transshipments.
//! - Only actual (`ACT`) events make milestones; planned and estimated ones set the calls'
//!   estimated times (the latest estimate per call wins; the first one is the original).
//! - A vessel's arrival and departure apply to every container; equipment events to theirs.

use std::collections::{BTreeMap, HashMap};

use tidemark_domain::{
    CallView, ContainerView, LookupOutcome, Milestone, MilestoneEvent, RequestType, Snapshot,
    Timestamp,
};

use super::model::{Call, Classifier, Event, Kind, Mode};
use crate::Lookup;

/// Shipment event codes that mean the booking is off.
const CANCELLED: &[&str] = &["VOID", "CANC", "REJE"];

fn deduplicate(events: Vec<Event>) -> Vec<Event> {
    let mut by_id: HashMap<String, Event> = HashMap::new();
    let mut anonymous = Vec::new();
    for event in events {
        match event.id.clone() {
            Some(id) => {
                let keep = by_id
                    .get(&id)
                    .is_none_or(|existing| existing.created <= event.created);
                if keep {
                    by_id.insert(id, event);
                }
            }
            None => anonymous.push(event),
        }
    }
    let mut events: Vec<Event> = by_id.into_values().chain(anonymous).collect();
    events.sort_by_key(|e| (e.created, e.at));
    events
}

/// The calls of the route, in order, with the times the events give them.
type Calls = BTreeMap<String, (Call, CallView, Option<Timestamp>)>;

/// The call's entry, created on first sight; remembers the earliest time seen for ordering.
fn touch<'a>(
    calls: &'a mut Calls,
    call: &Call,
    at: Timestamp,
) -> &'a mut (Call, CallView, Option<Timestamp>) {
    let entry = calls.entry(call.id.clone()).or_insert_with(|| {
        (
            call.clone(),
            CallView {
                id: call.id.clone(),
                place: call
                    .place
                    .clone()
                    .unwrap_or_else(|| tidemark_domain::Place {
                        locode: String::new(),
                        name: None,
                        facility: None,
                    }),
                vessel: call.vessel.clone(),
                voyage: call.voyage.clone(),
                original_eta: None,
                eta: None,
                ata: None,
                etd: None,
                atd: None,
            },
            None,
        )
    });
    entry.2 = Some(entry.2.map_or(at, |first: Timestamp| first.min(at)));
    entry
}

fn route(events: &[Event]) -> Vec<(Call, CallView)> {
    let mut calls = Calls::new();
    for event in events {
        match &event.kind {
            Kind::Transport { arrival, call } => {
                let (_, view, _) = touch(&mut calls, call, event.at);
                match (event.classifier, arrival) {
                    (Classifier::Actual, true) => view.ata = Some(event.at),
                    (Classifier::Actual, false) => view.atd = Some(event.at),
                    (_, true) => {
                        view.original_eta.get_or_insert(event.at);
                        view.eta = Some(event.at);
                    }
                    (_, false) => view.etd = Some(event.at),
                }
            }
            Kind::Equipment {
                call: Some(call), ..
            } => {
                touch(&mut calls, call, event.at);
            }
            _ => {}
        }
    }
    let mut ordered: Vec<(Call, CallView, Option<Timestamp>)> = calls.into_values().collect();
    ordered.sort_by_key(|(call, _, first)| (call.sequence.unwrap_or(i64::MAX), *first));
    ordered
        .into_iter()
        .map(|(call, view, _)| (call, view))
        .collect()
}

fn same_vessel(a: &Call, b: &Call) -> bool {
    match (&a.vessel, &b.vessel) {
        (Some(a), Some(b)) => a.imo == b.imo,
        _ => true,
    }
}

/// The milestone a vessel's actual arrival or departure is for the cargo, if any.
fn vessel_milestone(route: &[(Call, CallView)], index: usize, arrival: bool) -> Option<Milestone> {
    let call = &route[index].0;
    if call.mode == Mode::Rail {
        return Some(if arrival {
            Milestone::RailArrived
        } else {
            Milestone::RailDeparted
        });
    }
    let last = route.len().saturating_sub(1);
    match (index, arrival) {
        (0, false) => Some(Milestone::VesselDeparted),
        (i, true) if i == last && i > 0 => Some(Milestone::VesselArrived),
        (0, true) => None,
        (i, false) if i == last => None,
        // Between the ends: the arrival of the vessel that brought the box, the departure
        // of the vessel that takes it on.
        (i, true) => same_vessel(call, &route[i - 1].0).then_some(Milestone::TransshipmentArrived),
        (i, false) => {
            same_vessel(call, &route[i + 1].0).then_some(Milestone::TransshipmentDeparted)
        }
    }
}

fn equipment_milestone(
    route: &[(Call, CallView)],
    code: &str,
    empty: bool,
    call: Option<&Call>,
    seen_loads: usize,
) -> Option<Milestone> {
    let index = call.and_then(|c| route.iter().position(|(r, _)| r.id == c.id));
    let rail = call.is_some_and(|c| c.mode == Mode::Rail);
    let last = route.len().saturating_sub(1);
    match (code, empty) {
        ("GTOT", true) => Some(Milestone::EmptyOut),
        ("GTIN", false) => Some(Milestone::FullIn),
        ("GTOT", false) => Some(Milestone::FullOut),
        ("GTIN", true) => Some(Milestone::EmptyIn),
        ("LOAD", false) if rail => Some(Milestone::RailLoaded),
        ("DISC", false) if rail => Some(Milestone::RailUnloaded),
        ("LOAD", false) => Some(match index {
            Some(0) => Milestone::VesselLoaded,
            Some(_) => Milestone::TransshipmentLoaded,
            None if seen_loads == 0 => Milestone::VesselLoaded,
            None => Milestone::TransshipmentLoaded,
        }),
        ("DISC", false) => Some(match index {
            Some(i) if i == last => Milestone::VesselDischarged,
            Some(_) => Milestone::TransshipmentDischarged,
            None => Milestone::VesselDischarged,
        }),
        _ => None,
    }
}

/// The index of container `number`, added when first seen.
fn container(containers: &mut Vec<ContainerView>, number: &str) -> usize {
    if let Some(index) = containers.iter().position(|c| c.number == number) {
        return index;
    }
    containers.push(ContainerView {
        number: number.to_owned(),
        iso_code: None,
        seal: None,
        milestones: Vec::new(),
    });
    containers.len() - 1
}

/// The outcome of one answer of the carrier.
pub(crate) fn outcome(events: Vec<super::model::Event>, lookup: &Lookup) -> LookupOutcome {
    let events = deduplicate(events);
    if events.is_empty() {
        return LookupOutcome::NotFound;
    }
    let cancelled = events.iter().any(|e| {
        matches!(&e.kind, Kind::Shipment { code, document_type, .. }
            if CANCELLED.contains(&code.as_str()) && matches!(document_type.as_str(), "BKG" | "CBR"))
    });
    if cancelled {
        return LookupOutcome::BookingCancelled;
    }
    let manifested = events
        .iter()
        .any(|e| !matches!(e.kind, Kind::Shipment { .. }));
    if !manifested {
        return LookupOutcome::NotYetManifested;
    }
    LookupOutcome::Found(snapshot(&events, lookup))
}

fn snapshot(events: &[Event], lookup: &Lookup) -> Snapshot {
    let route = route(events);
    let mut bill_of_lading = None;
    let mut booking = None;
    for event in events {
        for (kind, value) in &event.documents {
            match kind.as_str() {
                "TRD" => bill_of_lading = bill_of_lading.or_else(|| Some(value.clone())),
                "BKG" => booking = booking.or_else(|| Some(value.clone())),
                _ => {}
            }
        }
        if let Kind::Shipment {
            document_type,
            document_id,
            ..
        } = &event.kind
        {
            match document_type.as_str() {
                "TRD" => bill_of_lading = bill_of_lading.or_else(|| Some(document_id.clone())),
                "BKG" | "CBR" => booking = booking.or_else(|| Some(document_id.clone())),
                _ => {}
            }
        }
    }
    match lookup.kind {
        RequestType::BillOfLading => {
            bill_of_lading = bill_of_lading.or_else(|| Some(lookup.number.clone()))
        }
        RequestType::BookingNumber => booking = booking.or_else(|| Some(lookup.number.clone())),
        RequestType::Container => {}
    }

    // Containers, in order of first appearance, with the queried one always present.
    let mut containers: Vec<ContainerView> = Vec::new();
    if lookup.kind == RequestType::Container {
        container(&mut containers, &lookup.number);
    }
    // (container index or all, milestone, call or place) → the latest-recorded event.
    let mut found: BTreeMap<(Option<usize>, Milestone, String), (Timestamp, MilestoneEvent)> =
        BTreeMap::new();
    let mut loads: HashMap<usize, usize> = HashMap::new();
    for event in events {
        match &event.kind {
            Kind::Equipment {
                code,
                container: Some(number),
                iso_code,
                empty,
                place,
                call,
                seal,
            } => {
                let index = container(&mut containers, number);
                let view = &mut containers[index];
                if view.iso_code.is_none() {
                    view.iso_code.clone_from(iso_code);
                }
                if seal.is_some() {
                    view.seal.clone_from(seal);
                }
                if event.classifier != Classifier::Actual {
                    continue;
                }
                let seen = loads.entry(index).or_insert(0);
                let Some(milestone) =
                    equipment_milestone(&route, code, *empty, call.as_ref(), *seen)
                else {
                    continue;
                };
                if code == "LOAD" {
                    *seen += 1;
                }
                let place = call
                    .as_ref()
                    .and_then(|c| c.place.clone())
                    .or_else(|| place.clone());
                let key = call.as_ref().map_or_else(
                    || place.as_ref().map(|p| p.locode.clone()).unwrap_or_default(),
                    |c| c.id.clone(),
                );
                let record = MilestoneEvent {
                    milestone,
                    at: event.at,
                    place,
                    vessel: call.as_ref().and_then(|c| c.vessel.clone()),
                    voyage: call.as_ref().and_then(|c| c.voyage.clone()),
                    source_id: event.id.clone(),
                };
                found.insert((Some(index), milestone, key), (event.created, record));
            }
            Kind::Transport { arrival, call } if event.classifier == Classifier::Actual => {
                let Some(position) = route.iter().position(|(r, _)| r.id == call.id) else {
                    continue;
                };
                let Some(milestone) = vessel_milestone(&route, position, *arrival) else {
                    continue;
                };
                let record = MilestoneEvent {
                    milestone,
                    at: event.at,
                    place: call.place.clone(),
                    vessel: call.vessel.clone(),
                    voyage: call.voyage.clone(),
                    source_id: event.id.clone(),
                };
                found.insert((None, milestone, call.id.clone()), (event.created, record));
            }
            _ => {}
        }
    }
    for ((owner, _, _), (_, record)) in found {
        match owner {
            Some(index) => containers[index].milestones.push(record),
            None => {
                for view in &mut containers {
                    view.milestones.push(record.clone());
                }
            }
        }
    }
    for view in &mut containers {
        view.milestones.sort_by_key(|m| (m.at, m.milestone));
    }
    Snapshot {
        bill_of_lading,
        booking,
        calls: route.into_iter().map(|(_, view)| view).collect(),
        containers,
    }
}

#[cfg(test)]
mod tests {
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
        outcome(
            checked,
            &Lookup {
                number: "BL1".into(),
                kind: RequestType::BillOfLading,
            },
        )
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
        let pol = call("C1", 1, "CNSHA", "9000001", "VESSEL");
        let hub_in = call("C2", 2, "SGSIN", "9000001", "VESSEL");
        let hub_out = call("C3", 3, "SGSIN", "9000002", "VESSEL");
        let pod = call("C4", 4, "NLRTM", "9000002", "VESSEL");
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
        let pol = call("C1", 1, "CNSHA", "9000001", "VESSEL");
        let pod = call("C2", 2, "USLAX", "9000001", "VESSEL");
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
        let rail = call("R1", 3, "USCHI", "0000000", "RAIL");
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
                serde_json::from_value(event("x", "01", "01", "ACT", broken.clone()))
                    .expect("parses");
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
}
