//! A carrier on DCSA Track & Trace 3.0 (the pinned beta), played by the simulator: tracked
//! by polling `/v3/events`, and its pushes (`POST /carrier-callbacks/{SCAC}/v3/events`,
//! `{"events": […]}`) taken with the carrier's token, each event heard once, news read
//! again at once; the answers are the standard's `PostEventsResponse` and
//! `PostEventsError`.

use serde_json::{Value, json};
use tidemark_domain::{Clock, JobKind};
use tidemark_store::testing::Backend;

use crate::common::Tracking;
use crate::shipments::track;

tidemark_store::backends!(
    with_v3_carrier,
    a_three_point_o_carrier_is_polled_and_pushes
);

const TOKEN: &str = "a-carrier-push-token-3";

const ENDPOINTS: &str = r#"
[endpoints.MAEU]
base_url = "{sim}/MAEU"
events_path = "/v3/events"
dcsa_version = "3.0-beta"
auth = { kind = "header", name = "API-Key", value = "sim-key" }

[callbacks.MAEU]
token = "a-carrier-push-token-3"
"#;

async fn with_v3_carrier<F, Fut>(backend: Backend, case: F)
where
    F: FnOnce(Tracking) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    if let Some(tracking) = Tracking::spawn_carriers(backend, |_| {}, ENDPOINTS).await {
        case(tracking).await;
    }
}

fn validator(name: &str) -> jsonschema::Validator {
    let spec: Value = serde_json::from_str(include_str!(
        "../../../carrier-sim/dcsa/TNT_v3.0.0-beta-20260525.json"
    ))
    .expect("JSON");
    let mut root = json!({"$ref": format!("#/components/schemas/{name}")});
    root["components"] = spec["components"].clone();
    jsonschema::validator_for(&root).expect("compiles")
}

async fn push(t: &Tracking, token: &str, body: &[u8]) -> (u16, Value) {
    let response = reqwest::Client::new()
        .post(format!("{}/carrier-callbacks/MAEU/v3/events", t.app.base))
        .bearer_auth(token)
        .header("Content-Type", "application/json")
        .body(body.to_vec())
        .send()
        .await
        .expect("request");
    let status = response.status().as_u16();
    (status, response.json().await.expect("json"))
}

async fn a_three_point_o_carrier_is_polled_and_pushes(t: Tracking) {
    t.advance(time::Duration::days(30));
    let request = track(&t, "MAEU300000123", "MAEU").await;
    assert_eq!(
        request["data"]["attributes"]["status"], "created",
        "{request}"
    );
    // What the carrier would push: its own 3.0 events of the bill.
    let events: Value = reqwest::Client::new()
        .get(format!(
            "{}/MAEU/v3/events?transportDocumentReference=MAEU300000123&limit=1000",
            t.sim_url
        ))
        .header("API-Key", tidemark_testkit::SIM_KEY)
        .send()
        .await
        .expect("request")
        .json()
        .await
        .expect("json");
    let body = serde_json::to_vec(&events).expect("json");
    let taken = validator("PostEventsResponse");
    let (status, answer) = push(&t, TOKEN, &body).await;
    assert_eq!(status, 200, "{answer}");
    assert!(taken.is_valid(&answer), "{answer}");
    assert!(
        answer["feedbackElements"][0]["message"]
            .as_str()
            .is_some_and(|m| m.contains("1 tracked")),
        "{answer}"
    );
    let due = t
        .app
        .store
        .next_due(JobKind::Refresh)
        .await
        .expect("read")
        .expect("queued");
    assert!(due <= t.clock.now(), "read again at once");
    t.drain().await;
    // The same events again: heard once.
    let (_, again) = push(&t, TOKEN, &body).await;
    assert!(
        again["feedbackElements"][0]["message"]
            .as_str()
            .is_some_and(|m| m.contains("0 tracked")),
        "{again}"
    );
    // Not the carrier's token; not the standard's body.
    let (status, _) = push(&t, "another-token-of-16-chars", &body).await;
    assert_eq!(status, 401);
    let (status, refused) = push(&t, TOKEN, b"[1, 2]").await;
    assert_eq!(status, 400);
    assert!(validator("PostEventsError").is_valid(&refused), "{refused}");
}
