//! Group commit for lookups on SQLite.
//!
//! A lookup's effects are one transaction (see [`crate::plan`]), and on SQLite every
//! transaction goes through the single writer connection and, with `synchronous=FULL`,
//! waits for the disk. One transaction per lookup would make that fsync the tracker's
//! ceiling. So lookups queue here; one task takes everything queued (up to
//! [`MAX_BATCH`]) and runs each plan inside its own `SAVEPOINT` of one `BEGIN IMMEDIATE`
//! transaction: a plan whose checks fail (lease lost, request changed, duplicate) is rolled
//! back to its savepoint alone, the others stay. Each caller is answered only after the
//! shared `COMMIT`, so a lookup is reported committed only once it is durable.

use sqlx::sqlite::SqlitePool;
use sqlx::{Sqlite, SqliteConnection};
use tokio::sync::{mpsc, oneshot};

use super::tracking::bind;
use crate::plan::Plan;
use crate::{CommitOutcome, StoreError};

/// Most lookups in one transaction.
const MAX_BATCH: usize = 64;

struct Pending {
    plan: Plan,
    reply: oneshot::Sender<Result<CommitOutcome, StoreError>>,
}

impl std::fmt::Debug for Pending {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pending")
            .field("steps", &self.plan.steps.len())
            .finish()
    }
}

/// The queue in front of the lookup writer task.
#[derive(Debug, Clone)]
pub(super) struct CommitQueue {
    sender: mpsc::Sender<Pending>,
}

impl CommitQueue {
    /// Starts the writer task on `pool`; it ends when the last queue handle is dropped.
    pub(super) fn start(pool: SqlitePool) -> Self {
        let (sender, receiver) = mpsc::channel(4 * MAX_BATCH);
        tokio::spawn(run(pool, receiver));
        Self { sender }
    }

    /// Runs `plan`, returning its outcome once the transaction holding it committed.
    pub(super) async fn commit(&self, plan: Plan) -> Result<CommitOutcome, StoreError> {
        let (reply, answer) = oneshot::channel();
        self.sender
            .send(Pending { plan, reply })
            .await
            .map_err(|_| StoreError::WriterStopped)?;
        answer.await.map_err(|_| StoreError::WriterStopped)?
    }
}

async fn run(pool: SqlitePool, mut receiver: mpsc::Receiver<Pending>) {
    let mut batch = Vec::with_capacity(MAX_BATCH);
    while receiver.recv_many(&mut batch, MAX_BATCH).await > 0 {
        match write(&pool, &batch).await {
            Ok(outcomes) => {
                for (pending, outcome) in batch.drain(..).zip(outcomes) {
                    let _ = pending.reply.send(outcome);
                }
            }
            Err(error) => {
                tracing::error!(%error, lookups = batch.len(), "lookup group commit failed");
                let message = error.to_string();
                for pending in batch.drain(..) {
                    let _ = pending
                        .reply
                        .send(Err(StoreError::BatchFailed(message.clone())));
                }
            }
        }
    }
}

/// Runs one batch in one transaction; one outcome per plan, in order. An error here fails
/// the whole batch (nothing of it committed).
async fn write(
    pool: &SqlitePool,
    batch: &[Pending],
) -> Result<Vec<Result<CommitOutcome, StoreError>>, StoreError> {
    let mut tx = pool.begin_with("BEGIN IMMEDIATE").await?;
    let mut outcomes = Vec::with_capacity(batch.len());
    for pending in batch {
        sqlx::query("SAVEPOINT lookup").execute(&mut *tx).await?;
        let outcome = run_plan(&mut tx, &pending.plan).await;
        if !matches!(outcome, Ok(CommitOutcome::Committed)) {
            sqlx::query("ROLLBACK TO lookup").execute(&mut *tx).await?;
        }
        sqlx::query("RELEASE lookup").execute(&mut *tx).await?;
        outcomes.push(outcome);
    }
    tx.commit().await?;
    Ok(outcomes)
}

/// Runs a plan's steps and decides its outcome; a unique violation on the request's step
/// means the request became a duplicate of an open one.
async fn run_plan(
    connection: &mut SqliteConnection,
    plan: &Plan,
) -> Result<CommitOutcome, StoreError> {
    let mut affected = Vec::with_capacity(plan.steps.len());
    for (index, step) in plan.steps.iter().enumerate() {
        let query = step
            .values
            .iter()
            .fold(sqlx::query::<Sqlite>(step.sql), bind);
        match query.execute(&mut *connection).await {
            Ok(done) => affected.push(done.rows_affected()),
            Err(sqlx::Error::Database(error))
                if error.is_unique_violation() && plan.is_request_step(index) =>
            {
                return Err(StoreError::Duplicate { existing_id: None });
            }
            Err(error) => return Err(error.into()),
        }
    }
    Ok(plan.outcome(&affected))
}
