//! The scale-out driver: PostgreSQL, shared safely by any number of Tidemark processes.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use async_trait::async_trait;
use sqlx::postgres::{PgArguments, PgPoolOptions, PgRow};
use sqlx::query::Query as SqlxQuery;
use sqlx::types::Json;
use sqlx::{Column, Connection, PgConnection, PgPool, Postgres, Row as _, TypeInfo};
use tidemark_domain::Timestamp;
use time::OffsetDateTime;
use uuid::Uuid;

use crate::db::lost::{Losses, connection_lost};
use crate::db::{Backend, Cell, Cost, Dialect, Done, Query, Row, Unit, Value, Written};
use crate::{ConnectOptions, Store, StoreError};

static DIALECT: Dialect = Dialect {
    least: "LEAST",
    greatest: "GREATEST",
    new_uuid: "gen_random_uuid()",
    skip_locked: true,
    writable_ctes: true,
    // Serializes concurrent first starts: whoever takes the lock first decides.
    lock_accounts: Some("LOCK TABLE accounts IN SHARE ROW EXCLUSIVE MODE"),
    request_counts: false,
    counts_folded: true,
    no_index: "",
    ascii_only: " COLLATE \"C\"",
};

/// The PostgreSQL store.
#[derive(Debug, Clone)]
pub struct PgStore {
    pool: PgPool,
    /// Units written again after a cancellation (see [`Store::writes_retried`]).
    retried: Arc<AtomicU64>,
    /// When a connection was last found dead (pooled ones older are tested before use).
    losses: Losses,
}

/// The longest a statement waits for a pooled connection. A busy pool hands one over in
/// milliseconds; a wait this long means the server is down or saturated, and the client
/// is better told so (503 with `Retry-After`) than held.
pub const ACQUIRE_TIMEOUT: Duration = Duration::from_millis(1_500);

impl PgStore {
    /// Connects to the database named by `options.url`.
    ///
    /// A request waits at most [`ACQUIRE_TIMEOUT`] for a connection: with the server
    /// down, the pool would otherwise hold every request for ten seconds before failing
    /// it (503 `database_unavailable` then, `StoreError::is_unavailable`).
    ///
    /// # Errors
    /// When the server cannot be reached or a migration fails.
    pub async fn connect(options: &ConnectOptions) -> Result<Self, StoreError> {
        // One attempt first: the pool would retry a refused connection until its acquire
        // timeout, and the real cause would arrive ten seconds late as "pool timed out".
        PgConnection::connect(&options.url).await?.close().await?;
        let losses = Losses::new();
        let hook = losses.clone();
        let pool = PgPoolOptions::new()
            .test_before_acquire(false)
            .before_acquire(move |connection, meta| {
                let hook = hook.clone();
                Box::pin(async move { Ok(hook.check(connection, meta).await) })
            })
            .max_connections(options.max_connections.max(1))
            .acquire_timeout(ACQUIRE_TIMEOUT)
            .connect(&options.url)
            .await?;
        if options.migrate {
            // sqlx takes an advisory lock, so processes starting together migrate once.
            sqlx::migrate!("./migrations/postgres").run(&pool).await?;
        }
        let store = Self {
            pool,
            retried: Arc::new(AtomicU64::new(0)),
            losses,
        };
        if options.migrate {
            crate::lists::derive_underived(&store).await?;
        }
        Ok(store)
    }
}

fn bind<'q>(
    query: SqlxQuery<'q, Postgres, PgArguments>,
    value: &Value,
) -> SqlxQuery<'q, Postgres, PgArguments> {
    match value {
        Value::Text(text) => query.bind(text.clone()),
        Value::Time(at) => query.bind(at.map(|at| at.as_datetime())),
        Value::Id(id) => query.bind(*id),
        Value::Json(json) => {
            query.bind(json.as_deref().map(|json| {
                Json(serde_json::from_str::<serde_json::Value>(json).unwrap_or_default())
            }))
        }
        Value::Int(number) => query.bind(*number),
        Value::Bool(flag) => query.bind(*flag),
        Value::Bytes(bytes) => query.bind(bytes.clone()),
    }
}

fn cell(row: &PgRow, index: usize, kind: &str) -> Result<Cell, StoreError> {
    let cell = match kind {
        "UUID" => row.try_get::<Option<Uuid>, _>(index)?.map(Cell::Id),
        "TIMESTAMPTZ" => row
            .try_get::<Option<OffsetDateTime>, _>(index)?
            .map(|at| Cell::Time(Timestamp::from_datetime(at))),
        "JSONB" | "JSON" => row
            .try_get::<Option<Json<serde_json::Value>>, _>(index)?
            .map(|Json(value)| Cell::Text(value.to_string())),
        "INT8" => row.try_get::<Option<i64>, _>(index)?.map(Cell::Int),
        "INT4" => row
            .try_get::<Option<i32>, _>(index)?
            .map(|n| Cell::Int(i64::from(n))),
        "BOOL" => row
            .try_get::<Option<bool>, _>(index)?
            .map(|b| Cell::Int(i64::from(b))),
        "BYTEA" => row.try_get::<Option<Vec<u8>>, _>(index)?.map(Cell::Bytes),
        _ => row.try_get::<Option<String>, _>(index)?.map(Cell::Text),
    };
    Ok(cell.unwrap_or(Cell::Null))
}

fn rows(found: &[PgRow]) -> Result<Vec<Row>, StoreError> {
    let Some(first) = found.first() else {
        return Ok(Vec::new());
    };
    let names: std::sync::Arc<[String]> = first
        .columns()
        .iter()
        .map(|column| column.name().to_owned())
        .collect();
    let kinds: Vec<String> = first
        .columns()
        .iter()
        .map(|column| column.type_info().name().to_owned())
        .collect();
    found
        .iter()
        .map(|row| {
            let cells = kinds
                .iter()
                .enumerate()
                .map(|(index, kind)| cell(row, index, kind))
                .collect::<Result<_, _>>()?;
            Ok(Row::new(std::sync::Arc::clone(&names), cells))
        })
        .collect()
}

/// Runs `query` on `connection`.
async fn run(connection: &mut PgConnection, query: &Query) -> Result<Done, sqlx::Error> {
    let statement = query
        .values
        .iter()
        .fold(sqlx::query(sqlx::AssertSqlSafe(query.sql.clone())), bind);
    if query.returns_rows() {
        let found = statement.fetch_all(&mut *connection).await?;
        Ok(Done {
            affected: u64::try_from(found.len()).unwrap_or(u64::MAX),
            rows: rows(&found).map_err(|error| sqlx::Error::Decode(Box::new(error)))?,
        })
    } else {
        let result = statement.execute(&mut *connection).await?;
        Ok(Done {
            affected: result.rows_affected(),
            rows: Vec::new(),
        })
    }
}

fn is_unique_violation(error: &sqlx::Error) -> bool {
    matches!(error, sqlx::Error::Database(db) if db.is_unique_violation())
}

#[async_trait]
impl Backend for PgStore {
    fn dialect(&self) -> &'static Dialect {
        &DIALECT
    }

    /// Reads once more, on another connection, when the first one turns out dead.
    async fn read(&self, queries: &[Query], _cost: Cost) -> Result<Vec<Vec<Row>>, StoreError> {
        match self.read_once(queries).await {
            Err(error) if connection_lost(&error) => {
                self.losses.note();
                tracing::warn!(%error, "a connection to the database was lost; read again");
                Ok(self.read_once(queries).await?)
            }
            read => Ok(read?),
        }
    }

    /// Writes `unit` on a task of its own, so it runs to its end whatever its caller does.
    /// A caller that goes away (a client disconnecting mid-request, a timeout) would
    /// otherwise cancel the write, and a write cancelled while its `BEGIN` is in flight
    /// leaves the pooled connection inside a transaction that nothing ends (sqlx 0.9,
    /// transact-rs/sqlx#4393): every later statement on that connection would run in it,
    /// uncommitted, holding its locks. A write is committed or rolled back, never left.
    async fn write(&self, unit: Unit) -> Result<Written, StoreError> {
        let store = self.clone();
        match tokio::spawn(async move { store.write_retrying(unit).await }).await {
            Ok(written) => written,
            Err(error) if error.is_panic() => std::panic::resume_unwind(error.into_panic()),
            Err(_) => Err(StoreError::WriterStopped),
        }
    }
}

impl PgStore {
    async fn read_once(&self, queries: &[Query]) -> Result<Vec<Vec<Row>>, sqlx::Error> {
        let mut connection = self.pool.acquire().await?;
        let mut results = Vec::with_capacity(queries.len());
        for query in queries {
            match run(&mut connection, query).await {
                Ok(done) => results.push(done.rows),
                Err(error) => {
                    if connection_lost(&error) {
                        connection.close_on_drop();
                    }
                    return Err(error);
                }
            }
        }
        Ok(results)
    }

    /// Writes `unit`, again when PostgreSQL cancels it for a concurrent transaction, and
    /// once more on another connection when its connection died before the commit was
    /// sent (the server then rolled the transaction back: nothing of it was kept).
    async fn write_retrying(&self, unit: Unit) -> Result<Written, StoreError> {
        let mut attempt = 1;
        let mut reconnected = false;
        loop {
            match self.write_once(&unit).await {
                Err(StoreError::Database(error)) if connection_lost(&error) && !reconnected => {
                    self.losses.note();
                    tracing::warn!(%error, "a connection to the database was lost before a commit; written again");
                    self.retried.fetch_add(1, Ordering::Relaxed);
                    reconnected = true;
                }
                Err(StoreError::Database(error)) if attempt < WRITE_ATTEMPTS => {
                    let Some(code) = contention(&error) else {
                        return Err(error.into());
                    };
                    tracing::warn!(
                        code,
                        attempt,
                        "a transaction lost to a concurrent one; written again"
                    );
                    self.retried.fetch_add(1, Ordering::Relaxed);
                    attempt += 1;
                }
                written => return written,
            }
        }
    }
}

/// How many times a unit is written when PostgreSQL cancels it for a concurrent one.
const WRITE_ATTEMPTS: u32 = 3;

/// The SQLSTATE of an error PostgreSQL asks to retry the transaction on: it chose this
/// transaction to break a deadlock (`40P01`), or could not serialize it (`40001`). The
/// transaction was rolled back whole, so writing the unit again is safe.
fn contention(error: &sqlx::Error) -> Option<String> {
    let sqlx::Error::Database(db) = error else {
        return None;
    };
    db.code()
        .filter(|code| matches!(code.as_ref(), "40P01" | "40001"))
        .map(|code| code.into_owned())
}

impl PgStore {
    /// Writes `unit` once, in one transaction (one statement alone is its own).
    ///
    /// A connection lost while the commit is under way (one statement alone, or `COMMIT`)
    /// leaves the outcome unknown: [`StoreError::OutcomeUnknown`], never written again.
    /// Lost before, the error is returned as it is, for [`Self::write_retrying`].
    async fn write_once(&self, unit: &Unit) -> Result<Written, StoreError> {
        let mut connection = self.pool.acquire().await?;
        let written = self.write_on(&mut connection, unit).await;
        if let Err(error) = &written {
            if error.is_unavailable() {
                connection.close_on_drop();
            }
            if let StoreError::OutcomeUnknown(_) = error {
                self.losses.note();
            }
        }
        written
    }

    async fn write_on(
        &self,
        connection: &mut PgConnection,
        unit: &Unit,
    ) -> Result<Written, StoreError> {
        if let ([query], []) = (unit.queries.as_slice(), unit.guards.as_slice()) {
            return match run(connection, query).await {
                Ok(done) => Ok(Written {
                    done: vec![done],
                    kept: true,
                }),
                Err(error) if is_unique_violation(&error) && unit.duplicate_at == Some(0) => {
                    Err(StoreError::Duplicate { existing_id: None })
                }
                Err(error) => Err(outcome_unknown(error, unit)),
            };
        }
        let mut transaction = connection.begin().await?;
        let mut done = Vec::with_capacity(unit.queries.len());
        for (index, query) in unit.queries.iter().enumerate() {
            match run(&mut transaction, query).await {
                Ok(result) => done.push(result),
                Err(error) if is_unique_violation(&error) && unit.duplicate_at == Some(index) => {
                    return Err(StoreError::Duplicate { existing_id: None });
                }
                Err(error) => return Err(error.into()),
            }
        }
        let affected: Vec<u64> = done.iter().map(|done| done.affected).collect();
        let kept = unit.holds(&affected);
        if kept {
            transaction
                .commit()
                .await
                .map_err(|error| outcome_unknown(error, unit))?;
        } else {
            transaction.rollback().await?;
        }
        Ok(Written { done, kept })
    }
}

/// A failure once the commit may have been under way: a lost connection leaves the outcome
/// unknown (unless the unit may be written again whatever it was); anything else was
/// refused.
fn outcome_unknown(error: sqlx::Error, unit: &Unit) -> StoreError {
    if connection_lost(&error) && !unit.retry_safe {
        StoreError::OutcomeUnknown(error)
    } else {
        error.into()
    }
}

#[async_trait]
impl Store for PgStore {
    async fn ping(&self) -> Result<(), StoreError> {
        sqlx::query("SELECT 1").execute(&self.pool).await?;
        Ok(())
    }

    fn backend(&self) -> &'static str {
        "postgres"
    }

    fn writes_retried(&self) -> u64 {
        self.retried.load(Ordering::Relaxed)
    }
}
