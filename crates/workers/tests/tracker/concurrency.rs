//! A worker that dies mid-job, and two trackers sharing one queue.

use std::time::Duration as StdDuration;

use carrier_sim::Fault;
use tidemark_domain::{Clock, JobKind, RequestStatus};
use time::Duration;
use tokio_util::sync::CancellationToken;

use crate::lifecycle::fault;
use crate::support::{TestApp, settings};

pub async fn a_worker_that_dies_mid_job_loses_and_duplicates_nothing(h: TestApp) {
    let request = h.test_bill("TEST-TR-SUCCEEDED").await;
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
    let stalled = h.another_process(|_| {}).await;
    let run = tokio::spawn(async move {
        let tracker = stalled.tracker().expect("a tracker");
        tracker.run(CancellationToken::new()).await;
    });
    let deadline = tokio::time::Instant::now() + StdDuration::from_secs(10);
    while h.sim.lookups("TEST", "TEST-TR-SUCCEEDED") < 1 {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the stalled lookup started"
        );
        // The simulator counts the lookup as it arrives; nothing rings for it.
        tokio::task::yield_now().await;
    }
    run.abort();
    let _ = run.await;
    assert_eq!(h.stored(&request).await.status, RequestStatus::Pending);
    // After its lease, the job is claimed again and done once.
    h.advance(Duration::seconds(61));
    assert_eq!(h.drain().await, 2, "the lookup, then an arrival estimate");
    assert_eq!(h.stored(&request).await.status, RequestStatus::Created);
    assert_eq!(h.count_events("tracking_request.succeeded").await, 1);
    let names = h.event_names().await;
    // The first worker wakes up and tries to finish: its lease is gone.
    assert!(!h.store.complete_job(&held[0]).await.expect("complete"));
    assert_eq!(h.event_names().await, names);
}

pub async fn two_trackers_never_work_one_job_at_once(h: TestApp) {
    let numbers: Vec<String> = (0..60).map(|i| format!("58611{i:04}")).collect();
    let mut requests = Vec::new();
    for number in &numbers {
        requests.push(h.open("bill_of_lading", number, Some("MAEU")).await);
    }
    let shutdown = CancellationToken::new();
    let mut runs = Vec::new();
    for _ in 0..2 {
        // Another process, with its own connection pool, eight lookups at a time.
        let process = h
            .another_process(|config| {
                config.tracker.workers = std::num::NonZeroU32::new(8).expect("non-zero");
                config.tracker.poll = StdDuration::from_millis(10);
            })
            .await;
        let shutdown = shutdown.clone();
        runs.push(tokio::spawn(async move {
            let tracker = process.tracker().expect("a tracker");
            tracker.run(shutdown).await;
        }));
    }
    tidemark_testkit::poll_until(
        std::time::Instant::now(),
        StdDuration::from_secs(60),
        || "every request leaves pending".to_owned(),
        async || {
            for request in &requests {
                if h.stored(request).await.status == RequestStatus::Pending {
                    return false;
                }
            }
            true
        },
    )
    .await;
    shutdown.cancel();
    for run in runs {
        run.await.expect("runner stops");
    }
    for number in &numbers {
        assert_eq!(h.sim.lookups("MAEU", number), 1, "{number} looked up once");
    }
    assert_eq!(
        h.count_events("tracking_request.succeeded").await,
        numbers.len()
    );
}
