//! Requests that were already looked up, written in bulk: each change's request as it
//! stands, its shipment, containers, transport events, the places and vessels they name
//! and the jobs due next, many requests to a transaction in multi-row statements. This is
//! how `bench/scale.sh` puts a million requests in a database in minutes; the tracker
//! writes one change at a time through [`crate::ChangeStore::commit_tracking`].

use std::collections::BTreeMap;

use async_trait::async_trait;
use tidemark_domain::tracking::Change;
use tidemark_domain::{JobId, Place, Timestamp, VesselRef};

use crate::db::{Backend, Query, Unit, Value};
use crate::{StoreError, containers, references, shipments, tracking_requests, transport_events};

/// Writing changes of new requests in bulk.
#[async_trait]
pub trait ImportStore: Send + Sync {
    /// Writes `changes`, each the first change of a request not stored yet, in one
    /// transaction: the requests as the changes leave them, their shipments, containers,
    /// transport events and next jobs, and the places and vessels they name. Domain events
    /// are not written (an import has nothing to notify). A request already stored fails
    /// the whole batch.
    async fn import_changes(&self, changes: &[Change]) -> Result<(), StoreError>;
}

#[async_trait]
impl<B: Backend> ImportStore for B {
    async fn import_changes(&self, changes: &[Change]) -> Result<(), StoreError> {
        let Some(first) = changes.first() else {
            return Ok(());
        };
        let now = first.request.updated_at;
        let places: Vec<Place> = changes
            .iter()
            .flat_map(|change| change.delta.places.iter().cloned())
            .collect();
        let vessels: Vec<VesselRef> = changes
            .iter()
            .flat_map(|change| change.delta.vessels.iter().cloned())
            .collect();
        let mut statements = references::learn(&places, &vessels, now);
        statements.extend(tracking_requests::insert_all(
            changes.iter().map(|change| &change.request),
        ));
        statements.extend(shipments::insert_all(
            changes.iter().filter_map(|change| change.shipment.as_ref()),
        ));
        let boxes: Vec<_> = changes
            .iter()
            .flat_map(|change| change.delta.containers.iter().cloned())
            .collect();
        statements.extend(containers::upsert_all(&boxes));
        let events: Vec<_> = changes
            .iter()
            .flat_map(|change| change.delta.transport_events.iter().cloned())
            .collect();
        statements.extend(transport_events::insert_all(&events));
        statements.extend(jobs(changes, now));
        self.write(Unit::of(statements)).await?;
        Ok(())
    }
}

/// The changes' next jobs, one per kind and key (the earliest), as new rows.
fn jobs(changes: &[Change], now: Timestamp) -> Vec<Query> {
    let mut due: BTreeMap<(&str, &str), Timestamp> = BTreeMap::new();
    for job in changes.iter().flat_map(|change| {
        change
            .next
            .iter()
            .chain(&change.terminal_check)
            .chain(&change.prediction)
    }) {
        let at = due
            .entry((job.kind.as_str(), job.key.as_str()))
            .or_insert(job.due_at);
        *at = (*at).min(job.due_at);
    }
    Query::insert_rows(
        "INSERT INTO jobs (id, kind, key, due_at, created_at) VALUES ",
        due.into_iter().map(|((kind, key), at)| {
            vec![
                Value::from(JobId::new().as_uuid()),
                kind.into(),
                key.into(),
                at.into(),
                now.into(),
            ]
        }),
        "",
    )
}
