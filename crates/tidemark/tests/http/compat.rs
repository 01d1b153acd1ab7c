//! What a client of the reference API reads and sends works unchanged (api.md §1, §4;
//! compat-api.md): every documented attribute and relationship is present in every
//! document (checked against `data/compat-fields.toml`), every documented include name is
//! accepted, the reference client's default calls answer 200, and parameters outside
//! JSON:API's families are ignored.

use std::collections::{BTreeMap, BTreeSet};

use serde::Deserialize;
use serde_json::{Value, json};

use crate::common::{TestApp, codes, document, errors, tracking_request};

use crate::common::with_tracking;

tidemark_store::backends!(
    with_tracking,
    every_document_carries_every_reference_field,
    the_reference_clients_default_calls_answer,
    unknown_parameters_are_ignored_and_unknown_filters_refused,
    a_create_with_the_reference_customer_is_taken,
    custom_fields_are_none_as_the_reference_answers_without_definitions,
);

#[derive(Deserialize)]
pub(crate) struct Fields {
    attributes: Vec<String>,
    relationships: Vec<String>,
}

pub(crate) fn reference_fields() -> BTreeMap<String, Fields> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/compat-fields.toml");
    let text = std::fs::read_to_string(path).expect("data/compat-fields.toml");
    toml::from_str(&text).expect("the field list parses")
}

/// Every resource object of a document: `data` (one or many) and `included`.
fn resources(body: &Value) -> Vec<Value> {
    let mut found = match &body["data"] {
        Value::Array(items) => items.clone(),
        Value::Object(_) => vec![body["data"].clone()],
        _ => Vec::new(),
    };
    found.extend(body["included"].as_array().cloned().unwrap_or_default());
    found
}

/// Checks every resource of `body` against the reference's fields; returns the types seen.
pub(crate) fn check(body: &Value, fields: &BTreeMap<String, Fields>) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    for resource in resources(body) {
        let kind = resource["type"].as_str().expect("a type").to_owned();
        if let Some(expected) = fields.get(&kind) {
            for name in &expected.attributes {
                assert!(
                    resource["attributes"].get(name).is_some(),
                    "{kind} lacks attribute {name}: {resource}"
                );
            }
            for name in &expected.relationships {
                assert!(
                    resource["relationships"].get(name).is_some(),
                    "{kind} lacks relationship {name}: {resource}"
                );
            }
        }
        seen.insert(kind);
    }
    if body["links"]["first"].is_string() {
        assert_eq!(body["links"]["current"], body["links"]["self"], "{body}");
        for member in ["current", "last", "records"] {
            assert!(
                body["meta"]["pagination"][member].is_number(),
                "meta.pagination.{member} in {body}"
            );
        }
    }
    seen
}

/// Tracks `number` at the sandbox; returns the request's id.
async fn track(t: &TestApp, number: &str) -> String {
    let request = crate::shipments::track(t, number, "TEST").await;
    request["data"]["id"].as_str().expect("id").to_owned()
}

fn first_id(body: &Value, kind: &str) -> String {
    resources(body)
        .iter()
        .find(|r| r["type"] == kind)
        .and_then(|r| r["id"].as_str())
        .unwrap_or_else(|| panic!("no {kind} in {body}"))
        .to_owned()
}

async fn every_document_carries_every_reference_field(t: TestApp) {
    let fields = reference_fields();
    let hook = json!({"data": {"type": "webhook", "attributes": {
        "url": "https://hooks.example.com/tidemark", "active": true}}});
    let response = t.post_json("/v2/webhooks", &t.key, &hook).await;
    assert_eq!(response.status(), 201);
    let mut seen = check(&document(response).await, &fields);

    let request = track(&t, "TEST-TR-SUCCEEDED").await;
    let mut read = async |path: &str| -> Value {
        let response = t.get(path).await;
        assert_eq!(response.status(), 200, "{path}");
        let body = document(response).await;
        seen.extend(check(&body, &fields));
        body
    };
    read(&format!("/v2/tracking_requests/{request}")).await;
    read("/v2/tracking_requests").await;
    let shipments = read(
        "/v2/shipments?include=containers,port_of_lading,port_of_discharge,destination,pod_terminal,destination_terminal",
    )
    .await;
    let containers = read("/v2/containers?include=shipment,pod_terminal,pickup_facility").await;
    let container = first_id(&containers, "container");
    read(&format!(
        "/v2/containers/{container}?include=shipment,pod_terminal,pickup_facility,transport_events"
    ))
    .await;
    let events = read(&format!(
        "/v2/containers/{container}/transport_events?include=location,terminal,vessel"
    ))
    .await;
    read(&format!("/v2/containers/{container}/raw_events")).await;
    let port = first_id(&shipments, "port");
    read(&format!("/v2/ports/{port}")).await;
    read(&format!(
        "/v2/terminals/{}",
        first_id(&shipments, "terminal")
    ))
    .await;
    read(&format!("/v2/vessels/{}", first_id(&events, "vessel"))).await;
    read("/v2/shipping_lines?search=TEST").await;
    read("/v2/shipping_lines/TEST").await;
    read("/v2/webhooks").await;
    read("/v2/webhook_notifications?include=webhook,reference_object").await;
    read("/v2/search?query=TEST-TR-SUCCEEDED").await;
    seen.extend(crate::custom_fields::served(&t, &fields).await);
    let party = json!({"data": {"attributes": {"company_name": "Northwind"}}});
    let response = t.post_json("/v2/parties", &t.key, &party).await;
    assert_eq!(response.status(), 201);
    seen.extend(check(&document(response).await, &fields));

    let expected: BTreeSet<String> = fields.keys().cloned().collect();
    let missing: Vec<&String> = expected.difference(&seen).collect();
    assert!(missing.is_empty(), "never served: {missing:?}");
}

async fn the_reference_clients_default_calls_answer(t: TestApp) {
    let request = track(&t, "TEST-TR-SUCCEEDED").await;
    // tracked_object is included by default; an empty include turns it off.
    let body = document(t.get(&format!("/v2/tracking_requests/{request}")).await).await;
    let included = body["included"].as_array().expect("included by default");
    assert_eq!(included.len(), 1);
    assert_eq!(included[0]["type"], "shipment");
    let body = document(
        t.get(&format!("/v2/tracking_requests/{request}?include="))
            .await,
    )
    .await;
    assert!(body.get("included").is_none(), "{body}");

    let list = document(t.get("/v2/containers").await).await;
    let container = first_id(&list, "container");
    for path in [
        "/v2/containers?include=shipment,pod_terminal,pickup_facility".to_owned(),
        format!("/v2/containers/{container}?include=shipment,pod_terminal,pickup_facility"),
        format!("/v2/containers/{container}?include=shipment%2Cpod_terminal%2Cpickup_facility"),
        format!("/v2/containers/{container}/transport_events?include=location,terminal,vessel,shipment,container"),
        "/v2/shipments?include=containers,pod_terminal,port_of_lading,port_of_discharge,destination,destination_terminal".to_owned(),
        "/v2/tracking_requests?include=tracked_object".to_owned(),
        "/v2/webhook_notifications?include=webhook,reference_object".to_owned(),
    ] {
        let response = t.get(&path).await;
        assert_eq!(response.status(), 200, "{path}: {:?}", response.text().await);
    }

    // The reference documents `ref_number` (singular) on PATCH.
    let response = t
        .patch(
            &format!("/v2/tracking_requests/{request}"),
            &json!({"data": {"type": "tracking_request", "attributes": {"ref_number": "PO-77"}}}),
        )
        .await;
    assert_eq!(response.status(), 200);
    let body = document(response).await;
    assert_eq!(body["data"]["attributes"]["ref_numbers"], json!(["PO-77"]));
    let response = t
        .patch(
            &format!("/v2/tracking_requests/{request}"),
            &json!({"data": {"type": "tracking_request", "attributes": {
                "ref_number": "PO-1", "ref_numbers": ["PO-2"]}}}),
        )
        .await;
    let errors = errors(response, 422).await;
    assert_eq!(codes(&errors)[0].1, "/data/attributes/ref_number");
}

async fn unknown_parameters_are_ignored_and_unknown_filters_refused(t: TestApp) {
    track(&t, "TEST-TR-SUCCEEDED").await;
    for path in [
        "/v2/containers?utm_source=sdk&foo[bar]=1",
        "/v2/tracking_requests?x-account-id=1",
        "/v2/shipments?customer_id=2",
        "/v2/shipping_lines?color=red",
    ] {
        let response = t.get(path).await;
        assert_eq!(response.status(), 200, "{path}");
    }
    for (path, parameter) in [
        ("/v2/containers?filter[colour]=red", "filter[colour]"),
        ("/v2/tracking_requests?filter[nope]=1", "filter[nope]"),
        ("/v2/containers?page[size]=500", "page[size]"),
        ("/v2/containers?include=owner", "include"),
    ] {
        let errors = errors(t.get(path).await, 400).await;
        assert_eq!(codes(&errors)[0].1, parameter, "{path}");
    }
}

/// The reference's custom field values: an account without definitions has none to read,
/// and a value for an `api_slug` no definition has is refused at that slug; a record that
/// does not exist is 404.
async fn custom_fields_are_none_as_the_reference_answers_without_definitions(t: TestApp) {
    let request = crate::shipments::track(&t, "TEST-TR-SUCCEEDED", "TEST").await;
    let request_id = request["data"]["id"].as_str().expect("an id").to_owned();
    let shipment = &request["included"][0];
    let shipment_id = shipment["id"].as_str().expect("a shipment").to_owned();
    let container_id = shipment["relationships"]["containers"]["data"][0]["id"]
        .as_str()
        .expect("a container")
        .to_owned();
    let value = json!({"data": {"type": "custom_field", "attributes": {"api_slug": "cost_center", "value": "CC-17"}}});
    for path in [
        format!("/v2/tracking_requests/{request_id}/custom_fields"),
        format!("/v2/shipments/{shipment_id}/custom_fields"),
        format!("/v2/containers/{container_id}/custom_fields"),
    ] {
        let listed = document(t.get(&path).await).await;
        assert_eq!(listed["data"], json!([]), "{path}");
        assert_eq!(listed["meta"]["total"], 0, "{path}");
        let link = listed["links"]["self"].as_str().unwrap_or_default();
        assert!(link.starts_with(&format!("{}?", t.link(&path))), "{link}");
        let refused = codes(&errors(t.post_json(&path, &t.key, &value).await, 422).await);
        assert_eq!(
            refused,
            [(
                "unknown_custom_field".to_owned(),
                "/data/attributes/api_slug".to_owned()
            )],
            "{path}"
        );
        let incomplete = json!({"data": {"type": "custom_field", "attributes": {"api_slug": " "}}});
        let refused = codes(&errors(t.post_json(&path, &t.key, &incomplete).await, 422).await);
        assert_eq!(
            refused,
            [
                ("blank".to_owned(), "/data/attributes/value".to_owned()),
                ("blank".to_owned(), "/data/attributes/api_slug".to_owned())
            ],
            "{path}"
        );
        let other = json!({"data": {"type": "party", "attributes": {}}});
        errors(t.post_json(&path, &t.key, &other).await, 409).await;
    }
    let missing = "0192a3b4-0000-7000-8000-000000000000";
    for path in [
        format!("/v2/tracking_requests/{missing}/custom_fields"),
        format!("/v2/shipments/{missing}/custom_fields"),
        format!("/v2/containers/{missing}/custom_fields"),
    ] {
        errors(t.get(&path).await, 404).await;
        errors(t.post_json(&path, &t.key, &value).await, 404).await;
    }
}

/// The reference's create example carries a customer party: kept when it is one of the
/// account's, 404 at its pointer when not (as JSON:API wants for a missing related
/// resource); a staged custom field value of a field the account does not have is refused
/// at its slug.
async fn a_create_with_the_reference_customer_is_taken(t: TestApp) {
    let party = json!({"data": {"attributes": {"company_name": "COMPANY NAME"}}});
    let party = document(t.post_json("/v2/parties", &t.key, &party).await).await;
    let linkage = json!({"type": "party", "id": party["data"]["id"]});
    let mut body = tracking_request("bill_of_lading", "TEST-TR-SUCCEEDED", "TEST");
    body["data"]["relationships"] = json!({"customer": {"data": linkage}});
    let created = t.create(&body).await;
    assert_eq!(created.status(), 201);
    assert_eq!(
        document(created).await["data"]["relationships"]["customer"]["data"],
        linkage
    );

    let mut body = tracking_request("bill_of_lading", "TEST-TR-FAILED", "TEST");
    body["data"]["relationships"] = json!({"customer": {"data": {"type": "party", "id": "0192a3b4-0000-7000-8000-000000000001"}}});
    let refused = codes(&errors(t.create(&body).await, 404).await);
    assert_eq!(
        refused,
        [(
            "not_found".to_owned(),
            "/data/relationships/customer/data/id".to_owned()
        )]
    );

    let mut body = tracking_request("bill_of_lading", "TEST-TR-FAILED", "TEST");
    body["data"]["attributes"]["initial_custom_fields"] =
        json!({"shipment": [{"api_slug": "po", "value": "PO-1"}]});
    let refused = codes(&errors(t.create(&body).await, 422).await);
    assert_eq!(
        refused,
        [(
            "unknown_custom_field".to_owned(),
            "/data/attributes/initial_custom_fields/shipment/0/api_slug".to_owned()
        )]
    );
    body["data"]["attributes"]["initial_custom_fields"] =
        json!({"containers": {"api_slug": "po"}, "vessel": []});
    let refused = codes(&errors(t.create(&body).await, 422).await);
    assert_eq!(
        refused,
        [
            (
                "invalid".to_owned(),
                "/data/attributes/initial_custom_fields/containers".to_owned()
            ),
            (
                "invalid".to_owned(),
                "/data/attributes/initial_custom_fields/vessel".to_owned()
            )
        ]
    );
    // Nothing to stage: taken.
    body["data"]["attributes"]["initial_custom_fields"] = json!({"shipment": [], "containers": []});
    assert_eq!(t.create(&body).await.status(), 201);
    let refused = codes(&errors(t.get("/v2/shipments?filter[customer_id]=x").await, 400).await);
    assert_eq!(
        refused[0],
        (
            "invalid_filter".to_owned(),
            "filter[customer_id]".to_owned()
        )
    );
}
