//! The body of a delivery: the `webhook_notification` document (compat-api.md §4.3).

use serde_json::{Value, json};

use super::WebhookNotification;
use crate::Subject;

/// The reference object of a notification's event, as the reference API names it: the
/// record for requests and milestones, the event itself for estimates and container
/// changes. `(type, id)`.
#[must_use]
pub fn reference_object(notification: &WebhookNotification) -> (&'static str, String) {
    let event_id = || notification.domain_event_id.to_string();
    match (notification.event.as_str(), notification.subject) {
        ("shipment.estimated.arrival", _) => ("estimated_event", event_id()),
        ("container.created", _) => ("container_created_event", event_id()),
        ("container.updated", _) => ("container_updated_event", event_id()),
        (_, Subject::TrackingRequest(id)) => ("tracking_request", id.to_string()),
        (_, Subject::TransportEvent(id)) => ("transport_event", id.to_string()),
        (_, Subject::Shipment(id)) => ("shipment", id.to_string()),
        (_, Subject::Container(id)) => ("container", id.to_string()),
    }
}

/// The document a receiver gets. `delivery_status` is the state at sending (`pending`).
#[must_use]
pub fn document(notification: &WebhookNotification) -> Value {
    let (kind, id) = reference_object(notification);
    json!({
        "data": {
            "id": notification.id.to_string(),
            "type": "webhook_notification",
            "attributes": {
                "id": notification.id.to_string(),
                "event": notification.event,
                "delivery_status": notification.delivery_status.as_str(),
                "created_at": notification.created_at.to_string(),
            },
            "relationships": {
                "webhook": {"data": {"id": notification.webhook_id.to_string(), "type": "webhook"}},
                "reference_object": {"data": {"id": id, "type": kind}},
                "webhook_notification_logs": {"data": []},
            },
        },
        "included": [],
    })
}
