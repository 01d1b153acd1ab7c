//! How a shipment looks on the wire (compat-api.md §3.1). Times the carrier did not give
//! are null; time zones are null because Tidemark does not guess them.

use serde::Serialize;

use crate::wire_enum_schema;
use tidemark_domain::{CarrierMatrix, Container, Shipment, ShipmentId, StopReason};
use utoipa::ToSchema;

use crate::document::{ResourceIdentifier, SelfLink, ToMany, ToOne};
use crate::time;

/// The JSON:API type of a shipment.
pub const TYPE: &str = "shipment";

wire_enum_schema!(
    StopReasonSchema,
    "StopReason",
    "Why tracking stopped.",
    StopReason::ALL
);

/// A shipment's attributes.
#[derive(Debug, Serialize, ToSchema)]
pub struct ShipmentAttributes {
    /// The tracked bill of lading or booking number.
    pub bill_of_lading_number: String,
    /// The number as sent to the carrier.
    pub normalized_number: String,
    /// The client's reference numbers.
    pub ref_numbers: Vec<String>,
    /// The client's tags.
    pub tags: Vec<String>,
    /// When it was created.
    #[schema(format = DateTime)]
    pub created_at: String,
    /// When it last changed.
    #[schema(format = DateTime)]
    pub updated_at: String,
    /// The carrier.
    pub shipping_line_scac: String,
    /// The carrier's name.
    pub shipping_line_name: Option<String>,
    /// The carrier's short name.
    pub shipping_line_short_name: Option<String>,
    /// The name of its tracking request's customer, if any.
    pub customer_name: Option<String>,
    /// Port of loading (UN/LOCODE).
    pub port_of_lading_locode: Option<String>,
    /// Its name.
    pub port_of_lading_name: Option<String>,
    /// Port of discharge (UN/LOCODE).
    pub port_of_discharge_locode: Option<String>,
    /// Its name.
    pub port_of_discharge_name: Option<String>,
    /// Final destination (UN/LOCODE).
    pub destination_locode: Option<String>,
    /// Its name.
    pub destination_name: Option<String>,
    /// The vessel arriving at the port of discharge.
    pub pod_vessel_name: Option<String>,
    /// Its IMO number.
    pub pod_vessel_imo: Option<String>,
    /// Its voyage number.
    pub pod_voyage_number: Option<String>,
    /// Estimated departure from the port of loading.
    #[schema(format = DateTime)]
    pub pol_etd_at: Option<String>,
    /// Actual departure from the port of loading.
    #[schema(format = DateTime)]
    pub pol_atd_at: Option<String>,
    /// The first departure estimate.
    #[schema(format = DateTime)]
    pub pol_original_etd_at: Option<String>,
    /// Estimated arrival at the port of discharge.
    #[schema(format = DateTime)]
    pub pod_eta_at: Option<String>,
    /// Actual arrival at the port of discharge.
    #[schema(format = DateTime)]
    pub pod_ata_at: Option<String>,
    /// The first arrival estimate.
    #[schema(format = DateTime)]
    pub pod_original_eta_at: Option<String>,
    /// **(beyond)** Tidemark's own arrival estimate at the port of discharge, made every
    /// hour while the shipment is at sea from its vessel's AIS position: the sea route to
    /// the ports ahead at the vessel's speed made good over the last day, plus a day at
    /// each port between (docs/tracking.md, "Tidemark's arrival estimate"). Null without a
    /// position heard within a day; kept after arrival, to compare with `pod_ata_at`.
    #[schema(format = DateTime)]
    pub pod_predicted_eta_at: Option<String>,
    /// Estimated arrival at the destination.
    #[schema(format = DateTime)]
    pub destination_eta_at: Option<String>,
    /// Actual arrival at the destination.
    #[schema(format = DateTime)]
    pub destination_ata_at: Option<String>,
    /// The first destination estimate.
    #[schema(format = DateTime)]
    pub destination_original_eta_at: Option<String>,
    /// IANA zone of the port of loading (null: not known).
    pub pol_timezone: Option<String>,
    /// IANA zone of the port of discharge (null: not known).
    pub pod_timezone: Option<String>,
    /// IANA zone of the destination (null: not known).
    pub destination_timezone: Option<String>,
    /// The last lookup at the carrier.
    #[schema(format = DateTime)]
    pub line_tracking_last_attempted_at: Option<String>,
    /// The last lookup the carrier answered.
    #[schema(format = DateTime)]
    pub line_tracking_last_succeeded_at: Option<String>,
    /// When tracking stopped.
    #[schema(format = DateTime)]
    pub line_tracking_stopped_at: Option<String>,
    /// Why tracking stopped.
    #[schema(value_type = Option<StopReasonSchema>)]
    pub line_tracking_stopped_reason: Option<&'static str>,
    /// `shipping_line` (the carrier's endpoint) or `sandbox` (the built-in simulator).
    #[schema(pattern = "^(shipping_line|sandbox)$")]
    pub line_tracking_source: &'static str,
}

/// A shipment's relationships.
#[derive(Debug, Serialize, ToSchema)]
pub struct ShipmentRelationships {
    /// The port of loading.
    pub port_of_lading: ToOne,
    /// The port of discharge.
    pub port_of_discharge: ToOne,
    /// The destination.
    pub destination: ToOne,
    /// The terminal of discharge.
    pub pod_terminal: ToOne,
    /// The destination's terminal.
    pub destination_terminal: ToOne,
    /// The containers.
    pub containers: ToMany,
    /// The reference API's user who stopped tracking: stops come from API keys (always
    /// null; `line_tracking_stopped_reason` says `cancelled_by_user`).
    pub line_tracking_stopped_by_user: ToOne,
}

/// A `shipment` resource.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = Shipment)]
pub struct ShipmentResource {
    /// Its id.
    #[schema(format = Uuid)]
    pub id: String,
    /// Always `shipment`.
    #[serde(rename = "type")]
    #[schema(pattern = "^shipment$")]
    pub type_: &'static str,
    /// Its attributes.
    pub attributes: ShipmentAttributes,
    /// Its relationships.
    pub relationships: ShipmentRelationships,
    /// Its own link.
    pub links: SelfLink,
}

/// Where a shipment lives.
#[must_use]
pub fn path(id: ShipmentId) -> String {
    format!("/v2/shipments/{id}")
}

/// `shipment` as a resource, with `containers` (its containers, any order).
#[must_use]
pub fn resource(
    shipment: &Shipment,
    containers: &[&Container],
    carriers: &CarrierMatrix,
) -> ShipmentResource {
    let route = &shipment.route;
    let carrier = carriers.resolve(&shipment.scac);
    let port =
        |place: Option<&tidemark_domain::Place>| ToOne::port(place.map(|p| p.locode.as_str()));
    let terminal = ToOne::terminal(
        route
            .port_of_discharge
            .as_ref()
            .and_then(|p| p.facility.as_deref()),
    );
    let locode = |place: Option<&tidemark_domain::Place>| place.map(|p| p.locode.clone());
    let name = crate::place_name;
    let zone =
        |place: Option<&tidemark_domain::Place>| crate::time_zone(place.map(|p| p.locode.as_str()));
    let (pol, pod, dest) = (
        route.port_of_lading.as_ref(),
        route.port_of_discharge.as_ref(),
        route.destination.as_ref(),
    );
    ShipmentResource {
        id: shipment.id.to_string(),
        type_: TYPE,
        attributes: ShipmentAttributes {
            bill_of_lading_number: shipment.bill_of_lading_number.clone(),
            normalized_number: shipment.normalized_number.clone(),
            ref_numbers: shipment.ref_numbers.clone(),
            tags: shipment.tags.clone(),
            created_at: shipment.created_at.to_string(),
            updated_at: shipment.updated_at.to_string(),
            shipping_line_scac: shipment.scac.to_string(),
            shipping_line_name: carrier.map(|c| c.name.clone()),
            shipping_line_short_name: carrier.map(|c| c.short_name.clone()),
            customer_name: None,
            port_of_lading_locode: locode(pol),
            port_of_lading_name: name(pol),
            port_of_discharge_locode: locode(pod),
            port_of_discharge_name: name(pod),
            destination_locode: locode(dest),
            destination_name: name(dest),
            pod_vessel_name: route.pod_vessel.as_ref().and_then(|v| v.name.clone()),
            pod_vessel_imo: route.pod_vessel.as_ref().map(|v| v.imo.clone()),
            pod_voyage_number: route.pod_voyage_number.clone(),
            pol_etd_at: time(route.pol_etd_at),
            pol_atd_at: time(route.pol_atd_at),
            pol_original_etd_at: time(route.pol_original_etd_at),
            pod_eta_at: time(route.pod_eta_at),
            pod_ata_at: time(route.pod_ata_at),
            pod_original_eta_at: time(route.pod_original_eta_at),
            pod_predicted_eta_at: time(shipment.pod_predicted_eta_at),
            destination_eta_at: time(dest.and(route.pod_eta_at)),
            destination_ata_at: time(dest.and(route.pod_ata_at)),
            destination_original_eta_at: time(dest.and(route.pod_original_eta_at)),
            pol_timezone: zone(pol),
            pod_timezone: zone(pod),
            destination_timezone: zone(dest),
            line_tracking_last_attempted_at: time(shipment.last_attempted_at),
            line_tracking_last_succeeded_at: time(shipment.last_succeeded_at),
            line_tracking_stopped_at: time(shipment.stopped_at),
            line_tracking_stopped_reason: shipment.stopped_reason.map(StopReason::as_str),
            line_tracking_source: shipment.source.as_str(),
        },
        relationships: ShipmentRelationships {
            port_of_lading: port(pol),
            port_of_discharge: port(pod),
            destination: port(dest),
            pod_terminal: terminal.clone(),
            destination_terminal: terminal,
            containers: ToMany {
                data: containers
                    .iter()
                    .map(|c| ResourceIdentifier::new("container", c.id))
                    .collect(),
            },
            line_tracking_stopped_by_user: ToOne::none(),
        },
        links: SelfLink {
            self_: path(shipment.id),
        },
    }
}

/// The editable attributes of a shipment.
#[derive(Debug, ToSchema)]
#[expect(
    dead_code,
    reason = "describes the request body in the OpenAPI document; bodies are parsed field by field"
)]
pub struct UpdateShipmentAttributes {
    /// Replaces the reference numbers.
    ref_numbers: Option<Vec<crate::tracking_request::ListItem>>,
    /// Replaces the tags.
    tags: Option<Vec<crate::tracking_request::ListItem>>,
}

/// The resource object of an update.
#[derive(Debug, ToSchema)]
#[expect(
    dead_code,
    reason = "describes the request body in the OpenAPI document"
)]
pub struct UpdateShipmentData {
    /// Must be `shipment`.
    #[schema(rename = "type", pattern = "^shipment$")]
    type_: String,
    /// If given, must be the id in the path.
    #[schema(format = Uuid)]
    id: Option<String>,
    /// The changes; none means nothing changes.
    #[schema(nullable = false)]
    attributes: Option<UpdateShipmentAttributes>,
}

/// The body of `PATCH /v2/shipments/{id}`.
#[derive(Debug, ToSchema)]
#[schema(example = json!({"data": {"type": "shipment", "id": "01938f3c-6a1e-7b2d-9c4f-5e6a7b8c9d0e", "attributes": {"ref_numbers": ["PO-4711"], "tags": ["priority"]}}}))]
#[expect(
    dead_code,
    reason = "describes the request body in the OpenAPI document"
)]
pub struct UpdateShipmentDocument {
    /// The changes.
    data: UpdateShipmentData,
}
