//! A receiver that answers fast may have more deliveries in flight: four at first, sixteen
//! once its last four answers were fast 2xx, four again after a slow one.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use tidemark_workers::{DispatcherSettings, RunnerSettings};

use crate::receiver::{Receiver, local, settings, subscribe};
use crate::support::TestApp;

/// Waits, up to ten seconds, until `done` holds.
async fn until(what: &str, done: impl Fn() -> bool) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while !done() {
        assert!(tokio::time::Instant::now() < deadline, "{what}");
        tokio::task::yield_now().await;
    }
}

/// Opens requests until the account has recorded at least `events` events.
async fn record(h: &TestApp, events: usize, next: &mut usize) {
    while h
        .store
        .domain_events(h.account.id)
        .await
        .expect("events")
        .len()
        < events
    {
        h.open("bill_of_lading", &format!("7720{next:05}"), Some("MAEU"))
            .await;
        *next += 1;
        h.drain().await;
    }
}

pub async fn a_fast_receiver_gets_sixteen_deliveries_in_flight_and_a_slow_one_four(h: TestApp) {
    let (receiver, url, gate) = Receiver::held().await;
    subscribe(&h, &url, &[]).await;
    let mut next = 0;
    record(&h, 5, &mut next).await;
    let dispatcher = tidemark_workers::Dispatcher::new(
        Arc::clone(&h.store),
        Arc::clone(&h.clock) as Arc<dyn tidemark_domain::Clock>,
        DispatcherSettings {
            networks: Arc::new(local()),
            // Every answer counts as fast here, however long the test holds it.
            fast_within: Duration::from_secs(3600),
            ..settings()
        },
    )
    .expect("dispatcher");
    let runner = Arc::new(tidemark_workers::Runner::new(
        Arc::new(dispatcher),
        Arc::clone(&h.clock) as Arc<dyn tidemark_domain::Clock>,
        RunnerSettings {
            concurrency: 32,
            ..RunnerSettings::default()
        },
    ));
    let run = || {
        let runner = Arc::clone(&runner);
        tokio::spawn(async move { runner.run_until_idle().await })
    };
    // Not known yet: four at once; then every one answered.
    let running = run();
    until("four deliveries start", || {
        receiver.most_open.load(Ordering::SeqCst) >= 4
    })
    .await;
    assert_eq!(receiver.most_open.load(Ordering::SeqCst), 4);
    gate.send_replace(true);
    running.await.expect("task").expect("drained");
    // Known fast: with the receiver holding again, sixteen at once, no more.
    gate.send_replace(false);
    let delivered = receiver.got().len();
    record(&h, delivered + 30, &mut next).await;
    let running = run();
    until("sixteen in flight", || {
        receiver.open.load(Ordering::SeqCst) >= 16
    })
    .await;
    assert_eq!(receiver.most_open.load(Ordering::SeqCst), 16);
    gate.send_replace(true);
    running.await.expect("task").expect("drained");
}
