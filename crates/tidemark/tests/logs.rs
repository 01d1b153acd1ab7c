//! What `tidemark serve` logs about its work, read from the real process's output.

mod serve;

use std::time::{Duration, Instant};

use serve::Served;

async fn create(base: &str, key: &str, number: &str) -> String {
    let body = serde_json::json!({"data": {"type": "tracking_request", "attributes": {
        "request_type": "bill_of_lading", "request_number": number, "scac": "TEST"}}});
    let created: serde_json::Value = reqwest::Client::new()
        .post(format!("{base}/v2/tracking_requests"))
        .header("Authorization", format!("Token {key}"))
        .header("Content-Type", "application/vnd.api+json")
        .body(body.to_string())
        .send()
        .await
        .expect("request")
        .json()
        .await
        .expect("JSON");
    created["data"]["id"].as_str().expect("id").to_owned()
}

async fn status(base: &str, key: &str, id: &str) -> String {
    let current: serde_json::Value = reqwest::Client::new()
        .get(format!("{base}/v2/tracking_requests/{id}"))
        .header("Authorization", format!("Token {key}"))
        .send()
        .await
        .expect("request")
        .json()
        .await
        .expect("JSON");
    current["data"]["attributes"]["status"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

/// Every lookup is logged at info with its carrier, request, outcome, duration and
/// attempt; a failed one at warn with its reason.
#[tokio::test]
async fn every_lookup_is_logged_with_its_outcome() {
    let mut server = Served::start(&[], &[]);
    let base = format!("http://{}", server.address);
    let key = server.key.clone();
    let found = create(&base, &key, "TEST-TR-SUCCEEDED").await;
    let failed = create(&base, &key, "TEST-TR-FAILED").await;
    let deadline = Instant::now() + Duration::from_secs(20);
    for id in [&found, &failed] {
        while status(&base, &key, id).await == "pending" {
            assert!(Instant::now() < deadline, "{id} still pending");
            tokio::task::yield_now().await;
        }
    }
    assert!(server.stop().success());
    let log = server.log();
    let line = |needle: &str| {
        log.lines()
            .find(|line| line.contains(needle))
            .unwrap_or_else(|| panic!("no line with {needle:?} in\n{log}"))
            .to_owned()
    };
    let ok = line(&format!("request={found}"));
    for field in [
        "INFO",
        "lookup",
        "carrier=TEST",
        "outcome=\"found\"",
        "duration_ms=",
        "attempt=1",
    ] {
        assert!(ok.contains(field), "{field} in {ok}");
    }
    let bad = line(&format!("request={failed}"));
    for field in [
        "WARN",
        "lookup failed",
        "outcome=\"unknown\"",
        "reason=",
        "attempt=1",
    ] {
        assert!(bad.contains(field), "{field} in {bad}");
    }
    assert!(!log.contains("Discriminant"), "{log}");
}
