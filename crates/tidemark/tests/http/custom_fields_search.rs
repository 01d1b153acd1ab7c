//! A custom field flagged as a reference number is found by search (`GET /v2/search`, the
//! lists' `q`, the console's search) like the built-in reference numbers; other fields'
//! values are not.

use serde_json::json;

use crate::common::{TestApp, document, with_tracking};

tidemark_store::backends!(with_tracking, reference_number_fields_are_searched);

async fn define(t: &TestApp, entity: &str, slug: &str, reference_number: bool) {
    let body = json!({"data": {"type": "custom_field_definition", "attributes": {
        "entity_type": entity, "api_slug": slug, "display_name": slug,
        "data_type": "short_text", "reference_number": reference_number}}});
    let response = t
        .post_json("/v2/custom_field_definitions", &t.key, &body)
        .await;
    assert_eq!(response.status(), 201);
}

async fn set(t: &TestApp, path: &str, slug: &str, value: &str) {
    let body =
        json!({"data": {"type": "custom_field", "attributes": {"api_slug": slug, "value": value}}});
    let response = t
        .post_json(&format!("{path}/custom_fields"), &t.key, &body)
        .await;
    assert_eq!(response.status(), 201);
}

async fn total(t: &TestApp, path: &str) -> u64 {
    document(t.get(path).await).await["meta"]["total"]
        .as_u64()
        .unwrap_or_default()
}

async fn reference_number_fields_are_searched(t: TestApp) {
    let (shipment, container) = crate::custom_fields::tracked_records(&t).await;
    define(&t, "Shipment", "po_ref", true).await;
    define(&t, "Container", "box_ref", true).await;
    define(&t, "Shipment", "note", false).await;
    set(
        &t,
        &format!("/v2/shipments/{shipment}"),
        "po_ref",
        "PO-98765",
    )
    .await;
    set(
        &t,
        &format!("/v2/containers/{container}"),
        "box_ref",
        "BX-4242",
    )
    .await;
    set(
        &t,
        &format!("/v2/shipments/{shipment}"),
        "note",
        "HIDDEN-555",
    )
    .await;

    for (path, expected) in [
        ("/v2/shipments?q=PO-98765", 1),
        ("/v2/shipments?q=po-987", 1),
        ("/v2/tracking_requests?q=PO-98765", 1),
        ("/v2/shipments?q=BX-4242", 1),
        ("/v2/tracking_requests?q=BX-4242", 1),
        ("/v2/shipments?q=HIDDEN-555", 0),
    ] {
        assert_eq!(total(&t, path).await, expected, "{path}");
    }
    assert!(
        found_kinds(&t, "PO-98765")
            .await
            .contains(&"shipment".to_owned())
    );
    let kinds = found_kinds(&t, "BX-4242").await;
    assert!(
        kinds.contains(&"shipment".to_owned()),
        "its container's: {kinds:?}"
    );
    let found = document(t.get("/v2/search?query=HIDDEN-555").await).await;
    assert!(
        found["data"].as_array().is_some_and(Vec::is_empty),
        "{found}"
    );
}

/// The kinds of record `GET /v2/search` finds for `query`.
async fn found_kinds(t: &TestApp, query: &str) -> Vec<String> {
    let found = document(t.get(&format!("/v2/search?query={query}")).await).await;
    found["data"]
        .as_array()
        .expect("data")
        .iter()
        .filter_map(|r| r["attributes"]["entity_type"].as_str().map(str::to_owned))
        .collect()
}
