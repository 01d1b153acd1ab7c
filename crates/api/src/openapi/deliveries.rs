//! The deliveries Tidemark makes, under OpenAPI 3.1's `webhooks`: one entry per event it
//! records, each with the body a delivery of it carries (a sample rendered by the code
//! that renders real deliveries) and the Standard Webhooks headers that sign it.

use std::sync::Arc;

use serde_json::{Value, json};
use tidemark_domain::{AccountId, CarrierMatrix, EventName, Timestamp, WebhookId};

use super::examples::Samples;
use tidemark_app::webhooks::sample_notification;
use tidemark_wire::EventRecords;

/// When the samples happen (a fixed time, so the document reads the same each day).
const SAMPLED_AT: &str = "2026-11-24T09:30:00Z";

/// [`SAMPLED_AT`] as a time.
pub(super) fn sampled_at() -> Option<Timestamp> {
    Timestamp::parse_rfc3339(SAMPLED_AT).ok()
}

/// The headers every delivery carries (Standard Webhooks).
fn headers() -> Value {
    let header = |name: &str, description: &str, example: &str| {
        json!({"name": name, "in": "header", "required": true, "description": description,
               "schema": {"type": "string"}, "example": example})
    };
    json!([
        header(
            "webhook-id",
            "The notification's id: the same on every retry, so receivers dedupe by it.",
            "01938f3c-6a1e-7b2d-9c4f-5e6a7b8c9d0e"
        ),
        header(
            "webhook-timestamp",
            "When this attempt was signed, in Unix seconds.",
            "1795599000"
        ),
        header(
            "webhook-signature",
            "`v1,` and the base64 HMAC-SHA256, with the webhook's secret, of `{webhook-id}.{webhook-timestamp}.{body}`; several, space-separated, while a secret rotates.",
            "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4="
        ),
    ])
}

/// Each event's delivery body, by event name.
fn bodies(carriers: &Arc<CarrierMatrix>) -> Vec<(EventName, &'static str, Value)> {
    let Some(at) = sampled_at() else {
        return Vec::new();
    };
    let render = EventRecords::new(Arc::clone(carriers));
    EventName::catalog()
        .into_iter()
        .filter_map(|(name, meaning)| {
            let (_, body) =
                sample_notification(&render, AccountId::new(), WebhookId::new(), name, at)?;
            Some((name, meaning, body))
        })
        .collect()
}

/// The schema of a delivery's body. Its notification is the reference API's webhook
/// shape: fewer members than `GET /v2/webhook_notifications/{id}` shows.
fn schema() -> Value {
    let to_one = |kind: &str| {
        json!({"type": "object", "required": ["data"], "properties": {"data": {
            "type": ["object", "null"], "required": ["id", "type"],
            "properties": {"id": {"type": "string", "format": "uuid"}, "type": {"type": "string", "examples": [kind]}}}}})
    };
    json!({
        "type": "object",
        "description": "The body of a webhook delivery: the notification, and the records its event concerns as they stood when it was recorded.",
        "required": ["data"],
        "properties": {
            "data": {
                "type": "object",
                "required": ["id", "type", "attributes", "relationships"],
                "properties": {
                    "id": {"type": "string", "format": "uuid", "description": "The notification's id, also sent as `webhook-id`."},
                    "type": {"const": "webhook_notification"},
                    "attributes": {
                        "type": "object",
                        "required": ["id", "event", "delivery_status", "created_at"],
                        "properties": {
                            "id": {"type": "string", "format": "uuid"},
                            "event": {"type": "string", "description": "The event's name, from `GET /v2/webhooks/events`."},
                            "delivery_status": {"type": "string", "enum": ["pending", "succeeded", "failed"]},
                            "created_at": {"type": "string", "format": "date-time"},
                        },
                    },
                    "relationships": {
                        "type": "object",
                        "properties": {
                            "reference_object": to_one("tracking_request"),
                            "webhook": to_one("webhook"),
                            "webhook_notification_logs": {"type": "object", "properties": {"data": {"type": "array"}}},
                        },
                    },
                },
            },
            "included": {"type": "array", "items": {"type": "object"},
                         "description": "The tracking request, shipment, containers and transport events the event concerns."},
        },
    })
}

/// Adds the `webhooks` section to `document` and returns the resources the samples hold,
/// by JSON:API type, as examples for the rest of the document.
pub fn add(document: &mut Value, carriers: &Arc<CarrierMatrix>) -> Samples {
    let mut samples = Samples::new();
    let mut webhooks = serde_json::Map::new();
    for (name, meaning, body) in bodies(carriers) {
        let resources = body
            .get("included")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            // The delivery's notification is not the API's (fewer members): left out.
            ;
        for resource in resources {
            if let Some(kind) = resource.get("type").and_then(Value::as_str) {
                samples
                    .entry(kind.to_owned())
                    .or_insert_with(|| resource.clone());
            }
        }
        let event = name.to_string();
        webhooks.insert(
            event.clone(),
            json!({"post": {
                "operationId": format!("deliver_{}", event.replace('.', "_")),
                "tags": ["Webhook deliveries"],
                "summary": event,
                "description": format!("{meaning} Sent as a POST to every active webhook subscribed to `{event}` (or to every event); answer 2xx within the timeout, or it is retried."),
                "parameters": headers(),
                "requestBody": {"required": true, "content": {"application/json": {
                    "schema": {"$ref": "#/components/schemas/WebhookDelivery"},
                    "example": body,
                }}},
                "responses": {"200": {"description": "Delivered: any 2xx answer will do."}},
                "security": [],
            }}),
        );
    }
    if let Some(object) = document.as_object_mut() {
        object.insert("webhooks".into(), Value::Object(webhooks));
    }
    if let Some(schemas) = document
        .pointer_mut("/components/schemas")
        .and_then(Value::as_object_mut)
    {
        schemas.insert("WebhookDelivery".into(), schema());
    }
    samples
}
