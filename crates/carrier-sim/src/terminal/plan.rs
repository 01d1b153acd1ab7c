//! What a terminal does with one box over time, from the voyage and a seed (or a script),
//! and what it says of the box at a given instant.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use time::{Duration, OffsetDateTime, Time};

use super::time;
use crate::scenario::{LFD_EXTENDED_AFTER, TerminalScript, terminal_script};
use crate::world::{Container, Reference, Shipment, World};

/// Demurrage per day past the last free day, in USD.
const DEMURRAGE_PER_DAY: u32 = 150;

/// A customs exam, in USD.
const EXAM_FEE: f64 = 212.5;

/// What customs does with a box.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Customs {
    /// The hold lifts.
    pub(super) until: OffsetDateTime,
    /// An exam charged then, when the box is examined.
    exam_at: Option<OffsetDateTime>,
}

/// One box's stay at its terminal of discharge.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    pub(super) known_from: OffsetDateTime,
    pub(super) discharged: OffsetDateTime,
    ready_from: OffsetDateTime,
    pub(super) out_gate: OffsetDateTime,
    pub(super) customs: Option<Customs>,
    pub(super) freight_until: Option<OffsetDateTime>,
    pub(super) last_free_day: OffsetDateTime,
    pub(super) extended: Option<(OffsetDateTime, OffsetDateTime)>,
    /// A customs hold placed after the release, from and until, during which the
    /// terminal's availability flag lags and still says available.
    pub(super) recalled: Option<(OffsetDateTime, OffsetDateTime)>,
    yard: String,
}

fn rng(world: &World, number: &str) -> ChaCha8Rng {
    let mut hash = Sha256::new();
    hash.update(world.seed.to_be_bytes());
    hash.update(b"terminal\0");
    hash.update(number.as_bytes());
    ChaCha8Rng::from_seed(hash.finalize().into())
}

fn hours(rng: &mut ChaCha8Rng, range: std::ops::RangeInclusive<i64>) -> Duration {
    Duration::hours(rng.random_range(range))
}

/// The end of the day `days` after `at`'s, in UTC.
fn end_of_day(at: OffsetDateTime, days: i64) -> OffsetDateTime {
    (at.date() + Duration::days(days))
        .with_time(Time::from_hms(23, 59, 0).unwrap_or(Time::MIDNIGHT))
        .assume_utc()
}

impl Plan {
    /// The stay of `container` of `shipment`, found by `reference`, in `world` (placed
    /// around the shipment's epoch).
    #[must_use]
    pub fn new(
        world: &World,
        shipment: &Shipment,
        container: &Container,
        reference: &Reference,
    ) -> Self {
        let offset = Duration::minutes(container.offset_minutes);
        let arrival = shipment.destination_arrival();
        let discharged = arrival + Duration::hours(8) + offset;
        let out_gate = shipment.full_out + offset;
        let mut rng = rng(world, &container.number);
        let mut plan = Self {
            known_from: arrival - Duration::days(3),
            discharged,
            ready_from: discharged + hours(&mut rng, 2..=10),
            out_gate,
            customs: None,
            freight_until: None,
            last_free_day: end_of_day(discharged, 4),
            extended: None,
            recalled: None,
            yard: format!(
                "Row {} Bay {} Tier {}",
                rng.random_range(1..=40),
                rng.random_range(1..=60),
                rng.random_range(1..=5)
            ),
        };
        match terminal_script(&shipment.scac, reference.value()) {
            Some(TerminalScript::Holds) => {
                plan.customs = Some(Customs {
                    until: discharged + Duration::days(1),
                    exam_at: Some(discharged + Duration::hours(6)),
                });
                plan.freight_until = Some(discharged + Duration::hours(12));
            }
            Some(TerminalScript::LfdExtended) => {
                plan.last_free_day = end_of_day(discharged, 3);
                let at = world.epoch + LFD_EXTENDED_AFTER;
                plan.extended = Some((at.max(discharged), end_of_day(discharged, 5)));
            }
            Some(TerminalScript::ReleaseTakenBack) => {
                plan.ready_from = discharged + Duration::hours(2);
                plan.recalled = Some((
                    discharged + Duration::hours(10),
                    discharged + Duration::hours(20),
                ));
            }
            None => plan.seed_holds(&mut rng),
        }
        plan
    }

    /// Seeded holds: one box in five held by customs (half of those examined), one in
    /// seven by the line for its freight; each lifts before the box leaves.
    fn seed_holds(&mut self, rng: &mut ChaCha8Rng) {
        let latest = self.out_gate - Duration::hours(3);
        if rng.random_range(0..100) < 20 {
            let until = (self.discharged + hours(rng, 12..=60)).min(latest);
            let examined = rng.random_bool(0.5);
            self.customs = Some(Customs {
                until,
                exam_at: examined.then(|| self.discharged + Duration::hours(4)),
            });
        }
        if rng.random_range(0..100) < 15 {
            self.freight_until = Some((self.discharged + hours(rng, 6..=36)).min(latest));
        }
    }

    fn holds(&self, now: OffsetDateTime) -> Vec<Value> {
        let mut holds = Vec::new();
        if let Some(customs) = self.customs {
            if now < self.discharged {
                holds.push(json!({"type": "customs", "status": "pending",
                                  "description": "Awaiting customs release"}));
            } else if now < customs.until {
                holds.push(json!({"type": "customs", "status": "hold",
                                  "description": "Held by customs"}));
            }
        }
        if self
            .recalled
            .is_some_and(|(from, until)| from <= now && now < until)
        {
            holds.push(json!({"type": "customs", "status": "hold",
                              "description": "Held by customs after release"}));
        }
        if self.freight_until.is_some_and(|until| now < until) {
            holds.push(json!({"type": "freight", "status": "hold",
                              "description": "Freight not released by the line"}));
        }
        holds
    }

    pub(super) fn last_free_day(&self, now: OffsetDateTime) -> OffsetDateTime {
        match self.extended {
            Some((from, to)) if now >= from => to,
            _ => self.last_free_day,
        }
    }

    fn fees(&self, now: OffsetDateTime) -> Vec<Value> {
        let mut fees = Vec::new();
        let mut total = 0.0;
        let mut charge = |kind: &str, amount: f64| {
            fees.push(json!({"type": kind, "amount": amount, "currency": "USD"}));
            total += amount;
        };
        if let Some(Customs {
            exam_at: Some(at), ..
        }) = self.customs
            && now >= at
        {
            charge("exam", EXAM_FEE);
        }
        let late = now.min(self.out_gate) - self.last_free_day(now);
        if late > Duration::ZERO {
            // Each day begun past the last free day is charged whole.
            let days = u64::try_from(late.whole_seconds())
                .unwrap_or(0)
                .div_ceil(86_400);
            let days = u32::try_from(days).unwrap_or(u32::MAX);
            charge(
                "demurrage",
                f64::from(days.saturating_mul(DEMURRAGE_PER_DAY)),
            );
        }
        if !fees.is_empty() {
            fees.push(json!({"type": "total", "amount": total, "currency": "USD"}));
        }
        fees
    }

    /// The protocol's entry for box `number` at `now`; `None` before the terminal knows it.
    #[must_use]
    pub fn entry(&self, number: &str, now: OffsetDateTime) -> Option<Value> {
        if now < self.known_from {
            return None;
        }
        let landed = now >= self.discharged;
        let gone = now >= self.out_gate;
        let holds = if gone { Vec::new() } else { self.holds(now) };
        // A hold placed after the release leaves the availability flag as it was: the
        // terminal's two fields disagree, as real ones do for a while.
        let recalled = self
            .recalled
            .is_some_and(|(from, until)| from <= now && now < until);
        let blocked = !recalled && holds.iter().any(|hold| hold["status"] == "hold");
        let available = landed && !gone && now >= self.ready_from && !blocked;
        let appointment = available.then(|| self.out_gate - Duration::minutes(90));
        Some(json!({
            "containerNumber": number,
            "known": true,
            "available": available,
            "holds": holds,
            "fees": if landed { self.fees(now) } else { Vec::new() },
            "lastFreeDay": time(landed.then(|| self.last_free_day(now))),
            "appointment": time(appointment.filter(|at| *at > now)),
            "yardLocation": (landed && !gone).then(|| self.yard.clone()),
            "terminal": Value::Null,
            "pickupFacility": Value::Null,
            "outGateAt": time(gone.then_some(self.out_gate)),
        }))
    }
}
