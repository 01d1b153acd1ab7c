//! Conformance cases of the delivery log: frozen records and attempt logs read back within their account, and claims kept under each webhook's limit in flight.

use std::sync::Arc;

use serde_json::Value as Json;

use tidemark_domain::webhook::{ClaimedNotification, Settlement};
use tidemark_domain::{Account, Milestone};
use tidemark_store::Store;

use super::deliveries::{attempt, settle, three_events};
use super::tracking::{looked_up, snapshot};
use super::webhooks::subscribe;
use super::{account, at};

/// The records frozen with an event travel with each of its claimed notifications and
/// read back per event; every attempt is logged under its notification, oldest first; and
/// neither is visible to another account.
pub async fn frozen_records_and_attempt_logs_read_back_within_their_account(store: Arc<dyn Store>) {
    let owner = account(&store, "frozen").await;
    let stranger = account(&store, "frozen-stranger").await;
    subscribe(&store, &owner, &[], true).await;
    let milestones = snapshot(&[(Milestone::EmptyOut, 1)]);
    let (_, job, mut commit) = looked_up(&store, &owner, "586118842", &milestones, 3).await;
    // A record every event shares, as the events of one lookup share their shipment.
    let shared = serde_json::json!({"type": "shipment", "id": "shared", "attributes": {}});
    for (n, event) in commit.events.iter_mut().enumerate() {
        event.included = vec![
            serde_json::json!({"type": "marker", "id": event.id.to_string()}),
            shared.clone(),
            serde_json::json!({"type": "ordinal", "id": n.to_string(), "attributes": {"ü": "ß"}}),
        ];
    }
    assert!(commit.events.len() > 1, "records shared by several events");
    super::committed(&store, &job, &commit).await;
    shared_across_changes(&store, &stranger, &shared).await;

    let claimed = super::claim_deliveries(&store, 10, 100, at(3)).await;
    assert_eq!(claimed.len(), commit.events.len());
    for notification in &claimed {
        let event = commit
            .events
            .iter()
            .find(|e| e.id == notification.notification.domain_event_id)
            .expect("its event");
        assert_eq!(notification.included, event.included);
    }
    let ids: Vec<_> = commit.events.iter().map(|e| e.id).collect();
    let frozen = store.frozen_records(owner.id, &ids).await.expect("frozen");
    assert_eq!(frozen.len(), ids.len());
    for event in &commit.events {
        assert_eq!(frozen.get(&event.id), Some(&event.included));
    }
    assert!(
        store
            .frozen_records(stranger.id, &ids)
            .await
            .expect("frozen")
            .is_empty()
    );
    assert!(
        store
            .frozen_records(owner.id, &[])
            .await
            .expect("frozen")
            .is_empty()
    );
    attempts_are_logged_within_their_account(&store, &owner, &stranger, &claimed).await;
}

/// Two attempts at the first notification, one at the second: each is logged once, and
/// read back within its account.
async fn attempts_are_logged_within_their_account(
    store: &Arc<dyn Store>,
    owner: &Account,
    stranger: &Account,
    claimed: &[ClaimedNotification],
) {
    let (first, second) = (&claimed[0], &claimed[1]);
    let failed = attempt(at(4), None);
    assert!(
        settle(
            store,
            first,
            failed.clone(),
            Settlement::Retry(at(10)),
            at(0)
        )
        .await
    );
    let answered = attempt(at(5), Some(204));
    assert!(
        settle(
            store,
            second,
            answered.clone(),
            Settlement::Succeeded,
            at(0)
        )
        .await
    );
    let retried = super::claim_deliveries(store, 10, 100, at(10)).await;
    assert_eq!(retried.len(), 1);
    assert_eq!(
        retried[0].included, first.included,
        "a retry carries the same records"
    );
    let delivered = attempt(at(11), Some(200));
    assert!(
        settle(
            store,
            &retried[0],
            delivered.clone(),
            Settlement::Succeeded,
            at(0)
        )
        .await
    );

    let wanted = [first.notification.id, second.notification.id];
    let logged = store
        .notification_attempts(owner.id, &wanted)
        .await
        .expect("attempts");
    let of = |id| {
        logged
            .iter()
            .filter(|l| l.notification_id == id)
            .map(|l| l.attempt.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(of(first.notification.id), [failed, delivered]);
    assert_eq!(of(second.notification.id), [answered]);
    assert_eq!(logged.len(), 3);
    let distinct: std::collections::HashSet<_> = logged.iter().map(|l| l.id).collect();
    assert_eq!(distinct.len(), 3);
    assert_eq!(
        store
            .notification_attempts(owner.id, &wanted[..1])
            .await
            .expect("attempts")
            .len(),
        2
    );
    assert!(
        store
            .notification_attempts(stranger.id, &wanted)
            .await
            .expect("attempts")
            .is_empty()
    );
}

/// A claim never gives a webhook more notifications than it may have in flight, counting
/// those already held; and a webhook at its limit, however much it has due, does not keep
/// the others' notifications from being claimed.
pub async fn claims_keep_each_webhook_under_its_limit_in_flight(store: Arc<dyn Store>) {
    let owner = account(&store, "limits").await;
    let busy = subscribe(&store, &owner, &[], true).await;
    three_events(&store, &owner, "586118843", 3).await;
    let quiet = subscribe(&store, &owner, &[], true).await;
    three_events(&store, &owner, "586118844", 5).await;
    // Due: six for `busy` (three at 3, three at 5), three for `quiet` (at 5).
    let of = |claimed: &[tidemark_domain::webhook::ClaimedNotification], webhook| {
        claimed
            .iter()
            .filter(|c| c.notification.webhook_id == webhook)
            .count()
    };

    let first = super::claim_deliveries(&store, 10, 2, at(10)).await;
    assert_eq!((of(&first, busy), of(&first, quiet)), (2, 2));
    for claimed in first.iter().filter(|c| c.notification.webhook_id == busy) {
        assert_eq!(claimed.notification.due_at, Some(at(3)), "oldest first");
    }
    assert!(
        super::claim_deliveries(&store, 10, 2, at(10))
            .await
            .is_empty(),
        "both at their limit"
    );

    // One settles: room for one more, of that webhook.
    let done = first
        .iter()
        .find(|c| c.notification.webhook_id == busy)
        .expect("one");
    assert!(
        store
            .settle_notification(
                done,
                &attempt(at(11), Some(200)),
                &Settlement::Succeeded,
                at(0)
            )
            .await
            .expect("settle")
    );
    let next = super::claim_deliveries(&store, 10, 2, at(11)).await;
    assert_eq!((of(&next, busy), of(&next, quiet)), (1, 0));

    // Claims of one at a time: `busy`, whose due notifications come first, fills its
    // limit, and the next claim reaches past them to `quiet`.
    let later = at(100);
    let one = super::claim_deliveries(&store, 1, 1, later).await;
    assert_eq!(of(&one, busy), 1);
    let other = super::claim_deliveries(&store, 1, 1, later).await;
    assert_eq!(of(&other, quiet), 1, "{other:?}");
    assert!(
        super::claim_deliveries(&store, 1, 1, later)
            .await
            .is_empty()
    );
}

/// Another account's change freezes a record already kept: its events read it back too.
async fn shared_across_changes(store: &Arc<dyn Store>, other: &Account, shared: &Json) {
    let milestones = snapshot(&[(Milestone::EmptyOut, 1)]);
    let (_, job, mut commit) = looked_up(store, other, "586118843", &milestones, 6).await;
    for event in &mut commit.events {
        event.included = vec![shared.clone()];
    }
    super::committed(store, &job, &commit).await;
    let recorded = store.domain_events(other.id).await.expect("events");
    assert_eq!(recorded.len(), commit.events.len());
    for event in recorded {
        assert_eq!(event.included, std::slice::from_ref(shared));
    }
}
