//! How a notification and its delivery attempts look on the wire (compat-api.md §4.3), and
//! the records a page of notifications includes.

use std::collections::{HashMap, HashSet};

use serde::Serialize;
use serde_json::Value;
use tidemark_domain::webhook::{
    Attempt, DeliveryStatus, LoggedAttempt, WebhookNotification, payload,
};
use tidemark_domain::{AccountId, DomainEventId, WebhookId, WebhookNotificationId};
use utoipa::ToSchema;

use crate::document::{ResourceIdentifier, SelfLink, ToMany, ToOne};
use crate::params::{IncludePaths, Includes};
use crate::{ApiError, AppState};

/// The JSON:API type of a notification.
pub const TYPE: &str = "webhook_notification";

/// The JSON:API type of one delivery attempt.
pub const LOG_TYPE: &str = "webhook_notification_log";

/// Relationships a notification can include.
pub struct NotificationIncludes;

impl Includes for NotificationIncludes {
    const RECORDS: &'static [(&'static str, &'static [&'static str])] = &[
        ("webhook", &[]),
        ("reference_object", &[]),
        ("webhook_notification_logs", &[]),
    ];
}

/// A notification's attributes.
#[derive(Debug, Serialize, ToSchema)]
pub struct NotificationAttributes {
    /// Its id again (the `webhook-id` header of its deliveries).
    pub id: String,
    /// The event.
    pub event: String,
    /// `pending`, `succeeded` or `failed`.
    pub delivery_status: &'static str,
    /// Attempts made so far.
    pub attempts: u32,
    /// When the next attempt is due, while pending.
    #[schema(format = DateTime)]
    pub next_attempt_at: Option<String>,
    /// When the event was recorded.
    #[schema(format = DateTime)]
    pub created_at: String,
    /// When the notification last changed.
    #[schema(format = DateTime)]
    pub updated_at: String,
}

/// A notification's relationships.
#[derive(Debug, Serialize, ToSchema)]
pub struct NotificationRelationships {
    /// The webhook it goes to.
    pub webhook: ToOne,
    /// The record the event is about.
    pub reference_object: ToOne,
    /// Its delivery attempts, oldest first.
    pub webhook_notification_logs: ToMany,
}

/// A notification resource.
#[derive(Debug, Serialize, ToSchema)]
pub struct NotificationResource {
    /// Its id.
    pub id: String,
    /// Always `webhook_notification`.
    #[serde(rename = "type")]
    #[schema(rename = "type", pattern = "^webhook_notification$")]
    pub type_: &'static str,
    /// Its attributes.
    pub attributes: NotificationAttributes,
    /// Its relationships.
    pub relationships: NotificationRelationships,
    /// Its own link.
    pub links: SelfLink,
}

/// What one delivery attempt found (a webhook test's too).
#[derive(Debug, Serialize, ToSchema)]
pub struct AttemptAttributes {
    /// When it started.
    #[schema(format = DateTime)]
    pub attempted_at: String,
    /// The receiver's status code, when it answered.
    pub status_code: Option<u16>,
    /// What went wrong before an answer: timeout, refused address, connection error.
    pub error: Option<String>,
    /// How long it took, in milliseconds.
    pub latency_ms: u64,
    /// The first 4 KiB of the answer.
    pub response_body: Option<String>,
}

impl AttemptAttributes {
    /// How `attempt` is shown.
    #[must_use]
    pub fn of(attempt: Attempt) -> Self {
        Self {
            attempted_at: attempt.at.to_string(),
            status_code: attempt.status_code,
            error: attempt.error,
            latency_ms: attempt.latency_ms,
            response_body: attempt.response_body,
        }
    }
}

/// A delivery attempt's relationships.
#[derive(Debug, Serialize, ToSchema)]
pub struct LogRelationships {
    /// The notification it delivered.
    pub webhook_notification: ToOne,
}

/// One delivery attempt of a notification.
#[derive(Debug, Serialize, ToSchema)]
pub struct LogResource {
    /// Its id.
    pub id: String,
    /// Always `webhook_notification_log`.
    #[serde(rename = "type")]
    #[schema(rename = "type", pattern = "^webhook_notification_log$")]
    pub type_: &'static str,
    /// Its attributes.
    pub attributes: AttemptAttributes,
    /// Its relationships.
    pub relationships: LogRelationships,
}

/// The path of a notification.
#[must_use]
pub fn path(id: WebhookNotificationId) -> String {
    format!("/v2/webhook_notifications/{id}")
}

fn identifier(type_: &str, id: String) -> ResourceIdentifier {
    ResourceIdentifier {
        id,
        type_: type_.to_owned(),
    }
}

/// A notification as a resource, with the ids of its logged attempts.
#[must_use]
pub fn resource(
    notification: &WebhookNotification,
    logs: &[&LoggedAttempt],
) -> NotificationResource {
    let (kind, reference) = payload::reference_object(notification);
    NotificationResource {
        id: notification.id.to_string(),
        type_: TYPE,
        attributes: NotificationAttributes {
            id: notification.id.to_string(),
            event: notification.event.clone(),
            delivery_status: notification.delivery_status.as_str(),
            attempts: notification.attempts,
            next_attempt_at: (notification.delivery_status == DeliveryStatus::Pending)
                .then(|| notification.due_at.map(|at| at.to_string()))
                .flatten(),
            created_at: notification.created_at.to_string(),
            updated_at: notification.updated_at.to_string(),
        },
        relationships: NotificationRelationships {
            webhook: ToOne {
                data: Some(identifier(
                    crate::webhooks::view::TYPE,
                    notification.webhook_id.to_string(),
                )),
            },
            reference_object: ToOne {
                data: Some(identifier(kind, reference)),
            },
            webhook_notification_logs: ToMany {
                data: logs
                    .iter()
                    .map(|log| identifier(LOG_TYPE, log.id.to_string()))
                    .collect(),
            },
        },
        links: SelfLink {
            self_: path(notification.id),
        },
    }
}

/// A logged attempt as a resource.
#[must_use]
pub fn log_resource(log: &LoggedAttempt) -> LogResource {
    LogResource {
        id: log.id.to_string(),
        type_: LOG_TYPE,
        attributes: AttemptAttributes::of(log.attempt.clone()),
        relationships: LogRelationships {
            webhook_notification: ToOne {
                data: Some(identifier(TYPE, log.notification_id.to_string())),
            },
        },
    }
}

fn value(resource: &impl Serialize) -> Value {
    serde_json::to_value(resource).unwrap_or(Value::Null)
}

/// Notifications as resources, each with the ids of its attempts among `logs`.
#[must_use]
pub fn resources(
    notifications: &[WebhookNotification],
    logs: &[LoggedAttempt],
) -> Vec<NotificationResource> {
    let mut by_notification: HashMap<WebhookNotificationId, Vec<&LoggedAttempt>> = HashMap::new();
    for log in logs {
        by_notification
            .entry(log.notification_id)
            .or_default()
            .push(log);
    }
    notifications
        .iter()
        .map(|n| resource(n, by_notification.get(&n.id).map_or(&[][..], Vec::as_slice)))
        .collect()
}

/// The attempts logged for `notifications`, oldest first.
pub async fn logs(
    state: &AppState,
    account: AccountId,
    notifications: &[WebhookNotification],
) -> Result<Vec<LoggedAttempt>, ApiError> {
    let ids: Vec<WebhookNotificationId> = notifications.iter().map(|n| n.id).collect();
    Ok(state.store.notification_attempts(account, &ids).await?)
}

/// The `included` member `include` asks for: each record once, one query per kind.
/// Reference objects are the records frozen when the event was recorded.
pub async fn included(
    state: &AppState,
    account: AccountId,
    include: Option<&IncludePaths>,
    notifications: &[WebhookNotification],
    logs: &[LoggedAttempt],
) -> Result<Option<Vec<Value>>, ApiError> {
    let Some(paths) = include else {
        return Ok(None);
    };
    let wants = |name: &str| paths.wants(name);
    let mut included = Vec::new();
    if wants("webhook") {
        let mut seen = HashSet::new();
        let webhooks: Vec<WebhookId> = notifications
            .iter()
            .map(|n| n.webhook_id)
            .filter(|id| seen.insert(*id))
            .collect();
        // One read for them all; only this account's, though the ids came from its own
        // notifications.
        for webhook in state.store.webhooks_by_id(&webhooks).await? {
            if webhook.account_id == account {
                included.push(value(&crate::webhooks::view::resource(&webhook)));
            }
        }
    }
    if wants("reference_object") {
        // The same event may reach several webhooks: its records are read and shown once.
        let mut seen = HashSet::new();
        let events: Vec<DomainEventId> = notifications
            .iter()
            .map(|n| n.domain_event_id)
            .filter(|id| seen.insert(*id))
            .collect();
        let frozen = state.store.frozen_records(account, &events).await?;
        let mut shown = HashSet::new();
        for notification in notifications {
            let records = frozen
                .get(&notification.domain_event_id)
                .map_or(&[][..], Vec::as_slice);
            if let Some(reference) = payload::find_reference(notification, records)
                && shown.insert(payload::reference_object(notification))
            {
                included.push(reference.clone());
            }
        }
    }
    if wants("webhook_notification_logs") {
        included.extend(logs.iter().map(|log| value(&log_resource(log))));
    }
    Ok(Some(included))
}
