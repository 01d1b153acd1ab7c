//! `/v2/webhook_notifications`: the delivery log (api.md §5), for reconciling after
//! downtime: every notification, its event and where its delivery stands.

use axum::Router;
use axum::routing::{get, post};
use tidemark_domain::webhook::{DeliveryStatus, WebhookNotification};
use tidemark_domain::{WebhookId, WebhookNotificationId};
use tidemark_store::NotificationFilter;

use crate::auth::{Caller, Scope};
use crate::document::{Document, JsonApi, ListDocument, One, Page};
use crate::error::ErrorCode;
use crate::extract::{PathId, QueryParams};
use crate::found::{Found, missing};
use crate::params::{
    Include, IncludePaths, Paging, list_document, take_include, take_list, take_page, take_range,
};
use crate::{ApiError, AppState};

pub mod examples;
pub mod view;

use view::{NotificationIncludes, NotificationResource, path};

/// The routes of this resource.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/v2/webhook_notifications", get(list))
        .route(
            "/v2/webhook_notifications/examples",
            get(examples::examples),
        )
        .route("/v2/webhook_notifications/{id}", get(show))
        .route("/v2/webhook_notifications/{id}/redeliver", post(redeliver))
}

/// List notifications, newest first.
///
/// A notification that succeeded or failed is kept for the operator's retention (90 days
/// unless set otherwise) after it last changed, then it is forgotten; a pending one is
/// kept until it settles.
#[utoipa::path(get, path = "/v2/webhook_notifications", operation_id = "listWebhookNotifications", tag = "Webhooks",
    params(
        Paging,
        Include<NotificationIncludes>,
        ("filter[event]" = Option<String>, Query, pattern = r"^([a-z0-9_.]{1,128}(,[a-z0-9_.]{1,128})*)?$", description = "Comma-separated event names"),
        ("filter[delivery_status]" = Option<String>, Query, description = "Comma-separated statuses"),
        ("filter[webhook_id]" = Option<String>, Query, format = Uuid, description = "One webhook's notifications"),
        ("filter[created_at][start]" = Option<String>, Query, format = DateTime, description = "Created at or after"),
        ("filter[created_at][end]" = Option<String>, Query, format = DateTime, description = "Created at or before"),
    ),
    responses((status = 200, description = "A page of notifications.", body = ListDocument<NotificationResource>)),
)]
pub async fn list(scope: Scope, mut query: QueryParams) -> Page<NotificationResource> {
    let page = take_page(&mut query, &scope.config)?;
    let include = take_include::<NotificationIncludes>(&mut query)?;
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
                ErrorCode::InvalidFilter,
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
    let result = scope
        .store
        .list_webhook_notifications(scope.account(), &filter, page)
        .await?;
    let logs = view::logs(&scope, scope.account(), &result.items).await?;
    let included = view::included(
        &scope,
        scope.account(),
        include.as_ref(),
        &result.items,
        &logs,
    )
    .await?;
    let data = view::resources(&result.items, &logs);
    let path = "/v2/webhook_notifications";
    Ok(JsonApi::ok(
        list_document(path, &query, page, result.total, data).including(included),
    ))
}

/// Get one notification.
///
/// 404 once the retention has passed since it settled.
#[utoipa::path(get, path = "/v2/webhook_notifications/{id}", operation_id = "getWebhookNotification", tag = "Webhooks",
    params(Found<WebhookNotification>, Include<NotificationIncludes>),
    responses((status = 200, description = "The notification.", body = Document<NotificationResource>)),
)]
pub async fn show(
    scope: Scope,
    notification: Found<WebhookNotification>,
    mut query: QueryParams,
) -> One<NotificationResource> {
    let include = take_include::<NotificationIncludes>(&mut query)?;
    query.finish()?;
    let notification = notification.read(&scope).await?;
    Ok(JsonApi::ok(
        one(&scope, scope.caller, include.as_ref(), notification).await?,
    ))
}

/// The document of one notification.
async fn one(
    state: &AppState,
    caller: Caller,
    include: Option<&IncludePaths>,
    notification: WebhookNotification,
) -> Result<Document<NotificationResource>, ApiError> {
    let notifications = std::slice::from_ref(&notification);
    let logs = view::logs(state, caller.account_id, notifications).await?;
    let own: Vec<_> = logs.iter().collect();
    let included = view::included(state, caller.account_id, include, notifications, &logs).await?;
    Ok(
        Document::new(view::resource(&notification, &own), path(notification.id))
            .including(included),
    )
}

/// Send a notification again now, whatever its state (beyond the reference API).
///
/// Its webhook must be active for the delivery to go out.
#[utoipa::path(post, path = "/v2/webhook_notifications/{id}/redeliver", operation_id = "redeliverWebhookNotification", tag = "Webhooks",
    params(Found<WebhookNotification>),
    responses((status = 202, description = "Due again now; the notification as it stands.", body = Document<NotificationResource>)),
)]
pub async fn redeliver(
    scope: Scope,
    PathId(id): PathId,
    query: QueryParams,
) -> One<NotificationResource> {
    query.finish()?;
    let id = WebhookNotificationId::parse(&id).ok_or_else(missing::<WebhookNotification>)?;
    let notification = scope.webhooks.redeliver(scope.account(), id).await?;
    Ok(JsonApi::accepted(
        one(&scope, scope.caller, None, notification).await?,
    ))
}
