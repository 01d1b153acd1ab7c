//! What Tidemark keeps of a tracked shipment: the shipment, its containers and their
//! transport events (api.md §4). The tracker builds them from carrier snapshots
//! (`tracking`); storage keeps them; the API shows them.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::{
    AccountId, ContainerId, ContainerStatus, Estimate, Milestone, Place, Scac, ShipmentId,
    Timestamp, TrackingRequestId, TransportEventId, VesselRef,
};

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
    /// When it was created.
    pub created_at: Timestamp,
    /// When it last changed.
    pub updated_at: Timestamp,
}

/// The container's equipment, read from its ISO 6346 size-type code.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Equipment {
    /// `dry`, `reefer`, `open top`, `flat rack`, `bulk`, `tank`.
    pub kind: Option<&'static str>,
    /// Length in feet: 10, 20, 40 or 45.
    pub length: Option<u8>,
    /// `standard` or `high_cube`.
    pub height: Option<&'static str>,
}

impl Equipment {
    /// Reads a size-type code such as `45G1` (ISO 6346 annex E); unknown parts stay `None`.
    #[must_use]
    pub fn from_iso_code(code: &str) -> Self {
        let bytes = code.as_bytes();
        if bytes.len() != 4 {
            return Self::default();
        }
        let length = match bytes[0] {
            b'1' => Some(10),
            b'2' => Some(20),
            b'4' => Some(40),
            b'L' => Some(45),
            _ => None,
        };
        let height = match bytes[1] {
            b'0' | b'2' => Some("standard"),
            b'5' => Some("high_cube"),
            _ => None,
        };
        let kind = match bytes[2] {
            b'G' | b'V' => Some("dry"),
            b'R' | b'H' => Some("reefer"),
            b'U' => Some("open top"),
            b'P' => Some("flat rack"),
            b'B' => Some("bulk"),
            b'T' => Some("tank"),
            _ => None,
        };
        Self {
            kind,
            length,
            height,
        }
    }
}

/// A container's carrier-reported details. Times the carrier did not give stay `None`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ContainerDetails {
    /// Seal number.
    pub seal_number: Option<String>,
    /// ISO size-type code, e.g. `45G1`.
    pub iso_code: Option<String>,
    /// The terminal of discharge (its SMDG or BIC code).
    pub pod_terminal: Option<String>,
    /// Empty picked up for stuffing.
    pub empty_out_at: Option<Timestamp>,
    /// Gated in full at the port of loading.
    pub pol_full_in_at: Option<Timestamp>,
    /// Loaded at the port of loading.
    pub pol_vessel_loaded_at: Option<Timestamp>,
    /// The vessel left the port of loading.
    pub pol_vessel_departed_at: Option<Timestamp>,
    /// The vessel arrived at the port of discharge.
    pub pod_arrived_at: Option<Timestamp>,
    /// Discharged at the port of discharge.
    pub pod_discharged_at: Option<Timestamp>,
    /// Gated out full at the port of discharge.
    pub pod_full_out_at: Option<Timestamp>,
    /// Returned empty.
    pub empty_terminated_at: Option<Timestamp>,
}

impl ContainerDetails {
    /// The equipment named by the size-type code.
    #[must_use]
    pub fn equipment(&self) -> Equipment {
        self.iso_code
            .as_deref()
            .map(Equipment::from_iso_code)
            .unwrap_or_default()
    }
}

/// A container of a shipment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Container {
    /// Its id.
    pub id: ContainerId,
    /// The owning account.
    pub account_id: AccountId,
    /// Its shipment.
    pub shipment_id: ShipmentId,
    /// ISO 6346 number.
    pub number: String,
    /// Where it is.
    pub current_status: ContainerStatus,
    /// The client's reference numbers.
    pub ref_numbers: Vec<String>,
    /// What the carrier reports.
    pub details: ContainerDetails,
    /// When it was created.
    pub created_at: Timestamp,
    /// When it last changed.
    pub updated_at: Timestamp,
}

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

/// The UN/LOCODE of an optional place (empty when unknown).
#[must_use]
pub fn locode(place: Option<&Place>) -> &str {
    place.map_or("", |place| place.locode.as_str())
}

/// Reference records (ports, terminals, vessels) are known by their codes; their ids are
/// derived from the codes, so every process and both backends agree on them.
const REFERENCE_NAMESPACE: uuid::Uuid =
    uuid::Uuid::from_u128(0x8d6a_61c3_1f0e_4b5e_9a47_2c1d_0b8e_7f35);

/// The kinds of reference records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ReferenceKind {
    /// A port, by UN/LOCODE.
    Port,
    /// A terminal, by SMDG or BIC code.
    Terminal,
    /// A vessel, by IMO number.
    Vessel,
}

impl ReferenceKind {
    /// The id of the record with this code.
    #[must_use]
    pub fn id(self, code: &str) -> uuid::Uuid {
        let kind = match self {
            Self::Port => "port",
            Self::Terminal => "terminal",
            Self::Vessel => "vessel",
        };
        uuid::Uuid::new_v5(&REFERENCE_NAMESPACE, format!("{kind}:{code}").as_bytes())
    }
}

/// A port, terminal or vessel learned from carrier data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reference {
    /// What it is.
    pub kind: ReferenceKind,
    /// Its id (derived from the code).
    pub id: uuid::Uuid,
    /// UN/LOCODE, terminal code or IMO number.
    pub code: String,
    /// Its name, when a carrier gave one.
    pub name: Option<String>,
    /// A terminal's port.
    pub port_locode: Option<String>,
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

impl Reference {
    /// The port record of `place`.
    #[must_use]
    pub fn port(place: &Place) -> Self {
        Self {
            kind: ReferenceKind::Port,
            id: ReferenceKind::Port.id(&place.locode),
            code: place.locode.clone(),
            name: place.name.clone(),
            port_locode: None,
        }
    }

    /// The terminal record of `place`, when it names a facility.
    #[must_use]
    pub fn terminal(place: &Place) -> Option<Self> {
        let code = place.facility.as_ref()?;
        Some(Self {
            kind: ReferenceKind::Terminal,
            id: ReferenceKind::Terminal.id(code),
            code: code.clone(),
            name: None,
            port_locode: Some(place.locode.clone()),
        })
    }

    /// The vessel record of `vessel`.
    #[must_use]
    pub fn vessel(vessel: &VesselRef) -> Self {
        Self {
            kind: ReferenceKind::Vessel,
            id: ReferenceKind::Vessel.id(&vessel.imo),
            code: vessel.imo.clone(),
            name: vessel.name.clone(),
            port_locode: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
