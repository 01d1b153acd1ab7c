//! The events a diff records: transport events once per container, event, place and
//! time, and the domain events they announce.

use std::collections::HashSet;

use crate::events::{DomainEvent, EventDetail, EventName, Subject};
use crate::shipment::locode;
use crate::{
    AccountId, ContainerId, Place, Shipment, ShipmentId, Timestamp, Tracked, TransportEvent,
    TransportEventId, TransportEventKind, VesselRef,
};

use super::Context;

pub(super) struct Builder<'a> {
    pub(super) ctx: &'a Context<'a>,
    pub(super) account_id: AccountId,
    pub(super) shipment_id: ShipmentId,
    pub(super) known: HashSet<(ContainerId, TransportEventKind, String, Timestamp)>,
    pub(super) announced: HashSet<(ContainerId, TransportEventKind, String)>,
    pub(super) transport_events: Vec<TransportEvent>,
    pub(super) events: Vec<DomainEvent>,
}

impl<'a> Builder<'a> {
    /// A builder for `shipment`, knowing the transport events `prior` recorded (so none is
    /// recorded or announced twice).
    pub(super) fn over(ctx: &'a Context<'a>, shipment: &Shipment, prior: Option<&Tracked>) -> Self {
        let mut builder = Self {
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
        builder
    }
}

impl Builder<'_> {
    pub(super) fn event(
        &mut self,
        name: EventName,
        subject: Subject,
        detail: EventDetail,
        dedupe_key: String,
    ) {
        self.events.push(DomainEvent::new(
            self.account_id,
            name,
            subject,
            Some(self.shipment_id),
            detail,
            dedupe_key,
            self.ctx.now,
        ));
    }

    /// Records a transport event unless known; announces it when `announce` and its
    /// (container, event, location) was never announced.
    pub(super) fn transport(
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
