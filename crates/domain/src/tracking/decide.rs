//! What an observation changes in a tracking request: the one place that decides it. The
//! tracker and the API's stop and resume gather the inputs, call [`decide`] with the
//! configured policy, and hand the [`Change`] to the store.

use super::prediction::{self, Prediction};
use super::{Change, Context, auto_stop, first_terminal_check, next_refresh, next_terminal_check};
use crate::lifecycle::{self, Next, NoTransition, Observation, Policy, RequestEvent};
use crate::{
    DomainEvent, FailedReason, JobKind, LookupOutcome, NewJob, RequestStatus, Scac, ShipmentId,
    StopReason, Timestamp, Tracked, TrackingRequest, TrackingSource,
};

/// What a carrier said about a request's number, and which SCAC it was asked as.
#[derive(Debug, Clone, PartialEq)]
pub struct LookupAnswer {
    /// The carrier asked (detected, for auto-detection), if any.
    pub scac: Option<Scac>,
    /// Where the answer came from.
    pub source: TrackingSource,
    /// The answer; `None` when no carrier could be asked.
    pub outcome: Option<LookupOutcome>,
}

/// What happened to a tracking request.
#[derive(Debug, Clone, Copy)]
pub enum Cause<'a> {
    /// A lookup of the request's number answered.
    Lookup(&'a LookupAnswer),
    /// The client stopped tracking the shipment.
    Stop,
    /// The client resumed tracking the shipment.
    Resume,
    /// The terminal sources answered for the shipment's containers.
    Terminal(&'a super::TerminalAnswer),
    /// Tidemark estimated the shipment's arrival from its vessel's positions.
    Predicted(Prediction),
    /// The request cannot stay open: the carrier detected for it makes it a duplicate,
    /// say. The detected SCAC is kept.
    Refused {
        /// The carrier detected.
        scac: Option<Scac>,
        /// Why.
        reason: FailedReason,
    },
}

/// The change `cause` makes to `request`, whose tracked state is `prior`.
///
/// A lookup or a refusal the lifecycle has no row for (the request moved on) changes
/// nothing. Stopping a stopped shipment or resuming a tracked one changes nothing either.
///
/// # Errors
/// A stop or resume of a request the lifecycle cannot move (it failed, say).
pub fn decide(
    request: &TrackingRequest,
    prior: Option<&Tracked>,
    cause: Cause<'_>,
    now: Timestamp,
    policy: &Policy,
) -> Result<Change, NoTransition> {
    Ok(match cause {
        Cause::Lookup(answer) => match (request.status, prior) {
            (RequestStatus::Created, Some(prior)) => refresh(request, prior, answer, now, policy),
            _ => look_up(request, prior, answer, now, policy),
        },
        Cause::Stop | Cause::Resume => return user(request, prior, cause, now, policy),
        // Only a tracked shipment has containers at a terminal; otherwise, nothing.
        Cause::Terminal(answer) => match (request.status, prior) {
            (RequestStatus::Created, Some(prior)) => {
                let mut change = super::terminal::check(request, prior, answer, now);
                let tracked = change.delta.onto(Some(prior), &prior.shipment);
                change.terminal_check = if answer.off_cadence {
                    terminal_check(request, &tracked, now, policy)
                } else {
                    // Not before a source that failed asked to be asked again.
                    next_terminal_check(&tracked, now, policy)
                        .map(|at| answer.backoff.map_or(at, |backoff| at.max(backoff)))
                        .and_then(|at| job(request, JobKind::TerminalCheck, at))
                };
                change
            }
            _ => Change::none(request),
        },
        Cause::Predicted(found) => match (request.status, prior) {
            (RequestStatus::Created, Some(prior)) => {
                prediction::predicted(request, prior, found, now, policy)
            }
            _ => Change::none(request),
        },
        Cause::Refused { scac, reason } => {
            refuse(request, scac, reason, now, policy).unwrap_or_else(|| Change::none(request))
        }
    })
}

fn job(request: &TrackingRequest, kind: JobKind, due_at: Timestamp) -> Option<NewJob> {
    Some(NewJob {
        kind,
        key: request.id.to_string(),
        due_at,
        if_absent: false,
    })
}

/// The terminal check a lookup of `tracked` makes sure of, if any of its containers will
/// need one: the terminal checks keep their own cadence, and their backing off, once
/// started.
fn terminal_check(
    request: &TrackingRequest,
    tracked: &Tracked,
    now: Timestamp,
    policy: &Policy,
) -> Option<NewJob> {
    first_terminal_check(tracked, now, policy).map(|due_at| NewJob {
        kind: JobKind::TerminalCheck,
        key: request.id.to_string(),
        due_at,
        if_absent: true,
    })
}

fn request_event(request: &TrackingRequest, event: RequestEvent, now: Timestamp) -> DomainEvent {
    DomainEvent::for_request(
        request.account_id,
        request.id,
        request.tracked_object.map(ShipmentId::from_uuid),
        event,
        now,
    )
}

fn context<'a>(
    request: &'a TrackingRequest,
    scac: Scac,
    answer: &LookupAnswer,
    now: Timestamp,
) -> Context<'a> {
    Context {
        request,
        scac,
        source: answer.source,
        now,
    }
}

/// A request still looking (`pending`, `awaiting_manifest`): the lifecycle table decides.
fn look_up(
    request: &TrackingRequest,
    prior: Option<&Tracked>,
    answer: &LookupAnswer,
    now: Timestamp,
    policy: &Policy,
) -> Change {
    let observation = answer
        .outcome
        .as_ref()
        .map_or(Observation::NoCarrier, |outcome| {
            Observation::of(outcome, request.request_type)
        });
    let Ok(step) = lifecycle::transition(request, observation, now, policy) else {
        // Nothing applies (the request moved on): finish the job and change nothing.
        return Change::none(request);
    };
    let mut next_request = step.request;
    if next_request.scac.is_none() {
        next_request.scac = answer.scac;
    }
    let mut change = Change::to(request, next_request);
    change.events = step
        .events
        .iter()
        .map(|event| request_event(request, *event, now))
        .collect();
    let mut tracked = None;
    if let (Some(LookupOutcome::Found(snapshot)), Some(scac)) = (&answer.outcome, answer.scac)
        && change.request.status == RequestStatus::Created
    {
        let diff = super::apply_snapshot(prior, snapshot, &context(request, scac, answer, now));
        for event in &mut change.events {
            event.shipment_id = Some(diff.shipment.id);
        }
        tracked = Some(diff.tracked(prior));
        change.take(diff);
    }
    change.next = match step.next {
        Next::Nothing => None,
        Next::Lookup(at) => job(request, JobKind::Lookup, at),
        Next::Refresh => job(
            request,
            JobKind::Refresh,
            tracked.as_ref().map_or(now + policy.refresh, |tracked| {
                next_refresh(tracked, now, policy)
            }),
        ),
    };
    change.terminal_check = tracked
        .as_ref()
        .and_then(|tracked| terminal_check(request, tracked, now, policy));
    change.prediction = tracked
        .as_ref()
        .and_then(|tracked| prediction::job(request, tracked, now));
    change
}

/// A tracked request (`created`): the snapshot diff, then the auto-stop rules or the next
/// refresh at the cadence of the shipment's phase.
fn refresh(
    request: &TrackingRequest,
    prior: &Tracked,
    answer: &LookupAnswer,
    now: Timestamp,
    policy: &Policy,
) -> Change {
    let mut change = Change::none(request);
    let scac = answer.scac.unwrap_or(prior.shipment.scac);
    let (tracked, stop) = match &answer.outcome {
        Some(LookupOutcome::Found(snapshot)) => {
            let diff =
                super::apply_snapshot(Some(prior), snapshot, &context(request, scac, answer, now));
            let tracked = diff.tracked(Some(prior));
            // The carrier's new estimate may take it apart from Tidemark's.
            change.events.extend(prediction::diverged(
                &prior.shipment,
                &diff.shipment,
                now,
                policy,
            ));
            change.take(diff);
            let stop = auto_stop(&tracked, now, policy);
            (tracked, stop)
        }
        Some(LookupOutcome::BookingCancelled) => {
            let mut shipment = prior.shipment.clone();
            shipment.last_attempted_at = Some(now);
            shipment.last_succeeded_at = Some(now);
            change.shipment = Some(shipment);
            (prior.clone(), Some(StopReason::BookingCancelled))
        }
        _ => {
            // No news this time (a temporary problem, or the carrier forgot the number):
            // keep what is known and try again at the usual cadence.
            let mut shipment = prior.shipment.clone();
            shipment.last_attempted_at = Some(now);
            change.shipment = Some(shipment);
            (prior.clone(), auto_stop(prior, now, policy))
        }
    };
    match stop {
        Some(reason) => stop_tracking(&mut change, request, reason, now, policy),
        None => {
            change.next = job(
                request,
                JobKind::Refresh,
                next_refresh(&tracked, now, policy),
            );
            change.terminal_check = terminal_check(request, &tracked, now, policy);
            change.prediction = prediction::job(request, &tracked, now);
        }
    }
    change
}

/// Stops tracking by itself: the request moves to `tracking_stopped` and the shipment says
/// why.
fn stop_tracking(
    change: &mut Change,
    request: &TrackingRequest,
    reason: StopReason,
    now: Timestamp,
    policy: &Policy,
) {
    let Ok(step) = lifecycle::transition(request, Observation::Stopped, now, policy) else {
        return;
    };
    change.request = TrackingRequest {
        tracked_object: change.request.tracked_object,
        ..step.request
    };
    change.events.extend(
        step.events
            .iter()
            .map(|event| request_event(&change.request, *event, now)),
    );
    if let Some(shipment) = &mut change.shipment {
        shipment.stopped_at = Some(now);
        shipment.stopped_reason = Some(reason);
        shipment.updated_at = now;
    }
    change.next = None;
}

/// The client's stop or resume: the lifecycle moves the request, the shipment says so, and
/// a resumed request is looked at at once. Repeating one changes nothing.
fn user(
    request: &TrackingRequest,
    prior: Option<&Tracked>,
    cause: Cause<'_>,
    now: Timestamp,
    policy: &Policy,
) -> Result<Change, NoTransition> {
    let stop = matches!(cause, Cause::Stop);
    let observation = if stop {
        Observation::Stopped
    } else {
        Observation::Resumed
    };
    let Some(prior) = prior else {
        // No shipment yet: nothing to stop or resume.
        return Err(NoTransition {
            status: request.status,
            observation,
        });
    };
    if prior.shipment.stopped_at.is_some() == stop {
        return Ok(Change::none(request));
    }
    let step = lifecycle::transition(request, observation, now, policy)?;
    let mut shipment = prior.shipment.clone();
    shipment.stopped_at = stop.then_some(now);
    shipment.stopped_reason = stop.then_some(StopReason::CancelledByUser);
    shipment.updated_at = now;
    let mut change = Change::to(request, step.request);
    change.events = step
        .events
        .iter()
        .map(|event| {
            DomainEvent::for_request(
                request.account_id,
                request.id,
                Some(shipment.id),
                *event,
                now,
            )
        })
        .collect();
    change.shipment = Some(shipment);
    // Resumed: look at once.
    change.next = (!stop)
        .then(|| job(request, JobKind::Refresh, now))
        .flatten();
    Ok(change)
}

/// The change that fails `request` for `reason`, keeping the detected SCAC; none when the
/// lifecycle has no row for it.
fn refuse(
    request: &TrackingRequest,
    scac: Option<Scac>,
    reason: FailedReason,
    now: Timestamp,
    policy: &Policy,
) -> Option<Change> {
    let step = lifecycle::transition(request, Observation::Permanent(reason), now, policy).ok()?;
    let mut change = Change::to(
        request,
        TrackingRequest {
            scac,
            ..step.request
        },
    );
    change.events = step
        .events
        .iter()
        .map(|event| request_event(request, *event, now))
        .collect();
    Some(change)
}
