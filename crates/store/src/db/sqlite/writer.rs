//! The one SQLite writer, with group commit.
//!
//! SQLite has one writer at a time, and with `synchronous=FULL` every commit waits for the
//! disk: one transaction per write would make that flush every writer's ceiling. So every
//! write is a [`Unit`] queued here; one thread, owning the one read-write connection, takes
//! everything queued (up to [`MAX_BATCH`]) and runs each unit inside its own `SAVEPOINT` of
//! one `BEGIN IMMEDIATE` transaction. A unit whose guards fail, or that fails, is rolled
//! back to its savepoint alone; the others stay. Each caller is answered only after the
//! shared `COMMIT`, so a write is acknowledged only once it is durable.
//!
//! The thread runs statements on its own connection, without crossing threads per
//! statement, so a batch of creates costs microseconds each besides the one flush.

use std::time::Duration;

use rusqlite::{Connection, ErrorCode};
use tokio::sync::{mpsc, oneshot};

use super::anchor::Anchor;
use super::statement;
use crate::StoreError;
use crate::db::{Unit, Written};

/// Most units in one transaction.
const MAX_BATCH: usize = 256;

/// How long the writer waits with nothing to write before it takes the read anchor: under
/// a stream of writes (batches a millisecond or so apart) it never takes it, since taking
/// it just after a commit costs the writer a new read mark each time (about a sixth fewer
/// creates a second when it was taken whenever the queue was empty).
const IDLE: Duration = Duration::from_millis(50);

struct Pending {
    unit: Unit,
    reply: oneshot::Sender<Result<Written, StoreError>>,
}

/// The queue in front of the writer thread.
#[derive(Debug, Clone)]
pub(super) struct Writer {
    sender: mpsc::Sender<Pending>,
}

impl Writer {
    /// Starts the writer thread on `connection`, holding `anchor` while idle (see
    /// `anchor`); it ends when the last handle is dropped.
    pub(super) fn start(
        connection: Connection,
        anchor: Option<Anchor>,
    ) -> Result<Self, StoreError> {
        let (sender, receiver) = mpsc::channel(4 * MAX_BATCH);
        std::thread::Builder::new()
            .name("sqlite-writer".to_owned())
            .spawn(move || run(&connection, anchor, receiver))
            .map_err(|error| StoreError::corrupt(format!("the writer thread: {error}")))?;
        Ok(Self { sender })
    }

    /// Runs `unit`, answering once the transaction holding it committed.
    pub(super) async fn write(&self, unit: Unit) -> Result<Written, StoreError> {
        let (reply, answer) = oneshot::channel();
        self.sender
            .send(Pending { unit, reply })
            .await
            .map_err(|_| StoreError::WriterStopped)?;
        answer.await.map_err(|_| StoreError::WriterStopped)?
    }
}

/// Releases the anchor before a batch; one that cannot be released is closed.
fn release(anchor: &mut Option<Anchor>) {
    if let Some(held) = anchor.as_mut()
        && let Err(error) = held.release()
    {
        tracing::warn!(%error, "the read anchor could not be released; reads go without it");
        *anchor = None;
    }
}

fn run(connection: &Connection, mut anchor: Option<Anchor>, mut receiver: mpsc::Receiver<Pending>) {
    let mut batch = Vec::with_capacity(MAX_BATCH);
    // A clock to wait by before taking the anchor; without one, the anchor is not taken.
    let clock = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .ok();
    loop {
        let next = match (anchor.as_mut(), &clock) {
            (Some(idle), Some(clock)) => {
                match clock.block_on(async { tokio::time::timeout(IDLE, receiver.recv()).await }) {
                    Ok(next) => next,
                    Err(_) => {
                        idle.hold();
                        receiver.blocking_recv()
                    }
                }
            }
            _ => receiver.blocking_recv(),
        };
        let Some(first) = next else {
            break;
        };
        release(&mut anchor);
        batch.push(first);
        while batch.len() < MAX_BATCH {
            match receiver.try_recv() {
                Ok(pending) => batch.push(pending),
                Err(_) => break,
            }
        }
        match write(connection, &batch) {
            Ok(outcomes) => {
                for (pending, outcome) in batch.drain(..).zip(outcomes) {
                    let _ = pending.reply.send(outcome);
                }
            }
            Err(error) => {
                // Nothing of the batch is committed; leave the connection clean.
                let _ = connection.execute_batch("ROLLBACK");
                tracing::error!(%error, units = batch.len(), "group commit failed");
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

/// Runs one batch in one transaction; one outcome per unit, in order. An error here fails
/// the whole batch.
fn write(
    connection: &Connection,
    batch: &[Pending],
) -> Result<Vec<Result<Written, StoreError>>, StoreError> {
    connection.execute_batch("BEGIN IMMEDIATE")?;
    let mut outcomes = Vec::with_capacity(batch.len());
    for pending in batch {
        connection.execute_batch("SAVEPOINT unit")?;
        let outcome = run_unit(connection, &pending.unit);
        if !matches!(outcome, Ok(Written { kept: true, .. })) {
            connection.execute_batch("ROLLBACK TO unit")?;
        }
        connection.execute_batch("RELEASE unit")?;
        outcomes.push(outcome);
    }
    connection.execute_batch("COMMIT")?;
    Ok(outcomes)
}

fn run_unit(connection: &Connection, unit: &Unit) -> Result<Written, StoreError> {
    let mut done = Vec::with_capacity(unit.queries.len());
    for (index, query) in unit.queries.iter().enumerate() {
        match statement::run(connection, query) {
            Ok(result) => done.push(result),
            Err(StoreError::Sqlite(rusqlite::Error::SqliteFailure(error, _)))
                if error.code == ErrorCode::ConstraintViolation
                    && error.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_UNIQUE
                    && unit.duplicate_at == Some(index) =>
            {
                return Err(StoreError::Duplicate { existing_id: None });
            }
            Err(error) => return Err(error),
        }
    }
    let affected: Vec<u64> = done.iter().map(|done| done.affected).collect();
    Ok(Written {
        kept: unit.holds(&affected),
        done,
    })
}
