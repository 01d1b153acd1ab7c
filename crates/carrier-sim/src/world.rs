//! The deterministic world: for any carrier and reference, the same booking, voyage and
//! containers every time, seeded by the SCAC, the reference and the simulator's seed.
//!
//! A shipment is booked some days before the simulator's epoch, so at the epoch numbers are
//! at every stage of their voyage; as the clock moves they progress. What a number's fate
//! is (found, not yet manifested, not found, cancelled) is seeded too, with the chances in
//! [`Chances`].

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sha2::{Digest, Sha256};
use time::{Duration, OffsetDateTime};

use crate::data::{self, Port};

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
}

/// A deterministic generator of shipments.
#[derive(Debug, Clone)]
pub struct World {
    /// Salt of every shipment's seed.
    pub seed: u64,
    /// The instant shipments are placed around.
    pub epoch: OffsetDateTime,
    /// The chances of the unhappy fates.
    pub chances: Chances,
}

fn hours(rng: &mut ChaCha8Rng, range: std::ops::RangeInclusive<i64>) -> Duration {
    Duration::hours(rng.random_range(range))
}

fn pick<T: Copy>(rng: &mut ChaCha8Rng, items: &[T]) -> T {
    items[rng.random_range(0..items.len())]
}

/// How the timeline of a shipment is placed relative to the epoch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Placement {
    /// Booked a seeded 0 to 40 days before the epoch.
    Seeded,
    /// Booked exactly at the epoch (a voyage to play from its start).
    AtEpoch,
    /// Booked this long before the epoch.
    Before(Duration),
}

impl World {
    fn rng(&self, scac: &str, reference: &Reference) -> ChaCha8Rng {
        let mut hash = Sha256::new();
        hash.update(self.seed.to_be_bytes());
        hash.update(scac.as_bytes());
        hash.update([0]);
        hash.update(reference.value().as_bytes());
        ChaCha8Rng::from_seed(hash.finalize().into())
    }

    /// The seeded fate of a number that is not a scripted one.
    fn seeded_fate(&self, rng: &mut ChaCha8Rng) -> SeededFate {
        let roll: u8 = rng.random_range(0..100);
        let Chances {
            not_found,
            awaiting_manifest,
            cancelled,
        } = self.chances;
        if roll < not_found {
            SeededFate::Unknown
        } else if roll < not_found.saturating_add(awaiting_manifest) {
            SeededFate::AwaitingManifest
        } else if roll
            < not_found
                .saturating_add(awaiting_manifest)
                .saturating_add(cancelled)
        {
            SeededFate::Cancelled
        } else {
            SeededFate::Sails
        }
    }

    fn vessel(rng: &mut ChaCha8Rng) -> Vessel {
        let mut six = [9u8, 0, 0, 0, 0, 0];
        for digit in &mut six[1..] {
            *digit = rng.random_range(0..10);
        }
        let check = data::imo_check_digit(six);
        let imo: String = six
            .iter()
            .chain(std::iter::once(&check))
            .map(|d| char::from(b'0' + d))
            .collect();
        Vessel {
            imo,
            name: pick(rng, data::VESSEL_NAMES).to_owned(),
            flag: pick(rng, data::FLAGS),
        }
    }

    fn container(rng: &mut ChaCha8Rng, scac: &str, given: Option<&str>) -> Container {
        let number = given.map_or_else(
            || {
                let prefixes = data::container_prefixes(scac);
                let prefix = &prefixes[rng.random_range(0..prefixes.len())];
                let serial: u32 = rng.random_range(0..1_000_000);
                let body = format!("{prefix}{serial:06}");
                let check = data::iso6346_check_digit(&body).unwrap_or(0);
                format!("{body}{check}")
            },
            str::to_owned,
        );
        Container {
            number,
            iso_code: pick(rng, &["45G1", "42G1", "22G1", "45R1"]),
            seal: format!(
                "{}{:07}",
                &scac[..2.min(scac.len())],
                rng.random_range(0..10_000_000)
            ),
            offset_minutes: rng.random_range(0..180),
        }
    }

    /// The shipment behind `reference` at `scac`, placed as `placement` says. `None` when the
    /// reference cannot name a shipment (an equipment reference that is not a valid
    /// container number).
    #[must_use]
    pub fn shipment(
        &self,
        scac: &str,
        reference: &Reference,
        placement: Placement,
        scripted: Option<Outcome>,
    ) -> Option<Shipment> {
        let mut rng = self.rng(scac, reference);
        let seeded = self.seeded_fate(&mut rng);
        let (booking, transport_document, first_container) = match reference {
            Reference::Booking(value) | Reference::TransportDocument(value) => {
                (value.clone(), value.clone(), None)
            }
            Reference::Equipment(value) => {
                if !data::is_container_number(value) {
                    return None;
                }
                let booking = format!(
                    "{}{:09}",
                    &scac[..2.min(scac.len())],
                    rng.random_range(0..1_000_000_000u32)
                );
                (booking.clone(), booking, Some(value.as_str()))
            }
        };

        let booked_at = match placement {
            Placement::AtEpoch => self.epoch,
            Placement::Before(before) => self.epoch - before,
            Placement::Seeded => match (scripted, seeded) {
                (None, SeededFate::AwaitingManifest) => self.epoch - hours(&mut rng, 0..=48),
                _ => self.epoch - hours(&mut rng, 0..=40 * 24),
            },
        };
        let manifested_at = match (scripted, seeded) {
            (None, SeededFate::AwaitingManifest) => self.epoch + hours(&mut rng, 24..=96),
            _ => booked_at + Duration::hours(2),
        };
        let cancelled_at = booked_at + hours(&mut rng, 12..=72);
        let fate = match (scripted, seeded) {
            (Some(Outcome::Sails), _)
            | (None, SeededFate::Sails | SeededFate::AwaitingManifest) => Fate::Sails,
            (Some(Outcome::Unknown), _) | (None, SeededFate::Unknown) => Fate::Unknown,
            (Some(Outcome::Cancelled), _) | (None, SeededFate::Cancelled) => {
                Fate::Cancelled(cancelled_at)
            }
        };

        let empty_out = manifested_at + hours(&mut rng, 12..=72);
        let full_in = empty_out + hours(&mut rng, 24..=72);
        let origin = pick(&mut rng, data::ORIGINS);
        let destination = pick(&mut rng, data::DESTINATIONS);
        let hub = (rng.random_range(0..100) < 40).then(|| pick(&mut rng, data::HUBS));

        let legs: Vec<(Port, Port)> = match hub {
            Some(hub) => vec![(origin, hub), (hub, destination)],
            None => vec![(origin, destination)],
        };
        let service = format!(
            "{}{}",
            pick(&mut rng, &["AE", "TP", "FE", "AX", "NE"]),
            rng.random_range(1..10)
        );
        let mut calls: Vec<Call> = Vec::with_capacity(legs.len() * 2);
        let mut delay = Duration::ZERO;
        let mut next_arrival = full_in + hours(&mut rng, 24..=96);
        for (leg, (from, to)) in legs.iter().enumerate() {
            let vessel = Self::vessel(&mut rng);
            let voyage = format!(
                "{}{}",
                rng.random_range(100..999),
                pick(&mut rng, &["W", "E", "N", "S"])
            );
            let sea = match (hub.is_some(), leg) {
                (true, 0) => 6 * 24..=12 * 24,
                (true, _) => 18 * 24..=28 * 24,
                (false, _) => 20 * 24..=34 * 24,
            };
            let load_arrival = next_arrival;
            let load_departure = load_arrival + hours(&mut rng, 18..=60);
            let discharge_arrival = load_departure + hours(&mut rng, sea);
            let discharge_departure = discharge_arrival + hours(&mut rng, 18..=48);
            for (port, role, planned_arrival, planned_departure) in [
                (*from, Role::Load, load_arrival, load_departure),
                (*to, Role::Discharge, discharge_arrival, discharge_departure),
            ] {
                delay += hours(&mut rng, -8..=30);
                let arrival = planned_arrival + delay;
                let departure = (planned_departure + delay).max(arrival + Duration::hours(6));
                let sequence = u32::try_from(calls.len() + 1).unwrap_or(u32::MAX);
                calls.push(Call {
                    port,
                    id: format!("{scac}-{transport_document}-{sequence}"),
                    sequence,
                    role,
                    leg: u32::try_from(leg).unwrap_or(u32::MAX),
                    vessel: vessel.clone(),
                    voyage: voyage.clone(),
                    service: service.clone(),
                    planned_arrival,
                    planned_departure,
                    arrival,
                    departure,
                });
            }
            // The onward vessel calls at the hub a day or more after the first one.
            next_arrival = discharge_arrival + hours(&mut rng, 24..=96);
        }
        let discharge = calls[calls.len() - 1].arrival;
        let full_out = discharge + hours(&mut rng, 36..=144);
        let empty_in = full_out + hours(&mut rng, 48..=192);
        let count = rng.random_range(1..=3);
        let containers = (0..count)
            .map(|i| {
                Self::container(
                    &mut rng,
                    scac,
                    (i == 0).then_some(first_container).flatten(),
                )
            })
            .collect();
        Some(Shipment {
            scac: scac.to_owned(),
            booking,
            transport_document,
            fate,
            booked_at,
            manifested_at,
            empty_out,
            full_in,
            calls,
            full_out,
            empty_in,
            containers,
        })
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum SeededFate {
    Sails,
    Unknown,
    AwaitingManifest,
    Cancelled,
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    fn world() -> World {
        World {
            seed: 7,
            epoch: datetime!(2026-06-01 0:00 UTC),
            chances: Chances::default(),
        }
    }

    #[test]
    fn the_same_reference_gives_the_same_shipment() {
        let world = world();
        let reference = Reference::TransportDocument("MAEU123456789".to_owned());
        let a = world.shipment("MAEU", &reference, Placement::Seeded, None);
        let b = world.shipment("MAEU", &reference, Placement::Seeded, None);
        assert_eq!(a, b);
        let other = world.shipment(
            "MAEU",
            &Reference::TransportDocument("MAEU123456780".to_owned()),
            Placement::Seeded,
            None,
        );
        assert_ne!(a, other);
        let reseeded = World { seed: 8, ..world };
        assert_ne!(
            a,
            reseeded.shipment("MAEU", &reference, Placement::Seeded, None)
        );
    }

    #[test]
    fn shipments_are_plausible() {
        let world = world();
        let mut transshipments = 0;
        for i in 0..300 {
            let reference = Reference::Booking(format!("B{i:08}"));
            let shipment = world
                .shipment("MSCU", &reference, Placement::Seeded, None)
                .expect("a booking always names a shipment");
            assert!(shipment.booked_at <= shipment.manifested_at);
            assert!(shipment.manifested_at < shipment.empty_out);
            assert!(shipment.empty_out < shipment.full_in);
            assert!(shipment.full_in < shipment.calls[0].planned_arrival);
            for pair in shipment.calls.windows(2) {
                assert!(pair[0].arrival < pair[1].arrival, "{reference:?}");
            }
            for leg in shipment.calls.chunks(2) {
                assert_eq!(leg[0].role, Role::Load);
                assert_eq!(leg[1].role, Role::Discharge);
                assert_eq!(leg[0].vessel, leg[1].vessel);
                assert!(leg[0].departure < leg[1].arrival);
            }
            for call in &shipment.calls {
                assert!(call.arrival < call.departure);
                assert_eq!(call.vessel.imo.len(), 7);
                let digits: Vec<u8> = call.vessel.imo.bytes().map(|b| b - b'0').collect();
                let six: [u8; 6] = digits[..6].try_into().expect("six");
                assert_eq!(data::imo_check_digit(six), digits[6]);
            }
            assert!(shipment.calls.last().expect("calls").arrival < shipment.full_out);
            assert!(shipment.full_out < shipment.empty_in);
            for container in &shipment.containers {
                assert!(
                    data::is_container_number(&container.number),
                    "{}",
                    container.number
                );
                assert!(
                    data::container_prefixes("MSCU").contains(&container.number[..4].to_owned())
                );
            }
            transshipments += usize::from(shipment.calls.len() == 4);
        }
        assert!(
            (60..180).contains(&transshipments),
            "{transshipments} of 300"
        );
    }

    #[test]
    fn fates_follow_the_chances() {
        let world = world();
        let mut unknown = 0;
        let mut cancelled = 0;
        let mut late_manifest = 0;
        for i in 0..2_000 {
            let shipment = world
                .shipment(
                    "ONEY",
                    &Reference::Booking(format!("X{i}")),
                    Placement::Seeded,
                    None,
                )
                .expect("shipment");
            match shipment.fate {
                Fate::Unknown => unknown += 1,
                Fate::Cancelled(_) => cancelled += 1,
                Fate::Sails => late_manifest += usize::from(shipment.manifested_at > world.epoch),
            }
        }
        assert!((40..130).contains(&unknown), "{unknown}");
        assert!((15..70).contains(&cancelled), "{cancelled}");
        assert!((60..190).contains(&late_manifest), "{late_manifest}");
    }

    #[test]
    fn a_container_query_puts_that_container_first() {
        let world = world();
        let shipment = world
            .shipment(
                "MAEU",
                &Reference::Equipment("CSQU3054383".to_owned()),
                Placement::Seeded,
                None,
            )
            .expect("valid number");
        assert_eq!(shipment.containers[0].number, "CSQU3054383");
        assert!(
            world
                .shipment(
                    "MAEU",
                    &Reference::Equipment("CSQU3054384".to_owned()),
                    Placement::Seeded,
                    None
                )
                .is_none()
        );
    }
}
