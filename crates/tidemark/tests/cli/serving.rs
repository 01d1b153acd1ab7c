//! `tidemark serve` as a process: the sandbox's reach, a start from nothing and a stop on
//! SIGTERM, and secrets kept out of the logs.

use super::*;

/// Asked to, the sandbox serves every line, and the start-up log says so; a configured
/// endpoint keeps its line.
#[tokio::test]
async fn the_sandbox_serves_every_line_only_when_asked() {
    let mut server = Served::start(
        &["--sandbox-all-carriers"],
        &[(
            "TIDEMARK_CARRIERS__ENDPOINTS__MAEU__BASE_URL",
            "http://127.0.0.1:9/maersk",
        )],
    );
    let response = server.create("MEDU1234567", "MSCU").await;
    assert_eq!(response.status(), 201);
    let lines = server.get("/v2/shipping_lines?search=MAEU").await;
    assert_eq!(lines["data"][0]["attributes"]["tracking_source"], "carrier");
    assert!(server.stop().success());
    let log = server.log();
    assert!(log.contains("MAEU -> http://127.0.0.1:9/maersk"), "{log}");
    assert!(log.contains("every other SCAC -> sandbox"), "{log}");
}

/// `tidemark serve` on a fresh directory: creates the database, prints a key once,
/// serves a create with that key, and stops cleanly on SIGTERM.
#[tokio::test]
async fn serve_starts_from_nothing_and_stops_on_sigterm() {
    let mut server = Served::start(&[], &[]);
    let dir = server.dir.path().to_owned();
    assert!(dir.join("tidemark.db").exists());
    assert!(dir.join("tidemark.db-wal").exists(), "WAL mode");

    // No invented data by default: a real line without an endpoint is refused, saying how
    // to configure it.
    let response = server.create("MEDU1234567", "MSCU").await;
    assert_eq!(response.status(), 422);
    let body: serde_json::Value = response.json().await.expect("JSON");
    assert_eq!(
        body["errors"][0]["code"], "carrier_not_configured",
        "{body}"
    );
    assert_eq!(
        body["errors"][0]["source"]["pointer"],
        "/data/attributes/scac"
    );
    assert!(server.log().contains("TEST -> sandbox"), "{}", server.log());

    // Zero-config tracking: the built-in sandbox carrier answers, and the request is
    // found within moments.
    let created: serde_json::Value = server
        .create("TEST-TR-JOURNEY", "TEST")
        .await
        .json()
        .await
        .expect("JSON");
    let id = created["data"]["id"].as_str().expect("id");
    let current = server.decided(id).await;
    assert_eq!(
        current["data"]["attributes"]["status"], "created",
        "{current}"
    );
    assert!(current["data"]["relationships"]["tracked_object"]["data"]["id"].is_string());

    assert!(server.stop().success());

    // A second start finds the account and prints no new key.
    let again = Command::new(env!("CARGO_BIN_EXE_tidemark"))
        .args(["accounts", "list"])
        .current_dir(&dir)
        .env_remove("TIDEMARK_DATABASE_URL")
        .output()
        .expect("runs");
    assert_eq!(
        String::from_utf8_lossy(&again.stdout)
            .lines()
            .filter(|l| l.contains("default"))
            .count(),
        1
    );
}

/// A receiver on loopback that answers 200 and keeps the headers of what it got; the
/// watch counts them.
async fn header_receiver() -> (
    String,
    std::sync::Arc<std::sync::Mutex<Vec<axum::http::HeaderMap>>>,
    tokio::sync::watch::Receiver<usize>,
) {
    use axum::http::HeaderMap;
    use std::sync::{Arc, Mutex};

    let got: Arc<Mutex<Vec<HeaderMap>>> = Arc::default();
    let (count, counted) = tokio::sync::watch::channel(0);
    let app = axum::Router::new().route(
        "/hook",
        axum::routing::post({
            let got = Arc::clone(&got);
            move |headers: HeaderMap| async move {
                let mut got = got.lock().expect("lock");
                got.push(headers);
                count.send_replace(got.len());
                "ok"
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let address = listener.local_addr().expect("address");
    tokio::spawn(async move { axum::serve(listener, app).await });
    (format!("http://{address}/hook"), got, counted)
}

/// A receiver's own credential, sent as a custom header of the webhook.
const HEADER_VALUE: &str = "Bearer receiver-token-8c1f2e77";
/// A well-formed API key nobody holds.
const WRONG_KEY: &str = "tdm_WrongWrongWrongWrongWrongWrongWrong1234";

/// Creates a webhook with a custom header and tests it, tracks a number, and is refused
/// with a wrong key; answers the webhook's secret.
async fn use_every_secret(base: &str, key: &str, url: &str) -> String {
    let client = reqwest::Client::new();
    let post = |path: &str, key: &str, body: serde_json::Value| {
        client
            .post(format!("{base}{path}"))
            .header("Authorization", format!("Token {key}"))
            .header("Content-Type", "application/vnd.api+json")
            .body(body.to_string())
            .send()
    };
    let created = post(
        "/v2/webhooks",
        key,
        serde_json::json!({"data": {"type": "webhook", "attributes": {
            "url": url, "headers": [{"name": "Authorization", "value": HEADER_VALUE}]}}}),
    )
    .await
    .expect("request");
    assert_eq!(created.status(), 201);
    let created: serde_json::Value = created.json().await.expect("JSON");
    let webhook = created["data"]["id"].as_str().expect("id").to_owned();
    let secret = created["data"]["attributes"]["secret"]
        .as_str()
        .expect("secret")
        .to_owned();
    let tested = post(
        &format!("/v2/webhooks/{webhook}/test"),
        key,
        serde_json::json!({"data": {"type": "webhook_test",
            "attributes": {"event": "tracking_request.succeeded"}}}),
    )
    .await
    .expect("request");
    assert_eq!(tested.status(), 200);
    let tracked = post(
        "/v2/tracking_requests",
        key,
        serde_json::json!({"data": {"type": "tracking_request", "attributes": {
            "request_type": "bill_of_lading", "request_number": "TEST-TR-SUCCEEDED", "scac": "TEST"}}}),
    )
    .await
    .expect("request");
    assert_eq!(tracked.status(), 201);
    let refused = post("/v2/webhooks", WRONG_KEY, serde_json::json!({}))
        .await
        .expect("request");
    assert_eq!(refused.status(), 401);

    secret
}

/// At its most verbose, `tidemark serve` logs no secret: not an API key (good or bad),
/// not a webhook's secret or its custom header values, not a signature it sent.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn secrets_never_reach_the_logs() {
    let (url, got, mut counted) = header_receiver().await;
    let mut server = Served::start(
        &["--webhook-allowed-networks", "127.0.0.0/8"],
        &[("RUST_LOG", "trace")],
    );
    let base = format!("http://{}", server.address);
    let secret = use_every_secret(&base, &server.key, &url).await;

    // The test, the success and its milestones arrive.
    tokio::time::timeout(Duration::from_secs(30), counted.wait_for(|n| *n >= 3))
        .await
        .expect("deliveries within 30 s")
        .expect("the receiver runs");
    assert!(server.stop().success());

    let log = server.log();
    assert!(log.contains("webhook delivery"), "deliveries are logged");
    assert!(log.contains("webhook test"), "tests are logged");
    let mut secrets = vec![
        server.key.clone(),
        server.key["tdm_".len()..].to_owned(),
        WRONG_KEY.to_owned(),
        secret.clone(),
        secret["whsec_".len()..].to_owned(),
        HEADER_VALUE.to_owned(),
        "receiver-token-8c1f2e77".to_owned(),
    ];
    for headers in got.lock().expect("lock").iter() {
        for name in ["webhook-signature", "x-tidemark-signature"] {
            let value = headers
                .get(name)
                .and_then(|v| v.to_str().ok())
                .expect("signed");
            secrets.push(value.trim_start_matches("v1,").to_owned());
        }
        assert_eq!(
            headers.get("authorization").and_then(|v| v.to_str().ok()),
            Some(HEADER_VALUE)
        );
    }
    for secret in &secrets {
        assert!(
            !log.contains(secret.as_str()),
            "a secret in the logs: {secret}"
        );
    }
}
