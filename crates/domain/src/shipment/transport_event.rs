//! A transport event: a milestone that happened to a container, or a changed estimate.

use std::fmt;

use super::locode;

use crate::{
    AccountId, ContainerId, Estimate, Milestone, Place, RawEvent, ShipmentId, Timestamp,
    TransportEventId, VesselRef,
};

/// What a transport event records: a milestone that happened, or a changed estimate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TransportEventKind {
    /// `container.transport.<milestone>`.
    Actual(Milestone),
    /// `container.transport.estimated.<milestone>`.
    Estimated(Estimate),
}

impl TransportEventKind {
    /// The event's name.
    #[must_use]
    pub fn name(self) -> String {
        match self {
            Self::Actual(milestone) => milestone.event_name(),
            Self::Estimated(estimate) => estimate.event_name().to_owned(),
        }
    }

    /// Parses a stored name.
    #[must_use]
    pub fn parse(name: &str) -> Option<Self> {
        Milestone::ALL
            .into_iter()
            .map(Self::Actual)
            .chain(Estimate::ALL.into_iter().map(Self::Estimated))
            .find(|kind| kind.name() == name)
    }
}

impl fmt::Display for TransportEventKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// One transport event of a container, stored once per (container, event, location,
/// timestamp).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TransportEvent {
    /// Its id.
    pub id: TransportEventId,
    /// The owning account.
    pub account_id: AccountId,
    /// The shipment.
    pub shipment_id: ShipmentId,
    /// The container.
    pub container_id: ContainerId,
    /// What happened.
    pub kind: TransportEventKind,
    /// When it happened (or, for an estimate, the estimated time).
    pub timestamp: Timestamp,
    /// Where.
    pub location: Option<Place>,
    /// On which vessel.
    pub vessel: Option<VesselRef>,
    /// Voyage number.
    pub voyage_number: Option<String>,
    /// When Tidemark recorded it.
    pub created_at: Timestamp,
}

impl TransportEvent {
    /// Whether `other` records the same thing: same container, event, location and time.
    #[must_use]
    pub fn same_as(&self, other: &Self) -> bool {
        self.container_id == other.container_id
            && self.kind == other.kind
            && self.timestamp == other.timestamp
            && locode(self.location.as_ref()) == locode(other.location.as_ref())
    }

    /// The carrier event it was made from among `raw` (its container's and its shipment's
    /// own): the same milestone, actual for a milestone and an estimate for an estimate,
    /// at the same time and, when it names one, the same place. The latest version the
    /// carrier reported when several match.
    #[must_use]
    pub fn source_in<'a>(&self, raw: &'a [RawEvent]) -> Option<&'a RawEvent> {
        let (milestone, estimated) = match self.kind {
            TransportEventKind::Actual(milestone) => (milestone, false),
            TransportEventKind::Estimated(Estimate::VesselDeparted) => {
                (Milestone::VesselDeparted, true)
            }
            TransportEventKind::Estimated(Estimate::VesselArrived) => {
                (Milestone::VesselArrived, true)
            }
        };
        let place = locode(self.location.as_ref());
        let anywhere = place.is_empty();
        raw.iter()
            .filter(|record| {
                let event = &record.event;
                record.container_id.is_none_or(|c| c == self.container_id)
                    && event.milestone == Some(milestone)
                    && event.is_estimate() == estimated
                    && event.at == self.timestamp
                    && (anywhere || locode(event.place.as_ref()) == place)
            })
            .max_by_key(|record| record.event.reported_at)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{CarrierEvent, CarrierEventType, EventClassifier, RawEventId};

    fn at(seconds: i64) -> Timestamp {
        Timestamp::from_unix_micros(1_700_000_000_000_000 + seconds * 1_000_000).expect("time")
    }

    fn raw(container: ContainerId, id: &str, code: &str, when: i64, reported: i64) -> RawEvent {
        let estimated = id.starts_with("est");
        RawEvent {
            id: RawEventId::new(),
            account_id: AccountId::new(),
            shipment_id: ShipmentId::new(),
            container_id: Some(container),
            event: CarrierEvent {
                source_id: id.to_owned(),
                event_type: CarrierEventType::Equipment,
                code: code.to_owned(),
                classifier: if estimated {
                    EventClassifier::Estimated
                } else {
                    EventClassifier::Actual
                },
                at: at(when),
                reported_at: at(reported),
                place: Some(Place {
                    locode: "NLRTM".to_owned(),
                    name: None,
                    facility: None,
                }),
                vessel: None,
                voyage: None,
                call_id: None,
                empty: None,
                milestone: Some(if code == "LOAD" {
                    Milestone::VesselLoaded
                } else {
                    Milestone::VesselDeparted
                }),
            },
            created_at: at(reported),
            updated_at: at(reported),
        }
    }

    fn event(container: ContainerId, kind: TransportEventKind, when: i64) -> TransportEvent {
        TransportEvent {
            id: TransportEventId::new(),
            account_id: AccountId::new(),
            shipment_id: ShipmentId::new(),
            container_id: container,
            kind,
            timestamp: at(when),
            location: Some(Place {
                locode: "NLRTM".to_owned(),
                name: None,
                facility: None,
            }),
            vessel: None,
            voyage_number: None,
            created_at: at(when),
        }
    }

    #[test]
    fn a_milestone_comes_from_the_carrier_event_of_its_kind_time_and_place() {
        let container = ContainerId::new();
        let records = [
            raw(container, "load", "LOAD", 10, 11),
            raw(container, "est-depart", "DEPA", 20, 12),
            raw(container, "depart-old", "DEPA", 20, 13),
            raw(container, "depart", "DEPA", 20, 14),
            raw(ContainerId::new(), "other-box", "LOAD", 10, 15),
        ];
        let source = |kind, when| {
            event(container, kind, when)
                .source_in(&records)
                .map(|r| r.event.source_id.as_str())
        };
        let loaded = TransportEventKind::Actual(Milestone::VesselLoaded);
        assert_eq!(source(loaded, 10), Some("load"));
        assert_eq!(source(loaded, 11), None, "another time");
        assert_eq!(
            source(TransportEventKind::Actual(Milestone::VesselDeparted), 20),
            Some("depart"),
            "the latest version"
        );
        assert_eq!(
            source(TransportEventKind::Estimated(Estimate::VesselDeparted), 20),
            Some("est-depart")
        );
        assert_eq!(
            source(TransportEventKind::Actual(Milestone::VesselArrived), 20),
            None
        );
    }
}
