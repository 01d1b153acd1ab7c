//! The pruner: keeps the delivery log to its retention. Settled notifications that have
//! not changed for the retention are forgotten with their attempts, a batch at a time, so
//! no transaction holds the log for long (`domain::webhook::Retention` says how long; the
//! store, which ones). Several processes may prune one database: a notification is
//! deleted once, whoever gets to it.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use async_trait::async_trait;
use tidemark_domain::Timestamp;
use tidemark_domain::webhook::Retention;
use tidemark_store::Store;

use crate::WorkerError;
use crate::runner::Worker;

/// Notifications forgotten by one statement at most.
pub const PRUNE_BATCH: u32 = 500;

/// How long the pruner waits after a batch failed before it tries again.
const AFTER_FAILURE: Duration = Duration::from_secs(60);

/// Forgets settled notifications older than the retention.
#[derive(Debug)]
pub struct Pruner {
    store: Arc<dyn Store>,
    retention: Retention,
    /// After a failed batch, nothing is claimed before this.
    paused_until: Mutex<Option<Timestamp>>,
}

impl Pruner {
    /// A pruner of `store`'s delivery log.
    #[must_use]
    pub fn new(store: Arc<dyn Store>, retention: Retention) -> Self {
        Self {
            store,
            retention,
            paused_until: Mutex::new(None),
        }
    }

    fn paused_until(&self) -> Option<Timestamp> {
        *self
            .paused_until
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }
}

#[async_trait]
impl Worker for Pruner {
    /// A batch to forget: the settled notifications that last changed before this.
    type Job = Timestamp;

    fn name(&self) -> &'static str {
        "pruner"
    }

    /// One batch at a time, whatever the room: a second batch claimed before the first
    /// is deleted would be the same notifications.
    async fn claim(&self, _limit: usize, now: Timestamp) -> Result<Vec<Timestamp>, WorkerError> {
        if self.paused_until().is_some_and(|until| now < until) {
            return Ok(Vec::new());
        }
        let cutoff = self.retention.cutoff(now);
        let oldest = self.store.oldest_settled_notification().await?;
        Ok(oldest
            .filter(|changed| *changed < cutoff)
            .map(|_| cutoff)
            .into_iter()
            .collect())
    }

    async fn next_due(&self) -> Result<Option<Timestamp>, WorkerError> {
        let oldest = self.store.oldest_settled_notification().await?;
        let due = oldest.map(|changed| self.retention.forgotten_after(changed));
        Ok(due.max(self.paused_until()))
    }

    async fn work(&self, cutoff: Timestamp) {
        match self.store.forget_notifications(cutoff, PRUNE_BATCH).await {
            Ok(forgotten) => {
                metrics::counter!("tidemark_webhook_notifications_forgotten_total")
                    .increment(forgotten);
                if forgotten > 0 {
                    tracing::info!(forgotten, before = %cutoff, "delivery log pruned");
                }
            }
            Err(error) => {
                // The claim was made at the cutoff plus the retention.
                let until = self.retention.forgotten_after(cutoff) + AFTER_FAILURE;
                *self
                    .paused_until
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner) = Some(until);
                tracing::error!(%error, "pruning the delivery log failed; trying again in a minute");
            }
        }
    }
}
