//! The runner: claims, concurrency, leases, wake-ups and draining.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use tidemark_domain::ManualClock;

use super::*;

/// A worker with `total` jobs whose work ends at once; it records every claim's limit
/// and stops the runner when the last job is done.
struct Counting {
    remaining: Mutex<usize>,
    limits: Mutex<Vec<usize>>,
    done: AtomicUsize,
    total: usize,
    shutdown: CancellationToken,
}

#[async_trait]
impl Worker for Counting {
    type Job = ();

    fn name(&self) -> &'static str {
        "counting"
    }

    async fn claim(&self, limit: usize, _now: Timestamp) -> Result<Vec<()>, WorkerError> {
        self.limits.lock().expect("limits").push(limit);
        let mut remaining = self.remaining.lock().expect("remaining");
        let taken = limit.min(*remaining);
        *remaining -= taken;
        Ok(vec![(); taken])
    }

    async fn next_due(&self) -> Result<Option<Timestamp>, WorkerError> {
        Ok(None)
    }

    async fn work(&self, (): ()) {
        if self.done.fetch_add(1, Ordering::SeqCst) + 1 == self.total {
            self.shutdown.cancel();
        }
    }
}

/// A worker with no jobs that counts its lease renewals.
struct Renewing {
    renewals: AtomicUsize,
}

#[async_trait]
impl Worker for Renewing {
    type Job = ();

    fn name(&self) -> &'static str {
        "renewing"
    }

    async fn claim(&self, _limit: usize, _now: Timestamp) -> Result<Vec<()>, WorkerError> {
        Ok(Vec::new())
    }

    async fn next_due(&self) -> Result<Option<Timestamp>, WorkerError> {
        Ok(None)
    }

    async fn work(&self, (): ()) {}

    fn renew_every(&self) -> Option<Duration> {
        Some(Duration::from_millis(1))
    }

    async fn renew(&self, _now: Timestamp) -> Result<(), WorkerError> {
        self.renewals.fetch_add(1, Ordering::SeqCst);
        Ok(())
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn leases_are_renewed_while_running_and_no_longer_once_stopped_or_dropped() {
    let worker = Arc::new(Renewing {
        renewals: AtomicUsize::new(0),
    });
    let clock = Arc::new(ManualClock::new(Timestamp::from_datetime(
        time::macros::datetime!(2026-01-01 0:00 UTC),
    )));
    let runner = Arc::new(Runner::new(
        Arc::clone(&worker),
        clock,
        RunnerSettings {
            concurrency: 1,
            poll: Duration::from_millis(1),
        },
    ));
    let shutdown = CancellationToken::new();
    let run = tokio::spawn({
        let (runner, shutdown) = (Arc::clone(&runner), shutdown.clone());
        async move { runner.run(shutdown).await }
    });
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while worker.renewals.load(Ordering::SeqCst) < 3 {
        assert!(
            tokio::time::Instant::now() < deadline,
            "renewals while running"
        );
        tokio::task::yield_now().await;
    }
    // Aborted as a killed process would be: renewing stops with it.
    run.abort();
    let _ = run.await;
    let after = worker.renewals.load(Ordering::SeqCst);
    // Were renewals still running, every millisecond, fifty would come in this time.
    let went_on = tokio::time::timeout(Duration::from_millis(50), async {
        while worker.renewals.load(Ordering::SeqCst) <= after + 1 {
            tokio::task::yield_now().await;
        }
    })
    .await;
    assert!(
        went_on.is_err(),
        "renewals went on after the runner was dropped"
    );
    shutdown.cancel();
}

// One thread, so finished jobs are noticed one at a time: a runner refilling per job
// would claim with a limit of 1.
#[tokio::test(flavor = "current_thread")]
async fn slots_are_refilled_in_batches_and_every_job_is_done_once() {
    let shutdown = CancellationToken::new();
    let worker = Arc::new(Counting {
        remaining: Mutex::new(100),
        limits: Mutex::new(Vec::new()),
        done: AtomicUsize::new(0),
        total: 100,
        shutdown: shutdown.clone(),
    });
    let clock = Arc::new(ManualClock::new(Timestamp::from_datetime(
        time::macros::datetime!(2026-01-01 0:00 UTC),
    )));
    let settings = RunnerSettings {
        concurrency: 8,
        poll: Duration::from_millis(1),
    };
    Runner::new(Arc::clone(&worker), clock, settings)
        .run(shutdown)
        .await;

    assert_eq!(worker.done.load(Ordering::SeqCst), 100);
    let limits = worker.limits.lock().expect("limits").clone();
    assert_eq!(limits.first(), Some(&8));
    assert!(
        limits.iter().all(|limit| *limit >= 2),
        "claims of fewer than a quarter of the slots: {limits:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bell_ends_an_idle_wait_before_the_poll() {
    let shutdown = CancellationToken::new();
    let worker = Arc::new(Counting {
        remaining: Mutex::new(0),
        limits: Mutex::new(Vec::new()),
        done: AtomicUsize::new(0),
        total: 1,
        shutdown: shutdown.clone(),
    });
    let clock = Arc::new(ManualClock::new(Timestamp::from_datetime(
        time::macros::datetime!(2026-01-01 0:00 UTC),
    )));
    let bell = Arc::new(Notify::new());
    // A poll far longer than the test may take.
    let settings = RunnerSettings {
        concurrency: 4,
        poll: Duration::from_secs(600),
    };
    let runner = Runner::new(Arc::clone(&worker), clock, settings).wake_on(Arc::clone(&bell));
    let run = tokio::spawn({
        let shutdown = shutdown.clone();
        async move { runner.run(shutdown).await }
    });
    // Once it has found nothing and gone idle, work arrives and the bell rings.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while worker.limits.lock().expect("limits").is_empty() {
        assert!(tokio::time::Instant::now() < deadline, "the first claim");
        tokio::task::yield_now().await;
    }
    *worker.remaining.lock().expect("remaining") = 1;
    bell.notify_one();
    tokio::time::timeout(Duration::from_secs(10), run)
        .await
        .expect("done long before the poll")
        .expect("the runner");
    assert_eq!(worker.done.load(Ordering::SeqCst), 1);
}
