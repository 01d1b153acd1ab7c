//! What a tracking job commits, decided from the request, what is stored and the
//! carrier's answer: the lifecycle table for requests still looking, the snapshot diff
//! and the auto-stop rules for tracked ones. No I/O here.

use tidemark_domain::lifecycle::{self, Next, Observation, Policy, RequestEvent};
use tidemark_domain::tracking::{self, Changes, Context};
use tidemark_domain::webhook::payload::{self, Records, Render};
use tidemark_domain::{
    DomainEvent, FailedReason, JobKind, LookupOutcome, NewJob, RequestStatus, Scac, StopReason,
    Timestamp, Tracked, TrackingRequest,
};
use tidemark_store::LookupCommit;

use super::Answer;

/// A commit that changes `request` to `next` and nothing else yet.
fn base(request: &TrackingRequest, next: TrackingRequest) -> LookupCommit {
    LookupCommit {
        request: next,
        request_read_at: request.updated_at,
        shipment: None,
        containers: Vec::new(),
        transport_events: Vec::new(),
        raw_events: Vec::new(),
        events: Vec::new(),
        places: Vec::new(),
        vessels: Vec::new(),
        next: None,
    }
}

fn job(request: &TrackingRequest, kind: JobKind, due_at: Timestamp) -> Option<NewJob> {
    Some(NewJob {
        kind,
        key: request.id.to_string(),
        due_at,
    })
}

fn request_event(request: &TrackingRequest, event: RequestEvent, now: Timestamp) -> DomainEvent {
    DomainEvent::for_request(
        request.account_id,
        request.id,
        request
            .tracked_object
            .map(tidemark_domain::ShipmentId::from_uuid),
        event,
        now,
    )
}

/// Moves the snapshot's changes into the commit.
fn take(commit: &mut LookupCommit, changes: Changes) {
    commit.request.tracked_object = Some(changes.shipment.id.as_uuid());
    commit.shipment = Some(changes.shipment);
    commit.containers = changes.containers;
    commit.transport_events = changes.transport_events;
    commit.raw_events = changes.raw_events;
    commit.events.extend(changes.events);
    commit.places = changes.places;
    commit.vessels = changes.vessels;
}

/// The commit of one tracking job.
pub(crate) fn commit(
    request: &TrackingRequest,
    prior: Option<&Tracked>,
    answer: &Answer,
    now: Timestamp,
    policy: &Policy,
) -> LookupCommit {
    match (request.status, prior) {
        (RequestStatus::Created, Some(prior)) => refresh(request, prior, answer, now, policy),
        _ => look_up(request, prior, answer, now, policy),
    }
}

/// A request still looking (`pending`, `awaiting_manifest`): the lifecycle table decides.
fn look_up(
    request: &TrackingRequest,
    prior: Option<&Tracked>,
    answer: &Answer,
    now: Timestamp,
    policy: &Policy,
) -> LookupCommit {
    let observation = answer
        .outcome
        .as_ref()
        .map_or(Observation::NoCarrier, |outcome| {
            Observation::of(outcome, request.request_type)
        });
    let step = match lifecycle::transition(request, observation, now, policy) {
        Ok(step) => step,
        Err(no_row) => {
            // Nothing applies (the request moved on): finish the job and change nothing.
            tracing::debug!(request = %request.id, %no_row, "no transition");
            return base(request, request.clone());
        }
    };
    let mut next_request = step.request;
    if next_request.scac.is_none() {
        next_request.scac = answer.scac;
    }
    let mut commit = base(request, next_request);
    commit.events = step
        .events
        .iter()
        .map(|event| request_event(request, *event, now))
        .collect();
    let mut tracked = None;
    if let (Some(LookupOutcome::Found(snapshot)), Some(scac)) = (&answer.outcome, answer.scac)
        && commit.request.status == RequestStatus::Created
    {
        let changes =
            tracking::apply_snapshot(prior, snapshot, &context(request, scac, answer, now));
        for event in &mut commit.events {
            event.shipment_id = Some(changes.shipment.id);
        }
        tracked = Some(changes.tracked(prior));
        take(&mut commit, changes);
    }
    commit.next = match step.next {
        Next::Nothing => None,
        Next::Lookup(at) => job(request, JobKind::Lookup, at),
        Next::Refresh => job(
            request,
            JobKind::Refresh,
            tracked.map_or(now + policy.refresh, |tracked| {
                tracking::next_refresh(&tracked, now, policy)
            }),
        ),
    };
    commit
}

fn context<'a>(
    request: &'a TrackingRequest,
    scac: Scac,
    answer: &Answer,
    now: Timestamp,
) -> Context<'a> {
    Context {
        request,
        scac,
        source: answer.source,
        now,
    }
}

/// A tracked request (`created`): the snapshot diff, then the auto-stop rules or the
/// next refresh at the cadence of the shipment's phase.
fn refresh(
    request: &TrackingRequest,
    prior: &Tracked,
    answer: &Answer,
    now: Timestamp,
    policy: &Policy,
) -> LookupCommit {
    let mut commit = base(request, request.clone());
    let scac = answer.scac.unwrap_or(prior.shipment.scac);
    let (tracked, stop) = match &answer.outcome {
        Some(LookupOutcome::Found(snapshot)) => {
            let changes = tracking::apply_snapshot(
                Some(prior),
                snapshot,
                &context(request, scac, answer, now),
            );
            let tracked = changes.tracked(Some(prior));
            take(&mut commit, changes);
            let stop = tracking::auto_stop(&tracked, now, policy);
            (tracked, stop)
        }
        Some(LookupOutcome::BookingCancelled) => {
            let mut shipment = prior.shipment.clone();
            shipment.last_attempted_at = Some(now);
            shipment.last_succeeded_at = Some(now);
            commit.shipment = Some(shipment);
            (prior.clone(), Some(StopReason::BookingCancelled))
        }
        _ => {
            // No news this time (a temporary problem, or the carrier forgot the number):
            // keep what is known and try again at the usual cadence.
            let mut shipment = prior.shipment.clone();
            shipment.last_attempted_at = Some(now);
            commit.shipment = Some(shipment);
            (prior.clone(), tracking::auto_stop(prior, now, policy))
        }
    };
    match stop {
        Some(reason) => stop_tracking(&mut commit, request, reason, now, policy),
        None => {
            commit.next = job(
                request,
                JobKind::Refresh,
                tracking::next_refresh(&tracked, now, policy),
            );
        }
    }
    commit
}

/// Stops tracking: the request moves to `tracking_stopped` and the shipment says why.
fn stop_tracking(
    commit: &mut LookupCommit,
    request: &TrackingRequest,
    reason: StopReason,
    now: Timestamp,
    policy: &Policy,
) {
    let Ok(step) = lifecycle::transition(request, Observation::Stopped, now, policy) else {
        return;
    };
    commit.request = TrackingRequest {
        tracked_object: commit.request.tracked_object,
        ..step.request
    };
    commit.events.extend(
        step.events
            .iter()
            .map(|event| request_event(&commit.request, *event, now)),
    );
    if let Some(shipment) = &mut commit.shipment {
        shipment.stopped_at = Some(now);
        shipment.stopped_reason = Some(reason);
        shipment.updated_at = now;
    }
    commit.next = None;
}

/// Freezes the records each of the commit's events concerns, as they stand once the
/// commit applies to `prior`.
pub(crate) fn freeze(commit: &mut LookupCommit, prior: Option<&Tracked>, render: &dyn Render) {
    if commit.events.is_empty() {
        return;
    }
    let tracked = match &commit.shipment {
        Some(shipment) => Some(Tracked::applied(
            prior,
            shipment,
            &commit.containers,
            &commit.transport_events,
            &commit.raw_events,
        )),
        None => prior.cloned(),
    };
    let records = Records {
        request: &commit.request,
        tracked: tracked.as_ref(),
    };
    payload::freeze(render, &mut commit.events, &records);
}

/// The commit that fails `request` for `reason` (e.g. its detected carrier made it a
/// duplicate), keeping the detected SCAC.
pub(crate) fn fail(
    request: &TrackingRequest,
    scac: Option<Scac>,
    reason: FailedReason,
    now: Timestamp,
    policy: &Policy,
) -> LookupCommit {
    match lifecycle::transition(request, Observation::Permanent(reason), now, policy) {
        Ok(step) => {
            let mut commit = base(
                request,
                TrackingRequest {
                    scac,
                    ..step.request
                },
            );
            commit.events = step
                .events
                .iter()
                .map(|event| request_event(request, *event, now))
                .collect();
            commit
        }
        Err(_) => base(request, request.clone()),
    }
}
