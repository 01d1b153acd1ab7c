//! The dispatchers the dispatcher's tests run, and the test kit's webhook receiver.
#![allow(
    dead_code,
    reason = "shared by several test binaries, each of which uses part of it"
)]

use std::sync::Arc;

use std::time::Duration;

use tidemark_domain::Clock;
use tidemark_domain::webhook::{Networks, Retention, RetrySchedule, Webhook, WebhookDraft};
use tidemark_store::NotificationFilter;
use tidemark_workers::{
    Dispatcher, DispatcherSettings, HostResolver, Pruner, Runner, RunnerSettings,
};

use crate::support::TestApp;

pub use tidemark_testkit::Receiver;

pub fn local() -> Networks {
    Networks::parse_list("127.0.0.0/8,::1/128").expect("networks")
}

pub async fn subscribe(h: &TestApp, url: &str, events: &[&str]) -> Webhook {
    let webhook = WebhookDraft {
        url: Some(url.to_owned()),
        events: Some(events.iter().map(|e| (*e).to_owned()).collect()),
        ..WebhookDraft::default()
    }
    .create(h.account.id, &local(), h.clock.now())
    .expect("a valid webhook");
    h.store.create_webhook(&webhook).await.expect("create");
    webhook
}

pub fn dispatcher(h: &TestApp, networks: Networks) -> Runner<Dispatcher> {
    dispatcher_with(h, networks, Duration::from_secs(5))
}

pub fn dispatcher_with(h: &TestApp, networks: Networks, timeout: Duration) -> Runner<Dispatcher> {
    runner(
        h,
        DispatcherSettings {
            networks: Arc::new(networks),
            timeout,
            ..settings()
        },
    )
}

pub fn dispatcher_resolving(
    h: &TestApp,
    networks: Networks,
    resolver: Arc<dyn HostResolver>,
) -> Runner<Dispatcher> {
    runner(
        h,
        DispatcherSettings {
            networks: Arc::new(networks),
            resolver,
            ..settings()
        },
    )
}

pub fn settings() -> DispatcherSettings {
    DispatcherSettings {
        timeout: Duration::from_secs(5),
        schedule: RetrySchedule {
            jitter: 0.0,
            ..RetrySchedule::default()
        },
        ..DispatcherSettings::default()
    }
}

pub fn runner(h: &TestApp, settings: DispatcherSettings) -> Runner<Dispatcher> {
    let dispatcher = Dispatcher::new(
        Arc::clone(&h.store),
        Arc::clone(&h.clock) as Arc<dyn Clock>,
        settings,
    )
    .expect("dispatcher");
    Runner::new(
        Arc::new(dispatcher),
        Arc::clone(&h.clock) as Arc<dyn Clock>,
        RunnerSettings::default(),
    )
}

/// The delivery log's pruner, keeping `retention`, forgetting at most `batch` at once, on
/// the test's clock.
pub fn pruner(h: &TestApp, retention: Retention, batch: u32) -> Runner<Pruner> {
    let pruner = Pruner::new(Arc::clone(&h.store), retention).with_batch(batch);
    Runner::new(
        Arc::new(pruner),
        Arc::clone(&h.clock) as Arc<dyn Clock>,
        RunnerSettings::default(),
    )
}

pub async fn notifications(h: &TestApp) -> Vec<tidemark_domain::webhook::WebhookNotification> {
    h.store
        .list_webhook_notifications(
            h.account.id,
            &NotificationFilter::default(),
            tidemark_store::PageRequest::new(1, 100),
        )
        .await
        .expect("list")
        .items
}
