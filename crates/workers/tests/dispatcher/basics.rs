//! The cases: signing, the schedule, the address guard, crashes and timeouts.

use std::future::Future;
use std::net::IpAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use tidemark_domain::Clock;
use tidemark_domain::webhook::{DeliveryStatus, Networks, Webhook};
use tidemark_workers::{DispatcherSettings, HostResolver};

use crate::receiver::{
    Receiver, dispatcher, dispatcher_resolving, dispatcher_with, local, notifications, subscribe,
};
use crate::support::TestApp;

pub async fn deliveries_are_signed_and_verified_by_an_independent_library(h: TestApp) {
    let (receiver, url, gate) = Receiver::held().await;
    let webhook = subscribe(&h, &url, &[]).await;
    h.test_bill("TEST-TR-SUCCEEDED").await;
    h.drain().await;
    let recorded = notifications(&h).await;
    assert!(recorded.len() > 1, "the success and the milestones reached");

    // A receiver that holds its requests gets four at once, no more; the rest are
    // given back for a second later.
    let runner = Arc::new(dispatcher(&h, local()));
    let started = h.clock.now().unix_seconds();
    let first = tokio::spawn({
        let runner = Arc::clone(&runner);
        async move { runner.run_until_idle().await }
    });
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    // `most_open` is raised just after `open`: wait on the figure the test then reads.
    while receiver.most_open.load(Ordering::SeqCst) < 4 {
        assert!(
            tokio::time::Instant::now() < deadline,
            "four deliveries start"
        );
        tokio::task::yield_now().await;
    }
    assert_eq!(receiver.most_open.load(Ordering::SeqCst), 4);
    gate.send_replace(true);
    first.await.expect("task").expect("drained");
    for _ in 0..=recorded.len() {
        if receiver.got().len() == recorded.len() {
            break;
        }
        h.advance(time::Duration::seconds(1));
        runner.run_until_idle().await.expect("drained");
    }
    let most = receiver.most_open.load(Ordering::SeqCst);
    assert_eq!(most, 4, "{most} at once");
    let got = receiver.got();
    assert_eq!(got.len(), recorded.len(), "each once");

    let verifier = standardwebhooks::Webhook::new(webhook.secret.expose()).expect("secret");
    for (headers, body) in &got {
        // The library checks timestamps against the machine's clock, and the test's
        // clock is elsewhere; so it signs the same id, timestamp and body itself and
        // must reach the header we sent.
        let id = headers["webhook-id"].to_str().expect("id");
        let timestamp: i64 = headers["webhook-timestamp"]
            .to_str()
            .expect("text")
            .parse()
            .expect("number");
        assert!((started..=h.clock.now().unix_seconds()).contains(&timestamp));
        let expected = verifier.sign(id, timestamp, body).expect("signs");
        assert_eq!(
            headers["webhook-signature"].to_str().expect("text"),
            expected
        );
        assert_eq!(
            headers["x-tidemark-signature"].to_str().expect("text"),
            webhook.secret.hex_signature(body)
        );
        let document: serde_json::Value = serde_json::from_slice(body).expect("json");
        assert_eq!(document["data"]["type"], "webhook_notification");
        assert_eq!(document["data"]["id"], id);
        assert_eq!(
            document["data"]["relationships"]["webhook"]["data"]["id"],
            webhook.id.to_string()
        );
        assert!(!format!("{headers:?}").contains(webhook.secret.expose()));
    }
    assert!(
        notifications(&h)
            .await
            .iter()
            .all(|n| n.delivery_status == DeliveryStatus::Succeeded && n.attempts == 1)
    );
    assert_eq!(
        runner.run_until_idle().await.expect("drained"),
        0,
        "nothing twice"
    );
}

pub async fn failures_follow_the_schedule_and_gone_turns_the_webhook_off(h: TestApp) {
    // 500, 503, then 200.
    let (receiver, url) = Receiver::start(&[500, 503]).await;
    subscribe(&h, &url, &["tracking_request.succeeded"]).await;
    h.test_bill("TEST-TR-SUCCEEDED").await;
    h.drain().await;
    let runner = dispatcher(&h, local());

    assert_eq!(runner.run_until_idle().await.expect("drained"), 1);
    let after_one = notifications(&h).await;
    assert_eq!(after_one[0].delivery_status, DeliveryStatus::Pending);
    assert_eq!(after_one[0].attempts, 1);
    let first = h.clock.now();
    assert_eq!(
        after_one[0].due_at.map(|d| d.unix_seconds()),
        Some(first.unix_seconds() + 5)
    );
    h.advance(time::Duration::seconds(4));
    assert_eq!(
        runner.run_until_idle().await.expect("drained"),
        0,
        "not before 5 s"
    );
    h.advance(time::Duration::seconds(1));
    assert_eq!(runner.run_until_idle().await.expect("drained"), 1);
    let after_two = notifications(&h).await;
    assert_eq!(after_two[0].attempts, 2);
    assert_eq!(
        after_two[0].due_at.map(|d| d.unix_seconds()),
        Some(h.clock.now().unix_seconds() + 300)
    );
    h.advance(time::Duration::seconds(300));
    assert_eq!(runner.run_until_idle().await.expect("drained"), 1);
    let delivered = notifications(&h).await;
    assert_eq!(delivered[0].delivery_status, DeliveryStatus::Succeeded);
    assert_eq!(delivered[0].attempts, 3);
    assert_eq!(receiver.got().len(), 3);

    // A receiver that is gone turns its webhook off; its work waits, undelivered.
    let (gone, gone_url) = Receiver::start(&[410]).await;
    let webhook = subscribe(&h, &gone_url, &["tracking_request.succeeded"]).await;
    h.test_bill("TEST-TR-RETRY").await;
    for _ in 0..3 {
        h.drain().await;
        h.advance(time::Duration::minutes(10));
    }
    runner.run_until_idle().await.expect("drained");
    assert_eq!(gone.got().len(), 1);
    let off = h
        .store
        .webhook(h.account.id, webhook.id)
        .await
        .expect("read")
        .expect("exists");
    assert!(!off.active);
    assert_eq!(
        off.disabled_reason.as_deref(),
        Some("the receiver answered 410 Gone")
    );
}

/// Names looked up in a fixed table instead of DNS.
#[derive(Debug)]
struct Hosts(Vec<(&'static str, Vec<IpAddr>)>);

impl HostResolver for Hosts {
    fn resolve<'a>(
        &'a self,
        host: &'a str,
    ) -> Pin<Box<dyn Future<Output = std::io::Result<Vec<IpAddr>>> + Send + 'a>> {
        let found = self
            .0
            .iter()
            .find(|(name, _)| *name == host)
            .map(|(_, addresses)| addresses.clone());
        Box::pin(async move {
            found.ok_or_else(|| std::io::Error::new(std::io::ErrorKind::NotFound, "no such host"))
        })
    }
}

fn hosts() -> Arc<dyn HostResolver> {
    let ip = |text: &str| text.parse::<IpAddr>().expect("address");
    Arc::new(Hosts(vec![
        ("hooks.example.com", vec![ip("127.0.0.1")]),
        ("metadata.example.com", vec![ip("169.254.169.254")]),
        // One allowed address among refused ones is the only one used.
        (
            "mixed.example.com",
            vec![ip("169.254.169.254"), ip("127.0.0.1")],
        ),
    ]))
}

pub async fn names_resolving_to_internal_addresses_are_refused_by_default(h: TestApp) {
    let (receiver, url) = Receiver::start(&[]).await;
    let on = |name: &str| url.replace("127.0.0.1", name);
    let succeeded = ["tracking_request.succeeded"];
    let loopback = subscribe(&h, &on("hooks.example.com"), &succeeded).await;
    let metadata = subscribe(&h, &on("metadata.example.com"), &succeeded).await;
    let mixed = subscribe(&h, &on("mixed.example.com"), &succeeded).await;
    h.test_bill("TEST-TR-SUCCEEDED").await;
    h.drain().await;

    // By default, a name resolving to loopback or to the metadata address is refused
    // before any connection.
    let strict = dispatcher_resolving(&h, Networks::public_only(), hosts());
    assert_eq!(strict.run_until_idle().await.expect("drained"), 3);
    assert!(receiver.got().is_empty(), "nothing reached the receiver");
    let recorded = notifications(&h).await;
    assert_eq!(recorded.len(), 3);
    for notification in &recorded {
        assert_eq!(notification.delivery_status, DeliveryStatus::Pending);
        assert_eq!(notification.attempts, 1, "refused, and scheduled again");
    }
    let ids: Vec<_> = recorded.iter().map(|n| n.id).collect();
    let attempts = h
        .store
        .notification_attempts(h.account.id, &ids)
        .await
        .expect("attempts");
    assert_eq!(attempts.len(), 3);
    for logged in &attempts {
        assert_eq!(logged.attempt.status_code, None);
        let error = logged.attempt.error.as_deref().unwrap_or_default();
        assert!(
            error.contains("may not reach") || error.contains("error sending request"),
            "{error}"
        );
    }

    // With loopback allowed, the loopback name and the mixed one (through its loopback
    // address) arrive; the metadata address stays refused.
    h.advance(time::Duration::seconds(5));
    let allowing = dispatcher_resolving(&h, local(), hosts());
    assert_eq!(allowing.run_until_idle().await.expect("drained"), 3);
    assert_eq!(receiver.got().len(), 2);
    let status_of = |webhook: &Webhook| {
        recorded
            .iter()
            .find(|n| n.webhook_id == webhook.id)
            .map(|n| n.id)
            .expect("its notification")
    };
    for (webhook, expected) in [
        (&loopback, DeliveryStatus::Succeeded),
        (&mixed, DeliveryStatus::Succeeded),
        (&metadata, DeliveryStatus::Pending),
    ] {
        let notification = h
            .store
            .webhook_notification(h.account.id, status_of(webhook))
            .await
            .expect("read")
            .expect("exists");
        assert_eq!(notification.delivery_status, expected, "{}", webhook.url);
    }

    // The system resolver behaves the same: "localhost" is loopback, refused by default.
    let (direct, direct_url) = Receiver::start(&[]).await;
    let by_name = direct_url.replace("127.0.0.1", "localhost");
    subscribe(&h, &by_name, &["tracking_request.awaiting_manifest"]).await;
    h.test_bill("TEST-TR-NOT-FOUND").await;
    h.drain().await;
    let strict = dispatcher(&h, Networks::public_only());
    assert_eq!(strict.run_until_idle().await.expect("drained"), 1);
    assert!(direct.got().is_empty());
}

pub async fn a_dispatcher_that_dies_holding_deliveries_loses_none(h: TestApp) {
    let (receiver, url) = Receiver::start(&[]).await;
    subscribe(&h, &url, &[]).await;
    h.test_bill("TEST-TR-SUCCEEDED").await;
    h.drain().await;
    let recorded = notifications(&h).await;

    // A dispatcher claims everything and dies before sending anything.
    let lease = DispatcherSettings::default().lease;
    let held = h
        .store
        .claim_notifications(100, 100, lease, h.clock.now())
        .await
        .expect("claim");
    assert_eq!(held.len(), recorded.len());
    let runner = dispatcher(&h, local());
    assert_eq!(runner.run_until_idle().await.expect("drained"), 0, "held");
    assert!(receiver.got().is_empty());

    // Its leases run out; another dispatcher delivers each once.
    h.advance(time::Duration::seconds(61));
    for _ in 0..=recorded.len() {
        runner.run_until_idle().await.expect("drained");
        if receiver.got().len() >= recorded.len() {
            break;
        }
        h.advance(time::Duration::seconds(1));
    }
    assert_eq!(receiver.got().len(), recorded.len());
    assert!(
        notifications(&h)
            .await
            .iter()
            .all(|n| n.delivery_status == DeliveryStatus::Succeeded && n.attempts == 1)
    );
    // The dead dispatcher's late answers change nothing.
    for claimed in &held {
        let attempt = tidemark_domain::webhook::Attempt {
            at: h.clock.now(),
            status_code: Some(500),
            error: None,
            latency_ms: 1,
            response_body: None,
        };
        assert!(
            !h.store
                .settle_notification(
                    claimed,
                    &attempt,
                    &tidemark_domain::webhook::Settlement::Failed,
                    h.clock.now(),
                )
                .await
                .expect("settle")
        );
    }
}

pub async fn a_receiver_slower_than_the_timeout_is_a_failed_attempt(h: TestApp) {
    // The receiver never answers; the dispatcher waits 300 ms.
    let (_receiver, url, _gate) = Receiver::held().await;
    subscribe(&h, &url, &["tracking_request.succeeded"]).await;
    h.test_bill("TEST-TR-SUCCEEDED").await;
    h.drain().await;
    let runner = dispatcher_with(&h, local(), Duration::from_millis(300));
    assert_eq!(runner.run_until_idle().await.expect("drained"), 1);
    let after = notifications(&h).await;
    assert_eq!(after[0].delivery_status, DeliveryStatus::Pending);
    assert_eq!(after[0].attempts, 1);
    assert_eq!(
        after[0].due_at.map(|d| d.unix_seconds()),
        Some(h.clock.now().unix_seconds() + 5),
        "retried on the schedule"
    );
}
