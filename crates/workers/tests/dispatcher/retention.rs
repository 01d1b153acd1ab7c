//! The pruner keeps the delivery log to its retention, on the driven clock: nothing goes
//! before the retention has passed, everything settled goes after it, and a batch the
//! database refuses pauses the pruner instead of spinning.

use std::time::Duration;

use tidemark_domain::Clock;
use tidemark_domain::webhook::{DeliveryStatus, Retention, WebhookNotification};
use tidemark_workers::{BETWEEN_BATCHES, PRUNE_BATCH, Pruner, Runner, Worker};

use crate::receiver::{Receiver, dispatcher, local, notifications, pruner, subscribe};
use crate::support::TestApp;

const TWO_DAYS: Duration = Duration::from_secs(2 * 24 * 3600);

fn two_days() -> Retention {
    Retention::new(TWO_DAYS).expect("valid")
}

/// How long from now the pruner claims again.
async fn next_in(h: &TestApp, pruner: &Runner<Pruner>) -> time::Duration {
    let due = pruner
        .worker()
        .next_due()
        .await
        .expect("read")
        .expect("due");
    due.as_datetime() - h.clock.now().as_datetime()
}

/// A tracked bill's notifications, each delivered to a receiver that took it.
async fn delivered(h: &TestApp) -> (Receiver, Vec<WebhookNotification>) {
    let (receiver, url) = Receiver::start(&[]).await;
    subscribe(h, &url, &[]).await;
    h.test_bill("TEST-TR-SUCCEEDED").await;
    h.drain().await;
    dispatcher(h, local())
        .run_until_idle()
        .await
        .expect("delivered");
    let delivered = notifications(h).await;
    assert!(!delivered.is_empty());
    assert_eq!(receiver.got().len(), delivered.len());
    assert!(
        delivered
            .iter()
            .all(|n| n.delivery_status == DeliveryStatus::Succeeded)
    );
    (receiver, delivered)
}

pub async fn the_delivery_log_forgets_settled_notifications_after_the_retention(h: TestApp) {
    let (receiver, delivered) = delivered(&h).await;
    let settled = delivered.iter().map(|n| n.updated_at).min().expect("one");

    let pruner = pruner(&h, two_days(), PRUNE_BATCH);
    assert_eq!(pruner.run_until_idle().await.expect("pruned"), 0);
    assert_eq!(
        pruner.worker().next_due().await.expect("read"),
        Some(settled + TWO_DAYS),
        "due when the oldest has been kept two days"
    );
    h.advance(time::Duration::days(2));
    assert_eq!(pruner.run_until_idle().await.expect("pruned"), 0);
    assert_eq!(notifications(&h).await.len(), delivered.len());

    h.advance(time::Duration::seconds(1));
    assert_eq!(
        pruner.run_until_idle().await.expect("pruned"),
        1,
        "one batch"
    );
    assert!(notifications(&h).await.is_empty());
    assert_eq!(pruner.worker().next_due().await.expect("read"), None);
    assert_eq!(receiver.got().len(), delivered.len(), "nothing sent again");
}

pub async fn a_refused_batch_pauses_the_pruner_for_a_minute(h: TestApp) {
    let delivered = delivered(&h).await.1.len();
    h.database.refuse_deletes("webhook_notifications").await;
    h.advance(time::Duration::days(3));

    let pruner = pruner(&h, two_days(), PRUNE_BATCH);
    // One batch tried and refused; the runner is then idle, not trying again at once.
    assert_eq!(pruner.run_until_idle().await.expect("idle"), 1);
    assert_eq!(pruner.run_until_idle().await.expect("idle"), 0);
    assert_eq!(next_in(&h, &pruner).await, time::Duration::seconds(60));
    assert_eq!(notifications(&h).await.len(), delivered);

    h.advance(time::Duration::seconds(59));
    assert_eq!(pruner.run_until_idle().await.expect("idle"), 0);
    h.advance(time::Duration::seconds(1));
    assert_eq!(
        pruner.run_until_idle().await.expect("idle"),
        1,
        "tried again"
    );
    assert_eq!(notifications(&h).await.len(), delivered);
}

pub async fn a_backlog_goes_a_batch_at_a_time_with_a_pause_after_each_full_one(h: TestApp) {
    let delivered = delivered(&h).await.1.len();
    assert!(delivered > 4, "more than a batch");
    h.advance(time::Duration::days(3));
    let pruner = pruner(&h, two_days(), 4);
    let pause = time::Duration::try_from(BETWEEN_BATCHES).expect("short");
    let mut left = delivered;
    while left > 0 {
        assert_eq!(
            pruner.run_until_idle().await.expect("pruned"),
            1,
            "one batch"
        );
        let forgotten = left.min(4);
        left -= forgotten;
        assert_eq!(notifications(&h).await.len(), left);
        if forgotten < 4 {
            break;
        }
        // A full batch: the next waits for the pause.
        assert_eq!(next_in(&h, &pruner).await, pause);
        h.advance(pause - time::Duration::milliseconds(1));
        assert_eq!(pruner.run_until_idle().await.expect("pruned"), 0, "paused");
        h.advance(time::Duration::milliseconds(1));
    }
    assert_eq!(notifications(&h).await.len(), 0);
    // Once the pause has passed, nothing is due: the pruner sleeps its poll, not a few
    // milliseconds at a time.
    h.advance(pause);
    assert_eq!(pruner.run_until_idle().await.expect("pruned"), 0);
    assert_eq!(pruner.worker().next_due().await.expect("read"), None);
}

pub async fn two_pruners_sharing_a_database_forget_everything_without_a_failure(h: TestApp) {
    let delivered = delivered(&h).await.1.len();
    h.advance(time::Duration::days(3));
    let (one, two) = (pruner(&h, two_days(), 3), pruner(&h, two_days(), 3));
    let pause = time::Duration::try_from(BETWEEN_BATCHES).expect("short");
    for _ in 0..delivered {
        let (a, b) = tokio::join!(one.run_until_idle(), two.run_until_idle());
        assert!(a.expect("one") + b.expect("two") > 0, "a batch each time");
        if notifications(&h).await.is_empty() {
            break;
        }
        h.advance(pause);
    }
    assert!(notifications(&h).await.is_empty());
    // Neither stopped for a minute after a failed batch.
    for pruner in [&one, &two] {
        let due = pruner.worker().next_due().await.expect("read");
        assert!(due.is_none_or(|due| due <= h.clock.now() + BETWEEN_BATCHES));
    }
}
