//! Faults injected per carrier and reference, or from the configuration.

use std::time::Duration;

use serde_json::{Value, json};

use crate::*;

#[tokio::test]
async fn faults_are_injected_per_carrier_and_reference() {
    let sim = Sim::start(config()).await;
    sim.advance(40).await;
    let query = "/MAEU/v2/events?transportDocumentReference=586118841";
    let normal = sim.all(query).await;

    sim.fault(json!({"scac": "MAEU", "kind": "server_error", "status": 502, "times": 1}))
        .await;
    sim.error(&format!("{query}&limit=1000"), 502).await;
    assert_eq!(sim.all(query).await, normal, "used up after one answer");

    sim.fault(json!({"reference": "586118841", "kind": "rate_limited", "retry_after_seconds": 7, "times": 1})).await;
    let limited = sim.get(query).await;
    assert_eq!(limited.status(), 429);
    assert_eq!(limited.headers()["retry-after"], "7");
    assert_eq!(
        sim.get("/MAEU/v2/events?transportDocumentReference=OTHER1")
            .await
            .status(),
        200,
        "scoped"
    );

    sim.fault(json!({"kind": "unauthorized", "times": 1})).await;
    sim.error(query, 401).await;

    for kind in ["malformed_json", "truncated_json"] {
        sim.fault(json!({"kind": kind, "times": 1})).await;
        let text = sim.get(query).await.text().await.expect("body");
        assert!(
            serde_json::from_str::<Value>(&text).is_err(),
            "{kind}: {text:.40}"
        );
    }

    sim.fault(json!({"kind": "duplicate", "times": 1})).await;
    assert_eq!(sim.all(query).await.len(), normal.len() * 2);

    sim.fault(json!({"kind": "retract", "times": 1})).await;
    let retracted = sim.all(query).await;
    assert_eq!(retracted.len(), normal.len() - 1);

    sim.fault(json!({"kind": "empty_page", "times": 1})).await;
    let (page, next) = sim.page(&format!("{query}&limit=1000")).await;
    assert!(page.is_empty());
    let (rest, _) = sim
        .page(&format!(
            "{query}&limit=1000&cursor={}",
            next.expect("Next-Page")
        ))
        .await;
    assert_eq!(rest, normal, "the next page holds the answer");

    sim.fault(json!({"kind": "huge", "bytes": 3_000_000, "times": 1}))
        .await;
    let huge = sim.get(query).await.bytes().await.expect("body");
    assert!(huge.len() >= 3_000_000);

    sim.fault(json!({"kind": "slow", "delay_ms": 50, "times": 1}))
        .await;
    assert_eq!(sim.get(query).await.status(), 200);

    sim.fault(json!({"kind": "timeout", "times": 1})).await;
    let gave_up = sim
        .client
        .get(format!("{}{query}", sim.base))
        .header("API-Key", KEY)
        .timeout(Duration::from_millis(300))
        .send()
        .await;
    assert!(gave_up.is_err_and(|e| e.is_timeout()));

    let listed: Value = sim
        .admin_json(reqwest::Method::GET, "/admin/faults", None)
        .await;
    assert_eq!(listed, json!([]), "every counted fault is used up");
}

#[tokio::test]
async fn faults_can_come_from_the_configuration_and_be_removed() {
    let mut config = config();
    config.faults = vec![
        toml::from_str("scac = \"HLCU\"\nkind = \"server_error\"\nstatus = 503").expect("rule"),
    ];
    let sim = Sim::start(config).await;
    sim.error("/HLCU/v2/events?carrierBookingReference=B1", 503)
        .await;
    sim.error("/HLCU/v2/events?carrierBookingReference=B1", 503)
        .await;
    let listed: Value = sim
        .admin_json(reqwest::Method::GET, "/admin/faults", None)
        .await;
    let id = listed[0]["id"].as_u64().expect("id");
    let removed = sim
        .admin(
            reqwest::Method::DELETE,
            &format!("/admin/faults/{id}"),
            None,
        )
        .await;
    assert_eq!(removed.status(), 204);
    assert_eq!(
        sim.get("/HLCU/v2/events?carrierBookingReference=B1")
            .await
            .status(),
        200
    );
}
