//! The carrier's raw events as included records (compat-api.md §3.4): a container's
//! `raw_events`, and the places, vessels, terminals and container a raw event names.

use std::collections::HashMap;

use tidemark_domain::{ContainerId, Place, RawEvent, ShipmentId, VesselRef};

use super::relations::where_and_on_what;
use super::{Included, value};
use crate::containers::raw_events::resource;
use crate::document::ResourceIdentifier;
use crate::params::{IncludePaths, Includes};
use crate::{ApiError, include::ContainerIncludes};

/// Relationships a raw event can include.
pub struct RawEventIncludes;

impl Includes for RawEventIncludes {
    const RECORDS: &'static [(&'static str, &'static [&'static str])] =
        &[("container", ContainerIncludes::REFERENCES)];
    const REFERENCES: &'static [&'static str] = &["location", "vessel", "terminal"];
}

impl Included<'_> {
    /// Adds every raw event of containers `of`, each with its index among its
    /// container's; returns them and, by container id, their linkage.
    pub(super) async fn raw_events(
        &mut self,
        of: &[ContainerId],
    ) -> Result<(Vec<RawEvent>, HashMap<String, Vec<ResourceIdentifier>>), ApiError> {
        let events = self.state.store.raw_events_of(self.account, of).await?;
        let mut shipments: Vec<ShipmentId> = events.iter().map(|e| e.shipment_id).collect();
        shipments.sort_unstable();
        shipments.dedup();
        let scacs: HashMap<ShipmentId, _> = self
            .state
            .store
            .shipments(self.account, &shipments)
            .await?
            .into_iter()
            .map(|s| (s.id, s.scac))
            .collect();
        let mut linkage: HashMap<String, Vec<ResourceIdentifier>> = HashMap::new();
        for event in &events {
            let container = event
                .container_id
                .map(|c| c.to_string())
                .unwrap_or_default();
            let listed = linkage.entry(container).or_default();
            let index = u64::try_from(listed.len()).unwrap_or(u64::MAX);
            listed.push(ResourceIdentifier::new("raw_event", event.id));
            let carrier = scacs
                .get(&event.shipment_id)
                .and_then(|scac| self.state.carriers.resolve(scac));
            self.push(
                "raw_event",
                event.id.to_string(),
                value(&resource(event, index, carrier)),
            );
        }
        Ok((events, linkage))
    }
}

/// Adds the places, terminals and vessels of `events` that `paths` asks for.
pub(super) async fn raw_references(
    included: &mut Included<'_>,
    paths: &IncludePaths,
    events: &[RawEvent],
) -> Result<(), ApiError> {
    let places: Vec<&Place> = events
        .iter()
        .filter_map(|e| e.event.place.as_ref())
        .collect();
    let vessels: Vec<&VesselRef> = events
        .iter()
        .filter_map(|e| e.event.vessel.as_ref())
        .collect();
    where_and_on_what(included, paths, &places, &vessels).await
}
