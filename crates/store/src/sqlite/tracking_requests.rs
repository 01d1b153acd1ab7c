//! Tracking requests on SQLite.

use async_trait::async_trait;
use sqlx::sqlite::SqliteRow;
use sqlx::types::Json;
use sqlx::{QueryBuilder, Row, Sqlite};
use tidemark_domain::{
    AccountId, Timestamp, TrackingRequest, TrackingRequestId, TrackingRequestPatch,
};

use super::{SqliteStore, parse_time, parse_uuid, time_text};
use crate::rows::{TrackingRequestParts, retry_count_column};
use crate::sql;
use crate::{
    Page, PageRequest, StoreError, TimeRange, TrackingRequestFilter, TrackingRequestStore,
};

fn from_row(row: &SqliteRow) -> Result<TrackingRequest, StoreError> {
    let tracked: Option<&str> = row.try_get("tracked_object_id")?;
    let Json(ref_numbers) = row.try_get("ref_numbers")?;
    let Json(shipment_tags) = row.try_get("shipment_tags")?;
    TrackingRequestParts {
        id: parse_uuid(row.try_get("id")?)?,
        account_id: parse_uuid(row.try_get("account_id")?)?,
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
        retry_count: row.try_get("retry_count")?,
        tracked_object_id: tracked.map(parse_uuid).transpose()?,
        created_at: parse_time(row.try_get("created_at")?)?,
        updated_at: parse_time(row.try_get("updated_at")?)?,
    }
    .try_into()
}

fn push_range(query: &mut QueryBuilder<Sqlite>, column: &str, range: TimeRange) {
    if let Some(start) = range.start {
        query
            .push(format_args!(" AND {column} >= "))
            .push_bind(time_text(start));
    }
    if let Some(end) = range.end {
        query
            .push(format_args!(" AND {column} <= "))
            .push_bind(time_text(end));
    }
}

fn push_any(query: &mut QueryBuilder<Sqlite>, column: &str, values: Vec<String>) {
    if values.is_empty() {
        return;
    }
    query.push(format_args!(" AND {column} IN ("));
    let mut list = query.separated(", ");
    for value in values {
        list.push_bind(value);
    }
    list.push_unseparated(")");
}

fn push_filter(
    query: &mut QueryBuilder<Sqlite>,
    account: AccountId,
    filter: &TrackingRequestFilter,
) {
    query
        .push(" WHERE account_id = ")
        .push_bind(account.to_string());
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
    if let Some(number) = &filter.request_number {
        query
            .push(" AND number_normalized = ")
            .push_bind(number.clone());
    }
    push_range(query, "created_at", filter.created_at);
    push_range(query, "updated_at", filter.updated_at);
}

impl SqliteStore {
    /// The number of `account`'s requests matching `filter`: from the trigger-maintained
    /// counts when only statuses are filtered, by counting rows otherwise.
    async fn count(
        &self,
        account: AccountId,
        filter: &TrackingRequestFilter,
    ) -> Result<i64, StoreError> {
        let only_status = TrackingRequestFilter {
            status: filter.status.clone(),
            ..TrackingRequestFilter::default()
        };
        let mut count = if *filter == only_status {
            let mut query =
                QueryBuilder::new("SELECT COALESCE(SUM(count), 0) FROM tracking_request_counts");
            query
                .push(" WHERE account_id = ")
                .push_bind(account.to_string());
            push_any(
                &mut query,
                "status",
                filter
                    .status
                    .iter()
                    .map(|s| s.as_str().to_owned())
                    .collect(),
            );
            query
        } else {
            let mut query = QueryBuilder::new("SELECT COUNT(*) FROM tracking_requests");
            push_filter(&mut query, account, filter);
            query
        };
        Ok(count.build_query_scalar().fetch_one(&self.read).await?)
    }
}

#[async_trait]
impl TrackingRequestStore for SqliteStore {
    async fn insert_tracking_request(&self, request: &TrackingRequest) -> Result<(), StoreError> {
        self.inserts.insert(request.clone()).await
    }

    async fn tracking_request(
        &self,
        account: AccountId,
        id: TrackingRequestId,
    ) -> Result<Option<TrackingRequest>, StoreError> {
        sqlx::query(sql::TRACKING_REQUEST_BY_ID)
            .bind(id.to_string())
            .bind(account.to_string())
            .fetch_optional(&self.read)
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
        let total = self.count(account, filter).await?;

        let mut select = QueryBuilder::new(sql::SELECT_TRACKING_REQUESTS);
        push_filter(&mut select, account, filter);
        select
            .push(sql::NEWEST_FIRST)
            .push_bind(page.limit())
            .push(" OFFSET ")
            .push_bind(page.offset());
        let items = select
            .build()
            .fetch_all(&self.read)
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
            .bind(id.to_string())
            .bind(account.to_string())
            .bind(patch.ref_numbers.as_ref().map(Json))
            .bind(patch.shipment_tags.as_ref().map(Json))
            .bind(time_text(at))
            .fetch_optional(&self.write)
            .await?
            .as_ref()
            .map(from_row)
            .transpose()
    }

    async fn set_tracking_request_state(
        &self,
        request: &TrackingRequest,
    ) -> Result<(), StoreError> {
        sqlx::query(sql::SET_TRACKING_REQUEST_STATE)
            .bind(request.id.to_string())
            .bind(request.account_id.to_string())
            .bind(request.status.as_str())
            .bind(request.failed_reason.map(|r| r.as_str()))
            .bind(request.is_retrying)
            .bind(retry_count_column(request))
            .bind(request.tracked_object.map(|id| id.to_string()))
            .bind(request.scac.map(|s| s.to_string()))
            .bind(time_text(request.updated_at))
            .execute(&self.write)
            .await?;
        Ok(())
    }
}
