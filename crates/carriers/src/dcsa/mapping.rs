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
//! - A call by barge is a feeder's: its arrival, departure, loads and discharges are
//!   `feeder_*` milestones, and it is not on the ocean route (the port of loading is where
//!   the ocean vessel loads).

use std::collections::{BTreeMap, HashMap};

use tidemark_domain::{
    CallView, ContainerView, EventClassifier as Classifier, LookupOutcome, Milestone, RequestType,
    Snapshot, Timestamp,
};

use super::model::{Call, Event, Kind, Mode};
use crate::Lookup;

/// Shipment event codes that mean the booking is off.
const CANCELLED: &[&str] = &["VOID", "CANC", "REJE"];

fn deduplicate(events: Vec<Event>) -> Vec<Event> {
    let mut by_id: HashMap<String, Event> = HashMap::new();
    for event in events {
        let keep = by_id
            .get(&event.id)
            .is_none_or(|existing| existing.created <= event.created);
        if keep {
            by_id.insert(event.id.clone(), event);
        }
    }
    let mut events: Vec<Event> = by_id.into_values().collect();
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
            Kind::Transport { call, .. }
            | Kind::Equipment {
                call: Some(call), ..
            } if call.mode == Mode::Barge => {}
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

/// The milestone an actual arrival or departure at `call` is for the cargo, if any.
fn transport_milestone(
    route: &[(Call, CallView)],
    call: &Call,
    arrival: bool,
) -> Option<Milestone> {
    if call.mode == Mode::Barge {
        return Some(if arrival {
            Milestone::FeederArrived
        } else {
            Milestone::FeederDeparted
        });
    }
    let index = route.iter().position(|(r, _)| r.id == call.id)?;
    vessel_milestone(route, index, arrival)
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
    let barge = call.is_some_and(|c| c.mode == Mode::Barge);
    let last = route.len().saturating_sub(1);
    match (code, empty) {
        ("LOAD", false) if barge => Some(Milestone::FeederLoaded),
        ("DISC", false) if barge => Some(Milestone::FeederDischarged),
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
        raw_events: Vec::new(),
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
    let (bill_of_lading, booking) = documents(events, lookup);
    let mut collector = collect::Collector::new(&route);
    // Containers in order of first appearance, with the queried one always present.
    if lookup.kind == RequestType::Container {
        container(&mut collector.containers, &lookup.number);
    }
    for event in events {
        collector.add(event);
    }
    let (containers, shipment_events) = collector.finish();
    Snapshot {
        bill_of_lading,
        booking,
        calls: route.into_iter().map(|(_, view)| view).collect(),
        containers,
        shipment_events,
    }
}

/// The bill of lading and booking the events name (the first of each), else the number
/// looked up when it is one.
fn documents(events: &[Event], lookup: &Lookup) -> (Option<String>, Option<String>) {
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
            bill_of_lading = bill_of_lading.or_else(|| Some(lookup.number.clone()));
        }
        RequestType::BookingNumber => booking = booking.or_else(|| Some(lookup.number.clone())),
        RequestType::Container => {}
    }
    (bill_of_lading, booking)
}

mod collect;
mod raw;
#[cfg(test)]
mod tests;
