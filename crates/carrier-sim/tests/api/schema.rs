//! Every answer fits the official DCSA 2.2 schema, and the check catches broken events.

use serde_json::{Value, json};

use crate::*;

#[tokio::test]
async fn every_answer_fits_the_dcsa_2_2_schema_at_every_stage_of_a_voyage() {
    let sim = Sim::start(config()).await;
    let queries: Vec<String> = (0..40)
        .map(|i| {
            format!(
                "/MAEU/v2/events?transportDocumentReference={:09}",
                586_118_800 + i
            )
        })
        .chain((0..20).map(|i| format!("/MSCU/v2/events?carrierBookingReference=B{i:07}")))
        .chain(["/HLCU/v2/events?equipmentReference=CSQU3054383".to_owned()])
        .chain(["/TEST/v2/events?carrierBookingReference=TEST-TR-SUCCEEDED".to_owned()])
        .collect();
    let mut seen = 0;
    for _ in 0..4 {
        for query in &queries {
            seen += sim.all(query).await.len();
        }
        sim.advance(25).await;
    }
    assert!(seen > 1_000, "only {seen} events checked");
    for (query, status) in [
        ("/MAEU/v2/events?limit=5", 400),
        (
            "/MAEU/v2/events?carrierBookingReference=B1&eventType=PARCEL",
            400,
        ),
        (
            "/MAEU/v2/events?carrierBookingReference=B1&cursor=nope",
            400,
        ),
        ("/MA-U/v2/events?carrierBookingReference=B1", 404),
    ] {
        let error = sim.error(query, status).await;
        assert!(
            error["errors"][0]["message"]
                .as_str()
                .is_some_and(|m| !m.is_empty())
        );
    }
}

#[tokio::test]
async fn the_schema_check_catches_broken_events() {
    let sim = Sim::start(config()).await;
    sim.fault(json!({"kind": "schema_invalid", "times": 1}))
        .await;
    let response = sim
        .get("/MAEU/v2/events?transportDocumentReference=586118841")
        .await;
    let body: Value = response.json().await.expect("JSON");
    assert!(!body.as_array().expect("array").is_empty());
    assert!(
        !EVENTS.is_valid(&body),
        "the validator must refuse what breaks the spec"
    );
}
