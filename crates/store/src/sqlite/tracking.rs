//! Shipments, containers, transport events and the outbox on SQLite: reads through
//! `readers`, a lookup's commit as one transaction on the writer connection.

use async_trait::async_trait;
use rusqlite::Row;
use sqlx::Sqlite;
use sqlx::query::Query;
use sqlx::sqlite::SqliteArguments;
use tidemark_domain::{
    AccountId, ClaimedJob, DomainEvent, Timestamp, Tracked, TrackingRequest, TrackingRequestId,
};
use uuid::Uuid;

use super::jobs::SCHEDULE;
use super::readers::Statement;
use super::{SqliteStore, parse_time, parse_uuid, time_text};
use crate::neutral::{Cell, Neutral, OwnedRow, Query as NeutralQuery};
use crate::plan::{Dialect, Plan, Value};
use crate::rows::{self, Columns};
use tidemark_domain::tracking::Change;

use crate::{CommitOutcome, StoreError, TrackingStore, raw_events, sql};

/// The fan-out of a recorded domain event (see [`Dialect::fan_out`]); ids are random UUIDs
/// made in SQL, as SQLite has no UUID function.
const FAN_OUT: &str = sql::fan_out!(
    "lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || \
     substr(hex(randomblob(2)), 2) || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) || \
     substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6)))"
);

const DIALECT: Dialect = Dialect {
    schedule: SCHEDULE,
    fan_out: FAN_OUT,
};

impl Columns for Row<'_> {
    fn text(&self, name: &str) -> Result<Option<String>, StoreError> {
        Ok(self.get(name)?)
    }

    fn time(&self, name: &str) -> Result<Option<Timestamp>, StoreError> {
        self.get::<_, Option<String>>(name)?
            .as_deref()
            .map(parse_time)
            .transpose()
    }

    fn id(&self, name: &str) -> Result<Option<Uuid>, StoreError> {
        self.get::<_, Option<String>>(name)?
            .as_deref()
            .map(parse_uuid)
            .transpose()
    }

    fn json_text(&self, name: &str) -> Result<String, StoreError> {
        Ok(self.get(name)?)
    }
}

pub(super) fn bind<'q>(
    query: Query<'q, Sqlite, SqliteArguments>,
    value: &Value,
) -> Query<'q, Sqlite, SqliteArguments> {
    match value {
        Value::Text(text) => query.bind(text.clone()),
        Value::Time(at) => query.bind(at.map(time_text)),
        Value::Id(id) => query.bind(id.map(|id| id.hyphenated().to_string())),
        Value::Json(json) => query.bind(json.clone()),
        Value::Int(number) => query.bind(*number),
        Value::Bool(flag) => query.bind(*flag),
    }
}

fn by_id(sql: &str, id: impl ToString) -> Statement {
    let mut query = Statement::new(sql);
    query.params.push(id.to_string().into());
    query
}

#[async_trait]
impl TrackingStore for SqliteStore {
    async fn tracking_request_for_work(
        &self,
        id: TrackingRequestId,
    ) -> Result<Option<TrackingRequest>, StoreError> {
        let query = by_id(sql::TRACKING_REQUEST_FOR_WORK, id);
        self.read
            .point(|connection| query.row(connection, super::tracking_requests::from_row))
    }

    async fn tracked(&self, request: TrackingRequestId) -> Result<Option<Tracked>, StoreError> {
        self.read.point(|connection| {
            let Some(shipment) = by_id(sql::SHIPMENT_OF_REQUEST, request)
                .row(connection, |row| rows::shipment(row))?
            else {
                return Ok(None);
            };
            let containers = by_id(sql::CONTAINERS_OF_SHIPMENT, shipment.id)
                .rows(connection, |row| rows::container(row))?;
            let events = by_id(sql::TRANSPORT_EVENTS_OF_SHIPMENT, shipment.id)
                .rows(connection, |row| rows::transport_event(row))?;
            let raw_events = by_id(raw_events::OF_SHIPMENT, shipment.id)
                .rows(connection, |row| raw_events::events(row))?
                .into_iter()
                .flatten()
                .collect();
            Ok(Some(Tracked {
                shipment,
                containers,
                events,
                raw_events,
            }))
        })
    }

    async fn commit_tracking(
        &self,
        job: Option<&ClaimedJob>,
        commit: &Change,
    ) -> Result<CommitOutcome, StoreError> {
        self.lookups
            .commit(Plan::lookup(job, commit, DIALECT))
            .await
    }

    async fn domain_events(&self, account: AccountId) -> Result<Vec<DomainEvent>, StoreError> {
        let query = by_id(sql::DOMAIN_EVENTS_OF_ACCOUNT, account);
        self.read
            .scan(|connection| query.rows(connection, |row| rows::domain_event(row)))
    }
}

/// A neutral value as rusqlite binds it.
fn sql_value(value: &Value) -> rusqlite::types::Value {
    use rusqlite::types::Value as Sql;
    match value {
        Value::Text(text) => text.clone().map_or(Sql::Null, Sql::Text),
        Value::Time(at) => at.map_or(Sql::Null, |at| Sql::Text(time_text(at))),
        Value::Id(id) => id.map_or(Sql::Null, |id| Sql::Text(id.hyphenated().to_string())),
        Value::Json(json) => Sql::Text(json.clone()),
        Value::Int(number) => number.map_or(Sql::Null, Sql::Integer),
        Value::Bool(flag) => Sql::Integer(i64::from(*flag)),
    }
}

fn owned_row(row: &Row<'_>, names: &[String]) -> Result<OwnedRow, StoreError> {
    use rusqlite::types::ValueRef;
    let mut cells = std::collections::HashMap::with_capacity(names.len());
    for (index, name) in names.iter().enumerate() {
        let cell = match row.get_ref(index)? {
            ValueRef::Null => Cell::Null,
            ValueRef::Integer(number) => Cell::Int(number),
            ValueRef::Real(number) => Cell::Text(number.to_string()),
            ValueRef::Text(bytes) | ValueRef::Blob(bytes) => {
                Cell::Text(String::from_utf8_lossy(bytes).into_owned())
            }
        };
        cells.insert(name.clone(), cell);
    }
    Ok(OwnedRow(cells))
}

#[async_trait]
impl Neutral for SqliteStore {
    async fn fetch(&self, query: &NeutralQuery) -> Result<Vec<OwnedRow>, StoreError> {
        let params: Vec<rusqlite::types::Value> = query.values.iter().map(sql_value).collect();
        self.read.scan(|connection| {
            let mut statement = connection.prepare_cached(&query.sql)?;
            let names: Vec<String> = statement
                .column_names()
                .into_iter()
                .map(str::to_owned)
                .collect();
            let mut rows = statement.query(rusqlite::params_from_iter(params.iter()))?;
            let mut owned = Vec::new();
            while let Some(row) = rows.next()? {
                owned.push(owned_row(row, &names)?);
            }
            Ok(owned)
        })
    }

    async fn execute(&self, query: &NeutralQuery) -> Result<u64, StoreError> {
        let statement = query
            .values
            .iter()
            .fold(sqlx::query(sqlx::AssertSqlSafe(query.sql.clone())), bind);
        Ok(statement.execute(&self.write).await?.rows_affected())
    }

    fn skip_locked(&self, _table_alias: &str) -> String {
        String::new()
    }

    async fn execute_all(&self, queries: &[NeutralQuery]) -> Result<Vec<u64>, StoreError> {
        let mut transaction = self.write.begin_with("BEGIN IMMEDIATE").await?;
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
