//! `decide`: one change per observation, whoever observed it.

use super::*;
use crate::lifecycle::Policy;
use crate::{FailedReason, JobKind, LookupOutcome, RequestStatus};

fn found(hour: i64) -> LookupAnswer {
    LookupAnswer {
        scac: Scac::parse("MAEU").ok(),
        source: TrackingSource::Sandbox,
        outcome: Some(LookupOutcome::Found(snapshot(
            100,
            vec![container(
                "MSKU3054388",
                vec![milestone(Milestone::VesselDeparted, hour, "CNSHA")],
            )],
        ))),
    }
}

/// A request whose first lookup found its shipment, with what is stored afterwards.
pub(super) fn tracked_request(policy: &Policy) -> (TrackingRequest, Tracked) {
    let request = request();
    let change = decide(&request, None, Cause::Lookup(&found(5)), at(1), policy).expect("found");
    let shipment = change.shipment.clone().expect("a shipment");
    let tracked = change.delta.onto(None, &shipment);
    (change.request, tracked)
}

#[test]
fn a_first_answer_creates_the_shipment_and_schedules_a_refresh() {
    let policy = Policy::default();
    let request = request();
    let change = decide(&request, None, Cause::Lookup(&found(5)), at(1), &policy).expect("found");
    assert_eq!(change.request.status, RequestStatus::Created);
    assert_eq!(change.request_read_at, request.updated_at);
    let shipment = change.shipment.as_ref().expect("a shipment");
    assert_eq!(
        change.request.tracked_object,
        Some(shipment.id.as_uuid()),
        "the request points at its shipment"
    );
    assert!(
        change
            .events
            .iter()
            .any(|event| event.name.name() == "tracking_request.succeeded"
                && event.shipment_id == Some(shipment.id))
    );
    let next = change.next.expect("a next job");
    assert_eq!(next.kind, JobKind::Refresh);
    assert!(next.due_at > at(1));
}

#[test]
fn the_client_stops_and_resumes_and_repeating_either_changes_nothing() {
    let policy = Policy::default();
    let (request, tracked) = tracked_request(&policy);

    let stop = decide(&request, Some(&tracked), Cause::Stop, at(2), &policy).expect("stops");
    assert_eq!(stop.request.status, RequestStatus::TrackingStopped);
    let shipment = stop.shipment.clone().expect("the shipment says so");
    assert_eq!(shipment.stopped_at, Some(at(2)));
    assert_eq!(shipment.stopped_reason, Some(StopReason::CancelledByUser));
    assert_eq!(stop.next, None, "no more lookups");
    assert!(
        stop.events
            .iter()
            .any(|event| event.name.name() == "tracking_request.tracking_stopped")
    );

    let stopped = Tracked::applied(Some(&tracked), &shipment, &[], &[], &[]);
    let again = decide(&stop.request, Some(&stopped), Cause::Stop, at(3), &policy).expect("ok");
    assert!(
        again.is_none(),
        "stopping a stopped shipment changes nothing"
    );

    let resume =
        decide(&stop.request, Some(&stopped), Cause::Resume, at(4), &policy).expect("resumes");
    assert_eq!(resume.request.status, RequestStatus::Created);
    assert_eq!(resume.shipment.as_ref().and_then(|s| s.stopped_at), None);
    let next = resume.next.expect("looked at at once");
    assert_eq!((next.kind, next.due_at), (JobKind::Refresh, at(4)));
    let resumed = decide(&request, Some(&tracked), Cause::Resume, at(4), &policy).expect("ok");
    assert!(
        resumed.is_none(),
        "resuming a tracked shipment changes nothing"
    );
}

#[test]
fn a_request_without_a_shipment_cannot_be_stopped() {
    let policy = Policy::default();
    let request = request();
    assert!(decide(&request, None, Cause::Stop, at(1), &policy).is_err());
    assert!(decide(&request, None, Cause::Resume, at(1), &policy).is_err());
}

#[test]
fn a_refused_request_fails_with_its_reason_and_keeps_the_detected_carrier() {
    let policy = Policy::default();
    let request = TrackingRequest {
        scac: None,
        ..request()
    };
    let scac = Scac::parse("MAEU").ok();
    let change = decide(
        &request,
        None,
        Cause::Refused {
            scac,
            reason: FailedReason::Duplicate,
        },
        at(1),
        &policy,
    )
    .expect("decided");
    assert_eq!(change.request.status, RequestStatus::Failed);
    assert_eq!(change.request.failed_reason, Some(FailedReason::Duplicate));
    assert_eq!(change.request.scac, scac);
    assert_eq!(change.next, None);
}

#[test]
fn a_lookup_for_a_request_that_moved_on_changes_nothing() {
    let policy = Policy::default();
    let (request, tracked) = tracked_request(&policy);
    let stop = decide(&request, Some(&tracked), Cause::Stop, at(2), &policy).expect("stops");
    let change = decide(
        &stop.request,
        None,
        Cause::Lookup(&found(6)),
        at(3),
        &policy,
    )
    .expect("decided");
    assert!(change.is_none(), "a stopped request is not looked up");
}
