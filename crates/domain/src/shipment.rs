//! What Tidemark keeps of a tracked shipment: the shipment, its containers and their
//! transport events (api.md §4). The tracker builds them from carrier snapshots
//! (`tracking`); storage keeps them; the API shows them.
//!
//! - `container`: a container, its details and equipment;
//! - `transport_event`: what happened to a container, or a changed estimate;
//! - `reference`: ports, terminals and vessels named by carrier data.

use serde::{Deserialize, Serialize};

use crate::{AccountId, Place, Scac, ShipmentId, Timestamp, TrackingRequestId, VesselRef};

mod container;
mod push;
mod reference;
mod transport_event;

pub use container::{Container, ContainerDetails, Equipment};
pub use push::{CarrierPush, PUSH_SECRET_BYTES, PushSecret};
pub use reference::{Reference, ReferenceKind, metro_area_id};
pub use transport_event::{TransportEvent, TransportEventKind};

/// Where a shipment's carrier data comes from (`line_tracking_source`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TrackingSource {
    /// The shipping line's own endpoint.
    ShippingLine,
    /// The built-in carrier simulator.
    Sandbox,
}

impl TrackingSource {
    /// The wire name.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::ShippingLine => "shipping_line",
            Self::Sandbox => "sandbox",
        }
    }

    /// Parses the wire name.
    #[must_use]
    pub fn parse(text: &str) -> Option<Self> {
        [Self::ShippingLine, Self::Sandbox]
            .into_iter()
            .find(|source| source.as_str() == text)
    }
}

/// Why tracking of a shipment stopped (`line_tracking_stopped_reason`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StopReason {
    /// Every container was returned empty.
    AllContainersTerminated,
    /// Long enough past the arrival at the port of discharge.
    PastArrivalWindow,
    /// The carrier reported nothing new for too long.
    NoUpdatesAtLine,
    /// The client stopped it.
    CancelledByUser,
    /// The carrier cancelled the booking.
    BookingCancelled,
}

impl StopReason {
    /// Every reason.
    pub const ALL: [Self; 5] = [
        Self::AllContainersTerminated,
        Self::PastArrivalWindow,
        Self::NoUpdatesAtLine,
        Self::CancelledByUser,
        Self::BookingCancelled,
    ];

    /// The wire name.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::AllContainersTerminated => "all_containers_terminated",
            Self::PastArrivalWindow => "past_arrival_window",
            Self::NoUpdatesAtLine => "no_updates_at_line",
            Self::CancelledByUser => "cancelled_by_user",
            Self::BookingCancelled => "booking_cancelled",
        }
    }

    /// Parses the wire name.
    #[must_use]
    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|reason| reason.as_str() == text)
    }
}

/// The route of a shipment as the carrier last reported it. Times the carrier did not
/// give stay `None`: never guessed.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Route {
    /// Port of loading.
    pub port_of_lading: Option<Place>,
    /// Port of discharge.
    pub port_of_discharge: Option<Place>,
    /// Final destination (the port of discharge unless the carrier names an inland place).
    pub destination: Option<Place>,
    /// The vessel arriving at the port of discharge.
    pub pod_vessel: Option<VesselRef>,
    /// Its voyage number.
    pub pod_voyage_number: Option<String>,
    /// Estimated departure from the port of loading.
    pub pol_etd_at: Option<Timestamp>,
    /// Actual departure from the port of loading.
    pub pol_atd_at: Option<Timestamp>,
    /// The first departure estimate reported.
    pub pol_original_etd_at: Option<Timestamp>,
    /// Estimated arrival at the port of discharge.
    pub pod_eta_at: Option<Timestamp>,
    /// Actual arrival at the port of discharge.
    pub pod_ata_at: Option<Timestamp>,
    /// The first arrival estimate reported.
    pub pod_original_eta_at: Option<Timestamp>,
}

/// A shipment: what one tracking request found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shipment {
    /// Its id.
    pub id: ShipmentId,
    /// The owning account.
    pub account_id: AccountId,
    /// The tracking request that found it.
    pub tracking_request_id: TrackingRequestId,
    /// The bill of lading or booking number, as the client sent it (for a container
    /// request, the carrier's bill of lading when it names one).
    pub bill_of_lading_number: String,
    /// The number as sent to the carrier.
    pub normalized_number: String,
    /// The carrier.
    pub scac: Scac,
    /// The client's reference numbers.
    pub ref_numbers: Vec<String>,
    /// The client's tags.
    pub tags: Vec<String>,
    /// The route and its times.
    pub route: Route,
    /// Tidemark's own arrival estimate at the port of discharge, from the vessel's AIS
    /// positions over the sea routes (`predict_arrival` jobs); `None` when no recent
    /// position gives one.
    pub pod_predicted_eta_at: Option<Timestamp>,
    /// Where the data comes from.
    pub source: TrackingSource,
    /// The last lookup at the carrier.
    pub last_attempted_at: Option<Timestamp>,
    /// The last lookup the carrier answered.
    pub last_succeeded_at: Option<Timestamp>,
    /// The last time the carrier's data changed (for the no-updates stop rule).
    pub last_changed_at: Timestamp,
    /// When tracking stopped, if it did.
    pub stopped_at: Option<Timestamp>,
    /// Why tracking stopped.
    pub stopped_reason: Option<StopReason>,
    /// The carrier's push subscription for it, while one is live.
    pub carrier_push: Option<CarrierPush>,
    /// When it was created.
    pub created_at: Timestamp,
    /// When it last changed.
    pub updated_at: Timestamp,
}

impl Shipment {
    /// The vessel the carrier names into the port of discharge while the shipment is at
    /// sea: departed from the port of loading, not arrived, tracked. The overview's map
    /// of vessels at sea reads it.
    #[must_use]
    pub fn sailing_vessel(&self) -> Option<&VesselRef> {
        let route = &self.route;
        let at_sea =
            route.pol_atd_at.is_some() && route.pod_ata_at.is_none() && self.stopped_at.is_none();
        route.pod_vessel.as_ref().filter(|_| at_sea)
    }
}

/// The UN/LOCODE of an optional place (empty when unknown).
#[must_use]
pub fn locode(place: Option<&Place>) -> &str {
    place.map_or("", |place| place.locode.as_str())
}

/// A shipment with its containers and their transport events, as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tracked {
    /// The shipment.
    pub shipment: Shipment,
    /// Its containers.
    pub containers: Vec<Container>,
    /// Every transport event of its containers.
    pub events: Vec<TransportEvent>,
    /// The carrier events kept for its containers.
    pub raw_events: Vec<crate::RawEvent>,
}

impl Tracked {
    /// `prior` with `shipment` as it now stands, `containers` created or changed, new
    /// transport `events` and the containers' changed carrier events (`raw`) applied.
    #[must_use]
    pub fn applied(
        prior: Option<&Self>,
        shipment: &Shipment,
        containers: &[Container],
        events: &[TransportEvent],
        raw: &[crate::ContainerEvents],
    ) -> Self {
        let mut all: Vec<Container> = prior.map(|t| t.containers.clone()).unwrap_or_default();
        for container in containers {
            match all.iter_mut().find(|c| c.id == container.id) {
                Some(slot) => slot.clone_from(container),
                None => all.push(container.clone()),
            }
        }
        let mut recorded = prior.map(|t| t.events.clone()).unwrap_or_default();
        recorded.extend(events.iter().cloned());
        let mut kept = prior.map(|t| t.raw_events.clone()).unwrap_or_default();
        for changed in raw {
            kept.retain(|record| record.container_id != changed.owner.container_id);
            kept.extend(changed.events.iter().cloned());
        }
        Self {
            shipment: shipment.clone(),
            containers: all,
            events: recorded,
            raw_events: kept,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Estimate, Milestone};

    #[test]
    fn size_type_codes_name_the_equipment() {
        let high_cube = Equipment::from_iso_code("45G1");
        assert_eq!(high_cube.length, Some(40));
        assert_eq!(high_cube.height, Some("high_cube"));
        assert_eq!(high_cube.kind, Some("dry"));
        let reefer = Equipment::from_iso_code("22R1");
        assert_eq!(
            (reefer.length, reefer.height, reefer.kind),
            (Some(20), Some("standard"), Some("reefer"))
        );
        assert_eq!(Equipment::from_iso_code("L5G1").length, Some(45));
        assert_eq!(Equipment::from_iso_code("??"), Equipment::default());
        assert_eq!(Equipment::from_iso_code("99Z9"), Equipment::default());
    }

    #[test]
    fn event_kinds_round_trip_their_names() {
        for milestone in Milestone::ALL {
            let kind = TransportEventKind::Actual(milestone);
            assert_eq!(TransportEventKind::parse(&kind.name()), Some(kind));
        }
        for estimate in Estimate::ALL {
            let kind = TransportEventKind::Estimated(estimate);
            assert_eq!(TransportEventKind::parse(&kind.name()), Some(kind));
        }
        assert_eq!(TransportEventKind::parse("container.transport.nope"), None);
    }

    #[test]
    fn reference_ids_follow_the_code_and_the_kind() {
        assert_eq!(
            ReferenceKind::Port.id("NLRTM"),
            ReferenceKind::Port.id("NLRTM")
        );
        assert_ne!(
            ReferenceKind::Port.id("NLRTM"),
            ReferenceKind::Port.id("DEHAM")
        );
        assert_ne!(ReferenceKind::Port.id("X"), ReferenceKind::Terminal.id("X"));
    }

    #[test]
    fn wire_names_round_trip() {
        for reason in StopReason::ALL {
            assert_eq!(StopReason::parse(reason.as_str()), Some(reason));
        }
        for source in [TrackingSource::ShippingLine, TrackingSource::Sandbox] {
            assert_eq!(TrackingSource::parse(source.as_str()), Some(source));
        }
    }
}
