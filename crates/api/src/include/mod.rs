//! Building resources that need related records (a shipment lists its containers, a
//! container shows its shipment's last lookup) and the `included` member of compound
//! documents (api.md §1 "include"): each related record once, fetched in one query per kind.
//! Which relationships each resource has and how they are followed: [`relations`].

mod raw;
mod relations;

pub use raw::RawEventIncludes;
pub use relations::{
    ContainerIncludes, EventIncludes, Records, RequestIncludes, ShipmentIncludes, included,
};

use std::collections::{HashMap, HashSet};

use serde::Serialize;
use serde_json::Value;
use tidemark_domain::{
    AccountId, Container, ContainerId, ReferenceKind, Shipment, ShipmentId, TransportEvent,
};

use crate::containers::view as container_view;
use crate::shipments::view as shipment_view;
use crate::{ApiError, AppState, reference_data};

/// Shipments as resources, with their containers' ids and their customers' names.
pub async fn shipments(
    state: &AppState,
    account: AccountId,
    shipments: &[Shipment],
) -> Result<Vec<shipment_view::ShipmentResource>, ApiError> {
    let ids: Vec<ShipmentId> = shipments.iter().map(|s| s.id).collect();
    let containers = state.store.containers(account, &[], &ids).await?;
    let customers: HashMap<ShipmentId, String> = state
        .store
        .customers_of_shipments(account, &ids)
        .await?
        .into_iter()
        .map(|(shipment, party)| (shipment, party.company_name.to_string()))
        .collect();
    Ok(shipments
        .iter()
        .map(|shipment| {
            let own: Vec<&Container> = containers
                .iter()
                .filter(|c| c.shipment_id == shipment.id)
                .collect();
            let mut resource = shipment_view::resource(shipment, &own, &state.carriers);
            resource.attributes.customer_name = customers.get(&shipment.id).cloned();
            resource
        })
        .collect())
}

/// Containers as resources, with their shipments' last lookups.
pub async fn containers(
    state: &AppState,
    account: AccountId,
    containers: &[Container],
) -> Result<Vec<container_view::ContainerResource>, ApiError> {
    let ids: Vec<ShipmentId> = containers
        .iter()
        .map(|c| c.shipment_id)
        .collect::<HashSet<_>>()
        .into_iter()
        .collect();
    let last: HashMap<ShipmentId, Option<tidemark_domain::Timestamp>> = state
        .store
        .shipments(account, &ids)
        .await?
        .into_iter()
        .map(|s| (s.id, s.last_attempted_at))
        .collect();
    Ok(containers
        .iter()
        .map(|c| container_view::resource(c, last.get(&c.shipment_id).copied().flatten()))
        .collect())
}

/// The `included` member being built.
#[derive(Debug)]
struct Included<'a> {
    state: &'a AppState,
    account: AccountId,
    seen: HashSet<(&'static str, String)>,
    items: Vec<Value>,
}

fn value(resource: &impl Serialize) -> Value {
    serde_json::to_value(resource).unwrap_or(Value::Null)
}

impl<'a> Included<'a> {
    /// An empty `included` for `account`.
    fn new(state: &'a AppState, account: AccountId) -> Self {
        Self {
            state,
            account,
            seen: HashSet::new(),
            items: Vec::new(),
        }
    }

    fn push(&mut self, type_: &'static str, id: String, resource: Value) {
        if self.seen.insert((type_, id)) {
            self.items.push(resource);
        }
    }

    /// The finished member.
    fn finish(self) -> Vec<Value> {
        self.items
    }

    /// Adds shipments by id; returns them, for the paths that go on from them.
    async fn shipments(&mut self, ids: &[ShipmentId]) -> Result<Vec<Shipment>, ApiError> {
        let found = self.state.store.shipments(self.account, ids).await?;
        for resource in shipments(self.state, self.account, &found).await? {
            self.push("shipment", resource.id.clone(), value(&resource));
        }
        Ok(found)
    }

    /// Adds containers by id and the containers of shipments; returns them.
    async fn containers(
        &mut self,
        ids: &[ContainerId],
        of_shipments: &[ShipmentId],
    ) -> Result<Vec<Container>, ApiError> {
        let found = self
            .state
            .store
            .containers(self.account, ids, of_shipments)
            .await?;
        for resource in containers(self.state, self.account, &found).await? {
            self.push("container", resource.id.clone(), value(&resource));
        }
        Ok(found)
    }

    /// Adds the transport events of containers; returns them.
    async fn transport_events(
        &mut self,
        of: &[ContainerId],
    ) -> Result<Vec<TransportEvent>, ApiError> {
        let events: Vec<TransportEvent> =
            self.state.store.transport_events(self.account, of).await?;
        let raw = if events.is_empty() {
            Vec::new()
        } else {
            self.state.store.raw_events_of(self.account, of).await?
        };
        for event in &events {
            self.push(
                "transport_event",
                event.id.to_string(),
                value(&container_view::transport_event(event, &raw)),
            );
        }
        Ok(events)
    }

    /// Adds the parties `ids`.
    async fn parties(&mut self, ids: &[tidemark_domain::PartyId]) -> Result<(), ApiError> {
        for party in self.state.store.parties(self.account, ids).await? {
            let resource = crate::parties::view::resource(&party);
            self.push("party", resource.id.clone(), value(&resource));
        }
        Ok(())
    }

    /// Adds ports, terminals or vessels by code.
    async fn references(
        &mut self,
        kind: ReferenceKind,
        codes: impl IntoIterator<Item = String>,
    ) -> Result<(), ApiError> {
        let codes: Vec<String> = codes
            .into_iter()
            .collect::<HashSet<_>>()
            .into_iter()
            .collect();
        let terminals = match kind {
            ReferenceKind::Port => self.state.store.terminals_at(&codes).await?,
            _ => Vec::new(),
        };
        // A vessel reads as `/v2/vessels/{imo}` does: with where the feeds last heard it.
        let heard = match kind {
            ReferenceKind::Vessel => self.state.store.heard_vessels(&codes).await?,
            _ => Vec::new(),
        };
        for record in self.state.store.references(kind, &codes).await? {
            let (type_, resource) = match kind {
                ReferenceKind::Port => ("port", value(&reference_data::port(&record, &terminals))),
                ReferenceKind::Terminal => ("terminal", value(&reference_data::terminal(&record))),
                ReferenceKind::Vessel => (
                    "vessel",
                    value(&reference_data::vessel(
                        &record,
                        heard
                            .iter()
                            .find(|h| h.imo.as_deref() == Some(record.code.as_str())),
                        None,
                    )),
                ),
            };
            self.push(type_, record.id.to_string(), resource);
        }
        Ok(())
    }
}
