//! `/v2/webhook_notifications`: the delivery log (api.md §5), for reconciling after
//! downtime: every notification, its event and where its delivery stands.

use axum::Router;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use serde::Serialize;
use serde_json::Value;
use tidemark_domain::webhook::{DeliveryStatus, WebhookNotification, payload};
use tidemark_domain::{WebhookId, WebhookNotificationId};
use tidemark_store::NotificationFilter;
use utoipa::ToSchema;

use crate::auth::Caller;
use crate::document::{
    Document, JsonApi, ListDocument, ListMeta, ResourceIdentifier, SelfLink, ToMany, ToOne,
};
use crate::extract::QueryParams;
use crate::params::{page_links, take_include, take_list, take_page, take_range};
use crate::{ApiError, AppState};

/// The JSON:API type of a notification.
pub const TYPE: &str = "webhook_notification";

/// Relationships a notification can include.
const INCLUDES: &[&str] = &["webhook"];

/// The routes of this resource.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/v2/webhook_notifications", get(list))
        .route("/v2/webhook_notifications/{id}", get(show))
        .route("/v2/webhook_notifications/{id}/redeliver", post(redeliver))
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
    /// Its delivery attempts (listed with the log of attempts, not yet included).
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

/// The reference object of an event (see [`payload::reference_object`]).
fn reference_object(notification: &WebhookNotification) -> ResourceIdentifier {
    let (kind, id) = payload::reference_object(notification);
    ResourceIdentifier {
        id,
        type_: kind.to_owned(),
    }
}

fn path(id: WebhookNotificationId) -> String {
    format!("/v2/webhook_notifications/{id}")
}

/// A notification as a resource.
#[must_use]
pub fn resource(notification: &WebhookNotification) -> NotificationResource {
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
                data: Some(ResourceIdentifier {
                    id: notification.webhook_id.to_string(),
                    type_: crate::webhooks::view::TYPE.to_owned(),
                }),
            },
            reference_object: ToOne {
                data: Some(reference_object(notification)),
            },
            webhook_notification_logs: ToMany { data: Vec::new() },
        },
        links: SelfLink {
            self_: path(notification.id),
        },
    }
}

async fn included(
    state: &AppState,
    caller: Caller,
    include: Option<&Vec<String>>,
    notifications: &[WebhookNotification],
) -> Result<Option<Vec<Value>>, ApiError> {
    let Some(paths) = include else {
        return Ok(None);
    };
    let mut included = Vec::new();
    if paths.iter().any(|p| p == "webhook") {
        let mut ids: Vec<WebhookId> = notifications.iter().map(|n| n.webhook_id).collect();
        ids.sort_unstable();
        ids.dedup();
        for id in ids {
            if let Some(webhook) = state.store.webhook(caller.account_id, id).await? {
                included.push(
                    serde_json::to_value(crate::webhooks::view::resource(&webhook))
                        .unwrap_or(Value::Null),
                );
            }
        }
    }
    Ok(Some(included))
}

/// List notifications, newest first.
#[utoipa::path(
    get,
    path = "/v2/webhook_notifications",
    operation_id = "listWebhookNotifications",
    tag = "Webhooks",
    params(
        ("page[number]" = Option<u32>, Query, minimum = 1, maximum = 1000000, description = "Page, from 1"),
        ("page[size]" = Option<u32>, Query, minimum = 1, maximum = 100, description = "Items per page (default 30)"),
        ("include" = Option<String>, Query, pattern = r"^(webhook)?$", description = "Related records to include"),
        ("filter[event]" = Option<String>, Query, pattern = r"^([a-z0-9_.]{1,128}(,[a-z0-9_.]{1,128})*)?$", description = "Comma-separated event names"),
        ("filter[delivery_status]" = Option<String>, Query, pattern = r"^((pending|succeeded|failed)(,(pending|succeeded|failed))*)?$", description = "Comma-separated statuses"),
        ("filter[webhook_id]" = Option<String>, Query, format = Uuid, description = "One webhook's notifications"),
        ("filter[created_at][start]" = Option<String>, Query, format = DateTime, description = "Created at or after"),
        ("filter[created_at][end]" = Option<String>, Query, format = DateTime, description = "Created at or before"),
    ),
    responses((status = 200, description = "A page of notifications.", body = ListDocument<NotificationResource>, content_type = "application/vnd.api+json")),
)]
pub async fn list(
    State(state): State<AppState>,
    caller: Caller,
    mut query: QueryParams,
) -> Result<JsonApi<ListDocument<NotificationResource>>, ApiError> {
    let page = take_page(&mut query, &state.config)?;
    let include = take_include(&mut query, INCLUDES)?;
    let events = take_list(&mut query, "filter[event]", "event names", |name| {
        let known = name.len() <= 128
            && name
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'.');
        known.then(|| name.to_owned())
    })?;
    let delivery_status = take_list(
        &mut query,
        "filter[delivery_status]",
        "pending, succeeded or failed",
        DeliveryStatus::parse,
    )?;
    let webhook_id = match query.take("filter[webhook_id]") {
        None => None,
        Some(text) => Some(WebhookId::parse(&text).ok_or_else(|| {
            ApiError::bad_parameter(
                "invalid_filter",
                "filter[webhook_id]",
                "filter[webhook_id] must be a webhook id",
            )
        })?),
    };
    let filter = NotificationFilter {
        events,
        delivery_status,
        webhook_id,
        created_at: take_range(&mut query, "created_at")?,
    };
    query.finish()?;
    let result = state
        .store
        .list_webhook_notifications(caller.account_id, &filter, page)
        .await?;
    Ok(JsonApi::ok(ListDocument {
        included: included(&state, caller, include.as_ref(), &result.items).await?,
        data: result.items.iter().map(resource).collect(),
        links: page_links(
            "/v2/webhook_notifications",
            query.original(),
            page,
            result.total,
        ),
        meta: ListMeta {
            size: page.size,
            total: result.total,
        },
    }))
}

/// Get one notification.
#[utoipa::path(
    get,
    path = "/v2/webhook_notifications/{id}",
    operation_id = "getWebhookNotification",
    tag = "Webhooks",
    params(
        ("id" = String, Path, description = "The notification's id"),
        ("include" = Option<String>, Query, pattern = r"^(webhook)?$", description = "Related records to include"),
    ),
    responses((status = 200, description = "The notification.", body = Document<NotificationResource>, content_type = "application/vnd.api+json")),
)]
pub async fn show(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    mut query: QueryParams,
) -> Result<JsonApi<Document<NotificationResource>>, ApiError> {
    let include = take_include(&mut query, INCLUDES)?;
    query.finish()?;
    let not_found = || ApiError::not_found("no webhook notification with this id in this account");
    let id = WebhookNotificationId::parse(&id).ok_or_else(not_found)?;
    let notification = state
        .store
        .webhook_notification(caller.account_id, id)
        .await?
        .ok_or_else(not_found)?;
    let notifications = [notification];
    Ok(JsonApi::ok(Document {
        included: included(&state, caller, include.as_ref(), &notifications).await?,
        data: resource(&notifications[0]),
        links: SelfLink {
            self_: path(notifications[0].id),
        },
    }))
}

/// Send a notification again now, whatever its state (beyond the reference API).
///
/// Its webhook must be active for the delivery to go out.
#[utoipa::path(
    post,
    path = "/v2/webhook_notifications/{id}/redeliver",
    operation_id = "redeliverWebhookNotification",
    tag = "Webhooks",
    params(("id" = String, Path, description = "The notification's id")),
    responses(
        (status = 202, description = "Due again now; the notification as it stands.", body = Document<NotificationResource>, content_type = "application/vnd.api+json"),
        (status = 409, description = "`in_flight`: a delivery of it is under way.", body = crate::error::ErrorDocument, content_type = "application/vnd.api+json"),
    ),
)]
pub async fn redeliver(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    query: QueryParams,
) -> Result<JsonApi<Document<NotificationResource>>, ApiError> {
    query.finish()?;
    let not_found = || ApiError::not_found("no webhook notification with this id in this account");
    let id = WebhookNotificationId::parse(&id).ok_or_else(not_found)?;
    let now = state.clock.now();
    if !state
        .store
        .redeliver_notification(caller.account_id, id, now)
        .await?
    {
        // Either it does not exist here, or a dispatcher holds it.
        state
            .store
            .webhook_notification(caller.account_id, id)
            .await?
            .ok_or_else(not_found)?;
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "in_flight",
            "a delivery of this notification is under way; try again when it ends",
            None,
        ));
    }
    let notification = state
        .store
        .webhook_notification(caller.account_id, id)
        .await?
        .ok_or_else(not_found)?;
    Ok(JsonApi::accepted(Document {
        data: resource(&notification),
        included: None,
        links: SelfLink {
            self_: path(notification.id),
        },
    }))
}
