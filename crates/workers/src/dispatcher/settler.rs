//! Group commit of attempts: deliveries hand what they did to one task, which records
//! everything queued in one transaction. Under load many attempts share a commit (and its
//! sync to disk); on an idle queue a lone attempt is written at once. A delivery's attempt
//! is recorded before its job ends, so a crash between the two only repeats the delivery
//! once its lease runs out.

use std::sync::{Arc, Mutex, PoisonError};

use tidemark_domain::Timestamp;
use tidemark_domain::webhook::{Attempt, ClaimedNotification, Settlement};
use tidemark_store::{Settle, Store};
use tokio::sync::{mpsc, oneshot};

use crate::WorkerError;

/// The most attempts one commit records.
const MOST_AT_ONCE: usize = 256;

/// An attempt waiting for its commit.
struct Queued {
    claimed: ClaimedNotification,
    attempt: Attempt,
    settlement: Settlement,
    failing_cutoff: Timestamp,
    done: oneshot::Sender<Result<bool, String>>,
}

/// Records attempts, many per commit.
pub(crate) struct Settler {
    store: Arc<dyn Store>,
    queue: mpsc::UnboundedSender<Queued>,
    /// Taken by the task that commits, started with the first attempt.
    waiting: Mutex<Option<mpsc::UnboundedReceiver<Queued>>>,
}

impl std::fmt::Debug for Settler {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Settler").finish_non_exhaustive()
    }
}

impl Settler {
    pub(crate) fn new(store: Arc<dyn Store>) -> Self {
        let (queue, waiting) = mpsc::unbounded_channel();
        Self {
            store,
            queue,
            waiting: Mutex::new(Some(waiting)),
        }
    }

    /// Records `attempt` and what it decided, if the claim still holds; whether it did.
    pub(crate) async fn settle(
        &self,
        claimed: ClaimedNotification,
        attempt: Attempt,
        settlement: Settlement,
        failing_cutoff: Timestamp,
    ) -> Result<bool, WorkerError> {
        let waiting = self
            .waiting
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        if let Some(waiting) = waiting {
            tokio::spawn(commit_all(Arc::clone(&self.store), waiting));
        }
        let (done, result) = oneshot::channel();
        let queued = Queued {
            claimed,
            attempt,
            settlement,
            failing_cutoff,
            done,
        };
        let gone = || WorkerError::Setup("the attempt log's writer stopped".to_owned());
        self.queue.send(queued).map_err(|_| gone())?;
        result
            .await
            .map_err(|_| gone())?
            .map_err(|error| WorkerError::Setup(format!("recording attempts failed: {error}")))
    }
}

/// Commits what is queued, in batches, until every sender is gone.
async fn commit_all(store: Arc<dyn Store>, mut waiting: mpsc::UnboundedReceiver<Queued>) {
    while let Some(first) = waiting.recv().await {
        let mut batch = vec![first];
        while batch.len() < MOST_AT_ONCE {
            match waiting.try_recv() {
                Ok(next) => batch.push(next),
                Err(_) => break,
            }
        }
        let settles: Vec<Settle<'_>> = batch
            .iter()
            .map(|queued| Settle {
                claimed: &queued.claimed,
                attempt: &queued.attempt,
                settlement: &queued.settlement,
                failing_cutoff: queued.failing_cutoff,
            })
            .collect();
        let outcome = store.settle_notifications(&settles).await;
        drop(settles);
        match outcome {
            Ok(held) => {
                for (queued, held) in batch.into_iter().zip(held) {
                    let _ = queued.done.send(Ok(held));
                }
            }
            Err(error) => {
                let error = error.to_string();
                for queued in batch {
                    let _ = queued.done.send(Err(error.clone()));
                }
            }
        }
    }
}
