//! How a tracking request looks on the wire (api.md §2), and the documented request bodies.

use serde::Serialize;

use crate::wire_enum_schema;
use tidemark_domain::{
    FailedReason, RequestStatus, RequestType, TrackingRequest, TrackingRequestId,
};
use utoipa::ToSchema;

use crate::document::{ResourceIdentifier, SelfLink, ToOne};

/// The JSON:API type of a tracking request.
pub const TYPE: &str = "tracking_request";

wire_enum_schema!(
    RequestTypeSchema,
    "RequestType",
    "The kind of number.",
    RequestType::ALL
);
wire_enum_schema!(
    StatusSchema,
    "TrackingRequestStatus",
    "Where the request stands.",
    RequestStatus::ALL
);
wire_enum_schema!(
    FailedReasonSchema,
    "FailedReason",
    "Why a request failed, or the temporary reason while retrying.",
    FailedReason::ALL
);

/// A tracking request's attributes.
#[derive(Debug, Serialize, ToSchema)]
pub struct TrackingRequestAttributes {
    /// The number as submitted, trimmed.
    pub request_number: String,
    /// What kind of number it is.
    #[schema(value_type = RequestTypeSchema)]
    pub request_type: &'static str,
    /// The carrier's canonical SCAC; null while auto-detection is pending.
    pub scac: Option<String>,
    /// The client's reference numbers.
    pub ref_numbers: Vec<String>,
    /// Tags copied onto the shipment.
    pub shipment_tags: Vec<String>,
    /// Where the request stands.
    #[schema(value_type = StatusSchema)]
    pub status: &'static str,
    /// Why it failed, or the temporary reason while retrying.
    #[schema(value_type = Option<FailedReasonSchema>)]
    pub failed_reason: Option<&'static str>,
    /// Inside an automatic retry cycle.
    pub is_retrying: bool,
    /// Lookup attempts retried; null when never retried.
    pub retry_count: Option<u32>,
    /// When it was created (RFC 3339, UTC).
    #[schema(format = DateTime)]
    pub created_at: String,
    /// When it last changed (RFC 3339, UTC).
    #[schema(format = DateTime)]
    pub updated_at: String,
}

/// A tracking request's relationships.
#[derive(Debug, Serialize, ToSchema)]
pub struct TrackingRequestRelationships {
    /// The shipment, once the request succeeded.
    pub tracked_object: ToOne,
    /// The client's customer (a `party`), or null.
    pub customer: ToOne,
    /// The reference API's user who made the request: requests are made by API keys
    /// (always null).
    pub user: ToOne,
}

/// A `tracking_request` resource.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = TrackingRequest)]
pub struct TrackingRequestResource {
    /// Its id (a UUID).
    #[schema(format = Uuid)]
    pub id: String,
    /// Always `tracking_request`.
    #[serde(rename = "type")]
    #[schema(pattern = "^tracking_request$")]
    pub type_: &'static str,
    /// Its attributes.
    pub attributes: TrackingRequestAttributes,
    /// Its relationships.
    pub relationships: TrackingRequestRelationships,
    /// Its own link.
    pub links: SelfLink,
}

/// Where a tracking request lives.
#[must_use]
pub fn path(id: TrackingRequestId) -> String {
    format!("/v2/tracking_requests/{id}")
}

/// The attributes of `request`.
#[must_use]
pub fn attributes(request: &TrackingRequest) -> TrackingRequestAttributes {
    TrackingRequestAttributes {
        request_number: request.request_number.as_str().to_owned(),
        request_type: request.request_type.as_str(),
        scac: request.scac.map(|scac| scac.to_string()),
        ref_numbers: request.ref_numbers.clone(),
        shipment_tags: request.shipment_tags.clone(),
        status: request.status.as_str(),
        failed_reason: request.failed_reason.map(|reason| reason.as_str()),
        is_retrying: request.is_retrying,
        retry_count: request.retry_count,
        created_at: request.created_at.to_string(),
        updated_at: request.updated_at.to_string(),
    }
}

/// `request` as a resource object.
#[must_use]
pub fn resource(request: &TrackingRequest) -> TrackingRequestResource {
    TrackingRequestResource {
        id: request.id.to_string(),
        type_: TYPE,
        attributes: attributes(request),
        relationships: TrackingRequestRelationships {
            tracked_object: ToOne {
                data: request.tracked_object.map(|id| ResourceIdentifier {
                    id: id.to_string(),
                    type_: "shipment".to_owned(),
                }),
            },
            customer: ToOne::of(crate::party::TYPE, request.customer),
            user: ToOne::none(),
        },
        links: SelfLink {
            self_: path(request.id),
        },
    }
}

/// The attributes a client sends to create a tracking request.
#[derive(Debug, ToSchema)]
#[expect(
    dead_code,
    reason = "describes the request body in the OpenAPI document; bodies are parsed field by field"
)]
pub struct CreateTrackingRequestAttributes {
    /// `bill_of_lading`, `booking_number` or `container`.
    #[schema(value_type = RequestTypeSchema)]
    request_type: String,
    /// The number: letters, digits, spaces and `- / . _` (its longest is the configured
    /// `[limits] request_number_chars`, written into the document when it is served).
    #[schema(
        min_length = 1,
        pattern = r"^[ \t\r\n]*[A-Za-z0-9./_-]([A-Za-z0-9 ./_-]*[A-Za-z0-9./_-])?[ \t\r\n]*$"
    )]
    request_number: String,
    /// The carrier's SCAC (or an alternative SCAC; see `GET /v2/shipping_lines`); required
    /// unless `auto_detect_vocc_scac` is true.
    #[schema(min_length = 4, max_length = 4, pattern = "^[A-Za-z0-9]{4}$")]
    scac: Option<String>,
    /// Infer the carrier from the number instead of giving `scac`.
    auto_detect_vocc_scac: Option<bool>,
    /// The client's reference numbers.
    ref_numbers: Option<Vec<ListItem>>,
    /// Tags, copied onto the shipment.
    shipment_tags: Option<Vec<ListItem>>,
    /// Custom field values for the shipment and its containers, in the reference API.
    /// Tidemark has no custom field definitions: the lists must be empty.
    initial_custom_fields: Option<crate::custom_field::InitialCustomFields>,
}

/// An item of `ref_numbers` or `shipment_tags`: not only white space, no control
/// characters; its longest is the configured `[limits] list_item_chars`.
#[derive(Debug)]
pub struct ListItem;

impl utoipa::PartialSchema for ListItem {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        crate::schema::client_text(
            tidemark_domain::Limits::default().list_item_chars,
            "not only white space, no control characters",
        )
    }
}

impl ToSchema for ListItem {}

/// The resource object of a create request.
#[derive(Debug, ToSchema)]
#[expect(
    dead_code,
    reason = "describes the request body in the OpenAPI document"
)]
pub struct CreateTrackingRequestData {
    /// Must be `tracking_request`.
    #[schema(rename = "type", pattern = "^tracking_request$")]
    type_: String,
    /// The request.
    attributes: CreateTrackingRequestAttributes,
    /// Its customer, a party of the account.
    relationships: Option<crate::party::CustomerRelationships>,
}

/// The body of `POST /v2/tracking_requests`.
#[derive(Debug, ToSchema)]
#[schema(example = json!({"data": {"type": "tracking_request", "attributes": {"request_type": "bill_of_lading", "request_number": "TEST-TR-SUCCEEDED", "scac": "TEST", "ref_numbers": ["PO-4711"], "shipment_tags": ["priority"]}}}))]
#[expect(
    dead_code,
    reason = "describes the request body in the OpenAPI document"
)]
pub struct CreateTrackingRequestDocument {
    /// The new request.
    data: CreateTrackingRequestData,
}

/// The editable attributes of a tracking request.
#[derive(Debug, ToSchema)]
#[expect(
    dead_code,
    reason = "describes the request body in the OpenAPI document"
)]
pub struct UpdateTrackingRequestAttributes {
    /// Replaces the reference numbers.
    ref_numbers: Option<Vec<ListItem>>,
    /// The reference API's single reference number: replaces the list with this one
    /// (null or blank empties it). Not together with `ref_numbers`.
    ref_number: Option<String>,
    /// Replaces the shipment tags.
    shipment_tags: Option<Vec<ListItem>>,
}

/// The resource object of an update.
#[derive(Debug, ToSchema)]
#[expect(
    dead_code,
    reason = "describes the request body in the OpenAPI document"
)]
pub struct UpdateTrackingRequestData {
    /// Must be `tracking_request`.
    #[schema(rename = "type", pattern = "^tracking_request$")]
    type_: String,
    /// If given, must be the id in the path.
    #[schema(format = Uuid)]
    id: Option<String>,
    /// The changes; none means nothing changes.
    #[schema(nullable = false)]
    attributes: Option<UpdateTrackingRequestAttributes>,
    /// A new customer, or none (`{"customer": {"data": null}}`).
    relationships: Option<crate::party::CustomerRelationships>,
}

/// The body of `PATCH /v2/tracking_requests/{id}`.
#[derive(Debug, ToSchema)]
#[schema(example = json!({"data": {"type": "tracking_request", "id": "01938f3c-6a1e-7b2d-9c4f-5e6a7b8c9d0e", "attributes": {"ref_numbers": ["PO-4711", "PO-4712"]}}}))]
#[expect(
    dead_code,
    reason = "describes the request body in the OpenAPI document"
)]
pub struct UpdateTrackingRequestDocument {
    /// The changes.
    data: UpdateTrackingRequestData,
}
