//! One test per row of the lifecycle table, in the table's order, and the rules around it.

use std::time::Duration;

use super::*;
use crate::{RequestType, TemporaryReason, TrackingRequestDraft};

fn at(seconds: u64) -> Timestamp {
    Timestamp::from_datetime(
        time::OffsetDateTime::UNIX_EPOCH + Duration::from_secs(1_800_000_000 + seconds),
    )
}

fn request(kind: RequestType, number: &str, status: RequestStatus) -> TrackingRequest {
    let draft = TrackingRequestDraft {
        request_type: Some(kind.as_str().to_owned()),
        request_number: Some(number.to_owned()),
        scac: Some("MAEU".to_owned()),
        ..TrackingRequestDraft::default()
    };
    let mut request = TrackingRequest::opened_for_test(draft, at(0));
    request.status = status;
    request
}

fn bill(status: RequestStatus) -> TrackingRequest {
    request(RequestType::BillOfLading, "586118841", status)
}

fn apply(request: &TrackingRequest, observation: Observation, now: Timestamp) -> Transition {
    transition(request, observation, now, &Policy::default()).expect("a row applies")
}

const DAY: u64 = 24 * 3600;

#[test]
fn row_1_pending_found_is_created_and_succeeds() {
    let done = apply(&bill(RequestStatus::Pending), Observation::Found, at(60));
    assert_eq!(done.request.status, RequestStatus::Created);
    assert_eq!(done.events, [RequestEvent::Succeeded]);
    assert_eq!(done.next, Next::Refresh);
    assert_eq!(done.request.updated_at, at(60));
}

#[test]
fn row_2_pending_not_yet_known_awaits_the_manifest() {
    let waiting = apply(
        &bill(RequestStatus::Pending),
        Observation::NotYetKnown,
        at(60),
    );
    assert_eq!(waiting.request.status, RequestStatus::AwaitingManifest);
    assert_eq!(waiting.events, [RequestEvent::AwaitingManifest]);
    assert_eq!(waiting.next, Next::Lookup(at(60 + DAY)));
}

#[test]
fn row_3_awaiting_manifest_found_is_created() {
    let done = apply(
        &bill(RequestStatus::AwaitingManifest),
        Observation::Found,
        at(3 * DAY),
    );
    assert_eq!(done.request.status, RequestStatus::Created);
    assert_eq!(done.events, [RequestEvent::Succeeded]);
}

#[test]
fn row_4_awaiting_manifest_still_unknown_waits_without_a_second_event() {
    let waiting = apply(
        &bill(RequestStatus::AwaitingManifest),
        Observation::NotYetKnown,
        at(2 * DAY),
    );
    assert_eq!(waiting.request.status, RequestStatus::AwaitingManifest);
    assert!(
        waiting.events.is_empty(),
        "the event is sent the first time only"
    );
    assert_eq!(waiting.next, Next::Lookup(at(3 * DAY)));
    let last = apply(
        &bill(RequestStatus::AwaitingManifest),
        Observation::NotYetKnown,
        at(6 * DAY + 3600),
    );
    assert_eq!(
        last.next,
        Next::Lookup(at(7 * DAY)),
        "the last check is at the expiry"
    );
}

#[test]
fn row_5_awaiting_manifest_unknown_after_seven_days_expires() {
    let expired = apply(
        &bill(RequestStatus::AwaitingManifest),
        Observation::NotYetKnown,
        at(7 * DAY),
    );
    assert_eq!(expired.request.status, RequestStatus::Failed);
    assert_eq!(expired.request.failed_reason, Some(FailedReason::Expired));
    assert_eq!(expired.events, [RequestEvent::Failed]);
    assert_eq!(expired.next, Next::Nothing);
}

#[test]
fn row_6_pending_container_not_found_fails() {
    let container = request(
        RequestType::Container,
        "MSKU1234565",
        RequestStatus::Pending,
    );
    let observation = Observation::of(&LookupOutcome::NotFound, RequestType::Container);
    let failed = apply(&container, observation, at(60));
    assert_eq!(failed.request.status, RequestStatus::Failed);
    assert_eq!(failed.request.failed_reason, Some(FailedReason::NotFound));
    assert_eq!(
        Observation::of(&LookupOutcome::NotFound, RequestType::BillOfLading),
        Observation::NotYetKnown,
        "an unknown bill waits for its manifest instead"
    );
}

#[test]
fn row_7_permanent_problems_fail_with_their_reason() {
    for (outcome, reason) in [
        (
            LookupOutcome::InvalidNumber("x".into()),
            FailedReason::InvalidNumber,
        ),
        (
            LookupOutcome::BookingCancelled,
            FailedReason::BookingCancelled,
        ),
        (
            LookupOutcome::DataUnavailable,
            FailedReason::DataUnavailable,
        ),
    ] {
        for status in [RequestStatus::Pending, RequestStatus::AwaitingManifest] {
            let observation = Observation::of(&outcome, RequestType::BillOfLading);
            let failed = apply(&bill(status), observation, at(60));
            assert_eq!(failed.request.status, RequestStatus::Failed);
            assert_eq!(failed.request.failed_reason, Some(reason));
            assert_eq!(failed.events, [RequestEvent::Failed]);
        }
    }
}

#[test]
fn row_8_temporary_problems_retry_with_backoff_and_keep_the_state() {
    let outcome = LookupOutcome::Temporary(TemporaryReason::Unreachable("timeout".into()));
    let observation = Observation::of(&outcome, RequestType::BillOfLading);
    let mut current = bill(RequestStatus::Pending);
    let mut waits = Vec::new();
    let mut now = at(0);
    for retry in 1..=14 {
        let step = apply(&current, observation, now);
        assert_eq!(step.request.status, RequestStatus::Pending);
        assert!(step.request.is_retrying);
        assert_eq!(step.request.retry_count, Some(retry));
        assert_eq!(
            step.request.failed_reason,
            Some(FailedReason::ShippingLineUnreachable)
        );
        assert!(step.events.is_empty());
        let Next::Lookup(next) = step.next else {
            panic!("a retry is scheduled")
        };
        waits.push((next.as_datetime() - now.as_datetime()).whole_minutes());
        now = next;
        current = step.request;
    }
    assert_eq!(&waits[..4], [1, 2, 4, 8]);
    assert_eq!(waits[13], 180, "the wait stops growing at 3 hours");
    let total_hours = (now.as_datetime() - at(0).as_datetime()).whole_hours();
    assert!(
        (20..=28).contains(&total_hours),
        "about a day of retries: {total_hours} h"
    );

    let waiting = apply(
        &bill(RequestStatus::AwaitingManifest),
        Observation::Temporary(FailedReason::UnrecognizedResponse),
        at(60),
    );
    assert_eq!(waiting.request.status, RequestStatus::AwaitingManifest);
    assert_eq!(
        waiting.request.failed_reason,
        Some(FailedReason::UnrecognizedResponse)
    );
}

#[test]
fn row_9_temporary_problems_after_the_last_retry_fail() {
    let mut exhausted = bill(RequestStatus::Pending);
    exhausted.retry_count = Some(14);
    exhausted.is_retrying = true;
    let failed = apply(
        &exhausted,
        Observation::Temporary(FailedReason::ShippingLineUnreachable),
        at(DAY),
    );
    assert_eq!(failed.request.status, RequestStatus::Failed);
    assert_eq!(
        failed.request.failed_reason,
        Some(FailedReason::RetriesExhausted)
    );
    assert!(!failed.request.is_retrying);
    assert_eq!(failed.events, [RequestEvent::Failed]);
}

#[test]
fn row_10_pending_without_a_detectable_carrier_fails() {
    let failed = apply(&bill(RequestStatus::Pending), Observation::NoCarrier, at(1));
    assert_eq!(
        failed.request.failed_reason,
        Some(FailedReason::ScacAutoDetectFailed)
    );
    assert_eq!(failed.request.status, RequestStatus::Failed);
}

#[test]
fn row_11_created_stopped_is_tracking_stopped() {
    let stopped = apply(
        &bill(RequestStatus::Created),
        Observation::Stopped,
        at(90 * DAY),
    );
    assert_eq!(stopped.request.status, RequestStatus::TrackingStopped);
    assert_eq!(stopped.events, [RequestEvent::TrackingStopped]);
    assert_eq!(stopped.next, Next::Nothing);
}

#[test]
fn row_12_tracking_stopped_resumed_is_created_and_refreshed_at_once() {
    let resumed = apply(
        &bill(RequestStatus::TrackingStopped),
        Observation::Resumed,
        at(91 * DAY),
    );
    assert_eq!(resumed.request.status, RequestStatus::Created);
    assert!(resumed.events.is_empty());
    assert_eq!(resumed.next, Next::Refresh);
    assert_eq!(resumed.request.updated_at, at(91 * DAY));
}

#[test]
fn a_success_after_retries_clears_the_retry_state_but_keeps_the_count() {
    let mut retrying = bill(RequestStatus::Pending);
    retrying.is_retrying = true;
    retrying.retry_count = Some(3);
    retrying.failed_reason = Some(FailedReason::ShippingLineUnreachable);
    let done = apply(&retrying, Observation::Found, at(600));
    assert!(!done.request.is_retrying);
    assert_eq!(done.request.failed_reason, None);
    assert_eq!(done.request.retry_count, Some(3));
}

#[test]
fn observations_with_no_row_are_refused() {
    for (status, observation) in [
        (RequestStatus::Failed, Observation::Found),
        (RequestStatus::TrackingStopped, Observation::Found),
        (RequestStatus::Created, Observation::NotYetKnown),
        (
            RequestStatus::AwaitingManifest,
            Observation::ContainerNotFound,
        ),
        (RequestStatus::Pending, Observation::Stopped),
        (RequestStatus::Created, Observation::Resumed),
        (RequestStatus::Failed, Observation::Resumed),
    ] {
        let error =
            transition(&bill(status), observation, at(0), &Policy::default()).expect_err("no row");
        assert_eq!(error.status, status);
    }
}

#[test]
fn every_row_is_reachable_and_no_two_rows_overlap() {
    // Each row is the first match for some request; no request matches two rows.
    let statuses = RequestStatus::ALL;
    let observations = [
        Observation::Found,
        Observation::NotYetKnown,
        Observation::ContainerNotFound,
        Observation::Permanent(FailedReason::InvalidNumber),
        Observation::Temporary(FailedReason::ShippingLineUnreachable),
        Observation::NoCarrier,
        Observation::Stopped,
        Observation::Resumed,
    ];
    let mut used = [false; TABLE.len()];
    for status in statuses {
        for observation in observations {
            for (age, retries) in [(0, 0), (8 * DAY, 14)] {
                let policy = Policy::default();
                let expired = Duration::from_secs(age) >= policy.manifest_expiry;
                let matching: Vec<usize> = TABLE
                    .iter()
                    .enumerate()
                    .filter(|(_, row)| {
                        row.from.matches(status)
                            && row.on == On::of(observation)
                            && match row.guard {
                                Guard::Always => true,
                                Guard::BeforeExpiry => !expired,
                                Guard::Expired => expired,
                                Guard::RetriesLeft => retries < policy.max_retries,
                                Guard::RetriesUsedUp => retries >= policy.max_retries,
                            }
                    })
                    .map(|(index, _)| index)
                    .collect();
                assert!(
                    matching.len() <= 1,
                    "{status} {observation:?}: rows {matching:?}"
                );
                if let Some(&index) = matching.first() {
                    used[index] = true;
                }
            }
        }
    }
    assert!(used.iter().all(|&u| u), "unreachable rows: {used:?}");
}

#[test]
fn a_carriers_retry_after_sets_the_next_attempt_within_the_longest_wait() {
    let pending = bill(RequestStatus::Pending);
    let policy = Policy::default();
    let next = |asked: Duration| {
        let outcome = LookupOutcome::Temporary(TemporaryReason::RateLimited {
            retry_after: Some(asked),
        });
        let observation = Observation::of(&outcome, RequestType::BillOfLading);
        apply(&pending, observation, at(0)).next
    };
    // Asked for 300 s: not after our first back-off of 60 s, but after 300.
    assert_eq!(next(Duration::from_secs(300)), Next::Lookup(at(300)));
    // Asked for less than our back-off: our back-off.
    assert_eq!(next(Duration::from_secs(10)), Next::Lookup(at(60)));
    // Asked for ten days: no longer than the policy's longest wait.
    let longest = policy.retry_max.as_secs();
    assert_eq!(
        next(Duration::from_secs(864_000)),
        Next::Lookup(at(longest))
    );
    // A 503's Retry-After counts the same.
    let unavailable = LookupOutcome::Temporary(TemporaryReason::Unavailable {
        retry_after: Some(Duration::from_secs(120)),
    });
    let step = apply(
        &pending,
        Observation::of(&unavailable, RequestType::BillOfLading),
        at(0),
    );
    assert_eq!(step.next, Next::Lookup(at(120)));
    assert_eq!(
        step.request.failed_reason,
        Some(FailedReason::ShippingLineUnreachable)
    );
}
