//! A carrier on DCSA Track & Trace 3.0 (the pinned beta), played by the simulator: tracked
//! by polling `/v3/events`, and its pushes (`POST /carrier-callbacks/{SCAC}/v3/events`,
//! `{"events": […]}`) taken with the carrier's token, each event heard once, news read
//! again at once; the answers are the standard's `PostEventsResponse` and
//! `PostEventsError`. What the 3.0 line says of a box's release reaches its terminal view:
//! the simulator's line selects each discharged box for a customs scan an hour after
//! discharge, releases it after six hours and makes it available after eight; the box is
//! held for the scan (`VACIS`), then released and `available`, and
//! `container.transport.available` is told once per box.

use serde_json::{Value, json};
use tidemark_domain::{Clock, JobKind};
use tidemark_store::testing::Backend;
use time::{Duration, OffsetDateTime};

use crate::common::{TestApp, document};
use crate::shipments::track;

tidemark_store::backends!(
    with_v3_carrier,
    a_three_point_o_carrier_is_polled_and_pushes,
    a_three_point_o_line_s_release_events_hold_and_release_its_boxes,
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
    F: FnOnce(TestApp) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    let app = TestApp::build(backend).world_clock().carriers(ENDPOINTS);
    case(app.spawn().await).await;
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

async fn push(t: &TestApp, token: &str, body: &[u8]) -> (u16, Value) {
    let response = reqwest::Client::new()
        .post(format!("{}/carrier-callbacks/MAEU/v3/events", t.base))
        .bearer_auth(token)
        .header("Content-Type", "application/json")
        .body(body.to_vec())
        .send()
        .await
        .expect("request");
    let status = response.status().as_u16();
    (status, response.json().await.expect("json"))
}

async fn a_three_point_o_carrier_is_polled_and_pushes(t: TestApp) {
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

/// When the simulated line discharges `bill`'s boxes at their port of discharge.
fn discharges(t: &TestApp, bill: &str) -> Vec<OffsetDateTime> {
    use carrier_sim::world::{Placement, Reference};
    let reference = Reference::TransportDocument(bill.to_owned());
    let shipment = t
        .sim
        .world()
        .shipment("MAEU", &reference, Placement::Seeded, None)
        .expect("the world has the bill");
    let pod = shipment.destination().locode;
    carrier_sim::timeline::events(&shipment)
        .into_iter()
        .map(|event| event.body)
        .filter(|body| {
            body["equipmentEventTypeCode"] == "DISC"
                && body["eventLocation"]["UNLocationCode"] == pod
        })
        .filter_map(|body| {
            body["eventDateTime"].as_str().and_then(|text| {
                OffsetDateTime::parse(text, &time::format_description::well_known::Rfc3339).ok()
            })
        })
        .collect()
}

async fn containers(t: &TestApp) -> Vec<Value> {
    document(t.get("/v2/containers?page[size]=100").await).await["data"]
        .as_array()
        .cloned()
        .expect("containers")
}

async fn heard(t: &TestApp, event: &str) -> Vec<Value> {
    let path = format!("/v2/webhook_notifications?filter[event]={event}&page[size]=100");
    document(t.get(&path).await).await["data"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

fn hold_names(container: &Value) -> Vec<String> {
    container["attributes"]["holds_at_pod_terminal"]
        .as_array()
        .map(|holds| {
            holds
                .iter()
                .filter_map(|hold| hold["name"].as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

/// Moves both clocks to `at` and works what is due.
async fn until(t: &TestApp, at: OffsetDateTime) {
    let now = t.sim.clock().now();
    assert!(at > now, "the scenario lies ahead: {at} after {now}");
    t.advance(at - now);
    t.drain().await;
}

/// A bill of the simulated world whose boxes reach their port of discharge days from now.
fn bill_ahead(t: &TestApp) -> (String, Vec<OffsetDateTime>) {
    let now = t.sim.clock().now();
    (100..400)
        .map(|n| format!("MAEU300000{n}"))
        .map(|bill| {
            let times = discharges(t, &bill);
            (bill, times)
        })
        .find(|(_, times)| {
            !times.is_empty() && times.iter().all(|at| *at > now + Duration::days(2))
        })
        .expect("the seeded world has a voyage ahead")
}

async fn a_three_point_o_line_s_release_events_hold_and_release_its_boxes(t: TestApp) {
    let (bill, times) = bill_ahead(&t);
    let (first, last) = (
        *times
            .iter()
            .min()
            .expect("discharged at the port of discharge"),
        *times.iter().max().expect("discharged"),
    );
    t.subscribe("https://hooks.example.com/releases").await;
    let request = track(&t, &bill, "MAEU").await;
    assert_eq!(
        request["data"]["attributes"]["status"], "created",
        "{request}"
    );
    let boxes = containers(&t).await;
    assert!(!boxes.is_empty());
    assert!(boxes.iter().all(|b| hold_names(b).is_empty()), "{boxes:?}");

    // Every box discharged and selected for its scan; none released yet.
    assert!(last + Duration::hours(2) < first + Duration::hours(6));
    until(&t, last + Duration::hours(2)).await;
    for container in containers(&t).await {
        assert_eq!(hold_names(&container), ["VACIS"], "{container}");
        assert_ne!(container["attributes"]["available_for_pickup"], true);
        assert_ne!(container["attributes"]["current_status"], "available");
    }
    assert!(heard(&t, "container.transport.available").await.is_empty());

    // Released and available: the line's word, told once per box.
    until(&t, last + Duration::hours(9)).await;
    let boxes = containers(&t).await;
    for container in &boxes {
        assert!(hold_names(container).is_empty(), "{container}");
        assert_eq!(
            container["attributes"]["available_for_pickup"], true,
            "{container}"
        );
        assert_eq!(
            container["attributes"]["current_status"], "available",
            "{container}"
        );
    }
    let available = heard(&t, "container.transport.available").await;
    assert_eq!(available.len(), boxes.len());
    // Read again: nothing new.
    until(&t, last + Duration::hours(12)).await;
    assert_eq!(
        heard(&t, "container.transport.available").await.len(),
        boxes.len()
    );
}
