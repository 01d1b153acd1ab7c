//! Tracking requests: their SQL and rows, written once. The duplicate rule lives here and
//! in the unique index of the migrations (`tracking_requests_open_unique`).

use async_trait::async_trait;
use tidemark_domain::{
    AccountId, FailedReason, JobId, JobKind, PartyId, RequestNumber, RequestStatus, RequestType,
    Scac, Timestamp, TrackingRequest, TrackingRequestId, TrackingRequestPatch, TrackingSource,
};

use crate::db::{Backend, Cost, Paged, Query, Row, Unit, Value, parse_all};
use crate::search::{self, Searched};
use crate::{Page, PageRequest, StoreError, TrackingRequestFilter};
use insert::insert;
pub(crate) use insert::insert_all;

/// The columns of `tracking_requests`, in the order reads select and creates write them.
const COLUMNS: &str = "id, account_id, request_type, request_number, number_normalized, scac, \
     auto_detect_scac, ref_numbers, shipment_tags, status, failed_reason, is_retrying, \
     retry_count, tracked_object_id, created_at, updated_at, customer_id";

/// The statuses that count as open for the duplicate rule, as an SQL list.
macro_rules! open_statuses {
    () => {
        "('pending', 'awaiting_manifest', 'created')"
    };
}

/// Offsets beyond this make a list a long read (see the SQLite driver's readers).
const LONG_READ_OFFSET: i64 = 10_000;

/// Most open requests one bill of lading is found tracked by.
pub const MAX_REQUESTS_OF_BILL: u32 = 1_000;

/// Tracking requests, always scoped by account (except for workers, who act for all).
#[async_trait]
pub trait TrackingRequestStore: Send + Sync {
    /// Stores a new request and queues its first lookup, both or neither. An open request
    /// of the same account, normalized number and SCAC makes it fail with
    /// [`StoreError::Duplicate`], decided by a unique index.
    async fn insert_tracking_request(&self, request: &TrackingRequest) -> Result<(), StoreError> {
        self.insert_tracking_request_staging(request, &[]).await
    }

    /// Stores a new request, its first lookup and the custom field values it stages for the
    /// records it will find, in one transaction.
    ///
    /// # Errors
    /// `Duplicate` as [`TrackingRequestStore::insert_tracking_request`].
    async fn insert_tracking_request_staging(
        &self,
        request: &TrackingRequest,
        staged: &[tidemark_domain::custom_field::Staged],
    ) -> Result<(), StoreError>;

    /// One request of `account`.
    async fn tracking_request(
        &self,
        account: AccountId,
        id: TrackingRequestId,
    ) -> Result<Option<TrackingRequest>, StoreError>;

    /// A request by id, whatever its account (workers act for every account).
    async fn tracking_request_for_work(
        &self,
        id: TrackingRequestId,
    ) -> Result<Option<TrackingRequest>, StoreError>;

    /// A page of `account`'s requests matching `filter`, newest first.
    async fn list_tracking_requests(
        &self,
        account: AccountId,
        filter: &TrackingRequestFilter,
        page: PageRequest,
    ) -> Result<Page<TrackingRequest>, StoreError>;

    /// The open requests, whatever their account, whose shipment is bill `bill` of line
    /// `scac` tracked from `source` (a carrier's push concerns them all); at most
    /// [`MAX_REQUESTS_OF_BILL`], oldest first.
    async fn open_requests_of_bill(
        &self,
        scac: Scac,
        bill: &str,
        source: TrackingSource,
    ) -> Result<Vec<TrackingRequestId>, StoreError>;

    /// The open requests, whatever their account, tracking any of containers `numbers`
    /// from `source` (a terminal's push concerns them all); at most
    /// [`MAX_REQUESTS_OF_BILL`], oldest first.
    async fn open_requests_of_containers(
        &self,
        numbers: &[String],
        source: TrackingSource,
    ) -> Result<Vec<TrackingRequestId>, StoreError>;

    /// Applies `patch` and returns the updated request, or `None` when `account` has no
    /// request `id`.
    async fn update_tracking_request(
        &self,
        account: AccountId,
        id: TrackingRequestId,
        patch: &TrackingRequestPatch,
        at: Timestamp,
    ) -> Result<Option<TrackingRequest>, StoreError>;
}

/// Retry counts are small; storage keeps them as integers.
fn parse(row: &Row) -> Result<TrackingRequest, StoreError> {
    Ok(TrackingRequest {
        id: TrackingRequestId::from_uuid(row.required_id("id")?),
        account_id: AccountId::from_uuid(row.required_id("account_id")?),
        request_type: row.parsed("request_type", RequestType::parse)?,
        request_number: RequestNumber::from_parts(
            row.required_text("request_number")?,
            row.required_text("number_normalized")?,
        ),
        scac: row.parsed_opt("scac", |text| Scac::parse(text).ok())?,
        auto_detect_scac: row.bool("auto_detect_scac")?,
        ref_numbers: row.json("ref_numbers")?,
        shipment_tags: row.json("shipment_tags")?,
        status: row.parsed("status", RequestStatus::parse)?,
        failed_reason: row.parsed_opt("failed_reason", FailedReason::parse)?,
        is_retrying: row.bool("is_retrying")?,
        retry_count: row
            .int_opt("retry_count")?
            .map(|count| {
                u32::try_from(count)
                    .map_err(|_| StoreError::corrupt(format!("retry_count {count}")))
            })
            .transpose()?,
        tracked_object: row.id("tracked_object_id")?,
        customer: row.id("customer_id")?.map(PartyId::from_uuid),
        created_at: row.required_time("created_at")?,
        updated_at: row.required_time("updated_at")?,
    })
}

fn select() -> Query {
    Query::new(&format!("SELECT {COLUMNS} FROM tracking_requests"))
}

/// The request's first lookup, due at once.
fn first_lookup(request: &TrackingRequest) -> Query {
    Query::with(
        "INSERT INTO jobs (id, kind, key, due_at, created_at) VALUES ($1, $2, $3, $4, $4) \
         ON CONFLICT (kind, key) DO NOTHING",
        vec![
            JobId::new().as_uuid().into(),
            JobKind::Lookup.as_str().into(),
            request.id.to_string().into(),
            request.created_at.into(),
        ],
    )
}

/// The open request that made `request` a duplicate: account, normalized number, SCAC.
fn open_twin(request: &TrackingRequest) -> Query {
    Query::with(
        concat!(
            "SELECT id FROM tracking_requests WHERE account_id = $1 AND number_normalized = $2 \
             AND COALESCE(scac, '') = $3 AND status IN ",
            open_statuses!(),
            " LIMIT 1"
        ),
        vec![
            request.account_id.as_uuid().into(),
            request.request_number.normalized().into(),
            request
                .scac
                .map(|s| s.to_string())
                .unwrap_or_default()
                .into(),
        ],
    )
}

fn push_filter(query: &mut Query, filter: &TrackingRequestFilter) {
    query
        .push_any("status", filter.status.iter().map(|s| s.as_str()))
        .push_any("scac", filter.scac.iter().map(ToString::to_string))
        .push_any(
            "request_type",
            filter.request_type.iter().map(|t| t.as_str()),
        )
        .push_any("number_normalized", filter.request_number.iter().cloned())
        .push_range("created_at", filter.created_at)
        .push_range("updated_at", filter.updated_at);
}

/// Whether only statuses are filtered (so triggers' counts can give the total).
fn only_statuses(filter: &TrackingRequestFilter) -> bool {
    *filter
        == TrackingRequestFilter {
            status: filter.status.clone(),
            ..TrackingRequestFilter::default()
        }
}

fn by_id(id: TrackingRequestId) -> Query {
    let mut query = select();
    query.push(" WHERE id = ").bind(id.as_uuid());
    query
}

#[async_trait]
impl<B: Backend> TrackingRequestStore for B {
    async fn insert_tracking_request_staging(
        &self,
        request: &TrackingRequest,
        staged: &[tidemark_domain::custom_field::Staged],
    ) -> Result<(), StoreError> {
        // Every new request's first lookup is queued in the same transaction, so an
        // acknowledged create is always looked up, whatever crashes afterwards.
        let mut queries = vec![insert(request), first_lookup(request)];
        queries.extend(crate::custom_fields::staged::insert_all(request.id, staged));
        let mut unit = Unit::of(queries);
        unit.guards.push(vec![0]);
        if self.write(unit).await?.kept {
            return Ok(());
        }
        let existing_id = self
            .fetch_one(&open_twin(request))
            .await?
            .map(|row| row.required_id("id"))
            .transpose()?
            .map(TrackingRequestId::from_uuid);
        Err(StoreError::Duplicate { existing_id })
    }

    async fn tracking_request(
        &self,
        account: AccountId,
        id: TrackingRequestId,
    ) -> Result<Option<TrackingRequest>, StoreError> {
        let mut query = by_id(id);
        query.push(" AND account_id = ").bind(account.as_uuid());
        self.fetch_one(&query)
            .await?
            .as_ref()
            .map(parse)
            .transpose()
    }

    async fn tracking_request_for_work(
        &self,
        id: TrackingRequestId,
    ) -> Result<Option<TrackingRequest>, StoreError> {
        self.fetch_one(&by_id(id))
            .await?
            .as_ref()
            .map(parse)
            .transpose()
    }

    async fn list_tracking_requests(
        &self,
        account: AccountId,
        filter: &TrackingRequestFilter,
        page: PageRequest,
    ) -> Result<Page<TrackingRequest>, StoreError> {
        let searched = Searched::TrackingRequests;
        let text = filter.search.as_deref();
        let mut rows = search::scoped(self, searched, account, text).await?;
        push_filter(&mut rows, filter);
        let select = format!("SELECT {COLUMNS}");
        let mut paged = Paged::newest_first(&select, rows);
        if self.dialect().request_counts && only_statuses(filter) {
            let mut count = Query::scoped(
                "SELECT COALESCE(SUM(count), 0) AS count FROM tracking_request_counts",
                account,
            );
            count.push_any("status", filter.status.iter().map(|s| s.as_str()));
            paged.count = Some(count);
            if page.offset() <= LONG_READ_OFFSET {
                paged.cost = Cost::Point;
            }
        }
        paged.read(self, page, parse).await
    }

    async fn open_requests_of_bill(
        &self,
        scac: Scac,
        bill: &str,
        source: TrackingSource,
    ) -> Result<Vec<TrackingRequestId>, StoreError> {
        let query = Query::with(
            concat!(
                "SELECT r.id FROM shipments s JOIN tracking_requests r \
                 ON r.id = s.tracking_request_id WHERE s.scac = $1 \
                 AND s.bill_of_lading_number = $2 AND s.source = $3 AND r.status IN ",
                open_statuses!(),
                " ORDER BY r.created_at, r.id LIMIT $4"
            ),
            vec![
                scac.to_string().into(),
                bill.into(),
                source.as_str().into(),
                i64::from(MAX_REQUESTS_OF_BILL).into(),
            ],
        );
        parse_all(self.fetch(&query).await?, |row| {
            row.required_id("id").map(TrackingRequestId::from_uuid)
        })
    }

    async fn open_requests_of_containers(
        &self,
        numbers: &[String],
        source: TrackingSource,
    ) -> Result<Vec<TrackingRequestId>, StoreError> {
        if numbers.is_empty() {
            return Ok(Vec::new());
        }
        let mut query = Query::new(concat!(
            "SELECT r.id, r.created_at FROM containers c JOIN shipments s ON s.id = c.shipment_id \
             JOIN tracking_requests r ON r.id = s.tracking_request_id WHERE r.status IN ",
            open_statuses!(),
            " AND s.source = "
        ));
        query.bind(source.as_str());
        query.push_any("c.number", numbers.iter().cloned());
        query
            .push(" GROUP BY r.id, r.created_at ORDER BY r.created_at, r.id LIMIT ")
            .bind(i64::from(MAX_REQUESTS_OF_BILL));
        parse_all(self.fetch(&query).await?, |row| {
            row.required_id("id").map(TrackingRequestId::from_uuid)
        })
    }

    async fn update_tracking_request(
        &self,
        account: AccountId,
        id: TrackingRequestId,
        patch: &TrackingRequestPatch,
        at: Timestamp,
    ) -> Result<Option<TrackingRequest>, StoreError> {
        let json =
            |list: &Option<Vec<String>>| list.as_ref().map_or(Value::Json(None), Value::json);
        let mut update = Query::new("UPDATE tracking_requests SET ref_numbers = COALESCE(");
        update
            .bind(json(&patch.ref_numbers))
            .push(", ref_numbers), shipment_tags = COALESCE(")
            .bind(json(&patch.shipment_tags))
            .push(", shipment_tags), updated_at = ")
            .bind(at);
        if let Some(customer) = patch.customer {
            update
                .push(", customer_id = ")
                .bind(customer.as_ref().map(PartyId::as_uuid));
        }
        update
            .push(" WHERE id = ")
            .bind(id.as_uuid())
            .push(" AND account_id = ")
            .bind(account.as_uuid())
            .push(&format!(" RETURNING {COLUMNS}"));
        self.returning(update).await?.first().map(parse).transpose()
    }
}

mod insert;

#[cfg(test)]
mod tests;
