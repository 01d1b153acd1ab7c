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

use std::sync::Arc;
use std::time::Duration;

use rusqlite::{Connection, ErrorCode};
use tokio::sync::{mpsc, oneshot};

use super::anchor::Anchor;
use super::statement;
use crate::StoreError;
use crate::db::fullness::Fullness;
use crate::db::{Unit, Written};

/// Most units in one transaction.
const MAX_BATCH: usize = 256;

/// How long the writer waits with nothing to write before it tends the read anchor
/// (`anchor`), and then how often while it stays idle. Under a stream of writes (batches a
/// millisecond or so apart) it never takes it: taken just after each commit, it cost the
/// writer a new read mark per batch and creates about a sixth of their rate.
const IDLE: Duration = Duration::from_millis(50);
const TEND: Duration = Duration::from_secs(1);

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
        fullness: Arc<Fullness>,
    ) -> Result<Self, StoreError> {
        let (sender, receiver) = mpsc::channel(4 * MAX_BATCH);
        std::thread::Builder::new()
            .name("sqlite-writer".to_owned())
            .spawn(move || run(&connection, anchor, receiver, &fullness))
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

/// Closes an anchor that could not be released (closing its connection ends its
/// transaction): reads go on without it.
fn close_on_error(anchor: &mut Option<Anchor>, outcome: Result<(), rusqlite::Error>) {
    if let Err(error) = outcome {
        tracing::warn!(%error, "the read anchor could not be released; reads go without it");
        *anchor = None;
    }
}

/// The next unit to write, tending the anchor while none comes; `None` once every handle
/// is dropped.
fn next(
    connection: &Connection,
    anchor: &mut Option<Anchor>,
    clock: Option<&tokio::runtime::Runtime>,
    receiver: &mut mpsc::Receiver<Pending>,
) -> Option<Pending> {
    let Some(clock) = clock else {
        return receiver.blocking_recv();
    };
    let mut wait = IDLE;
    loop {
        let Some(tended) = anchor.as_mut() else {
            return receiver.blocking_recv();
        };
        let received = clock.block_on(async { tokio::time::timeout(wait, receiver.recv()).await });
        if let Ok(next) = received {
            return next;
        }
        let outcome = tended.tend(connection);
        close_on_error(anchor, outcome);
        wait = TEND;
    }
}

fn run(
    connection: &Connection,
    mut anchor: Option<Anchor>,
    mut receiver: mpsc::Receiver<Pending>,
    fullness: &Fullness,
) {
    let mut batch = Vec::with_capacity(MAX_BATCH);
    // A clock to wait by before tending the anchor; without one, it is never taken.
    let clock = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .ok();
    loop {
        let next = next(connection, &mut anchor, clock.as_ref(), &mut receiver);
        let Some(first) = next else {
            break;
        };
        let outcome = anchor.as_mut().map_or(Ok(()), Anchor::release);
        close_on_error(&mut anchor, outcome);
        batch.push(first);
        while batch.len() < MAX_BATCH {
            match receiver.try_recv() {
                Ok(pending) => batch.push(pending),
                Err(_) => break,
            }
        }
        match write(connection, &batch) {
            Ok(outcomes) => {
                let refused = outcomes
                    .iter()
                    .filter(|outcome| matches!(outcome, Err(StoreError::StorageFull)))
                    .count() as u64;
                if refused > 0 {
                    fullness.refused(refused);
                } else {
                    fullness.committed();
                }
                for (pending, outcome) in batch.drain(..).zip(outcomes) {
                    let _ = pending.reply.send(outcome);
                }
            }
            Err(error) if error.is_storage_full() => {
                // Nothing of the batch is committed; the refusal is counted and logged
                // once a minute, not once a write.
                let _ = connection.execute_batch("ROLLBACK");
                fullness.refused(batch.len() as u64);
                for pending in batch.drain(..) {
                    let _ = pending.reply.send(Err(StoreError::StorageFull));
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
            Err(error) if error.is_storage_full() => return Err(StoreError::StorageFull),
            Err(error) => return Err(error),
        }
    }
    let affected: Vec<u64> = done.iter().map(|done| done.affected).collect();
    Ok(Written {
        kept: unit.holds(&affected),
        done,
    })
}
