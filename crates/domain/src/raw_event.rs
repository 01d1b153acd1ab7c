//! What a carrier said, kept as it said it: every valid event of every answer, per
//! container, whether or not it makes a milestone (a vessel's arrival at the port of
//! loading, an estimated load). The API serves them as the container's `raw_events`.
//!
//! Rules:
//! - an event is kept once per (container, carrier event id);
//! - a later version of it (a later `eventCreatedDateTime`) replaces the kept one, an
//!   earlier or equal one changes nothing;
//! - a vessel's event belongs to every container of the shipment, an equipment event to its
//!   container (to every container when it names none), a shipment event to every
//!   container.

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
    /// The container.
    pub container_id: ContainerId,
    /// What the carrier said.
    pub event: CarrierEvent,
    /// When Tidemark first kept it.
    pub created_at: Timestamp,
    /// When Tidemark last replaced it with a later version.
    pub updated_at: Timestamp,
}

/// Which version of a carrier event is kept for a container.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawEventVersion {
    /// The container.
    pub container_id: ContainerId,
    /// The carrier's event id.
    pub source_id: String,
    /// When the carrier recorded the kept version.
    pub reported_at: Timestamp,
}

impl RawEvent {
    /// The version this record keeps.
    #[must_use]
    pub fn version(&self) -> RawEventVersion {
        RawEventVersion {
            container_id: self.container_id,
            source_id: self.event.source_id.clone(),
            reported_at: self.event.reported_at,
        }
    }
}

/// The kept versions, by (container, carrier event id).
#[derive(Debug, Default)]
pub struct KeptVersions(HashMap<(ContainerId, String), Timestamp>);

impl KeptVersions {
    /// The versions kept so far.
    #[must_use]
    pub fn new(kept: &[RawEventVersion]) -> Self {
        Self(
            kept.iter()
                .map(|v| ((v.container_id, v.source_id.clone()), v.reported_at))
                .collect(),
        )
    }

    /// Whether `event` is new for `container` or a later version of the kept one; when it
    /// is, it counts as kept from now on.
    pub fn take(&mut self, container: ContainerId, event: &CarrierEvent) -> bool {
        let key = (container, event.source_id.clone());
        match self.0.get(&key) {
            Some(kept) if *kept >= event.reported_at => false,
            _ => {
                self.0.insert(key, event.reported_at);
                true
            }
        }
    }
}

/// Whose events they are.
#[derive(Debug, Clone, Copy)]
pub struct Owner {
    /// The account.
    pub account_id: AccountId,
    /// The shipment.
    pub shipment_id: ShipmentId,
    /// The container.
    pub container_id: ContainerId,
}

impl KeptVersions {
    /// The records to write of `events` for `owner`: the new ones and the later versions.
    pub fn records(
        &mut self,
        owner: Owner,
        events: &[CarrierEvent],
        now: Timestamp,
    ) -> Vec<RawEvent> {
        events
            .iter()
            .filter(|event| self.take(owner.container_id, event))
            .map(|event| RawEvent {
                id: RawEventId::new(),
                account_id: owner.account_id,
                shipment_id: owner.shipment_id,
                container_id: owner.container_id,
                event: event.clone(),
                created_at: now,
                updated_at: now,
            })
            .collect()
    }
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
    fn a_new_or_later_version_is_taken_an_earlier_or_equal_one_is_not() {
        let container = ContainerId::new();
        let other = ContainerId::new();
        let mut kept = KeptVersions::new(&[RawEventVersion {
            container_id: container,
            source_id: "e1".to_owned(),
            reported_at: Timestamp::from_unix_micros(100).expect("valid"),
        }]);
        assert!(!kept.take(container, &event("e1", 100)), "the same version");
        assert!(
            !kept.take(container, &event("e1", 50)),
            "an earlier version"
        );
        assert!(kept.take(container, &event("e1", 150)), "a later version");
        assert!(!kept.take(container, &event("e1", 150)), "taken once");
        assert!(kept.take(other, &event("e1", 100)), "another container");
        assert!(kept.take(container, &event("e2", 1)), "another event");
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
