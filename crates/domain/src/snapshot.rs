//! What a carrier knows about a shipment at one moment, normalized: the answer of a
//! carrier lookup. Connectors build it from their protocol (DCSA Track & Trace); the
//! tracker compares successive snapshots to find what changed.

use std::fmt;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::{FailedReason, Timestamp};

/// A transport milestone of a container, named as the API names transport events
/// (`container.transport.<name>`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Milestone {
    /// Empty container picked up for stuffing.
    EmptyOut,
    /// Laden container delivered to the terminal of loading.
    FullIn,
    /// Loaded on the vessel at the port of loading.
    VesselLoaded,
    /// The vessel left the port of loading.
    VesselDeparted,
    /// The vessel reached a transshipment port.
    TransshipmentArrived,
    /// Discharged at a transshipment port.
    TransshipmentDischarged,
    /// Loaded on the onward vessel at a transshipment port.
    TransshipmentLoaded,
    /// The onward vessel left the transshipment port.
    TransshipmentDeparted,
    /// The vessel reached the port of discharge.
    VesselArrived,
    /// Discharged at the port of discharge.
    VesselDischarged,
    /// Loaded on a train.
    RailLoaded,
    /// The train left.
    RailDeparted,
    /// The train arrived.
    RailArrived,
    /// Unloaded from the train.
    RailUnloaded,
    /// Laden container picked up at the port of discharge.
    FullOut,
    /// Empty container returned.
    EmptyIn,
}

impl Milestone {
    /// Every milestone, in the order a voyage passes them.
    pub const ALL: [Self; 16] = [
        Self::EmptyOut,
        Self::FullIn,
        Self::VesselLoaded,
        Self::VesselDeparted,
        Self::TransshipmentArrived,
        Self::TransshipmentDischarged,
        Self::TransshipmentLoaded,
        Self::TransshipmentDeparted,
        Self::VesselArrived,
        Self::VesselDischarged,
        Self::RailLoaded,
        Self::RailDeparted,
        Self::RailArrived,
        Self::RailUnloaded,
        Self::FullOut,
        Self::EmptyIn,
    ];

    /// The name after `container.transport.`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::EmptyOut => "empty_out",
            Self::FullIn => "full_in",
            Self::VesselLoaded => "vessel_loaded",
            Self::VesselDeparted => "vessel_departed",
            Self::TransshipmentArrived => "transshipment_arrived",
            Self::TransshipmentDischarged => "transshipment_discharged",
            Self::TransshipmentLoaded => "transshipment_loaded",
            Self::TransshipmentDeparted => "transshipment_departed",
            Self::VesselArrived => "vessel_arrived",
            Self::VesselDischarged => "vessel_discharged",
            Self::RailLoaded => "rail_loaded",
            Self::RailDeparted => "rail_departed",
            Self::RailArrived => "rail_arrived",
            Self::RailUnloaded => "rail_unloaded",
            Self::FullOut => "full_out",
            Self::EmptyIn => "empty_in",
        }
    }

    /// The full event name, e.g. `container.transport.vessel_loaded`.
    #[must_use]
    pub fn event_name(self) -> String {
        format!("container.transport.{}", self.as_str())
    }
}

impl fmt::Display for Milestone {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Where a container is, as the API's `current_status` says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ContainerStatus {
    /// Tracked, no voyage milestone yet.
    New,
    /// Loaded on a vessel, at sea or in transshipment.
    OnShip,
    /// Discharged at the port of discharge.
    Grounded,
    /// On a train.
    OnRail,
    /// Picked up full.
    PickedUp,
    /// Returned empty: the end.
    EmptyReturned,
}

impl ContainerStatus {
    /// Every status.
    pub const ALL: [Self; 6] = [
        Self::New,
        Self::OnShip,
        Self::Grounded,
        Self::OnRail,
        Self::PickedUp,
        Self::EmptyReturned,
    ];

    /// Parses the wire name.
    #[must_use]
    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|status| status.as_str() == text)
    }

    /// The wire name.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::New => "new",
            Self::OnShip => "on_ship",
            Self::Grounded => "grounded",
            Self::OnRail => "on_rail",
            Self::PickedUp => "picked_up",
            Self::EmptyReturned => "empty_returned",
        }
    }

    /// The status after `milestone`.
    #[must_use]
    pub const fn after(milestone: Milestone) -> Self {
        match milestone {
            Milestone::EmptyOut | Milestone::FullIn => Self::New,
            Milestone::VesselLoaded
            | Milestone::VesselDeparted
            | Milestone::TransshipmentArrived
            | Milestone::TransshipmentDischarged
            | Milestone::TransshipmentLoaded
            | Milestone::TransshipmentDeparted
            | Milestone::VesselArrived => Self::OnShip,
            Milestone::VesselDischarged | Milestone::RailUnloaded => Self::Grounded,
            Milestone::RailLoaded | Milestone::RailDeparted | Milestone::RailArrived => {
                Self::OnRail
            }
            Milestone::FullOut => Self::PickedUp,
            Milestone::EmptyIn => Self::EmptyReturned,
        }
    }
}

/// A port or place, by UN/LOCODE.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Place {
    /// UN/LOCODE.
    pub locode: String,
    /// Name, when the carrier gives one.
    pub name: Option<String>,
    /// Terminal or facility code (SMDG or BIC), when given.
    pub facility: Option<String>,
}

/// A vessel.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct VesselRef {
    /// IMO number (seven digits).
    pub imo: String,
    /// Name, when given.
    pub name: Option<String>,
}

/// One container milestone that happened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MilestoneEvent {
    /// What happened.
    pub milestone: Milestone,
    /// When.
    pub at: Timestamp,
    /// Where.
    pub place: Option<Place>,
    /// On which vessel.
    pub vessel: Option<VesselRef>,
    /// Voyage number.
    pub voyage: Option<String>,
    /// The carrier's event id (for the audit trail).
    pub source_id: Option<String>,
}

/// A container as the carrier reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContainerView {
    /// ISO 6346 number, as the carrier writes it.
    pub number: String,
    /// ISO size-type code, e.g. `45G1`.
    pub iso_code: Option<String>,
    /// Seal number.
    pub seal: Option<String>,
    /// Milestones that happened, in time order, at most one per milestone and place.
    pub milestones: Vec<MilestoneEvent>,
    /// Every event the carrier reported about this container alone (its equipment
    /// events), in the carrier's order.
    pub raw_events: Vec<crate::CarrierEvent>,
}

impl ContainerView {
    /// The status after the latest milestone.
    #[must_use]
    pub fn status(&self) -> ContainerStatus {
        self.milestones
            .last()
            .map_or(ContainerStatus::New, |event| {
                ContainerStatus::after(event.milestone)
            })
    }
}

/// One vessel call on the route, with the carrier's times.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallView {
    /// The carrier's id of the call.
    pub id: String,
    /// Where.
    pub place: Place,
    /// Which vessel.
    pub vessel: Option<VesselRef>,
    /// Voyage number.
    pub voyage: Option<String>,
    /// The first planned (or estimated) arrival the carrier reported.
    pub original_eta: Option<Timestamp>,
    /// The latest estimated arrival.
    pub eta: Option<Timestamp>,
    /// The actual arrival.
    pub ata: Option<Timestamp>,
    /// The latest estimated departure.
    pub etd: Option<Timestamp>,
    /// The actual departure.
    pub atd: Option<Timestamp>,
}

/// Everything the carrier knows about the shipment now.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Snapshot {
    /// Bill of lading, when the carrier names one.
    pub bill_of_lading: Option<String>,
    /// Booking, when the carrier names one.
    pub booking: Option<String>,
    /// The route's vessel calls, in order: port of loading first, port of discharge last.
    pub calls: Vec<CallView>,
    /// The containers.
    pub containers: Vec<ContainerView>,
    /// The events about the whole shipment (a vessel's, a document's, an equipment event
    /// naming no container), in the carrier's order; every container lists them.
    pub shipment_events: Vec<crate::CarrierEvent>,
}

impl Snapshot {
    /// The call at the port of loading.
    #[must_use]
    pub fn port_of_loading(&self) -> Option<&CallView> {
        self.calls.first()
    }

    /// The call at the port of discharge.
    #[must_use]
    pub fn port_of_discharge(&self) -> Option<&CallView> {
        self.calls.last().filter(|_| self.calls.len() > 1)
    }
}

/// An estimated milestone, named as the API names estimated transport events
/// (`container.transport.estimated.<name>`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Estimate {
    /// The vessel's estimated departure from the port of loading.
    VesselDeparted,
    /// The vessel's estimated arrival at the port of discharge.
    VesselArrived,
}

impl Estimate {
    /// Every estimate.
    pub const ALL: [Self; 2] = [Self::VesselDeparted, Self::VesselArrived];

    /// The full event name, e.g. `container.transport.estimated.vessel_arrived`.
    #[must_use]
    pub const fn event_name(self) -> &'static str {
        match self {
            Self::VesselDeparted => "container.transport.estimated.vessel_departed",
            Self::VesselArrived => "container.transport.estimated.vessel_arrived",
        }
    }
}

impl Snapshot {
    /// The estimates still ahead: departure from the port of loading until it happened,
    /// arrival at the port of discharge until it happened.
    #[must_use]
    pub fn estimates(&self) -> Vec<(Estimate, &CallView, Timestamp)> {
        let mut estimates = Vec::new();
        if let Some(pol) = self.port_of_loading()
            && pol.atd.is_none()
            && let Some(etd) = pol.etd
        {
            estimates.push((Estimate::VesselDeparted, pol, etd));
        }
        if let Some(pod) = self.port_of_discharge()
            && pod.ata.is_none()
            && let Some(eta) = pod.eta
        {
            estimates.push((Estimate::VesselArrived, pod, eta));
        }
        estimates
    }
}

/// Why a lookup could not be answered this time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TemporaryReason {
    /// No answer: connection refused, timeout, or a 5xx.
    Unreachable(String),
    /// The carrier asked us to slow down.
    RateLimited {
        /// How long it asked us to wait, when it said.
        retry_after: Option<Duration>,
    },
    /// The carrier is temporarily unavailable (503).
    Unavailable {
        /// How long it asked us to wait, when it said.
        retry_after: Option<Duration>,
    },
    /// The carrier refused our credentials.
    Unauthorized,
    /// An answer we could not understand: not JSON, cut short, too large, or events that
    /// break the standard.
    Unrecognized(String),
}

impl TemporaryReason {
    /// The `failed_reason` a retrying request shows.
    #[must_use]
    pub const fn failed_reason(&self) -> FailedReason {
        match self {
            Self::Unreachable(_)
            | Self::RateLimited { .. }
            | Self::Unavailable { .. }
            | Self::Unauthorized => FailedReason::ShippingLineUnreachable,
            Self::Unrecognized(_) => FailedReason::UnrecognizedResponse,
        }
    }
}

impl TemporaryReason {
    /// How long the carrier asked us to wait before asking again (`Retry-After`).
    #[must_use]
    pub const fn retry_after(&self) -> Option<Duration> {
        match self {
            Self::RateLimited { retry_after } | Self::Unavailable { retry_after } => *retry_after,
            _ => None,
        }
    }
}

impl fmt::Display for TemporaryReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Unreachable(detail) => write!(f, "carrier unreachable: {detail}"),
            Self::RateLimited {
                retry_after: Some(wait),
            } => write!(f, "rate limited by the carrier for {}s", wait.as_secs()),
            Self::RateLimited { retry_after: None } => f.write_str("rate limited by the carrier"),
            Self::Unavailable {
                retry_after: Some(wait),
            } => write!(
                f,
                "the carrier is unavailable (503) for {}s",
                wait.as_secs()
            ),
            Self::Unavailable { retry_after: None } => {
                f.write_str("the carrier is unavailable (503)")
            }
            Self::Unauthorized => f.write_str("the carrier refused our credentials"),
            Self::Unrecognized(detail) => write!(f, "unrecognized answer: {detail}"),
        }
    }
}

/// The answer to "what does the carrier know about this number now?".
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LookupOutcome {
    /// The shipment, its route and containers.
    Found(Snapshot),
    /// Booked but not yet manifested: no containers or voyage yet.
    NotYetManifested,
    /// Not (yet) known to the carrier: for a bill or booking, possibly not manifested yet.
    NotFound,
    /// The carrier says outright that it has no shipment with this reference (a DCSA error
    /// answer of 404), whatever the number's type: nothing to wait for.
    Unknown,
    /// The carrier rejects the number's format.
    InvalidNumber(String),
    /// The booking was cancelled.
    BookingCancelled,
    /// The carrier has the shipment but does not share its data.
    DataUnavailable,
    /// Try again later.
    Temporary(TemporaryReason),
}

impl LookupOutcome {
    /// A short name for logs.
    #[must_use]
    pub const fn label(&self) -> &'static str {
        match self {
            Self::Found(_) => "found",
            Self::NotYetManifested => "not_yet_manifested",
            Self::NotFound => "not_found",
            Self::Unknown => "unknown",
            Self::InvalidNumber(_) => "invalid_number",
            Self::BookingCancelled => "booking_cancelled",
            Self::DataUnavailable => "data_unavailable",
            Self::Temporary(_) => "temporary",
        }
    }

    /// Why the lookup failed, for logs; `None` when the carrier answered about the number.
    #[must_use]
    pub fn failure(&self) -> Option<String> {
        match self {
            Self::Found(_) | Self::NotYetManifested | Self::NotFound => None,
            Self::Unknown => Some("the carrier knows no shipment with this reference".to_owned()),
            Self::InvalidNumber(detail) => Some(detail.clone()),
            Self::BookingCancelled => Some("the booking is cancelled".to_owned()),
            Self::DataUnavailable => Some("the carrier does not share this shipment".to_owned()),
            Self::Temporary(reason) => Some(reason.to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn milestone_names_are_the_event_catalog_names() {
        let names: Vec<String> = Milestone::ALL.iter().map(|m| m.event_name()).collect();
        assert!(names.contains(&"container.transport.vessel_loaded".to_owned()));
        assert!(names.contains(&"container.transport.transshipment_discharged".to_owned()));
        let unique: std::collections::HashSet<_> = names.iter().collect();
        assert_eq!(unique.len(), Milestone::ALL.len());
    }

    #[test]
    fn status_follows_the_latest_milestone() {
        assert_eq!(
            ContainerStatus::after(Milestone::FullIn),
            ContainerStatus::New
        );
        assert_eq!(
            ContainerStatus::after(Milestone::TransshipmentDischarged),
            ContainerStatus::OnShip
        );
        assert_eq!(
            ContainerStatus::after(Milestone::VesselDischarged),
            ContainerStatus::Grounded
        );
        assert_eq!(
            ContainerStatus::after(Milestone::EmptyIn),
            ContainerStatus::EmptyReturned
        );
        let view = ContainerView {
            number: "CSQU3054383".into(),
            iso_code: None,
            seal: None,
            milestones: Vec::new(),
            raw_events: Vec::new(),
        };
        assert_eq!(view.status(), ContainerStatus::New);
    }

    fn call(
        eta: Option<&str>,
        ata: Option<&str>,
        etd: Option<&str>,
        atd: Option<&str>,
    ) -> CallView {
        let at = |t: Option<&str>| t.map(|t| Timestamp::parse_rfc3339(t).expect("time"));
        CallView {
            id: "C".into(),
            place: Place {
                locode: "NLRTM".into(),
                name: None,
                facility: None,
            },
            vessel: None,
            voyage: None,
            original_eta: at(eta),
            eta: at(eta),
            ata: at(ata),
            etd: at(etd),
            atd: at(atd),
        }
    }

    #[test]
    fn estimates_are_named_and_end_when_the_actual_comes() {
        let t = "2026-06-01T00:00:00Z";
        let sailing = Snapshot {
            calls: vec![
                call(None, Some(t), Some(t), None),
                call(Some(t), None, None, None),
            ],
            ..Snapshot::default()
        };
        let names: Vec<&str> = sailing
            .estimates()
            .iter()
            .map(|(e, _, _)| e.event_name())
            .collect();
        assert_eq!(
            names,
            [
                "container.transport.estimated.vessel_departed",
                "container.transport.estimated.vessel_arrived"
            ]
        );
        let arrived = Snapshot {
            calls: vec![
                call(None, Some(t), Some(t), Some(t)),
                call(Some(t), Some(t), None, None),
            ],
            ..Snapshot::default()
        };
        assert!(arrived.estimates().is_empty());
    }

    #[test]
    fn temporary_reasons_map_to_the_contracts_failed_reasons() {
        assert_eq!(
            TemporaryReason::Unreachable("timeout".into()).failed_reason(),
            FailedReason::ShippingLineUnreachable
        );
        assert_eq!(
            TemporaryReason::Unrecognized("not JSON".into()).failed_reason(),
            FailedReason::UnrecognizedResponse
        );
        assert!(
            TemporaryReason::RateLimited {
                retry_after: Some(Duration::from_secs(7))
            }
            .to_string()
            .contains("7s")
        );
    }
}
