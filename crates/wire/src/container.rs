//! How containers and their transport events look on the wire (compat-api.md §3.2–3.3).
//! Terminal data (holds, fees, availability, last free days) is the container's terminal
//! view (`container/terminal.rs`); until a source reports it, it says "not known" (null,
//! false or empty).

mod terminal;
mod transport_event;

pub use terminal::{ImportDeadlines, TerminalFeeSchema, TerminalHoldSchema};
pub use transport_event::{
    TransportEventAttributes, TransportEventRelationships, TransportEventResource, transport_event,
};

use serde::Serialize;

use crate::wire_enum_schema;
use tidemark_domain::{Container, ContainerId, ContainerStatus};
use utoipa::ToSchema;

use crate::document::{RelatedLink, SelfLink, ToOne};
use crate::time;

wire_enum_schema!(
    ContainerStatusSchema,
    "ContainerStatus",
    "Where the container is.",
    ContainerStatus::ALL
);

/// A container's attributes.
#[derive(Debug, Serialize, ToSchema)]
pub struct ContainerAttributes {
    /// ISO 6346 number.
    pub number: String,
    /// The client's reference numbers.
    pub ref_numbers: Vec<String>,
    /// Seal number.
    pub seal_number: Option<String>,
    /// When it was created.
    #[schema(format = DateTime)]
    pub created_at: String,
    /// When it last changed.
    #[schema(format = DateTime)]
    pub updated_at: String,
    /// ISO size-type code, e.g. `45G1`.
    pub iso_code: Option<String>,
    /// `dry`, `reefer`, `open top`, `flat rack`, `bulk` or `tank`.
    pub equipment_type: Option<&'static str>,
    /// 10, 20, 40 or 45 (feet).
    pub equipment_length: Option<u8>,
    /// `standard` or `high_cube`.
    pub equipment_height: Option<&'static str>,
    /// Not reported by carriers' track and trace: null.
    pub weight_in_lbs: Option<f64>,
    /// Where it is.
    #[schema(value_type = ContainerStatusSchema)]
    pub current_status: &'static str,
    /// Empty picked up for stuffing.
    #[schema(format = DateTime)]
    pub empty_out_at: Option<String>,
    /// Gated in full at the port of loading.
    #[schema(format = DateTime)]
    pub pol_full_in_at: Option<String>,
    /// Loaded at the port of loading.
    #[schema(format = DateTime)]
    pub pol_vessel_loaded_at: Option<String>,
    /// The vessel left the port of loading.
    #[schema(format = DateTime)]
    pub pol_vessel_departed_at: Option<String>,
    /// The vessel arrived at the port of discharge.
    #[schema(format = DateTime)]
    pub pod_arrived_at: Option<String>,
    /// Discharged at the port of discharge.
    #[schema(format = DateTime)]
    pub pod_discharged_at: Option<String>,
    /// Picked up full at the port of discharge.
    #[schema(format = DateTime)]
    pub pod_full_out_at: Option<String>,
    /// Returned empty.
    #[schema(format = DateTime)]
    pub empty_terminated_at: Option<String>,
    /// Whether a source reports availability for it.
    pub availability_known: bool,
    /// Meaningful only when `availability_known`.
    pub available_for_pickup: Option<bool>,
    /// The last free day that counts: the line's, else the terminal's, else the rail's.
    #[schema(format = DateTime)]
    pub pickup_lfd: Option<String>,
    /// The pickup appointment made at the terminal.
    #[schema(format = DateTime)]
    pub pickup_appointment_at: Option<String>,
    /// Holds in force or pending; a cleared hold is not listed.
    #[schema(value_type = Vec<TerminalHoldSchema>)]
    pub holds_at_pod_terminal: Vec<tidemark_domain::terminal::Hold>,
    /// Fees owed at the terminal.
    #[schema(value_type = Vec<TerminalFeeSchema>)]
    pub fees_at_pod_terminal: Vec<tidemark_domain::terminal::Fee>,
    /// IANA zone of the port of discharge (null: not known).
    pub pod_timezone: Option<String>,
    /// The last lookup of its shipment at the carrier.
    #[schema(format = DateTime)]
    pub shipment_last_tracking_request_at: Option<String>,
    /// Chassis it left the terminal on (needs a terminal source: null).
    pub pod_full_out_chassis_number: Option<String>,
    /// Where it stands in the yard, as the terminal writes it.
    pub location_at_pod_terminal: Option<String>,
    /// Last free days per source: the line's (its Arrival Notice), the terminal's, the
    /// rail's; each null until a source gives it.
    pub import_deadlines: ImportDeadlines,
    /// When its terminal last answered for it (null until one has).
    #[schema(format = DateTime)]
    pub terminal_checked_at: Option<String>,
    /// The last terminal lookup: not recorded apart (null); `terminal_checked_at` says when
    /// a terminal last answered.
    #[schema(format = DateTime)]
    pub pod_last_tracking_request_at: Option<String>,
    /// The number a trucker presents to pick it up, from the line's Arrival Notice
    /// (beyond the reference API).
    pub pickup_number: Option<String>,
    /// Where to return it empty (a facility code, else a name), from the line's Arrival
    /// Notice (beyond the reference API).
    pub empty_return_location: Option<String>,
    /// The reference to quote when returning it empty, from the line's Arrival Notice
    /// (beyond the reference API).
    pub empty_return_reference: Option<String>,
    /// Picked up at the inland destination (no rail source yet: null).
    #[schema(format = DateTime)]
    pub final_destination_full_out_at: Option<String>,
    /// IANA zone of the final destination (null: not known).
    pub final_destination_timezone: Option<String>,
    /// IANA zone of the empty return (null: not known).
    pub empty_terminated_timezone: Option<String>,
    /// Rail carrier at the port of discharge (no rail source yet: null).
    pub pod_rail_carrier_scac: Option<String>,
    /// Rail carrier of the inland leg (no rail source yet: null).
    pub ind_rail_carrier_scac: Option<String>,
    /// Loaded on rail at the port of discharge (no rail source yet: null).
    #[schema(format = DateTime)]
    pub pod_rail_loaded_at: Option<String>,
    /// The train left the port of discharge (no rail source yet: null).
    #[schema(format = DateTime)]
    pub pod_rail_departed_at: Option<String>,
    /// The rail carrier's inland arrival estimate (no rail source yet: null).
    #[schema(format = DateTime)]
    pub ind_eta_at: Option<String>,
    /// The inland arrival (no rail source yet: null).
    #[schema(format = DateTime)]
    pub ind_ata_at: Option<String>,
    /// Unloaded from rail inland (no rail source yet: null).
    #[schema(format = DateTime)]
    pub ind_rail_unloaded_at: Option<String>,
    /// Deprecated by the reference for `import_deadlines.pickup_lfd_rail` (null).
    #[schema(format = DateTime)]
    pub ind_facility_lfd_on: Option<String>,
    /// Holds at the inland facility (no rail source yet: empty).
    #[schema(value_type = Vec<Object>)]
    pub ind_facility_holds: Vec<serde_json::Value>,
    /// Fees at the inland facility (no rail source yet: empty).
    #[schema(value_type = Vec<Object>)]
    pub ind_facility_fees: Vec<serde_json::Value>,
    /// The last rail lookup (no rail source yet: null).
    #[schema(format = DateTime)]
    pub rail_last_tracking_request_at: Option<String>,
    /// Marked delivered (not reported by carriers: null).
    #[schema(format = DateTime)]
    pub delivered_at: Option<String>,
    /// The line's last free day (needs an arrival-notice source: null).
    #[schema(format = DateTime)]
    pub ssl_lfd: Option<String>,
}

/// A container's relationships.
#[derive(Debug, Serialize, ToSchema)]
pub struct ContainerRelationships {
    /// Its shipment.
    pub shipment: ToOne,
    /// The terminal of discharge.
    pub pod_terminal: ToOne,
    /// Where it is picked up, when not at the terminal of discharge (off-dock).
    pub pickup_facility: ToOne,
    /// Its transport events.
    pub transport_events: RelatedLink,
    /// The carrier's events about it, as reported.
    pub raw_events: RelatedLink,
}

/// A `container` resource.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = Container)]
pub struct ContainerResource {
    /// Its id.
    #[schema(format = Uuid)]
    pub id: String,
    /// Always `container`.
    #[serde(rename = "type")]
    #[schema(pattern = "^container$")]
    pub type_: &'static str,
    /// Its attributes.
    pub attributes: ContainerAttributes,
    /// Its relationships.
    pub relationships: ContainerRelationships,
    /// Its own link.
    pub links: SelfLink,
}

/// The JSON:API type of a container.
pub const TYPE: &str = "container";

/// Where a container lives.
#[must_use]
pub fn path(id: ContainerId) -> String {
    format!("/v2/containers/{id}")
}

/// `container` as a resource; `last_lookup` is its shipment's last lookup.
#[must_use]
pub fn resource(
    container: &Container,
    last_lookup: Option<tidemark_domain::Timestamp>,
) -> ContainerResource {
    let details = &container.details;
    let equipment = details.equipment();
    let standing = container.standing();
    ContainerResource {
        id: container.id.to_string(),
        type_: TYPE,
        attributes: ContainerAttributes {
            number: container.number.clone(),
            ref_numbers: container.ref_numbers.clone(),
            seal_number: details.seal_number.clone(),
            created_at: container.created_at.to_string(),
            updated_at: container.updated_at.to_string(),
            iso_code: details.iso_code.clone(),
            equipment_type: equipment.kind,
            equipment_length: equipment.length,
            equipment_height: equipment.height,
            weight_in_lbs: None,
            current_status: standing.status.as_str(),
            empty_out_at: time(details.empty_out_at),
            pol_full_in_at: time(details.pol_full_in_at),
            pol_vessel_loaded_at: time(details.pol_vessel_loaded_at),
            pol_vessel_departed_at: time(details.pol_vessel_departed_at),
            pod_arrived_at: time(details.pod_arrived_at),
            pod_discharged_at: time(details.pod_discharged_at),
            pod_full_out_at: time(details.pod_full_out_at),
            empty_terminated_at: time(details.empty_terminated_at),
            availability_known: container.terminal.availability_known,
            available_for_pickup: standing.available_for_pickup,
            pickup_lfd: time(standing.pickup_lfd),
            pickup_appointment_at: time(container.terminal.pickup_appointment_at),
            holds_at_pod_terminal: standing.holds,
            fees_at_pod_terminal: container.terminal.fees.clone(),
            pod_timezone: crate::time_zone(details.pod_locode.as_deref()),
            shipment_last_tracking_request_at: time(last_lookup),
            pod_full_out_chassis_number: None,
            location_at_pod_terminal: container.terminal.location.clone(),
            import_deadlines: ImportDeadlines::from(&container.terminal.last_free_days),
            terminal_checked_at: time(container.terminal_checked_at),
            pod_last_tracking_request_at: None,
            pickup_number: container.terminal.line.pickup_number.clone(),
            empty_return_location: container.terminal.line.return_location.clone(),
            empty_return_reference: container.terminal.line.return_reference.clone(),
            final_destination_full_out_at: None,
            // The shipment's destination is its port of discharge.
            final_destination_timezone: crate::time_zone(details.pod_locode.as_deref()),
            empty_terminated_timezone: crate::time_zone(details.empty_terminated_locode.as_deref()),
            pod_rail_carrier_scac: None,
            ind_rail_carrier_scac: None,
            pod_rail_loaded_at: None,
            pod_rail_departed_at: None,
            ind_eta_at: None,
            ind_ata_at: None,
            ind_rail_unloaded_at: None,
            ind_facility_lfd_on: None,
            ind_facility_holds: Vec::new(),
            ind_facility_fees: Vec::new(),
            rail_last_tracking_request_at: None,
            delivered_at: None,
            ssl_lfd: None,
        },
        relationships: relationships(container),
        links: SelfLink {
            self_: path(container.id),
        },
    }
}

/// A container's relationships: the terminal of discharge is the terminal's own word when
/// it has given one, else the line's (`Container::terminal_code`).
fn relationships(container: &Container) -> ContainerRelationships {
    ContainerRelationships {
        shipment: ToOne::of("shipment", Some(container.shipment_id)),
        pod_terminal: ToOne::terminal(
            container
                .terminal_code()
                .as_ref()
                .map(tidemark_domain::terminal::TerminalCode::as_str),
        ),
        pickup_facility: ToOne::terminal(container.terminal.pickup_facility.as_deref()),
        transport_events: RelatedLink::at(format!("{}/transport_events", path(container.id))),
        raw_events: RelatedLink::at(format!("{}/raw_events", path(container.id))),
    }
}

/// What an update of a container may change.
#[derive(Debug, ToSchema)]
#[expect(
    dead_code,
    reason = "describes the request body in the OpenAPI document"
)]
pub struct UpdateContainerAttributes {
    /// Replaces the reference numbers.
    ref_numbers: Option<Vec<crate::tracking_request::ListItem>>,
}

/// The resource object of an update.
#[derive(Debug, ToSchema)]
#[expect(
    dead_code,
    reason = "describes the request body in the OpenAPI document"
)]
pub struct UpdateContainerData {
    /// Must be `container`.
    #[schema(rename = "type", pattern = "^container$")]
    type_: String,
    /// If given, must be the id in the path.
    #[schema(format = Uuid)]
    id: Option<String>,
    /// The changes; none means nothing changes.
    #[schema(nullable = false)]
    attributes: Option<UpdateContainerAttributes>,
}

/// The body of `PATCH /v2/containers/{id}`.
#[derive(Debug, ToSchema)]
#[schema(example = json!({"data": {"type": "container", "id": "01938f3c-6a1e-7b2d-9c4f-5e6a7b8c9d0e", "attributes": {"ref_numbers": ["PO-4711"]}}}))]
#[expect(
    dead_code,
    reason = "describes the request body in the OpenAPI document"
)]
pub struct UpdateContainerDocument {
    /// The changes.
    data: UpdateContainerData,
}
