//! How containers and their transport events look on the wire (compat-api.md §3.2–3.3).
//! Terminal data (holds, fees, availability, last free days) needs a terminal source that
//! Tidemark does not have yet: those fields say "not known" (null, false or empty).

use serde::Serialize;

use crate::wire_enum_schema;
use tidemark_domain::{Container, ContainerId, ContainerStatus, ReferenceKind, TransportEvent};
use utoipa::ToSchema;

use crate::document::{Related, RelatedLink, SelfLink, ToOne};

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
    /// Whether a terminal reports availability (no terminal source yet: false).
    pub availability_known: bool,
    /// Meaningful only when `availability_known`.
    pub available_for_pickup: Option<bool>,
    /// Last free day (needs a terminal source: null).
    #[schema(format = DateTime)]
    pub pickup_lfd: Option<String>,
    /// Pickup appointment (needs a terminal source: null).
    #[schema(format = DateTime)]
    pub pickup_appointment_at: Option<String>,
    /// Holds at the terminal (needs a terminal source: empty).
    #[schema(value_type = Vec<Object>)]
    pub holds_at_pod_terminal: Vec<serde_json::Value>,
    /// Fees at the terminal (needs a terminal source: empty).
    #[schema(value_type = Vec<Object>)]
    pub fees_at_pod_terminal: Vec<serde_json::Value>,
    /// IANA zone of the port of discharge (null: not known).
    pub pod_timezone: Option<String>,
    /// The last lookup of its shipment at the carrier.
    #[schema(format = DateTime)]
    pub shipment_last_tracking_request_at: Option<String>,
    /// Chassis it left the terminal on (needs a terminal source: null).
    pub pod_full_out_chassis_number: Option<String>,
    /// Yard location at the terminal (needs a terminal source: null).
    pub location_at_pod_terminal: Option<String>,
    /// Last free days per source (needs a terminal or arrival-notice source: each null).
    pub import_deadlines: ImportDeadlines,
    /// When a terminal was last asked about it (no terminal source yet: null).
    #[schema(format = DateTime)]
    pub terminal_checked_at: Option<String>,
    /// The last terminal lookup (no terminal source yet: null).
    #[schema(format = DateTime)]
    pub pod_last_tracking_request_at: Option<String>,
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

/// Last free days per source (compat-api.md §3.2 `import_deadlines`).
#[derive(Debug, Default, Serialize, ToSchema)]
pub struct ImportDeadlines {
    /// The terminal's.
    #[schema(format = DateTime)]
    pub pickup_lfd_terminal: Option<String>,
    /// The rail carrier's.
    #[schema(format = DateTime)]
    pub pickup_lfd_rail: Option<String>,
    /// The shipping line's.
    #[schema(format = DateTime)]
    pub pickup_lfd_line: Option<String>,
}

/// A container's relationships.
#[derive(Debug, Serialize, ToSchema)]
pub struct ContainerRelationships {
    /// Its shipment.
    pub shipment: ToOne,
    /// The terminal of discharge.
    pub pod_terminal: ToOne,
    /// The inland place it is picked up from (no rail source yet: null).
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

/// Where a container lives.
#[must_use]
pub fn path(id: ContainerId) -> String {
    format!("/v2/containers/{id}")
}

fn time(at: Option<tidemark_domain::Timestamp>) -> Option<String> {
    at.map(|at| at.to_string())
}

/// `container` as a resource; `last_lookup` is its shipment's last lookup.
#[must_use]
pub fn resource(
    container: &Container,
    last_lookup: Option<tidemark_domain::Timestamp>,
) -> ContainerResource {
    let details = &container.details;
    let equipment = details.equipment();
    ContainerResource {
        id: container.id.to_string(),
        type_: "container",
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
            current_status: container.current_status.as_str(),
            empty_out_at: time(details.empty_out_at),
            pol_full_in_at: time(details.pol_full_in_at),
            pol_vessel_loaded_at: time(details.pol_vessel_loaded_at),
            pol_vessel_departed_at: time(details.pol_vessel_departed_at),
            pod_arrived_at: time(details.pod_arrived_at),
            pod_discharged_at: time(details.pod_discharged_at),
            pod_full_out_at: time(details.pod_full_out_at),
            empty_terminated_at: time(details.empty_terminated_at),
            availability_known: false,
            available_for_pickup: None,
            pickup_lfd: None,
            pickup_appointment_at: None,
            holds_at_pod_terminal: Vec::new(),
            fees_at_pod_terminal: Vec::new(),
            pod_timezone: None,
            shipment_last_tracking_request_at: time(last_lookup),
            pod_full_out_chassis_number: None,
            location_at_pod_terminal: None,
            import_deadlines: ImportDeadlines::default(),
            terminal_checked_at: time(container.terminal_checked_at),
            pod_last_tracking_request_at: None,
            final_destination_full_out_at: None,
            final_destination_timezone: None,
            empty_terminated_timezone: None,
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
        relationships: ContainerRelationships {
            shipment: ToOne::of("shipment", Some(container.shipment_id)),
            pod_terminal: ToOne::of(
                "terminal",
                details
                    .pod_terminal
                    .as_deref()
                    .map(|code| ReferenceKind::Terminal.id(code)),
            ),
            pickup_facility: ToOne::none(),
            transport_events: RelatedLink {
                links: Related {
                    related: format!("{}/transport_events", path(container.id)),
                },
            },
            raw_events: RelatedLink {
                links: Related {
                    related: format!("{}/raw_events", path(container.id)),
                },
            },
        },
        links: SelfLink {
            self_: path(container.id),
        },
    }
}

/// A transport event's attributes.
#[derive(Debug, Serialize, ToSchema)]
pub struct TransportEventAttributes {
    /// `container.transport.<milestone>` or `container.transport.estimated.<milestone>`.
    pub event: String,
    /// When it happened (for an estimate: the estimated time), UTC.
    #[schema(format = DateTime)]
    pub timestamp: Option<String>,
    /// IANA zone of the location (null: not known).
    pub timezone: Option<String>,
    /// UN/LOCODE of the location; null when the carrier gave none.
    pub location_locode: Option<String>,
    /// Voyage number.
    pub voyage_number: Option<String>,
    /// Where the event came from: `shipping_line`.
    #[schema(pattern = "^shipping_line$")]
    pub data_source: &'static str,
    /// When Tidemark recorded it.
    #[schema(format = DateTime)]
    pub created_at: String,
    /// The new value of a last-free-day or appointment change (milestones: null).
    pub value: Option<String>,
    /// When that value was reported (milestones: null).
    #[schema(format = DateTime)]
    pub value_timestamp: Option<String>,
    /// When the carrier withdrew the event (null: it stands).
    #[schema(format = DateTime)]
    pub invalidated_at: Option<String>,
}

/// A transport event's relationships.
#[derive(Debug, Serialize, ToSchema)]
pub struct TransportEventRelationships {
    /// The shipment.
    pub shipment: ToOne,
    /// The container.
    pub container: ToOne,
    /// The vessel.
    pub vessel: ToOne,
    /// The port.
    pub location: ToOne,
    /// The terminal.
    pub terminal: ToOne,
}

/// A `transport_event` resource.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = TransportEvent)]
pub struct TransportEventResource {
    /// Its id.
    #[schema(format = Uuid)]
    pub id: String,
    /// Always `transport_event`.
    #[serde(rename = "type")]
    #[schema(pattern = "^transport_event$")]
    pub type_: &'static str,
    /// Its attributes.
    pub attributes: TransportEventAttributes,
    /// Its relationships.
    pub relationships: TransportEventRelationships,
}

/// `event` as a resource.
#[must_use]
pub fn transport_event(event: &TransportEvent) -> TransportEventResource {
    let location = event.location.as_ref();
    TransportEventResource {
        id: event.id.to_string(),
        type_: "transport_event",
        attributes: TransportEventAttributes {
            event: event.kind.name(),
            timestamp: Some(event.timestamp.to_string()),
            timezone: None,
            location_locode: location.map(|p| p.locode.clone()),
            voyage_number: event.voyage_number.clone(),
            data_source: "shipping_line",
            created_at: event.created_at.to_string(),
            value: None,
            value_timestamp: None,
            invalidated_at: None,
        },
        relationships: TransportEventRelationships {
            shipment: ToOne::of("shipment", Some(event.shipment_id)),
            container: ToOne::of("container", Some(event.container_id)),
            vessel: ToOne::of(
                "vessel",
                event
                    .vessel
                    .as_ref()
                    .map(|v| ReferenceKind::Vessel.id(&v.imo)),
            ),
            location: ToOne::of("port", location.map(|p| ReferenceKind::Port.id(&p.locode))),
            terminal: ToOne::of(
                "terminal",
                location
                    .and_then(|p| p.facility.as_deref())
                    .map(|code| ReferenceKind::Terminal.id(code)),
            ),
        },
    }
}
