//! What a lookup's events say, gathered event by event: each container's details, events
//! and milestones, and the shipment's own events.

use std::collections::{BTreeMap, HashMap};

use tidemark_domain::{
    CallView, CarrierEvent, ContainerView, EventClassifier as Classifier, Milestone,
    MilestoneEvent, Timestamp,
};

use super::{container, equipment_milestone, raw, transport_milestone};
use crate::dcsa::model::{Call, Event, Kind};

/// A milestone's key: (container index or all, milestone, call or place).
type MilestoneKey = (Option<usize>, Milestone, String);

/// What the events say, gathered event by event.
pub(super) struct Collector<'a> {
    route: &'a [(Call, CallView)],
    pub(super) containers: Vec<ContainerView>,
    /// Each milestone's latest-recorded event.
    found: BTreeMap<MilestoneKey, (Timestamp, MilestoneEvent)>,
    /// Actual loads seen per container (a second load is a transshipment's).
    loads: HashMap<usize, usize>,
    /// (container index or all, the event as reported), in the carrier's order.
    reported: Vec<(Option<usize>, CarrierEvent)>,
}

impl<'a> Collector<'a> {
    pub(super) fn new(route: &'a [(Call, CallView)]) -> Self {
        Self {
            route,
            containers: Vec::new(),
            found: BTreeMap::new(),
            loads: HashMap::new(),
            reported: Vec::new(),
        }
    }

    pub(super) fn add(&mut self, event: &Event) {
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
                let index = container(&mut self.containers, number);
                let view = &mut self.containers[index];
                if view.iso_code.is_none() {
                    view.iso_code.clone_from(iso_code);
                }
                if seal.is_some() {
                    view.seal.clone_from(seal);
                }
                let seen = self.loads.entry(index).or_insert(0);
                let milestone = equipment_milestone(self.route, code, *empty, call.as_ref(), *seen);
                self.reported
                    .push((Some(index), raw::carrier_event(event, milestone)));
                let (Classifier::Actual, Some(milestone)) = (event.classifier, milestone) else {
                    return;
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
                    source_id: Some(event.id.clone()),
                };
                self.found
                    .insert((Some(index), milestone, key), (event.created, record));
            }
            Kind::Transport { arrival, call } => {
                let milestone = transport_milestone(self.route, call, *arrival);
                self.reported
                    .push((None, raw::carrier_event(event, milestone)));
                let (Classifier::Actual, Some(milestone)) = (event.classifier, milestone) else {
                    return;
                };
                let record = MilestoneEvent {
                    milestone,
                    at: event.at,
                    place: call.place.clone(),
                    vessel: call.vessel.clone(),
                    voyage: call.voyage.clone(),
                    source_id: Some(event.id.clone()),
                };
                self.found
                    .insert((None, milestone, call.id.clone()), (event.created, record));
            }
            _ => self.reported.push((None, raw::carrier_event(event, None))),
        }
    }

    /// The containers with their events and milestones, and the shipment's own events.
    pub(super) fn finish(self) -> (Vec<ContainerView>, Vec<CarrierEvent>) {
        let mut containers = self.containers;
        let mut shipment_events = Vec::new();
        for (owner, event) in self.reported {
            match owner {
                Some(index) => containers[index].raw_events.push(event),
                None => shipment_events.push(event),
            }
        }
        for ((owner, _, _), (_, record)) in self.found {
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
        (containers, shipment_events)
    }
}
