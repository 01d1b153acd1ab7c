//! `POST /v2/webhooks/{id}/rotate_secret` (api.md §5, beyond the reference API, which has no
//! rotation): a new secret at once, the replaced one signing beside it for the configured
//! grace (`[webhooks] secret_grace`). The rule itself is the domain's
//! (`Webhook::rotate_secret`, `Webhook::signers`).

use axum::extract::State;
use tidemark_domain::webhook::Webhook;

use super::document;
use super::view::WebhookResource;
use crate::document::{Document, JsonApi};
use crate::extract::QueryParams;
use crate::found::{Found, missing};
use crate::{ApiError, AppState};

/// Rotate a webhook's secret.
///
/// The answer holds the new `secret`, which signs every delivery from now on. Until
/// `previous_secret_expires_at`, the replaced secret signs too: `webhook-signature` carries
/// a signature by each (a Standard Webhooks verifier holding either secret accepts the
/// delivery), and the reference-style hex signature is the replaced secret's; after it, the
/// new secret alone signs. A second rotation ends the first one's grace at once.
#[utoipa::path(
    post,
    path = "/v2/webhooks/{id}/rotate_secret",
    operation_id = "rotateWebhookSecret",
    tag = "Webhooks",
    params(("id" = String, Path, description = "The webhook's id")),
    responses(
        (status = 200, description = "The webhook with its new secret.", body = Document<WebhookResource>, content_type = "application/vnd.api+json"),
        (status = 409, description = "`conflict`: another rotation of this webhook's secret was made at the same moment; read the webhook for the secret kept.", body = crate::error::ErrorDocument, content_type = "application/vnd.api+json"),
    ),
)]
pub async fn rotate_secret(
    State(state): State<AppState>,
    current: Found<Webhook>,
    query: QueryParams,
) -> Result<JsonApi<Document<WebhookResource>>, ApiError> {
    query.finish()?;
    let current = current.read(&state).await?;
    let rotated = rotate_now(&state, &current).await?;
    Ok(JsonApi::ok(document(&rotated)))
}

/// Rotates `current`'s secret now and keeps the result; the API and the console share it.
///
/// # Errors
/// 404 when the webhook was deleted since it was read, 409 `conflict` when another
/// rotation of it was kept first.
pub(crate) async fn rotate_now(state: &AppState, current: &Webhook) -> Result<Webhook, ApiError> {
    let grace = state.config.webhook_secret_grace;
    let rotated = current.rotate_secret(state.clock.now(), grace);
    if state
        .store
        .rotate_webhook_secret(&rotated, &current.secret)
        .await?
    {
        return Ok(rotated);
    }
    if state
        .store
        .webhook(current.account_id, current.id)
        .await?
        .is_none()
    {
        return Err(missing::<Webhook>());
    }
    Err(ApiError::conflict(
        "another rotation of this webhook's secret was made at the same moment; read the \
         webhook for the secret kept",
    ))
}
