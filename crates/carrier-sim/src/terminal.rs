//! The terminals of discharge: what a container terminal knows of the import boxes the
//! simulated vessels bring it, answered in Tidemark's terminal protocol
//! (`POST /terminals/{CODE}/import-availability`, `docs/terminals.md`).
//!
//! A terminal knows a box once a carrier of the simulator has served its shipment (the
//! [`Index`]: a terminal learns of its imports from the lines' manifests), at the terminal
//! of its port of discharge only, from three days before the vessel arrives. What happens
//! to the box there follows the voyage: discharged eight hours after arrival (as the
//! carrier's `DISC`), available some hours later once no hold is in force, a terminal last
//! free day four days after discharge, demurrage for each day past it, an appointment
//! before the carrier's gate-out, out-gated at the carrier's `GTOT`. Holds, exams and their
//! clearing are seeded per box, or scripted for the sandbox's terminal numbers
//! ([`TerminalScript`](crate::scenario::TerminalScript)).

pub mod notice;
mod plan;
pub mod subscriptions;

use std::collections::{HashMap, VecDeque};

use serde_json::{Value, json};
use time::OffsetDateTime;

use crate::timeline::timestamp;
use crate::world::{Outcome, Placement, Reference, Shipment, World};

pub use plan::Plan;

/// Most boxes a terminal remembers; the oldest are forgotten first.
const INDEX_CAP: usize = 200_000;

/// How a carrier named the shipment a box travels on, to find that shipment again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Visit {
    /// The carrier.
    pub scac: String,
    /// The reference it was asked about.
    pub reference: Reference,
    /// How its timeline is placed.
    pub placement: Placement,
    /// Its scripted fate, if any.
    pub outcome: Option<Outcome>,
    /// The epoch its timeline is placed around ([`crate::Simulator::world_of`]).
    pub epoch: OffsetDateTime,
}

impl Visit {
    /// The shipment visited, as `world` places it around the visit's epoch.
    #[must_use]
    pub fn shipment(&self, world: &World) -> Option<Shipment> {
        world
            .around(self.epoch)
            .shipment(&self.scac, &self.reference, self.placement, self.outcome)
    }
}

/// The boxes the terminals know of, by container number.
#[derive(Debug, Default)]
pub struct Index {
    visits: HashMap<String, Visit>,
    order: VecDeque<String>,
}

impl Index {
    /// Remembers the boxes of `shipment`, found by `visit`.
    pub fn remember(&mut self, shipment: &Shipment, visit: &Visit) {
        for container in &shipment.containers {
            if self
                .visits
                .insert(container.number.clone(), visit.clone())
                .is_none()
            {
                self.order.push_back(container.number.clone());
            }
        }
        while self.order.len() > INDEX_CAP {
            if let Some(oldest) = self.order.pop_front() {
                self.visits.remove(&oldest);
            }
        }
    }

    /// How the shipment of box `number` was found, if a carrier served it.
    #[must_use]
    pub fn visit(&self, number: &str) -> Option<&Visit> {
        self.visits.get(number)
    }
}

/// What terminal `code` says at `now` of box `number`, one entry of the protocol's answer.
#[must_use]
pub fn entry(world: &World, index: &Index, code: &str, number: &str, now: OffsetDateTime) -> Value {
    let unknown = json!({"containerNumber": number, "known": false});
    let Some(visit) = index.visit(number) else {
        return unknown;
    };
    let Some(shipment) = visit.shipment(world) else {
        return unknown;
    };
    let Some(container) = shipment.containers.iter().find(|c| c.number == number) else {
        return unknown;
    };
    if !shipment.destination().terminal.eq_ignore_ascii_case(code) {
        return unknown;
    }
    let plan = Plan::new(
        &world.around(visit.epoch),
        &shipment,
        container,
        &visit.reference,
    );
    plan.entry(number, now).unwrap_or(unknown)
}

fn time(at: Option<OffsetDateTime>) -> Value {
    at.map_or(Value::Null, |at| Value::String(timestamp(at)))
}

#[cfg(test)]
mod tests;
