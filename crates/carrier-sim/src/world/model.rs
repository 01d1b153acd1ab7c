//! What the world is made of: references, fates and their chances, vessels, calls,
//! containers and shipments.

use time::{Duration, OffsetDateTime};

use crate::data::Port;

/// What a query names the shipment by.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Reference {
    /// `carrierBookingReference`.
    Booking(String),
    /// `transportDocumentReference` (the bill of lading).
    TransportDocument(String),
    /// `equipmentReference` (a container number).
    Equipment(String),
}

impl Reference {
    /// The reference text.
    #[must_use]
    pub fn value(&self) -> &str {
        match self {
            Self::Booking(v) | Self::TransportDocument(v) | Self::Equipment(v) => v,
        }
    }
}

/// The seeded chances of the unhappy fates, in percent, for numbers other than `TEST-TR-*`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Chances {
    /// The carrier has never heard of the number.
    pub not_found: u8,
    /// Booked, but not yet manifested: only booking events until a few days after the epoch.
    pub awaiting_manifest: u8,
    /// The booking was cancelled.
    pub cancelled: u8,
}

impl Default for Chances {
    fn default() -> Self {
        Self {
            not_found: 4,
            awaiting_manifest: 6,
            cancelled: 2,
        }
    }
}

/// What happens to a shipment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fate {
    /// Booked, manifested, sailed.
    Sails,
    /// Unknown to the carrier: every query answers an empty list.
    Unknown,
    /// The booking is cancelled at this time, before any container moves.
    Cancelled(OffsetDateTime),
}

/// A fate chosen by a script instead of the seed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Booked, manifested, sailed.
    Sails,
    /// Unknown to the carrier.
    Unknown,
    /// Cancelled a day after booking.
    Cancelled,
}

/// A vessel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Vessel {
    /// Seven digits, the last a check digit.
    pub imo: String,
    /// Name.
    pub name: String,
    /// Flag state.
    pub flag: &'static str,
}

/// What the shipment's containers do at a call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// Loaded onto the vessel (port of loading, or the onward vessel at a hub).
    Load,
    /// Discharged (at a hub, or the port of discharge).
    Discharge,
}

/// One vessel call of the shipment's route, with its planned and actual times.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Call {
    /// The port.
    pub port: Port,
    /// Unique id of the call (`transportCallID`).
    pub id: String,
    /// Order of the call in the shipment's route (1 = port of loading).
    pub sequence: u32,
    /// Load or discharge.
    pub role: Role,
    /// Which ocean leg (0 = the first vessel).
    pub leg: u32,
    /// The vessel calling.
    pub vessel: Vessel,
    /// Voyage number.
    pub voyage: String,
    /// Service code.
    pub service: String,
    /// Planned arrival and departure, as booked.
    pub planned_arrival: OffsetDateTime,
    /// Planned departure.
    pub planned_departure: OffsetDateTime,
    /// What happens.
    pub arrival: OffsetDateTime,
    /// What happens.
    pub departure: OffsetDateTime,
}

/// A container of the shipment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Container {
    /// ISO 6346 number.
    pub number: String,
    /// ISO size-type code, e.g. `45G1`.
    pub iso_code: &'static str,
    /// Carrier seal.
    pub seal: String,
    /// Minutes added to every move of this box, so boxes do not move in lockstep.
    pub offset_minutes: i64,
}

/// A simulated shipment: what a carrier would know about one booking.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shipment {
    /// The carrier's SCAC.
    pub scac: String,
    /// Booking reference.
    pub booking: String,
    /// Transport document (bill of lading) reference.
    pub transport_document: String,
    /// What happens to it.
    pub fate: Fate,
    /// When it was booked.
    pub booked_at: OffsetDateTime,
    /// When the carrier manifests it (containers and voyage become known).
    pub manifested_at: OffsetDateTime,
    /// Empty container picked up at the origin depot.
    pub empty_out: OffsetDateTime,
    /// Laden container delivered to the terminal of loading.
    pub full_in: OffsetDateTime,
    /// Port calls: loading, transshipments, discharge.
    pub calls: Vec<Call>,
    /// Laden container picked up at the port of discharge.
    pub full_out: OffsetDateTime,
    /// Empty container returned.
    pub empty_in: OffsetDateTime,
    /// The boxes.
    pub containers: Vec<Container>,
}

impl Shipment {
    /// The port of loading.
    #[must_use]
    pub fn origin(&self) -> &Port {
        &self.calls[0].port
    }

    /// The port of discharge.
    #[must_use]
    pub fn destination(&self) -> &Port {
        &self.calls[self.calls.len() - 1].port
    }

    /// When the vessel arrives at the port of discharge.
    #[must_use]
    pub fn destination_arrival(&self) -> OffsetDateTime {
        self.calls[self.calls.len() - 1].arrival
    }

    /// The same shipment with every instant moved by `by`.
    #[must_use]
    pub fn shifted(mut self, by: Duration) -> Self {
        for at in [
            &mut self.booked_at,
            &mut self.manifested_at,
            &mut self.empty_out,
            &mut self.full_in,
            &mut self.full_out,
            &mut self.empty_in,
        ] {
            *at += by;
        }
        if let Fate::Cancelled(at) = &mut self.fate {
            *at += by;
        }
        for call in &mut self.calls {
            for at in [
                &mut call.planned_arrival,
                &mut call.planned_departure,
                &mut call.arrival,
                &mut call.departure,
            ] {
                *at += by;
            }
        }
        self
    }
}
