//! Domain events: the changes clients hear about by webhook (api.md §5), recorded in the
//! outbox in the transaction that caused them. Each carries a dedupe key, unique in
//! storage, so a repeated or reordered carrier answer never records one twice.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::lifecycle::RequestEvent;
use crate::terminal::{DataSource, TerminalEvent};
use crate::{
    AccountId, ContainerId, DomainEventId, Estimate, Milestone, ShipmentId, Timestamp,
    TrackingRequestId, TransportEventId, TransportEventKind,
};

/// The name of a domain event, from the catalog.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EventName {
    /// `tracking_request.*`.
    Request(RequestEvent),
    /// `container.transport.*` and `container.transport.estimated.*`.
    Transport(TransportEventKind),
    /// `shipment.estimated.arrival`.
    ShipmentEstimatedArrival,
    /// `shipment.predicted_arrival.diverged`: Tidemark's own, beyond the reference's
    /// catalog.
    ShipmentPredictedArrivalDiverged,
    /// `container.created`.
    ContainerCreated,
    /// `container.updated`.
    ContainerUpdated,
    /// A terminal view's events (`container.transport.available`, the last free days, the
    /// appointment, the terminal of discharge). Its `container.updated` is
    /// [`EventName::ContainerUpdated`] ([`EventName::of_terminal`]).
    Terminal(TerminalEvent),
}

impl EventName {
    /// Every event Tidemark records, with what it means.
    #[must_use]
    pub fn catalog() -> Vec<(Self, &'static str)> {
        let mut catalog = vec![
            (
                Self::Request(RequestEvent::Succeeded),
                "The shipment was found and is tracked.",
            ),
            (
                Self::Request(RequestEvent::Failed),
                "The request failed; failed_reason says why.",
            ),
            (
                Self::Request(RequestEvent::AwaitingManifest),
                "The carrier does not know the number yet; Tidemark keeps checking.",
            ),
            (
                Self::Request(RequestEvent::TrackingStopped),
                "Tracking of the shipment stopped.",
            ),
        ];
        catalog.extend(Milestone::ALL.into_iter().map(|milestone| {
            (
                Self::Transport(TransportEventKind::Actual(milestone)),
                milestone.description(),
            )
        }));
        catalog.extend([
            (
                Self::Transport(TransportEventKind::Estimated(Estimate::VesselDeparted)),
                "The estimated departure from the port of loading changed.",
            ),
            (
                Self::Transport(TransportEventKind::Estimated(Estimate::VesselArrived)),
                "The estimated arrival at the port of discharge changed (per container).",
            ),
            (
                Self::ShipmentEstimatedArrival,
                "The estimated arrival at the port of discharge changed (per shipment).",
            ),
            (
                Self::ShipmentPredictedArrivalDiverged,
                "Tidemark's own arrival estimate (pod_predicted_eta_at, from the vessel's AIS positions over the sea routes) and the carrier's (pod_eta_at) came more than the configured margin apart (12 hours by default). Tidemark's event, not the reference's.",
            ),
            (
                Self::ContainerCreated,
                "A container was added to the shipment.",
            ),
            (
                Self::ContainerUpdated,
                "A container's carrier or terminal data changed; the changeset says what.",
            ),
        ]);
        for event in TerminalEvent::ALL {
            let name = Self::of_terminal(event);
            if !catalog.iter().any(|(known, _)| known.name() == name.name()) {
                catalog.push((name, event.description()));
            }
        }
        catalog
    }

    /// The event's name.
    #[must_use]
    pub fn name(self) -> String {
        match self {
            Self::Request(event) => event.name().to_owned(),
            Self::Transport(kind) => kind.name(),
            Self::ShipmentEstimatedArrival => "shipment.estimated.arrival".to_owned(),
            Self::ShipmentPredictedArrivalDiverged => {
                "shipment.predicted_arrival.diverged".to_owned()
            }
            Self::ContainerCreated => "container.created".to_owned(),
            Self::ContainerUpdated => "container.updated".to_owned(),
            Self::Terminal(event) => event.name().to_owned(),
        }
    }

    /// The name a terminal view's event is recorded under.
    #[must_use]
    pub const fn of_terminal(event: TerminalEvent) -> Self {
        match event {
            TerminalEvent::Updated => Self::ContainerUpdated,
            other => Self::Terminal(other),
        }
    }

    /// Whether the event is Tidemark's own, beyond the reference API's catalog.
    #[must_use]
    pub const fn is_extension(self) -> bool {
        matches!(self, Self::ShipmentPredictedArrivalDiverged)
    }

    /// Parses a name Tidemark records: the catalog's, and the terminal view's, which join
    /// the catalog once a source produces them.
    #[must_use]
    pub fn parse(name: &str) -> Option<Self> {
        Self::catalog()
            .into_iter()
            .map(|(event, _)| event)
            .find(|event| event.name() == name)
    }
}

impl fmt::Display for EventName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// The record an event is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Subject {
    /// A tracking request.
    TrackingRequest(TrackingRequestId),
    /// A transport event.
    TransportEvent(TransportEventId),
    /// A shipment.
    Shipment(ShipmentId),
    /// A container.
    Container(ContainerId),
}

impl Subject {
    /// The stored type name.
    #[must_use]
    pub const fn kind(self) -> &'static str {
        match self {
            Self::TrackingRequest(_) => "tracking_request",
            Self::TransportEvent(_) => "transport_event",
            Self::Shipment(_) => "shipment",
            Self::Container(_) => "container",
        }
    }

    /// The record's id.
    #[must_use]
    pub const fn id(self) -> uuid::Uuid {
        match self {
            Self::TrackingRequest(id) => id.as_uuid(),
            Self::TransportEvent(id) => id.as_uuid(),
            Self::Shipment(id) => id.as_uuid(),
            Self::Container(id) => id.as_uuid(),
        }
    }

    /// Rebuilds a stored subject.
    #[must_use]
    pub fn from_parts(kind: &str, id: uuid::Uuid) -> Option<Self> {
        Some(match kind {
            "tracking_request" => Self::TrackingRequest(TrackingRequestId::from_uuid(id)),
            "transport_event" => Self::TransportEvent(TransportEventId::from_uuid(id)),
            "shipment" => Self::Shipment(ShipmentId::from_uuid(id)),
            "container" => Self::Container(ContainerId::from_uuid(id)),
            _ => return None,
        })
    }
}

/// `container.updated`'s changeset: each attribute that changed, with its value before and
/// after, as the API shows them.
pub type Changeset = BTreeMap<String, [serde_json::Value; 2]>;

/// What an event carries beyond its subject.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct EventDetail {
    /// The new estimate (`shipment.estimated.arrival`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub estimated_timestamp: Option<Timestamp>,
    /// Where the estimate applies.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location_locode: Option<String>,
    /// What changed (`container.updated`).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub changeset: Changeset,
    /// Who said so (`container.updated`, `container.pod_terminal_changed`): the line
    /// when absent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data_source: Option<DataSource>,
    /// The new last free day or appointment (`container.pickup_lfd*.changed`,
    /// `container.pickup_appointment.changed`); absent when it was withdrawn.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<Timestamp>,
}

/// One recorded domain event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DomainEvent {
    /// Its id.
    pub id: DomainEventId,
    /// The account it belongs to.
    pub account_id: AccountId,
    /// What happened.
    pub name: EventName,
    /// The record it is about.
    pub subject: Subject,
    /// The shipment concerned, if any.
    pub shipment_id: Option<ShipmentId>,
    /// Extra data.
    pub detail: EventDetail,
    /// Unique per account: recording the same key twice records it once.
    pub dedupe_key: String,
    /// The records it concerns as they stood when it was recorded, as JSON:API resources:
    /// the `included` member of its notifications ([`crate::webhook::payload::freeze`]).
    pub included: Vec<serde_json::Value>,
    /// When it was recorded.
    pub created_at: Timestamp,
}

impl DomainEvent {
    /// A new event, its records not frozen yet.
    #[must_use]
    pub fn new(
        account_id: AccountId,
        name: EventName,
        subject: Subject,
        shipment_id: Option<ShipmentId>,
        detail: EventDetail,
        dedupe_key: String,
        now: Timestamp,
    ) -> Self {
        Self {
            id: DomainEventId::new(),
            account_id,
            name,
            subject,
            shipment_id,
            detail,
            dedupe_key,
            included: Vec::new(),
            created_at: now,
        }
    }

    /// A `tracking_request.*` event. Stops may repeat (stop, resume, stop), so their key
    /// carries the time; the others happen once per request.
    #[must_use]
    pub fn for_request(
        account_id: AccountId,
        request: TrackingRequestId,
        shipment_id: Option<ShipmentId>,
        event: RequestEvent,
        now: Timestamp,
    ) -> Self {
        let dedupe_key = match event {
            RequestEvent::TrackingStopped => {
                format!("{request}:{}:{}", event.name(), now.unix_micros())
            }
            _ => format!("{request}:{}", event.name()),
        };
        Self::new(
            account_id,
            EventName::Request(event),
            Subject::TrackingRequest(request),
            shipment_id,
            EventDetail::default(),
            dedupe_key,
            now,
        )
    }
}

impl Milestone {
    /// What the milestone means, for the event catalog.
    #[must_use]
    pub const fn description(self) -> &'static str {
        match self {
            Self::EmptyOut => "The empty container was picked up at origin.",
            Self::FullIn => "The full container was gated in at the port of loading.",
            Self::FeederLoaded => "The container was loaded on a feeder vessel or barge.",
            Self::FeederDeparted => "The feeder vessel or barge left.",
            Self::FeederArrived => "The feeder vessel or barge arrived.",
            Self::FeederDischarged => "The container was discharged from a feeder vessel or barge.",
            Self::VesselLoaded => "The container was loaded on the vessel at the port of loading.",
            Self::VesselDeparted => "The vessel left the port of loading.",
            Self::TransshipmentArrived => "The vessel arrived at a transshipment port.",
            Self::TransshipmentDischarged => {
                "The container was discharged at a transshipment port."
            }
            Self::TransshipmentLoaded => {
                "The container was loaded on the onward vessel at a transshipment port."
            }
            Self::TransshipmentDeparted => "The onward vessel left the transshipment port.",
            Self::VesselArrived => "The vessel arrived at the port of discharge.",
            Self::VesselDischarged => "The container was discharged at the port of discharge.",
            Self::RailLoaded => "The container was loaded on a train.",
            Self::RailDeparted => "The train left.",
            Self::RailArrived => "The train arrived.",
            Self::RailUnloaded => "The container was unloaded from the train.",
            Self::FullOut => "The full container was picked up at the port of discharge.",
            Self::EmptyIn => "The empty container was returned.",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_catalog_names_are_unique_and_parse_back() {
        let catalog = EventName::catalog();
        let names: std::collections::HashSet<String> =
            catalog.iter().map(|(event, _)| event.name()).collect();
        assert_eq!(names.len(), catalog.len());
        for (event, description) in &catalog {
            assert_eq!(EventName::parse(&event.name()), Some(*event));
            assert!(!description.is_empty());
        }
        assert!(names.contains("container.transport.vessel_departed"));
        assert!(names.contains("container.transport.estimated.vessel_arrived"));
        assert!(names.contains("shipment.estimated.arrival"));
        assert_eq!(EventName::parse("container.transport.teleported"), None);
    }

    #[test]
    fn subjects_round_trip() {
        let id = uuid::Uuid::now_v7();
        for kind in [
            "tracking_request",
            "transport_event",
            "shipment",
            "container",
        ] {
            let subject = Subject::from_parts(kind, id).expect("known kind");
            assert_eq!((subject.kind(), subject.id()), (kind, id));
        }
        assert_eq!(Subject::from_parts("vessel", id), None);
    }

    #[test]
    fn only_stops_may_repeat() {
        let (account, request) = (AccountId::new(), TrackingRequestId::new());
        let t1 = Timestamp::from_unix_micros(1).expect("time");
        let t2 = Timestamp::from_unix_micros(2).expect("time");
        let key =
            |event, at| DomainEvent::for_request(account, request, None, event, at).dedupe_key;
        assert_eq!(
            key(RequestEvent::Succeeded, t1),
            key(RequestEvent::Succeeded, t2)
        );
        assert_ne!(
            key(RequestEvent::TrackingStopped, t1),
            key(RequestEvent::TrackingStopped, t2)
        );
    }
}
