//! `/v2/webhooks`: subscriptions and the event catalog (api.md §5).

use reqwest::Method;
use serde_json::{Value, json};

use crate::common::{JSON_API, TestApp, codes, document, errors};

use crate::common::with_app;

tidemark_store::backends!(
    with_app,
    a_webhook_is_created_read_listed_changed_and_deleted,
    bad_webhooks_are_refused_field_by_field,
    webhooks_belong_to_their_account,
    the_catalog_lists_every_event_with_a_description,
    custom_headers_are_kept_until_changed_and_null_clears_them,
);

fn body(attributes: &Value) -> Value {
    json!({"data": {"type": "webhook", "attributes": attributes}})
}

async fn delete(app: &TestApp, path: &str, key: &str) -> reqwest::Response {
    app.request(Method::DELETE, path, Some(key))
        .send()
        .await
        .expect("request")
}

async fn a_webhook_is_created_read_listed_changed_and_deleted(app: TestApp) {
    let created = app
        .post_json(
            "/v2/webhooks",
            &app.key,
            &body(&json!({
                "url": "https://hooks.example.com/tidemark",
                "events": ["tracking_request.succeeded", "container.transport.vessel_departed"],
                "headers": [{"name": "X-Team", "value": "ops"}],
            })),
        )
        .await;
    assert_eq!(created.status(), 201);
    let location = created
        .headers()
        .get("location")
        .and_then(|v| v.to_str().ok())
        .expect("Location")
        .to_owned();
    let created = document(created).await;
    let webhook = &created["data"];
    assert_eq!(webhook["type"], "webhook");
    assert_eq!(
        location,
        app.link(&format!(
            "/v2/webhooks/{}",
            webhook["id"].as_str().expect("id")
        ))
    );
    let attributes = &webhook["attributes"];
    assert_eq!(attributes["active"], true);
    assert_eq!(attributes["url"], "https://hooks.example.com/tidemark");
    assert!(
        attributes["secret"]
            .as_str()
            .expect("secret")
            .starts_with("whsec_")
    );
    assert_eq!(
        attributes["headers"],
        json!([{"name": "X-Team", "value": "ops"}])
    );
    assert!(attributes["disabled_reason"].is_null());

    let read = document(app.get(&location).await).await;
    assert_eq!(read["data"], created["data"]);
    let list = document(app.get("/v2/webhooks").await).await;
    assert_eq!(list["meta"]["total"], 1);
    assert_eq!(list["data"][0], created["data"]);

    let changed = document(
        app.patch(
            &location,
            &json!({"data": {"type": "webhook", "id": webhook["id"],
                "attributes": {"active": false, "events": []}}}),
        )
        .await,
    )
    .await;
    assert_eq!(changed["data"]["attributes"]["active"], false);
    // No events: every event of the reference's, listed as the reference lists them
    // (Tidemark's own go only to webhooks that name them).
    let every: Vec<Value> = tidemark_domain::webhook::subscribable()
        .into_iter()
        .filter(|event| !event.extension)
        .map(|event| Value::String(event.name))
        .collect();
    assert_eq!(changed["data"]["attributes"]["events"], Value::Array(every));
    assert_eq!(changed["data"]["attributes"]["url"], attributes["url"]);
    assert_eq!(
        changed["data"]["attributes"]["secret"],
        attributes["secret"]
    );
    assert_eq!(
        document(app.get(&location).await).await["data"],
        changed["data"]
    );

    let gone = delete(&app, &location, &app.key).await;
    // 200 without a body, as the reference documents it.
    assert_eq!(gone.status(), 200);
    assert!(gone.text().await.expect("body").is_empty());
    errors(app.get(&location).await, 404).await;
    errors(delete(&app, &location, &app.key).await, 404).await;
}

async fn custom_headers_are_kept_until_changed_and_null_clears_them(app: TestApp) {
    let attributes = json!({"url": "https://hooks.example.com/tidemark",
        "headers": [{"name": "X-Team", "value": "ops"}]});
    let created = document(
        app.post_json("/v2/webhooks", &app.key, &body(&attributes))
            .await,
    )
    .await;
    let id = created["data"]["id"].as_str().expect("id");
    let path = format!("/v2/webhooks/{id}");
    let patch = |attributes: Value| json!({"data": {"type": "webhook", "id": id, "attributes": attributes}});
    let kept = document(app.patch(&path, &patch(json!({"active": false}))).await).await;
    assert_eq!(kept["data"]["attributes"]["headers"], attributes["headers"]);
    let cleared = document(app.patch(&path, &patch(json!({"headers": null}))).await).await;
    assert_eq!(cleared["data"]["attributes"]["headers"], json!([]));
    assert_eq!(
        document(app.get(&path).await).await["data"],
        cleared["data"]
    );
}

/// Attributes a webhook cannot have, each with the pointer and code of its refusal.
fn refused_attributes() -> Vec<(Value, &'static str, &'static str)> {
    vec![
        (json!({}), "/data/attributes/url", "blank"),
        (
            json!({"url": "ftp://example.com/"}),
            "/data/attributes/url",
            "invalid",
        ),
        // A literal non-public address is refused unless the configuration allows it.
        (
            json!({"url": "http://169.254.169.254/latest"}),
            "/data/attributes/url",
            "invalid",
        ),
        (
            json!({"url": "http://127.0.0.1:9000/"}),
            "/data/attributes/url",
            "invalid",
        ),
        (
            json!({"url": "http://[::ffff:10.0.0.1]/"}),
            "/data/attributes/url",
            "invalid",
        ),
        (json!({"url": 7}), "/data/attributes/url", "invalid"),
        (
            json!({"url": format!("https://example.com/{}", "a".repeat(2048))}),
            "/data/attributes/url",
            "too_long",
        ),
        (
            json!({"url": "https://example.com", "events": ["container.exploded"]}),
            "/data/attributes/events/0",
            "invalid",
        ),
        (
            json!({"url": "https://example.com", "events": "container.created"}),
            "/data/attributes/events",
            "invalid",
        ),
        (
            json!({"url": "https://example.com", "headers": [{"name": "webhook-id", "value": "x"}]}),
            "/data/attributes/headers/0",
            "invalid",
        ),
        (
            json!({"url": "https://example.com", "headers": [{"name": "X-A"}]}),
            "/data/attributes/headers/0",
            "invalid",
        ),
        (
            json!({"url": "https://example.com", "headers": {"X-A": "b"}}),
            "/data/attributes/headers",
            "invalid",
        ),
        (
            json!({"url": "https://example.com", "active": "yes"}),
            "/data/attributes/active",
            "invalid",
        ),
        (
            json!({"url": "https://example.com", "secret": "whsec_mine"}),
            "/data/attributes/secret",
            "invalid",
        ),
    ]
}

async fn bad_webhooks_are_refused_field_by_field(app: TestApp) {
    for (attributes, pointer, code) in refused_attributes() {
        let response = app
            .post_json("/v2/webhooks", &app.key, &body(&attributes))
            .await;
        let problems = codes(&errors(response, 422).await);
        assert!(
            problems.contains(&(code.to_owned(), pointer.to_owned())),
            "{attributes}: {problems:?}"
        );
    }
    // A refused loopback address names the setting that allows it.
    let response = app
        .post_json(
            "/v2/webhooks",
            &app.key,
            &body(&json!({"url": "http://127.0.0.1:9000/hook"})),
        )
        .await;
    let refused = errors(response, 422).await;
    let detail = refused[0]["detail"].as_str().unwrap_or_default();
    assert!(detail.contains("webhook_allowed_networks"), "{detail}");
    let many: Vec<Value> = (0..11)
        .map(|i| json!({"name": format!("X-{i}"), "value": "v"}))
        .collect();
    let response = app
        .post_json(
            "/v2/webhooks",
            &app.key,
            &body(&json!({"url": "https://example.com", "headers": many})),
        )
        .await;
    assert!(
        codes(&errors(response, 422).await)
            .contains(&("too_many".to_owned(), "/data/attributes/headers".to_owned()))
    );

    let wrong_type = app
        .post_json(
            "/v2/webhooks",
            &app.key,
            &json!({"data": {"type": "hook", "attributes": {"url": "https://example.com"}}}),
        )
        .await;
    errors(wrong_type, 409).await;
    let with_id = app
        .post_json("/v2/webhooks", &app.key, &json!({"data": {"type": "webhook", "id": "x", "attributes": {"url": "https://example.com"}}}))
        .await;
    errors(with_id, 403).await;
    let unsupported = app
        .request(Method::POST, "/v2/webhooks", Some(&app.key))
        .header("Content-Type", JSON_API)
        .body("{not json")
        .send()
        .await
        .expect("request");
    errors(unsupported, 400).await;
    // Nothing was stored.
    assert_eq!(
        document(app.get("/v2/webhooks").await).await["meta"]["total"],
        0
    );
}

async fn webhooks_belong_to_their_account(app: TestApp) {
    let created = document(
        app.post_json(
            "/v2/webhooks",
            &app.key,
            &body(&json!({"url": "https://example.com/a"})),
        )
        .await,
    )
    .await;
    let path = format!(
        "/v2/webhooks/{}",
        created["data"]["id"].as_str().expect("id")
    );
    let (_, other) = app.new_account("other").await;
    errors(app.get_as(&other, &path).await, 404).await;
    errors(delete(&app, &path, &other).await, 404).await;
    let list = document(app.get_as(&other, "/v2/webhooks").await).await;
    assert_eq!(list["meta"]["total"], 0);
    errors(app.get("/v2/webhooks/not-a-uuid").await, 404).await;
    let unauthenticated = app
        .request(Method::GET, "/v2/webhooks", None)
        .send()
        .await
        .expect("request");
    errors(unauthenticated, 401).await;
    // Still there for its owner.
    document(app.get(&path).await).await;
}

async fn the_catalog_lists_every_event_with_a_description(app: TestApp) {
    let catalog = document(app.get("/v2/webhooks/events").await).await;
    let categories = catalog["data"].as_array().expect("categories");
    assert!(
        categories
            .iter()
            .all(|c| c["type"] == "webhook_event_category")
    );
    let events: Vec<&Value> = categories
        .iter()
        .flat_map(|c| c["attributes"]["events"].as_array().expect("events"))
        .collect();
    let find = |name: &str| events.iter().find(|e| e["name"] == name).copied();
    for name in [
        "tracking_request.succeeded",
        "tracking_request.failed",
        "tracking_request.awaiting_manifest",
        "tracking_request.tracking_stopped",
        "container.transport.vessel_departed",
        "container.transport.feeder_arrived",
        "container.transport.estimated.vessel_arrived",
        "shipment.estimated.arrival",
        "container.created",
        "container.updated",
        "container.transport.available",
        "container.pickup_lfd.changed",
        "container.pickup_appointment.changed",
        "container.pod_terminal_changed",
    ] {
        let event = find(name).unwrap_or_else(|| panic!("{name} is listed"));
        assert_eq!(event["produced"], true, "{name}");
        assert_eq!(event["extension"], false, "{name} is the reference's");
        assert!(!event["description"].as_str().expect("text").is_empty());
    }
    let own = find("shipment.predicted_arrival.diverged").expect("Tidemark's own is listed");
    assert_eq!(
        (&own["produced"], &own["extension"]),
        (&json!(true), &json!(true))
    );
    assert_eq!(
        find("container.transport.vessel_berthed").expect("listed")["produced"],
        false
    );
    let tracking = &categories[0];
    assert_eq!(tracking["id"], "tracking-request-events");
    assert_eq!(
        tracking["attributes"]["events"]
            .as_array()
            .expect("events")
            .len(),
        4
    );
}
