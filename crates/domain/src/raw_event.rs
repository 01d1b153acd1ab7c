//! What a carrier said, kept as it said it: every valid event of every answer, per
//! container, whether or not it makes a milestone (a vessel's arrival at the port of
//! loading, an estimated load). The API serves them as the container's `raw_events`.
//!
//! Rules:
//! - an event is kept once per (container, carrier event id);
//! - a later version of it (a later `eventCreatedDateTime`) replaces the kept one, an
//!   earlier or equal one changes nothing;
//! - an equipment event belongs to its container; a vessel's event, a document's event and
//!   an equipment event naming no container belong to the shipment, kept once and listed
//!   with every container of it (under an id of their own per container).

use std::collections::HashMap;

use crate::{
    AccountId, ContainerId, Milestone, Place, RawEventId, ShipmentId, Timestamp, VesselRef,
};

/// Planned, estimated or actual (DCSA's `eventClassifierCode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EventClassifier {
    /// Planned (`PLN`).
    Planned,
    /// Estimated (`EST`).
    Estimated,
    /// Actual (`ACT`).
    Actual,
}

impl EventClassifier {
    const ALL: [Self; 3] = [Self::Planned, Self::Estimated, Self::Actual];

    /// DCSA's code.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Planned => "PLN",
            Self::Estimated => "EST",
            Self::Actual => "ACT",
        }
    }

    /// Parses DCSA's code.
    #[must_use]
    pub fn parse(code: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|c| c.as_str() == code)
    }
}

/// What a carrier event is about (DCSA's `eventType`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CarrierEventType {
    /// A document of the shipment (booking, transport document).
    Shipment,
    /// A vessel's (or train's) arrival or departure.
    Transport,
    /// A container's move.
    Equipment,
}

impl CarrierEventType {
    const ALL: [Self; 3] = [Self::Shipment, Self::Transport, Self::Equipment];

    /// DCSA's name.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Shipment => "SHIPMENT",
            Self::Transport => "TRANSPORT",
            Self::Equipment => "EQUIPMENT",
        }
    }

    /// Parses DCSA's name.
    #[must_use]
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|t| t.as_str() == name)
    }
}

/// One event as the carrier reported it (after its values passed their own rules).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CarrierEvent {
    /// The carrier's event id (DCSA `eventID`).
    pub source_id: String,
    /// What the event is about.
    pub event_type: CarrierEventType,
    /// The carrier's event code, e.g. `ARRI`, `LOAD`, `DRFT`.
    pub code: String,
    /// Planned, estimated or actual.
    pub classifier: EventClassifier,
    /// When it happened or is expected to.
    pub at: Timestamp,
    /// When the carrier recorded this version (DCSA `eventCreatedDateTime`).
    pub reported_at: Timestamp,
    /// Where.
    pub place: Option<Place>,
    /// On which vessel.
    pub vessel: Option<VesselRef>,
    /// Voyage number.
    pub voyage: Option<String>,
    /// The carrier's transport call id, when the event names one.
    pub call_id: Option<String>,
    /// Whether the container was empty (equipment events).
    pub empty: Option<bool>,
    /// The milestone this event is, or would be once actual; `None` when it has no name
    /// in the API's vocabulary.
    pub milestone: Option<Milestone>,
}

impl CarrierEvent {
    /// Whether the event lies ahead (planned or estimated).
    #[must_use]
    pub fn is_estimate(&self) -> bool {
        self.classifier != EventClassifier::Actual
    }
}

/// A carrier event kept for one container.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawEvent {
    /// Its id.
    pub id: RawEventId,
    /// The owning account.
    pub account_id: AccountId,
    /// The shipment.
    pub shipment_id: ShipmentId,
    /// The container; none for the shipment's own events (listed with every container).
    pub container_id: Option<ContainerId>,
    /// What the carrier said.
    pub event: CarrierEvent,
    /// When Tidemark first kept it.
    pub created_at: Timestamp,
    /// When Tidemark last replaced it with a later version.
    pub updated_at: Timestamp,
}

impl RawEvent {
    /// The event as listed with `container`: a shipment's event gets an id of its own per
    /// container (derived from both), so each listed resource has one identity.
    #[must_use]
    pub fn listed_with(&self, container: ContainerId) -> Self {
        if self.container_id.is_some() {
            return self.clone();
        }
        // A name-based id in the event's own namespace: stable, and one per container.
        let id = uuid::Uuid::new_v5(&self.id.as_uuid(), container.as_uuid().as_bytes());
        Self {
            id: RawEventId::from_uuid(id),
            container_id: Some(container),
            ..self.clone()
        }
    }
}

/// Whose events they are: a container's, or the shipment's own (`container_id` none).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Owner {
    /// The account.
    pub account_id: AccountId,
    /// The shipment.
    pub shipment_id: ShipmentId,
    /// The container, or none for the shipment's own events.
    pub container_id: Option<ContainerId>,
}

/// The kept carrier events of one owner, written as one record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContainerEvents {
    /// Whose they are.
    pub owner: Owner,
    /// The events, oldest first (by when they happen, then by when they were kept).
    pub events: Vec<RawEvent>,
}

/// `owner`'s `kept` events with the `reported` ones merged in: a new event is added, a
/// later version of a kept one replaces it (keeping its id and `created_at`), an earlier or
/// equal version changes nothing. `None` when nothing changes.
#[must_use]
pub fn merge(
    owner: Owner,
    kept: &[RawEvent],
    reported: &[CarrierEvent],
    now: Timestamp,
) -> Option<ContainerEvents> {
    let mut events: Vec<RawEvent> = kept.to_vec();
    let mut index: HashMap<String, usize> = events
        .iter()
        .enumerate()
        .map(|(i, record)| (record.event.source_id.clone(), i))
        .collect();
    let mut changed = false;
    for event in reported {
        match index.get(&event.source_id) {
            Some(&i) if events[i].event.reported_at >= event.reported_at => {}
            Some(&i) => {
                let record = &mut events[i];
                record.event = event.clone();
                record.updated_at = now;
                changed = true;
            }
            None => {
                index.insert(event.source_id.clone(), events.len());
                events.push(RawEvent {
                    id: RawEventId::new(),
                    account_id: owner.account_id,
                    shipment_id: owner.shipment_id,
                    container_id: owner.container_id,
                    event: event.clone(),
                    created_at: now,
                    updated_at: now,
                });
                changed = true;
            }
        }
    }
    if !changed {
        return None;
    }
    events.sort_by(order);
    Some(ContainerEvents { owner, events })
}

/// Oldest first: by when they happen, then by when they were kept, then by the carrier's
/// id.
pub fn order(a: &RawEvent, b: &RawEvent) -> std::cmp::Ordering {
    (a.event.at, a.created_at, &a.event.source_id).cmp(&(
        b.event.at,
        b.created_at,
        &b.event.source_id,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(id: &str, reported: i64) -> CarrierEvent {
        CarrierEvent {
            source_id: id.to_owned(),
            event_type: CarrierEventType::Equipment,
            code: "LOAD".to_owned(),
            classifier: EventClassifier::Estimated,
            at: Timestamp::from_unix_micros(0).expect("epoch"),
            reported_at: Timestamp::from_unix_micros(reported).expect("valid"),
            place: None,
            vessel: None,
            voyage: None,
            call_id: None,
            empty: Some(false),
            milestone: Some(Milestone::VesselLoaded),
        }
    }

    #[test]
    fn a_new_or_later_version_is_kept_an_earlier_or_equal_one_is_not() {
        let owner = Owner {
            account_id: AccountId::new(),
            shipment_id: ShipmentId::new(),
            container_id: Some(ContainerId::new()),
        };
        let now = Timestamp::from_unix_micros(1_000).expect("valid");
        let later = Timestamp::from_unix_micros(2_000).expect("valid");
        let first =
            merge(owner, &[], &[event("e1", 100), event("e2", 100)], now).expect("new events");
        assert_eq!(first.events.len(), 2);
        let kept = first.events;
        assert_eq!(
            merge(owner, &kept, &[event("e1", 100)], later),
            None,
            "the same version"
        );
        assert_eq!(
            merge(owner, &kept, &[event("e1", 50)], later),
            None,
            "an earlier version"
        );
        let replaced = merge(owner, &kept, &[event("e1", 150)], later).expect("a later version");
        assert_eq!(replaced.events.len(), 2);
        let e1 = replaced
            .events
            .iter()
            .find(|r| r.event.source_id == "e1")
            .expect("kept");
        let before = kept
            .iter()
            .find(|r| r.event.source_id == "e1")
            .expect("kept");
        assert_eq!(
            (e1.id, e1.created_at),
            (before.id, before.created_at),
            "in place"
        );
        assert_eq!(e1.updated_at, later);
        assert_eq!(
            e1.event.reported_at,
            Timestamp::from_unix_micros(150).expect("valid")
        );
        let added = merge(owner, &kept, &[event("e3", 1)], later).expect("another event");
        assert_eq!(added.events.len(), 3);
    }

    #[test]
    fn a_shipment_event_has_one_stable_id_per_container() {
        let shared = merge(
            Owner {
                account_id: AccountId::new(),
                shipment_id: ShipmentId::new(),
                container_id: None,
            },
            &[],
            &[event("e1", 1)],
            Timestamp::from_unix_micros(1).expect("valid"),
        )
        .expect("new")
        .events
        .remove(0);
        let (a, b) = (ContainerId::new(), ContainerId::new());
        assert_eq!(shared.listed_with(a).id, shared.listed_with(a).id, "stable");
        assert_ne!(
            shared.listed_with(a).id,
            shared.listed_with(b).id,
            "one per container"
        );
        assert_eq!(shared.listed_with(a).container_id, Some(a));
        let own = shared.listed_with(a);
        assert_eq!(
            own.listed_with(b),
            own,
            "a container's own event keeps its id"
        );
    }

    #[test]
    fn codes_round_trip() {
        for classifier in EventClassifier::ALL {
            assert_eq!(
                EventClassifier::parse(classifier.as_str()),
                Some(classifier)
            );
        }
        for kind in CarrierEventType::ALL {
            assert_eq!(CarrierEventType::parse(kind.as_str()), Some(kind));
        }
        assert_eq!(EventClassifier::parse("act"), None);
        assert!(event("e", 0).is_estimate());
    }
}
