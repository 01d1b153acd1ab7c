//! What a line lists for a request: the shipment's events that happened by now and match
//! the query, as the line writes them ([`crate::plays`]), or what it answers instead.

use axum::http::{Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use super::events::shipment_of;
use super::{dcsa_error, with_version};
use crate::Simulator;
use crate::lock;
use crate::plays::{Answer, Plays};
use crate::query::EventQuery;
use crate::terminal::Visit;
use crate::timeline::events;
use crate::world::{Fate, Outcome, Placement, Reference, Shipment};

/// One request's question.
pub(super) struct Asked<'a> {
    pub(super) sim: &'a Simulator,
    pub(super) scac: &'a str,
    pub(super) reference: &'a Reference,
    pub(super) query: &'a EventQuery,
    pub(super) plays: &'a Plays,
}

impl Asked<'_> {
    /// The events the line answers, as it writes them, or what it answers instead.
    pub(super) fn events(
        &self,
        lookup: u32,
        container: Option<&str>,
    ) -> Result<Vec<Value>, Answer> {
        let plays = self.plays;
        let (outcome, placement, only_booking) =
            shipment_of(self.scac, self.reference.value(), lookup).map_err(
                |refusal| match plays.unknown() {
                    Some(answer) if refusal.status == StatusCode::NOT_FOUND => answer,
                    _ => Answer::Error(refusal.status.as_u16(), refusal.reason, refusal.message),
                },
            )?;
        let (mut visible, shipment) = listed(
            self.sim,
            self.scac,
            self.reference,
            (outcome, placement),
            only_booking,
            self.query,
        );
        if shipment.as_ref().is_none_or(|s| s.fate == Fate::Unknown)
            && let Some(answer) = plays.unknown()
        {
            return Err(answer);
        }
        let now = self.sim.state.clock.now();
        let unmanifested = only_booking
            || shipment
                .as_ref()
                .is_some_and(|s| s.fate == Fate::Sails && now < s.manifested_at);
        if unmanifested && let Some(answer) = plays.not_manifested(self.reference) {
            return Err(answer);
        }
        plays.rewrite(&mut visible, shipment.as_ref(), self.reference, container);
        Ok(visible)
    }
}

/// The events a request lists, sorted: the shipment's (and those injected for the
/// carrier) that happened by now and match the query; only the booking's until the
/// shipment is manifested.
fn listed(
    sim: &Simulator,
    scac: &str,
    reference: &Reference,
    (outcome, placement): (Option<Outcome>, Placement),
    only_booking: bool,
    query: &EventQuery,
) -> (Vec<Value>, Option<Shipment>) {
    let now = sim.state.clock.now();
    let world = sim.world_of(scac, reference.value());
    let shipment = world.shipment(scac, reference, placement, outcome);
    if let Some(shipment) = &shipment
        && !only_booking
    {
        let visit = Visit {
            scac: scac.to_owned(),
            reference: reference.clone(),
            placement,
            outcome,
            epoch: world.epoch,
        };
        lock(&sim.state.terminals).remember(shipment, &visit);
        sim.remember_vessels(shipment);
    }
    let mut visible: Vec<Value> = shipment
        .as_ref()
        .map(events)
        .unwrap_or_default()
        .into_iter()
        .chain(
            lock(&sim.state.injected)
                .get(scac)
                .cloned()
                .unwrap_or_default(),
        )
        .filter(|event| event.created <= now)
        .map(|event| event.body)
        .filter(|event| !only_booking || event["eventType"] == "SHIPMENT")
        .filter(|event| query.matches(event))
        .collect();
    query.sort(&mut visible);
    (visible, shipment)
}

/// A played line's answer instead of events.
pub(super) fn played(method: &Method, uri: &Uri, answer: Answer) -> Response {
    match answer {
        Answer::Error(status, reason, message) => dcsa_error(
            method,
            uri,
            StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR),
            reason,
            message,
        ),
        Answer::AccessDenied => (
            StatusCode::FORBIDDEN,
            axum::Json(json!({"message": "Access Denied"})),
        )
            .into_response(),
        Answer::Empty => with_version(axum::Json(json!([])).into_response()),
    }
}
