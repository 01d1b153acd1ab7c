//! What happens to a tracking request, decided in one place. Whoever observes something (the
//! tracker a carrier's answer, the API a client's stop or resume) calls [`decide`] with
//! the stored state and the configured policy, and commits the [`Change`] it returns in one
//! transaction. Pure: no I/O here.
//!
//! - `decide`: the observation's change (the lifecycle table for requests still looking,
//!   the snapshot diff and the auto-stop rules for tracked ones, the client's stop and
//!   resume);
//! - `change`: the [`Change`] value and the freezing of its events' records;
//! - `diff` and `builder`: what a carrier's new answer changes in a tracked shipment
//!   ([`apply_snapshot`]), and the events it records;
//! - `terminal`: what a terminal check changes in a tracked shipment's containers;
//! - `cadence`: when to look again, and when tracking stops by itself;
//! - `prediction`: Tidemark's own arrival estimate kept, and its divergence from the
//!   carrier's recorded.
//!
//! Rules of the diff:
//! - a transport event is recorded once per (container, event, location, time);
//! - a `container.transport.<milestone>` event fires once per container, milestone and
//!   location, including for milestones already past when tracking starts;
//! - estimate events fire when an estimate of a known shipment changes, never for the
//!   first answer;
//! - `container.created` fires for containers added after the shipment was found (the
//!   first answer's containers come with `tracking_request.succeeded`);
//! - `container.updated` fires when the seal, the equipment or the terminal of discharge
//!   changes, with a changeset.

use crate::{DomainEvent, Scac, Shipment, Timestamp, Tracked, TrackingRequest, TrackingSource};

mod builder;
mod cadence;
mod change;
mod decide;
mod details;
mod diff;
mod prediction;
mod terminal;
#[cfg(test)]
mod tests;

pub use cadence::{
    auto_stop, first_terminal_check, next_refresh, next_terminal_check, terminal_checks,
    terminal_retry, terminal_subscriptions,
};
pub use change::{Change, Delta};
pub use decide::{Cause, LookupAnswer, decide};
pub use diff::apply_snapshot;
pub use prediction::{Prediction, STEP as PREDICTION_STEP, apart, sailing};
pub use terminal::TerminalAnswer;

/// Who is tracking, and when.
#[derive(Debug, Clone, Copy)]
pub struct Context<'a> {
    /// The tracking request.
    pub request: &'a TrackingRequest,
    /// Its carrier.
    pub scac: Scac,
    /// Where the data came from.
    pub source: TrackingSource,
    /// Now.
    pub now: Timestamp,
}

/// What a snapshot changes in the tracked shipment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SnapshotDiff {
    /// The shipment as it now stands.
    pub shipment: Shipment,
    /// Its containers, transport events and carrier events that change, and the reference
    /// data the snapshot names.
    pub delta: Delta,
    /// Domain events to record.
    pub events: Vec<DomainEvent>,
    /// Whether anything of the carrier's data changed.
    pub changed: bool,
}

impl SnapshotDiff {
    /// The state after the changes: `prior` with them applied.
    #[must_use]
    pub fn tracked(&self, prior: Option<&Tracked>) -> Tracked {
        self.delta.onto(prior, &self.shipment)
    }
}
