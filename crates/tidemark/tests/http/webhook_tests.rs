//! `POST /v2/webhooks/{id}/test` against a real receiver on loopback: a signed sample of
//! the chosen event, sent as deliveries are, and what the receiver answered.

use serde_json::{Value, json};
use tidemark_testkit::Receiver;

use crate::common::{TestApp, codes, document, errors, with_receivers};
use crate::webhook_delivery::{find, id_of, subscribed, types};

tidemark_store::backends!(
    with_receivers,
    a_test_sends_a_signed_sample_and_reports_the_answer,
    terminal_samples_have_the_reference_shapes,
);

fn test_body(event: &Value) -> Value {
    json!({"data": {"type": "webhook_test", "attributes": {"event": event}}})
}

async fn a_test_sends_a_signed_sample_and_reports_the_answer(app: TestApp) {
    let (receiver, url) = Receiver::answering(&[(202, "thanks"), (500, "down")]).await;
    // Subscribed to nothing it is tested with, and off: a test goes out all the same.
    let created = document(
        app.post_json(
            "/v2/webhooks",
            &app.key,
            &json!({"data": {"type": "webhook", "attributes": {
                "url": url, "active": false, "events": ["tracking_request.failed"],
                "headers": [{"name": "X-Env", "value": "test"}]}}}),
        )
        .await,
    )
    .await;
    let webhook_id = id_of(&created);
    let secret = created["data"]["attributes"]["secret"]
        .as_str()
        .expect("secret")
        .to_owned();
    let path = format!("/v2/webhooks/{webhook_id}/test");

    let answered = app
        .post_json(
            &path,
            &app.key,
            &test_body(&json!("container.transport.vessel_departed")),
        )
        .await;
    assert_eq!(answered.status(), 200);
    let answered = document(answered).await;
    let test = &answered["data"];
    assert_eq!(test["type"], "webhook_test");
    assert_eq!(
        test["relationships"]["webhook"]["data"]["id"],
        webhook_id.as_str()
    );
    let attributes = &test["attributes"];
    assert_eq!(attributes["event"], "container.transport.vessel_departed");
    assert_eq!(attributes["url"], url.as_str());
    assert_eq!(attributes["delivered"], true);
    assert_eq!(attributes["status_code"], 202);
    assert_eq!(attributes["response_body"], "thanks");
    assert!(attributes["error"].is_null());

    arrived_as_sent(&receiver, &secret, &answered["data"]);

    // A receiver's failure is reported, not an error of the test.
    let failed = document(
        app.post_json(
            &path,
            &app.key,
            &test_body(&json!("tracking_request.succeeded")),
        )
        .await,
    )
    .await;
    assert_eq!(failed["data"]["attributes"]["delivered"], false);
    assert_eq!(failed["data"]["attributes"]["status_code"], 500);
    assert_eq!(failed["data"]["attributes"]["response_body"], "down");
    let sent = &failed["data"]["attributes"]["request_body"];
    assert_eq!(
        types(sent["included"].as_array().expect("included")),
        ["container", "shipment", "tracking_request"]
    );
    assert_eq!(receiver.got().len(), 2);

    unrecorded_events_go_as_their_examples(&app, &path).await;
    assert_eq!(receiver.got().len(), 3);

    // Tests are not notifications: the delivery log stays empty.
    let log = document(app.get("/v2/webhook_notifications").await).await;
    assert_eq!(log["meta"]["total"], 0);

    bad_asks_are_refused(&app, &path).await;
    assert_eq!(receiver.got().len(), 3, "nothing sent for a bad ask");
}

/// An event Tidemark does not record yet is sent as its example, marked so.
async fn unrecorded_events_go_as_their_examples(app: &TestApp, path: &str) {
    let berthed = document(
        app.post_json(
            path,
            &app.key,
            &test_body(&json!("container.transport.vessel_berthed")),
        )
        .await,
    )
    .await;
    let sent = &berthed["data"]["attributes"]["request_body"]["data"];
    assert_eq!(
        sent["attributes"]["event"],
        "container.transport.vessel_berthed"
    );
    assert_eq!(sent["meta"]["produced"], false);
}

/// What the receiver got is what the answer `test` says was sent, signed as deliveries
/// are, with the records of the sampled event.
fn arrived_as_sent(receiver: &Receiver, secret: &str, test: &Value) {
    let attributes = &test["attributes"];
    let got = receiver.got();
    assert_eq!(got.len(), 1);
    let (headers, body) = &got[0];
    let sent: Value = serde_json::from_slice(body).expect("json");
    assert_eq!(sent, attributes["request_body"]);
    assert_eq!(
        headers.get("webhook-id").and_then(|v| v.to_str().ok()),
        test["id"].as_str()
    );
    assert_eq!(
        headers.get("x-env").and_then(|v| v.to_str().ok()),
        Some("test")
    );
    standardwebhooks::Webhook::new(secret)
        .expect("secret")
        .verify(body, headers)
        .expect("a valid signature");
    let data = &sent["data"];
    assert_eq!(data["type"], "webhook_notification");
    assert_eq!(
        data["attributes"]["event"],
        "container.transport.vessel_departed"
    );
    let reference = &data["relationships"]["reference_object"]["data"];
    assert_eq!(reference["type"], "transport_event");
    let included = sent["included"].as_array().expect("included");
    let event = find(
        included,
        "transport_event",
        reference["id"].as_str().expect("id"),
    );
    assert_eq!(
        event["attributes"]["event"],
        "container.transport.vessel_departed"
    );
    let kinds = types(included);
    for kind in ["container", "port", "shipment", "transport_event", "vessel"] {
        assert!(kinds.iter().any(|k| k == kind), "{kind} in {kinds:?}");
    }
}

/// Asks for an unknown or missing event, another member, another type,
/// another account's webhook or none: refused, and nothing is sent.
async fn bad_asks_are_refused(app: &TestApp, path: &str) {
    for (body, code, pointer) in [
        (
            test_body(&json!("container.teleported")),
            "invalid",
            "/data/attributes/event",
        ),
        (test_body(&json!(7)), "invalid", "/data/attributes/event"),
        (
            json!({"data": {"type": "webhook_test", "attributes": {}}}),
            "blank",
            "/data/attributes/event",
        ),
        (
            json!({"data": {"type": "webhook_test", "attributes": {"event": "tracking_request.failed", "url": "x"}}}),
            "invalid",
            "/data/attributes/url",
        ),
    ] {
        let problems = errors(app.post_json(path, &app.key, &body).await, 422).await;
        let found = codes(&problems);
        assert!(
            found.iter().any(|(c, p)| c == code && p == pointer),
            "{body}: {found:?}"
        );
    }
    let unknown = errors(
        app.post_json(path, &app.key, &test_body(&json!("container.teleported")))
            .await,
        422,
    )
    .await;
    assert!(
        unknown[0]["detail"]
            .as_str()
            .is_some_and(|d| d.contains("not an event of the catalog")),
        "{unknown:?}"
    );
    let wrong_type = errors(
        app.post_json(
            path,
            &app.key,
            &json!({"data": {"type": "webhook", "attributes": {"event": "tracking_request.failed"}}}),
        )
        .await,
        409,
    )
    .await;
    assert_eq!(wrong_type[0]["code"], "type_mismatch");
    let (_, other) = app.new_account("other").await;
    errors(
        app.post_json(path, &other, &test_body(&json!("tracking_request.failed")))
            .await,
        404,
    )
    .await;
    errors(
        app.post_json(
            "/v2/webhooks/00000000-0000-0000-0000-000000000000/test",
            &app.key,
            &test_body(&json!("tracking_request.failed")),
        )
        .await,
        404,
    )
    .await;
}

/// The terminal's events as the reference API sends them (compat-api.md §4.3): the last
/// free day's with its records and a `transport_event` whose `value` is the new day, the
/// appointment's with that `transport_event` only, availability's with no `included`.
async fn terminal_samples_have_the_reference_shapes(app: TestApp) {
    let (_receiver, url) = Receiver::answering(&[(204, ""); 4]).await;
    let created = subscribed(&app, &url, json!([])).await;
    let path = format!("/v2/webhooks/{}/test", id_of(&created));
    let sent = |event: &'static str| {
        let app = &app;
        let path = path.clone();
        async move {
            let answered = document(
                app.post_json(&path, &app.key, &test_body(&json!(event)))
                    .await,
            )
            .await;
            answered["data"]["attributes"]["request_body"].clone()
        }
    };
    let reference =
        |body: &Value| body["data"]["relationships"]["reference_object"]["data"].clone();

    let lfd = sent("container.pickup_lfd.changed").await;
    let included = lfd["included"].as_array().expect("included");
    let kinds = types(included);
    for kind in ["shipment", "container", "port", "transport_event"] {
        assert!(kinds.iter().any(|k| k == kind), "{kind} in {kinds:?}");
    }
    let pointer = reference(&lfd);
    assert_eq!(pointer["type"], "transport_event");
    let event = find(
        included,
        "transport_event",
        pointer["id"].as_str().expect("id"),
    );
    assert_eq!(event["attributes"]["event"], "container.pickup_lfd.changed");
    assert_eq!(event["attributes"]["data_source"], "terminal");
    let container = included
        .iter()
        .find(|record| record["type"] == "container")
        .expect("the container");
    assert_eq!(
        event["attributes"]["value"], container["attributes"]["pickup_lfd"],
        "the value is the container's new last free day"
    );

    let appointment = sent("container.pickup_appointment.changed").await;
    assert_eq!(
        types(appointment["included"].as_array().expect("included")),
        ["transport_event"]
    );
    assert!(appointment["included"][0]["attributes"]["value"].is_string());

    let available = sent("container.transport.available").await;
    assert!(available.get("included").is_none(), "{available}");
    assert_eq!(reference(&available)["type"], "transport_event");

    let moved = sent("container.pod_terminal_changed").await;
    let pointer = reference(&moved);
    assert_eq!(pointer["type"], "container_pod_terminal_changed_event");
    let change = find(
        moved["included"].as_array().expect("included"),
        "container_pod_terminal_changed_event",
        pointer["id"].as_str().expect("id"),
    );
    assert_eq!(change["attributes"]["data_source"], "terminal");
}
