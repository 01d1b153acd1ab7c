//! A shipment's DCSA 2.2 events over time: booking and document events, planned, estimated
//! and actual vessel arrivals and departures per call, and each container's life from empty
//! pick-up to empty return. Each event carries the instant the carrier created it; a query
//! sees only what was created by the simulator's now.

use serde_json::{Value, json};
use time::format_description::well_known::Rfc3339;
use time::{Duration, OffsetDateTime};
use uuid::Uuid;

use crate::world::{Call, Container, Fate, Role, Shipment};

/// Namespace of the simulator's event ids: the same event keeps its id on every answer.
const NAMESPACE: Uuid = Uuid::from_u128(0x3c1d_2f0a_7b4e_4c59_9d1a_5e6f_7a8b_9c0d);

/// The delay between an actual event and the carrier recording it.
const RECORDING_DELAY: Duration = Duration::minutes(10);

/// One event with the instant the carrier created it.
#[derive(Debug, Clone, PartialEq)]
pub struct TimedEvent {
    /// `eventCreatedDateTime`.
    pub created: OffsetDateTime,
    /// The event as the API sends it.
    pub body: Value,
}

/// RFC 3339 in UTC to the second, as every timestamp the simulator writes.
#[must_use]
pub fn timestamp(at: OffsetDateTime) -> String {
    at.to_offset(time::UtcOffset::UTC)
        .replace_nanosecond(0)
        .unwrap_or(at)
        .format(&Rfc3339)
        .unwrap_or_default()
}

struct Builder<'a> {
    shipment: &'a Shipment,
    events: Vec<TimedEvent>,
}

impl Builder<'_> {
    fn id(&self, key: &str) -> String {
        let name = format!(
            "{}|{}|{key}",
            self.shipment.scac, self.shipment.transport_document
        );
        Uuid::new_v5(&NAMESPACE, name.as_bytes()).to_string()
    }

    fn documents(&self) -> Value {
        json!([
            {"documentReferenceType": "BKG", "documentReferenceValue": self.shipment.booking},
            {"documentReferenceType": "TRD", "documentReferenceValue": self.shipment.transport_document},
        ])
    }

    fn push(
        &mut self,
        key: &str,
        created: OffsetDateTime,
        at: OffsetDateTime,
        classifier: &str,
        mut body: Value,
    ) {
        if let Some(object) = body.as_object_mut() {
            object.insert("eventID".into(), Value::String(self.id(key)));
            object.insert("eventCreatedDateTime".into(), timestamp(created).into());
            object.insert("eventDateTime".into(), timestamp(at).into());
            object.insert("eventClassifierCode".into(), classifier.into());
        }
        self.events.push(TimedEvent { created, body });
    }

    fn shipment_event(&mut self, code: &str, document_type: &str, at: OffsetDateTime) {
        let document = if document_type == "TRD" {
            &self.shipment.transport_document
        } else {
            &self.shipment.booking
        };
        let body = json!({
            "eventType": "SHIPMENT",
            "shipmentEventTypeCode": code,
            "documentTypeCode": document_type,
            "documentID": document,
        });
        self.push(
            &format!("shipment|{document_type}|{code}"),
            at,
            at,
            "ACT",
            body,
        );
    }

    fn transport_call(&self, call: &Call) -> Value {
        json!({
            "transportCallID": call.id,
            "transportCallSequenceNumber": call.sequence,
            "carrierServiceCode": call.service,
            "exportVoyageNumber": call.voyage,
            "importVoyageNumber": call.voyage,
            "UNLocationCode": call.port.locode,
            "facilityCode": call.port.terminal,
            "facilityCodeListProvider": "SMDG",
            "facilityTypeCode": "POTE",
            "modeOfTransport": "VESSEL",
            "location": {
                "locationName": call.port.name,
                "UNLocationCode": call.port.locode,
                "facilityCode": call.port.terminal,
                "facilityCodeListProvider": "SMDG",
            },
            "vessel": {
                "vesselIMONumber": call.vessel.imo,
                "vesselName": call.vessel.name,
                "vesselFlag": call.vessel.flag,
                "vesselOperatorCarrierCode": self.shipment.scac,
                "vesselOperatorCarrierCodeListProvider": "NMFTA",
            },
        })
    }

    fn transport_event(
        &mut self,
        call: &Call,
        code: &str,
        classifier: &str,
        revision: usize,
        created: OffsetDateTime,
        at: OffsetDateTime,
    ) {
        let body = json!({
            "eventType": "TRANSPORT",
            "transportEventTypeCode": code,
            "transportCall": self.transport_call(call),
            "documentReferences": self.documents(),
        });
        let key = format!("transport|{}|{code}|{classifier}|{revision}", call.sequence);
        self.push(&key, created, at, classifier, body);
    }

    /// Planned times at manifest, revised estimates as the voyage goes, then the actual.
    fn call_events(&mut self, call: &Call, previous_departure: Option<OffsetDateTime>) {
        let manifested = self.shipment.manifested_at;
        for (code, planned, actual) in [
            ("ARRI", call.planned_arrival, call.arrival),
            ("DEPA", call.planned_departure, call.departure),
        ] {
            self.transport_event(call, code, "PLN", 0, manifested, planned);
            let drift = actual - planned;
            let mut estimates = vec![(manifested + Duration::hours(1), planned + drift / 3)];
            if let Some(departed) = previous_departure {
                estimates.push((departed + Duration::hours(2), planned + drift / 2));
            }
            estimates.push((actual - Duration::days(3), actual + Duration::hours(4)));
            estimates.push((actual - Duration::hours(12), actual));
            let mut last = manifested;
            for (revision, (created, at)) in estimates.into_iter().enumerate() {
                if created > last && created < actual {
                    self.transport_event(call, code, "EST", revision, created, at);
                    last = created;
                }
            }
            self.transport_event(call, code, "ACT", 0, actual + RECORDING_DELAY, actual);
        }
    }

    fn equipment_event(
        &mut self,
        container: &Container,
        code: &str,
        empty: bool,
        at: OffsetDateTime,
        place: Place<'_>,
    ) {
        let at = at + Duration::minutes(container.offset_minutes);
        let mut body = json!({
            "eventType": "EQUIPMENT",
            "equipmentEventTypeCode": code,
            "equipmentReference": container.number,
            "ISOEquipmentCode": container.iso_code,
            "emptyIndicatorCode": if empty { "EMPTY" } else { "LADEN" },
            "documentReferences": self.documents(),
        });
        if !empty && let Some(object) = body.as_object_mut() {
            object.insert(
                "seals".into(),
                json!([{"sealNumber": container.seal, "sealSource": "CAR", "sealType": "BLT"}]),
            );
        }
        let location = match place {
            Place::Call(call) => {
                if let Some(object) = body.as_object_mut() {
                    object.insert("transportCall".into(), self.transport_call(call));
                }
                json!({"locationName": call.port.name, "UNLocationCode": call.port.locode,
                       "facilityCode": call.port.terminal, "facilityCodeListProvider": "SMDG"})
            }
            Place::Terminal(port) => {
                json!({"locationName": port.name, "UNLocationCode": port.locode,
                                             "facilityCode": port.terminal, "facilityCodeListProvider": "SMDG"})
            }
            Place::Depot(port) => json!({"locationName": format!("{} empty depot", port.name),
                                          "UNLocationCode": port.locode}),
        };
        if let Some(object) = body.as_object_mut() {
            object.insert("eventLocation".into(), location);
        }
        let key = format!("equipment|{}|{code}|{}|{at}", container.number, empty);
        self.push(&key, at + RECORDING_DELAY, at, "ACT", body);
    }
}

#[derive(Clone, Copy)]
enum Place<'a> {
    Call(&'a Call),
    Terminal(&'a crate::data::Port),
    Depot(&'a crate::data::Port),
}

/// Every event of `shipment` over its whole life, in creation order.
#[must_use]
pub fn events(shipment: &Shipment) -> Vec<TimedEvent> {
    let mut builder = Builder {
        shipment,
        events: Vec::with_capacity(64),
    };
    if shipment.fate == Fate::Unknown {
        return builder.events;
    }
    builder.shipment_event("RECE", "BKG", shipment.booked_at);
    builder.shipment_event("CONF", "BKG", shipment.booked_at + Duration::hours(1));
    if let Fate::Cancelled(at) = shipment.fate {
        builder.shipment_event("VOID", "BKG", at);
        builder.events.sort_by_key(|event| event.created);
        return builder.events;
    }
    builder.shipment_event("DRFT", "TRD", shipment.manifested_at);
    builder.shipment_event(
        "ISSU",
        "TRD",
        shipment.calls[0].departure + Duration::hours(20),
    );

    let mut previous_departure = None;
    for call in &shipment.calls {
        builder.call_events(call, previous_departure);
        previous_departure = Some(call.departure);
    }
    let origin = *shipment.origin();
    let destination = *shipment.destination();
    for container in &shipment.containers {
        builder.equipment_event(
            container,
            "GTOT",
            true,
            shipment.empty_out,
            Place::Depot(&origin),
        );
        builder.equipment_event(
            container,
            "GTIN",
            false,
            shipment.full_in,
            Place::Terminal(&origin),
        );
        for call in &shipment.calls {
            match call.role {
                Role::Load => builder.equipment_event(
                    container,
                    "LOAD",
                    false,
                    call.departure - Duration::hours(10),
                    Place::Call(call),
                ),
                Role::Discharge => builder.equipment_event(
                    container,
                    "DISC",
                    false,
                    call.arrival + Duration::hours(8),
                    Place::Call(call),
                ),
            }
        }
        builder.equipment_event(
            container,
            "GTOT",
            false,
            shipment.full_out,
            Place::Terminal(&destination),
        );
        builder.equipment_event(
            container,
            "GTIN",
            true,
            shipment.empty_in,
            Place::Depot(&destination),
        );
    }
    builder.events.sort_by_key(|event| event.created);
    builder.events
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::{Chances, Placement, Reference, World};
    use time::macros::datetime;

    fn shipment(reference: &str) -> Shipment {
        World {
            seed: 1,
            epoch: datetime!(2026-06-01 0:00 UTC),
            chances: Chances {
                not_found: 0,
                awaiting_manifest: 0,
                cancelled: 0,
            },
        }
        .shipment(
            "HLCU",
            &Reference::TransportDocument(reference.to_owned()),
            Placement::AtEpoch,
            None,
        )
        .expect("shipment")
    }

    #[test]
    fn a_voyage_has_every_milestone_once_and_unique_ids() {
        let shipment = shipment("HLCUSHA1904CCVX4");
        let events = events(&shipment);
        let ids: std::collections::HashSet<&str> = events
            .iter()
            .filter_map(|e| e.body["eventID"].as_str())
            .collect();
        assert_eq!(ids.len(), events.len(), "event ids are unique");
        let actual = |kind: &str, code: &str| {
            events
                .iter()
                .filter(|e| {
                    e.body["eventClassifierCode"] == "ACT"
                        && e.body["eventType"] == kind
                        && (e.body["transportEventTypeCode"] == code
                            || e.body["equipmentEventTypeCode"] == code)
                })
                .count()
        };
        let calls = shipment.calls.len();
        let boxes = shipment.containers.len();
        assert_eq!(actual("TRANSPORT", "ARRI"), calls);
        assert_eq!(actual("TRANSPORT", "DEPA"), calls);
        assert_eq!(actual("EQUIPMENT", "LOAD"), boxes * calls / 2);
        assert_eq!(actual("EQUIPMENT", "DISC"), boxes * calls / 2);
        assert_eq!(actual("EQUIPMENT", "GTOT"), boxes * 2);
        assert_eq!(actual("EQUIPMENT", "GTIN"), boxes * 2);
        assert!(events.windows(2).all(|w| w[0].created <= w[1].created));
        let estimates = events
            .iter()
            .filter(|e| e.body["eventClassifierCode"] == "EST")
            .count();
        assert!(estimates >= calls * 2, "{estimates}");
    }

    #[test]
    fn the_same_shipment_gives_the_same_events() {
        assert_eq!(events(&shipment("A1")), events(&shipment("A1")));
    }
}
