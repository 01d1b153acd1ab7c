//! Conformance cases of delivery: notifications are claimed by one dispatcher at a time,
//! claims expire, and each attempt settles a notification only while its claim holds.

use std::sync::Arc;

use tidemark_domain::webhook::{Attempt, ClaimedNotification, DeliveryStatus, Settlement};
use tidemark_domain::{Account, Milestone, Timestamp, WebhookId};
use tidemark_store::{FAILING_TOO_LONG, NotificationFilter, Store};

use super::tracking::{snapshot, tracked};
use super::webhooks::subscribe;
use super::{account, at, page};

/// The notification `id` of `owner`, as stored.
async fn notification(
    store: &Arc<dyn Store>,
    owner: &Account,
    id: tidemark_domain::WebhookNotificationId,
) -> tidemark_domain::webhook::WebhookNotification {
    store
        .webhook_notification(owner.id, id)
        .await
        .expect("read")
        .expect("exists")
}

pub(crate) fn attempt(when: Timestamp, status: Option<u16>) -> Attempt {
    Attempt {
        at: when,
        status_code: status,
        error: status.is_none().then(|| "timed out after 15 s".to_owned()),
        latency_ms: 12,
        response_body: status.map(|_| "ok".to_owned()),
    }
}

/// Settles `claimed` with `attempt` as `settlement` decided; whether the claim held.
pub(crate) async fn settle(
    store: &Arc<dyn Store>,
    claimed: &ClaimedNotification,
    attempt: Attempt,
    settlement: Settlement,
    failing_since: Timestamp,
) -> bool {
    store
        .settle_notification(claimed, &attempt, &settlement, failing_since)
        .await
        .expect("settle")
}

/// Turns `webhook` on again, clearing why it was turned off.
async fn turn_on(store: &Arc<dyn Store>, owner: &Account, webhook: WebhookId) {
    let mut on = store
        .webhook(owner.id, webhook)
        .await
        .expect("read")
        .expect("exists");
    on.active = true;
    on.disabled_reason = None;
    assert!(store.update_webhook(&on).await.expect("update"));
}

pub async fn deliveries_are_claimed_once_expire_and_settle_only_under_their_claim(
    store: Arc<dyn Store>,
) {
    let owner = account(&store, "deliveries").await;
    let webhook = subscribe(&store, &owner, &[], true).await;
    three_events(&store, &owner, "586118841", 3).await;
    let (first, current) = claims_hold_then_expire(&store, &owner).await;
    settlements_stand_only_under_their_claim(&store, &owner, &first, &current).await;
    a_disabled_webhook_waits_and_resumes(&store, &owner, webhook, &current).await;
}

/// Due with their event, claimed once each while the claim holds; the claims run out and
/// another dispatcher takes everything. Answers the first claims and the current ones.
async fn claims_hold_then_expire(
    store: &Arc<dyn Store>,
    owner: &Account,
) -> (Vec<ClaimedNotification>, Vec<ClaimedNotification>) {
    // Due with their event; claimed once each while the claim holds.
    assert!(
        super::claim_deliveries(store, 10, 100, at(2))
            .await
            .is_empty()
    );
    assert_eq!(
        store.next_notification_due().await.expect("next"),
        Some(at(3))
    );
    let first = super::claim_deliveries(store, 2, 100, at(3)).await;
    assert_eq!(first.len(), 2);
    let second = super::claim_deliveries(store, 10, 100, at(3)).await;
    assert_eq!(second.len(), 1);
    assert!(
        super::claim_deliveries(store, 10, 100, at(20))
            .await
            .is_empty()
    );

    // The claims run out; another dispatcher takes everything, and the first one's late
    // answers change nothing.
    let current = super::claim_deliveries(store, 10, 100, at(40)).await;
    assert_eq!(current.len(), 3);
    for stale in first.iter().chain(&second) {
        let settled = settle(
            store,
            stale,
            attempt(at(41), Some(200)),
            Settlement::Succeeded,
            at(0),
        )
        .await;
        assert!(!settled, "a lost claim settles nothing");
    }
    let all = NotificationFilter::default();
    let listed = store
        .list_webhook_notifications(owner.id, &all, page(1, 10))
        .await
        .expect("list");
    assert!(
        listed
            .items
            .iter()
            .all(|n| n.attempts == 0 && n.delivery_status == DeliveryStatus::Pending)
    );

    let first = first.into_iter().chain(second).collect();
    (first, current)
}

/// A release gives one back without an attempt; a stale release does nothing; a success
/// and a retry settle as decided.
async fn settlements_stand_only_under_their_claim(
    store: &Arc<dyn Store>,
    owner: &Account,
    first: &[ClaimedNotification],
    current: &[ClaimedNotification],
) {
    let (delivered, retried) = (&current[0], &current[1]);

    assert!(
        !store
            .release_notification(&first[0], at(41))
            .await
            .expect("release")
    );
    assert!(
        settle(
            store,
            delivered,
            attempt(at(41), Some(204)),
            Settlement::Succeeded,
            at(0)
        )
        .await
    );
    assert!(
        settle(
            store,
            retried,
            attempt(at(42), Some(500)),
            Settlement::Retry(at(100)),
            at(0)
        )
        .await
    );
    let done = notification(store, owner, delivered.notification.id).await;
    assert_eq!(
        (done.delivery_status, done.attempts, done.due_at),
        (DeliveryStatus::Succeeded, 1, None)
    );
    let again = notification(store, owner, retried.notification.id).await;
    assert_eq!(
        (again.delivery_status, again.attempts, again.due_at),
        (DeliveryStatus::Pending, 1, Some(at(100)))
    );
    let early = super::claim_deliveries(store, 10, 100, at(60)).await;
    assert!(early.is_empty(), "not before its retry: {early:?}");
}

/// 410: the notification fails and the webhook turns off, its pending work waiting; turned
/// on again, the retry goes out, and a webhook failing past the cutoff turns off again.
async fn a_disabled_webhook_waits_and_resumes(
    store: &Arc<dyn Store>,
    owner: &Account,
    webhook: WebhookId,
    current: &[ClaimedNotification],
) {
    let (retried, gone) = (&current[1], &current[2]);
    assert!(
        settle(
            store,
            gone,
            attempt(at(43), Some(410)),
            Settlement::DisableWebhook("the receiver answered 410 Gone".to_owned()),
            at(0)
        )
        .await
    );
    assert_eq!(
        notification(store, owner, gone.notification.id)
            .await
            .delivery_status,
        DeliveryStatus::Failed
    );
    let off = store
        .webhook(owner.id, webhook)
        .await
        .expect("read")
        .expect("exists");
    assert!(!off.active);
    assert_eq!(
        off.disabled_reason.as_deref(),
        Some("the receiver answered 410 Gone")
    );
    assert!(
        super::claim_deliveries(store, 10, 100, at(200))
            .await
            .is_empty()
    );
    assert_eq!(store.next_notification_due().await.expect("next"), None);

    // Turned on again, the retry is delivered; failing since at(42), past the cutoff, the
    // webhook is turned off again by the next failure.
    turn_on(store, owner, webhook).await;
    let resumed = super::claim_deliveries(store, 10, 100, at(200)).await;
    assert_eq!(resumed.len(), 1);
    assert_eq!(resumed[0].notification.id, retried.notification.id);
    assert!(
        settle(
            store,
            &resumed[0],
            attempt(at(201), None),
            Settlement::Retry(at(300)),
            at(150)
        )
        .await
    );
    let off = store
        .webhook(owner.id, webhook)
        .await
        .expect("read")
        .expect("exists");
    assert!(!off.active);
    assert_eq!(off.disabled_reason.as_deref(), Some(FAILING_TOO_LONG));
    assert_eq!(
        notification(store, owner, retried.notification.id)
            .await
            .attempts,
        2
    );

    // Released without an attempt: due again later, attempts unchanged.
    turn_on(store, owner, webhook).await;
    let held = super::claim_deliveries(store, 10, 100, at(400)).await;
    assert_eq!(held.len(), 1);
    assert!(
        store
            .release_notification(&held[0], at(500))
            .await
            .expect("release")
    );
    assert!(
        super::claim_deliveries(store, 10, 100, at(450))
            .await
            .is_empty()
    );
    let later = super::claim_deliveries(store, 10, 100, at(500)).await;
    assert_eq!(later.len(), 1);
    assert_eq!(later[0].notification.attempts, 2);
}

/// Records a found request `number` at `when`, with three events.
pub(super) async fn three_events(
    store: &Arc<dyn Store>,
    owner: &tidemark_domain::Account,
    number: &str,
    when: i64,
) {
    let milestones = snapshot(&[(Milestone::EmptyOut, 1), (Milestone::FullIn, 2)]);
    let (_, commit) = tracked(store, owner, number, &milestones, when).await;
    assert_eq!(commit.events.len(), 3);
}

/// Attempts settled together commit together, each under its own claim: a lost claim in
/// the batch records nothing for it and does not stop the others.
pub async fn a_batch_of_attempts_settles_each_under_its_claim(store: Arc<dyn Store>) {
    use tidemark_store::Settle;

    let owner = account(&store, "batch").await;
    subscribe(&store, &owner, &[], true).await;
    three_events(&store, &owner, "586118845", 3).await;
    let stale = super::claim_deliveries(&store, 10, 100, at(10)).await;
    assert_eq!(stale.len(), 3);
    // The leases run out and another dispatcher claims all three.
    let current = super::claim_deliveries(&store, 10, 100, at(50)).await;
    assert_eq!(current.len(), 3);
    let stale_one = stale
        .iter()
        .find(|c| c.notification.id == current[2].notification.id)
        .expect("the same notification");
    let ok = attempt(at(51), Some(200));
    let busy = attempt(at(51), Some(503));
    let (done, retry) = (Settlement::Succeeded, Settlement::Retry(at(60)));
    let settled = store
        .settle_notifications(&[
            Settle {
                claimed: &current[0],
                attempt: &ok,
                settlement: &done,
                failing_cutoff: at(0),
            },
            Settle {
                claimed: &current[1],
                attempt: &busy,
                settlement: &retry,
                failing_cutoff: at(0),
            },
            Settle {
                claimed: stale_one,
                attempt: &ok,
                settlement: &done,
                failing_cutoff: at(0),
            },
        ])
        .await
        .expect("settle");
    assert_eq!(settled, [true, true, false]);
    let read = |id| {
        let store = Arc::clone(&store);
        async move {
            store
                .webhook_notification(owner.id, id)
                .await
                .expect("read")
                .expect("exists")
        }
    };
    let first = read(current[0].notification.id).await;
    assert_eq!(
        (first.delivery_status, first.attempts),
        (DeliveryStatus::Succeeded, 1)
    );
    let second = read(current[1].notification.id).await;
    assert_eq!(
        (second.delivery_status, second.attempts, second.due_at),
        (DeliveryStatus::Pending, 1, Some(at(60)))
    );
    let third = read(current[2].notification.id).await;
    assert_eq!(
        (third.delivery_status, third.attempts),
        (DeliveryStatus::Pending, 0)
    );
    let ids: Vec<_> = current.iter().map(|c| c.notification.id).collect();
    let logged = store
        .notification_attempts(owner.id, &ids)
        .await
        .expect("attempts");
    assert_eq!(logged.len(), 2, "nothing logged under the lost claim");
    assert!(
        store
            .settle_notifications(&[])
            .await
            .expect("settle")
            .is_empty()
    );
}
