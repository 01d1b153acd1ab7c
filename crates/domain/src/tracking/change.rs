//! One change of a tracking request and everything it carries, as the store commits it in
//! one transaction (the outbox included).

use super::SnapshotDiff;
use crate::raw_event::ContainerEvents;
use crate::webhook::payload::{self, Records, Render};
use crate::{
    Container, DomainEvent, NewJob, Place, Shipment, Timestamp, Tracked, TrackingRequest,
    TransportEvent, VesselRef,
};

/// What an observation changes: the request, the shipment and its containers, new
/// transport events and kept carrier events, domain events (the outbox), the reference data
/// named, and the request's next job.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// The request as the lifecycle left it.
    pub request: TrackingRequest,
    /// The request's `updated_at` as read before deciding: if it changed meanwhile (the
    /// client stopped tracking, say), nothing is written.
    pub request_read_at: Timestamp,
    /// The shipment, created or updated (client-owned fields are never overwritten).
    pub shipment: Option<Shipment>,
    /// Containers created or changed.
    pub containers: Vec<Container>,
    /// New transport events (known ones are skipped).
    pub transport_events: Vec<TransportEvent>,
    /// The kept carrier events of each container whose events changed.
    pub raw_events: Vec<ContainerEvents>,
    /// Domain events (ones with a known dedupe key are skipped).
    pub events: Vec<DomainEvent>,
    /// Ports and places named.
    pub places: Vec<Place>,
    /// Vessels named.
    pub vessels: Vec<VesselRef>,
    /// The next job of the request.
    pub next: Option<NewJob>,
    /// The next check of the request's containers at their terminals.
    pub terminal_check: Option<NewJob>,
}

impl Change {
    /// A change of `request` (as read) into `next`, and nothing else yet.
    #[must_use]
    pub fn to(request: &TrackingRequest, next: TrackingRequest) -> Self {
        Self {
            request: next,
            request_read_at: request.updated_at,
            shipment: None,
            containers: Vec::new(),
            transport_events: Vec::new(),
            raw_events: Vec::new(),
            events: Vec::new(),
            places: Vec::new(),
            vessels: Vec::new(),
            next: None,
            terminal_check: None,
        }
    }

    /// Nothing changes (the job is done all the same).
    pub(super) fn none(request: &TrackingRequest) -> Self {
        Self::to(request, request.clone())
    }

    /// Whether the change writes nothing but the end of a job.
    #[must_use]
    pub fn is_none(&self) -> bool {
        self.request.updated_at == self.request_read_at
            && self.shipment.is_none()
            && self.events.is_empty()
            && self.next.is_none()
            && self.terminal_check.is_none()
    }

    /// Moves a snapshot's diff into the change.
    pub(super) fn take(&mut self, diff: SnapshotDiff) {
        self.request.tracked_object = Some(diff.shipment.id.as_uuid());
        self.shipment = Some(diff.shipment);
        self.containers = diff.containers;
        self.transport_events = diff.transport_events;
        self.raw_events = diff.raw_events;
        self.events.extend(diff.events);
        self.places = diff.places;
        self.vessels = diff.vessels;
    }

    /// Freezes the records each of the change's events concerns, as they stand once the
    /// change applies to `prior`: the notifications send them as they were.
    pub fn freeze(
        &mut self,
        prior: Option<&Tracked>,
        render: &dyn Render,
        customer_name: Option<&str>,
    ) {
        if self.events.is_empty() {
            return;
        }
        let tracked = match &self.shipment {
            Some(shipment) => Some(Tracked::applied(
                prior,
                shipment,
                &self.containers,
                &self.transport_events,
                &self.raw_events,
            )),
            None => prior.cloned(),
        };
        let records = Records {
            request: &self.request,
            tracked: tracked.as_ref(),
            customer_name,
        };
        payload::freeze(render, &mut self.events, &records);
    }
}
