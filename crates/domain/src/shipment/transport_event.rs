//! A transport event: a milestone that happened to a container, or a changed estimate.

use std::fmt;

use super::locode;

use crate::{
    AccountId, ContainerId, Estimate, Milestone, Place, ShipmentId, Timestamp, TransportEventId,
    VesselRef,
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
}
