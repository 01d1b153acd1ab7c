//! PostgreSQL stopped (api.md, Errors): the app reaches its database through a TCP relay
//! the test owns; closing the relay is the server going away (every connection cut, new
//! ones refused). A request that needs the database answers 503 JSON:API within 2 s,
//! `/readyz` within 1 s; opened again, the relay brings service back with no restart.

use std::time::{Duration, Instant};

use tidemark_store::testing::{Backend, TestDatabase};

use crate::common::TestApp;
use crate::common::relay::Relay;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    not(tidemark_postgres_tests),
    ignore = "set TIDEMARK_TEST_DATABASE_URL to run the PostgreSQL suite"
)]
async fn a_stopped_database_is_a_quick_503_and_service_comes_back() {
    let mut database = TestDatabase::create(Backend::Postgres).await;
    let mut relay = Relay::between(&mut database).await;
    let app = TestApp::on(database).spawn().await;
    assert_eq!(app.get("/v2/tracking_requests").await.status(), 200);

    relay.close();
    for _ in 0..3 {
        let response = app
            .get_within("/v2/tracking_requests", Duration::from_secs(2))
            .await;
        assert_eq!(response.status(), 503);
        let body: serde_json::Value = response.json().await.expect("JSON:API");
        assert_eq!(body["errors"][0]["code"], "database_unavailable");
    }
    // No readiness check ran before: this one asks the dead database, within its bound.
    let ready = app.get_within("/readyz", Duration::from_secs(1)).await;
    assert_eq!(ready.status(), 503);

    relay.open().await;
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let status = app.get("/v2/tracking_requests").await.status().as_u16();
        if status == 200 {
            break;
        }
        assert_eq!(status, 503, "never a 500 on the way back");
        assert!(Instant::now() < deadline, "service came back");
    }
}
