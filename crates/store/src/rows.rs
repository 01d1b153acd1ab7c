//! Conversions from stored columns to domain types, shared by both backends.
//!
//! Each backend reads its native column types and hands these parts over; the parsing
//! of enums and identifiers happens here once.

use tidemark_domain::{
    Account, AccountId, AccountName, ApiKeyId, ApiKeyRecord, Container, ContainerId,
    ContainerStatus, DomainEvent, DomainEventId, EventName, FailedReason, Place, RequestNumber,
    RequestStatus, RequestType, Scac, Shipment, ShipmentId, StopReason, Subject, Timestamp,
    TrackingRequest, TrackingRequestId, TrackingSource, TransportEvent, TransportEventId,
    TransportEventKind, VesselRef,
};
use uuid::Uuid;

use crate::StoreError;

/// The columns of `tracking_requests`, in the order both backends select them.
macro_rules! tracking_request_columns {
    () => {
        "id, account_id, request_type, request_number, number_normalized, scac, auto_detect_scac, \
         ref_numbers, shipment_tags, status, failed_reason, is_retrying, retry_count, \
         tracked_object_id, created_at, updated_at"
    };
}
pub(crate) use tracking_request_columns;

/// The columns of `accounts`.
macro_rules! account_columns {
    () => {
        "id, name, created_at"
    };
}
pub(crate) use account_columns;

/// The columns of `api_keys`.
macro_rules! api_key_columns {
    () => {
        "id, account_id, prefix, hash, created_at, revoked_at"
    };
}
pub(crate) use api_key_columns;

/// The statuses that count as open for the duplicate rule, as an SQL list.
macro_rules! open_statuses {
    () => {
        "('pending', 'awaiting_manifest', 'created')"
    };
}
pub(crate) use open_statuses;

pub(crate) struct TrackingRequestParts {
    pub(crate) id: Uuid,
    pub(crate) account_id: Uuid,
    pub(crate) request_type: String,
    pub(crate) request_number: String,
    pub(crate) number_normalized: String,
    pub(crate) scac: Option<String>,
    pub(crate) auto_detect_scac: bool,
    pub(crate) ref_numbers: Vec<String>,
    pub(crate) shipment_tags: Vec<String>,
    pub(crate) status: String,
    pub(crate) failed_reason: Option<String>,
    pub(crate) is_retrying: bool,
    pub(crate) retry_count: Option<i64>,
    pub(crate) tracked_object_id: Option<Uuid>,
    pub(crate) created_at: Timestamp,
    pub(crate) updated_at: Timestamp,
}

impl TryFrom<TrackingRequestParts> for TrackingRequest {
    type Error = StoreError;

    fn try_from(parts: TrackingRequestParts) -> Result<Self, StoreError> {
        let request_type = RequestType::parse(&parts.request_type)
            .ok_or_else(|| StoreError::corrupt(format!("request_type {:?}", parts.request_type)))?;
        let status = RequestStatus::parse(&parts.status)
            .ok_or_else(|| StoreError::corrupt(format!("status {:?}", parts.status)))?;
        let scac = parts
            .scac
            .map(|text| {
                Scac::parse(&text).map_err(|_| StoreError::corrupt(format!("scac {text:?}")))
            })
            .transpose()?;
        let failed_reason = parts
            .failed_reason
            .map(|text| {
                FailedReason::parse(&text)
                    .ok_or_else(|| StoreError::corrupt(format!("failed_reason {text:?}")))
            })
            .transpose()?;
        let retry_count = parts
            .retry_count
            .map(|count| {
                u32::try_from(count)
                    .map_err(|_| StoreError::corrupt(format!("retry_count {count}")))
            })
            .transpose()?;
        Ok(Self {
            id: TrackingRequestId::from_uuid(parts.id),
            account_id: AccountId::from_uuid(parts.account_id),
            request_type,
            request_number: RequestNumber::from_parts(
                parts.request_number,
                parts.number_normalized,
            ),
            scac,
            auto_detect_scac: parts.auto_detect_scac,
            ref_numbers: parts.ref_numbers,
            shipment_tags: parts.shipment_tags,
            status,
            failed_reason,
            is_retrying: parts.is_retrying,
            retry_count,
            tracked_object: parts.tracked_object_id,
            created_at: parts.created_at,
            updated_at: parts.updated_at,
        })
    }
}

pub(crate) fn account(id: Uuid, name: &str, created_at: Timestamp) -> Result<Account, StoreError> {
    Ok(Account {
        id: AccountId::from_uuid(id),
        name: AccountName::parse(name)
            .map_err(|_| StoreError::corrupt(format!("account name {name:?}")))?,
        created_at,
    })
}

pub(crate) fn api_key(
    id: Uuid,
    account_id: Uuid,
    prefix: String,
    hash: &[u8],
    created_at: Timestamp,
    revoked_at: Option<Timestamp>,
) -> Result<ApiKeyRecord, StoreError> {
    Ok(ApiKeyRecord {
        id: ApiKeyId::from_uuid(id),
        account_id: AccountId::from_uuid(account_id),
        hash: hash.try_into().map_err(|_| {
            StoreError::corrupt(format!("hash of key {prefix} has {} bytes", hash.len()))
        })?,
        prefix,
        created_at,
        revoked_at,
    })
}

/// Retry counts are small; storage keeps them as 64-bit integers.
pub(crate) fn retry_count_column(request: &TrackingRequest) -> Option<i64> {
    request.retry_count.map(i64::from)
}

/// The columns of `shipments`, in the order both backends write and select them.
macro_rules! shipment_columns {
    () => {
        "id, account_id, tracking_request_id, bill_of_lading_number, normalized_number, scac, \
         ref_numbers, tags, pol_locode, pod_locode, route, source, last_attempted_at, \
         last_succeeded_at, last_changed_at, stopped_at, stopped_reason, created_at, updated_at"
    };
}
pub(crate) use shipment_columns;

/// The columns of `containers`.
macro_rules! container_columns {
    () => {
        "id, account_id, shipment_id, number, current_status, ref_numbers, details, created_at, \
         updated_at"
    };
}
pub(crate) use container_columns;

/// The columns of `transport_events`.
macro_rules! transport_event_columns {
    () => {
        "id, account_id, shipment_id, container_id, event, timestamp, location_locode, \
         location_name, facility, vessel_imo, vessel_name, voyage_number, created_at"
    };
}
pub(crate) use transport_event_columns;

/// The columns of `domain_events`.
macro_rules! domain_event_columns {
    () => {
        "id, account_id, name, subject_type, subject_id, shipment_id, detail, dedupe_key, \
         included, created_at"
    };
}
pub(crate) use domain_event_columns;

/// A stored row, read by column name in neutral types; each backend implements it for
/// its row type, so the tables below are parsed once.
pub(crate) trait Columns {
    /// A text column.
    fn text(&self, name: &str) -> Result<Option<String>, StoreError>;
    /// A time column.
    fn time(&self, name: &str) -> Result<Option<Timestamp>, StoreError>;
    /// An id column.
    fn id(&self, name: &str) -> Result<Option<Uuid>, StoreError>;
    /// A JSON column, as text.
    fn json_text(&self, name: &str) -> Result<String, StoreError>;

    /// A text column that may not be null.
    fn required_text(&self, name: &str) -> Result<String, StoreError> {
        self.text(name)?
            .ok_or_else(|| StoreError::corrupt(format!("{name} is null")))
    }

    /// A time column that may not be null.
    fn required_time(&self, name: &str) -> Result<Timestamp, StoreError> {
        self.time(name)?
            .ok_or_else(|| StoreError::corrupt(format!("{name} is null")))
    }

    /// An id column that may not be null.
    fn required_id(&self, name: &str) -> Result<Uuid, StoreError> {
        self.id(name)?
            .ok_or_else(|| StoreError::corrupt(format!("{name} is null")))
    }

    /// A JSON column, parsed.
    fn json<T: serde::de::DeserializeOwned>(&self, name: &str) -> Result<T, StoreError> {
        let text = self.json_text(name)?;
        serde_json::from_str(&text).map_err(|_| StoreError::corrupt(format!("{name} {text:?}")))
    }
}

fn parsed<T>(
    name: &str,
    text: &str,
    parse: impl FnOnce(&str) -> Option<T>,
) -> Result<T, StoreError> {
    parse(text).ok_or_else(|| StoreError::corrupt(format!("{name} {text:?}")))
}

pub(crate) fn shipment(row: &impl Columns) -> Result<Shipment, StoreError> {
    let scac = row.required_text("scac")?;
    let source = row.required_text("source")?;
    Ok(Shipment {
        id: ShipmentId::from_uuid(row.required_id("id")?),
        account_id: AccountId::from_uuid(row.required_id("account_id")?),
        tracking_request_id: TrackingRequestId::from_uuid(row.required_id("tracking_request_id")?),
        bill_of_lading_number: row.required_text("bill_of_lading_number")?,
        normalized_number: row.required_text("normalized_number")?,
        scac: parsed("scac", &scac, |text| Scac::parse(text).ok())?,
        ref_numbers: row.json("ref_numbers")?,
        tags: row.json("tags")?,
        route: row.json("route")?,
        source: parsed("source", &source, TrackingSource::parse)?,
        last_attempted_at: row.time("last_attempted_at")?,
        last_succeeded_at: row.time("last_succeeded_at")?,
        last_changed_at: row.required_time("last_changed_at")?,
        stopped_at: row.time("stopped_at")?,
        stopped_reason: row
            .text("stopped_reason")?
            .map(|text| parsed("stopped_reason", &text, StopReason::parse))
            .transpose()?,
        created_at: row.required_time("created_at")?,
        updated_at: row.required_time("updated_at")?,
    })
}

pub(crate) fn container(row: &impl Columns) -> Result<Container, StoreError> {
    let status = row.required_text("current_status")?;
    Ok(Container {
        id: ContainerId::from_uuid(row.required_id("id")?),
        account_id: AccountId::from_uuid(row.required_id("account_id")?),
        shipment_id: ShipmentId::from_uuid(row.required_id("shipment_id")?),
        number: row.required_text("number")?,
        current_status: parsed("current_status", &status, ContainerStatus::parse)?,
        ref_numbers: row.json("ref_numbers")?,
        details: row.json("details")?,
        created_at: row.required_time("created_at")?,
        updated_at: row.required_time("updated_at")?,
    })
}

/// The vessel of `vessel_imo` and `vessel_name`, when there is one.
pub(crate) fn vessel(row: &impl Columns) -> Result<Option<VesselRef>, StoreError> {
    row.text("vessel_imo")?
        .map(|imo| -> Result<VesselRef, StoreError> {
            Ok(VesselRef {
                imo,
                name: row.text("vessel_name")?,
            })
        })
        .transpose()
}

pub(crate) fn transport_event(row: &impl Columns) -> Result<TransportEvent, StoreError> {
    let event = row.required_text("event")?;
    let locode = row.required_text("location_locode")?;
    let location = (!locode.is_empty()).then(|| -> Result<Place, StoreError> {
        Ok(Place {
            locode,
            name: row.text("location_name")?,
            facility: row.text("facility")?,
        })
    });
    let vessel = vessel(row)?;
    Ok(TransportEvent {
        id: TransportEventId::from_uuid(row.required_id("id")?),
        account_id: AccountId::from_uuid(row.required_id("account_id")?),
        shipment_id: ShipmentId::from_uuid(row.required_id("shipment_id")?),
        container_id: ContainerId::from_uuid(row.required_id("container_id")?),
        kind: parsed("event", &event, TransportEventKind::parse)?,
        timestamp: row.required_time("timestamp")?,
        location: location.transpose()?,
        vessel,
        voyage_number: row.text("voyage_number")?,
        created_at: row.required_time("created_at")?,
    })
}

pub(crate) fn domain_event(row: &impl Columns) -> Result<DomainEvent, StoreError> {
    let name = row.required_text("name")?;
    let subject_type = row.required_text("subject_type")?;
    let subject_id = row.required_id("subject_id")?;
    Ok(DomainEvent {
        id: DomainEventId::from_uuid(row.required_id("id")?),
        account_id: AccountId::from_uuid(row.required_id("account_id")?),
        name: parsed("name", &name, EventName::parse)?,
        subject: parsed("subject_type", &subject_type, |kind| {
            Subject::from_parts(kind, subject_id)
        })?,
        shipment_id: row.id("shipment_id")?.map(ShipmentId::from_uuid),
        detail: row.json("detail")?,
        dedupe_key: row.required_text("dedupe_key")?,
        included: row.json("included")?,
        created_at: row.required_time("created_at")?,
    })
}

#[cfg(test)]
mod tests {
    use tidemark_domain::RequestStatus;

    /// The domain decides which statuses are open; the SQL list and the unique index of
    /// both backends' migrations spell the same list.
    #[test]
    fn the_sql_open_statuses_are_the_domains() {
        let open: Vec<String> = RequestStatus::ALL
            .into_iter()
            .filter(RequestStatus::is_open)
            .map(|status| format!("'{}'", status.as_str()))
            .collect();
        let list = format!("({})", open.join(", "));
        assert_eq!(open_statuses!(), list);
        for migration in [
            include_str!("../migrations/sqlite/0001_accounts_and_tracking_requests.sql"),
            include_str!("../migrations/postgres/0001_accounts_and_tracking_requests.sql"),
        ] {
            assert!(
                migration.contains(&format!("WHERE status IN {list};")),
                "the duplicate index's predicate is {list}"
            );
        }
    }
}
