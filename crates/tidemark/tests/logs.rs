//! What `tidemark serve` logs about its work, read from the real process's output.

mod serve;

use serve::Served;

/// Every lookup is logged at info with its carrier, request, outcome, duration and
/// attempt; a failed one at warn with its reason.
#[tokio::test]
async fn every_lookup_is_logged_with_its_outcome() {
    let mut server = Served::start(&[], &[]);
    let mut ids = Vec::new();
    for number in ["TEST-TR-SUCCEEDED", "TEST-TR-FAILED"] {
        let created: serde_json::Value = server
            .create(number, "TEST")
            .await
            .json()
            .await
            .expect("JSON");
        ids.push(created["data"]["id"].as_str().expect("id").to_owned());
    }
    for id in &ids {
        server.decided(id).await;
    }
    let (found, failed) = (&ids[0], &ids[1]);
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
        "outcome=\"not_found\"",
        "reason=",
        "attempt=1",
    ] {
        assert!(bad.contains(field), "{field} in {bad}");
    }
    assert!(!log.contains("Discriminant"), "{log}");
}
