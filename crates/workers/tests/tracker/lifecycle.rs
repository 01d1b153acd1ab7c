//! Each row of the lifecycle: found, awaiting the manifest, expiry, not found, refusals.

use carrier_sim::{Chances, Fault, FaultRule};
use tidemark_domain::{FailedReason, JobKind, RequestStatus, TrackingSource};
use tidemark_store::testing::Backend;
use time::Duration;

use crate::support::{TestApp, frozen, sim_config};

pub(crate) fn fault(reference: &str, fault: Fault, times: Option<u32>) -> FaultRule {
    FaultRule {
        terminal: None,
        scac: None,
        reference: Some(reference.to_owned()),
        fault,
        times,
    }
}

pub async fn found_requests_are_created_with_their_shipment(h: TestApp) {
    let request = h.test_bill("TEST-TR-SUCCEEDED").await;
    // The lookup, and the first arrival estimate of the shipment it found at sea.
    assert_eq!(h.drain().await, 2);
    let created = h.stored(&request).await;
    assert_eq!(created.status, RequestStatus::Created);
    assert!(!created.is_retrying);
    assert_eq!(created.failed_reason, None);
    let tracked = h.tracked(&request).await;
    assert_eq!(created.tracked_object, Some(tracked.shipment.id.as_uuid()));
    assert_eq!(tracked.shipment.source, TrackingSource::Sandbox);
    assert!(!tracked.containers.is_empty());
    assert!(tracked.shipment.route.port_of_discharge.is_some());
    let names = h.event_names().await;
    assert_eq!(names[0], "tracking_request.succeeded");
    // The records its notifications will carry were frozen with it.
    let events = h.store.domain_events(h.account.id).await.expect("events");
    let mut numbers: Vec<String> = tracked
        .containers
        .iter()
        .map(|c| c.number.clone())
        .collect();
    let (status, mut included) = frozen(&events[0]);
    numbers.sort();
    included.sort();
    assert_eq!((status.as_str(), included), ("created", numbers));
    assert_eq!(
        names
            .iter()
            .filter(|n| *n == "tracking_request.succeeded")
            .count(),
        1
    );
    // The next job is a refresh; nothing else is due now.
    assert_eq!(h.drain().await, 0);
    assert!(
        h.store
            .next_due(JobKind::Refresh)
            .await
            .expect("next")
            .is_some()
    );
    assert_eq!(h.store.next_due(JobKind::Lookup).await.expect("next"), None);
}

pub async fn a_manifest_that_comes_later_is_found_on_a_recheck(h: TestApp) {
    let request = h.test_bill("TEST-TR-AWAITING-MANIFEST").await;
    h.drain().await;
    assert_eq!(
        h.stored(&request).await.status,
        RequestStatus::AwaitingManifest
    );
    h.advance(Duration::hours(23));
    assert_eq!(h.drain().await, 0, "rechecked once a day");
    h.advance(Duration::hours(1));
    assert_eq!(h.drain().await, 2, "the recheck, and an arrival estimate");
    assert_eq!(h.stored(&request).await.status, RequestStatus::Created);
    let names = h.event_names().await;
    assert_eq!(
        &names[..2],
        [
            "tracking_request.awaiting_manifest",
            "tracking_request.succeeded"
        ]
    );
    // Each event keeps the records of its moment: the first, no shipment yet.
    let events = h.store.domain_events(h.account.id).await.expect("events");
    assert_eq!(
        frozen(&events[0]),
        ("awaiting_manifest".to_owned(), Vec::new())
    );
    let (status, containers) = frozen(&events[1]);
    assert_eq!(status, "created");
    assert!(!containers.is_empty());
}

pub async fn an_unknown_bill_awaits_its_manifest_and_expires_after_seven_days(h: TestApp) {
    let request = h.test_bill("TEST-TR-NOT-FOUND").await;
    h.drain().await;
    for _ in 0..6 {
        h.advance(Duration::days(1));
        assert_eq!(h.drain().await, 1);
        assert_eq!(
            h.stored(&request).await.status,
            RequestStatus::AwaitingManifest
        );
    }
    h.advance(Duration::days(1));
    h.drain().await;
    let failed = h.stored(&request).await;
    assert_eq!(failed.status, RequestStatus::Failed);
    assert_eq!(failed.failed_reason, Some(FailedReason::Expired));
    assert_eq!(
        h.event_names().await,
        [
            "tracking_request.awaiting_manifest",
            "tracking_request.failed"
        ],
        "awaiting_manifest once, however many checks"
    );
    assert_eq!(h.sim.lookups("TEST", "TEST-TR-NOT-FOUND"), 8);
}

pub async fn an_unknown_container_fails_as_not_found(backend: Backend) {
    let mut config = sim_config();
    config.chances = Chances {
        not_found: 100,
        awaiting_manifest: 0,
        cancelled: 0,
    };
    let h = crate::support::start(backend, config).await;
    let request = h.open("container", "MSKU1234565", Some("MAEU")).await;
    h.drain().await;
    let failed = h.stored(&request).await;
    assert_eq!(failed.status, RequestStatus::Failed);
    assert_eq!(failed.failed_reason, Some(FailedReason::NotFound));
    assert_eq!(h.event_names().await, ["tracking_request.failed"]);
}

pub async fn permanent_carrier_refusals_fail_with_their_reason(h: TestApp) {
    let cancelled = h.test_bill("TEST-TR-CANCELLED").await;
    let invalid = h.open("bill_of_lading", "586118841", Some("MAEU")).await;
    let withheld = h.open("bill_of_lading", "586118842", Some("MAEU")).await;
    h.sim
        .add_fault(fault("586118841", Fault::BadReference, None));
    h.sim.add_fault(fault("586118842", Fault::Forbidden, None));
    h.drain().await;
    for (request, reason) in [
        (&cancelled, FailedReason::BookingCancelled),
        (&invalid, FailedReason::InvalidNumber),
        (&withheld, FailedReason::DataUnavailable),
    ] {
        let failed = h.stored(request).await;
        assert_eq!(failed.status, RequestStatus::Failed, "{reason:?}");
        assert_eq!(failed.failed_reason, Some(reason));
        assert!(!failed.is_retrying);
    }
    assert_eq!(h.drain().await, 0, "nothing more to do for failed requests");
}
