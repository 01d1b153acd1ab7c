//! Conformance cases of carriers' pushes: a shipment's subscription is found by carrier and
//! id, survives the tracker's next upsert of the shipment, and ends; pushed events are
//! heard once by id (an older copy is not news); the pushes to tend are the stopped ones
//! and the stale secrets.

use std::sync::Arc;

use tidemark_domain::{CarrierPush, Milestone, PushSecret};
use tidemark_store::{CommitOutcome, Store};

use super::tracking::{found, looked_up, snapshot};
use super::{account, at};

pub async fn a_carrier_push_is_found_by_its_subscription_and_tended(store: Arc<dyn Store>) {
    let owner = account(&store, "pushes").await;
    let milestones = snapshot(&[(Milestone::VesselDeparted, 2)]);
    let (_, job, commit) = looked_up(&store, &owner, "586118842", &milestones, 3).await;
    super::committed(&store, &job, &commit).await;
    let before = found(&store, &commit.request, &milestones, 5).await;
    let shipment = commit.shipment.clone().expect("a shipment");
    let push = CarrierPush {
        subscription_id: "a7c5e1b2-0d3f-4e5a-9b8c-7d6e5f4a3b21".to_owned(),
        secret: PushSecret::generate(),
        secret_set_at: at(100),
    };
    store
        .set_carrier_push(shipment.id, Some(&push))
        .await
        .expect("set");
    let found = store
        .shipment_of_push(shipment.scac, &push.subscription_id)
        .await
        .expect("read")
        .expect("found");
    assert_eq!(found.id, shipment.id);
    assert_eq!(found.carrier_push.as_ref(), Some(&push), "read back whole");
    assert!(
        store
            .shipment_of_push(shipment.scac, "another")
            .await
            .expect("read")
            .is_none()
    );
    // A refresh decided from what was read before the subscription was made keeps it.
    let refresh = before;
    assert!(
        refresh
            .shipment
            .as_ref()
            .is_some_and(|s| s.carrier_push.is_none())
    );
    assert_eq!(
        store.commit_tracking(None, &refresh).await.expect("commit"),
        CommitOutcome::Committed
    );
    assert!(
        store
            .shipment_of_push(shipment.scac, &push.subscription_id)
            .await
            .expect("read")
            .is_some()
    );

    let tend = |before| {
        let store = Arc::clone(&store);
        async move { store.pushes_to_tend(before, 10).await.expect("tend").len() }
    };
    assert_eq!(
        tend(at(50)).await,
        0,
        "a fresh secret on a tracked shipment"
    );
    assert_eq!(tend(at(200)).await, 1, "a secret set before is stale");
    store
        .set_carrier_push(shipment.id, None)
        .await
        .expect("end");
    assert_eq!(tend(at(200)).await, 0);
    assert!(
        store
            .shipment_of_push(shipment.scac, &push.subscription_id)
            .await
            .expect("read")
            .is_none()
    );
}

pub async fn pushed_events_are_heard_once_by_id(store: Arc<dyn Store>) {
    let owner = account(&store, "pushed").await;
    let milestones = snapshot(&[(Milestone::VesselDeparted, 2)]);
    let (_, job, commit) = looked_up(&store, &owner, "586118843", &milestones, 3).await;
    super::committed(&store, &job, &commit).await;
    let shipment = commit.shipment.clone().expect("a shipment");
    let events = vec![("e1".to_owned(), at(10)), ("e2".to_owned(), at(20))];
    assert_eq!(
        store
            .record_pushed_events(shipment.id, &events)
            .await
            .expect("record"),
        2
    );
    assert_eq!(
        store
            .record_pushed_events(shipment.id, &events)
            .await
            .expect("replay"),
        0
    );
    let older = vec![("e2".to_owned(), at(15)), ("e3".to_owned(), at(30))];
    assert_eq!(
        store
            .record_pushed_events(shipment.id, &older)
            .await
            .expect("older"),
        1
    );
    let newer = vec![("e1".to_owned(), at(40))];
    assert_eq!(
        store
            .record_pushed_events(shipment.id, &newer)
            .await
            .expect("newer"),
        1
    );
}
