//! Snapshot diffing: what a carrier's new answer changes in a tracked shipment, and the
//! domain events that change causes. Pure: the tracker loads the stored state, calls
//! [`apply_snapshot`], and commits the result in one transaction.
//!
//! Rules:
//! - a transport event is recorded once per (container, event, location, time);
//! - a `container.transport.<milestone>` event fires once per container, milestone and
//!   location, including for milestones already past when tracking starts;
//! - estimate events fire when an estimate of a known shipment changes, never for the
//!   first answer;
//! - `container.created` fires for containers added after the shipment was found (the
//!   first answer's containers come with `tracking_request.succeeded`);
//! - `container.updated` fires when the seal, the equipment or the terminal of discharge
//!   changes, with a changeset.

use std::collections::{BTreeMap, HashSet};

use crate::events::{DomainEvent, EventDetail, EventName, Subject};
use crate::lifecycle::Policy;
use crate::raw_event::{self, ContainerEvents, Owner};
use crate::shipment::locode;
use crate::{
    AccountId, CallView, Container, ContainerDetails, ContainerId, ContainerStatus, ContainerView,
    DomainEventId, Estimate, Milestone, Place, RawEvent, Route, Scac, Shipment, ShipmentId,
    Snapshot, StopReason, Timestamp, Tracked, TrackingRequest, TrackingSource, TransportEvent,
    TransportEventId, TransportEventKind, VesselRef,
};

/// Who is tracking, and when.
#[derive(Debug, Clone, Copy)]
pub struct Context<'a> {
    /// The tracking request.
    pub request: &'a TrackingRequest,
    /// Its carrier.
    pub scac: Scac,
    /// Where the data came from.
    pub source: TrackingSource,
    /// Now.
    pub now: Timestamp,
}

/// What a snapshot changes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Changes {
    /// The shipment as it now stands.
    pub shipment: Shipment,
    /// Containers created or changed.
    pub containers: Vec<Container>,
    /// Transport events not recorded before.
    pub transport_events: Vec<TransportEvent>,
    /// The carrier events of each container whose kept events changed (new events, later
    /// versions), each container's whole list.
    pub raw_events: Vec<ContainerEvents>,
    /// Domain events to record.
    pub events: Vec<DomainEvent>,
    /// Ports and places the snapshot names (reference data).
    pub places: Vec<Place>,
    /// Vessels the snapshot names (reference data).
    pub vessels: Vec<VesselRef>,
    /// Whether anything of the carrier's data changed.
    pub changed: bool,
}

impl Changes {
    /// The state after the changes: `prior` with them applied.
    #[must_use]
    pub fn tracked(&self, prior: Option<&Tracked>) -> Tracked {
        Tracked::applied(
            prior,
            &self.shipment,
            &self.containers,
            &self.transport_events,
            &self.raw_events,
        )
    }
}

fn route(snapshot: &Snapshot, prior: Option<&Route>) -> Route {
    let pol = snapshot.port_of_loading();
    let pod = snapshot.port_of_discharge();
    let pol_etd_at = pol.and_then(|call| call.etd);
    let pod_eta_at = pod.and_then(|call| call.eta);
    Route {
        port_of_lading: pol.map(|call| call.place.clone()),
        port_of_discharge: pod.map(|call| call.place.clone()),
        destination: pod.map(|call| call.place.clone()),
        pod_vessel: pod.and_then(|call| call.vessel.clone()),
        pod_voyage_number: pod.and_then(|call| call.voyage.clone()),
        pol_etd_at,
        pol_atd_at: pol.and_then(|call| call.atd),
        pol_original_etd_at: prior
            .and_then(|route| route.pol_original_etd_at)
            .or(pol_etd_at),
        pod_eta_at,
        pod_ata_at: pod.and_then(|call| call.ata),
        pod_original_eta_at: prior
            .and_then(|route| route.pod_original_eta_at)
            .or_else(|| pod.and_then(|call| call.original_eta))
            .or(pod_eta_at),
    }
}

fn details(view: &ContainerView, pod: Option<&CallView>) -> ContainerDetails {
    let last = |milestone: Milestone| {
        view.milestones
            .iter()
            .filter(|event| event.milestone == milestone)
            .map(|event| event.at)
            .max()
    };
    ContainerDetails {
        seal_number: view.seal.clone(),
        iso_code: view.iso_code.clone(),
        pod_terminal: pod.and_then(|call| call.place.facility.clone()),
        empty_out_at: last(Milestone::EmptyOut),
        pol_full_in_at: last(Milestone::FullIn),
        pol_vessel_loaded_at: last(Milestone::VesselLoaded),
        pol_vessel_departed_at: last(Milestone::VesselDeparted),
        pod_arrived_at: last(Milestone::VesselArrived),
        pod_discharged_at: last(Milestone::VesselDischarged),
        pod_full_out_at: last(Milestone::FullOut),
        empty_terminated_at: last(Milestone::EmptyIn),
    }
}

/// `container.updated`'s changeset: field → `[old, new]`, for the fields that changed.
fn changeset(
    old: &ContainerDetails,
    new: &ContainerDetails,
) -> BTreeMap<String, [Option<String>; 2]> {
    let mut changes = BTreeMap::new();
    for (field, before, after) in [
        ("seal_number", &old.seal_number, &new.seal_number),
        ("iso_code", &old.iso_code, &new.iso_code),
        ("pod_terminal", &old.pod_terminal, &new.pod_terminal),
    ] {
        if before != after {
            changes.insert(field.to_owned(), [before.clone(), after.clone()]);
        }
    }
    changes
}

struct Builder<'a> {
    ctx: &'a Context<'a>,
    account_id: AccountId,
    shipment_id: ShipmentId,
    known: HashSet<(ContainerId, TransportEventKind, String, Timestamp)>,
    announced: HashSet<(ContainerId, TransportEventKind, String)>,
    transport_events: Vec<TransportEvent>,
    events: Vec<DomainEvent>,
}

impl Builder<'_> {
    fn event(
        &mut self,
        name: EventName,
        subject: Subject,
        detail: EventDetail,
        dedupe_key: String,
    ) {
        self.events.push(DomainEvent {
            id: DomainEventId::new(),
            account_id: self.account_id,
            name,
            subject,
            shipment_id: Some(self.shipment_id),
            detail,
            dedupe_key,
            included: Vec::new(),
            created_at: self.ctx.now,
        });
    }

    /// Records a transport event unless known; announces it when `announce` and its
    /// (container, event, location) was never announced.
    fn transport(
        &mut self,
        container: ContainerId,
        kind: TransportEventKind,
        at: Timestamp,
        place: Option<&Place>,
        vessel: Option<&VesselRef>,
        voyage: Option<&String>,
    ) {
        let location = locode(place).to_owned();
        if !self.known.insert((container, kind, location.clone(), at)) {
            return;
        }
        let event = TransportEvent {
            id: TransportEventId::new(),
            account_id: self.account_id,
            shipment_id: self.shipment_id,
            container_id: container,
            kind,
            timestamp: at,
            location: place.cloned(),
            vessel: vessel.cloned(),
            voyage_number: voyage.cloned(),
            created_at: self.ctx.now,
        };
        let subject = Subject::TransportEvent(event.id);
        let key = match kind {
            // A milestone once per container and location, whatever later corrections
            // say about its time.
            TransportEventKind::Actual(_) => {
                if !self.announced.insert((container, kind, location.clone())) {
                    self.transport_events.push(event);
                    return;
                }
                format!("{container}:{kind}:{location}")
            }
            TransportEventKind::Estimated(_) => {
                format!("{container}:{kind}:{}", at.unix_micros())
            }
        };
        self.transport_events.push(event);
        self.event(
            EventName::Transport(kind),
            subject,
            EventDetail::default(),
            key,
        );
    }
}

/// Applies the carrier's `snapshot` to what is stored (`prior`, `None` on the first
/// success).
#[must_use]
pub fn apply_snapshot(prior: Option<&Tracked>, snapshot: &Snapshot, ctx: &Context<'_>) -> Changes {
    let request = ctx.request;
    let now = ctx.now;
    let prior_route = prior.map(|tracked| &tracked.shipment.route);
    let route = route(snapshot, prior_route);
    let mut shipment = prior.map_or_else(
        || Shipment {
            id: ShipmentId::new(),
            account_id: request.account_id,
            tracking_request_id: request.id,
            bill_of_lading_number: match request.request_type {
                crate::RequestType::Container => snapshot
                    .bill_of_lading
                    .clone()
                    .unwrap_or_else(|| request.request_number.normalized().to_owned()),
                _ => request.request_number.as_str().to_owned(),
            },
            normalized_number: request.request_number.normalized().to_owned(),
            scac: ctx.scac,
            ref_numbers: request.ref_numbers.clone(),
            tags: request.shipment_tags.clone(),
            route: Route::default(),
            source: ctx.source,
            last_attempted_at: None,
            last_succeeded_at: None,
            last_changed_at: now,
            stopped_at: None,
            stopped_reason: None,
            created_at: now,
            updated_at: now,
        },
        |tracked| tracked.shipment.clone(),
    );
    let mut builder = Builder {
        ctx,
        account_id: shipment.account_id,
        shipment_id: shipment.id,
        known: HashSet::new(),
        announced: HashSet::new(),
        transport_events: Vec::new(),
        events: Vec::new(),
    };
    for event in prior
        .map(|tracked| tracked.events.as_slice())
        .unwrap_or_default()
    {
        let location = locode(event.location.as_ref()).to_owned();
        builder.known.insert((
            event.container_id,
            event.kind,
            location.clone(),
            event.timestamp,
        ));
        builder
            .announced
            .insert((event.container_id, event.kind, location));
    }

    let pod = snapshot.port_of_discharge();
    let mut containers = Vec::new();
    let kept: &[RawEvent] = prior.map_or(&[][..], |t| t.raw_events.as_slice());
    let mut raw_events = Vec::new();
    for view in &snapshot.containers {
        let stored = prior.and_then(|tracked| {
            tracked
                .containers
                .iter()
                .find(|container| container.number == view.number)
        });
        let details = details(view, pod);
        let status = view.status();
        let container = match stored {
            Some(old) if old.details == details && old.current_status == status => old.clone(),
            Some(old) => {
                let changes = changeset(&old.details, &details);
                if !changes.is_empty() {
                    builder.event(
                        EventName::ContainerUpdated,
                        Subject::Container(old.id),
                        EventDetail {
                            changeset: changes,
                            ..EventDetail::default()
                        },
                        format!("{}:container.updated:{}", old.id, now.unix_micros()),
                    );
                }
                let container = Container {
                    current_status: status,
                    details,
                    updated_at: now,
                    ..old.clone()
                };
                containers.push(container.clone());
                container
            }
            None => {
                let container = Container {
                    id: ContainerId::new(),
                    account_id: shipment.account_id,
                    shipment_id: shipment.id,
                    number: view.number.clone(),
                    current_status: status,
                    ref_numbers: Vec::new(),
                    details,
                    created_at: now,
                    updated_at: now,
                };
                if prior.is_some() {
                    builder.event(
                        EventName::ContainerCreated,
                        Subject::Container(container.id),
                        EventDetail::default(),
                        format!("{}:container.created", container.id),
                    );
                }
                containers.push(container.clone());
                container
            }
        };
        let owner = Owner {
            account_id: shipment.account_id,
            shipment_id: shipment.id,
            container_id: Some(container.id),
        };
        raw_events.extend(keep(owner, kept, &view.raw_events, now));
        for milestone in &view.milestones {
            builder.transport(
                container.id,
                TransportEventKind::Actual(milestone.milestone),
                milestone.at,
                milestone.place.as_ref(),
                milestone.vessel.as_ref(),
                milestone.voyage.as_ref(),
            );
        }
        if let Some(prior_route) = prior_route {
            for (estimate, call, at) in snapshot.estimates() {
                let before = match estimate {
                    Estimate::VesselDeparted => prior_route.pol_etd_at,
                    Estimate::VesselArrived => prior_route.pod_eta_at,
                };
                if before != Some(at) {
                    builder.transport(
                        container.id,
                        TransportEventKind::Estimated(estimate),
                        at,
                        Some(&call.place),
                        call.vessel.as_ref(),
                        call.voyage.as_ref(),
                    );
                }
            }
        }
    }
    let owner = Owner {
        account_id: shipment.account_id,
        shipment_id: shipment.id,
        container_id: None,
    };
    raw_events.extend(keep(owner, kept, &snapshot.shipment_events, now));
    if let (Some(prior_route), Some(eta)) = (prior_route, route.pod_eta_at)
        && route.pod_ata_at.is_none()
        && prior_route.pod_eta_at != Some(eta)
    {
        builder.event(
            EventName::ShipmentEstimatedArrival,
            Subject::Shipment(shipment.id),
            EventDetail {
                estimated_timestamp: Some(eta),
                location_locode: route.port_of_discharge.as_ref().map(|p| p.locode.clone()),
                ..EventDetail::default()
            },
            format!(
                "{}:shipment.estimated.arrival:{}",
                shipment.id,
                eta.unix_micros()
            ),
        );
    }

    let changed = prior_route != Some(&route)
        || !containers.is_empty()
        || !builder.transport_events.is_empty();
    shipment.route = route;
    shipment.last_attempted_at = Some(now);
    shipment.last_succeeded_at = Some(now);
    if changed {
        shipment.last_changed_at = now;
        shipment.updated_at = now;
    }
    let mut places: Vec<Place> = Vec::new();
    let mut vessels: Vec<VesselRef> = Vec::new();
    for call in &snapshot.calls {
        push_unique(&mut places, &call.place, |p| &p.locode);
        if let Some(vessel) = &call.vessel {
            push_unique(&mut vessels, vessel, |v| &v.imo);
        }
    }
    let named = builder
        .transport_events
        .iter()
        .map(|e| (e.location.as_ref(), e.vessel.as_ref()))
        .chain(
            raw_events
                .iter()
                .flat_map(|changed| &changed.events)
                .map(|r| (r.event.place.as_ref(), r.event.vessel.as_ref())),
        );
    for (place, vessel) in named {
        if let Some(place) = place {
            push_unique(&mut places, place, |p| &p.locode);
        }
        if let Some(vessel) = vessel {
            push_unique(&mut vessels, vessel, |v| &v.imo);
        }
    }
    Changes {
        shipment,
        containers,
        transport_events: builder.transport_events,
        raw_events,
        events: builder.events,
        places,
        vessels,
        changed,
    }
}

/// `owner`'s changed kept events, if the `reported` ones change them.
fn keep(
    owner: Owner,
    kept: &[RawEvent],
    reported: &[crate::CarrierEvent],
    now: Timestamp,
) -> Option<ContainerEvents> {
    let mine: Vec<RawEvent> = kept
        .iter()
        .filter(|record| record.container_id == owner.container_id)
        .cloned()
        .collect();
    raw_event::merge(owner, &mine, reported, now)
}

fn push_unique<T: Clone>(list: &mut Vec<T>, item: &T, key: impl Fn(&T) -> &String) {
    if !list.iter().any(|known| key(known) == key(item)) {
        list.push(item.clone());
    }
}

/// Whether tracking should stop by itself, and why: every container returned empty, long
/// past arrival, or long without news from the carrier.
#[must_use]
pub fn auto_stop(tracked: &Tracked, now: Timestamp, policy: &Policy) -> Option<StopReason> {
    let containers = &tracked.containers;
    if !containers.is_empty()
        && containers
            .iter()
            .all(|c| c.current_status == ContainerStatus::EmptyReturned)
    {
        return Some(StopReason::AllContainersTerminated);
    }
    if let Some(arrived) = tracked.shipment.route.pod_ata_at
        && now >= (arrived + policy.stop_after_arrival)
    {
        return Some(StopReason::PastArrivalWindow);
    }
    if now >= tracked.shipment.last_changed_at + policy.stop_without_updates {
        return Some(StopReason::NoUpdatesAtLine);
    }
    None
}

/// When to refresh next: often near arrival and while containers wait at the terminal,
/// rarely at sea, in between otherwise.
#[must_use]
pub fn next_refresh(tracked: &Tracked, now: Timestamp, policy: &Policy) -> Timestamp {
    let statuses: Vec<ContainerStatus> = tracked
        .containers
        .iter()
        .map(|c| c.current_status)
        .collect();
    let at_terminal = statuses.contains(&ContainerStatus::Grounded);
    let route = &tracked.shipment.route;
    let arriving = route.pod_ata_at.is_none()
        && route
            .pod_eta_at
            .is_some_and(|eta| eta <= (now + policy.near_window));
    let at_sea = statuses.contains(&ContainerStatus::OnShip);
    let wait = if at_terminal || arriving {
        policy.refresh_near
    } else if at_sea {
        policy.refresh_at_sea
    } else {
        policy.refresh
    };
    now + wait
}

#[cfg(test)]
mod tests;
