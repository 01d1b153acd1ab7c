//! Conformance cases of what tracking wrote, read back: shipments, containers, transport
//! events and reference data, by id, filter and page; and reference rows shared by
//! concurrent lookups.

use std::sync::Arc;

use tidemark_domain::tracking::Change;
use tidemark_domain::{
    Account, ContainerStatus, JobKind, Milestone, ReferenceKind, Scac, TrackingRequest,
};
use tidemark_store::{
    CommitOutcome, ContainerFilter, PageRequest, ShipmentFilter, Store, TimeRange,
};

use super::tracking::{found, snapshot, tracked};
use super::{account, at, request};

const PAGE: PageRequest = super::page(1, 10);

pub async fn what_tracking_found_reads_back_by_id_filter_and_page(store: Arc<dyn Store>) {
    let owner = account(&store, "reader").await;
    let stranger = account(&store, "stranger").await;
    let milestones = snapshot(&[(Milestone::FullIn, 2), (Milestone::VesselLoaded, 3)]);
    let (_, commit) = tracked(&store, &owner, "586118841", &milestones, 4).await;
    shipments_read_back(&store, &owner, &stranger, &commit).await;
    containers_read_back(&store, &owner, &stranger, &commit).await;
    shipment_updates_stay_in_their_account(&store, &owner, &stranger, &commit).await;
    reference_data_reads_back(&store).await;
}

/// The shipment, by id and by every filter, in its account only.
async fn shipments_read_back(
    store: &Arc<dyn Store>,
    owner: &Account,
    stranger: &Account,
    commit: &Change,
) {
    let shipment = commit.shipment.clone().expect("shipment");
    let page = PAGE;
    assert_eq!(
        store.shipment(owner.id, shipment.id).await.expect("read"),
        Some(shipment.clone())
    );
    assert_eq!(
        store
            .shipment(stranger.id, shipment.id)
            .await
            .expect("read"),
        None
    );
    let list = |filter: ShipmentFilter| {
        let store = Arc::clone(store);
        async move {
            store
                .list_shipments(owner.id, &filter, page)
                .await
                .expect("list")
                .total
        }
    };
    assert_eq!(list(ShipmentFilter::default()).await, 1);
    for (filter, expected) in shipment_filters() {
        assert_eq!(list(filter.clone()).await, expected, "{filter:?}");
    }
    assert_eq!(
        store
            .list_shipments(stranger.id, &ShipmentFilter::default(), page)
            .await
            .expect("list")
            .total,
        0
    );
}

/// Shipment filters, each with how many of the tracked shipment it finds.
fn shipment_filters() -> Vec<(ShipmentFilter, u64)> {
    vec![
        (
            ShipmentFilter {
                number: vec!["586118841".into()],
                ..Default::default()
            },
            1,
        ),
        (
            ShipmentFilter {
                number: vec!["999".into()],
                ..Default::default()
            },
            0,
        ),
        (
            ShipmentFilter {
                tracking_stopped: Some(false),
                ..Default::default()
            },
            1,
        ),
        (
            ShipmentFilter {
                tracking_stopped: Some(true),
                ..Default::default()
            },
            0,
        ),
        (
            ShipmentFilter {
                scac: vec![Scac::parse("MAEU").expect("scac")],
                ..Default::default()
            },
            1,
        ),
        (
            ShipmentFilter {
                pol_locode: vec!["CNSHA".into()],
                ..Default::default()
            },
            1,
        ),
        (
            ShipmentFilter {
                pod_locode: vec!["CNSHA".into(), "DEHAM".into()],
                ..Default::default()
            },
            0,
        ),
        (
            ShipmentFilter {
                pod_locode: vec!["NLRTM".into()],
                ..Default::default()
            },
            1,
        ),
        (
            ShipmentFilter {
                updated_at: TimeRange {
                    start: Some(at(5)),
                    end: None,
                },
                ..Default::default()
            },
            0,
        ),
        // The arrival at the port of discharge (NLRTM): estimated at 5000.
        (arriving(Some(4999), Some(5001)), 1),
        (arriving(Some(5000), Some(5000)), 1),
        (arriving(Some(5001), None), 0),
        (arriving(None, Some(4999)), 0),
    ]
}

fn arriving(start: Option<i64>, end: Option<i64>) -> ShipmentFilter {
    ShipmentFilter {
        arrival: TimeRange {
            start: start.map(at),
            end: end.map(at),
        },
        ..Default::default()
    }
}

/// The container and its transport events, by id, by filter and by page.
async fn containers_read_back(
    store: &Arc<dyn Store>,
    owner: &Account,
    stranger: &Account,
    commit: &Change,
) {
    let shipment = commit.shipment.clone().expect("shipment");
    let container = commit.delta.containers[0].clone();
    assert_eq!(
        store.container(owner.id, container.id).await.expect("read"),
        Some(container.clone())
    );
    assert_eq!(
        store
            .containers(owner.id, &[], &[shipment.id])
            .await
            .expect("read"),
        std::slice::from_ref(&container)
    );
    for (filter, expected) in [
        (ContainerFilter::default(), 1),
        (
            ContainerFilter {
                number: vec!["MSKU1234565".into()],
                ..Default::default()
            },
            1,
        ),
        (
            ContainerFilter {
                current_status: vec![ContainerStatus::OnShip],
                ..Default::default()
            },
            1,
        ),
        (
            ContainerFilter {
                current_status: vec![ContainerStatus::Grounded],
                ..Default::default()
            },
            0,
        ),
    ] {
        let found = super::containers_listed(store, owner.id, filter.clone()).await;
        assert_eq!(found, expected, "{filter:?}");
    }
    let events = store
        .list_transport_events(owner.id, container.id, super::page(1, 1))
        .await
        .expect("events");
    assert_eq!(events.total, 2);
    assert_eq!(
        events.items,
        [commit.delta.transport_events[0].clone()],
        "oldest first"
    );
    assert_eq!(
        store
            .transport_events(owner.id, &[container.id])
            .await
            .expect("events"),
        commit.delta.transport_events
    );
    assert!(
        store
            .transport_events(stranger.id, &[container.id])
            .await
            .expect("events")
            .is_empty()
    );
}

/// A shipment's tags and a container's reference numbers change in their own account only.
async fn shipment_updates_stay_in_their_account(
    store: &Arc<dyn Store>,
    owner: &Account,
    stranger: &Account,
    commit: &Change,
) {
    let shipment = commit.shipment.clone().expect("shipment");
    let tags = vec!["blue".to_owned()];
    let updated = store
        .update_shipment(owner.id, shipment.id, None, Some(&tags), at(9))
        .await
        .expect("update")
        .expect("exists");
    assert_eq!(updated.tags, tags);
    assert_eq!(updated.ref_numbers, shipment.ref_numbers);
    assert_eq!(updated.updated_at, at(9));
    assert!(
        store
            .update_shipment(stranger.id, shipment.id, None, Some(&tags), at(9))
            .await
            .expect("update")
            .is_none()
    );

    let container = &commit.delta.containers[0];
    let refs = vec!["PO-1".to_owned(), "PO-2".to_owned()];
    let updated = store
        .update_container(owner.id, container.id, &refs, at(10))
        .await
        .expect("update")
        .expect("exists");
    assert_eq!(updated.ref_numbers, refs);
    assert_eq!(updated.updated_at, at(10));
    assert_eq!(
        updated.details, container.details,
        "the carrier's data stays"
    );
    let read = store.container(owner.id, container.id).await.expect("read");
    assert_eq!(read, Some(updated));
    assert!(
        store
            .update_container(stranger.id, container.id, &[], at(11))
            .await
            .expect("update")
            .is_none()
    );
}

/// The ports, terminals and vessels the lookup named, by key and by id.
async fn reference_data_reads_back(store: &Arc<dyn Store>) {
    let port = store
        .reference(ReferenceKind::Port, "nlrtm")
        .await
        .expect("read")
        .expect("learned");
    assert_eq!(port.name.as_deref(), Some("Port NLRTM"));
    assert_eq!(
        store
            .reference(ReferenceKind::Port, &port.id.to_string())
            .await
            .expect("read"),
        Some(port.clone())
    );
    let vessel = store
        .reference(ReferenceKind::Vessel, "9321483")
        .await
        .expect("read")
        .expect("learned");
    assert_eq!(vessel.name.as_deref(), Some("EMMA MAERSK"));
    let terminals = store
        .references(ReferenceKind::Terminal, &["TRM1".to_owned()])
        .await
        .expect("read");
    assert_eq!(terminals.len(), 1);
    assert_eq!(terminals[0].port_locode.as_deref(), Some("CNSHA"));
    assert_eq!(
        store
            .reference(ReferenceKind::Port, "ZZZZZ")
            .await
            .expect("read"),
        None
    );
}

/// Lookups that name the same ports, terminals and vessels commit side by side: the shared
/// reference rows never make one of them fail.
pub async fn concurrent_lookups_share_reference_rows(store: Arc<dyn Store>) {
    let owner = account(&store, "shared").await;
    let requests: Vec<TrackingRequest> = (0..8)
        .map(|i| request(&owner, "bill_of_lading", &format!("58611890{i}"), "MAEU", 0))
        .collect();
    for pending in &requests {
        super::insert(&store, pending).await;
    }
    let jobs = super::claim_jobs(&store, JobKind::Lookup, 8, at(1)).await;
    assert_eq!(jobs.len(), 8);
    let found_snapshot = snapshot(&[(Milestone::FullIn, 2)]);
    let mut tasks = Vec::new();
    for pending in &requests {
        let commit = found(&store, pending, &found_snapshot, 3).await;
        let job = jobs
            .iter()
            .find(|job| job.key == pending.id.to_string())
            .expect("a job per request")
            .clone();
        let store = Arc::clone(&store);
        tasks.push(tokio::spawn(async move {
            store.commit_tracking(Some(&job), &commit).await
        }));
    }
    for task in tasks {
        assert_eq!(
            task.await.expect("task").expect("commit"),
            CommitOutcome::Committed
        );
    }
    for pending in &requests {
        assert!(store.tracked(pending.id).await.expect("read").is_some());
    }
}
