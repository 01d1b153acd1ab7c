//! Tracking requests on SQLite: reads through `readers`, writes through the single sqlx
//! connection (creates through `group_commit`).

use async_trait::async_trait;
use rusqlite::Row;
use tidemark_domain::{
    AccountId, Timestamp, TrackingRequest, TrackingRequestId, TrackingRequestPatch,
};

use super::readers::Statement;
use super::{SqliteStore, parse_time, parse_uuid, time_text};
use crate::rows::TrackingRequestParts;
use crate::sql;
use crate::sql::Search;
use crate::{
    Page, PageRequest, StoreError, TimeRange, TrackingRequestFilter, TrackingRequestStore,
};

fn json_list(row: &Row<'_>, column: &str) -> Result<Vec<String>, StoreError> {
    let text: String = row.get(column)?;
    serde_json::from_str(&text).map_err(|_| StoreError::corrupt(format!("{column} {text:?}")))
}

pub(super) fn from_row(row: &Row<'_>) -> Result<TrackingRequest, StoreError> {
    let tracked: Option<String> = row.get("tracked_object_id")?;
    TrackingRequestParts {
        id: parse_uuid(&row.get::<_, String>("id")?)?,
        account_id: parse_uuid(&row.get::<_, String>("account_id")?)?,
        request_type: row.get("request_type")?,
        request_number: row.get("request_number")?,
        number_normalized: row.get("number_normalized")?,
        scac: row.get("scac")?,
        auto_detect_scac: row.get("auto_detect_scac")?,
        ref_numbers: json_list(row, "ref_numbers")?,
        shipment_tags: json_list(row, "shipment_tags")?,
        status: row.get("status")?,
        failed_reason: row.get("failed_reason")?,
        is_retrying: row.get("is_retrying")?,
        retry_count: row.get("retry_count")?,
        tracked_object_id: tracked.as_deref().map(parse_uuid).transpose()?,
        created_at: parse_time(&row.get::<_, String>("created_at")?)?,
        updated_at: parse_time(&row.get::<_, String>("updated_at")?)?,
    }
    .try_into()
}

fn push_range(query: &mut Statement, column: &str, range: TimeRange) {
    if let Some(start) = range.start {
        query
            .push(&format!(" AND {column} >= "))
            .bind(time_text(start));
    }
    if let Some(end) = range.end {
        query
            .push(&format!(" AND {column} <= "))
            .bind(time_text(end));
    }
}

fn push_any(query: &mut Statement, column: &str, values: impl IntoIterator<Item = String>) {
    let mut values = values.into_iter().peekable();
    if values.peek().is_none() {
        return;
    }
    query.push(&format!(" AND {column} IN ("));
    for (index, value) in values.enumerate() {
        if index > 0 {
            query.push(", ");
        }
        query.bind(value);
    }
    query.push(")");
}

fn push_statuses(query: &mut Statement, filter: &TrackingRequestFilter) {
    push_any(
        query,
        "status",
        filter.status.iter().map(|s| s.as_str().to_owned()),
    );
}

fn push_filter(query: &mut Statement, account: AccountId, filter: &TrackingRequestFilter) {
    query.push(" WHERE account_id = ").bind(account.to_string());
    push_statuses(query, filter);
    push_any(query, "scac", filter.scac.iter().map(ToString::to_string));
    push_any(
        query,
        "request_type",
        filter.request_type.iter().map(|t| t.as_str().to_owned()),
    );
    push_any(
        query,
        "number_normalized",
        filter.request_number.iter().cloned(),
    );
    if let Some(text) = &filter.search {
        let search = Search::of(text);
        query.push(" AND (");
        for pattern in search.numbers {
            query.push("number_normalized LIKE ").bind(pattern);
            query.push(" ESCAPE '\\' OR ");
        }
        query
            .push("UPPER(ref_numbers) LIKE ")
            .bind(search.reference);
        query.push(" ESCAPE '\\')");
    }
    push_range(query, "created_at", filter.created_at);
    push_range(query, "updated_at", filter.updated_at);
}

/// Offsets beyond this make a list a long read (see `readers`).
const LONG_READ_OFFSET: i64 = 10_000;

/// Whether the total comes from the trigger-maintained counts (only statuses filtered).
fn counted_by_triggers(filter: &TrackingRequestFilter) -> bool {
    *filter
        == TrackingRequestFilter {
            status: filter.status.clone(),
            ..TrackingRequestFilter::default()
        }
}

/// The statement counting `account`'s requests matching `filter`: the trigger-maintained
/// counts when only statuses are filtered, counting rows otherwise.
fn count_statement(account: AccountId, filter: &TrackingRequestFilter) -> Statement {
    if counted_by_triggers(filter) {
        let mut query =
            Statement::new("SELECT COALESCE(SUM(count), 0) FROM tracking_request_counts");
        query.push(" WHERE account_id = ").bind(account.to_string());
        push_statuses(&mut query, filter);
        query
    } else {
        let mut query = Statement::new("SELECT COUNT(*) FROM tracking_requests");
        push_filter(&mut query, account, filter);
        query
    }
}

impl SqliteStore {
    fn read_tracking_request(
        &self,
        account: AccountId,
        id: TrackingRequestId,
    ) -> Result<Option<TrackingRequest>, StoreError> {
        let mut query = Statement::new(sql::TRACKING_REQUEST_BY_ID);
        query.params.push(id.to_string().into());
        query.params.push(account.to_string().into());
        self.read
            .point(|connection| query.row(connection, from_row))
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
        self.read_tracking_request(account, id)
    }

    async fn list_tracking_requests(
        &self,
        account: AccountId,
        filter: &TrackingRequestFilter,
        page: PageRequest,
    ) -> Result<Page<TrackingRequest>, StoreError> {
        let count = count_statement(account, filter);
        let mut select = Statement::new(sql::SELECT_TRACKING_REQUESTS);
        push_filter(&mut select, account, filter);
        select
            .push(sql::NEWEST_FIRST)
            .bind(page.limit())
            .push(" OFFSET ")
            .bind(page.offset());
        // One read transaction, so the page and its total agree.
        let read = |connection: &rusqlite::Connection| {
            let transaction = connection.unchecked_transaction()?;
            let total = count
                .row(&transaction, |row| Ok(row.get::<_, i64>(0)?))?
                .unwrap_or(0);
            let items = select.rows(&transaction, from_row)?;
            transaction.finish()?;
            Ok(Page {
                items,
                total: u64::try_from(total).unwrap_or_default(),
            })
        };
        if counted_by_triggers(filter) && page.offset() <= LONG_READ_OFFSET {
            self.read.point(read)
        } else {
            self.read.scan(read)
        }
    }

    async fn update_tracking_request(
        &self,
        account: AccountId,
        id: TrackingRequestId,
        patch: &TrackingRequestPatch,
        at: Timestamp,
    ) -> Result<Option<TrackingRequest>, StoreError> {
        let json = |list: &Option<Vec<String>>| {
            list.as_ref()
                .map(|items| serde_json::Value::from(items.clone()).to_string())
        };
        let updated = sqlx::query(sql::PATCH_TRACKING_REQUEST)
            .bind(id.to_string())
            .bind(account.to_string())
            .bind(json(&patch.ref_numbers))
            .bind(json(&patch.shipment_tags))
            .bind(time_text(at))
            .execute(&self.write)
            .await?;
        if updated.rows_affected() == 0 {
            return Ok(None);
        }
        self.read_tracking_request(account, id)
    }
}
