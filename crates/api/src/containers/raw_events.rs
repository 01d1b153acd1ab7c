//! `GET /v2/containers/{id}/raw_events`: every event the carrier reported about the
//! container, as reported (compat-api.md §3.4, api.md §4), including those that make no
//! milestone, and estimates of what lies ahead.

use serde::Serialize;
use tidemark_domain::{Carrier, RawEvent};
use utoipa::ToSchema;

use crate::auth::Scope;
use crate::document::{JsonApi, ListDocument, Page, ToOne};
use crate::extract::QueryParams;
use crate::found::Found;
use crate::include::{self, RawEventIncludes, Records};
use crate::params::{Include, Paging, list_document, take_include, take_page_or};

/// A raw event's attributes: the reference's, then what DCSA says of the event.
#[derive(Debug, Serialize, ToSchema)]
pub struct RawEventAttributes {
    /// The milestone the event is (or would be once it happens), without the
    /// `container.transport.` prefix; null when it has none (a vessel's arrival at the
    /// port of loading, say).
    pub event: Option<&'static str>,
    /// The carrier's event code (DCSA: `ARRI`, `DEPA`, `LOAD`, `DISC`, `GTIN`, …).
    pub original_event: String,
    /// When it happened, or is expected to.
    #[schema(format = DateTime)]
    pub timestamp: String,
    /// Whether it is planned or estimated rather than actual.
    pub estimated: bool,
    /// When it happened (actual events).
    #[schema(format = DateTime)]
    pub actual_at: Option<String>,
    /// When it is expected (planned and estimated events).
    #[schema(format = DateTime)]
    pub estimated_at: Option<String>,
    /// Date-only actual events (DCSA times carry a time: null).
    #[schema(format = Date)]
    pub actual_on: Option<String>,
    /// Date-only estimates (DCSA times carry a time: null).
    #[schema(format = Date)]
    pub estimated_on: Option<String>,
    /// When an estimated event is expected to occur.
    #[schema(format = DateTime)]
    pub will_occur_at: Option<String>,
    /// IANA zone of the place (null: not known).
    pub timezone: Option<String>,
    /// When Tidemark first kept it.
    #[schema(format = DateTime)]
    pub created_at: String,
    /// The place's name as the carrier gave it.
    pub location_name: Option<String>,
    /// The place's UN/LOCODE.
    pub location_locode: Option<String>,
    /// The vessel's name.
    pub vessel_name: Option<String>,
    /// The vessel's IMO number.
    pub vessel_imo: Option<String>,
    /// Voyage number.
    pub voyage_number: Option<String>,
    /// Its position in the container's events, from 0, oldest first.
    pub index: u64,
    /// When the carrier withdrew it (null: it stands).
    #[schema(format = DateTime)]
    pub invalidated_at: Option<String>,
    /// Where it came from: `shipping_line`.
    #[schema(pattern = "^shipping_line$")]
    pub data_source: &'static str,
    /// The shipping line's name.
    pub data_provider_name: Option<String>,
    /// The shipping line's SCAC.
    pub data_provider_code: Option<String>,
    /// **(beyond)** DCSA's event type: `SHIPMENT`, `TRANSPORT` or `EQUIPMENT`.
    pub event_type: &'static str,
    /// **(beyond)** DCSA's classifier: `PLN`, `EST` or `ACT`.
    pub event_classifier: &'static str,
    /// **(beyond)** The carrier's event id.
    pub carrier_event_id: String,
    /// **(beyond)** The carrier's transport call id.
    pub carrier_transport_call_id: Option<String>,
    /// **(beyond)** When the carrier recorded this version of the event.
    #[schema(format = DateTime)]
    pub carrier_reported_at: String,
    /// **(beyond)** Whether the container was empty (equipment events).
    pub empty: Option<bool>,
    /// **(beyond)** When Tidemark last replaced it with a later version.
    #[schema(format = DateTime)]
    pub updated_at: String,
}

/// A raw event's relationships.
#[derive(Debug, Serialize, ToSchema)]
pub struct RawEventRelationships {
    /// The port.
    pub location: ToOne,
    /// The vessel.
    pub vessel: ToOne,
    /// The container.
    pub container: ToOne,
    /// The terminal.
    pub terminal: ToOne,
}

/// A `raw_event` resource.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = RawEvent)]
pub struct RawEventResource {
    /// Its id.
    #[schema(format = Uuid)]
    pub id: String,
    /// Always `raw_event`.
    #[serde(rename = "type")]
    #[schema(pattern = "^raw_event$")]
    pub type_: &'static str,
    /// Its attributes.
    pub attributes: RawEventAttributes,
    /// Its relationships.
    pub relationships: RawEventRelationships,
}

/// `record` as a resource, the `index`th of its container, reported by `carrier`.
#[must_use]
pub fn resource(record: &RawEvent, index: u64, carrier: Option<&Carrier>) -> RawEventResource {
    let event = &record.event;
    let place = event.place.as_ref();
    let at = event.at.to_string();
    let estimated = event.is_estimate();
    RawEventResource {
        id: record.id.to_string(),
        type_: "raw_event",
        attributes: RawEventAttributes {
            event: event.milestone.map(tidemark_domain::Milestone::as_str),
            original_event: event.code.clone(),
            timestamp: at.clone(),
            estimated,
            actual_at: (!estimated).then(|| at.clone()),
            estimated_at: estimated.then(|| at.clone()),
            actual_on: None,
            estimated_on: None,
            will_occur_at: estimated.then_some(at),
            timezone: tidemark_wire::time_zone(place.map(|p| p.locode.as_str())),
            created_at: record.created_at.to_string(),
            // The raw event as the carrier wrote it: its own name of the place.
            location_name: place.and_then(|p| p.name.clone()),
            location_locode: place.map(|p| p.locode.clone()),
            vessel_name: event.vessel.as_ref().and_then(|v| v.name.clone()),
            vessel_imo: event.vessel.as_ref().map(|v| v.imo.clone()),
            voyage_number: event.voyage.clone(),
            index,
            invalidated_at: None,
            data_source: "shipping_line",
            data_provider_name: carrier.map(|c| c.name.clone()),
            data_provider_code: carrier.map(|c| c.scac.to_string()),
            event_type: event.event_type.as_str(),
            event_classifier: event.classifier.as_str(),
            carrier_event_id: event.source_id.clone(),
            carrier_transport_call_id: event.call_id.clone(),
            carrier_reported_at: event.reported_at.to_string(),
            empty: event.empty,
            updated_at: record.updated_at.to_string(),
        },
        relationships: RawEventRelationships {
            location: ToOne::port(place.map(|p| p.locode.as_str())),
            vessel: ToOne::vessel(event.vessel.as_ref().map(|v| v.imo.as_str())),
            container: ToOne::of("container", record.container_id),
            terminal: ToOne::terminal(place.and_then(|p| p.facility.as_deref())),
        },
    }
}

/// Every event the carrier reported about a container, as reported, oldest first:
/// actual events, and planned and estimated ones for what lies ahead, whether or not they
/// make a milestone. Pages hold 100 events unless `page[size]` says otherwise, so a
/// client reading `data` alone gets a whole voyage.
#[utoipa::path(get, path = "/v2/containers/{id}/raw_events", operation_id = "listRawEvents", tag = "Containers",
    params(Found<tidemark_domain::Container>, Paging, Include<RawEventIncludes>),
    responses((status = 200, description = "A page of the container's carrier events.", body = ListDocument<RawEventResource>)),
)]
pub async fn list(
    scope: Scope,
    container: Found<tidemark_domain::Container>,
    mut query: QueryParams,
) -> Page<RawEventResource> {
    let page = take_page_or(&mut query, &scope.config, scope.config.page_size_max)?;
    let include = take_include::<RawEventIncludes>(&mut query)?;
    query.finish()?;
    let container = container.read(&scope).await?;
    let shipment = scope
        .store
        .shipment(scope.account(), container.shipment_id)
        .await?;
    let carrier = shipment
        .as_ref()
        .and_then(|s| scope.carriers.resolve(&s.scac));
    let result = scope
        .store
        .list_raw_events(scope.account(), container.id, page)
        .await?;
    let first = u64::try_from(page.offset()).unwrap_or(0);
    let path = format!("{}/raw_events", super::view::path(container.id));
    let data = (first..)
        .zip(&result.items)
        .map(|(index, record)| resource(record, index, carrier))
        .collect();
    let records = Records::RawEvents(&result.items, &container);
    let included = include::included(&scope, scope.account(), include.as_ref(), records)
        .await?
        .included;
    Ok(JsonApi::ok(
        list_document(&path, &query, page, result.total, data).including(included),
    ))
}
