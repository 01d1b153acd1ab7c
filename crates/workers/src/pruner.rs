//! The pruner: keeps the delivery log to its retention. Settled notifications that have
//! not changed for the retention are forgotten with their attempts, a batch at a time
//! with a pause after each full one, so a long backlog (a first start with a year of log)
//! takes a small share of the database's writes while it lasts: a batch of 200 takes
//! about 14 ms on SQLite and 9 ms on PostgreSQL here, so about 7 % of the writer's time
//! (`domain::webhook::Retention` says how long; the store, which ones). Several processes
//! may prune one database: a notification is deleted once, whoever gets to it.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use async_trait::async_trait;
use tidemark_domain::Timestamp;
use tidemark_domain::webhook::Retention;
use tidemark_store::Store;

use crate::WorkerError;
use crate::runner::Worker;

/// Notifications forgotten by one statement at most.
pub const PRUNE_BATCH: u32 = 200;

/// The pause after a full batch, before the next.
pub const BETWEEN_BATCHES: Duration = Duration::from_millis(200);

/// How long the pruner waits after a batch failed before it tries again.
const AFTER_FAILURE: Duration = Duration::from_secs(60);

/// Forgets settled notifications older than the retention.
#[derive(Debug)]
pub struct Pruner {
    store: Arc<dyn Store>,
    retention: Retention,
    batch: u32,
    /// After a full or a failed batch, nothing is claimed before this.
    paused_until: Mutex<Option<Timestamp>>,
}

impl Pruner {
    /// A pruner of `store`'s delivery log.
    #[must_use]
    pub fn new(store: Arc<dyn Store>, retention: Retention) -> Self {
        Self {
            store,
            retention,
            batch: PRUNE_BATCH,
            paused_until: Mutex::new(None),
        }
    }

    /// This pruner, forgetting at most `batch` notifications a statement (at least one).
    #[must_use]
    pub fn with_batch(self, batch: u32) -> Self {
        Self {
            batch: batch.max(1),
            ..self
        }
    }

    fn paused_until(&self) -> Option<Timestamp> {
        *self
            .paused_until
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// Whether a pause holds at `now`; one that has passed is forgotten, so it is never
    /// taken for work due.
    fn paused_at(&self, now: Timestamp) -> bool {
        let mut paused = self
            .paused_until
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        match *paused {
            Some(until) if now < until => true,
            Some(_) => {
                *paused = None;
                false
            }
            None => false,
        }
    }

    /// Claims nothing before `until`.
    fn pause(&self, until: Timestamp) {
        *self
            .paused_until
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = Some(until);
    }
}

#[async_trait]
impl Worker for Pruner {
    /// A batch to forget, by when it was claimed: the settled notifications that last
    /// changed a retention before then.
    type Job = Timestamp;

    fn name(&self) -> &'static str {
        "pruner"
    }

    /// One batch at a time, whatever the room: a second batch claimed before the first
    /// is deleted would be the same notifications.
    async fn claim(&self, _limit: usize, now: Timestamp) -> Result<Vec<Timestamp>, WorkerError> {
        if self.paused_at(now) {
            return Ok(Vec::new());
        }
        let cutoff = self.retention.cutoff(now);
        let oldest = self.store.oldest_settled_notification().await?;
        Ok(oldest
            .filter(|changed| *changed < cutoff)
            .map(|_| now)
            .into_iter()
            .collect())
    }

    async fn next_due(&self) -> Result<Option<Timestamp>, WorkerError> {
        let oldest = self.store.oldest_settled_notification().await?;
        let due = oldest.map(|changed| self.retention.forgotten_after(changed));
        Ok(due.max(self.paused_until()))
    }

    async fn work(&self, claimed_at: Timestamp) {
        let cutoff = self.retention.cutoff(claimed_at);
        match self.store.forget_notifications(cutoff, self.batch).await {
            Ok(forgotten) => {
                metrics::counter!(tidemark_wire::metrics::NOTIFICATIONS_FORGOTTEN.name)
                    .increment(forgotten);
                if forgotten > 0 {
                    tracing::debug!(forgotten, before = %cutoff, "delivery log pruned");
                }
                if forgotten >= u64::from(self.batch) {
                    self.pause(claimed_at + BETWEEN_BATCHES);
                }
            }
            Err(error) => {
                self.pause(claimed_at + AFTER_FAILURE);
                tracing::error!(%error, "pruning the delivery log failed; trying again in a minute");
            }
        }
    }
}
