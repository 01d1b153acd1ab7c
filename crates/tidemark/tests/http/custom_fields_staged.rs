//! A create's `initial_custom_fields` (compat-api.md §1.8): staged with the request and set
//! on the shipment and containers once the lookup finds them, to every container or to the
//! one a number names; checked against the account's fields at the create.

use serde_json::{Value, json};

use crate::common::{TestApp, codes, document, errors, tracking_request, with_tracking};

tidemark_store::backends!(
    with_tracking,
    staged_values_land_on_the_records_found,
    staged_values_are_checked_at_the_create,
);

async fn define(t: &TestApp, entity: &str, slug: &str, data_type: &str) {
    let body = json!({"data": {"type": "custom_field_definition", "attributes": {
        "entity_type": entity, "api_slug": slug, "display_name": slug, "data_type": data_type}}});
    let response = t
        .post_json("/v2/custom_field_definitions", &t.key, &body)
        .await;
    assert_eq!(response.status(), 201);
}

fn create(initial: &Value) -> Value {
    let mut body = tracking_request("bill_of_lading", "TEST-TR-SUCCEEDED", "TEST");
    body["data"]["attributes"]["initial_custom_fields"] = initial.clone();
    body
}

/// The values of `path`'s record, by slug.
async fn values(t: &TestApp, path: &str) -> Vec<(String, Value)> {
    let listed = document(t.get(&format!("{path}/custom_fields")).await).await;
    let mut found: Vec<(String, Value)> = listed["data"]
        .as_array()
        .expect("data")
        .iter()
        .map(|v| {
            (
                v["attributes"]["api_slug"]
                    .as_str()
                    .unwrap_or_default()
                    .to_owned(),
                v["attributes"]["value"].clone(),
            )
        })
        .collect();
    found.sort_by(|a, b| a.0.cmp(&b.0));
    found
}

async fn staged_values_land_on_the_records_found(t: TestApp) {
    define(&t, "Shipment", "po", "short_text").await;
    define(&t, "Container", "broker", "short_text").await;
    define(&t, "Container", "seal_ref", "short_text").await;
    // The sandbox's first container of this bill (the simulator's world is fixed).
    let probe = crate::shipments::track(&t, "TEST-TR-SUCCEEDED", "TEST").await;
    let first = probe["included"][0]["relationships"]["containers"]["data"][0]["id"]
        .as_str()
        .expect("a container")
        .to_owned();
    let number = document(t.get(&format!("/v2/containers/{first}")).await).await["data"]
        ["attributes"]["number"]
        .as_str()
        .expect("a number")
        .to_owned();
    let stop = format!(
        "/v2/shipments/{}/stop_tracking",
        probe["included"][0]["id"].as_str().expect("id")
    );
    assert_eq!(t.call(reqwest::Method::PATCH, &stop).await.status(), 200);

    let created = t
        .create(&create(&json!({
            "shipment": [{"api_slug": "po", "value": "PO-1"}],
            "containers": [
                {"api_slug": "broker", "value": "Acme"},
                {"api_slug": "seal_ref", "value": "S-1", "number": number.to_lowercase()},
            ],
        })))
        .await;
    assert_eq!(created.status(), 201, "staged with the request");
    let created = document(created).await;
    t.drain().await;
    let request = created["data"]["id"].as_str().expect("id");
    let read = document(
        t.get(&format!(
            "/v2/tracking_requests/{request}?include=tracked_object"
        ))
        .await,
    )
    .await;
    let shipment = &read["included"][0];
    let shipment_id = shipment["id"].as_str().expect("a shipment");
    assert_eq!(
        values(&t, &format!("/v2/shipments/{shipment_id}")).await,
        [("po".to_owned(), json!("PO-1"))]
    );
    let containers = shipment["relationships"]["containers"]["data"]
        .as_array()
        .expect("containers")
        .clone();
    assert!(
        containers.len() > 1,
        "a value for every container and one for a number"
    );
    for container in containers {
        let id = container["id"].as_str().expect("id");
        let path = format!("/v2/containers/{id}");
        let own = document(t.get(&path).await).await["data"]["attributes"]["number"].clone();
        let mut expected = vec![("broker".to_owned(), json!("Acme"))];
        if own == json!(number) {
            expected.push(("seal_ref".to_owned(), json!("S-1")));
        }
        assert_eq!(values(&t, &path).await, expected, "{own}");
    }
    // A later lookup sets nothing again: a value the client deleted stays deleted.
    let path = format!("/v2/shipments/{shipment_id}/custom_fields/po");
    assert_eq!(t.call(reqwest::Method::DELETE, &path).await.status(), 204);
    t.advance(time::Duration::days(1));
    t.drain().await;
    assert!(
        values(&t, &format!("/v2/shipments/{shipment_id}"))
            .await
            .is_empty()
    );
}

async fn staged_values_are_checked_at_the_create(t: TestApp) {
    define(&t, "Shipment", "due", "date").await;
    let refused = errors(
        t.create(&create(&json!({
            "shipment": [{"api_slug": "due", "value": "soon"}, {"api_slug": "nope", "value": 1}],
            "containers": [{"api_slug": "due", "value": "2026-01-01"}, {"value": 1}],
        })))
        .await,
        422,
    )
    .await;
    let at = "/data/attributes/initial_custom_fields";
    // The shape first: a value without its field's slug.
    assert_eq!(
        codes(&refused),
        [("blank".to_owned(), format!("{at}/containers/1/api_slug"))]
    );
    // The shape is right: each value is checked against its field.
    let refused = errors(
        t.create(&create(&json!({
            "shipment": [{"api_slug": "due", "value": "soon"}, {"api_slug": "nope", "value": 1}],
            "containers": [{"api_slug": "due", "value": "2026-01-01"}],
        })))
        .await,
        422,
    )
    .await;
    let mut found = codes(&refused);
    found.sort();
    assert_eq!(
        found,
        [
            ("invalid".to_owned(), format!("{at}/shipment/0/value")),
            (
                "unknown_custom_field".to_owned(),
                format!("{at}/containers/0/api_slug")
            ),
            (
                "unknown_custom_field".to_owned(),
                format!("{at}/shipment/1/api_slug")
            ),
        ]
    );
    let none = document(t.get("/v2/tracking_requests").await).await;
    assert_eq!(none["meta"]["total"], 0, "nothing kept of a refused create");
}
