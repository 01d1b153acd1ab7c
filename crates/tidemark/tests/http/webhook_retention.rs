//! The delivery log's retention seen through the API: a settled notification is listed and
//! read until the retention has passed since it last changed, then it is 404 and no list
//! shows it; a pending one stays.

use serde_json::{Value, json};
use tidemark_domain::Clock;
use tidemark_domain::webhook::{Attempt, Retention, Settlement};

use crate::common::{TestApp, document, errors};
use crate::shipments::track;
use crate::webhook_delivery::subscribed;

use crate::common::with_tracking;

tidemark_store::backends!(
    with_tracking,
    settled_notifications_leave_the_log_after_the_retention,
);

async fn listed(t: &TestApp) -> Vec<String> {
    let list = document(t.get("/v2/webhook_notifications?page[size]=100").await).await;
    let items = list["data"].as_array().cloned().unwrap_or_default();
    items
        .iter()
        .map(|n| n["id"].as_str().expect("id").to_owned())
        .collect()
}

async fn settled_notifications_leave_the_log_after_the_retention(t: TestApp) {
    subscribed(&t, "https://hooks.example.com/t", json!([])).await;
    track(&t, "TEST-TR-SUCCEEDED", "TEST").await;
    let claimed = t.claim_due().await;
    assert!(claimed.len() > 1, "the success and the milestones");
    // All delivered but one, which stays pending.
    let (pending, delivered) = claimed.split_first().expect("some");
    for claim in delivered {
        let attempt = Attempt {
            at: t.clock.now(),
            status_code: Some(204),
            error: None,
            latency_ms: 7,
            response_body: None,
        };
        let settled =
            t.store
                .settle_notification(claim, &attempt, &Settlement::Succeeded, t.clock.now());
        assert!(settled.await.expect("settle"));
    }
    let first = delivered[0].notification.id.to_string();
    let path = format!("/v2/webhook_notifications/{first}?include=webhook_notification_logs");
    let read = document(t.get(&path).await).await;
    assert_eq!(read["data"]["attributes"]["delivery_status"], "succeeded");
    assert_eq!(listed(&t).await.len(), claimed.len());

    // The pruner of the application, with the default retention.
    assert_eq!(t.settings.retention, Retention::default());
    let pruner = t.application().pruner().expect("a pruner");
    t.advance(time::Duration::days(90));
    assert_eq!(pruner.run_until_idle().await.expect("pruned"), 0, "not yet");
    assert_eq!(listed(&t).await.len(), claimed.len());

    t.advance(time::Duration::seconds(1));
    assert_eq!(pruner.run_until_idle().await.expect("pruned"), 1);
    let gone: Vec<Value> = errors(t.get(&path).await, 404).await;
    assert_eq!(gone[0]["status"], "404");
    assert_eq!(listed(&t).await, [pending.notification.id.to_string()]);
}
