//! `POST /v2/webhooks/{id}/rotate_secret` (api.md §5, beyond the reference API, which has no
//! rotation): a new secret at once, the replaced one signing beside it for the configured
//! grace (`[webhooks] secret_grace`). The rule itself is the domain's
//! (`Webhook::rotate_secret`, `Webhook::signers`).

use axum::extract::State;
use tidemark_domain::webhook::Webhook;

use super::document;
use super::view::WebhookResource;
use crate::AppState;
use crate::document::{Document, JsonApi, One};
use crate::found::Record;

/// Rotate a webhook's secret.
///
/// The answer holds the new `secret`, which signs every delivery from now on. Until
/// `previous_secret_expires_at`, the replaced secret signs too: `webhook-signature` carries
/// a signature by each (a Standard Webhooks verifier holding either secret accepts the
/// delivery), and the reference-style hex signature is the replaced secret's; after it, the
/// new secret alone signs. A second rotation ends the first one's grace at once.
#[utoipa::path(post, path = "/v2/webhooks/{id}/rotate_secret", operation_id = "rotateWebhookSecret", tag = "Webhooks",
    params(Record<Webhook>),
    responses((status = 200, description = "The webhook with its new secret.", body = Document<WebhookResource>)),
)]
pub async fn rotate_secret(
    State(state): State<AppState>,
    Record(current): Record<Webhook>,
) -> One<WebhookResource> {
    let rotated = state.webhooks.rotate(&current).await?;
    Ok(JsonApi::ok(document(&rotated)))
}
