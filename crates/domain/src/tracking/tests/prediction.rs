//! Tidemark's arrival estimate: kept when it moves, compared with the carrier's once per
//! crossing of the margin, made again while at sea.

use super::decide::tracked_request;
use super::*;
use crate::lifecycle::Policy;
use crate::{JobKind, LookupOutcome, Subject};

const DIVERGED: &str = "shipment.predicted_arrival.diverged";

fn predicted(hour: Option<i64>) -> Cause<'static> {
    Cause::Predicted(Prediction {
        arrival: hour.map(at),
    })
}

/// What `cause` changes of `request`, tracked as `tracked`, at `hour`.
fn at_hour(request: &TrackingRequest, tracked: &Tracked, cause: Cause<'_>, hour: i64) -> Change {
    decide(request, Some(tracked), cause, at(hour), &Policy::default()).expect("a change")
}

/// `prior` after `change`, as the store keeps it.
fn after(prior: &Tracked, change: &Change) -> Tracked {
    match &change.shipment {
        Some(shipment) => change.delta.onto(Some(prior), shipment),
        None => prior.clone(),
    }
}

fn diverged(change: &Change) -> usize {
    change
        .events
        .iter()
        .filter(|event| event.name.name() == DIVERGED)
        .count()
}

#[test]
fn a_shipment_found_at_sea_is_predicted_at_once_and_then_every_interval() {
    let policy = Policy::default();
    let (request, tracked) = tracked_request(&policy);
    assert!(sailing(&tracked), "its container left on the vessel");
    let refresh = at_hour(&request, &tracked, Cause::Lookup(&refreshed(100)), 2);
    let job = refresh.prediction.expect("a prediction job");
    assert_eq!(job.kind, JobKind::PredictArrival);
    assert_eq!((job.due_at, job.if_absent), (at(2), true));

    // The carrier says hour 100; Tidemark says hour 104: kept, within the margin.
    let change = at_hour(&request, &tracked, predicted(Some(104)), 3);
    let shipment = change.shipment.as_ref().expect("the shipment changes");
    assert_eq!(shipment.pod_predicted_eta_at, Some(at(104)));
    assert_eq!(shipment.updated_at, at(3));
    assert_eq!(
        change.request.updated_at,
        at(3),
        "the request moves with it"
    );
    assert_eq!(diverged(&change), 0);
    let next = change.prediction.clone().expect("the next prediction");
    assert_eq!(next.due_at, at(3) + policy.predict_every);
    assert!(!next.if_absent);

    // Five minutes later by the next estimate: not news, nothing written.
    let kept = after(&tracked, &change);
    let mut minutes = Prediction {
        arrival: Some(at(104) + std::time::Duration::from_secs(300)),
    };
    let same = decide(
        &request,
        Some(&kept),
        Cause::Predicted(minutes),
        at(4),
        &policy,
    )
    .expect("a change");
    assert!(same.shipment.is_none() && same.events.is_empty());
    assert!(same.prediction.is_some(), "and made again later");

    // No recent position: the estimate goes, and is tried again at the at-sea interval.
    minutes.arrival = None;
    let gone = decide(
        &request,
        Some(&kept),
        Cause::Predicted(minutes),
        at(5),
        &policy,
    )
    .expect("a change");
    assert_eq!(
        gone.shipment.as_ref().map(|s| s.pod_predicted_eta_at),
        Some(None)
    );
    assert_eq!(
        gone.prediction.map(|job| job.due_at),
        Some(at(5) + policy.refresh_at_sea)
    );
}

fn refreshed(pod_eta: i64) -> LookupAnswer {
    LookupAnswer {
        scac: Scac::parse("MAEU").ok(),
        source: TrackingSource::Sandbox,
        outcome: Some(LookupOutcome::Found(snapshot(
            pod_eta,
            vec![container(
                "MSKU3054388",
                vec![milestone(Milestone::VesselDeparted, 5, "CNSHA")],
            )],
        ))),
    }
}

#[test]
fn the_divergence_is_recorded_once_per_crossing_of_the_margin() {
    let policy = Policy::default();
    let (request, mut tracked) = tracked_request(&policy);
    let step = |tracked: &mut Tracked, cause: Cause<'_>, hour: i64| {
        let change = decide(&request, Some(tracked), cause, at(hour), &policy).expect("a change");
        *tracked = after(tracked, &change);
        change
    };
    // Thirteen hours later than the carrier's hour 100: diverged.
    let first = step(&mut tracked, predicted(Some(113)), 3);
    assert_eq!(diverged(&first), 1);
    let event = first
        .events
        .iter()
        .find(|e| e.name.name() == DIVERGED)
        .expect("the event");
    assert_eq!(event.subject, Subject::Shipment(tracked.shipment.id));
    assert_eq!(event.detail.estimated_timestamp, Some(at(113)));
    assert_eq!(event.detail.location_locode.as_deref(), Some("NLRTM"));
    // Further apart still: the same divergence, nothing new.
    assert_eq!(diverged(&step(&mut tracked, predicted(Some(120)), 4)), 0);
    // Back within the margin, then apart again: a new crossing.
    assert_eq!(diverged(&step(&mut tracked, predicted(Some(105)), 5)), 0);
    // Ten hours early is within the margin; fifteen is not.
    assert_eq!(diverged(&step(&mut tracked, predicted(Some(90)), 6)), 0);
    let again = step(&mut tracked, predicted(Some(85)), 7);
    assert_eq!(diverged(&again), 1);
    assert_ne!(
        again.events[0].dedupe_key, event.dedupe_key,
        "each crossing is its own event"
    );
}

#[test]
fn a_carrier_estimate_that_moves_away_from_tidemarks_is_a_crossing_too() {
    let policy = Policy::default();
    let (request, tracked) = tracked_request(&policy);
    let change = at_hour(&request, &tracked, predicted(Some(104)), 3);
    let tracked = after(&tracked, &change);
    // The carrier now says hour 80: 24 hours before Tidemark's estimate.
    let refresh = at_hour(&request, &tracked, Cause::Lookup(&refreshed(80)), 4);
    assert_eq!(diverged(&refresh), 1);
    let shipment = refresh.shipment.as_ref().expect("the shipment");
    assert_eq!(
        shipment.pod_predicted_eta_at,
        Some(at(104)),
        "the carrier's answer keeps Tidemark's estimate"
    );
}

#[test]
fn an_arrived_or_stopped_shipment_is_not_predicted() {
    let policy = Policy::default();
    let (request, mut tracked) = tracked_request(&policy);
    tracked.shipment.route.pod_ata_at = Some(at(99));
    assert!(!sailing(&tracked));
    let change = at_hour(&request, &tracked, predicted(Some(120)), 3);
    assert!(change.is_none(), "nothing kept and no next prediction");
    tracked.shipment.route.pod_ata_at = None;
    tracked.shipment.stopped_at = Some(at(2));
    assert!(!sailing(&tracked));
    // Apart, but arrived: never diverged.
    tracked.shipment.pod_predicted_eta_at = Some(at(130));
    tracked.shipment.route.pod_ata_at = Some(at(99));
    assert!(!apart(&tracked.shipment, policy.prediction_margin));
}
