//! Many deliveries at once: a thousand events through two dispatchers (two processes'
//! worth, each with its own connections) to a receiver that fails 30 % of its requests.

use std::collections::HashMap;
use std::sync::Arc;

use tidemark_domain::Clock;
use tidemark_domain::webhook::{DeliveryStatus, WebhookNotification};
use tidemark_store::{NotificationFilter, PageRequest};
use tidemark_workers::{Dispatcher, DispatcherSettings, Runner, RunnerSettings};

use crate::receiver::{Receiver, local, settings, subscribe};
use crate::support::TestApp;

async fn every_notification(h: &TestApp) -> Vec<WebhookNotification> {
    let mut all = Vec::new();
    for number in 1.. {
        let page = h
            .store
            .list_webhook_notifications(
                h.account.id,
                &NotificationFilter::default(),
                PageRequest::new(number, 100),
            )
            .await
            .expect("list");
        let done = page.items.len() < 100;
        all.extend(page.items);
        if done {
            break;
        }
    }
    all
}

/// A dispatcher of its own on the harness's database, 16 deliveries at a time.
async fn dispatcher(h: &TestApp) -> Arc<Runner<Dispatcher>> {
    let dispatcher = Dispatcher::new(
        h.database.connect().await,
        Arc::clone(&h.clock) as Arc<dyn Clock>,
        DispatcherSettings {
            per_webhook: 16,
            networks: Arc::new(local()),
            ..settings()
        },
    )
    .expect("dispatcher");
    Arc::new(Runner::new(
        Arc::new(dispatcher),
        Arc::clone(&h.clock) as Arc<dyn Clock>,
        RunnerSettings {
            concurrency: 16,
            ..RunnerSettings::default()
        },
    ))
}

pub async fn a_thousand_events_reach_a_receiver_failing_thirty_percent(h: TestApp) {
    // 3 of every 10 requests fail; a message fails at most 3 times, so each gets through
    // within the schedule (a receiver failing at random could fail one 8 times running).
    let (receiver, url, flaky) = Receiver::flaky(10, 3, 3).await;
    subscribe(&h, &url, &[]).await;
    let mut events = 0;
    let mut next = 0;
    while events < 1000 {
        for _ in 0..25 {
            h.open("bill_of_lading", &format!("7710{next:05}"), Some("MAEU"))
                .await;
            next += 1;
        }
        h.drain().await;
        events = h
            .store
            .domain_events(h.account.id)
            .await
            .expect("events")
            .len();
    }

    let runners = [dispatcher(&h).await, dispatcher(&h).await];
    // Both dispatchers work what is due; then the clock moves to the next retry.
    for _ in 0..20 {
        let (first, second) =
            tokio::join!(runners[0].run_until_idle(), runners[1].run_until_idle());
        first.expect("drained");
        second.expect("drained");
        let Some(due) = h.store.next_notification_due().await.expect("next") else {
            break;
        };
        let wait = due.as_datetime() - h.clock.now().as_datetime();
        if wait.is_positive() {
            h.advance(wait);
        }
    }

    let notifications = every_notification(&h).await;
    assert_eq!(notifications.len(), events, "one per event");
    let mut requests: HashMap<String, usize> = HashMap::new();
    for (headers, body) in receiver.got() {
        let id = headers["webhook-id"].to_str().expect("id").to_owned();
        let document: serde_json::Value = serde_json::from_slice(&body).expect("json");
        assert_eq!(document["data"]["id"], id.as_str());
        *requests.entry(id).or_default() += 1;
    }
    let failures = flaky.failures();
    for notification in &notifications {
        let id = notification.id.to_string();
        assert_eq!(
            notification.delivery_status,
            DeliveryStatus::Succeeded,
            "{id}"
        );
        let sent = requests.get(&id).copied().unwrap_or(0);
        let failed = failures.get(&id).copied().unwrap_or(0);
        assert_eq!(sent, failed + 1, "{id}: delivered once, after its failures");
        assert_eq!(
            usize::try_from(notification.attempts).expect("small"),
            sent,
            "{id}: every request is a logged attempt"
        );
    }
    assert_eq!(requests.len(), notifications.len(), "nothing else was sent");
    let total: usize = requests.values().sum();
    let failed: usize = failures.values().sum();
    let share = failed as f64 / total as f64;
    assert!((0.2..=0.31).contains(&share), "{failed} of {total} failed");
}
