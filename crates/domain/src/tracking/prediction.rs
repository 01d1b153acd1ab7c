//! Tidemark's own arrival estimate of a shipment at sea (`pod_predicted_eta_at`): what a
//! `predict_arrival` job found is kept, and `shipment.predicted_arrival.diverged` is
//! recorded when it and the carrier's estimate (`pod_eta_at`) come more than the policy's
//! margin apart: once per crossing, whichever moved (a new prediction, or the carrier's
//! new estimate on a refresh).

use std::time::Duration;

use super::Change;
use crate::lifecycle::Policy;
use crate::{
    ContainerStatus, DomainEvent, EventDetail, EventName, JobKind, NewJob, Shipment, Subject,
    Timestamp, Tracked, TrackingRequest,
};

/// What a prediction found: the arrival estimate, `None` when it could make none (no
/// recent position of the vessel, no sea route to the ports ahead).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Prediction {
    /// When the vessel reaches the port of discharge.
    pub arrival: Option<Timestamp>,
}

/// How far a new estimate must move from the kept one to replace it: an estimate made
/// every hour moves by minutes, which is not news and not worth a write.
pub const STEP: Duration = Duration::from_secs(10 * 60);

/// Whether `tracked` is at sea: it left the port of loading, or a container is on a
/// vessel, and it has not arrived at the port of discharge, and is tracked.
#[must_use]
pub fn sailing(tracked: &Tracked) -> bool {
    let shipment = &tracked.shipment;
    let route = &shipment.route;
    shipment.stopped_at.is_none()
        && route.pod_ata_at.is_none()
        && (route.pol_atd_at.is_some()
            || tracked
                .containers
                .iter()
                .any(|c| c.current_status == ContainerStatus::OnShip))
}

/// The prediction job a change of `request`, now `tracked`, makes sure of: one while it
/// is at sea, due now unless one is queued.
pub(super) fn job(request: &TrackingRequest, tracked: &Tracked, now: Timestamp) -> Option<NewJob> {
    sailing(tracked).then(|| NewJob {
        kind: JobKind::PredictArrival,
        key: request.id.to_string(),
        due_at: now,
        if_absent: true,
    })
}

/// The change `prediction` makes to `request`, tracked as `prior`: the estimate kept when
/// it moved by [`STEP`] or more (or appeared, or went), the divergence recorded when it
/// crossed the margin, and the next prediction `predict_every` on while at sea (at the
/// at-sea refresh interval while no feed hears the vessel: most lines' vessels are never
/// heard where no AIS feed is configured).
pub(super) fn predicted(
    request: &TrackingRequest,
    prior: &Tracked,
    prediction: Prediction,
    now: Timestamp,
    policy: &Policy,
) -> Change {
    let mut change = Change::none(request);
    if !sailing(prior) {
        return change;
    }
    let kept = prior.shipment.pod_predicted_eta_at;
    let moved = match (kept, prediction.arrival) {
        (Some(kept), Some(new)) => new.seconds_since(kept).abs() >= STEP.as_secs_f64(),
        (kept, new) => kept != new,
    };
    if moved {
        let mut shipment = prior.shipment.clone();
        shipment.pod_predicted_eta_at = prediction.arrival;
        shipment.updated_at = now;
        // The request moves with its shipment: a lookup decided on the old one meanwhile
        // is decided again.
        change.request.updated_at = now;
        change
            .events
            .extend(diverged(&prior.shipment, &shipment, now, policy));
        change.shipment = Some(shipment);
    }
    change.prediction = Some(NewJob {
        kind: JobKind::PredictArrival,
        key: request.id.to_string(),
        due_at: now
            + match prediction.arrival {
                Some(_) => policy.predict_every,
                None => policy.predict_every.max(policy.refresh_at_sea),
            },
        if_absent: false,
    });
    change
}

/// Whether `shipment`'s two estimates, before its arrival, are more than `margin` apart.
#[must_use]
pub fn apart(shipment: &Shipment, margin: Duration) -> bool {
    match (
        shipment.route.pod_ata_at,
        shipment.pod_predicted_eta_at,
        shipment.route.pod_eta_at,
    ) {
        (None, Some(predicted), Some(carrier)) => {
            predicted.seconds_since(carrier).abs() > margin.as_secs_f64()
        }
        _ => false,
    }
}

/// `shipment.predicted_arrival.diverged` when the shipment's estimates were within the
/// margin as `prior` and are not as `next`.
pub(super) fn diverged(
    prior: &Shipment,
    next: &Shipment,
    now: Timestamp,
    policy: &Policy,
) -> Option<DomainEvent> {
    let margin = policy.prediction_margin;
    if apart(prior, margin) || !apart(next, margin) {
        return None;
    }
    Some(DomainEvent::new(
        next.account_id,
        EventName::ShipmentPredictedArrivalDiverged,
        Subject::Shipment(next.id),
        Some(next.id),
        EventDetail {
            estimated_timestamp: next.pod_predicted_eta_at,
            location_locode: next
                .route
                .port_of_discharge
                .as_ref()
                .map(|place| place.locode.clone()),
            ..EventDetail::default()
        },
        format!(
            "{}:shipment.predicted_arrival.diverged:{}",
            next.id,
            now.unix_micros()
        ),
        now,
    ))
}
