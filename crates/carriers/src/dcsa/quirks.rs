//! A carrier's known departures from DCSA Track & Trace 2.2 (its profile's `quirks`), each a
//! rule of its own, applied where the connector asks, reads a status, or reads events:
//!
//! - `booking_and_container` (HMM): asked with a booking and a container together, one
//!   query per pair of the bookings and containers it may go with (at most
//!   [`MAX_CONTAINER_QUERIES`]); a pair that is not one shipment's answers nothing. With
//!   no companion known yet, the number is "not (yet) known" (`NotFound`, logged with the
//!   reason): it waits for one as for a manifest.
//! - `not_manifested_500` (Hapag-Lloyd): a 500 to a bill or booking is "not (yet) known",
//!   which waits for the manifest as a 404 would, instead of a retried failure.
//! - `forbidden_means_no_access` (Maersk): a 403 is this shipment withheld from us,
//!   permanent (`data_unavailable`). Without it a 403 is taken for the gateway refusing our
//!   credentials (a product not subscribed, an address not allow-listed), retried.
//! - `plan_for_pln` (Evergreen): `PLAN` read as `PLN`.
//! - `barge_feeder_codes` (CMA CGM): `ABA`/`ABD` (actual) and `PBA`/`PBD` (planned) barge
//!   arrivals and departures read as `ARRI`/`DEPA` of a call by `BARGE`: feeder events.
//! - `container_less_bookings` (ONE): equipment events that name no container are dropped,
//!   so a booking without boxes stays a booking, not a shipment with phantom moves.
//! - `missing_containers` (Maersk, Hapag-Lloyd) and `unknown_like_unmanifested` (HMM) need no
//!   rule of their own: an answer without equipment events is the shipment without its
//!   containers (they come with a later answer, and boxes once seen are kept), and an empty
//!   answer is "not (yet) known", never "unknown".
//! - `version_1_1_names` (Yang Ming) goes with DCSA 1.1.0, read by [`super::v1`].

use std::collections::BTreeSet;

use reqwest::StatusCode;
use serde_json::{Value, json};
use tidemark_domain::{LookupOutcome, RequestType, TemporaryReason};

use crate::Lookup;
use crate::profiles::Quirk;

/// Most containers one booking is asked with, one query each.
pub const MAX_CONTAINER_QUERIES: usize = 50;

/// A carrier's quirks.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Quirks(BTreeSet<Quirk>);

impl FromIterator<Quirk> for Quirks {
    fn from_iter<I: IntoIterator<Item = Quirk>>(iter: I) -> Self {
        Self(iter.into_iter().collect())
    }
}

/// The DCSA 2.2 parameter a lookup's kind is asked by.
pub(super) const fn filter(kind: RequestType) -> &'static str {
    match kind {
        RequestType::BillOfLading => "transportDocumentReference",
        RequestType::BookingNumber => "carrierBookingReference",
        RequestType::Container => "equipmentReference",
    }
}

/// One query's references: (DCSA 2.2 parameter, value).
pub(super) type References = Vec<(&'static str, String)>;

impl Quirks {
    /// Whether the carrier has `quirk`.
    #[must_use]
    pub fn has(&self, quirk: Quirk) -> bool {
        self.0.contains(&quirk)
    }

    /// The queries that ask about `lookup`, each a set of references given together.
    pub(super) fn queries(&self, lookup: &Lookup) -> Result<Vec<References>, LookupOutcome> {
        if !self.has(Quirk::BookingAndContainer) {
            return Ok(vec![vec![(filter(lookup.kind), lookup.number.clone())]]);
        }
        let bookings = match lookup.kind {
            RequestType::BookingNumber => vec![lookup.number.clone()],
            _ => lookup.known.bookings.clone(),
        };
        let containers = match lookup.kind {
            RequestType::Container => vec![lookup.number.clone()],
            _ => lookup.known.containers.clone(),
        };
        if bookings.is_empty() || containers.is_empty() {
            tracing::info!(
                number = %lookup.number,
                kind = %lookup.kind,
                "this carrier answers only a booking and one of its containers given together, and no companion is known yet"
            );
            return Err(LookupOutcome::NotFound);
        }
        Ok(bookings
            .iter()
            .flat_map(|booking| {
                containers.iter().map(move |container| {
                    vec![
                        (filter(RequestType::BookingNumber), booking.clone()),
                        (filter(RequestType::Container), container.clone()),
                    ]
                })
            })
            .take(MAX_CONTAINER_QUERIES)
            .collect())
    }

    /// What an answer of `status` says about `lookup`, when a quirk gives it a meaning.
    pub(super) fn status(&self, status: StatusCode, lookup: &Lookup) -> Option<LookupOutcome> {
        (status == StatusCode::INTERNAL_SERVER_ERROR
            && self.has(Quirk::NotManifested500)
            && lookup.kind != RequestType::Container)
            .then_some(LookupOutcome::NotFound)
    }

    /// What a 403 means.
    pub(super) fn forbidden(&self) -> LookupOutcome {
        if self.has(Quirk::ForbiddenMeansNoAccess) {
            LookupOutcome::DataUnavailable
        } else {
            LookupOutcome::Temporary(TemporaryReason::Unauthorized)
        }
    }

    /// The carrier's events as DCSA 2.2 writes them.
    pub(super) fn normalise(&self, events: &mut Vec<Value>) {
        if self.has(Quirk::ContainerLessBookings) {
            events.retain(|event| {
                event["eventType"] != "EQUIPMENT"
                    || event
                        .get("equipmentReference")
                        .and_then(Value::as_str)
                        .is_some_and(|number| !number.trim().is_empty())
            });
        }
        for event in events.iter_mut() {
            if self.has(Quirk::PlanForPln) && event["eventClassifierCode"] == "PLAN" {
                event["eventClassifierCode"] = json!("PLN");
            }
            if self.has(Quirk::BargeFeederCodes) {
                barge(event);
            }
        }
    }
}

/// A barge code read as the standard's arrival or departure of a call by barge.
fn barge(event: &mut Value) {
    let (code, actual) = match event["transportEventTypeCode"].as_str() {
        Some("ABA") => ("ARRI", true),
        Some("ABD") => ("DEPA", true),
        Some("PBA") => ("ARRI", false),
        Some("PBD") => ("DEPA", false),
        _ => return,
    };
    event["transportEventTypeCode"] = json!(code);
    if actual {
        event["eventClassifierCode"] = json!("ACT");
    } else if event["eventClassifierCode"] == "ACT" || event.get("eventClassifierCode").is_none() {
        event["eventClassifierCode"] = json!("PLN");
    }
    if let Some(call) = event
        .get_mut("transportCall")
        .and_then(Value::as_object_mut)
    {
        call.insert("modeOfTransport".into(), json!("BARGE"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quirks(list: &[Quirk]) -> Quirks {
        list.iter().copied().collect()
    }

    #[test]
    fn a_booking_and_container_carrier_is_asked_with_both_or_not_at_all() {
        let hmm = quirks(&[Quirk::BookingAndContainer]);
        let mut booking = Lookup::new("HDMUB1", RequestType::BookingNumber);
        assert_eq!(hmm.queries(&booking), Err(LookupOutcome::NotFound));
        booking.known.containers = vec!["MSKU1234565".into(), "TGHU1234566".into()];
        let queries = hmm.queries(&booking).expect("asked");
        assert_eq!(queries.len(), 2);
        assert_eq!(
            queries[1],
            vec![
                ("carrierBookingReference", "HDMUB1".to_owned()),
                ("equipmentReference", "TGHU1234566".to_owned())
            ]
        );
        let mut container = Lookup::new("MSKU1234565", RequestType::Container);
        assert!(hmm.queries(&container).is_err());
        container.known.bookings = vec!["HDMUB1".into(), "HDMUB2".into()];
        assert_eq!(hmm.queries(&container).expect("asked").len(), 2);
        // Every pair, up to the cap.
        booking.known.containers = (0..60).map(|n| format!("BOX{n}")).collect();
        assert_eq!(
            hmm.queries(&booking).expect("asked").len(),
            MAX_CONTAINER_QUERIES
        );
        // Any other carrier: the number alone.
        assert_eq!(
            Quirks::default().queries(&container).expect("asked"),
            vec![vec![("equipmentReference", "MSKU1234565".to_owned())]]
        );
    }

    #[test]
    fn statuses_mean_what_the_carrier_means() {
        let hapag = quirks(&[Quirk::NotManifested500]);
        let bill = Lookup::new("HLCU1", RequestType::BillOfLading);
        let container = Lookup::new("MSKU1234565", RequestType::Container);
        let failed = StatusCode::INTERNAL_SERVER_ERROR;
        assert_eq!(hapag.status(failed, &bill), Some(LookupOutcome::NotFound));
        assert_eq!(hapag.status(failed, &container), None);
        assert_eq!(Quirks::default().status(failed, &bill), None);
        assert_eq!(
            quirks(&[Quirk::ForbiddenMeansNoAccess]).forbidden(),
            LookupOutcome::DataUnavailable
        );
        assert!(matches!(
            Quirks::default().forbidden(),
            LookupOutcome::Temporary(TemporaryReason::Unauthorized)
        ));
    }

    #[test]
    fn codes_are_read_as_the_standard_writes_them() {
        let mut events = vec![
            json!({"eventType": "TRANSPORT", "eventClassifierCode": "ACT",
                   "transportEventTypeCode": "PBD", "transportCall": {"modeOfTransport": "VESSEL"}}),
            json!({"eventType": "TRANSPORT", "eventClassifierCode": "PLAN",
                   "transportEventTypeCode": "ARRI", "transportCall": {}}),
            json!({"eventType": "EQUIPMENT", "eventClassifierCode": "PLN",
                   "equipmentEventTypeCode": "GTOT"}),
        ];
        let untouched = events.clone();
        Quirks::default().normalise(&mut events);
        assert_eq!(events, untouched);
        quirks(&[
            Quirk::BargeFeederCodes,
            Quirk::PlanForPln,
            Quirk::ContainerLessBookings,
        ])
        .normalise(&mut events);
        assert_eq!(events.len(), 2, "the box-less equipment event is dropped");
        assert_eq!(events[0]["transportEventTypeCode"], "DEPA");
        assert_eq!(events[0]["eventClassifierCode"], "PLN");
        assert_eq!(events[0]["transportCall"]["modeOfTransport"], "BARGE");
        assert_eq!(events[1]["eventClassifierCode"], "PLN");
    }
}
