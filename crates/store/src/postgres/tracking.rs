//! Shipments, containers, transport events and the outbox on PostgreSQL; a lookup's
//! commit is one transaction.

use async_trait::async_trait;
use sqlx::postgres::{PgArguments, PgRow};
use sqlx::query::Query;
use sqlx::types::Json;
use sqlx::{Postgres, Row};
use tidemark_domain::{
    AccountId, ClaimedJob, DomainEvent, Timestamp, Tracked, TrackingRequest, TrackingRequestId,
};
use time::OffsetDateTime;
use uuid::Uuid;

use super::jobs::SCHEDULE;
use super::{PgStore, time_of};
use crate::neutral::{Cell, Neutral, OwnedRow, Query as NeutralQuery};
use crate::plan::{Dialect, Plan, Value};
use crate::rows::{self, Columns};
use tidemark_domain::tracking::Change;

use crate::{CommitOutcome, StoreError, TrackingStore, raw_events, sql};

/// The fan-out of a recorded domain event (see [`Dialect::fan_out`]).
const FAN_OUT: &str = sql::fan_out!("gen_random_uuid()");

const DIALECT: Dialect = Dialect {
    schedule: SCHEDULE,
    fan_out: FAN_OUT,
};

impl Columns for PgRow {
    fn text(&self, name: &str) -> Result<Option<String>, StoreError> {
        Ok(self.try_get(name)?)
    }

    fn time(&self, name: &str) -> Result<Option<Timestamp>, StoreError> {
        Ok(self
            .try_get::<Option<OffsetDateTime>, _>(name)?
            .map(time_of))
    }

    fn id(&self, name: &str) -> Result<Option<Uuid>, StoreError> {
        Ok(self.try_get(name)?)
    }

    fn json_text(&self, name: &str) -> Result<String, StoreError> {
        let Json(value): Json<serde_json::Value> = self.try_get(name)?;
        Ok(value.to_string())
    }
}

fn bind<'q>(
    query: Query<'q, Postgres, PgArguments>,
    value: &Value,
) -> Query<'q, Postgres, PgArguments> {
    match value {
        Value::Text(text) => query.bind(text.clone()),
        Value::Time(at) => query.bind(at.map(|at| at.as_datetime())),
        Value::Id(id) => query.bind(*id),
        Value::Json(json) => query.bind(Json(
            serde_json::from_str::<serde_json::Value>(json).unwrap_or(serde_json::Value::Null),
        )),
        Value::Int(number) => query.bind(*number),
        Value::Bool(flag) => query.bind(*flag),
    }
}

#[async_trait]
impl TrackingStore for PgStore {
    async fn tracking_request_for_work(
        &self,
        id: TrackingRequestId,
    ) -> Result<Option<TrackingRequest>, StoreError> {
        sqlx::query(sql::TRACKING_REQUEST_FOR_WORK)
            .bind(id.as_uuid())
            .fetch_optional(&self.pool)
            .await?
            .as_ref()
            .map(super::tracking_requests::from_row)
            .transpose()
    }

    async fn tracked(&self, request: TrackingRequestId) -> Result<Option<Tracked>, StoreError> {
        let mut connection = self.pool.acquire().await?;
        let Some(row) = sqlx::query(sql::SHIPMENT_OF_REQUEST)
            .bind(request.as_uuid())
            .fetch_optional(&mut *connection)
            .await?
        else {
            return Ok(None);
        };
        let shipment = rows::shipment(&row)?;
        let containers = sqlx::query(sql::CONTAINERS_OF_SHIPMENT)
            .bind(shipment.id.as_uuid())
            .fetch_all(&mut *connection)
            .await?
            .iter()
            .map(rows::container)
            .collect::<Result<_, _>>()?;
        let events = sqlx::query(sql::TRANSPORT_EVENTS_OF_SHIPMENT)
            .bind(shipment.id.as_uuid())
            .fetch_all(&mut *connection)
            .await?
            .iter()
            .map(rows::transport_event)
            .collect::<Result<_, _>>()?;
        let mut raw_events = Vec::new();
        for row in sqlx::query(raw_events::OF_SHIPMENT)
            .bind(shipment.id.as_uuid())
            .fetch_all(&mut *connection)
            .await?
        {
            raw_events.extend(raw_events::events(&row)?);
        }
        Ok(Some(Tracked {
            shipment,
            containers,
            events,
            raw_events,
        }))
    }

    async fn commit_tracking(
        &self,
        job: Option<&ClaimedJob>,
        commit: &Change,
    ) -> Result<CommitOutcome, StoreError> {
        let plan = Plan::lookup(job, commit, DIALECT);
        let mut transaction = self.pool.begin().await?;
        let mut affected = Vec::with_capacity(plan.steps.len());
        for (index, step) in plan.steps.iter().enumerate() {
            let query = step.values.iter().fold(sqlx::query(step.sql), bind);
            match query.execute(&mut *transaction).await {
                Ok(done) => affected.push(done.rows_affected()),
                Err(sqlx::Error::Database(error))
                    if error.is_unique_violation() && plan.is_request_step(index) =>
                {
                    return Err(StoreError::Duplicate { existing_id: None });
                }
                Err(error) => return Err(error.into()),
            }
        }
        let outcome = plan.outcome(&affected);
        if outcome == CommitOutcome::Committed {
            transaction.commit().await?;
        } else {
            transaction.rollback().await?;
        }
        Ok(outcome)
    }

    async fn domain_events(&self, account: AccountId) -> Result<Vec<DomainEvent>, StoreError> {
        sqlx::query(sql::DOMAIN_EVENTS_OF_ACCOUNT)
            .bind(account.as_uuid())
            .fetch_all(&self.pool)
            .await?
            .iter()
            .map(rows::domain_event)
            .collect()
    }
}

fn owned_row(row: &PgRow) -> Result<OwnedRow, StoreError> {
    use sqlx::{Column, TypeInfo};
    let mut cells = std::collections::HashMap::with_capacity(row.len());
    for column in row.columns() {
        let name = column.name();
        let cell = match column.type_info().name() {
            "UUID" => row.try_get::<Option<Uuid>, _>(name)?.map(Cell::Id),
            "TIMESTAMPTZ" => row
                .try_get::<Option<OffsetDateTime>, _>(name)?
                .map(|at| Cell::Time(time_of(at))),
            "JSONB" | "JSON" => row
                .try_get::<Option<Json<serde_json::Value>>, _>(name)?
                .map(|Json(value)| Cell::Text(value.to_string())),
            "INT8" => row.try_get::<Option<i64>, _>(name)?.map(Cell::Int),
            "INT4" => row
                .try_get::<Option<i32>, _>(name)?
                .map(|n| Cell::Int(i64::from(n))),
            "BOOL" => row
                .try_get::<Option<bool>, _>(name)?
                .map(|b| Cell::Int(i64::from(b))),
            _ => row.try_get::<Option<String>, _>(name)?.map(Cell::Text),
        };
        cells.insert(name.to_owned(), cell.unwrap_or(Cell::Null));
    }
    Ok(OwnedRow(cells))
}

#[async_trait]
impl Neutral for PgStore {
    async fn fetch(&self, query: &NeutralQuery) -> Result<Vec<OwnedRow>, StoreError> {
        let statement = query
            .values
            .iter()
            .fold(sqlx::query(sqlx::AssertSqlSafe(query.sql.clone())), bind);
        statement
            .fetch_all(&self.pool)
            .await?
            .iter()
            .map(owned_row)
            .collect()
    }

    async fn execute(&self, query: &NeutralQuery) -> Result<u64, StoreError> {
        let statement = query
            .values
            .iter()
            .fold(sqlx::query(sqlx::AssertSqlSafe(query.sql.clone())), bind);
        Ok(statement.execute(&self.pool).await?.rows_affected())
    }

    fn skip_locked(&self, table_alias: &str) -> String {
        format!(" FOR UPDATE OF {table_alias} SKIP LOCKED")
    }

    async fn execute_all(&self, queries: &[NeutralQuery]) -> Result<Vec<u64>, StoreError> {
        let mut transaction = self.pool.begin().await?;
        let mut affected = Vec::with_capacity(queries.len());
        for query in queries {
            let statement = query
                .values
                .iter()
                .fold(sqlx::query(sqlx::AssertSqlSafe(query.sql.clone())), bind);
            match statement.execute(&mut *transaction).await {
                Ok(done) => affected.push(done.rows_affected()),
                Err(error) => return Err(error.into()),
            }
        }
        transaction.commit().await?;
        Ok(affected)
    }
}
