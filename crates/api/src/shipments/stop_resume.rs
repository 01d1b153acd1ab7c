//! `PATCH /v2/shipments/{id}/stop_tracking` and `/resume_tracking`: the client's stop and
//! resume, applied by the use case that changes tracking requests (`tidemark_app::Tracking`).

use tidemark_app::Observation;
use tidemark_domain::Shipment;

use super::document;
use super::view::{self, ShipmentResource};
use crate::AppState;
use crate::auth::{Caller, Scope};
use crate::document::{Document, One};
use crate::found::{Record, missing};

/// Stops or resumes tracking (`observation`): the use case decides and commits it.
async fn set_tracking(
    state: &AppState,
    caller: Caller,
    shipment: &Shipment,
    observation: Observation<'static>,
) -> One<ShipmentResource> {
    let account = caller.account_id;
    state
        .tracking
        .set_tracking(account, shipment, observation)
        .await?;
    let current = state
        .store
        .shipment(caller.account_id, shipment.id)
        .await?
        .ok_or_else(missing::<Shipment>)?;
    let link = view::path(current.id);
    document(state, caller, current, None, link).await
}

/// Stop tracking a shipment: no more lookups; its tracking request becomes
/// `tracking_stopped`. Stopping a stopped shipment changes nothing.
#[utoipa::path(patch, path = "/v2/shipments/{id}/stop_tracking", operation_id = "stopTrackingShipment", tag = "Shipments",
    params(Record<Shipment>),
    responses((status = 200, description = "The shipment, stopped.", body = Document<ShipmentResource>)),
)]
pub async fn stop_tracking(
    scope: Scope,
    Record(shipment): Record<Shipment>,
) -> One<ShipmentResource> {
    set_tracking(&scope, scope.caller, &shipment, Observation::Stop).await
}

/// Resume tracking a stopped shipment: its tracking request is `created` again and the
/// carrier is asked at once. Resuming a tracked shipment changes nothing.
#[utoipa::path(patch, path = "/v2/shipments/{id}/resume_tracking", operation_id = "resumeTrackingShipment", tag = "Shipments",
    params(Record<Shipment>),
    responses(
        (status = 200, description = "The shipment, tracked again.", body = Document<ShipmentResource>),
        (status = 422, description = "`duplicate`: a newer open tracking request tracks the same number and carrier (`meta.existing_id` when known); stop its shipment first."),
    ),
)]
pub async fn resume_tracking(
    scope: Scope,
    Record(shipment): Record<Shipment>,
) -> One<ShipmentResource> {
    set_tracking(&scope, scope.caller, &shipment, Observation::Resume).await
}
