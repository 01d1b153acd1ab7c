//! Conversions from stored columns to domain types, shared by both backends.
//!
//! Each backend reads its native column types and hands these parts over; the parsing
//! of enums and identifiers happens here once.

use tidemark_domain::{
    Account, AccountId, AccountName, ApiKeyId, ApiKeyRecord, FailedReason, RequestNumber,
    RequestStatus, RequestType, Scac, Timestamp, TrackingRequest, TrackingRequestId,
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
