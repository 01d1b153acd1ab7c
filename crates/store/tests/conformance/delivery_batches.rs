//! Conformance cases of settling many deliveries in one commit: the outcome is what
//! settling them one by one, in order, would leave.

use std::sync::Arc;

use tidemark_domain::webhook::{ClaimedNotification, Settlement};
use tidemark_domain::{Timestamp, WebhookId};
use tidemark_store::{FAILING_TOO_LONG, Settle, Store};

use super::deliveries::{attempt, three_events};
use super::webhooks::subscribe;
use super::{account, at};

/// Settles `items` (claim, status answered, what it decided, failing cutoff) in one batch.
async fn settle_batch(
    store: &Arc<dyn Store>,
    items: &[(&ClaimedNotification, Option<u16>, Settlement, Timestamp)],
) -> Vec<bool> {
    let attempts: Vec<_> = items
        .iter()
        .map(|(claimed, status, ..)| {
            let answered = claimed
                .notification
                .due_at
                .map_or(at(0), |due| due + std::time::Duration::from_secs(1));
            attempt(answered, *status)
        })
        .collect();
    let batch: Vec<Settle<'_>> = items
        .iter()
        .zip(&attempts)
        .map(|((claimed, _, settlement, cutoff), attempt)| Settle {
            claimed,
            attempt,
            settlement,
            failing_cutoff: *cutoff,
        })
        .collect();
    store.settle_notifications(&batch).await.expect("settle")
}

/// `claims` of `webhook`.
fn of(claims: &[ClaimedNotification], webhook: WebhookId) -> Vec<&ClaimedNotification> {
    claims
        .iter()
        .filter(|c| c.notification.webhook_id == webhook)
        .collect()
}

/// A batch leaves each webhook's failing streak as its settlements in order would: a
/// webhook whose deliveries all succeeded has its streak cleared; one whose success came
/// before a failure is failing from that failure on. Read through the streak's one
/// consequence: a later failure turns off a webhook failing since before the cutoff.
pub async fn a_batch_leaves_each_webhooks_failing_streak_as_in_order(store: Arc<dyn Store>) {
    let owner = account(&store, "streaks").await;
    let cleared = subscribe(&store, &owner, &[], true).await;
    let failing = subscribe(&store, &owner, &[], true).await;
    three_events(&store, &owner, "586118851", 3).await;
    let claims = super::claim_deliveries(&store, 10, 100, at(10)).await;
    let (a, b) = (of(&claims, cleared), of(&claims, failing));
    assert_eq!((a.len(), b.len()), (3, 3));
    let retry = || Settlement::Retry(at(100));
    // Both start failing (each attempt is answered a second after it fell due: at 4 for
    // the events recorded at 3, at 101 for the retries due at 100).
    let first = settle_batch(
        &store,
        &[
            (a[0], Some(503), retry(), at(0)),
            (b[0], Some(503), retry(), at(0)),
        ],
    )
    .await;
    assert_eq!(first, [true, true]);
    // Then the first webhook's other two succeed; the second's succeeds, then fails.
    let second = settle_batch(
        &store,
        &[
            (a[1], Some(200), Settlement::Succeeded, at(0)),
            (b[1], Some(200), Settlement::Succeeded, at(0)),
            (a[2], Some(200), Settlement::Succeeded, at(0)),
            (b[2], None, retry(), at(0)),
        ],
    )
    .await;
    assert_eq!(second, [true, true, true, true]);
    // The three retried deliveries fail again, judged with a cutoff after both streaks
    // began: only the webhook still failing is turned off.
    let again = super::claim_deliveries(&store, 10, 100, at(100)).await;
    assert_eq!(again.len(), 3);
    let items: Vec<_> = again
        .iter()
        .map(|c| (c, Some(503), retry(), at(50)))
        .collect();
    assert_eq!(settle_batch(&store, &items).await, [true, true, true]);
    let read = |id| {
        let store = Arc::clone(&store);
        async move {
            store
                .webhook(owner.id, id)
                .await
                .expect("read")
                .expect("exists")
        }
    };
    let (kept, off) = (read(cleared).await, read(failing).await);
    assert!(kept.active, "its streak ended with its successes");
    assert!(
        !off.active,
        "its streak began with the failure after its success"
    );
    assert_eq!(off.disabled_reason.as_deref(), Some(FAILING_TOO_LONG));
}

/// A notification claimed again after its lease ran out may be settled under both claims
/// in one batch: only the current claim settles it, and one attempt is logged.
pub async fn a_notification_settled_twice_in_a_batch_settles_once(store: Arc<dyn Store>) {
    let owner = account(&store, "twice").await;
    subscribe(&store, &owner, &[], true).await;
    three_events(&store, &owner, "586118852", 3).await;
    let stale = super::claim_deliveries(&store, 1, 100, at(10)).await;
    let current = super::claim_deliveries(&store, 1, 100, at(50)).await;
    assert_eq!(stale[0].notification.id, current[0].notification.id);
    let settled = settle_batch(
        &store,
        &[
            (&current[0], Some(200), Settlement::Succeeded, at(0)),
            (&stale[0], Some(200), Settlement::Succeeded, at(0)),
        ],
    )
    .await;
    assert_eq!(settled, [true, false]);
    let logged = store
        .notification_attempts(owner.id, &[current[0].notification.id])
        .await
        .expect("attempts");
    assert_eq!(logged.len(), 1);
}
