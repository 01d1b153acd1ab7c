//! Conformance cases of the carrier events kept per container: what a lookup's commit
//! decides to keep reads back whole, oldest first, paged, within the owner's account, and
//! with the shipment for the next lookup's decision.

use std::sync::Arc;

use tidemark_domain::{
    Account, CarrierEvent, CarrierEventType, ContainerId, EventClassifier, JobKind, Milestone,
    Place, RequestStatus, Snapshot, TrackingRequest, VesselRef,
};
use tidemark_store::Store;

use super::tracking::{claim, found, looked_up, snapshot};
use super::{account, at};

pub(super) fn reported(
    id: &str,
    code: &str,
    classifier: EventClassifier,
    when: i64,
    reported: i64,
) -> CarrierEvent {
    let transport = code == "ARRI";
    CarrierEvent {
        source_id: id.to_owned(),
        event_type: if transport {
            CarrierEventType::Transport
        } else {
            CarrierEventType::Equipment
        },
        code: code.to_owned(),
        classifier,
        at: at(when),
        reported_at: at(reported),
        place: Some(Place {
            locode: "FRPAR".to_owned(),
            name: (!transport).then(|| "Eiffel Tower".to_owned()),
            facility: Some("ADT".to_owned()),
        }),
        vessel: Some(VesselRef {
            imo: "9321483".to_owned(),
            name: Some("King of the Seas".to_owned()),
        }),
        voyage: Some("2103S".to_owned()),
        call_id: Some("TC-1".to_owned()),
        empty: (!transport).then_some(true),
        milestone: (code == "LOAD").then_some(Milestone::VesselLoaded),
    }
}

async fn kept(
    store: &Arc<dyn Store>,
    owner: tidemark_domain::AccountId,
    container: ContainerId,
) -> Vec<CarrierEvent> {
    let page = store
        .list_raw_events(owner, container, super::page(1, 100))
        .await
        .expect("list");
    assert_eq!(page.total, page.items.len() as u64);
    page.items.into_iter().map(|record| record.event).collect()
}

pub async fn carrier_events_read_back_whole_in_order_and_within_their_account(
    store: Arc<dyn Store>,
) {
    let owner = account(&store, "raw").await;
    let arrival = reported("e1", "ARRI", EventClassifier::Actual, 40, 41);
    let load = reported("e2", "LOAD", EventClassifier::Estimated, 30, 5);
    let mut first = snapshot(&[]);
    first.containers[0].raw_events = vec![load.clone()];
    first.shipment_events = vec![arrival.clone()];
    let (pending, job, commit) = looked_up(&store, &owner, "586118841", &first, 3).await;
    assert_eq!(
        commit.delta.raw_events.len(),
        2,
        "the container's and the shipment's"
    );
    super::committed(&store, &job, &commit).await;
    let container = commit.delta.containers[0].id;
    assert_eq!(
        kept(&store, owner.id, container).await,
        [load.clone(), arrival.clone()],
        "every field reads back, oldest first"
    );
    let tracked = super::now_tracked(&store, pending.id).await;
    assert_eq!(tracked.raw_events.len(), 2, "read back with the shipment");
    for changed in &commit.delta.raw_events {
        for record in &changed.events {
            assert!(tracked.raw_events.contains(record), "{record:?}");
        }
    }
    a_later_version_replaces_an_event_in_place(&store, &owner, &pending, &first, container).await;

    // Paged, and invisible to another account.
    let page = store
        .list_raw_events(owner.id, container, super::page(2, 1))
        .await
        .expect("list");
    assert_eq!((page.total, page.items.len()), (2, 1));
    assert_eq!(page.items[0].event.source_id, "e2");
    let stranger = account(&store, "stranger").await;
    assert!(kept(&store, stranger.id, container).await.is_empty());

    // Read for several containers at once, each as listed with it.
    let whole = store
        .list_raw_events(owner.id, container, super::page(1, 100))
        .await
        .expect("list")
        .items;
    let of = store
        .raw_events_of(owner.id, &[container, ContainerId::new()])
        .await
        .expect("of containers");
    assert_eq!(of, whole);
    assert!(
        store
            .raw_events_of(stranger.id, &[container])
            .await
            .expect("of containers")
            .is_empty()
    );
}

/// The same events again change nothing; a later version of the load replaces it where
/// it was kept.
async fn a_later_version_replaces_an_event_in_place(
    store: &Arc<dyn Store>,
    owner: &Account,
    pending: &TrackingRequest,
    first: &Snapshot,
    container: ContainerId,
) {
    let arrival = first.shipment_events[0].clone();
    let request = super::stored(store, pending).await;
    assert_eq!(request.status, RequestStatus::Created);
    let again = found(store, &request, first, 3604).await;
    assert!(
        again.delta.raw_events.is_empty(),
        "the same events change nothing"
    );
    let moved = reported("e2", "LOAD", EventClassifier::Actual, 50, 60);
    let mut second = snapshot(&[]);
    second.containers[0].raw_events = vec![moved.clone()];
    second.shipment_events = vec![arrival.clone()];
    let refresh = claim(store, JobKind::Refresh, 3603).await;
    let update = found(store, &request, &second, 3604).await;
    assert_eq!(
        update.delta.raw_events.len(),
        1,
        "only the container's events changed"
    );
    let first_id = store
        .list_raw_events(owner.id, container, super::page(1, 10))
        .await
        .expect("list")
        .items[0]
        .id;
    super::committed(store, &refresh, &update).await;
    let now_kept = store
        .list_raw_events(owner.id, container, super::page(1, 10))
        .await
        .expect("list");
    let events: Vec<CarrierEvent> = now_kept.items.iter().map(|r| r.event.clone()).collect();
    assert_eq!(events, [arrival, moved], "the load moved after the arrival");
    let replaced = now_kept
        .items
        .iter()
        .find(|r| r.event.source_id == "e2")
        .expect("kept");
    assert_eq!(replaced.id, first_id, "replaced in place");
    assert_eq!(replaced.created_at, at(3));
    assert_eq!(replaced.updated_at, at(3604));
}
