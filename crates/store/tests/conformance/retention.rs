//! Conformance cases of the delivery log's retention: settled notifications are forgotten,
//! oldest first and with their attempts, once they have not changed since the cutoff;
//! pending ones, and settled ones made pending again, are kept.

use std::sync::Arc;

use tidemark_domain::webhook::{ClaimedNotification, Settlement};
use tidemark_domain::{Account, Timestamp, WebhookNotificationId};
use tidemark_store::Store;

use super::deliveries::{attempt, settle};
use super::webhooks::subscribe;
use super::{account, at, three_events};

/// The claims of `owner`'s notifications among `claimed`.
fn of(claimed: &[ClaimedNotification], owner: &Account) -> Vec<ClaimedNotification> {
    claimed
        .iter()
        .filter(|c| c.notification.account_id == owner.id)
        .cloned()
        .collect()
}

/// Forgets what changed before `cutoff`, `limit` at most: how many.
async fn forget(store: &Arc<dyn Store>, cutoff: Timestamp, limit: u32) -> u64 {
    store
        .forget_notifications(cutoff, limit)
        .await
        .expect("forget")
}

/// When the settled notification that changed longest ago last changed.
async fn oldest(store: &Arc<dyn Store>) -> Option<Timestamp> {
    store.oldest_settled_notification().await.expect("read")
}

/// Whether `owner`'s notification `id` is still in the log, with how many attempts.
async fn kept(store: &Arc<dyn Store>, owner: &Account, id: WebhookNotificationId) -> Option<usize> {
    let notification = store
        .webhook_notification(owner.id, id)
        .await
        .expect("read")?;
    let attempts = store
        .notification_attempts(owner.id, &[notification.id])
        .await
        .expect("attempts");
    Some(attempts.len())
}

pub async fn settled_notifications_are_forgotten_oldest_first_and_pending_ones_kept(
    store: Arc<dyn Store>,
) {
    let acme = account(&store, "acme").await;
    let globex = account(&store, "globex").await;
    let (a, g) = settle_some(&store, &acme, &globex).await;
    forgotten_oldest_first(&store, (&acme, &a), (&globex, &g)).await;
    a_redelivery_is_kept_until_it_settles_again(&store, &globex).await;
}

/// Three notifications of each account, claimed and settled: acme's delivered at 11,
/// failed for good at 12 and to be tried again; globex's delivered at 20 and two to be
/// tried again. Answers each account's claims.
async fn settle_some(
    store: &Arc<dyn Store>,
    acme: &Account,
    globex: &Account,
) -> (Vec<ClaimedNotification>, Vec<ClaimedNotification>) {
    subscribe(store, acme, &[], true).await;
    subscribe(store, globex, &[], true).await;
    three_events(store, acme, "586118851", 3).await;
    three_events(store, globex, "586118852", 3).await;
    assert_eq!(oldest(store).await, None);

    let claimed = super::claim_deliveries(store, 10, 100, at(10)).await;
    let (a, g) = (of(&claimed, acme), of(&claimed, globex));
    assert_eq!((a.len(), g.len()), (3, 3));
    let outcomes = [
        (&a[0], at(11), Some(200), Settlement::Succeeded),
        (&a[1], at(12), Some(500), Settlement::Failed),
        (&a[2], at(13), Some(503), Settlement::Retry(at(5_000))),
        (&g[0], at(20), Some(200), Settlement::Succeeded),
        (&g[1], at(21), Some(503), Settlement::Retry(at(5_000))),
        (&g[2], at(22), Some(503), Settlement::Retry(at(5_000))),
    ];
    for (claim, when, status, settlement) in outcomes {
        assert!(settle(store, claim, attempt(when, status), settlement, at(0)).await);
    }
    (a, g)
}

async fn forgotten_oldest_first(
    store: &Arc<dyn Store>,
    (acme, a): (&Account, &[ClaimedNotification]),
    (globex, g): (&Account, &[ClaimedNotification]),
) {
    assert_eq!(oldest(store).await, Some(at(11)));
    // Only what changed before the cutoff goes, and no more than asked for at once.
    assert_eq!(forget(store, at(11), 100).await, 0);
    assert_eq!(forget(store, at(30), 1).await, 1);
    assert_eq!(kept(store, acme, a[0].notification.id).await, None);
    assert_eq!(kept(store, acme, a[1].notification.id).await, Some(1));
    assert_eq!(oldest(store).await, Some(at(12)));
    assert_eq!(forget(store, at(30), 100).await, 2);
    assert_eq!(kept(store, acme, a[1].notification.id).await, None);
    assert_eq!(kept(store, globex, g[0].notification.id).await, None);
    // The pending ones stay, with their attempts, whatever their age.
    assert_eq!(kept(store, acme, a[2].notification.id).await, Some(1));
    assert_eq!(kept(store, globex, g[1].notification.id).await, Some(1));
    assert_eq!(oldest(store).await, None);
    assert_eq!(forget(store, at(1_000_000), 100).await, 0);
}

/// A settled notification made pending again by a redelivery is kept until it settles
/// again, and then until a cutoff after that.
async fn a_redelivery_is_kept_until_it_settles_again(store: &Arc<dyn Store>, globex: &Account) {
    let retried = super::claim_deliveries(store, 10, 100, at(5_000)).await;
    let last = of(&retried, globex);
    assert_eq!(last.len(), 2);
    let done = attempt(at(5_001), Some(200));
    assert!(settle(store, &last[0], done, Settlement::Succeeded, at(0)).await);
    let id = last[0].notification.id;
    let redelivered = store.redeliver_notification(globex.id, id, at(5_002));
    assert!(redelivered.await.expect("redeliver"));
    assert_eq!(forget(store, at(1_000_000), 100).await, 0);
    assert_eq!(kept(store, globex, id).await, Some(2));

    let again = super::claim_deliveries(store, 10, 100, at(5_002)).await;
    assert_eq!(again.len(), 1);
    let done = attempt(at(5_003), Some(200));
    assert!(settle(store, &again[0], done, Settlement::Succeeded, at(0)).await);
    assert_eq!(forget(store, at(5_003), 100).await, 0);
    assert_eq!(forget(store, at(5_004), 100).await, 1);
    assert_eq!(kept(store, globex, id).await, None);
}
