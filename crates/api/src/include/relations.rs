//! The relationships each resource can include (compat-api.md §0.4) and how each is
//! followed: one type per resource states the paths it takes, for its handlers and the
//! OpenAPI document; one function adds what a request's paths ask for.
//!
//! A dotted path goes from a related record to its reference data
//! (`shipment.port_of_lading`); the records along it are included too.

use std::collections::HashMap;

use serde_json::Value;
use tidemark_domain::{
    AccountId, Container, ContainerId, Place, RawEvent, ReferenceKind, Route, Shipment, ShipmentId,
    TrackingRequest, TransportEvent, VesselRef,
};

use super::Included;
use super::raw::{RawEventIncludes, raw_references};
use crate::containers::view::ContainerResource;
use crate::document::ResourceIdentifier;
use crate::params::{IncludePaths, Includes};
use crate::{ApiError, AppState};

/// Relationships a shipment can include.
pub struct ShipmentIncludes;

impl Includes for ShipmentIncludes {
    const RECORDS: &'static [(&'static str, &'static [&'static str])] =
        &[("containers", ContainerIncludes::REFERENCES)];
    const REFERENCES: &'static [&'static str] = &[
        "port_of_lading",
        "port_of_discharge",
        "destination",
        "pod_terminal",
        "destination_terminal",
    ];
}

/// Relationships a container can include.
pub struct ContainerIncludes;

impl Includes for ContainerIncludes {
    const RECORDS: &'static [(&'static str, &'static [&'static str])] = &[
        ("shipment", ShipmentIncludes::REFERENCES),
        ("transport_events", EventIncludes::REFERENCES),
        ("raw_events", RawEventIncludes::REFERENCES),
    ];
    const REFERENCES: &'static [&'static str] = &["pod_terminal", "pickup_facility"];
}

/// Relationships a transport event can include.
pub struct EventIncludes;

impl Includes for EventIncludes {
    const RECORDS: &'static [(&'static str, &'static [&'static str])] = &[
        ("shipment", ShipmentIncludes::REFERENCES),
        ("container", ContainerIncludes::REFERENCES),
    ];
    const REFERENCES: &'static [&'static str] = &["location", "terminal", "vessel"];
}

/// Relationships a tracking request can include.
pub struct RequestIncludes;

impl Includes for RequestIncludes {
    const RECORDS: &'static [(&'static str, &'static [&'static str])] = &[
        ("tracked_object", ShipmentIncludes::REFERENCES),
        ("customer", &[]),
    ];
    const DESCRIPTION: &'static str =
        "`tracked_object` (the default; `include=` for nothing), `customer`";
}

/// The primary data whose relationships are followed.
#[derive(Debug, Clone, Copy)]
pub enum Records<'r> {
    /// Shipments.
    Shipments(&'r [Shipment]),
    /// Containers.
    Containers(&'r [Container]),
    /// Transport events, all of one container.
    TransportEvents(&'r [TransportEvent], &'r Container),
    /// Raw events, all of one container.
    RawEvents(&'r [RawEvent], &'r Container),
    /// Tracking requests.
    TrackingRequests(&'r [&'r TrackingRequest]),
}

/// What `include` adds to a document.
#[derive(Debug, Default)]
pub struct Compound {
    /// The `included` member: absent when the request named no `include`, else what its
    /// paths ask for (possibly nothing).
    pub included: Option<Vec<Value>>,
    /// The included transport events of each primary container, by the container's id,
    /// when they were asked for.
    events_of: Option<HashMap<String, Vec<ResourceIdentifier>>>,
    /// The included raw events of each primary container, likewise.
    raw_of: Option<HashMap<String, Vec<ResourceIdentifier>>>,
}

impl Compound {
    /// Gives primary containers the linkage of their included transport events, as full
    /// linkage wants: every included resource is named by a relationship.
    pub fn link(&self, containers: &mut [ContainerResource]) {
        for container in containers {
            let of = |linkage: &HashMap<String, Vec<ResourceIdentifier>>| {
                linkage.get(&container.id).cloned().unwrap_or_default()
            };
            if let Some(events_of) = &self.events_of {
                container.relationships.transport_events.data = Some(of(events_of));
            }
            if let Some(raw_of) = &self.raw_of {
                container.relationships.raw_events.data = Some(of(raw_of));
            }
        }
    }
}

/// What `include` adds to a document whose primary data is `records`.
///
/// # Errors
/// When the store fails.
pub async fn included(
    state: &AppState,
    account: AccountId,
    paths: Option<&IncludePaths>,
    records: Records<'_>,
) -> Result<Compound, ApiError> {
    let Some(paths) = paths else {
        return Ok(Compound::default());
    };
    let mut included = Included::new(state, account);
    let mut events_of = None;
    let mut raw_of = None;
    match records {
        Records::Shipments(shipments) => {
            if paths.wants("containers") {
                let ids: Vec<ShipmentId> = shipments.iter().map(|s| s.id).collect();
                let containers = included.containers(&[], &ids).await?;
                let further = paths.under("containers");
                container_references(&mut included, &further, &containers).await?;
            }
            shipment_references(&mut included, paths, shipments).await?;
        }
        Records::Containers(containers) => {
            let ids: Vec<ShipmentId> = containers.iter().map(|c| c.shipment_id).collect();
            shipments(&mut included, paths, "shipment", &ids).await?;
            container_references(&mut included, paths, containers).await?;
            if paths.wants("transport_events") {
                let ids: Vec<ContainerId> = containers.iter().map(|c| c.id).collect();
                let events = included.transport_events(&ids).await?;
                let mut linkage: HashMap<String, Vec<ResourceIdentifier>> = HashMap::new();
                for event in &events {
                    linkage
                        .entry(event.container_id.to_string())
                        .or_default()
                        .push(ResourceIdentifier::new("transport_event", event.id));
                }
                events_of = Some(linkage);
                let further = paths.under("transport_events");
                event_references(&mut included, &further, &events).await?;
            }
            if paths.wants("raw_events") {
                let ids: Vec<ContainerId> = containers.iter().map(|c| c.id).collect();
                let (events, linkage) = included.raw_events(&ids).await?;
                raw_of = Some(linkage);
                raw_references(&mut included, &paths.under("raw_events"), &events).await?;
            }
        }
        Records::RawEvents(events, container) => {
            raw_references(&mut included, paths, events).await?;
            if paths.wants("container") {
                let found = included.containers(&[container.id], &[]).await?;
                let further = paths.under("container");
                container_references(&mut included, &further, &found).await?;
            }
        }
        Records::TransportEvents(events, container) => {
            event_references(&mut included, paths, events).await?;
            shipments(&mut included, paths, "shipment", &[container.shipment_id]).await?;
            if paths.wants("container") {
                let found = included.containers(&[container.id], &[]).await?;
                let further = paths.under("container");
                container_references(&mut included, &further, &found).await?;
            }
        }
        Records::TrackingRequests(requests) => {
            let ids: Vec<ShipmentId> = requests
                .iter()
                .filter_map(|r| r.tracked_object.map(ShipmentId::from_uuid))
                .collect();
            shipments(&mut included, paths, "tracked_object", &ids).await?;
            if paths.wants("customer") {
                let ids: Vec<_> = requests.iter().filter_map(|r| r.customer).collect();
                included.parties(&ids).await?;
            }
        }
    }
    Ok(Compound {
        included: Some(included.finish()),
        events_of,
        raw_of,
    })
}

/// Adds the shipments `ids` when `paths` wants the relationship `name`, with the reference
/// data the paths go on to.
async fn shipments(
    included: &mut Included<'_>,
    paths: &IncludePaths,
    name: &str,
    ids: &[ShipmentId],
) -> Result<(), ApiError> {
    if paths.wants(name) {
        let found = included.shipments(ids).await?;
        shipment_references(included, &paths.under(name), &found).await?;
    }
    Ok(())
}

/// Adds the ports and terminals of `shipments`' routes that `paths` asks for.
async fn shipment_references(
    included: &mut Included<'_>,
    paths: &IncludePaths,
    shipments: &[Shipment],
) -> Result<(), ApiError> {
    let place = |choose: fn(&Route) -> Option<&Place>| {
        shipments
            .iter()
            .filter_map(move |s| choose(&s.route).map(|p| p.locode.clone()))
    };
    let mut ports = Vec::new();
    if paths.wants("port_of_lading") {
        ports.extend(place(|r| r.port_of_lading.as_ref()));
    }
    if paths.wants("port_of_discharge") {
        ports.extend(place(|r| r.port_of_discharge.as_ref()));
    }
    if paths.wants("destination") {
        ports.extend(place(|r| r.destination.as_ref()));
    }
    included.references(ReferenceKind::Port, ports).await?;
    if paths.wants("pod_terminal") || paths.wants("destination_terminal") {
        let terminals = shipments.iter().filter_map(|s| {
            s.route
                .port_of_discharge
                .as_ref()
                .and_then(|p| p.facility.clone())
        });
        included
            .references(ReferenceKind::Terminal, terminals)
            .await?;
    }
    Ok(())
}

/// Adds the terminals of `containers` that `paths` asks for: where each is discharged,
/// and the off-dock facility it is picked up from, when a terminal names one.
async fn container_references(
    included: &mut Included<'_>,
    paths: &IncludePaths,
    containers: &[Container],
) -> Result<(), ApiError> {
    let mut codes = Vec::new();
    if paths.wants("pod_terminal") {
        codes.extend(
            containers
                .iter()
                .filter_map(|c| Some(c.terminal_code()?.to_string())),
        );
    }
    if paths.wants("pickup_facility") {
        codes.extend(
            containers
                .iter()
                .filter_map(|c| c.terminal.pickup_facility.clone()),
        );
    }
    included.references(ReferenceKind::Terminal, codes).await
}

/// Adds the places and vessels of `events` that `paths` asks for.
async fn event_references(
    included: &mut Included<'_>,
    paths: &IncludePaths,
    events: &[TransportEvent],
) -> Result<(), ApiError> {
    let places: Vec<&Place> = events.iter().filter_map(|e| e.location.as_ref()).collect();
    let vessels: Vec<&VesselRef> = events.iter().filter_map(|e| e.vessel.as_ref()).collect();
    where_and_on_what(included, paths, &places, &vessels).await
}

/// Adds the ports (`location`), terminals (`terminal`) and vessels (`vessel`) of events at
/// `places` on `vessels` that `paths` asks for.
pub(super) async fn where_and_on_what(
    included: &mut Included<'_>,
    paths: &IncludePaths,
    places: &[&Place],
    vessels: &[&VesselRef],
) -> Result<(), ApiError> {
    if paths.wants("location") {
        let codes = places.iter().map(|p| p.locode.clone());
        included.references(ReferenceKind::Port, codes).await?;
    }
    if paths.wants("terminal") {
        let codes = places.iter().filter_map(|p| p.facility.clone());
        included.references(ReferenceKind::Terminal, codes).await?;
    }
    if paths.wants("vessel") {
        let imos = vessels.iter().map(|v| v.imo.clone());
        included.references(ReferenceKind::Vessel, imos).await?;
    }
    Ok(())
}
