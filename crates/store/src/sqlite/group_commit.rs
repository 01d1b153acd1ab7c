//! Group commit for new tracking requests on SQLite.
//!
//! SQLite has one writer, and with `synchronous=FULL` every commit waits for the disk.
//! Committing each create alone caps throughput at a few thousand per second. Instead,
//! creates queue here; one task takes everything queued (up to [`MAX_BATCH`]), inserts it
//! with a single multi-row `INSERT … ON CONFLICT DO NOTHING RETURNING id` in one
//! transaction, and answers each caller only after that transaction committed. A create
//! is therefore acknowledged only once it is durable, exactly as before.
//!
//! The same transaction queues each new request's first lookup job.
//!
//! The unique index still decides duplicates: a row it refuses is simply not returned,
//! and its open twin (possibly another row of the same batch) is looked up in the same
//! transaction.

use std::collections::HashSet;

use sqlx::sqlite::{Sqlite, SqlitePool};
use sqlx::types::Json;
use sqlx::{QueryBuilder, SqliteConnection};
use tidemark_domain::{JobId, JobKind, TrackingRequest, TrackingRequestId};
use tokio::sync::{mpsc, oneshot};

use super::{parse_uuid, time_text};
use crate::StoreError;
use crate::rows::{retry_count_column, tracking_request_columns};
use crate::sql;

/// Most rows in one transaction (16 bound values each, well under SQLite's limit).
const MAX_BATCH: usize = 256;

struct Pending {
    request: TrackingRequest,
    reply: oneshot::Sender<Result<(), StoreError>>,
}

/// The queue in front of the writer task.
#[derive(Debug, Clone)]
pub(super) struct InsertQueue {
    sender: mpsc::Sender<Pending>,
}

impl std::fmt::Debug for Pending {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pending")
            .field("id", &self.request.id)
            .finish()
    }
}

impl InsertQueue {
    /// Starts the writer task on `pool`; it ends when the last queue handle is dropped.
    pub(super) fn start(pool: SqlitePool) -> Self {
        let (sender, receiver) = mpsc::channel(4 * MAX_BATCH);
        tokio::spawn(run(pool, receiver));
        Self { sender }
    }

    /// Inserts `request`, returning once it is committed (or refused as a duplicate).
    pub(super) async fn insert(&self, request: TrackingRequest) -> Result<(), StoreError> {
        let (reply, answer) = oneshot::channel();
        self.sender
            .send(Pending { request, reply })
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
                tracing::error!(%error, rows = batch.len(), "group commit failed");
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

/// Writes one batch in one transaction; one outcome per pending create, in order.
async fn write(
    pool: &SqlitePool,
    batch: &[Pending],
) -> Result<Vec<Result<(), StoreError>>, StoreError> {
    let mut tx = pool.begin_with("BEGIN IMMEDIATE").await?;
    let mut insert: QueryBuilder<Sqlite> = QueryBuilder::new(concat!(
        "INSERT INTO tracking_requests (",
        tracking_request_columns!(),
        ") "
    ));
    insert.push_values(batch, |mut row, pending| {
        let request = &pending.request;
        row.push_bind(request.id.to_string())
            .push_bind(request.account_id.to_string())
            .push_bind(request.request_type.as_str())
            .push_bind(request.request_number.as_str().to_owned())
            .push_bind(request.request_number.normalized().to_owned())
            .push_bind(request.scac.map(|s| s.to_string()))
            .push_bind(request.auto_detect_scac)
            .push_bind(Json(request.ref_numbers.clone()))
            .push_bind(Json(request.shipment_tags.clone()))
            .push_bind(request.status.as_str())
            .push_bind(request.failed_reason.map(|r| r.as_str()))
            .push_bind(request.is_retrying)
            .push_bind(retry_count_column(request))
            .push_bind(request.tracked_object.map(|id| id.to_string()))
            .push_bind(time_text(request.created_at))
            .push_bind(time_text(request.updated_at));
    });
    insert.push(" ON CONFLICT DO NOTHING RETURNING id");
    let inserted: HashSet<String> = insert
        .build_query_scalar()
        .fetch_all(&mut *tx)
        .await?
        .into_iter()
        .collect();

    // Every new request's first lookup is queued in the same transaction, so an
    // acknowledged create is always looked up, whatever crashes afterwards.
    let queued: Vec<&TrackingRequest> = batch
        .iter()
        .map(|pending| &pending.request)
        .filter(|request| inserted.contains(&request.id.to_string()))
        .collect();
    if !queued.is_empty() {
        let mut jobs: QueryBuilder<Sqlite> =
            QueryBuilder::new("INSERT INTO jobs (id, kind, key, due_at, created_at) ");
        jobs.push_values(&queued, |mut row, request| {
            row.push_bind(JobId::new().to_string())
                .push_bind(JobKind::Lookup.as_str())
                .push_bind(request.id.to_string())
                .push_bind(time_text(request.created_at))
                .push_bind(time_text(request.created_at));
        });
        jobs.push(" ON CONFLICT (kind, key) DO NOTHING");
        jobs.build().execute(&mut *tx).await?;
    }

    let mut outcomes = Vec::with_capacity(batch.len());
    for pending in batch {
        if inserted.contains(&pending.request.id.to_string()) {
            outcomes.push(Ok(()));
        } else {
            let existing_id = open_twin(&mut tx, &pending.request).await?;
            outcomes.push(Err(StoreError::Duplicate { existing_id }));
        }
    }
    tx.commit().await?;
    Ok(outcomes)
}

/// The open request that made `request` a duplicate.
async fn open_twin(
    connection: &mut SqliteConnection,
    request: &TrackingRequest,
) -> Result<Option<TrackingRequestId>, StoreError> {
    let id: Option<String> = sqlx::query_scalar(sql::OPEN_TWIN)
        .bind(request.account_id.to_string())
        .bind(request.request_number.normalized())
        .bind(request.scac.map(|s| s.to_string()).unwrap_or_default())
        .fetch_optional(connection)
        .await?;
    Ok(id
        .as_deref()
        .map(parse_uuid)
        .transpose()?
        .map(TrackingRequestId::from_uuid))
}
