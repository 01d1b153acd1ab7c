//! `GET /v2/webhooks/ips`: the addresses deliveries leave from, in the reference API's
//! shape, which is not JSON:API (compat-api.md §4.1). Tidemark cannot see its own egress
//! addresses behind NAT, so the list is what the operator configured
//! (`webhook_source_ips`), empty otherwise.

use axum::Json;
use serde::Serialize;
use utoipa::ToSchema;

use crate::ApiError;
use crate::auth::Scope;
use crate::extract::QueryParams;

/// The addresses deliveries come from.
#[derive(Debug, Serialize, ToSchema)]
pub struct WebhookIps {
    /// IPv4 or IPv6 addresses; empty when the operator has not published them.
    pub webhook_notification_ips: Vec<String>,
    /// When this list was read from the settings (the process's start), as the reference
    /// always answers a time, an empty list's included.
    #[schema(format = DateTime)]
    pub last_updated: String,
}

/// The addresses webhook deliveries leave from, for receivers' allow-lists.
#[utoipa::path(get, path = "/v2/webhooks/ips", operation_id = "listWebhookIps", tag = "Webhooks",
    responses((status = 200, description = "The source addresses (plain JSON, as the reference API).", body = WebhookIps, content_type = "application/json")),
)]
pub async fn ips(scope: Scope, query: QueryParams) -> Result<Json<WebhookIps>, ApiError> {
    query.finish()?;
    let addresses: Vec<String> = scope
        .config
        .webhook_source_ips
        .iter()
        .map(ToString::to_string)
        .collect();
    Ok(Json(WebhookIps {
        last_updated: scope.started_at.to_string(),
        webhook_notification_ips: addresses,
    }))
}
