//! Conformance case of a change that writes many rows of one table: they go in statements
//! of many rows each, and the change still reads back whole, deduplicated and fanned out.

use std::sync::Arc;

use tidemark_domain::tracking::Change;
use tidemark_domain::{
    ContainerStatus, DomainEvent, DomainEventId, EventClassifier, Milestone, Place, ReferenceKind,
    TransportEventId,
};
use tidemark_store::{NotificationFilter, Store};

use super::raw_events::reported;
use super::tracking::{looked_up, snapshot};
use super::{account, page};

/// More than one statement's worth of rows (a hundred) of events.
const MILESTONES: i64 = 240;

pub async fn a_change_of_many_rows_is_written_whole(store: Arc<dyn Store>) {
    let owner = account(&store, "batches").await;
    super::webhooks::subscribe(&store, &owner, &[], true).await;
    let milestones: Vec<(Milestone, i64)> = (0..MILESTONES)
        .map(|i| (Milestone::VesselLoaded, 10 + i))
        .collect();
    let mut shape = snapshot(&milestones);
    shape.containers[0].raw_events = vec![reported("e1", "LOAD", EventClassifier::Actual, 9, 9)];
    shape.shipment_events = vec![reported("e2", "ARRI", EventClassifier::Estimated, 90, 9)];
    let (pending, job, mut change) = looked_up(&store, &owner, "BATCH0001", &shape, 1_000).await;
    // A first lookup backfills its milestones without events; a later one may name many.
    let template = change.events[0].clone();
    change.events.extend((0..MILESTONES).map(|i| DomainEvent {
        id: DomainEventId::new(),
        dedupe_key: format!("batch-{i}"),
        ..template.clone()
    }));
    assert!(
        change.delta.transport_events.len() > 200 && change.events.len() > 200,
        "the case needs several statements' worth: {} transport events, {} domain events",
        change.delta.transport_events.len(),
        change.events.len()
    );
    repeat_rows(&mut change);
    super::committed(&store, &job, &change).await;

    let tracked = super::now_tracked(&store, pending.id).await;
    assert_eq!(
        tracked.events.len(),
        change.delta.transport_events.len() - 1
    );
    let statuses: Vec<ContainerStatus> = tracked
        .containers
        .iter()
        .map(|c| c.current_status)
        .collect();
    assert_eq!(statuses, [ContainerStatus::Grounded]);
    let kept: Vec<&str> = tracked
        .raw_events
        .iter()
        .map(|r| r.event.source_id.as_str())
        .collect();
    assert_eq!(kept, ["e2"], "only the shipment's own event is left");
    let recorded = store.domain_events(owner.id).await.expect("events");
    assert_eq!(recorded.len(), change.events.len() - 1);
    let notified = store
        .list_webhook_notifications(owner.id, &NotificationFilter::default(), page(1, 1))
        .await
        .expect("list");
    assert_eq!(
        notified.total,
        recorded.len() as u64,
        "every event fanned out once"
    );
    let port = store
        .reference(ReferenceKind::Port, "CNSHA")
        .await
        .expect("read")
        .expect("learned");
    assert_eq!(port.name.as_deref(), Some("Shanghai"));
    for code in ["TRM1", "TRM2"] {
        let id = ReferenceKind::Terminal.id(code).to_string();
        let terminal = store
            .reference(ReferenceKind::Terminal, &id)
            .await
            .expect("read")
            .expect("learned");
        assert_eq!(terminal.port_locode.as_deref(), Some("CNSHA"), "{code}");
    }
}

/// Rows a change may name twice: an event (another id, the same facts) is skipped within
/// one statement too; a port named twice is learned once, with the last name given, and
/// both terminals; a container, or a document of kept carrier events (the container's,
/// emptied here), is written once, as given last.
fn repeat_rows(change: &mut Change) {
    let mut repeat = change.delta.transport_events[150].clone();
    repeat.id = TransportEventId::new();
    change.delta.transport_events.push(repeat);
    let mut repeat = change.events[150].clone();
    repeat.id = DomainEventId::new();
    change.events.push(repeat);
    change.delta.places.push(Place {
        locode: "CNSHA".to_owned(),
        name: Some("Shanghai".to_owned()),
        facility: Some("TRM2".to_owned()),
    });
    let mut again = change.delta.containers[0].clone();
    assert_ne!(again.current_status, ContainerStatus::Grounded);
    again.current_status = ContainerStatus::Grounded;
    change.delta.containers.push(again);
    assert_eq!(
        change.delta.raw_events.len(),
        2,
        "the container's and the shipment's"
    );
    let mut emptied = change.delta.raw_events[0].clone();
    assert!(emptied.owner.container_id.is_some() && !emptied.events.is_empty());
    emptied.events.clear();
    change.delta.raw_events.push(emptied);
}
