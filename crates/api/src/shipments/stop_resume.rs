//! `PATCH /v2/shipments/{id}/stop_tracking` and `/resume_tracking`: the client's stop and
//! resume, decided by the domain (`tracking::decide`) and committed here.

use std::sync::Arc;

use axum::extract::State;
use axum::http::StatusCode;
use tidemark_domain::tracking::{self, Cause};
use tidemark_store::{CommitOutcome, StoreError};

use super::view::{self, ShipmentResource};
use super::{document, find, not_found};
use crate::auth::Caller;
use crate::document::{Document, JsonApi};
use crate::extract::{PathId, QueryParams};
use crate::{ApiError, AppState, EventRecords};

/// Stops or resumes tracking: the domain decides the change (`tracking::decide`), and it is
/// committed unless the tracker changed the request meanwhile (then read again).
async fn set_tracking(
    state: &AppState,
    caller: Caller,
    id: &str,
    stop: bool,
) -> Result<JsonApi<Document<ShipmentResource>>, ApiError> {
    let cause = if stop { Cause::Stop } else { Cause::Resume };
    for _ in 0..3 {
        let shipment = find(state, caller, id).await?;
        let request = state
            .store
            .tracking_request(caller.account_id, shipment.tracking_request_id)
            .await?
            .ok_or_else(not_found)?;
        let prior = state.store.tracked(request.id).await?;
        let now = state.clock.now();
        let mut change =
            tracking::decide(&request, prior.as_ref(), cause, now, &state.config.policy).map_err(
                |_| {
                    ApiError::new(
                        StatusCode::CONFLICT,
                        "invalid_state",
                        format!(
                            "tracking cannot change while the request is {}",
                            request.status
                        ),
                        None,
                    )
                },
            )?;
        if !change.is_none() {
            let customer = state.store.customer_name(&request).await?;
            let render = EventRecords::new(Arc::clone(&state.carriers));
            change.freeze(prior.as_ref(), &render, customer.as_deref());
            let outcome = match state.store.commit_tracking(None, &change).await {
                Err(StoreError::Duplicate { existing_id }) => {
                    return Err(ApiError::duplicate(existing_id, None));
                }
                other => other?,
            };
            if outcome == CommitOutcome::Conflict {
                // The tracker changed the request meanwhile: read again.
                continue;
            }
        }
        let current = find(state, caller, id).await?;
        let link = view::path(current.id);
        return document(state, caller, current, None, link).await;
    }
    Err(ApiError::conflict("the shipment kept changing; try again"))
}

/// Stop tracking a shipment: no more lookups; its tracking request becomes
/// `tracking_stopped`. Stopping a stopped shipment changes nothing.
#[utoipa::path(
    patch,
    path = "/v2/shipments/{id}/stop_tracking",
    operation_id = "stopTrackingShipment",
    tag = "Shipments",
    params(("id" = String, Path, description = "The shipment's id")),
    responses(
        (status = 200, description = "The shipment, stopped.", body = Document<ShipmentResource>, content_type = "application/vnd.api+json"),
        (status = 409, description = "`conflict`: it kept changing while being stopped, try again; or `invalid_state`: its tracking request is not tracked.", body = crate::error::ErrorDocument, content_type = "application/vnd.api+json"),
    ),
)]
pub async fn stop_tracking(
    State(state): State<AppState>,
    caller: Caller,
    PathId(id): PathId,
    query: QueryParams,
) -> Result<JsonApi<Document<ShipmentResource>>, ApiError> {
    query.finish()?;
    set_tracking(&state, caller, &id, true).await
}

/// Resume tracking a stopped shipment: its tracking request is `created` again and the
/// carrier is asked at once. Resuming a tracked shipment changes nothing.
#[utoipa::path(
    patch,
    path = "/v2/shipments/{id}/resume_tracking",
    operation_id = "resumeTrackingShipment",
    tag = "Shipments",
    params(("id" = String, Path, description = "The shipment's id")),
    responses(
        (status = 200, description = "The shipment, tracked again.", body = Document<ShipmentResource>, content_type = "application/vnd.api+json"),
        (status = 409, description = "`conflict`: it kept changing while being resumed, try again.", body = crate::error::ErrorDocument, content_type = "application/vnd.api+json"),
        (status = 422, description = "`duplicate`: a newer open tracking request tracks the same number and carrier (`meta.existing_id` when known); stop its shipment first.", body = crate::error::ErrorDocument, content_type = "application/vnd.api+json"),
    ),
)]
pub async fn resume_tracking(
    State(state): State<AppState>,
    caller: Caller,
    PathId(id): PathId,
    query: QueryParams,
) -> Result<JsonApi<Document<ShipmentResource>>, ApiError> {
    query.finish()?;
    set_tracking(&state, caller, &id, false).await
}
