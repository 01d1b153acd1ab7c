//! Relationships as the reference's fixtures have them (compat-api.md §3.2–3.4): a
//! container's `transport_events` and `raw_events` carry `data` arrays when included, a
//! transport event names the carrier event it was made from (`source_event`), and a raw
//! event's own relationships can be included.

use serde_json::Value;

use crate::common::{TestApp, codes, document, errors, with_tracking};
use crate::shipments::track;

tidemark_store::backends!(
    with_tracking,
    transport_events_name_their_carrier_events,
    a_container_includes_its_raw_events_and_they_include_theirs,
);

/// The first container of a tracked sandbox shipment with milestones.
async fn a_container(t: &TestApp) -> String {
    track(t, "TEST-TR-SUCCEEDED", "TEST").await;
    let containers = document(t.get("/v2/containers").await).await;
    containers["data"][0]["id"]
        .as_str()
        .expect("a container")
        .to_owned()
}

fn list(body: &Value) -> Vec<Value> {
    body["data"].as_array().expect("data").clone()
}

fn ids(resources: &[Value]) -> Vec<String> {
    resources
        .iter()
        .map(|r| r["id"].as_str().expect("id").to_owned())
        .collect()
}

async fn transport_events_name_their_carrier_events(t: TestApp) {
    let container = a_container(&t).await;
    let path = format!("/v2/containers/{container}");
    let events = list(&document(t.get(&format!("{path}/transport_events")).await).await);
    let raw = list(&document(t.get(&format!("{path}/raw_events")).await).await);
    assert!(!events.is_empty() && !raw.is_empty());
    let mut named = 0;
    for event in &events {
        let relationships = &event["relationships"];
        assert!(relationships["previous_version"]["data"].is_null());
        let source = &relationships["source_event"]["data"];
        if source.is_null() {
            continue;
        }
        named += 1;
        assert_eq!(source["type"], "raw_event");
        let found = raw
            .iter()
            .find(|r| r["id"] == source["id"])
            .unwrap_or_else(|| panic!("{source} among the container's raw events"));
        let name = event["attributes"]["event"].as_str().expect("a name");
        let milestone = name
            .strip_prefix("container.transport.")
            .map(|m| m.strip_prefix("estimated.").unwrap_or(m));
        assert_eq!(found["attributes"]["event"].as_str(), milestone, "{name}");
        assert_eq!(
            found["attributes"]["timestamp"], event["attributes"]["timestamp"],
            "{name}"
        );
        assert_eq!(
            found["attributes"]["location_locode"], event["attributes"]["location_locode"],
            "{name}"
        );
    }
    assert!(named > 0, "the carrier's milestones name their events");
}

async fn a_container_includes_its_raw_events_and_they_include_theirs(t: TestApp) {
    let container = a_container(&t).await;
    let path = format!("/v2/containers/{container}");
    let raw = list(&document(t.get(&format!("{path}/raw_events")).await).await);
    let events = list(&document(t.get(&format!("{path}/transport_events")).await).await);

    let read = document(
        t.get(&format!("{path}?include=raw_events,transport_events"))
            .await,
    )
    .await;
    let relationships = &read["data"]["relationships"];
    let linked = relationships["raw_events"]["data"]
        .as_array()
        .expect("raw_events data when included");
    assert_eq!(ids(linked), ids(&raw), "every raw event, in order");
    assert!(relationships["raw_events"]["links"]["related"].is_string());
    let included = read["included"].as_array().expect("included");
    for event in &raw {
        let copy = included
            .iter()
            .find(|r| r["type"] == "raw_event" && r["id"] == event["id"])
            .expect("the raw event, included");
        assert_eq!(copy, event, "the same record as the list's");
    }
    for event in &events {
        let copy = included
            .iter()
            .find(|r| r["type"] == "transport_event" && r["id"] == event["id"])
            .expect("the transport event, included");
        assert_eq!(copy["relationships"], event["relationships"]);
    }
    // Not asked for: a link only.
    let plain = document(t.get(&path).await).await;
    assert!(plain["data"]["relationships"]["raw_events"]["data"].is_null());

    let with = document(
        t.get(&format!(
            "{path}/raw_events?include=location,vessel,terminal,container"
        ))
        .await,
    )
    .await;
    let included = with["included"].as_array().expect("included");
    let types: Vec<&str> = included.iter().filter_map(|r| r["type"].as_str()).collect();
    for kind in ["port", "vessel", "container"] {
        assert!(types.contains(&kind), "{kind} in {types:?}");
    }
    for event in list(&with) {
        let port = &event["relationships"]["location"]["data"];
        if !port.is_null() {
            assert!(
                included
                    .iter()
                    .any(|r| r["type"] == "port" && r["id"] == port["id"]),
                "{port}"
            );
        }
    }
    let refused = errors(
        t.get(&format!("{path}/raw_events?include=shipment_line"))
            .await,
        400,
    )
    .await;
    assert_eq!(codes(&refused)[0].1, "include");
}
