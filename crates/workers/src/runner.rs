//! The job runner: keeps up to `concurrency` jobs of one worker in flight, claims more as
//! they finish, and sleeps while nothing is due. Tests and the CLI use
//! [`Runner::run_until_idle`] to drain the queue instead of waiting.

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use tidemark_domain::{Clock, Timestamp};
use tokio::sync::Notify;
use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;

use crate::WorkerError;

/// The shortest idle sleep, so a job due "now" but not yet claimable never spins the loop.
const MIN_WAIT: Duration = Duration::from_millis(5);

/// A kind of background work: how to claim it and how to do it.
#[async_trait]
pub trait Worker: Send + Sync + 'static {
    /// One claimed unit of work.
    type Job: Send + 'static;

    /// A name for logs.
    fn name(&self) -> &'static str;

    /// Claims up to `limit` jobs due at `now`.
    async fn claim(&self, limit: usize, now: Timestamp) -> Result<Vec<Self::Job>, WorkerError>;

    /// When the next job falls due, if any is queued.
    async fn next_due(&self) -> Result<Option<Timestamp>, WorkerError>;

    /// Does one job. Failures are the worker's to log; an unfinished job's lease runs out
    /// and it is claimed again.
    async fn work(&self, job: Self::Job);

    /// How often [`Worker::renew`] should run while the runner works; `None`: never.
    fn renew_every(&self) -> Option<Duration> {
        None
    }

    /// Renews the leases of the jobs in hand, so they stay held while they are worked and
    /// lapse soon after this process dies.
    async fn renew(&self, _now: Timestamp) -> Result<(), WorkerError> {
        Ok(())
    }
}

/// How a runner paces itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RunnerSettings {
    /// Jobs in flight at once.
    pub concurrency: usize,
    /// Longest sleep while idle: new jobs are noticed within it.
    pub poll: Duration,
}

impl Default for RunnerSettings {
    fn default() -> Self {
        Self {
            concurrency: 32,
            poll: Duration::from_millis(100),
        }
    }
}

/// Runs one worker.
#[derive(Debug)]
pub struct Runner<W> {
    worker: Arc<W>,
    clock: Arc<dyn Clock>,
    settings: RunnerSettings,
    wake: Option<Arc<Notify>>,
}

impl<W: Worker> Runner<W> {
    /// A runner of `worker` on `clock`.
    pub fn new(worker: Arc<W>, clock: Arc<dyn Clock>, settings: RunnerSettings) -> Self {
        Self {
            worker,
            clock,
            settings: RunnerSettings {
                concurrency: settings.concurrency.max(1),
                ..settings
            },
            wake: None,
        }
    }

    /// The worker it runs.
    #[must_use]
    pub fn worker(&self) -> &W {
        &self.worker
    }

    /// Ends an idle wait early when `bell` rings (new work in this process), instead of
    /// at the next poll.
    #[must_use]
    pub fn wake_on(mut self, bell: Arc<Notify>) -> Self {
        self.wake = Some(bell);
        self
    }

    /// Does every job due now, including jobs those jobs schedule for now, and returns how
    /// many it did. Jobs due later (by the clock) are left.
    ///
    /// # Errors
    /// When claiming fails.
    pub async fn run_until_idle(&self) -> Result<usize, WorkerError> {
        let mut done = 0;
        loop {
            let jobs = self
                .worker
                .claim(self.settings.concurrency, self.clock.now())
                .await?;
            if jobs.is_empty() {
                return Ok(done);
            }
            done += jobs.len();
            let mut in_flight = JoinSet::new();
            for job in jobs {
                let worker = Arc::clone(&self.worker);
                in_flight.spawn(async move { worker.work(job).await });
            }
            while in_flight.join_next().await.is_some() {}
        }
    }

    /// Works until `shutdown` is cancelled, then lets the jobs in hand finish.
    pub async fn run(&self, shutdown: CancellationToken) {
        let finished = CancellationToken::new();
        // Renewals stop with this future, even when it is dropped (the task aborted).
        let _stop_renewing = finished.clone().drop_guard();
        let renewals = self.worker.renew_every().map(|every| {
            let (worker, clock, finished) = (
                Arc::clone(&self.worker),
                Arc::clone(&self.clock),
                finished.clone(),
            );
            tokio::spawn(async move {
                let mut tick = tokio::time::interval(every);
                tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
                loop {
                    tokio::select! {
                        () = finished.cancelled() => return,
                        _ = tick.tick() => {}
                    }
                    if let Err(error) = worker.renew(clock.now()).await {
                        tracing::error!(worker = worker.name(), %error, "renewing leases failed");
                    }
                }
            })
        });
        self.work_until(shutdown).await;
        finished.cancel();
        if let Some(renewals) = renewals {
            let _ = renewals.await;
        }
    }

    async fn work_until(&self, shutdown: CancellationToken) {
        let mut in_flight = JoinSet::new();
        let mut failures: u32 = 0;
        // Claiming is a write (a lease), so slots are refilled in batches rather than one
        // by one as each job ends: a claim per finished job would make the claim's commit
        // the runner's pace.
        let batch = (self.settings.concurrency / 4).max(1);
        while !shutdown.is_cancelled() {
            let room = self.settings.concurrency.saturating_sub(in_flight.len());
            // With too few slots free, wait for more to free; otherwise claim, and sleep
            // only when nothing was due.
            let wait = if room < batch {
                None
            } else {
                match self.claim_into(&mut in_flight, room).await {
                    // Less than asked for: nothing more is due (or, for deliveries, what
                    // is due waits for room at its webhook), so claiming again at once
                    // would find nothing; wait for a job to end or for the next due.
                    Ok(claimed) if claimed < room => {
                        failures = 0;
                        Some(self.idle_wait().await)
                    }
                    Ok(_) => {
                        failures = 0;
                        continue;
                    }
                    Err(error) => {
                        failures = failures.saturating_add(1);
                        tracing::error!(worker = self.worker.name(), %error, "claiming jobs failed");
                        Some(self.settings.poll * failures.min(50))
                    }
                }
            };
            let rung = async {
                match &self.wake {
                    Some(bell) => bell.notified().await,
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                () = shutdown.cancelled() => {}
                () = tokio::time::sleep(wait.unwrap_or_default()), if wait.is_some() => {}
                () = rung, if wait.is_some() => {}
                Some(_) = in_flight.join_next(), if !in_flight.is_empty() => {}
            }
            // Jobs that ended together free their slots together: one claim refills them.
            while in_flight.try_join_next().is_some() {}
        }
        if !in_flight.is_empty() {
            tracing::info!(
                worker = self.worker.name(),
                jobs = in_flight.len(),
                "finishing the jobs in hand"
            );
        }
        while in_flight.join_next().await.is_some() {}
    }

    async fn claim_into(
        &self,
        in_flight: &mut JoinSet<()>,
        room: usize,
    ) -> Result<usize, WorkerError> {
        let jobs = self.worker.claim(room, self.clock.now()).await?;
        let count = jobs.len();
        for job in jobs {
            let worker = Arc::clone(&self.worker);
            in_flight.spawn(async move { worker.work(job).await });
        }
        Ok(count)
    }

    /// How long to sleep with nothing to claim: until the next job is due, at most `poll`.
    async fn idle_wait(&self) -> Duration {
        let poll = self.settings.poll;
        match self.worker.next_due().await {
            Ok(Some(due)) => {
                let until = due.as_datetime() - self.clock.now().as_datetime();
                Duration::try_from(until)
                    .unwrap_or(Duration::ZERO)
                    .clamp(MIN_WAIT, poll.max(MIN_WAIT))
            }
            _ => poll,
        }
    }
}

#[cfg(test)]
mod tests {
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
}
