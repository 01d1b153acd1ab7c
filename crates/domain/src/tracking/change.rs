//! One change of a tracking request and everything it carries, as the store commits it in
//! one transaction (the outbox included).

use super::SnapshotDiff;
use crate::raw_event::ContainerEvents;
use crate::webhook::payload::{self, Records, Render};
use crate::{
    Container, DomainEvent, NewJob, Place, Shipment, Timestamp, Tracked, TrackingRequest,
    TransportEvent, VesselRef,
};

/// The records of a shipment a change writes, and the reference data they name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Delta {
    /// Containers created or changed.
    pub containers: Vec<Container>,
    /// New transport events (known ones are skipped).
    pub transport_events: Vec<TransportEvent>,
    /// The kept carrier events of each container whose events changed, each container's
    /// whole list.
    pub raw_events: Vec<ContainerEvents>,
    /// Ports and places named.
    pub places: Vec<Place>,
    /// Vessels named.
    pub vessels: Vec<VesselRef>,
}

impl Delta {
    /// `prior` with `shipment` as it now stands and these records applied.
    #[must_use]
    pub fn onto(&self, prior: Option<&Tracked>, shipment: &Shipment) -> Tracked {
        Tracked::applied(
            prior,
            shipment,
            &self.containers,
            &self.transport_events,
            &self.raw_events,
        )
    }
}

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
    /// The shipment's records that change, and the reference data they name.
    pub delta: Delta,
    /// Domain events (ones with a known dedupe key are skipped).
    pub events: Vec<DomainEvent>,
    /// The next job of the request.
    pub next: Option<NewJob>,
    /// The next check of the request's containers at their terminals.
    pub terminal_check: Option<NewJob>,
    /// The next estimate of the shipment's arrival from its vessel's positions.
    pub prediction: Option<NewJob>,
    /// Custom field values staged at creation, set on the records first found now (a value
    /// a record has of the field already stays).
    pub custom_fields: Vec<crate::custom_field::CustomField>,
}

impl Change {
    /// A change of `request` (as read) into `next`, and nothing else yet.
    #[must_use]
    pub fn to(request: &TrackingRequest, next: TrackingRequest) -> Self {
        Self {
            request: next,
            request_read_at: request.updated_at,
            shipment: None,
            delta: Delta::default(),
            events: Vec::new(),
            next: None,
            terminal_check: None,
            prediction: None,
            custom_fields: Vec::new(),
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
            && self.prediction.is_none()
    }

    /// Moves a snapshot's diff into the change.
    pub(super) fn take(&mut self, diff: SnapshotDiff) {
        self.request.tracked_object = Some(diff.shipment.id.as_uuid());
        self.shipment = Some(diff.shipment);
        self.delta = diff.delta;
        self.events.extend(diff.events);
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
            Some(shipment) => Some(self.delta.onto(prior, shipment)),
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
