//! How a container's transport events look on the wire (compat-api.md §3.3).

use serde::Serialize;
use tidemark_domain::{RawEvent, TransportEvent};
use utoipa::ToSchema;

use crate::document::ToOne;

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
    /// The carrier's event it was made from (a `raw_event` of its container); null for
    /// an event no carrier event names.
    pub source_event: ToOne,
    /// The version it replaced: null, as Tidemark keeps one version of an event.
    pub previous_version: ToOne,
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

/// `event` as a resource; its source among `raw`, the carrier events of its container
/// and its shipment ([`TransportEvent::source_in`]).
#[must_use]
pub fn transport_event(event: &TransportEvent, raw: &[RawEvent]) -> TransportEventResource {
    let source = event
        .source_in(raw)
        .map(|record| record.listed_with(event.container_id).id);
    let location = event.location.as_ref();
    TransportEventResource {
        id: event.id.to_string(),
        type_: "transport_event",
        attributes: TransportEventAttributes {
            event: event.kind.name(),
            timestamp: Some(event.timestamp.to_string()),
            timezone: crate::time_zone(location.map(|p| p.locode.as_str())),
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
            vessel: ToOne::vessel(event.vessel.as_ref().map(|v| v.imo.as_str())),
            location: ToOne::port(location.map(|p| p.locode.as_str())),
            terminal: ToOne::terminal(location.and_then(|p| p.facility.as_deref())),
            source_event: ToOne::of("raw_event", source),
            previous_version: ToOne::none(),
        },
    }
}
