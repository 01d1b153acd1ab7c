//! Real lines' ways, played on request: per SCAC, the simulator answers as that line does
//! where it departs from DCSA Track & Trace 2.2 (`SimConfig::quirks`), so a client can be
//! tested against each way over real HTTP. What each does:
//!
//! - `not_manifested_500`: a bill or booking not yet manifested is answered 500
//!   `error.internalServer` (Hapag-Lloyd).
//! - `booking_and_container`: a query names a booking and one of its containers together,
//!   or is refused 400 (HMM); the answer is the booking's events, the other boxes' left out.
//! - `unknown_like_unmanifested`: an unknown reference and a booking not yet manifested are
//!   both answered `200 []`, byte for byte the same (HMM).
//! - `barge_feeder_codes`: the first leg of a transshipped route goes by barge, its calls'
//!   arrivals and departures coded `ABA`/`ABD` when actual and `PBA`/`PBD` when planned or
//!   estimated (CMA CGM).
//! - `plan_for_pln`: planned events are classified `PLAN` (Evergreen).
//! - `missing_containers`: a bill or booking is answered without its equipment events
//!   (Maersk, Hapag-Lloyd).
//! - `forbidden_means_no_access`: a shipment the caller may not see, which is any the line
//!   does not know, is answered 403 `Access Denied` by the gateway (Maersk).
//! - `container_less_bookings`: a booking without containers yet carries equipment events
//!   naming no container (ONE).
//!
//! DCSA 1.1.0's shape and parameter names (Yang Ming) are served at `/{SCAC}/v1/events`
//! for every line ([`crate::v1`]).

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use time::Duration;
use uuid::Uuid;

use crate::query::EventQuery;
use crate::timeline::timestamp;
use crate::world::{Reference, Shipment};

/// A way a real line departs from the standard.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Quirk {
    /// 500 for a bill or booking not yet manifested.
    #[serde(rename = "not_manifested_500")]
    NotManifested500,
    /// A booking and a container, together.
    BookingAndContainer,
    /// Unknown and not-yet-manifested answered alike.
    UnknownLikeUnmanifested,
    /// Barge legs coded `ABA`/`ABD`/`PBA`/`PBD`.
    BargeFeederCodes,
    /// `PLAN` for `PLN`.
    PlanForPln,
    /// Bills and bookings without their equipment events.
    MissingContainers,
    /// 403 for what the caller may not see.
    ForbiddenMeansNoAccess,
    /// Equipment events naming no container on bookings without containers.
    ContainerLessBookings,
}

/// The ways one line plays.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Plays(BTreeSet<Quirk>);

/// What a played way makes of a request instead of its events.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// A DCSA error: status, reason, message.
    Error(u16, &'static str, &'static str),
    /// The gateway's 403, not a DCSA document.
    AccessDenied,
    /// `200 []`.
    Empty,
}

impl Plays {
    /// The ways of `quirks`.
    #[must_use]
    pub fn new(quirks: impl IntoIterator<Item = Quirk>) -> Self {
        Self(quirks.into_iter().collect())
    }

    /// Whether this line plays `quirk`.
    #[must_use]
    pub fn has(&self, quirk: Quirk) -> bool {
        self.0.contains(&quirk)
    }

    /// Takes the container out of a booking-and-container query (the booking names the
    /// shipment; the container picks its boxes), or says why the query is refused.
    ///
    /// # Errors
    /// The refusal, when the line wants both and the query lacks one.
    pub fn narrow(&self, query: &mut EventQuery) -> Result<Option<String>, Answer> {
        if !self.has(Quirk::BookingAndContainer) {
            return Ok(None);
        }
        let booking = query
            .references
            .iter()
            .any(|r| matches!(r, Reference::Booking(_)));
        let container = query.references.iter().find_map(|r| match r {
            Reference::Equipment(number) => Some(number.clone()),
            _ => None,
        });
        match (booking, container) {
            (true, Some(container)) => {
                query
                    .references
                    .retain(|r| !matches!(r, Reference::Equipment(_)));
                Ok(Some(container))
            }
            _ => Err(Answer::Error(
                400,
                "invalidQuery",
                "carrierBookingReference and equipmentReference are both required",
            )),
        }
    }

    /// What the line answers for a reference it does not know (instead of 404), if not
    /// the standard's answer.
    #[must_use]
    pub fn unknown(&self) -> Option<Answer> {
        if self.has(Quirk::ForbiddenMeansNoAccess) {
            Some(Answer::AccessDenied)
        } else if self.has(Quirk::UnknownLikeUnmanifested) {
            Some(Answer::Empty)
        } else {
            None
        }
    }

    /// What the line answers for a bill or booking not yet manifested, if not its booking
    /// events.
    #[must_use]
    pub fn not_manifested(&self, reference: &Reference) -> Option<Answer> {
        if matches!(reference, Reference::Equipment(_)) {
            return None;
        }
        if self.has(Quirk::NotManifested500) {
            Some(Answer::Error(
                500,
                "error.internalServer",
                "Internal Server Error",
            ))
        } else if self.has(Quirk::UnknownLikeUnmanifested) {
            Some(Answer::Empty)
        } else {
            None
        }
    }

    /// The listed events as this line writes them.
    pub fn rewrite(
        &self,
        events: &mut Vec<Value>,
        shipment: Option<&Shipment>,
        reference: &Reference,
        container: Option<&str>,
    ) {
        if let Some(container) = container {
            let has_box = events
                .iter()
                .any(|e| e["equipmentReference"].as_str() == Some(container));
            if !has_box {
                events.clear();
            }
            events.retain(|e| {
                e.get("equipmentReference")
                    .and_then(Value::as_str)
                    .is_none_or(|number| number == container)
            });
        }
        if self.has(Quirk::MissingContainers) && !matches!(reference, Reference::Equipment(_)) {
            events.retain(|e| e["eventType"] != "EQUIPMENT");
        }
        if let Some(shipment) = shipment {
            if self.has(Quirk::ContainerLessBookings)
                && !events.is_empty()
                && events.iter().all(|e| e["eventType"] == "SHIPMENT")
            {
                events.push(boxless_pickup(shipment));
            }
            if self.has(Quirk::BargeFeederCodes) {
                barges(events, shipment);
            }
        }
        if self.has(Quirk::PlanForPln) {
            for event in events.iter_mut() {
                if event["eventClassifierCode"] == "PLN" {
                    event["eventClassifierCode"] = json!("PLAN");
                }
            }
        }
    }
}

/// The empty pick-up a line plans for a booking before any box is assigned: an equipment
/// event with no `equipmentReference`.
fn boxless_pickup(shipment: &Shipment) -> Value {
    let id = Uuid::new_v5(
        &Uuid::NAMESPACE_OID,
        format!("{}|{}|boxless", shipment.scac, shipment.booking).as_bytes(),
    );
    let origin = shipment.origin();
    json!({
        "eventID": id.to_string(),
        "eventType": "EQUIPMENT",
        "eventClassifierCode": "PLN",
        "eventCreatedDateTime": timestamp(shipment.booked_at + Duration::hours(1)),
        "eventDateTime": timestamp(shipment.empty_out),
        "equipmentEventTypeCode": "GTOT",
        "emptyIndicatorCode": "EMPTY",
        "eventLocation": {"locationName": format!("{} empty depot", origin.name),
                          "UNLocationCode": origin.locode},
        "documentReferences": [
            {"documentReferenceType": "BKG", "documentReferenceValue": shipment.booking},
        ],
    })
}

/// The first leg of a transshipped route by barge: its calls' mode `BARGE`, their
/// arrivals and departures in the barge codes.
fn barges(events: &mut [Value], shipment: &Shipment) {
    if shipment.calls.iter().all(|call| call.leg == 0) {
        return;
    }
    let feeder: Vec<&str> = shipment
        .calls
        .iter()
        .filter(|call| call.leg == 0)
        .map(|call| call.id.as_str())
        .collect();
    for event in events.iter_mut() {
        let on_feeder = event["transportCall"]["transportCallID"]
            .as_str()
            .is_some_and(|id| feeder.contains(&id));
        if !on_feeder {
            continue;
        }
        event["transportCall"]["modeOfTransport"] = json!("BARGE");
        let actual = event["eventClassifierCode"] == "ACT";
        let code = match (event["transportEventTypeCode"].as_str(), actual) {
            (Some("ARRI"), true) => "ABA",
            (Some("DEPA"), true) => "ABD",
            (Some("ARRI"), false) => "PBA",
            (Some("DEPA"), false) => "PBD",
            _ => continue,
        };
        event["transportEventTypeCode"] = json!(code);
    }
}

#[cfg(test)]
mod tests;
