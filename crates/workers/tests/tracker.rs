//! The tracker end to end against the carrier simulator over HTTP, on both backends, with
//! both clocks driven by the test and the queue drained (no sleeps): every lifecycle row,
//! faults mapped to retry states, a voyage played step by step, a worker that dies mid-job,
//! and two trackers sharing one queue.

mod support;

use cases::*;
use support::on;

tidemark_store::backends!(
    on,
    found_requests_are_created_with_their_shipment,
    a_manifest_that_comes_later_is_found_on_a_recheck,
    an_unknown_bill_awaits_its_manifest_and_expires_after_seven_days,
    an_unknown_container_fails_as_not_found,
    permanent_carrier_refusals_fail_with_their_reason,
    temporary_faults_retry_with_the_right_reason_then_succeed,
    retries_run_out_after_fourteen,
    a_carrier_is_detected_or_the_request_fails,
    a_voyage_step_by_step_records_each_event_exactly_once,
    a_worker_that_dies_mid_job_loses_and_duplicates_nothing,
    two_trackers_never_work_one_job_at_once,
);

mod cases {
    use std::collections::HashSet;
    use std::sync::Arc;
    use std::time::Duration as StdDuration;

    use carrier_sim::{Chances, Fault, FaultRule};
    use tidemark_carriers::Lookup;
    use tidemark_domain::{
        Clock, ContainerStatus, FailedReason, JobKind, LookupOutcome, RequestStatus, RequestType,
        StopReason, TrackingSource, TransportEventKind,
    };
    use tidemark_store::testing::Backend;
    use tidemark_workers::{Runner, RunnerSettings, Tracker};
    use time::Duration;
    use tokio_util::sync::CancellationToken;

    use crate::support::{Harness, frozen, settings, sim_config};

    fn fault(reference: &str, fault: Fault, times: Option<u32>) -> FaultRule {
        FaultRule {
            scac: None,
            reference: Some(reference.to_owned()),
            fault,
            times,
        }
    }

    pub async fn found_requests_are_created_with_their_shipment(backend: Backend) {
        let Some(h) = Harness::start(backend).await else {
            return;
        };
        let request = h
            .create("bill_of_lading", "TEST-TR-SUCCEEDED", Some("TEST"))
            .await;
        assert_eq!(h.drain().await, 1);
        let created = h.request(&request).await;
        assert_eq!(created.status, RequestStatus::Created);
        assert!(!created.is_retrying);
        assert_eq!(created.failed_reason, None);
        let tracked = h
            .store
            .tracked(request.id)
            .await
            .expect("read")
            .expect("tracked");
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

    pub async fn a_manifest_that_comes_later_is_found_on_a_recheck(backend: Backend) {
        let Some(h) = Harness::start(backend).await else {
            return;
        };
        let request = h
            .create("bill_of_lading", "TEST-TR-AWAITING-MANIFEST", Some("TEST"))
            .await;
        h.drain().await;
        assert_eq!(
            h.request(&request).await.status,
            RequestStatus::AwaitingManifest
        );
        h.advance(Duration::hours(23));
        assert_eq!(h.drain().await, 0, "rechecked once a day");
        h.advance(Duration::hours(1));
        assert_eq!(h.drain().await, 1);
        assert_eq!(h.request(&request).await.status, RequestStatus::Created);
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

    pub async fn an_unknown_bill_awaits_its_manifest_and_expires_after_seven_days(
        backend: Backend,
    ) {
        let Some(h) = Harness::start(backend).await else {
            return;
        };
        let request = h
            .create("bill_of_lading", "TEST-TR-NOT-FOUND", Some("TEST"))
            .await;
        h.drain().await;
        for _ in 0..6 {
            h.advance(Duration::days(1));
            assert_eq!(h.drain().await, 1);
            assert_eq!(
                h.request(&request).await.status,
                RequestStatus::AwaitingManifest
            );
        }
        h.advance(Duration::days(1));
        h.drain().await;
        let failed = h.request(&request).await;
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
        let Some(h) = Harness::with(backend, config).await else {
            return;
        };
        let request = h.create("container", "MSKU1234565", Some("MAEU")).await;
        h.drain().await;
        let failed = h.request(&request).await;
        assert_eq!(failed.status, RequestStatus::Failed);
        assert_eq!(failed.failed_reason, Some(FailedReason::NotFound));
        assert_eq!(h.event_names().await, ["tracking_request.failed"]);
    }

    pub async fn permanent_carrier_refusals_fail_with_their_reason(backend: Backend) {
        let Some(h) = Harness::start(backend).await else {
            return;
        };
        let cancelled = h
            .create("bill_of_lading", "TEST-TR-CANCELLED", Some("TEST"))
            .await;
        let invalid = h.create("bill_of_lading", "586118841", Some("MAEU")).await;
        let withheld = h.create("bill_of_lading", "586118842", Some("MAEU")).await;
        h.sim
            .add_fault(fault("586118841", Fault::BadReference, None));
        h.sim.add_fault(fault("586118842", Fault::Forbidden, None));
        h.drain().await;
        for (request, reason) in [
            (&cancelled, FailedReason::BookingCancelled),
            (&invalid, FailedReason::InvalidNumber),
            (&withheld, FailedReason::DataUnavailable),
        ] {
            let failed = h.request(request).await;
            assert_eq!(failed.status, RequestStatus::Failed, "{reason:?}");
            assert_eq!(failed.failed_reason, Some(reason));
            assert!(!failed.is_retrying);
        }
        assert_eq!(h.drain().await, 0, "nothing more to do for failed requests");
    }

    pub async fn temporary_faults_retry_with_the_right_reason_then_succeed(backend: Backend) {
        let Some(h) = Harness::start(backend).await else {
            return;
        };
        let cases = [
            (
                "586118850",
                Fault::ServerError {
                    status: 503,
                    retry_after_seconds: None,
                },
                FailedReason::ShippingLineUnreachable,
            ),
            (
                "586118851",
                Fault::RateLimited {
                    retry_after_seconds: 30,
                },
                FailedReason::ShippingLineUnreachable,
            ),
            (
                "586118852",
                Fault::Timeout,
                FailedReason::ShippingLineUnreachable,
            ),
            (
                "586118853",
                Fault::Unauthorized,
                FailedReason::ShippingLineUnreachable,
            ),
            (
                "586118854",
                Fault::MalformedJson,
                FailedReason::UnrecognizedResponse,
            ),
            (
                "586118855",
                Fault::TruncatedJson,
                FailedReason::UnrecognizedResponse,
            ),
            (
                "586118856",
                Fault::SchemaInvalid,
                FailedReason::UnrecognizedResponse,
            ),
        ];
        let mut requests = Vec::new();
        for (number, fault_kind, reason) in cases {
            // Unauthorized is retried once with fresh credentials inside a lookup.
            h.sim.add_fault(fault(number, fault_kind, Some(2)));
            requests.push((
                h.create("bill_of_lading", number, Some("MAEU")).await,
                reason,
            ));
        }
        let scripted = h
            .create("bill_of_lading", "TEST-TR-RETRY", Some("TEST"))
            .await;
        h.drain().await;
        for (request, reason) in &requests {
            let retrying = h.request(request).await;
            assert_eq!(
                retrying.status,
                RequestStatus::Pending,
                "{}",
                request.request_number.as_str()
            );
            assert!(retrying.is_retrying);
            assert_eq!(retrying.retry_count, Some(1));
            assert_eq!(
                retrying.failed_reason,
                Some(*reason),
                "{}",
                request.request_number.as_str()
            );
        }
        assert_eq!(h.request(&scripted).await.retry_count, Some(1));
        h.advance(Duration::minutes(1));
        h.drain().await;
        assert_eq!(h.request(&scripted).await.retry_count, Some(2));
        h.advance(Duration::minutes(2));
        h.drain().await;
        for request in requests.iter().map(|(r, _)| r).chain([&scripted]) {
            let done = h.request(request).await;
            assert_eq!(
                done.status,
                RequestStatus::Created,
                "{}",
                request.request_number.as_str()
            );
            assert!(!done.is_retrying);
            assert_eq!(done.failed_reason, None);
            assert!(done.retry_count.is_some_and(|count| count >= 1));
        }
    }

    pub async fn retries_run_out_after_fourteen(backend: Backend) {
        let Some(h) = Harness::start(backend).await else {
            return;
        };
        let request = h
            .create("bill_of_lading", "TEST-TR-RETRIES-EXHAUSTED", Some("TEST"))
            .await;
        h.drain().await;
        for retry in 1..=14 {
            let retrying = h.request(&request).await;
            assert_eq!(retrying.retry_count, Some(retry));
            assert_eq!(retrying.status, RequestStatus::Pending);
            h.advance(Duration::hours(3));
            assert_eq!(h.drain().await, 1);
        }
        let failed = h.request(&request).await;
        assert_eq!(failed.status, RequestStatus::Failed);
        assert_eq!(failed.failed_reason, Some(FailedReason::RetriesExhausted));
        assert!(!failed.is_retrying);
        assert_eq!(h.sim.lookups("TEST", "TEST-TR-RETRIES-EXHAUSTED"), 15);
    }

    pub async fn a_carrier_is_detected_or_the_request_fails(backend: Backend) {
        let Some(h) = Harness::start(backend).await else {
            return;
        };
        let detected = h.create("container", "MSKU3054388", None).await;
        let hopeless = h.create("bill_of_lading", "QX7", None).await;
        h.drain().await;
        let found = h.request(&detected).await;
        assert_eq!(found.status, RequestStatus::Created);
        assert_eq!(
            found.scac.map(|s| s.as_str().to_owned()),
            Some("MAEU".to_owned())
        );
        let failed = h.request(&hopeless).await;
        assert_eq!(failed.status, RequestStatus::Failed);
        assert_eq!(
            failed.failed_reason,
            Some(FailedReason::ScacAutoDetectFailed)
        );
        assert_eq!(failed.scac, None);
    }

    pub async fn a_voyage_step_by_step_records_each_event_exactly_once(backend: Backend) {
        let Some(h) = Harness::start(backend).await else {
            return;
        };
        let request = h
            .create("bill_of_lading", "TEST-TR-JOURNEY", Some("TEST"))
            .await;
        h.drain().await;
        // Booked at the simulator's epoch: awaiting its manifest until the first boxes move.
        assert_eq!(
            h.request(&request).await.status,
            RequestStatus::AwaitingManifest
        );
        for _ in 0..7 {
            h.advance(Duration::days(1));
            h.drain().await;
        }
        assert_eq!(h.request(&request).await.status, RequestStatus::Created);
        // Play the voyage: every few hours the due refreshes run.
        for _ in 0..(24 * 120 / 3) {
            h.advance(Duration::hours(3));
            h.drain().await;
            if h.request(&request).await.status == RequestStatus::TrackingStopped {
                break;
            }
        }
        let stopped = h.request(&request).await;
        assert_eq!(stopped.status, RequestStatus::TrackingStopped);
        let tracked = h
            .store
            .tracked(request.id)
            .await
            .expect("read")
            .expect("tracked");
        assert_eq!(
            tracked.shipment.stopped_reason,
            Some(StopReason::AllContainersTerminated)
        );
        assert!(
            tracked
                .containers
                .iter()
                .all(|c| c.current_status == ContainerStatus::EmptyReturned)
        );

        // What the carrier knows at the end is exactly what was recorded.
        let (connector, _) = h
            .registry
            .connector(&tidemark_domain::Scac::parse("TEST").expect("scac"))
            .expect("sandbox");
        let LookupOutcome::Found(last) = connector
            .lookup(&Lookup {
                number: "TEST-TR-JOURNEY".to_owned(),
                kind: RequestType::BillOfLading,
            })
            .await
        else {
            panic!("the journey is found")
        };
        let mut expected = HashSet::new();
        for view in &last.containers {
            let container = tracked
                .containers
                .iter()
                .find(|c| c.number == view.number)
                .expect("every container recorded");
            for m in &view.milestones {
                expected.insert((
                    container.id,
                    TransportEventKind::Actual(m.milestone).name(),
                    m.place
                        .as_ref()
                        .map(|p| p.locode.clone())
                        .unwrap_or_default(),
                    m.at,
                ));
            }
        }
        let recorded: Vec<_> = tracked
            .events
            .iter()
            .filter(|e| matches!(e.kind, TransportEventKind::Actual(_)))
            .map(|e| {
                (
                    e.container_id,
                    e.kind.name(),
                    e.location
                        .as_ref()
                        .map(|p| p.locode.clone())
                        .unwrap_or_default(),
                    e.timestamp,
                )
            })
            .collect();
        let unique: HashSet<_> = recorded.iter().cloned().collect();
        assert_eq!(unique.len(), recorded.len(), "no transport event twice");
        assert_eq!(unique, expected);

        // One webhook-visible event per container, milestone and place; one succeeded, one stop.
        let events = h.store.domain_events(h.account.id).await.expect("events");
        let keys: HashSet<&str> = events.iter().map(|e| e.dedupe_key.as_str()).collect();
        assert_eq!(keys.len(), events.len());
        let milestones = events
            .iter()
            .filter(|e| {
                e.name.name().starts_with("container.transport.")
                    && !e.name.name().contains("estimated")
            })
            .count();
        let distinct: HashSet<_> = expected.iter().map(|(c, n, l, _)| (c, n, l)).collect();
        assert_eq!(milestones, distinct.len());
        let names: Vec<String> = events.iter().map(|e| e.name.name()).collect();
        for once in [
            "tracking_request.succeeded",
            "tracking_request.tracking_stopped",
        ] {
            assert_eq!(names.iter().filter(|n| *n == once).count(), 1, "{once}");
        }
        assert_eq!(
            names.last().map(String::as_str),
            Some("tracking_request.tracking_stopped")
        );
        for milestone in [
            "vessel_loaded",
            "vessel_departed",
            "vessel_arrived",
            "vessel_discharged",
            "full_out",
            "empty_in",
        ] {
            let name = format!("container.transport.{milestone}");
            assert!(names.contains(&name), "{name} in {names:?}");
        }
        // The simulator moves its arrival estimate during the voyage: each move is heard.
        assert!(names.contains(&"shipment.estimated.arrival".to_owned()));
        assert!(names.contains(&"container.transport.estimated.vessel_arrived".to_owned()));
        assert_eq!(h.drain().await, 0);
        assert_eq!(
            h.store.next_due(JobKind::Refresh).await.expect("next"),
            None
        );
    }

    pub async fn a_worker_that_dies_mid_job_loses_and_duplicates_nothing(backend: Backend) {
        let Some(h) = Harness::start(backend).await else {
            return;
        };
        let request = h
            .create("bill_of_lading", "TEST-TR-SUCCEEDED", Some("TEST"))
            .await;
        // A worker claims the job and dies before finishing it (its lease stays).
        let held = h
            .store
            .claim_due(JobKind::Lookup, 1, settings().lease, h.clock.now())
            .await
            .expect("claim");
        assert_eq!(held.len(), 1);
        assert_eq!(h.drain().await, 0, "the job is held");
        // A second one stalls mid-lookup at a slow carrier and is stopped.
        h.advance(Duration::seconds(61));
        h.sim.add_fault(fault(
            "TEST-TR-SUCCEEDED",
            Fault::Slow { delay_ms: 60_000 },
            Some(1),
        ));
        let stalled = h.tracker(settings());
        let shutdown = CancellationToken::new();
        let run = tokio::spawn({
            let shutdown = shutdown.clone();
            async move { stalled.run(shutdown).await }
        });
        let deadline = tokio::time::Instant::now() + StdDuration::from_secs(10);
        while h.sim.lookups("TEST", "TEST-TR-SUCCEEDED") < 1 {
            assert!(
                tokio::time::Instant::now() < deadline,
                "the stalled lookup started"
            );
            tokio::task::yield_now().await;
            tokio::time::sleep(StdDuration::from_millis(5)).await;
        }
        run.abort();
        let _ = run.await;
        assert_eq!(h.request(&request).await.status, RequestStatus::Pending);
        // After its lease, the job is claimed again and done once.
        h.advance(Duration::seconds(61));
        assert_eq!(h.drain().await, 1);
        assert_eq!(h.request(&request).await.status, RequestStatus::Created);
        let names = h.event_names().await;
        assert_eq!(
            names
                .iter()
                .filter(|n| *n == "tracking_request.succeeded")
                .count(),
            1
        );
        // The first worker wakes up and tries to finish: its lease is gone.
        assert!(!h.store.complete_job(&held[0]).await.expect("complete"));
        assert_eq!(h.event_names().await, names);
    }

    pub async fn two_trackers_never_work_one_job_at_once(backend: Backend) {
        let Some(h) = Harness::start(backend).await else {
            return;
        };
        let numbers: Vec<String> = (0..60).map(|i| format!("58611{i:04}")).collect();
        let mut requests = Vec::new();
        for number in &numbers {
            requests.push(h.create("bill_of_lading", number, Some("MAEU")).await);
        }
        let shutdown = CancellationToken::new();
        let mut runs = Vec::new();
        for _ in 0..2 {
            // Each tracker has its own connection pool, as a separate process would.
            let store = h.database.connect().await;
            let tracker = Tracker::new(
                store,
                Arc::clone(&h.registry),
                Arc::clone(&h.matrix),
                Arc::clone(&h.clock) as Arc<dyn Clock>,
                settings(),
            );
            let runner = Runner::new(
                Arc::new(tracker),
                Arc::clone(&h.clock) as Arc<dyn Clock>,
                RunnerSettings {
                    concurrency: 8,
                    poll: StdDuration::from_millis(10),
                },
            );
            let shutdown = shutdown.clone();
            runs.push(tokio::spawn(async move { runner.run(shutdown).await }));
        }
        let deadline = tokio::time::Instant::now() + StdDuration::from_secs(60);
        loop {
            let mut open = 0;
            for request in &requests {
                if h.request(request).await.status == RequestStatus::Pending {
                    open += 1;
                }
            }
            if open == 0 {
                break;
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "{open} still pending"
            );
            tokio::time::sleep(StdDuration::from_millis(20)).await;
        }
        shutdown.cancel();
        for run in runs {
            run.await.expect("runner stops");
        }
        for number in &numbers {
            assert_eq!(h.sim.lookups("MAEU", number), 1, "{number} looked up once");
        }
        let names = h.event_names().await;
        assert_eq!(
            names
                .iter()
                .filter(|n| *n == "tracking_request.succeeded")
                .count(),
            numbers.len()
        );
    }
}
