//! Bodies with deadlines (api.md §1, Limits): a body that stops arriving, one trickled so
//! slowly it would never end, and an oversized one that stalls while it is discarded are
//! each answered (408 or 413, JSON:API) within their deadlines, and the connection closed.
//! Over raw TCP, where a client library would hide the behaviour.

use std::time::{Duration, Instant};

use tidemark_store::testing::Backend;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::common::TestApp;
use crate::hygiene::read_until_closed as answer;

/// An app whose bodies may pause `idle` and last `total` (each at least a second, as the
/// settings hold them).
async fn app(idle: Duration, total: Duration) -> TestApp {
    TestApp::build(Backend::Sqlite)
        .config(move |config| {
            config.limits.body_idle_timeout = idle;
            config.limits.body_total_timeout = total;
        })
        .spawn()
        .await
}

/// A create's head with `length` declared and the start of its body.
fn head(app: &TestApp, length: usize) -> String {
    format!(
        "POST /v2/tracking_requests HTTP/1.1\r\nHost: tidemark\r\nAuthorization: Token {}\r\n\
         Content-Type: application/vnd.api+json\r\nContent-Length: {length}\r\n\r\n{{\"data\":",
        app.key
    )
}

fn json_api(answer: &str, status: &str, code: &str) {
    assert!(
        answer.starts_with(&format!("HTTP/1.1 {status}")),
        "{answer}"
    );
    assert!(
        answer.contains("content-type: application/vnd.api+json"),
        "{answer}"
    );
    assert!(answer.contains(&format!("\"code\":\"{code}\"")), "{answer}");
    assert!(answer.contains("connection: close"), "{answer}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_that_stops_arriving_is_a_408_and_the_connection_closes() {
    let app = app(Duration::from_millis(300), Duration::from_secs(60)).await;
    let mut stream = TcpStream::connect(app.base.trim_start_matches("http://"))
        .await
        .expect("connects");
    stream
        .write_all(head(&app, 200).as_bytes())
        .await
        .expect("sends");
    let started = Instant::now();
    let (answer, closed) = answer(&mut stream, started + Duration::from_secs(5)).await;
    json_api(&answer, "408", "request_timeout");
    assert!(answer.contains("stopped arriving"), "{answer}");
    assert!(closed, "closed after the 408");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_trickled_past_its_total_deadline_is_cut() {
    let app = app(Duration::from_millis(800), Duration::from_millis(1500)).await;
    let mut stream = TcpStream::connect(app.base.trim_start_matches("http://"))
        .await
        .expect("connects");
    stream
        .write_all(head(&app, 4000).as_bytes())
        .await
        .expect("sends");
    let started = Instant::now();
    // The client sends a byte every 200 ms, well within the idle gap: only the total
    // deadline can end it. Its writes stop with the answer.
    let mut ticks = tokio::time::interval(Duration::from_millis(200));
    let mut buffer = [0_u8; 4096];
    let mut got = Vec::new();
    let closed = loop {
        tokio::select! {
            _ = ticks.tick() => {
                if stream.write_all(b" ").await.is_err() {
                    break true;
                }
            }
            read = stream.read(&mut buffer) => match read {
                Ok(0) | Err(_) => break true,
                Ok(n) => got.extend_from_slice(&buffer[..n]),
            },
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "never cut: {}",
            String::from_utf8_lossy(&got)
        );
    };
    let answer = String::from_utf8_lossy(&got).into_owned();
    json_api(&answer, "408", "request_timeout");
    assert!(answer.contains("took longer than"), "{answer}");
    assert!(closed);
    assert!(
        started.elapsed() >= Duration::from_millis(1400),
        "not before the deadline"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_oversized_body_that_stalls_is_answered_413_within_the_idle_gap() {
    let app = app(Duration::from_millis(400), Duration::from_secs(60)).await;
    let mut stream = TcpStream::connect(app.base.trim_start_matches("http://"))
        .await
        .expect("connects");
    // Declared larger than the limit, then a few bytes, then silence.
    stream
        .write_all(head(&app, 100_000).as_bytes())
        .await
        .expect("sends");
    let started = Instant::now();
    let (answer, closed) = answer(&mut stream, started + Duration::from_secs(10)).await;
    json_api(&answer, "413", "payload_too_large");
    assert!(closed, "closed after the 413");
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "answered after the idle gap, not held: {:?}",
        started.elapsed()
    );
}
