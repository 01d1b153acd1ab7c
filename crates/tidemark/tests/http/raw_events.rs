//! The carrier's events as reported (api.md §4 `raw_events`), end to end: DCSA's own 2.2
//! sample served by the carrier simulator over HTTP, tracked, and read back as the
//! container's raw events; a later version of an event replaces the kept one.

use reqwest::Method;
use serde_json::{Value, json};

use crate::common::{SIM_ADMIN_KEY, TestApp, document, tracking_request};

const BOOKING: &str = "ABC123123123";
const ARRIVAL: &str = "3cecb101-7a1a-43a4-9d62-e88a131651e2";
const LOAD: &str = "3cecb101-7a1a-43a4-9d62-e88a131651e4";

/// DCSA's sample answer (`fixtures/README.md`).
fn sample() -> Vec<Value> {
    serde_json::from_str(include_str!(
        "../../../../fixtures/dcsa/tnt-2.2-sample.json"
    ))
    .expect("valid JSON")
}

tidemark_store::backends!(
    with_silent_carrier,
    the_official_sample_is_kept_as_reported,
    pages_hold_a_whole_voyage_unless_asked_otherwise,
);

/// Runs `case` with a tracking app whose simulator knows nothing but what is injected.
async fn with_silent_carrier<F, Fut>(backend: tidemark_store::testing::Backend, case: F)
where
    F: FnOnce(TestApp) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    let app = TestApp::build(backend)
        .world_clock()
        .simulator(|config| config.chances.not_found = 100);
    case(app.spawn().await).await;
}

/// The container's transport events (its milestones), as listed.
async fn transport_events(t: &TestApp, container: &str) -> Value {
    document(
        t.get(&format!("/v2/containers/{container}/transport_events"))
            .await,
    )
    .await
}

async fn inject(t: &TestApp, events: &[Value]) {
    let response = reqwest::Client::new()
        .post(format!("{}/admin/events", t.sim_url))
        .header("Admin-Key", SIM_ADMIN_KEY)
        .json(&json!({"scac": "MAEU", "events": events}))
        .send()
        .await
        .expect("request");
    assert_eq!(response.status(), 201);
}

fn by_id<'a>(events: &'a [Value], id: &str) -> &'a Value {
    events
        .iter()
        .find(|e| e["attributes"]["carrier_event_id"] == id)
        .unwrap_or_else(|| panic!("event {id} in {events:#?}"))
}

async fn raw_events(t: &TestApp, container: &str) -> Vec<Value> {
    let body = document(
        t.get(&format!("/v2/containers/{container}/raw_events"))
            .await,
    )
    .await;
    body["data"].as_array().expect("data").clone()
}

/// The sample's arrival and load, member by member, as the carrier reported them.
async fn every_member_reads_as_reported(t: &TestApp, events: &[Value], container: &str) {
    let arrival = &by_id(events, ARRIVAL)["attributes"];
    assert_eq!(
        arrival["event"],
        Value::Null,
        "no milestone at the port of loading"
    );
    assert_eq!(arrival["original_event"], "ARRI");
    assert_eq!(arrival["event_type"], "TRANSPORT");
    assert_eq!(arrival["event_classifier"], "ACT");
    assert_eq!(arrival["estimated"], false);
    assert_eq!(arrival["timestamp"], "2021-01-09T13:12:56Z");
    assert_eq!(arrival["actual_at"], "2021-01-09T13:12:56Z");
    assert_eq!(arrival["estimated_at"], Value::Null);
    assert_eq!(arrival["location_locode"], "FRPAR");
    assert_eq!(arrival["vessel_imo"], "9321483");
    assert_eq!(arrival["vessel_name"], "King of the Seas");
    assert_eq!(arrival["voyage_number"], "2103S");
    assert_eq!(
        arrival["carrier_transport_call_id"],
        "123e4567-e89b-12d3-a456-426614174000"
    );
    assert_eq!(arrival["data_source"], "shipping_line");
    assert_eq!(arrival["data_provider_code"], "MAEU");

    let load = by_id(events, LOAD);
    let attributes = &load["attributes"];
    assert_eq!(attributes["event"], Value::Null, "an empty box's load");
    assert_eq!(attributes["original_event"], "LOAD");
    assert_eq!(attributes["estimated"], true);
    assert_eq!(attributes["estimated_at"], "2019-11-11T23:11:00Z");
    assert_eq!(attributes["will_occur_at"], "2019-11-11T23:11:00Z");
    assert_eq!(attributes["actual_at"], Value::Null);
    assert_eq!(attributes["empty"], true);
    assert_eq!(attributes["location_name"], "Eiffel Tower");
    let port = load["relationships"]["location"]["data"]["id"]
        .as_str()
        .expect("a port");
    let response = t.get(&format!("/v2/ports/{port}")).await;
    assert_eq!(response.status(), 200, "the event's port is known");
    assert_eq!(load["relationships"]["container"]["data"]["id"], container);
}

async fn the_official_sample_is_kept_as_reported(t: TestApp) {
    inject(&t, &sample()).await;
    let created = document(
        t.create(&tracking_request("booking_number", BOOKING, "MAEU"))
            .await,
    )
    .await;
    t.drain().await;
    let request = created["data"]["id"].as_str().expect("id");
    let body = document(t.get(&format!("/v2/tracking_requests/{request}")).await).await;
    assert_eq!(body["data"]["attributes"]["status"], "created", "{body}");

    let containers = document(t.get("/v2/containers").await).await;
    let containers = containers["data"].as_array().expect("data");
    assert_eq!(containers.len(), 1, "{containers:?}");
    assert_eq!(containers[0]["attributes"]["number"], "APZU4812090");
    let container = containers[0]["id"].as_str().expect("id").to_owned();
    assert_eq!(
        containers[0]["relationships"]["raw_events"]["links"]["related"],
        t.link(&format!("/v2/containers/{container}/raw_events"))
    );
    let milestones = transport_events(&t, &container).await;
    assert_eq!(
        milestones["data"],
        json!([]),
        "neither event is a milestone"
    );

    let events = raw_events(&t, &container).await;
    let indexes: Vec<u64> = events
        .iter()
        .map(|e| e["attributes"]["index"].as_u64().expect("index"))
        .collect();
    assert_eq!(indexes, (0..events.len() as u64).collect::<Vec<_>>());
    let times: Vec<&str> = events
        .iter()
        .map(|e| e["attributes"]["timestamp"].as_str().expect("timestamp"))
        .collect();
    assert!(times.is_sorted(), "oldest first: {times:?}");

    every_member_reads_as_reported(&t, &events, &container).await;

    a_correction_replaces_the_kept_event(&t, &events, &container).await;
}

async fn pages_hold_a_whole_voyage_unless_asked_otherwise(t: TestApp) {
    inject(&t, &sample()).await;
    t.create(&tracking_request("booking_number", BOOKING, "MAEU"))
        .await;
    t.drain().await;
    let containers = document(t.get("/v2/containers").await).await;
    let container = containers["data"][0]["id"].as_str().expect("id").to_owned();
    let all = document(
        t.get(&format!("/v2/containers/{container}/raw_events"))
            .await,
    )
    .await;
    let total = all["meta"]["pagination"]["records"]
        .as_u64()
        .expect("records");
    assert!(total >= 4, "{all}");
    assert_eq!(all["data"].as_array().map(Vec::len), Some(total as usize));
    let second = document(
        t.get(&format!(
            "/v2/containers/{container}/raw_events?page[size]=1&page[number]=2"
        ))
        .await,
    )
    .await;
    assert_eq!(second["data"].as_array().map(Vec::len), Some(1));
    assert_eq!(second["data"][0]["attributes"]["index"], 1);
    assert_eq!(second["data"][0]["id"], all["data"][1]["id"]);
    let response = t
        .get(&format!(
            "/v2/containers/{container}/raw_events?page[size]=101"
        ))
        .await;
    assert_eq!(response.status(), 400);
    let response = t
        .get("/v2/containers/00000000-0000-0000-0000-000000000000/raw_events")
        .await;
    assert_eq!(response.status(), 404);
}

/// The carrier corrects the load: it happened, laden. The later version replaces the
/// kept one, and now makes a milestone.
async fn a_correction_replaces_the_kept_event(t: &TestApp, events: &[Value], container: &str) {
    let mut corrected = sample()
        .into_iter()
        .find(|e| e["eventID"] == LOAD)
        .expect("the load");
    corrected["eventClassifierCode"] = json!("ACT");
    corrected["emptyIndicatorCode"] = json!("LADEN");
    corrected["eventCreatedDateTime"] = json!("2021-01-10T08:00:00Z");
    inject(t, &[corrected]).await;
    let response = t
        .call(
            Method::PATCH,
            &format!("/v2/containers/{container}/refresh"),
        )
        .await;
    assert_eq!(response.status(), 200);
    t.drain().await;
    let again = raw_events(t, container).await;
    assert_eq!(again.len(), events.len(), "replaced, not added");
    let attributes = &by_id(events, LOAD)["attributes"];
    let load = &by_id(&again, LOAD)["attributes"];
    assert_eq!(load["estimated"], false);
    assert_eq!(load["event"], "vessel_loaded");
    assert_eq!(load["empty"], false);
    assert_eq!(load["carrier_reported_at"], "2021-01-10T08:00:00Z");
    assert_eq!(
        load["created_at"], attributes["created_at"],
        "kept in place"
    );
    let milestones = transport_events(t, container).await;
    assert_eq!(
        milestones["data"][0]["attributes"]["event"],
        "container.transport.vessel_loaded"
    );
}
