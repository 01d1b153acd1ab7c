//! The diff itself: the route, each container and its kept carrier events, compared
//! with what is stored.

use crate::events::{EventDetail, EventName, Subject};
use crate::raw_event::{self, ContainerEvents, Owner};
use crate::terminal::{DataSource, LineEvents, TerminalView};
use crate::{
    CallView, Container, ContainerId, ContainerView, Estimate, Place, RawEvent, Route, Shipment,
    ShipmentId, Snapshot, Timestamp, Tracked, TransportEvent, TransportEventKind, VesselRef,
};

use super::builder::Builder;
use super::details::{changeset, details};
use super::{Context, Delta, SnapshotDiff};

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

/// Applies the carrier's `snapshot` to what is stored (`prior`, `None` on the first
/// success).
#[must_use]
pub fn apply_snapshot(
    prior: Option<&Tracked>,
    snapshot: &Snapshot,
    ctx: &Context<'_>,
) -> SnapshotDiff {
    let now = ctx.now;
    let prior_route = prior.map(|tracked| &tracked.shipment.route);
    let route = route(snapshot, prior_route);
    let mut shipment = prior.map_or_else(
        || new_shipment(snapshot, ctx),
        |tracked| tracked.shipment.clone(),
    );
    let mut builder = Builder::over(ctx, &shipment, prior);
    let pod = snapshot.port_of_discharge();
    let kept: &[RawEvent] = prior.map_or(&[][..], |t| t.raw_events.as_slice());
    let mut containers = Vec::new();
    let mut raw_events = Vec::new();
    for view in &snapshot.containers {
        let stored = prior.and_then(|tracked| {
            tracked
                .containers
                .iter()
                .find(|container| container.number == view.number)
        });
        let (container, changed) =
            container(&mut builder, &shipment, stored, view, pod, prior.is_some());
        containers.extend(changed);
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
            estimates(&mut builder, container.id, snapshot, prior_route);
        }
    }
    let owner = Owner {
        account_id: shipment.account_id,
        shipment_id: shipment.id,
        container_id: None,
    };
    raw_events.extend(keep(owner, kept, &snapshot.shipment_events, now));
    if let Some(prior_route) = prior_route {
        arrival_estimate(&mut builder, shipment.id, &route, prior_route);
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
    let (places, vessels) = named(snapshot, &builder.transport_events, &raw_events);
    SnapshotDiff {
        shipment,
        delta: Delta {
            containers,
            transport_events: builder.transport_events,
            raw_events,
            places,
            vessels,
        },
        events: builder.events,
        changed,
    }
}

/// The shipment a request's first success creates.
fn new_shipment(snapshot: &Snapshot, ctx: &Context<'_>) -> Shipment {
    let request = ctx.request;
    let now = ctx.now;
    Shipment {
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
        pod_predicted_eta_at: None,
        source: ctx.source,
        last_attempted_at: None,
        last_succeeded_at: None,
        last_changed_at: now,
        stopped_at: None,
        stopped_reason: None,
        carrier_push: None,
        created_at: now,
        updated_at: now,
    }
}

/// A container of the snapshot against its stored self: the container as it now stands,
/// and the same when it is new or changed (to be written). A change of its details is
/// `container.updated`; a container added to a known shipment is `container.created`; what
/// the line's release events change in its terminal view records the terminal's events.
fn container(
    builder: &mut Builder<'_>,
    shipment: &Shipment,
    stored: Option<&Container>,
    view: &ContainerView,
    pod: Option<&CallView>,
    known_shipment: bool,
) -> (Container, Option<Container>) {
    let now = builder.ctx.now;
    let details = details(view, pod);
    let before = stored.map_or_else(TerminalView::default, |old| old.terminal.clone());
    let terminal = before.with_line_events(&LineEvents::of_carrier(&view.raw_events));
    // The carrier's status, as the terminal's view shows it (`available`, `not_available`);
    // a box new to Tidemark that nothing is known of at its terminal shows the carrier's.
    let status = if stored.is_none() && terminal == before {
        view.status()
    } else {
        terminal.standing(view.status()).status
    };
    let id = stored.map_or_else(ContainerId::new, |old| old.id);
    let recorded = super::terminal::recorded(&before, &terminal, DataSource::ShippingLine);
    let result = match stored {
        Some(old)
            if old.details == details
                && old.current_status == status
                && old.terminal == terminal =>
        {
            (old.clone(), None)
        }
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
                terminal,
                updated_at: now,
                ..old.clone()
            };
            (container.clone(), Some(container))
        }
        None => {
            let container = Container {
                id,
                account_id: shipment.account_id,
                shipment_id: shipment.id,
                number: view.number.clone(),
                current_status: status,
                ref_numbers: Vec::new(),
                details,
                terminal,
                terminal_checked_at: None,
                terminal_subscribed_until: None,
                created_at: now,
                updated_at: now,
            };
            if known_shipment {
                builder.event(
                    EventName::ContainerCreated,
                    Subject::Container(container.id),
                    EventDetail::default(),
                    format!("{}:container.created", container.id),
                );
            }
            (container.clone(), Some(container))
        }
    };
    for (name, detail) in recorded {
        let key = super::terminal::dedupe_key(id, name, now);
        builder.event(name, Subject::Container(id), detail, key);
    }
    result
}

/// The estimated transport events of a container whose estimate changed since `prior`.
fn estimates(
    builder: &mut Builder<'_>,
    container: ContainerId,
    snapshot: &Snapshot,
    prior: &Route,
) {
    for (estimate, call, at) in snapshot.estimates() {
        let before = match estimate {
            Estimate::VesselDeparted => prior.pol_etd_at,
            Estimate::VesselArrived => prior.pod_eta_at,
        };
        if before != Some(at) {
            builder.transport(
                container,
                TransportEventKind::Estimated(estimate),
                at,
                Some(&call.place),
                call.vessel.as_ref(),
                call.voyage.as_ref(),
            );
        }
    }
}

/// `shipment.estimated.arrival` when the arrival estimate moved and the vessel has not
/// arrived.
fn arrival_estimate(builder: &mut Builder<'_>, shipment: ShipmentId, route: &Route, prior: &Route) {
    let Some(eta) = route.pod_eta_at else {
        return;
    };
    if route.pod_ata_at.is_some() || prior.pod_eta_at == Some(eta) {
        return;
    }
    builder.event(
        EventName::ShipmentEstimatedArrival,
        Subject::Shipment(shipment),
        EventDetail {
            estimated_timestamp: Some(eta),
            location_locode: route.port_of_discharge.as_ref().map(|p| p.locode.clone()),
            ..EventDetail::default()
        },
        format!(
            "{shipment}:shipment.estimated.arrival:{}",
            eta.unix_micros()
        ),
    );
}

/// The ports and vessels the snapshot, its new transport events and its kept carrier
/// events name (the reference data to record).
fn named(
    snapshot: &Snapshot,
    transport_events: &[TransportEvent],
    raw_events: &[ContainerEvents],
) -> (Vec<Place>, Vec<VesselRef>) {
    let mut places: Vec<Place> = Vec::new();
    let mut vessels: Vec<VesselRef> = Vec::new();
    for call in &snapshot.calls {
        push_unique(&mut places, &call.place, |p| &p.locode);
        if let Some(vessel) = &call.vessel {
            push_unique(&mut vessels, vessel, |v| &v.imo);
        }
    }
    let named = transport_events
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
    (places, vessels)
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
