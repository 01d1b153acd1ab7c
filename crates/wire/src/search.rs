//! How a search result looks on the wire (compat-api.md §3.9 `GET /v2/search`): one flat
//! record per shipment, container (`cargo`) or tracking request found, with the members
//! the reference's results carry; those that do not apply to a kind are null.

use serde::Serialize;
use tidemark_domain::{Container, Shipment, TrackingRequest};
use utoipa::ToSchema;

use crate::shipment::StopReasonSchema;
use crate::tracking_request::{FailedReasonSchema, StatusSchema};

/// The JSON:API type of a search result.
pub const TYPE: &str = "search_result";

/// What a result is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum EntityType {
    /// A shipment (its id is the shipment's).
    Shipment,
    /// A container (its id is the container's).
    Cargo,
    /// A tracking request (its id is the request's).
    TrackingRequest,
}

/// A search result's attributes.
#[derive(Debug, Serialize, ToSchema)]
pub struct SearchResultAttributes {
    /// What was found.
    pub entity_type: EntityType,
    /// Its number: the bill of lading or booking, the container number, or the request
    /// number.
    pub number: String,
    /// The shipment of a container, or the shipment a tracking request found; null for a
    /// shipment.
    #[schema(format = Uuid)]
    pub shipment_id: Option<String>,
    /// The carrier.
    pub scac: Option<String>,
    /// A shipment's port of loading.
    pub port_of_lading_name: Option<String>,
    /// A shipment's port of discharge.
    pub port_of_discharge_name: Option<String>,
    /// A shipment's containers.
    pub containers_count: Option<u32>,
    /// Whether a shipment is no longer tracked.
    pub tracking_stopped: Option<bool>,
    /// Why a shipment is no longer tracked.
    #[schema(value_type = Option<StopReasonSchema>)]
    pub tracking_stopped_reason: Option<&'static str>,
    /// A tracking request's status.
    #[schema(value_type = Option<StatusSchema>)]
    pub status: Option<&'static str>,
    /// Why a tracking request failed.
    #[schema(value_type = Option<FailedReasonSchema>)]
    pub failed_reason: Option<&'static str>,
    /// The client's reference numbers.
    pub ref_numbers: Vec<String>,
    /// When it was created (RFC 3339, UTC).
    #[schema(format = DateTime)]
    pub created_at: String,
    /// When it last changed (RFC 3339, UTC).
    #[schema(format = DateTime)]
    pub updated_at: String,
}

/// A `search_result` resource.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = SearchResult)]
pub struct SearchResultResource {
    /// The id of what was found.
    #[schema(format = Uuid)]
    pub id: String,
    /// Always `search_result`.
    #[serde(rename = "type")]
    #[schema(pattern = "^search_result$")]
    pub type_: &'static str,
    /// Its attributes.
    pub attributes: SearchResultAttributes,
}

fn result(id: String, attributes: SearchResultAttributes) -> SearchResultResource {
    SearchResultResource {
        id,
        type_: TYPE,
        attributes,
    }
}

/// `shipment`, which has `containers_count` containers, as a result.
#[must_use]
pub fn shipment(shipment: &Shipment, containers_count: u32) -> SearchResultResource {
    let name = |place: Option<&tidemark_domain::Place>| place.and_then(|p| p.name.clone());
    result(
        shipment.id.to_string(),
        SearchResultAttributes {
            entity_type: EntityType::Shipment,
            number: shipment.bill_of_lading_number.clone(),
            shipment_id: None,
            scac: Some(shipment.scac.to_string()),
            port_of_lading_name: name(shipment.route.port_of_lading.as_ref()),
            port_of_discharge_name: name(shipment.route.port_of_discharge.as_ref()),
            containers_count: Some(containers_count),
            tracking_stopped: Some(shipment.stopped_at.is_some()),
            tracking_stopped_reason: shipment.stopped_reason.map(|r| r.as_str()),
            status: None,
            failed_reason: None,
            ref_numbers: shipment.ref_numbers.clone(),
            created_at: shipment.created_at.to_string(),
            updated_at: shipment.updated_at.to_string(),
        },
    )
}

/// `container`, of a shipment of carrier `scac`, as a result.
#[must_use]
pub fn cargo(container: &Container, scac: Option<String>) -> SearchResultResource {
    result(
        container.id.to_string(),
        SearchResultAttributes {
            entity_type: EntityType::Cargo,
            number: container.number.clone(),
            shipment_id: Some(container.shipment_id.to_string()),
            scac,
            port_of_lading_name: None,
            port_of_discharge_name: None,
            containers_count: None,
            tracking_stopped: None,
            tracking_stopped_reason: None,
            status: None,
            failed_reason: None,
            ref_numbers: container.ref_numbers.clone(),
            created_at: container.created_at.to_string(),
            updated_at: container.updated_at.to_string(),
        },
    )
}

/// `request` as a result.
#[must_use]
pub fn tracking_request(request: &TrackingRequest) -> SearchResultResource {
    result(
        request.id.to_string(),
        SearchResultAttributes {
            entity_type: EntityType::TrackingRequest,
            number: request.request_number.as_str().to_owned(),
            shipment_id: request.tracked_object.map(|id| id.to_string()),
            scac: request.scac.map(|scac| scac.to_string()),
            port_of_lading_name: None,
            port_of_discharge_name: None,
            containers_count: None,
            tracking_stopped: None,
            tracking_stopped_reason: None,
            status: Some(request.status.as_str()),
            failed_reason: request.failed_reason.map(|r| r.as_str()),
            ref_numbers: request.ref_numbers.clone(),
            created_at: request.created_at.to_string(),
            updated_at: request.updated_at.to_string(),
        },
    )
}
