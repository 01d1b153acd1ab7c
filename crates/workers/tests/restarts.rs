//! What a restart does. After a crash (kill -9), a process that died holding lookup jobs or
//! webhook deliveries has stopped renewing their leases, and a restarted process takes them
//! over one lease later (5 s by default), not after the longest a lookup or delivery may
//! take; the dead process is an aborted runner task. A restart with shorter intervals
//! applies them to requests already tracked. Both clocks are driven by the test.

mod support;

#[path = "dispatcher/receiver.rs"]
mod receiver;

use cases::*;
use support::on;

tidemark_store::backends!(
    on,
    a_restarted_dispatcher_resumes_a_dead_ones_deliveries_within_a_lease,
    a_restarted_tracker_resumes_a_dead_ones_lookups_within_a_lease,
    a_restart_with_shorter_intervals_brings_queued_jobs_forward,
);

mod cases {

    use std::sync::atomic::Ordering;
    use std::time::Duration;

    use carrier_sim::{Fault, FaultRule};
    use tidemark_domain::lifecycle::Policy;
    use tidemark_domain::{Clock, JobKind, RequestStatus};
    use tidemark_store::testing::Backend;
    use tidemark_workers::{DispatcherSettings, Runner, TrackerSettings};
    use tokio_util::sync::CancellationToken;

    use crate::receiver::{Receiver, dispatcher, local, subscribe};

    /// Starts `runner` as a process would, and returns its task, to be aborted.
    fn spawn<W: tidemark_workers::Worker>(runner: Runner<W>) -> tokio::task::JoinHandle<()> {
        tokio::spawn(async move { runner.run(CancellationToken::new()).await })
    }

    /// Polls `done` until it holds, for at most ten seconds.
    async fn eventually(what: &str, mut done: impl FnMut() -> bool) {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
        while !done() {
            assert!(tokio::time::Instant::now() < deadline, "{what}");
            tokio::task::yield_now().await;
        }
    }

    fn seconds(duration: Duration) -> time::Duration {
        time::Duration::try_from(duration).expect("a duration")
    }

    pub async fn a_restarted_dispatcher_resumes_a_dead_ones_deliveries_within_a_lease(
        backend: Backend,
    ) {
        let h = crate::support::start(backend, crate::support::sim_config()).await;
        let lease = DispatcherSettings::default().lease;
        assert!(
            lease <= Duration::from_secs(5),
            "the default lease: {lease:?}"
        );
        let (held, held_url, _gate) = Receiver::held().await;
        subscribe(&h, &held_url, &[]).await;
        h.test_bill("TEST-TR-SUCCEEDED").await;
        h.drain().await;

        // A dispatcher takes as many as the webhook may have in flight, and dies waiting
        // for the receiver.
        let per_webhook = DispatcherSettings::default().per_webhook;
        let dead = spawn(dispatcher(&h, local()));
        let arrived = || held.arrived.load(Ordering::SeqCst);
        eventually("the first deliveries are sent", || arrived() == per_webhook).await;
        dead.abort();
        let _ = dead.await;

        // Restarted: until a lease has passed, its slots are still taken.
        let restarted = dispatcher(&h, local());
        h.advance(seconds(lease) - time::Duration::milliseconds(100));
        assert_eq!(restarted.run_until_idle().await.expect("drained"), 0);
        // A lease after the dead one's last renewal, they are delivered again.
        h.advance(time::Duration::milliseconds(200));
        let resumed = tokio::spawn(async move { restarted.run_until_idle().await });
        eventually("the deliveries resume", || arrived() > per_webhook).await;
        resumed.abort();
    }

    pub async fn a_restarted_tracker_resumes_a_dead_ones_lookups_within_a_lease(backend: Backend) {
        let h = crate::support::start(backend, crate::support::sim_config()).await;
        let settings = TrackerSettings::default();
        assert!(
            settings.lease <= Duration::from_secs(5),
            "{:?}",
            settings.lease
        );
        // A restarted process, with the default (short) lease.
        let restart = || {
            h.another_process(move |config| {
                config.tracker.lease = settings.lease;
            })
        };
        // The carrier hangs; the tracker asking it dies.
        h.sim.add_fault(FaultRule {
            terminal: None,
            scac: None,
            reference: None,
            fault: Fault::Timeout,
            times: None,
        });
        let request = h.test_bill("TEST-TR-SUCCEEDED").await;
        let dead = restart().await;
        let dead = tokio::spawn(async move {
            let tracker = dead.tracker().expect("a tracker");
            tracker.run(CancellationToken::new()).await;
        });
        eventually("the carrier is asked", || {
            h.sim.lookups("TEST", "TEST-TR-SUCCEEDED") > 0
        })
        .await;
        dead.abort();
        let _ = dead.await;
        h.sim.clear_faults();

        let restarted = restart().await;
        let restarted = restarted.tracker().expect("a tracker");
        h.advance(seconds(settings.lease) - time::Duration::milliseconds(100));
        assert_eq!(
            restarted.run_until_idle().await.expect("drained"),
            0,
            "held"
        );
        h.advance(time::Duration::milliseconds(200));
        assert_eq!(
            restarted.run_until_idle().await.expect("drained"),
            2,
            "the lookup, then the arrival estimate of the shipment at sea"
        );
        assert_eq!(h.stored(&request).await.status, RequestStatus::Created);
    }

    pub async fn a_restart_with_shorter_intervals_brings_queued_jobs_forward(backend: Backend) {
        let h = crate::support::start(backend, crate::support::sim_config()).await;
        let found = h.test_bill("TEST-TR-SUCCEEDED").await;
        let waiting = h.test_bill("TEST-TR-AWAITING-MANIFEST").await;
        h.drain().await;
        assert_eq!(h.stored(&found).await.status, RequestStatus::Created);
        assert_eq!(
            h.stored(&waiting).await.status,
            RequestStatus::AwaitingManifest
        );
        let now = h.clock.now();
        let default = Policy::default();
        let refresh = h.store.next_due(JobKind::Refresh).await.expect("next");
        assert!(refresh.is_some_and(|due| due > now + Duration::from_secs(600)));

        // Restarted with ten-second refreshes and re-checks.
        let fast = Policy {
            refresh: Duration::from_secs(10),
            refresh_at_sea: Duration::from_secs(10),
            refresh_near: Duration::from_secs(10),
            manifest_recheck: Duration::from_secs(10),
            retry_max: Duration::from_secs(10),
            ..default
        };
        let restarted = h
            .another_process(move |config| {
                config.tracking = fast;
                config.sandbox.tracking = fast;
                config.tracker.lease = TrackerSettings::default().lease;
            })
            .await;
        let tracker = restarted.tracker().expect("a tracker").worker();
        assert_eq!(tracker.align_schedule().await.expect("aligned"), 2);
        let soon = now + Duration::from_secs(10);
        for kind in [JobKind::Refresh, JobKind::Lookup] {
            let due = h.store.next_due(kind).await.expect("next");
            assert_eq!(due, Some(soon), "{kind:?}");
        }
        // Nothing queued later remains; a second alignment moves nothing.
        assert_eq!(tracker.align_schedule().await.expect("aligned"), 0);
    }
}
