//! A database out of reach or full (api.md, Errors). PostgreSQL (SQLite has no server to
//! lose): a request whose pooled connection the server cut is served on a fresh one, read
//! or written again, never a 500 or a 503; a commit whose answer was lost answers 503
//! saying the change may have been kept, and it was, once. A write to a full database
//! answers 507 `storage_full` while reads go on.

use std::time::{Duration, Instant};

use serde_json::Value;
use tidemark_store::testing::{Backend, TestDatabase};

use crate::common::relay::Relay;
use crate::common::{TestApp, document, tracking_request};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    not(tidemark_postgres_tests),
    ignore = "set TIDEMARK_TEST_DATABASE_URL to run the PostgreSQL suite"
)]
async fn cut_connections_are_read_and_written_again_on_fresh_ones() {
    let app = TestApp::spawn(Backend::Postgres).await;
    // Several pooled connections, all of which the server then ends.
    let warm: Vec<_> = (0..6).map(|_| app.get("/v2/tracking_requests")).collect();
    for response in futures::future::join_all(warm).await {
        assert_eq!(response.status(), 200);
    }
    app.database.cut_connections().await;
    for _ in 0..6 {
        let started = Instant::now();
        let response = app.get("/v2/tracking_requests").await;
        assert!(
            started.elapsed() < Duration::from_secs(2),
            "answered at once"
        );
        assert_eq!(response.status(), 200, "read again on a fresh connection");
    }
    app.database.cut_connections().await;
    for n in 0..6 {
        let body = tracking_request("bill_of_lading", &format!("TEST-CUT-{n}"), "TEST");
        let response = app.create(&body).await;
        assert_eq!(
            response.status(),
            201,
            "written again on a fresh connection"
        );
    }
    let list = document(app.get("/v2/tracking_requests").await).await;
    assert_eq!(list["meta"]["total"], 6, "each create kept once: {list}");
    assert_eq!(app.get("/readyz").await.status(), 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    not(tidemark_postgres_tests),
    ignore = "set TIDEMARK_TEST_DATABASE_URL to run the PostgreSQL suite"
)]
async fn a_commit_whose_answer_is_lost_says_it_may_have_been_kept() {
    let mut database = TestDatabase::create(Backend::Postgres).await;
    let relay = Relay::between(&mut database).await;
    let app = TestApp::on(database).spawn().await;
    assert_eq!(app.get("/v2/tracking_requests").await.status(), 200);

    relay.cut_after_next_commit();
    let body = tracking_request("bill_of_lading", "TEST-LOST-ANSWER", "TEST");
    let response = app.create(&body).await;
    assert_eq!(response.status(), 503);
    assert_eq!(response.headers()["retry-after"], "2");
    let answer: Value = response.json().await.expect("JSON:API");
    assert_eq!(answer["errors"][0]["code"], "database_unavailable");
    let detail = answer["errors"][0]["detail"].as_str().unwrap_or_default();
    assert!(detail.contains("may have been kept"), "{answer}");

    // It was kept, once: never written again blindly. The server runs the commit it
    // received on its own time (the client's side was gone): polled with a deadline.
    let path = "/v2/tracking_requests?filter[request_number]=TEST-LOST-ANSWER";
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    let list = loop {
        let list = document(app.get(path).await).await;
        if list["meta"]["total"] != 0 || std::time::Instant::now() > deadline {
            break list;
        }
        // Each read is a round trip to the server: the poll paces itself.
        tokio::task::yield_now().await;
    };
    assert_eq!(list["meta"]["total"], 1, "{list}");
    // The client's retry finds it.
    let again = app.create(&body).await;
    assert_eq!(again.status(), 422, "the open request is a duplicate");
}

/// SQLite at its size limit: creates answer 507 `storage_full`, reads 200, `/readyz` 503
/// saying why, and `/metrics` counts the refusals.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_database_refuses_writes_with_507_and_keeps_reading() {
    let mut database = tidemark_store::testing::TestDatabase::create(Backend::Sqlite).await;
    database.options.sqlite_max_bytes = Some(1);
    let app = TestApp::on(database).spawn().await;
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
