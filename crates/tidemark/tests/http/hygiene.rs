//! HTTP hygiene (api.md §1): ids that cannot be text, clients that wait to upload, and
//! slow or stalled clients, over raw TCP where a client library would hide the behaviour.

use std::time::{Duration, Instant};

use tidemark::app;
use tidemark_store::testing::Backend;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::common::{TestApp, codes, errors};

/// An app with the test settings changed by `configure`.
async fn app_with(configure: impl FnOnce(&mut tidemark::config::Config) + 'static) -> TestApp {
    TestApp::build(Backend::Sqlite)
        .config(configure)
        .spawn()
        .await
}

async fn connect(app: &TestApp) -> TcpStream {
    TcpStream::connect(app.base.trim_start_matches("http://"))
        .await
        .expect("connects")
}

/// Reads until the peer closes or `deadline` passes; returns what arrived and whether the
/// connection was closed.
pub(crate) async fn read_until_closed(stream: &mut TcpStream, deadline: Instant) -> (String, bool) {
    let mut got = Vec::new();
    let mut buffer = [0_u8; 4096];
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match tokio::time::timeout(left, stream.read(&mut buffer)).await {
            Ok(Ok(0) | Err(_)) => return (String::from_utf8_lossy(&got).into_owned(), true),
            Ok(Ok(n)) => got.extend_from_slice(&buffer[..n]),
            Err(_) => return (String::from_utf8_lossy(&got).into_owned(), false),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_id_that_is_not_text_is_a_json_api_404() {
    let app = app_with(|_| {}).await;
    for path in [
        "/v2/tracking_requests/%ff",
        "/v2/tracking_request/%ff",
        "/v2/shipments/%C3%28",
        "/v2/containers/%ff/transport_events",
        "/v2/shipping_lines/%ff",
        "/v2/ports/%ff",
        "/v2/webhooks/%ff",
        "/v2/webhook_notifications/%ff",
    ] {
        let errors = errors(app.get(path).await, 404).await;
        assert_eq!(errors[0]["code"], "not_found", "{path}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_waiting_to_upload_too_much_is_refused_at_once() {
    let app = app_with(|_| {}).await;
    let mut stream = connect(&app).await;
    let head = format!(
        "POST /v2/tracking_requests HTTP/1.1\r\nHost: tidemark\r\nAuthorization: Token {}\r\n\
         Content-Type: application/vnd.api+json\r\nContent-Length: 10485760\r\n\
         Expect: 100-continue\r\n\r\n",
        app.key
    );
    stream.write_all(head.as_bytes()).await.expect("sends");
    let mut buffer = vec![0_u8; 4096];
    let read = tokio::time::timeout(Duration::from_secs(5), stream.read(&mut buffer))
        .await
        .expect("an answer without sending the body")
        .expect("reads");
    let answer = String::from_utf8_lossy(&buffer[..read]);
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    assert!(answer.contains("payload_too_large"), "{answer}");
}

/// A request for `/healthz` with `count` short headers (Host among them).
fn headers(count: usize) -> String {
    let extra: String = (1..count).map(|n| format!("X-{n}: v\r\n")).collect();
    format!("GET /healthz HTTP/1.1\r\nHost: tidemark\r\n{extra}\r\n")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn many_short_headers_within_the_block_are_served_and_http2_is_closed() {
    let app = app_with(|_| {}).await;
    // Two hundred small headers fit the 32 KiB block: served.
    let mut stream = connect(&app).await;
    stream
        .write_all(headers(200).as_bytes())
        .await
        .expect("sends");
    let mut buffer = vec![0_u8; 4096];
    let read = tokio::time::timeout(Duration::from_secs(5), stream.read(&mut buffer))
        .await
        .expect("an answer")
        .expect("reads");
    assert!(
        String::from_utf8_lossy(&buffer[..read]).starts_with("HTTP/1.1 200"),
        "{}",
        String::from_utf8_lossy(&buffer[..read])
    );
    // HTTP/2 with prior knowledge: its preface is no HTTP/1 request; the connection is
    // answered with a bare 400 or closed, never left open.
    let mut stream = connect(&app).await;
    stream
        .write_all(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n")
        .await
        .expect("sends");
    let (answer, closed) =
        read_until_closed(&mut stream, Instant::now() + Duration::from_secs(5)).await;
    assert!(closed, "closed: {answer}");
    assert!(
        answer.is_empty() || answer.starts_with("HTTP/1.1 400"),
        "{answer}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_requests_are_answered_by_the_http_layer() {
    let app = app_with(|_| {}).await;
    let big = format!(
        "GET /healthz HTTP/1.1\r\nHost: tidemark\r\nX-Big: {}\r\n\r\n",
        "a".repeat(app::MAX_HEADER_BYTES)
    );
    for (request, status) in [
        ("GARBAGE\r\n\r\n".to_owned(), "400"),
        (
            "GET /healthz HTTP/1.1\r\nBad Header\r\n\r\n".to_owned(),
            "400",
        ),
        (
            "POST /v2/tracking_requests HTTP/1.1\r\nHost: t\r\nContent-Length: 5\r\n\
             Content-Length: 6\r\n\r\nhello"
                .to_owned(),
            "400",
        ),
        (big, "431"),
        (headers(app::MAX_HEADERS + 1), "431"),
        (
            "GET /healthz HTTP/1.1\r\nHost: t\r\nX-Odd: a\x01b\r\n\r\n".to_owned(),
            "400",
        ),
        (
            "POST /healthz HTTP/1.1\r\nHost: t\r\nContent-Length: -1\r\n\r\n".to_owned(),
            "400",
        ),
        (
            "POST /healthz HTTP/1.1\r\nHost: t\r\nContent-Length: abc\r\n\r\n".to_owned(),
            "400",
        ),
    ] {
        let mut stream = connect(&app).await;
        stream.write_all(request.as_bytes()).await.expect("sends");
        let (answer, closed) =
            read_until_closed(&mut stream, Instant::now() + Duration::from_secs(5)).await;
        assert!(
            answer.starts_with(&format!("HTTP/1.1 {status}")),
            "{status}: {answer}"
        );
        assert!(closed, "closed after {status}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_that_stops_arriving_is_a_408() {
    let app = app_with(|config| config.limits.body_idle_timeout = Duration::from_secs(1)).await;
    let mut stream = connect(&app).await;
    let head = format!(
        "POST /v2/tracking_requests HTTP/1.1\r\nHost: tidemark\r\nAuthorization: Token {}\r\n\
         Content-Type: application/vnd.api+json\r\nContent-Length: 200\r\n\r\n{{\"data\":",
        app.key
    );
    stream.write_all(head.as_bytes()).await.expect("sends");
    let (answer, _) = read_until_closed(&mut stream, Instant::now() + Duration::from_secs(5)).await;
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("request_timeout"), "{answer}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stalled_connections_are_cut_and_never_block_health() {
    let app = app_with(|config| config.limits.header_timeout = Duration::from_secs(1)).await;
    // 300 clients that open a connection: half say nothing, half start a request and
    // stall in its headers.
    let mut stalled = Vec::new();
    for index in 0..300 {
        let mut stream = connect(&app).await;
        if index % 2 == 0 {
            stream
                .write_all(b"GET /healthz HTTP/1.1\r\nHost: tidemark\r\nX-Slow: ")
                .await
                .expect("sends");
        }
        stalled.push(stream);
    }
    let started = Instant::now();
    let response = app.get("/healthz").await;
    assert_eq!(response.status(), 200);
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );

    let deadline = Instant::now() + Duration::from_secs(10);
    for (index, stream) in stalled.iter_mut().enumerate() {
        let (_, closed) = read_until_closed(stream, deadline).await;
        assert!(
            closed,
            "connection {index} still open after the header timeout"
        );
    }
    // Still serving (on a new connection: the client's pooled one sat idle past the
    // header timeout and was closed too).
    let fresh = reqwest::Client::new()
        .get(format!("{}/v2/tracking_requests?filter[nope]=1", app.base))
        .header("Authorization", format!("Token {}", app.key))
        .send()
        .await
        .expect("request");
    let errors = errors(fresh, 400).await;
    assert_eq!(codes(&errors)[0].1, "filter[nope]");
}
