//! The tracking-request lifecycle (api.md §2) as an explicit state machine: one table of
//! (state, observation, guard) → (next state, effects), and one function that applies it.
//! `is_retrying`, `retry_count` and `failed_reason` are only ever set here.

use std::time::Duration;

mod effect;
mod policy;

use effect::{Effect, apply};
pub use policy::{Policies, Policy};

use crate::{FailedReason, LookupOutcome, RequestStatus, RequestType, Timestamp, TrackingRequest};

/// What the tracker learned about a request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Observation {
    /// The carrier has the shipment.
    Found,
    /// A bill of lading or booking the carrier does not know yet (or has not manifested).
    NotYetKnown,
    /// A container the carrier does not know.
    ContainerNotFound,
    /// A reason to give up at once: invalid number, booking cancelled, data unavailable.
    Permanent(FailedReason),
    /// A reason to try again: the carrier unreachable, an unreadable answer, an internal error.
    Temporary(FailedReason),
    /// A reason to try again, not sooner than the carrier asked (`Retry-After`).
    TemporaryAfter(FailedReason, Duration),
    /// Auto-detection found no carrier for the number.
    NoCarrier,
    /// Tracking of the shipment stopped (by the user, or automatically).
    Stopped,
    /// The client resumed tracking of a stopped shipment.
    Resumed,
}

impl Observation {
    /// What a carrier lookup's outcome means for a request of `kind`.
    #[must_use]
    pub fn of(outcome: &LookupOutcome, kind: RequestType) -> Self {
        match outcome {
            LookupOutcome::Found(_) => Self::Found,
            LookupOutcome::NotYetManifested => Self::NotYetKnown,
            LookupOutcome::NotFound if kind == RequestType::Container => Self::ContainerNotFound,
            LookupOutcome::NotFound => Self::NotYetKnown,
            LookupOutcome::Unknown => Self::Permanent(FailedReason::NotFound),
            LookupOutcome::InvalidNumber(_) => Self::Permanent(FailedReason::InvalidNumber),
            LookupOutcome::BookingCancelled => Self::Permanent(FailedReason::BookingCancelled),
            LookupOutcome::DataUnavailable => Self::Permanent(FailedReason::DataUnavailable),
            LookupOutcome::Temporary(reason) => match reason.retry_after() {
                Some(wait) => Self::TemporaryAfter(reason.failed_reason(), wait),
                None => Self::Temporary(reason.failed_reason()),
            },
        }
    }
}

/// The webhook-visible events of a request (`tracking_request.*`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RequestEvent {
    /// `tracking_request.succeeded`
    Succeeded,
    /// `tracking_request.awaiting_manifest`
    AwaitingManifest,
    /// `tracking_request.failed`
    Failed,
    /// `tracking_request.tracking_stopped`
    TrackingStopped,
}

impl RequestEvent {
    /// The event's name.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Succeeded => "tracking_request.succeeded",
            Self::AwaitingManifest => "tracking_request.awaiting_manifest",
            Self::Failed => "tracking_request.failed",
            Self::TrackingStopped => "tracking_request.tracking_stopped",
        }
    }
}

/// The next job a transition asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Next {
    /// Nothing more for this request.
    Nothing,
    /// Look it up again at this time.
    Lookup(Timestamp),
    /// Refresh the shipment, at the cadence of its phase (`tracking::next_refresh`).
    Refresh,
}

/// The states a row applies to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Whence {
    Pending,
    AwaitingManifest,
    /// `pending` or `awaiting_manifest`.
    Looking,
    Created,
    Stopped,
}

impl Whence {
    const fn matches(self, status: RequestStatus) -> bool {
        matches!(
            (self, status),
            (Self::Pending, RequestStatus::Pending)
                | (Self::AwaitingManifest, RequestStatus::AwaitingManifest)
                | (
                    Self::Looking,
                    RequestStatus::Pending | RequestStatus::AwaitingManifest
                )
                | (Self::Created, RequestStatus::Created)
                | (Self::Stopped, RequestStatus::TrackingStopped)
        )
    }
}

/// The kind of observation a row is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum On {
    Found,
    NotYetKnown,
    ContainerNotFound,
    Permanent,
    Temporary,
    NoCarrier,
    Stopped,
    Resumed,
}

impl On {
    const fn of(observation: Observation) -> Self {
        match observation {
            Observation::Found => Self::Found,
            Observation::NotYetKnown => Self::NotYetKnown,
            Observation::ContainerNotFound => Self::ContainerNotFound,
            Observation::Permanent(_) => Self::Permanent,
            Observation::Temporary(_) | Observation::TemporaryAfter(..) => Self::Temporary,
            Observation::NoCarrier => Self::NoCarrier,
            Observation::Stopped => Self::Stopped,
            Observation::Resumed => Self::Resumed,
        }
    }
}

/// An extra condition of a row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Guard {
    Always,
    /// Less than `manifest_expiry` since creation.
    BeforeExpiry,
    /// `manifest_expiry` or more since creation.
    Expired,
    /// Fewer than `max_retries` retries so far.
    RetriesLeft,
    /// `max_retries` retries done.
    RetriesUsedUp,
}

/// One row of the lifecycle table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Row {
    from: Whence,
    on: On,
    guard: Guard,
    effect: Effect,
}

const fn row(from: Whence, on: On, guard: Guard, effect: Effect) -> Row {
    Row {
        from,
        on,
        guard,
        effect,
    }
}

/// The lifecycle table of api.md §2, in its order, and the resume of §4.
const TABLE: [Row; 12] = [
    row(Whence::Pending, On::Found, Guard::Always, Effect::Track),
    row(
        Whence::Pending,
        On::NotYetKnown,
        Guard::Always,
        Effect::AwaitManifest,
    ),
    row(
        Whence::AwaitingManifest,
        On::Found,
        Guard::Always,
        Effect::Track,
    ),
    row(
        Whence::AwaitingManifest,
        On::NotYetKnown,
        Guard::BeforeExpiry,
        Effect::AwaitManifest,
    ),
    row(
        Whence::AwaitingManifest,
        On::NotYetKnown,
        Guard::Expired,
        Effect::Fail(Some(FailedReason::Expired)),
    ),
    row(
        Whence::Pending,
        On::ContainerNotFound,
        Guard::Always,
        Effect::Fail(Some(FailedReason::NotFound)),
    ),
    row(
        Whence::Looking,
        On::Permanent,
        Guard::Always,
        Effect::Fail(None),
    ),
    row(
        Whence::Looking,
        On::Temporary,
        Guard::RetriesLeft,
        Effect::Retry,
    ),
    row(
        Whence::Looking,
        On::Temporary,
        Guard::RetriesUsedUp,
        Effect::Fail(Some(FailedReason::RetriesExhausted)),
    ),
    row(
        Whence::Pending,
        On::NoCarrier,
        Guard::Always,
        Effect::Fail(Some(FailedReason::ScacAutoDetectFailed)),
    ),
    row(Whence::Created, On::Stopped, Guard::Always, Effect::Stop),
    row(Whence::Stopped, On::Resumed, Guard::Always, Effect::Resume),
];

/// A request's new state, the events it emits and its next job.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Transition {
    /// The request as it now stands (`updated_at` set to now).
    pub request: TrackingRequest,
    /// Events to record, in order.
    pub events: Vec<RequestEvent>,
    /// The next job.
    pub next: Next,
}

/// A state and observation the table has no row for (e.g. a lookup of a failed request).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("no lifecycle transition from {status} on {observation:?}")]
pub struct NoTransition {
    /// The request's state.
    pub status: RequestStatus,
    /// What was observed.
    pub observation: Observation,
}

/// Applies the table.
///
/// # Errors
/// When no row matches: the observation does not apply to a request in this state.
pub fn transition(
    request: &TrackingRequest,
    observation: Observation,
    now: Timestamp,
    policy: &Policy,
) -> Result<Transition, NoTransition> {
    let row = matching_row(request, observation, now, policy).ok_or(NoTransition {
        status: request.status,
        observation,
    })?;
    let mut next_request = request.clone();
    next_request.updated_at = now;
    let mut events = Vec::new();
    let next = apply(
        row.effect,
        &mut next_request,
        &mut events,
        observation,
        now,
        policy,
    );
    Ok(Transition {
        request: next_request,
        events,
        next,
    })
}

/// The row of the table for `request` and `observation`, its guard checked at `now`.
fn matching_row(
    request: &TrackingRequest,
    observation: Observation,
    now: Timestamp,
    policy: &Policy,
) -> Option<&'static Row> {
    let age = now.as_datetime() - request.created_at.as_datetime();
    let expired = age >= policy.manifest_expiry;
    let retries = request.retry_count.unwrap_or(0);
    let guard_holds = |guard: Guard| match guard {
        Guard::Always => true,
        Guard::BeforeExpiry => !expired,
        Guard::Expired => expired,
        Guard::RetriesLeft => retries < policy.max_retries,
        Guard::RetriesUsedUp => retries >= policy.max_retries,
    };
    TABLE.iter().find(|row| {
        row.from.matches(request.status) && row.on == On::of(observation) && guard_holds(row.guard)
    })
}

#[cfg(test)]
mod tests;
