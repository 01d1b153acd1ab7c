//! Parsing create and update bodies of tracking requests (api.md §2).

use serde_json::Value;
use tidemark_app::Requests;
use tidemark_domain::{
    Limits, NewTrackingRequest, TrackingRequest, TrackingRequestDraft, TrackingRequestPatch,
    ValidationCode,
};

use super::view::{self, TYPE};
use crate::ApiError;
use crate::body::{self, Attributes};
use crate::custom_fields::initial::Entry;

/// Attributes that are shown but never written after creation.
const READ_ONLY: [&str; 9] = [
    "request_number",
    "request_type",
    "scac",
    "status",
    "failed_reason",
    "is_retrying",
    "retry_count",
    "created_at",
    "updated_at",
];

/// Parses and validates the body of `POST /v2/tracking_requests`.
///
/// # Errors
/// 400, 403, 409 or 422 as api.md §2 lists them.
pub fn create(
    document: &Value,
    requests: &Requests,
) -> Result<(NewTrackingRequest, Vec<Entry>), ApiError> {
    let data = body::data(document)?;
    body::check_type(data, TYPE)?;
    body::check_no_id(data)?;
    let mut attributes = Attributes::of(data);
    let draft = TrackingRequestDraft {
        request_type: attributes.string("request_type"),
        request_number: attributes.string("request_number"),
        scac: attributes.string("scac"),
        auto_detect_scac: attributes.boolean("auto_detect_vocc_scac").unwrap_or(false),
        ref_numbers: attributes.strings("ref_numbers").unwrap_or_default(),
        shipment_tags: attributes.strings("shipment_tags").unwrap_or_default(),
    };
    let initial = attributes.raw("initial_custom_fields");
    attributes.reject_unknown();
    let mut problems = attributes.problems;
    let (staged, shape) = crate::custom_fields::initial::read(initial);
    problems.extend(shape);
    match requests.validate(draft) {
        Ok(new) if problems.is_empty() => Ok((new, staged)),
        Ok(_) => Err(ApiError::unprocessable(problems)),
        Err(field_errors) => Err(body::merge(problems, field_errors)),
    }
}

/// Parses and validates the body of `PATCH /v2/tracking_requests/{id}` against the
/// request as it stands.
///
/// # Errors
/// 400, 409 or 422 (`immutable` for attributes that cannot change).
pub fn update(
    document: &Value,
    current: &TrackingRequest,
    limits: &Limits,
) -> Result<TrackingRequestPatch, ApiError> {
    let data = body::data(document)?;
    body::check_type(data, TYPE)?;
    body::check_id(data, &current.id.to_string())?;
    let mut attributes = Attributes::of(data);
    let shown = serde_json::to_value(view::attributes(current)).unwrap_or(Value::Null);
    let mut immutable = Vec::new();
    for key in READ_ONLY {
        if let Some(given) = attributes.raw(key)
            && shown.get(key) != Some(given)
        {
            immutable.push((
                format!("/data/attributes/{key}"),
                ValidationCode::Immutable,
                format!("{key} cannot be changed after creation"),
            ));
        }
    }
    let mut ref_numbers = attributes.strings("ref_numbers");
    // The reference documents one `ref_number` (a string; null or blank clears the list).
    let single = match attributes.raw("ref_number") {
        None => None,
        Some(Value::Null) => Some(Vec::new()),
        Some(_) => attributes.string("ref_number").map(|text| {
            if text.trim().is_empty() {
                Vec::new()
            } else {
                vec![text]
            }
        }),
    };
    if let Some(single) = single {
        if ref_numbers.is_some() {
            attributes.problems.push((
                "/data/attributes/ref_number".into(),
                ValidationCode::Invalid,
                "give ref_numbers or ref_number, not both".into(),
            ));
        } else {
            ref_numbers = Some(single);
        }
    }
    let patch = TrackingRequestPatch {
        ref_numbers,
        shipment_tags: attributes.strings("shipment_tags"),
        customer: None,
    };
    attributes.reject_unknown();
    let mut problems = immutable;
    problems.append(&mut attributes.problems);
    match patch.validate(limits) {
        Ok(patch) if problems.is_empty() => Ok(patch),
        Ok(_) => Err(ApiError::unprocessable(problems)),
        Err(field_errors) => Err(body::merge(problems, field_errors)),
    }
}
