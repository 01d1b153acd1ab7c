//! Tracking requests on PostgreSQL.

use async_trait::async_trait;
use sqlx::postgres::PgRow;
use sqlx::types::Json;
use sqlx::{Postgres, QueryBuilder, Row};
use tidemark_domain::{
    AccountId, JobId, JobKind, Timestamp, TrackingRequest, TrackingRequestId, TrackingRequestPatch,
};
use uuid::Uuid;

use super::{PgStore, is_unique_violation, time_of};
use crate::rows::{TrackingRequestParts, retry_count_column, tracking_request_columns};
use crate::sql;
use crate::sql::Search;
use crate::{
    Page, PageRequest, StoreError, TimeRange, TrackingRequestFilter, TrackingRequestStore,
};

pub(super) fn from_row(row: &PgRow) -> Result<TrackingRequest, StoreError> {
    let Json(ref_numbers) = row.try_get("ref_numbers")?;
    let Json(shipment_tags) = row.try_get("shipment_tags")?;
    let retry_count: Option<i32> = row.try_get("retry_count")?;
    TrackingRequestParts {
        id: row.try_get("id")?,
        account_id: row.try_get("account_id")?,
        request_type: row.try_get("request_type")?,
        request_number: row.try_get("request_number")?,
        number_normalized: row.try_get("number_normalized")?,
        scac: row.try_get("scac")?,
        auto_detect_scac: row.try_get("auto_detect_scac")?,
        ref_numbers,
        shipment_tags,
        status: row.try_get("status")?,
        failed_reason: row.try_get("failed_reason")?,
        is_retrying: row.try_get("is_retrying")?,
        retry_count: retry_count.map(i64::from),
        tracked_object_id: row.try_get("tracked_object_id")?,
        created_at: time_of(row.try_get("created_at")?),
        updated_at: time_of(row.try_get("updated_at")?),
    }
    .try_into()
}

/// `retry_count` is an `integer` column; counts never come near its limit.
fn retry_count_i32(request: &TrackingRequest) -> Option<i32> {
    retry_count_column(request).map(|count| i32::try_from(count).unwrap_or(i32::MAX))
}

fn push_range(query: &mut QueryBuilder<Postgres>, column: &str, range: TimeRange) {
    if let Some(start) = range.start {
        query
            .push(format_args!(" AND {column} >= "))
            .push_bind(start.as_datetime());
    }
    if let Some(end) = range.end {
        query
            .push(format_args!(" AND {column} <= "))
            .push_bind(end.as_datetime());
    }
}

fn push_any(query: &mut QueryBuilder<Postgres>, column: &str, values: Vec<String>) {
    if !values.is_empty() {
        query
            .push(format_args!(" AND {column} = ANY("))
            .push_bind(values)
            .push(")");
    }
}

fn push_filter(
    query: &mut QueryBuilder<Postgres>,
    account: AccountId,
    filter: &TrackingRequestFilter,
) {
    query
        .push(" WHERE account_id = ")
        .push_bind(account.as_uuid());
    push_any(
        query,
        "status",
        filter
            .status
            .iter()
            .map(|s| s.as_str().to_owned())
            .collect(),
    );
    push_any(
        query,
        "scac",
        filter.scac.iter().map(ToString::to_string).collect(),
    );
    push_any(
        query,
        "request_type",
        filter
            .request_type
            .iter()
            .map(|t| t.as_str().to_owned())
            .collect(),
    );
    push_any(query, "number_normalized", filter.request_number.clone());
    if let Some(text) = &filter.search {
        let search = Search::of(text);
        query.push(" AND (");
        for pattern in search.numbers {
            query.push("number_normalized LIKE ").push_bind(pattern);
            query.push(" ESCAPE '\\' OR ");
        }
        query
            .push("UPPER(ref_numbers::text) LIKE ")
            .push_bind(search.reference);
        query.push(" ESCAPE '\\')");
    }
    push_range(query, "created_at", filter.created_at);
    push_range(query, "updated_at", filter.updated_at);
}

impl PgStore {
    async fn open_duplicate(
        &self,
        request: &TrackingRequest,
    ) -> Result<Option<TrackingRequestId>, StoreError> {
        let id: Option<Uuid> = sqlx::query_scalar(sql::OPEN_TWIN)
            .bind(request.account_id.as_uuid())
            .bind(request.request_number.normalized())
            .bind(request.scac.map(|s| s.to_string()).unwrap_or_default())
            .fetch_optional(&self.pool)
            .await?;
        Ok(id.map(TrackingRequestId::from_uuid))
    }
}

#[async_trait]
impl TrackingRequestStore for PgStore {
    async fn insert_tracking_request(&self, request: &TrackingRequest) -> Result<(), StoreError> {
        // One statement inserts the request and queues its first lookup: both or neither.
        let result = sqlx::query(concat!(
            "WITH inserted AS (INSERT INTO tracking_requests (",
            tracking_request_columns!(),
            ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16) \
             RETURNING id, created_at) \
             INSERT INTO jobs (id, kind, key, due_at, created_at) \
             SELECT $17, $18, id::text, created_at, created_at FROM inserted"
        ))
        .bind(request.id.as_uuid())
        .bind(request.account_id.as_uuid())
        .bind(request.request_type.as_str())
        .bind(request.request_number.as_str())
        .bind(request.request_number.normalized())
        .bind(request.scac.map(|s| s.to_string()))
        .bind(request.auto_detect_scac)
        .bind(Json(&request.ref_numbers))
        .bind(Json(&request.shipment_tags))
        .bind(request.status.as_str())
        .bind(request.failed_reason.map(|r| r.as_str()))
        .bind(request.is_retrying)
        .bind(retry_count_i32(request))
        .bind(request.tracked_object)
        .bind(request.created_at.as_datetime())
        .bind(request.updated_at.as_datetime())
        .bind(JobId::new().as_uuid())
        .bind(JobKind::Lookup.as_str())
        .execute(&self.pool)
        .await;
        match result {
            Ok(_) => Ok(()),
            Err(error) if is_unique_violation(&error, "tracking_requests_open_unique") => {
                Err(StoreError::Duplicate {
                    existing_id: self.open_duplicate(request).await?,
                })
            }
            Err(error) => Err(error.into()),
        }
    }

    async fn tracking_request(
        &self,
        account: AccountId,
        id: TrackingRequestId,
    ) -> Result<Option<TrackingRequest>, StoreError> {
        sqlx::query(sql::TRACKING_REQUEST_BY_ID)
            .bind(id.as_uuid())
            .bind(account.as_uuid())
            .fetch_optional(&self.pool)
            .await?
            .as_ref()
            .map(from_row)
            .transpose()
    }

    async fn list_tracking_requests(
        &self,
        account: AccountId,
        filter: &TrackingRequestFilter,
        page: PageRequest,
    ) -> Result<Page<TrackingRequest>, StoreError> {
        let mut count = QueryBuilder::new("SELECT COUNT(*) FROM tracking_requests");
        push_filter(&mut count, account, filter);
        let total: i64 = count.build_query_scalar().fetch_one(&self.pool).await?;

        let mut select = QueryBuilder::new(sql::SELECT_TRACKING_REQUESTS);
        push_filter(&mut select, account, filter);
        select
            .push(sql::NEWEST_FIRST)
            .push_bind(page.limit())
            .push(" OFFSET ")
            .push_bind(page.offset());
        let items = select
            .build()
            .fetch_all(&self.pool)
            .await?
            .iter()
            .map(from_row)
            .collect::<Result<_, _>>()?;
        Ok(Page {
            items,
            total: u64::try_from(total).unwrap_or_default(),
        })
    }

    async fn update_tracking_request(
        &self,
        account: AccountId,
        id: TrackingRequestId,
        patch: &TrackingRequestPatch,
        at: Timestamp,
    ) -> Result<Option<TrackingRequest>, StoreError> {
        sqlx::query(sql::PATCH_TRACKING_REQUEST)
            .bind(id.as_uuid())
            .bind(account.as_uuid())
            .bind(patch.ref_numbers.as_ref().map(Json))
            .bind(patch.shipment_tags.as_ref().map(Json))
            .bind(at.as_datetime())
            .fetch_optional(&self.pool)
            .await?
            .as_ref()
            .map(from_row)
            .transpose()
    }
}
