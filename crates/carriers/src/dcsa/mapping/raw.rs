//! A checked event as the carrier reported it, for the container's kept events.

use tidemark_domain::{CarrierEvent, CarrierEventType, Milestone};

use crate::dcsa::model::{Event, Kind};

/// `event` as reported, with the milestone it is (or would be once actual).
pub(super) fn carrier_event(event: &Event, milestone: Option<Milestone>) -> CarrierEvent {
    let (event_type, code, call, place, empty) = match &event.kind {
        Kind::Shipment { code, .. } => (CarrierEventType::Shipment, code.clone(), None, None, None),
        Kind::Transport { arrival, call } => (
            CarrierEventType::Transport,
            if *arrival { "ARRI" } else { "DEPA" }.to_owned(),
            Some(call),
            call.place.clone(),
            None,
        ),
        Kind::Equipment {
            code,
            empty,
            place,
            call,
            ..
        } => (
            CarrierEventType::Equipment,
            code.clone(),
            call.as_ref(),
            place
                .clone()
                .or_else(|| call.as_ref().and_then(|c| c.place.clone())),
            Some(*empty),
        ),
    };
    CarrierEvent {
        source_id: event.id.clone(),
        event_type,
        code,
        classifier: event.classifier,
        at: event.at,
        reported_at: event.created,
        place,
        vessel: call.and_then(|c| c.vessel.clone()),
        voyage: call.and_then(|c| c.voyage.clone()),
        call_id: call.map(|c| c.id.clone()),
        empty,
        milestone,
    }
}
