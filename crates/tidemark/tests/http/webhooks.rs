//! `/v2/webhooks`: subscriptions and the event catalog (api.md §5).

use reqwest::Method;
use serde_json::{Value, json};

use crate::both_backends;
use crate::common::{JSON_API, TestApp, codes, document, errors};

both_backends!(
    a_webhook_is_created_read_listed_changed_and_deleted,
    bad_webhooks_are_refused_field_by_field,
    webhooks_belong_to_their_account,
    the_catalog_lists_every_event_with_a_description,
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
        format!("/v2/webhooks/{}", webhook["id"].as_str().expect("id"))
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
    assert_eq!(changed["data"]["attributes"]["events"], json!([]));
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
    assert_eq!(gone.status(), 204);
    assert!(gone.text().await.expect("body").is_empty());
    errors(app.get(&location).await, 404).await;
    errors(delete(&app, &location, &app.key).await, 404).await;
}

async fn bad_webhooks_are_refused_field_by_field(app: TestApp) {
    for (attributes, pointer, code) in [
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
    ] {
        let response = app
            .post_json("/v2/webhooks", &app.key, &body(&attributes))
            .await;
        let problems = codes(&errors(response, 422).await);
        assert!(
            problems.contains(&(code.to_owned(), pointer.to_owned())),
            "{attributes}: {problems:?}"
        );
    }
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
        "container.transport.estimated.vessel_arrived",
        "shipment.estimated.arrival",
        "container.created",
        "container.updated",
    ] {
        let event = find(name).unwrap_or_else(|| panic!("{name} is listed"));
        assert_eq!(event["produced"], true, "{name}");
        assert!(!event["description"].as_str().expect("text").is_empty());
    }
    assert_eq!(
        find("container.pickup_lfd.changed").expect("listed")["produced"],
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

mod delivery_log {
    //! `/v2/webhook_notifications`: what tracking recorded, fanned out to the webhooks.

    use serde_json::{Value, json};

    use crate::common::{Tracking, document, errors, tracking_request};
    use crate::tracking_backends;

    tracking_backends!(tracking_fills_the_delivery_log_of_the_webhooks_that_want_it);

    async fn subscribe(t: &Tracking, events: Value) -> String {
        let created = document(
            t.app
                .post_json(
                    "/v2/webhooks",
                    &t.app.key,
                    &json!({"data": {"type": "webhook", "attributes": {
                        "url": "https://hooks.example.com/t", "events": events}}}),
                )
                .await,
        )
        .await;
        created["data"]["id"].as_str().expect("id").to_owned()
    }

    async fn tracking_fills_the_delivery_log_of_the_webhooks_that_want_it(t: Tracking) {
        let everything = subscribe(&t, json!([])).await;
        let successes = subscribe(&t, json!(["tracking_request.succeeded"])).await;
        let request = document(
            t.app
                .create(&tracking_request(
                    "bill_of_lading",
                    "TEST-TR-SUCCEEDED",
                    "TEST",
                ))
                .await,
        )
        .await;
        let request_id = request["data"]["id"].as_str().expect("id").to_owned();
        t.drain().await;

        let all = document(
            t.app
                .get(&format!(
                    "/v2/webhook_notifications?filter[webhook_id]={everything}&page[size]=100"
                ))
                .await,
        )
        .await;
        let notifications = all["data"].as_array().expect("data");
        assert!(
            notifications.len() > 2,
            "the success and the milestones reached"
        );
        let succeeded: Vec<&Value> = notifications
            .iter()
            .filter(|n| n["attributes"]["event"] == "tracking_request.succeeded")
            .collect();
        assert_eq!(succeeded.len(), 1);
        let one = succeeded[0];
        assert_eq!(one["type"], "webhook_notification");
        assert_eq!(one["attributes"]["id"], one["id"]);
        assert_eq!(one["attributes"]["delivery_status"], "pending");
        assert_eq!(
            one["relationships"]["webhook"]["data"]["id"],
            everything.as_str()
        );
        assert_eq!(
            one["relationships"]["reference_object"]["data"],
            json!({"id": request_id, "type": "tracking_request"})
        );
        assert!(notifications.iter().any(|n| {
            n["attributes"]["event"]
                .as_str()
                .is_some_and(|e| e.starts_with("container.transport."))
                && n["relationships"]["reference_object"]["data"]["type"] == "transport_event"
        }));

        let wanted = document(
            t.app
                .get(&format!(
                    "/v2/webhook_notifications?filter[webhook_id]={successes}&include=webhook"
                ))
                .await,
        )
        .await;
        assert_eq!(wanted["meta"]["total"], 1);
        assert_eq!(wanted["included"][0]["id"], successes.as_str());
        assert_eq!(wanted["included"][0]["type"], "webhook");

        let by_event = document(
            t.app
                .get("/v2/webhook_notifications?filter[event]=tracking_request.succeeded&filter[delivery_status]=pending")
                .await,
        )
        .await;
        assert_eq!(by_event["meta"]["total"], 2, "one per webhook");
        let none = document(
            t.app
                .get("/v2/webhook_notifications?filter[delivery_status]=succeeded,failed")
                .await,
        )
        .await;
        assert_eq!(none["meta"]["total"], 0);

        let path = format!(
            "/v2/webhook_notifications/{}",
            one["id"].as_str().expect("id")
        );
        let shown = document(t.app.get(&path).await).await;
        assert_eq!(shown["data"], *one);
        let (_, other) = t.app.new_account("other").await;
        errors(t.app.get_as(&other, &path).await, 404).await;
        assert_eq!(
            document(t.app.get_as(&other, "/v2/webhook_notifications").await).await["meta"]["total"],
            0
        );
        errors(t.app.get("/v2/webhook_notifications/nope").await, 404).await;

        // Redelivery: due again now; refused while a dispatcher holds it.
        let redeliver = format!("{path}/redeliver");
        let again = t.app.post_json(&redeliver, &t.app.key, &json!({})).await;
        assert_eq!(again.status(), 202);
        let again = document(again).await;
        assert_eq!(again["data"]["attributes"]["delivery_status"], "pending");
        assert_eq!(
            again["data"]["attributes"]["next_attempt_at"],
            again["data"]["attributes"]["updated_at"]
        );
        errors(t.app.post_json(&redeliver, &other, &json!({})).await, 404).await;
        let claimed = tidemark_store::DeliveryStore::claim_notifications(
            t.app.store.as_ref(),
            100,
            std::time::Duration::from_secs(60),
            tidemark_domain::Clock::now(t.clock.as_ref()),
        )
        .await
        .expect("claim");
        assert!(!claimed.is_empty());
        let busy = errors(
            t.app.post_json(&redeliver, &t.app.key, &json!({})).await,
            409,
        )
        .await;
        assert_eq!(busy[0]["code"], "in_flight");
        for (query, parameter) in [
            (
                "filter[delivery_status]=delivered",
                "filter[delivery_status]",
            ),
            ("filter[webhook_id]=nope", "filter[webhook_id]"),
            ("filter[event]=Not An Event", "filter[event]"),
            ("include=reference_object.shipment", "include"),
        ] {
            let response = t
                .app
                .get(&format!("/v2/webhook_notifications?{query}"))
                .await;
            let problems = errors(response, 400).await;
            assert!(
                problems
                    .iter()
                    .any(|p| p["source"]["parameter"] == parameter),
                "{query}: {problems:?}"
            );
        }
    }
}
