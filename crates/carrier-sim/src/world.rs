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

mod model;

pub use model::{Call, Chances, Container, Fate, Outcome, Reference, Role, Shipment, Vessel};

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
    /// The first vessel leaves its port of loading this long after the epoch, the
    /// containers on board (a voyage about to sail).
    Departing(Duration),
    /// Booked this long before the epoch.
    Before(Duration),
    /// The vessel arrives at the port of discharge this long after the epoch (before it,
    /// when negative): the terminal's scripted numbers.
    Discharging(Duration),
}

impl World {
    /// The same world with its shipments placed around `epoch` (a scripted number's own,
    /// the instant it was first asked about).
    #[must_use]
    pub fn around(&self, epoch: OffsetDateTime) -> Self {
        Self {
            epoch,
            ..self.clone()
        }
    }

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
            Placement::AtEpoch | Placement::Departing(_) | Placement::Discharging(_) => self.epoch,
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

        let calls = Self::calls(
            &mut rng,
            scac,
            &transport_document,
            (origin, hub, destination),
            full_in,
        );
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
        let shipment = Shipment {
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
        };
        Some(self.placed(shipment, placement))
    }

    /// `shipment` moved to where `placement` puts its arrival, if it says.
    fn placed(&self, shipment: Shipment, placement: Placement) -> Shipment {
        match placement {
            Placement::Discharging(arrival) => {
                let by = self.epoch + arrival - shipment.destination_arrival();
                shipment.shifted(by)
            }
            Placement::Departing(departure) => {
                let by = self.epoch + departure - shipment.calls[0].departure;
                shipment.shifted(by)
            }
            _ => shipment,
        }
    }

    /// The vessel calls of a voyage from `route`'s origin (through its hub, if any) to its
    /// destination, the first arrival after `full_in`, each delayed by a drift that builds
    /// up call after call.
    fn calls(
        rng: &mut ChaCha8Rng,
        scac: &str,
        transport_document: &str,
        route: (Port, Option<Port>, Port),
        full_in: OffsetDateTime,
    ) -> Vec<Call> {
        let (origin, hub, destination) = route;
        let legs: Vec<(Port, Port)> = match hub {
            Some(hub) => vec![(origin, hub), (hub, destination)],
            None => vec![(origin, destination)],
        };
        let service = format!(
            "{}{}",
            pick(rng, &["AE", "TP", "FE", "AX", "NE"]),
            rng.random_range(1..10)
        );
        let mut calls: Vec<Call> = Vec::with_capacity(legs.len() * 2);
        let mut delay = Duration::ZERO;
        let mut next_arrival = full_in + hours(rng, 24..=96);
        for (leg, (from, to)) in legs.iter().enumerate() {
            let vessel = Self::vessel(rng);
            let voyage = format!(
                "{}{}",
                rng.random_range(100..999),
                pick(rng, &["W", "E", "N", "S"])
            );
            let sea = match (hub.is_some(), leg) {
                (true, 0) => 6 * 24..=12 * 24,
                (true, _) => 18 * 24..=28 * 24,
                (false, _) => 20 * 24..=34 * 24,
            };
            let load_arrival = next_arrival;
            let load_departure = load_arrival + hours(rng, 18..=60);
            let discharge_arrival = load_departure + hours(rng, sea);
            let discharge_departure = discharge_arrival + hours(rng, 18..=48);
            for (port, role, planned_arrival, planned_departure) in [
                (*from, Role::Load, load_arrival, load_departure),
                (*to, Role::Discharge, discharge_arrival, discharge_departure),
            ] {
                delay += hours(rng, -8..=30);
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
            next_arrival = discharge_arrival + hours(rng, 24..=96);
        }
        calls
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
mod tests;
