//! Conformance cases of claims that name webhooks: resuming where the last claim ended,
//! and a webhook's own limit in flight.

use std::sync::Arc;

use tidemark_store::{Store, WebhookClaim};

use super::deliveries::three_events;
use super::webhooks::subscribe;
use super::{LEASE, account, at};

/// A claim resuming after a webhook's notification takes only what is due after it; what
/// it passed over (claims whose leases ran out) a claim from the start takes.
pub async fn a_claim_resumes_after_where_the_last_ended(store: Arc<dyn Store>) {
    let owner = account(&store, "resume").await;
    let webhook = subscribe(&store, &owner, &[], true).await;
    three_events(&store, &owner, "586118853", 3).await;
    let first = super::claim_deliveries(&store, 1, 100, at(10)).await;
    let resume = |claimed: &tidemark_domain::webhook::ClaimedNotification| WebhookClaim {
        webhook,
        after: Some((
            claimed.notification.due_at.expect("pending"),
            claimed.notification.id,
        )),
        in_flight: 100,
    };
    let second = store
        .claim_notifications_after(1, 100, LEASE, at(10), &[resume(&first[0])])
        .await
        .expect("claim");
    assert_eq!(second.len(), 1);
    assert_ne!(second[0].notification.id, first[0].notification.id);
    // Both leases run out: resuming after the second takes only the third.
    let later = at(50);
    let third = store
        .claim_notifications_after(10, 100, LEASE, later, &[resume(&second[0])])
        .await
        .expect("claim");
    assert_eq!(third.len(), 1);
    let all = [&first[0], &second[0], &third[0]];
    let mut ids: Vec<_> = all.iter().map(|c| c.notification.id).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), 3, "three different notifications");
    // A claim from the start takes the two passed over.
    let passed_over = super::claim_deliveries(&store, 10, 100, later).await;
    let mut again: Vec<_> = passed_over.iter().map(|c| c.notification.id).collect();
    again.sort_unstable();
    let mut expected = vec![first[0].notification.id, second[0].notification.id];
    expected.sort_unstable();
    assert_eq!(again, expected);
}

/// A webhook named with a limit of its own is claimed up to it, in place of the claim's.
pub async fn a_webhook_named_with_its_own_limit_is_claimed_up_to_it(store: Arc<dyn Store>) {
    let owner = account(&store, "own limit").await;
    let webhook = subscribe(&store, &owner, &[], true).await;
    three_events(&store, &owner, "586118855", 3).await;
    let own = WebhookClaim {
        webhook,
        after: None,
        in_flight: 2,
    };
    let first = store
        .claim_notifications_after(10, 1, LEASE, at(10), &[own])
        .await
        .expect("claim");
    assert_eq!(first.len(), 2, "its own limit, not the claim's 1");
    let second = store
        .claim_notifications_after(10, 1, LEASE, at(10), &[own])
        .await
        .expect("claim");
    assert!(second.is_empty(), "two in flight already");
    let raised = WebhookClaim {
        in_flight: 3,
        ..own
    };
    let third = store
        .claim_notifications_after(10, 1, LEASE, at(10), &[raised])
        .await
        .expect("claim");
    assert_eq!(third.len(), 1);
}
