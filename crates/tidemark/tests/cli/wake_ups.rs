//! Wake-ups across processes on PostgreSQL: one `tidemark serve` takes and tracks a
//! request, another only dispatches, polling once a minute; the notification the first
//! records reaches the receiver within seconds, because the database announces it
//! (`LISTEN/NOTIFY`) and the dispatcher wakes. The worker-only process answers its
//! readiness and metrics on a port of its own.

use std::time::{Duration, Instant};

use serde_json::json;
use tidemark_store::testing::{Backend, TestDatabase};
use tidemark_testkit::Receiver;

use super::*;

/// PostgreSQL's alone: one process serves a SQLite file, and its workers ring each other
/// in memory.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    not(tidemark_postgres_tests),
    ignore = "set TIDEMARK_TEST_DATABASE_URL to run the PostgreSQL suite"
)]
async fn a_dispatcher_in_another_process_wakes_on_a_notification() {
    let database = TestDatabase::create(Backend::Postgres).await;
    let (receiver, url) = Receiver::start(&[]).await;
    let database_url = database.options.url.clone();
    let env = [
        ("TIDEMARK_DATABASE_URL", database_url.as_str()),
        ("TIDEMARK_WEBHOOK_ALLOWED_NETWORKS", "127.0.0.0/8"),
        ("TIDEMARK_DISPATCHER__POLL", "60s"),
    ];
    let tracking = Served::start(&["--roles", "api,tracker"], &env);
    // A worker-only process answers health and metrics on a port of its own.
    let mut worker_env = env.to_vec();
    worker_env.push(("TIDEMARK_HEALTH_LISTEN", "127.0.0.1:0"));
    let dispatching = Served::start_sharing(
        &["--roles", "dispatcher"],
        &worker_env,
        &tracking.key,
        "health and metrics on http://",
    );
    let ready = reqwest::get(format!("http://{}/readyz", dispatching.address))
        .await
        .expect("readyz");
    assert_eq!(ready.status(), 200);
    let client = reqwest::Client::new();
    let created = client
        .post(format!("http://{}/v2/webhooks", tracking.address))
        .header("Authorization", format!("Token {}", tracking.key))
        .header("Content-Type", "application/vnd.api+json")
        .body(json!({"data": {"type": "webhook", "attributes": {"url": url}}}).to_string())
        .send()
        .await
        .expect("request");
    assert_eq!(created.status(), 201);
    // The first request's news, and then the second's once the dispatcher is idle (it
    // polls once a minute): each must arrive within seconds.
    for number in ["TEST-TR-SUCCEEDED", "TEST-TR-JOURNEY"] {
        let started = Instant::now();
        assert_eq!(tracking.create(number, "TEST").await.status(), 201);
        let heard = || {
            receiver
                .got()
                .iter()
                .any(|(_, body)| String::from_utf8_lossy(body).contains(number))
        };
        let what = || {
            format!(
                "no delivery of {number}: the dispatcher did not wake (its poll is a minute)\n{}",
                dispatching.log()
            )
        };
        tidemark_testkit::poll_until(started, Duration::from_secs(10), what, || async { heard() })
            .await;
    }
    let metrics = reqwest::get(format!("http://{}/metrics", dispatching.address))
        .await
        .expect("metrics")
        .text()
        .await
        .expect("text");
    assert!(
        metrics.lines().any(|line| {
            line.starts_with("tidemark_webhook_deliveries_total{")
                && line.contains("webhook=\"")
                && line.contains("outcome=\"succeeded\"")
        }),
        "{metrics}"
    );
    drop(dispatching);
}
