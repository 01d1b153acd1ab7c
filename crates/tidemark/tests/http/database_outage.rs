//! A database out of reach or full (api.md, Errors): a request whose connection the server
//! cut answers 503 `database_unavailable` with `Retry-After` at once, never 500, and the
//! next ones are served again on fresh connections (PostgreSQL: SQLite has no server to
//! lose); a write to a full database answers 507 `storage_full` while reads go on.

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

/// SQLite at its size limit: creates answer 507 `storage_full`, reads 200, `/readyz` 503
/// saying why, and `/metrics` counts the refusals.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_database_refuses_writes_with_507_and_keeps_reading() {
    let mut database = tidemark_store::testing::TestDatabase::create(Backend::Sqlite).await;
    database.options.sqlite_max_bytes = Some(1);
    let app = TestApp::on_database(database).await;
    tidemark_api::metrics::handle();
    let mut refused = None;
    for n in 0..2_000 {
        let number = format!("TEST-FULL-{n}");
        let body = crate::common::tracking_request("bill_of_lading", &number, "TEST");
        let response = app.create(&body).await;
        match response.status().as_u16() {
            201 => {}
            507 => {
                refused = Some(
                    response
                        .json::<serde_json::Value>()
                        .await
                        .expect("JSON:API"),
                );
                break;
            }
            other => panic!("a create answered {other}"),
        }
    }
    let refused = refused.expect("the database filled up");
    assert_eq!(refused["errors"][0]["code"], "storage_full");
    assert_eq!(refused["errors"][0]["status"], "507");
    assert_eq!(
        app.get("/v2/tracking_requests").await.status(),
        200,
        "reads go on"
    );
    let ready = app.get("/readyz").await;
    assert_eq!(ready.status(), 503);
    let why: serde_json::Value = ready.json().await.expect("JSON:API");
    assert!(
        why["errors"][0]["detail"]
            .as_str()
            .is_some_and(|d| d.contains("storage is full")),
        "{why}"
    );
    let metrics = app.get("/metrics").await.text().await.expect("text");
    assert!(
        metrics
            .lines()
            .any(|l| l.starts_with("tidemark_store_full_refusals_total ") && !l.ends_with(" 0")),
        "{metrics}"
    );
}
