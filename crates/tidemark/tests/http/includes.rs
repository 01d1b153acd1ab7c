//! Dotted `include` paths (compat-api.md §0.4: `containers/{id}?include=shipment,
//! shipment.port_of_lading`): they reach the related record's reference data, the records
//! along a path are included too, and every included resource is linked from the document
//! (JSON:API "full linkage").

use std::collections::BTreeSet;

use serde_json::Value;

use crate::common::{TestApp, codes, document, errors, with_tracking};
use crate::shipments::track;

tidemark_store::backends!(
    with_tracking,
    dotted_paths_include_the_related_records_reference_data,
    paths_past_reference_data_are_refused,
);

type Key = (String, String);

fn key(resource: &Value) -> Key {
    let text = |member: &str| resource[member].as_str().unwrap_or_default().to_owned();
    (text("type"), text("id"))
}

/// The resources of `data`, then those of `included`.
fn parts(body: &Value) -> (Vec<Value>, Vec<Value>) {
    let data = match &body["data"] {
        Value::Array(items) => items.clone(),
        other => vec![other.clone()],
    };
    let included = body["included"].as_array().cloned().unwrap_or_default();
    (data, included)
}

/// What the relationships of `resources` point at.
fn linked(resources: &[Value]) -> BTreeSet<Key> {
    let mut found = BTreeSet::new();
    for resource in resources {
        let Some(relationships) = resource["relationships"].as_object() else {
            continue;
        };
        for relationship in relationships.values() {
            match &relationship["data"] {
                Value::Array(items) => found.extend(items.iter().map(key)),
                one @ Value::Object(_) => {
                    found.insert(key(one));
                }
                _ => {}
            }
        }
    }
    found
}

/// Reads `path`; checks that `included` holds each resource once, every one of them linked
/// from `data` or another included resource; returns the included resources' keys.
async fn included(t: &TestApp, path: &str) -> BTreeSet<Key> {
    let response = t.get(path).await;
    assert_eq!(response.status(), 200, "{path}");
    let body = document(response).await;
    let (data, included) = parts(&body);
    let keys: BTreeSet<Key> = included.iter().map(key).collect();
    assert_eq!(keys.len(), included.len(), "{path}: a resource twice");
    let mut resources = data;
    resources.extend(included);
    let links = linked(&resources);
    let unlinked: Vec<&Key> = keys.difference(&links).collect();
    assert!(unlinked.is_empty(), "{path}: unlinked {unlinked:?}");
    keys
}

fn types(keys: &BTreeSet<Key>) -> BTreeSet<&str> {
    keys.iter().map(|(kind, _)| kind.as_str()).collect()
}

/// Tracks a shipment at the sandbox; returns its tracking request's and a container's id.
async fn tracked(t: &TestApp) -> (String, String) {
    let request = track(t, "TEST-TR-SUCCEEDED", "TEST").await;
    let container = &request["included"][0]["relationships"]["containers"]["data"][0]["id"];
    let id = |value: &Value| value.as_str().expect("an id").to_owned();
    (id(&request["data"]["id"]), id(container))
}

async fn dotted_paths_include_the_related_records_reference_data(t: TestApp) {
    let (request, container) = tracked(&t).await;
    let one = format!("/v2/containers/{container}");

    // The reference's own example: the shipment and the port it was loaded at.
    let both = included(
        &t,
        &format!("{one}?include=shipment,shipment.port_of_lading"),
    )
    .await;
    assert_eq!(types(&both), BTreeSet::from(["shipment", "port"]));
    let shipment = included(&t, &format!("{one}?include=shipment")).await;
    assert_eq!(both.difference(&shipment).count(), 1, "{both:?}");
    // The shipment on the way is included even when only the path through it is named.
    assert_eq!(
        included(&t, &format!("{one}?include=shipment.port_of_lading")).await,
        both
    );

    for (path, expected) in [
        (
            format!("{one}?include=transport_events.location,transport_events.vessel"),
            &["transport_event", "port", "vessel"][..],
        ),
        (
            "/v2/shipments?include=containers.pod_terminal".to_owned(),
            &["container", "terminal"],
        ),
        (
            format!("{one}/transport_events?include=shipment.destination,container.pod_terminal"),
            &["shipment", "port", "container", "terminal"],
        ),
        (
            format!("/v2/tracking_requests/{request}?include=tracked_object.port_of_discharge"),
            &["shipment", "port"],
        ),
        (
            "/v2/tracking_requests?include=tracked_object.pod_terminal".to_owned(),
            &["shipment", "terminal"],
        ),
    ] {
        let found = included(&t, &path).await;
        assert_eq!(
            types(&found),
            BTreeSet::from_iter(expected.iter().copied()),
            "{path}"
        );
    }
}

async fn paths_past_reference_data_are_refused(t: TestApp) {
    let (request, container) = tracked(&t).await;
    for path in [
        format!("/v2/containers/{container}?include=shipment.containers"),
        format!("/v2/containers/{container}?include=shipment.port_of_lading.terminals"),
        format!("/v2/containers/{container}?include=pod_terminal.port"),
        format!("/v2/containers/{container}?include=shipment."),
        format!("/v2/tracking_requests/{request}?include=tracked_object.containers"),
        "/v2/webhook_notifications?include=webhook.account".to_owned(),
    ] {
        let errors = errors(t.get(&path).await, 400).await;
        assert_eq!(
            codes(&errors),
            [("invalid_include".to_owned(), "include".to_owned())],
            "{path}"
        );
    }
}
