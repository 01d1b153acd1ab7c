//! What a carrier knows about a shipment at one moment, normalized: the answer of a
//! carrier lookup. Connectors build it from their protocol (DCSA Track & Trace); the
//! tracker compares successive snapshots to find what changed.
//!
//! - `milestone`: the milestones and estimates, named as the events they become;
//! - `outcome`: a lookup's outcome, the snapshot or why there is none.

use serde::{Deserialize, Serialize};

use crate::Timestamp;

mod milestone;
mod outcome;

pub use milestone::{ContainerStatus, Estimate, Milestone};
pub use outcome::{LookupOutcome, TemporaryReason};

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

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::FailedReason;

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
