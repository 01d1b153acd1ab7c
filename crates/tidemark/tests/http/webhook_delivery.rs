//! Deliveries seen through the API: the delivery log of `/v2/webhook_notifications` and
//! the records notifications carry, frozen at their event.

use serde_json::{Value, json};
use tidemark_domain::Clock;
use tidemark_domain::webhook::{Attempt, ClaimedNotification, Settlement};

use crate::common::{TestApp, document, errors};
use crate::shipments::{shipment_action, track};

use crate::common::with_tracking;

tidemark_store::backends!(
    with_tracking,
    tracking_fills_the_delivery_log_of_the_webhooks_that_want_it,
    notifications_carry_the_records_of_their_moment,
);

/// A webhook of `app`'s account for `events` (empty: all) at `url`, as created.
pub async fn subscribed(app: &TestApp, url: &str, events: Value) -> Value {
    let attributes = json!({"url": url, "events": events});
    let body = json!({"data": {"type": "webhook", "attributes": attributes}});
    document(app.post_json("/v2/webhooks", &app.key, &body).await).await
}

async fn subscribe(t: &TestApp, events: Value) -> String {
    id_of(&subscribed(t, "https://hooks.example.com/t", events).await)
}

async fn tracking_fills_the_delivery_log_of_the_webhooks_that_want_it(t: TestApp) {
    let everything = subscribe(&t, json!([])).await;
    let successes = subscribe(&t, json!(["tracking_request.succeeded"])).await;
    let request = track(&t, "TEST-TR-SUCCEEDED", "TEST").await;
    let request_id = request["data"]["id"].as_str().expect("id").to_owned();

    let all = document(
        t.get(&format!(
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

    the_log_filters_by_webhook_event_and_status(&t, &successes).await;

    let path = format!(
        "/v2/webhook_notifications/{}",
        one["id"].as_str().expect("id")
    );
    let shown = document(t.get(&path).await).await;
    assert_eq!(shown["data"], *one);
    let (_, other) = t.new_account("other").await;
    errors(t.get_as(&other, &path).await, 404).await;
    assert_eq!(
        document(t.get_as(&other, "/v2/webhook_notifications").await).await["meta"]["total"],
        0
    );
    errors(t.get("/v2/webhook_notifications/nope").await, 404).await;

    let id = one["id"].as_str().expect("id");
    a_redelivery_is_due_now_unless_held(&t, id, &other).await;
    bad_filters_are_400(&t).await;
}

/// The delivery log filtered by webhook (with the webhook included), event and status.
async fn the_log_filters_by_webhook_event_and_status(t: &TestApp, successes: &str) {
    let wanted = document(
        t.get(&format!(
            "/v2/webhook_notifications?filter[webhook_id]={successes}&include=webhook"
        ))
        .await,
    )
    .await;
    assert_eq!(wanted["meta"]["total"], 1);
    assert_eq!(wanted["included"][0]["id"], successes);
    assert_eq!(wanted["included"][0]["type"], "webhook");

    let by_event = document(
        t
            .get("/v2/webhook_notifications?filter[event]=tracking_request.succeeded&filter[delivery_status]=pending")
            .await,
    )
    .await;
    assert_eq!(by_event["meta"]["total"], 2, "one per webhook");
    let none = document(
        t.get("/v2/webhook_notifications?filter[delivery_status]=succeeded,failed")
            .await,
    )
    .await;
    assert_eq!(none["meta"]["total"], 0);
}

/// A redelivery makes the notification due now; another account cannot ask it, and a
/// notification a dispatcher holds is refused.
async fn a_redelivery_is_due_now_unless_held(t: &TestApp, id: &str, other: &str) {
    let redeliver = format!("/v2/webhook_notifications/{id}/redeliver");
    let again = t.post_json(&redeliver, &t.key, &json!({})).await;
    assert_eq!(again.status(), 202);
    let again = document(again).await;
    assert_eq!(again["data"]["attributes"]["delivery_status"], "pending");
    assert_eq!(
        again["data"]["attributes"]["next_attempt_at"],
        again["data"]["attributes"]["updated_at"]
    );
    errors(t.post_json(&redeliver, other, &json!({})).await, 404).await;
    let claimed = t.claim_due().await;
    assert!(!claimed.is_empty());
    let busy = errors(t.post_json(&redeliver, &t.key, &json!({})).await, 409).await;
    assert_eq!(busy[0]["code"], "in_flight");
}

/// Filters and includes the log does not know are 400, naming the parameter.
async fn bad_filters_are_400(t: &TestApp) {
    for (query, parameter) in [
        (
            "filter[delivery_status]=delivered",
            "filter[delivery_status]",
        ),
        ("filter[webhook_id]=nope", "filter[webhook_id]"),
        ("filter[event]=Not An Event", "filter[event]"),
        ("include=reference_object.shipment", "include"),
    ] {
        let response = t.get(&format!("/v2/webhook_notifications?{query}")).await;
        let problems = errors(response, 400).await;
        assert!(
            problems
                .iter()
                .any(|p| p["source"]["parameter"] == parameter),
            "{query}: {problems:?}"
        );
    }
}

pub fn id_of(document: &Value) -> String {
    document["data"]["id"].as_str().expect("id").to_owned()
}

pub fn types(records: &[Value]) -> Vec<String> {
    let mut types: Vec<String> = records
        .iter()
        .map(|r| r["type"].as_str().unwrap_or_default().to_owned())
        .collect();
    types.sort();
    types.dedup();
    types
}

pub fn find<'a>(records: &'a [Value], kind: &str, id: &str) -> &'a Value {
    records
        .iter()
        .find(|r| r["type"] == kind && r["id"] == id)
        .unwrap_or_else(|| panic!("no {kind} {id} in {records:?}"))
}

async fn notifications_carry_the_records_of_their_moment(t: TestApp) {
    let everything = subscribe(&t, json!([])).await;
    let request = track(&t, "TEST-TR-SUCCEEDED", "TEST").await;
    let request_id = id_of(&request);
    let request_path = format!("/v2/tracking_requests/{request_id}");
    let found = document(t.get(&request_path).await).await;
    let shipment_id = found["data"]["relationships"]["tracked_object"]["data"]["id"]
        .as_str()
        .expect("a shipment")
        .to_owned();
    let shipment = document(t.get(&format!("/v2/shipments/{shipment_id}")).await).await;

    // What a delivery would carry: the records as clients read them at that moment.
    let claimed = t.claim_due().await;
    let succeeded = claimed
        .iter()
        .find(|c| c.notification.event == "tracking_request.succeeded")
        .expect("the success");
    the_claim_carries_the_records_as_read(&t, &claimed, &found, &shipment).await;

    // One failed attempt at the success, logged.
    let attempt = Attempt {
        at: t.clock.now(),
        status_code: Some(503),
        error: None,
        latency_ms: 42,
        response_body: Some("busy".to_owned()),
    };
    let retry = Settlement::Retry(t.clock.now());
    // Failing since now is not failing for five days: the webhook stays on.
    let five_days_ago = tidemark_domain::Timestamp::from_datetime(
        t.clock.now().as_datetime() - time::Duration::days(5),
    );
    assert!(
        t.store
            .settle_notification(succeeded, &attempt, &retry, five_days_ago)
            .await
            .expect("settle")
    );

    // The shipment stops: the request changes, the success's records do not.
    let stopped = shipment_action(&t, &shipment_id, "stop_tracking").await;
    assert_eq!(stopped.status(), 200);
    let now = document(t.get(&request_path).await).await;
    assert_eq!(now["data"]["attributes"]["status"], "tracking_stopped");

    the_success_shows_its_records_and_log(&t, succeeded, &request_id).await;
    the_stop_and_the_milestone_carry_their_own(&t, &everything, &request_id).await;
}

/// The claimed success carries the request, the shipment and its containers exactly as
/// clients read them now; a milestone carries its container, port, shipment and event.
async fn the_claim_carries_the_records_as_read(
    t: &TestApp,
    claimed: &[ClaimedNotification],
    found: &Value,
    shipment: &Value,
) {
    let request_id = id_of(found);
    let shipment_id = id_of(shipment);
    let succeeded = claimed
        .iter()
        .find(|c| c.notification.event == "tracking_request.succeeded")
        .expect("the success");
    assert_eq!(
        types(&succeeded.included),
        ["container", "shipment", "tracking_request"]
    );
    assert_eq!(
        find(&succeeded.included, "tracking_request", &request_id),
        &t.as_paths(&found["data"])
    );
    assert_eq!(
        find(&succeeded.included, "shipment", &shipment_id),
        &t.as_paths(&shipment["data"])
    );
    let containers = shipment["data"]["relationships"]["containers"]["data"]
        .as_array()
        .expect("containers");
    assert!(!containers.is_empty());
    for container in containers {
        let id = container["id"].as_str().expect("id");
        let read = document(t.get(&format!("/v2/containers/{id}")).await).await;
        assert_eq!(
            find(&succeeded.included, "container", id),
            &t.as_paths(&read["data"])
        );
    }
    let milestone = claimed
        .iter()
        .find(|c| c.notification.event == "container.transport.full_in")
        .expect("a milestone");
    let milestone_types = types(&milestone.included);
    for kind in ["container", "port", "shipment", "transport_event"] {
        assert!(
            milestone_types.iter().any(|t| t == kind),
            "{kind} in {milestone_types:?}"
        );
    }
}

/// The success, shown later, holds the request as it stood and its one logged attempt.
async fn the_success_shows_its_records_and_log(
    t: &TestApp,
    succeeded: &ClaimedNotification,
    request_id: &str,
) {
    let path = format!(
        "/v2/webhook_notifications/{}?include=reference_object,webhook_notification_logs",
        succeeded.notification.id
    );
    let shown = document(t.get(&path).await).await;
    let included = shown["included"].as_array().expect("included");
    assert_eq!(
        find(included, "tracking_request", request_id)["attributes"]["status"],
        "created",
        "as it stood when it succeeded"
    );
    let logs = shown["data"]["relationships"]["webhook_notification_logs"]["data"]
        .as_array()
        .expect("logs");
    assert_eq!(logs.len(), 1);
    assert_eq!(logs[0]["type"], "webhook_notification_log");
    let log = find(
        included,
        "webhook_notification_log",
        logs[0]["id"].as_str().expect("id"),
    );
    assert_eq!(log["attributes"]["status_code"], 503);
    assert_eq!(log["attributes"]["response_body"], "busy");
    assert_eq!(log["attributes"]["latency_ms"], 42);
    assert_eq!(
        log["relationships"]["webhook_notification"]["data"]["id"],
        succeeded.notification.id.to_string()
    );
    assert_eq!(shown["data"]["attributes"]["attempts"], 1);
}

/// The stop's own notification holds the request as stopped; a milestone's reference
/// object is its transport event.
async fn the_stop_and_the_milestone_carry_their_own(
    t: &TestApp,
    everything: &str,
    request_id: &str,
) {
    let stops = document(
    t
        .get(&format!(
            "/v2/webhook_notifications?filter[webhook_id]={everything}&filter[event]=tracking_request.tracking_stopped&include=reference_object,webhook"
        ))
        .await,
)
.await;
    assert_eq!(stops["meta"]["total"], 1);
    let included = stops["included"].as_array().expect("included");
    assert_eq!(types(included), ["tracking_request", "webhook"]);
    assert_eq!(
        find(included, "tracking_request", request_id)["attributes"]["status"],
        "tracking_stopped"
    );
    assert!(
        stops["data"][0]["relationships"]["webhook_notification_logs"]["data"]
            .as_array()
            .is_some_and(Vec::is_empty)
    );

    // A milestone's reference object is its transport event.
    let listed = document(
    t
        .get("/v2/webhook_notifications?filter[event]=container.transport.full_in&include=reference_object")
        .await,
)
.await;
    let reference = &listed["data"][0]["relationships"]["reference_object"]["data"];
    assert_eq!(reference["type"], "transport_event");
    let event = find(
        listed["included"].as_array().expect("included"),
        "transport_event",
        reference["id"].as_str().expect("id"),
    );
    assert_eq!(event["attributes"]["event"], "container.transport.full_in");
}
