//! A tracking request's row, as creates and imports write it.

use tidemark_domain::{PartyId, TrackingRequest};

use super::COLUMNS;
use crate::db::{Query, Value};

/// The insert, which a conflict with an open twin (or any unique index) leaves undone.
pub(super) fn insert(request: &TrackingRequest) -> Query {
    let mut query = Query::new(&format!(
        "INSERT INTO tracking_requests ({COLUMNS}) VALUES "
    ));
    query.bind_list(row(request));
    query.push(" ON CONFLICT DO NOTHING");
    query
}

/// Inserts `requests` as they stand, a hundred a statement (an import's; see
/// [`crate::import`]): a conflict fails the statement.
pub(crate) fn insert_all<'a>(
    requests: impl IntoIterator<Item = &'a TrackingRequest>,
) -> Vec<Query> {
    Query::insert_rows(
        &format!("INSERT INTO tracking_requests ({COLUMNS}) VALUES "),
        requests.into_iter().map(row),
        "",
    )
}

/// A request's values, in the order of [`COLUMNS`].
fn row(request: &TrackingRequest) -> Vec<Value> {
    vec![
        request.id.as_uuid().into(),
        request.account_id.as_uuid().into(),
        request.request_type.as_str().into(),
        request.request_number.as_str().into(),
        request.request_number.normalized().into(),
        request.scac.map(|s| s.to_string()).into(),
        Value::from(request.auto_detect_scac),
        Value::json(&request.ref_numbers),
        Value::json(&request.shipment_tags),
        request.status.as_str().into(),
        request.failed_reason.map(|r| r.as_str()).into(),
        Value::from(request.is_retrying),
        retry_count(request),
        request.tracked_object.into(),
        request.created_at.into(),
        request.updated_at.into(),
        request.customer.as_ref().map(PartyId::as_uuid).into(),
    ]
}

pub(super) fn retry_count(request: &TrackingRequest) -> Value {
    Value::int(request.retry_count)
}
