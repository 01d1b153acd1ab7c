//! Readiness: a worker whose loop has stopped turning makes the process not ready.

use std::time::Duration;

use serde_json::Value;
use tidemark_store::testing::Backend;

/// A worker whose loop has stopped turning makes the process not ready, saying which;
/// `operations_router` (a worker-only process's health port) answers the same.
#[tokio::test]
async fn a_stalled_worker_makes_the_process_not_ready() {
    use std::sync::Arc;
    use tidemark::app;
    use tidemark_workers::Heartbeat;

    let database = tidemark_store::testing::TestDatabase::create(Backend::Sqlite).await;
    let store = database.connect().await;
    let clock = app::system_clock();
    let turning = Arc::new(Heartbeat::with_limit(
        "dispatcher",
        Duration::from_secs(3600),
    ));
    turning.beat();
    // Never beaten, and allowed no silence: stalled as soon as any time has passed.
    let stalled = Arc::new(Heartbeat::with_limit("tracker", Duration::ZERO));
    for stuck in [false, true] {
        let mut loops = vec![Arc::clone(&turning)];
        if stuck {
            loops.push(Arc::clone(&stalled));
        }
        let state = hand_built(&store, &clock, app::Loops(loops));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let base = format!("http://{}", listener.local_addr().expect("address"));
        let shutdown = tokio_util::sync::CancellationToken::new();
        let served = tokio::spawn(app::serve(
            listener,
            tidemark_api::operations_router(state),
            shutdown.clone(),
            app::ServerSettings::default(),
        ));
        let ready = reqwest::get(format!("{base}/readyz")).await.expect("ready");
        if stuck {
            assert_eq!(ready.status(), 503);
            let body: Value = ready.json().await.expect("json");
            let detail = body["errors"][0]["detail"].as_str().unwrap_or_default();
            assert!(detail.contains("tracker"), "{body}");
        } else {
            assert_eq!(ready.status(), 200);
        }
        let health = reqwest::get(format!("{base}/healthz"))
            .await
            .expect("health");
        assert_eq!(health.status(), 200, "alive either way");
        let metrics = reqwest::get(format!("{base}/metrics"))
            .await
            .expect("metrics");
        assert_eq!(metrics.status(), 200);
        let missing = reqwest::get(format!("{base}/v2/tracking_requests"))
            .await
            .expect("api");
        assert_eq!(missing.status(), 404, "no API on the health port");
        shutdown.cancel();
        served.await.expect("joins").expect("serves");
    }
}

/// The API's state over `store`, its readiness from `loops`: built by hand, unlike every
/// other test's, because a stalled loop is a heartbeat no running worker would give within
/// a test's time (30 s of silence at least).
fn hand_built(
    store: &std::sync::Arc<dyn tidemark_store::Store>,
    clock: &std::sync::Arc<dyn tidemark_domain::Clock>,
    loops: tidemark::app::Loops,
) -> tidemark_api::AppState {
    use std::sync::Arc;
    let matrix = Arc::new(tidemark_domain::CarrierMatrix::bundled().expect("carriers"));
    let sender = tidemark_workers::Sender::new(
        tidemark_workers::DispatcherSettings::default(),
        Arc::clone(clock),
    )
    .expect("sender");
    tidemark_api::AppState::new(tidemark_api::Parts {
        store: Arc::clone(store),
        carriers: Arc::clone(&matrix),
        config: tidemark_api::ApiConfig::default(),
        clock: Arc::clone(clock),
        tracking: tidemark_app::Tracking::new(
            Arc::clone(store),
            Arc::clone(&matrix),
            Arc::clone(clock),
            tidemark_domain::lifecycle::Policy::default(),
        ),
        webhooks: tidemark_app::Webhooks::new(
            Arc::clone(store),
            Arc::clone(clock),
            matrix,
            Arc::new(sender),
            tidemark_domain::webhook::DEFAULT_SECRET_GRACE,
        ),
        callbacks: None,
        workers: Some(Arc::new(loops)),
    })
}
