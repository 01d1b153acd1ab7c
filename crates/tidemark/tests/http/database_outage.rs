//! A database out of reach (api.md, Errors): a request whose connection the server cut
//! answers 503 `database_unavailable` with `Retry-After` at once, never 500; the next ones
//! are served again on fresh connections. PostgreSQL only: SQLite has no server to lose.

use std::time::{Duration, Instant};

use tidemark_store::testing::Backend;

use crate::common::TestApp;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    not(tidemark_postgres_tests),
    ignore = "set TIDEMARK_TEST_DATABASE_URL to run the PostgreSQL suite"
)]
async fn a_cut_connection_is_a_quick_503_and_the_next_request_is_served() {
    let app = TestApp::spawn(Backend::Postgres).await.expect("app");
    assert_eq!(app.get("/v2/tracking_requests").await.status(), 200);
    app.database.cut_connections().await;
    let mut unavailable = 0;
    for _ in 0..12 {
        let started = Instant::now();
        let response = app.get("/v2/tracking_requests").await;
        assert!(
            started.elapsed() < Duration::from_secs(2),
            "answered at once"
        );
        match response.status().as_u16() {
            200 => {}
            503 => {
                unavailable += 1;
                assert_eq!(response.headers()["retry-after"], "2");
                let body: serde_json::Value = response.json().await.expect("JSON:API");
                assert_eq!(body["errors"][0]["code"], "database_unavailable");
                assert_eq!(body["errors"][0]["status"], "503");
            }
            other => panic!("a cut connection answered {other}"),
        }
    }
    assert!(unavailable >= 1, "the cut was noticed");
    assert_eq!(
        app.get("/v2/tracking_requests").await.status(),
        200,
        "served again on a fresh connection"
    );
    let ready = app.get("/readyz").await;
    assert_eq!(ready.status(), 200);
}
