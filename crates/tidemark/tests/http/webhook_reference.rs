//! The reference API's webhook helpers (compat-api.md §4.1): `GET /v2/webhooks/ips` and
//! `GET /v2/webhook_notifications/examples`, which earlier were read as ids and 404.

use serde_json::Value;
use tidemark_store::testing::Backend;

use crate::common::{TestApp, codes, document, errors};

use crate::common::with_app;

tidemark_store::backends!(
    with_app,
    examples_are_rendered_as_deliveries_are,
    examples_need_an_event_of_the_catalog,
    every_event_of_the_catalog_has_an_example,
    without_configured_addresses_the_ip_list_is_empty,
);

async fn examples_are_rendered_as_deliveries_are(app: TestApp) {
    let response = app
        .get("/v2/webhook_notifications/examples?event=tracking_request.succeeded")
        .await;
    assert_eq!(response.status(), 200);
    let body = document(response).await;
    let data = body["data"].as_array().expect("a list of samples");
    assert_eq!(data.len(), 1);
    let sample = &data[0];
    assert_eq!(sample["type"], "webhook_notification");
    assert_eq!(sample["attributes"]["event"], "tracking_request.succeeded");
    assert_eq!(sample["relationships"]["webhook"]["data"], Value::Null);
    assert_eq!(
        sample["relationships"]["reference_object"]["data"]["type"],
        "tracking_request"
    );
    // compat-api.md §4.3: a succeeded request includes its container(s), shipment and
    // the request itself.
    let mut types: Vec<&str> = body["included"]
        .as_array()
        .expect("included")
        .iter()
        .filter_map(|r| r["type"].as_str())
        .collect();
    types.sort_unstable();
    types.dedup();
    for kind in ["container", "shipment", "tracking_request"] {
        assert!(types.contains(&kind), "{kind} in {types:?}");
    }

    let body = document(
        app.get("/v2/webhook_notifications/examples?event=container.transport.vessel_departed")
            .await,
    )
    .await;
    assert_eq!(
        body["data"][0]["relationships"]["reference_object"]["data"]["type"],
        "transport_event"
    );
}

async fn examples_need_an_event_of_the_catalog(app: TestApp) {
    for query in ["", "?event=", "?event=container.exploded"] {
        let response = app
            .get(&format!("/v2/webhook_notifications/examples{query}"))
            .await;
        let errors = errors(response, 400).await;
        assert_eq!(
            codes(&errors),
            [("invalid_parameter".to_owned(), "event".to_owned())],
            "{query}"
        );
    }
}

/// Every name of `GET /v2/webhooks/events` has an example under its own name; one Tidemark
/// does not record says so and takes the reference's shape for it.
async fn every_event_of_the_catalog_has_an_example(app: TestApp) {
    let catalog = document(app.get("/v2/webhooks/events").await).await;
    let events: Vec<(String, bool)> = catalog["data"]
        .as_array()
        .expect("categories")
        .iter()
        .flat_map(|category| category["attributes"]["events"].as_array().expect("events"))
        .map(|event| {
            (
                event["name"].as_str().expect("a name").to_owned(),
                event["produced"].as_bool().expect("produced"),
            )
        })
        .collect();
    assert!(events.len() >= 43, "the reference's catalog at least");
    for (name, produced) in &events {
        let body = document(
            app.get(&format!("/v2/webhook_notifications/examples?event={name}"))
                .await,
        )
        .await;
        let sample = &body["data"][0];
        assert_eq!(sample["attributes"]["event"], name.as_str());
        assert_eq!(
            sample["meta"]["produced"].as_bool().unwrap_or(true),
            *produced,
            "{name}"
        );
    }
    let berthed = document(
        app.get("/v2/webhook_notifications/examples?event=container.transport.vessel_berthed")
            .await,
    )
    .await;
    let reference = &berthed["data"][0]["relationships"]["reference_object"]["data"];
    assert_eq!(reference["type"], "transport_event");
    let event = berthed["included"]
        .as_array()
        .expect("included")
        .iter()
        .find(|r| r["type"] == "transport_event" && r["id"] == reference["id"])
        .expect("the transport event");
    assert_eq!(
        event["attributes"]["event"],
        "container.transport.vessel_berthed"
    );
    let extracted = document(
        app.get("/v2/webhook_notifications/examples?event=document.extracted")
            .await,
    )
    .await;
    assert_eq!(
        extracted["data"][0]["relationships"]["reference_object"]["data"]["type"],
        "document"
    );
    assert!(extracted["included"].as_array().is_some_and(Vec::is_empty));
}

async fn without_configured_addresses_the_ip_list_is_empty(app: TestApp) {
    let response = app.get("/v2/webhooks/ips").await;
    assert_eq!(response.status(), 200);
    let body: Value = response.json().await.expect("JSON");
    assert_eq!(body["webhook_notification_ips"], serde_json::json!([]));
    // A time, as the reference always answers: when the (empty) list was read.
    let updated = body["last_updated"].as_str().expect("a time");
    assert!(
        time::OffsetDateTime::parse(updated, &time::format_description::well_known::Rfc3339)
            .is_ok(),
        "{updated}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn configured_addresses_are_published() {
    let app = TestApp::build(Backend::Sqlite)
        .config(|config| {
            config.webhook_source_ips = vec![
                "203.0.113.7".parse().expect("ip"),
                "2001:db8::7".parse().expect("ip"),
            ];
        })
        .spawn()
        .await;
    let response = app.get("/v2/webhooks/ips").await;
    assert_eq!(response.status(), 200);
    assert!(
        response.headers()["content-type"]
            .to_str()
            .is_ok_and(|t| t.starts_with("application/json"))
    );
    let body: Value = response.json().await.expect("JSON");
    assert_eq!(
        body["webhook_notification_ips"],
        serde_json::json!(["203.0.113.7", "2001:db8::7"])
    );
    assert!(
        body["last_updated"]
            .as_str()
            .is_some_and(|t| t.ends_with('Z'))
    );
}
