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

use crate::{Heartbeat, WorkerError};

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
    heartbeat: Arc<Heartbeat>,
}

impl<W: Worker> Runner<W> {
    /// A runner of `worker` on `clock`.
    pub fn new(worker: Arc<W>, clock: Arc<dyn Clock>, settings: RunnerSettings) -> Self {
        let worker_name = worker.name();
        Self {
            worker,
            clock,
            settings: RunnerSettings {
                concurrency: settings.concurrency.max(1),
                ..settings
            },
            wake: None,
            heartbeat: Arc::new(Heartbeat::new(worker_name, settings.poll)),
        }
    }

    /// The beat of its loop, for readiness.
    #[must_use]
    pub fn heartbeat(&self) -> Arc<Heartbeat> {
        Arc::clone(&self.heartbeat)
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
            self.heartbeat.beat();
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
                        // With jobs in hand, the next to end wakes the loop: the next due
                        // is looked up only when nothing is (a query per claim, otherwise,
                        // under a deep backlog held to a webhook's room).
                        Some(if in_flight.is_empty() {
                            self.idle_wait().await
                        } else {
                            self.settings.poll
                        })
                    }
                    Ok(_) => {
                        failures = 0;
                        continue;
                    }
                    Err(error) => {
                        failures = failures.saturating_add(1);
                        // A full disk or a database out of reach is said once per streak
                        // here (the store counts and logs it too), not once per poll.
                        let known = matches!(&error, WorkerError::Store(store)
                            if store.is_storage_full() || store.is_unavailable());
                        if failures == 1 || !known {
                            tracing::error!(worker = self.worker.name(), %error, failures, "claiming jobs failed");
                        } else {
                            tracing::debug!(worker = self.worker.name(), %error, failures, "claiming jobs failed");
                        }
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
mod tests;
