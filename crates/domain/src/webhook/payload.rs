//! The body of a delivery: the `webhook_notification` document (compat-api.md §4.3), whose
//! `included` records are frozen when the event is recorded, so a retry days later still
//! says what was true when the event happened.

use std::fmt;

use serde_json::{Value, json};

use super::WebhookNotification;
use crate::terminal::TerminalEvent;
use crate::{DomainEvent, EventName, Subject, Tracked, TrackingRequest};

/// What an event may concern, as it stands once the change that caused it is applied.
#[derive(Debug, Clone, Copy)]
pub struct Records<'a> {
    /// The tracking request.
    pub request: &'a TrackingRequest,
    /// Its shipment with every container and transport event, once there is one.
    pub tracked: Option<&'a Tracked>,
    /// The name of its customer (`customer_name` of the shipment), when it names one.
    pub customer_name: Option<&'a str>,
}

/// Renders the records an event concerns as JSON:API resources. The API layer implements
/// it with its views, so a notification carries the same resources a client reads; the
/// writers of events call it through [`freeze`] before committing.
pub trait Render: Send + Sync + fmt::Debug {
    /// The resources for the `included` member of `event`'s notifications.
    fn included(&self, event: &DomainEvent, records: &Records<'_>) -> Vec<Value>;
}

/// Freezes each event's `included` records from `records`.
pub fn freeze(render: &dyn Render, events: &mut [DomainEvent], records: &Records<'_>) {
    for event in events {
        event.included = render.included(event, records);
    }
}

/// The reference object of an event, as the reference API names it: the record for
/// requests and milestones, the event itself for estimates and container changes (a
/// `transport_event` for the terminal's availability, last free day and appointment
/// events). `(type, id)`.
#[must_use]
pub fn reference_of(
    event: &str,
    subject: Subject,
    event_id: crate::DomainEventId,
) -> (&'static str, String) {
    let own = |kind| (kind, event_id.to_string());
    match (EventName::parse(event), subject) {
        (Some(EventName::ShipmentEstimatedArrival), _) => own("estimated_event"),
        (Some(EventName::ContainerCreated), _) => own("container_created_event"),
        (Some(EventName::ContainerUpdated), _) => own("container_updated_event"),
        (Some(EventName::Terminal(TerminalEvent::PodTerminalChanged(_))), _) => {
            own("container_pod_terminal_changed_event")
        }
        (Some(EventName::Terminal(_)), _) => own("transport_event"),
        (_, Subject::TrackingRequest(id)) => ("tracking_request", id.to_string()),
        (_, Subject::TransportEvent(id)) => ("transport_event", id.to_string()),
        (_, Subject::Shipment(id)) => ("shipment", id.to_string()),
        (_, Subject::Container(id)) => ("container", id.to_string()),
    }
}

/// The reference object of a notification's event.
#[must_use]
pub fn reference_object(notification: &WebhookNotification) -> (&'static str, String) {
    reference_of(
        &notification.event,
        notification.subject,
        notification.domain_event_id,
    )
}

/// The resource of the notification's reference object among its frozen `included`
/// records, when they hold it.
#[must_use]
pub fn find_reference<'a>(
    notification: &WebhookNotification,
    included: &'a [Value],
) -> Option<&'a Value> {
    let (kind, id) = reference_object(notification);
    included.iter().find(|resource| {
        resource.get("type").and_then(Value::as_str) == Some(kind)
            && resource.get("id").and_then(Value::as_str) == Some(id.as_str())
    })
}

/// The notification as a JSON:API resource. `delivery_status` is the state it is read in
/// (`pending` when sent).
#[must_use]
pub fn resource(notification: &WebhookNotification) -> Value {
    let (kind, id) = reference_object(notification);
    json!({
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
    })
}

/// The document a receiver gets: the notification and the records frozen with its event;
/// an event with none (`container.transport.available`, say) has no `included` member, as
/// in the reference API.
#[must_use]
pub fn document(notification: &WebhookNotification, included: &[Value]) -> Value {
    if included.is_empty() {
        return json!({"data": resource(notification)});
    }
    json!({
        "data": resource(notification),
        "included": included,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::webhook::DeliveryStatus;
    use crate::{
        AccountId, DomainEventId, Timestamp, TrackingRequestId, WebhookId, WebhookNotificationId,
    };

    fn notification(event: &str, subject: Subject) -> WebhookNotification {
        let now = Timestamp::from_unix_micros(1_700_000_000_000_000).expect("time");
        WebhookNotification {
            id: WebhookNotificationId::new(),
            account_id: AccountId::new(),
            webhook_id: WebhookId::new(),
            domain_event_id: DomainEventId::new(),
            event: event.to_owned(),
            subject,
            delivery_status: DeliveryStatus::Pending,
            attempts: 0,
            due_at: Some(now),
            created_at: now,
            updated_at: now,
        }
    }

    #[test]
    fn change_events_refer_to_themselves_and_the_others_to_their_record() {
        let request = TrackingRequestId::new();
        let succeeded = notification(
            "tracking_request.succeeded",
            Subject::TrackingRequest(request),
        );
        assert_eq!(
            reference_object(&succeeded),
            ("tracking_request", request.to_string())
        );
        let updated = notification(
            "container.updated",
            Subject::Container(crate::ContainerId::new()),
        );
        assert_eq!(
            reference_object(&updated),
            (
                "container_updated_event",
                updated.domain_event_id.to_string()
            )
        );
    }

    #[test]
    fn the_document_carries_the_frozen_records_and_finds_its_reference() {
        let request = TrackingRequestId::new();
        let sent = notification("tracking_request.failed", Subject::TrackingRequest(request));
        let included = vec![
            json!({"type": "shipment", "id": request.to_string()}),
            json!({"type": "tracking_request", "id": request.to_string(), "attributes": {}}),
        ];
        let body = document(&sent, &included);
        assert_eq!(body["included"], Value::Array(included.clone()));
        assert_eq!(body["data"]["attributes"]["delivery_status"], "pending");
        assert_eq!(
            body["data"]["relationships"]["reference_object"]["data"]["id"],
            request.to_string()
        );
        assert_eq!(find_reference(&sent, &included), Some(&included[1]));
        assert_eq!(find_reference(&sent, &included[..1]), None);
    }
}
