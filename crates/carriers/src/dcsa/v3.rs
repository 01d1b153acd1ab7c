//! DCSA Track & Trace 3.0 (the beta snapshot of 2026-05-25, pinned), read into 2.2's shape
//! so that one model and one mapping serve every version: the answer is `{"events": […]}`
//! and pages follow `Next-Page-Cursor`; each event's `eventClassification` (full words:
//! `ACTUAL`, `DEPARTED`, `LOADED`, …) becomes 2.2's codes, `eventUpdatedDateTime` its
//! creation time, the transport call, equipment and document references their 2.2 places.
//! An event retracted (`isRetracted`) withdraws every copy of its `eventID`. Codes 2.2 has
//! no word for keep their 3.0 word: an equipment event with one (`AVAILABLE_FOR_PICKUP`,
//! `CUSTOMS_RELEASED`, …) is kept among the container's carrier events and makes no
//! milestone; IoT and reefer events and `APPROACHING` are dropped and logged as out of
//! the model, as any event that breaks it is.

use std::collections::HashSet;

use serde_json::{Map, Value, json};

const CLASSIFIERS: [(&str, &str); 3] =
    [("ACTUAL", "ACT"), ("ESTIMATED", "EST"), ("PLANNED", "PLN")];
const TRANSPORT: [(&str, &str); 2] = [("ARRIVED", "ARRI"), ("DEPARTED", "DEPA")];
const EQUIPMENT: [(&str, &str); 11] = [
    ("LOADED", "LOAD"),
    ("DISCHARGED", "DISC"),
    ("GATED_IN", "GTIN"),
    ("GATED_OUT", "GTOT"),
    ("STUFFED", "STUF"),
    ("STRIPPED", "STRP"),
    ("PICKED_UP", "PICK"),
    ("DROPPED_OFF", "DROP"),
    ("INSPECTED", "INSP"),
    ("RESEALED", "RSEA"),
    ("REMOVED", "RMVD"),
];
const SHIPMENT: [(&str, &str); 16] = [
    ("RECEIVED", "RECE"),
    ("CONFIRMED", "CONF"),
    ("DRAFTED", "DRFT"),
    ("ISSUED", "ISSU"),
    ("VOIDED", "VOID"),
    ("CANCELLED", "CANC"),
    ("REJECTED", "REJE"),
    ("APPROVED", "APPR"),
    ("SURRENDERED", "SURR"),
    ("SUBMITTED", "SUBM"),
    ("PENDING_APPROVAL", "PENA"),
    ("PENDING_UPDATE", "PENU"),
    ("ON_HOLD", "HOLD"),
    ("RELEASED", "RELS"),
    ("COMPLETED", "CMPL"),
    ("REQUESTED", "REQS"),
];
const DOCUMENTS: [(&str, &str); 3] = [
    ("BOOKING", "BKG"),
    ("CARRIER_BOOKING_REQUEST", "CBR"),
    ("TRANSPORT_DOCUMENT", "TRD"),
];

/// 2.2's code for 3.0's `word`, or the word itself when 2.2 has none.
fn code(table: &[(&str, &'static str)], word: &Value) -> Value {
    match word.as_str() {
        Some(text) => table
            .iter()
            .find(|(w, _)| *w == text)
            .map_or_else(|| json!(text), |(_, code)| json!(code)),
        None => Value::Null,
    }
}

#[derive(serde::Deserialize)]
struct Answer {
    events: Vec<Value>,
}

/// The events of a 3.0 answer, in 2.2's shape, without the retracted ones.
///
/// # Errors
/// When the answer is not `{"events": […]}`.
pub(super) fn read(body: &[u8]) -> Result<Vec<Value>, String> {
    let answer: Answer = serde_json::from_slice(body)
        .map_err(|error| format!("not a DCSA 3.0 answer ({{\"events\": […]}}): {error}"))?;
    Ok(downgrade(answer.events))
}

/// 3.0 events in 2.2's shape, without the retracted ones.
pub(crate) fn downgrade(events: Vec<Value>) -> Vec<Value> {
    let retracted: HashSet<String> = events
        .iter()
        .filter(|e| e["isRetracted"] == Value::Bool(true))
        .filter_map(|e| e["eventID"].as_str().map(str::to_owned))
        .collect();
    events
        .iter()
        .filter(|e| {
            e["eventID"]
                .as_str()
                .is_none_or(|id| !retracted.contains(id))
        })
        .map(event)
        .collect()
}

/// What a 3.0 push carries (`POST /events`, `{"events": […]}`): each event's id and update
/// time, and the documents (bills, bookings) and containers the events name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Pushed {
    /// `(eventID, eventUpdatedDateTime)` of each event that keeps the model.
    pub events: Vec<(String, tidemark_domain::Timestamp)>,
    /// The transport documents and bookings named.
    pub documents: std::collections::BTreeSet<String>,
    /// The containers named.
    pub containers: std::collections::BTreeSet<String>,
}

/// Most events one push may carry.
pub const MAX_PUSHED: usize = 1_000;

/// A 3.0 push, read with the carrier's `quirks` and checked as a poll's answer is.
///
/// # Errors
/// Not `{"events": […]}`, too many, or none readable.
pub fn read_pushed(body: &[u8], quirks: &super::Quirks) -> Result<Pushed, String> {
    let answer: Answer = serde_json::from_slice(body)
        .map_err(|error| format!("not a DCSA 3.0 push ({{\"events\": […]}}): {error}"))?;
    if answer.events.len() > MAX_PUSHED {
        return Err(format!("more than {MAX_PUSHED} events in one push"));
    }
    let mut raw = downgrade(answer.events);
    quirks.normalise(&mut raw);
    let checked = super::check(raw).map_err(|outcome| match outcome {
        tidemark_domain::LookupOutcome::Temporary(
            tidemark_domain::TemporaryReason::Unrecognized(problem),
        ) => problem,
        other => other.label().to_owned(),
    })?;
    let mut pushed = Pushed::default();
    for event in checked {
        pushed
            .documents
            .extend(event.documents.iter().map(|(_, value)| value.clone()));
        match &event.kind {
            super::model::Kind::Shipment { document_id, .. } => {
                pushed.documents.insert(document_id.clone());
            }
            super::model::Kind::Equipment {
                container: Some(number),
                ..
            } => {
                pushed.containers.insert(number.clone());
            }
            _ => {}
        }
        pushed.events.push((event.id, event.created));
    }
    Ok(pushed)
}

fn references(event: &Value) -> Vec<Value> {
    let details = &event["shipmentDetails"];
    details["additionalDocumentReferences"]
        .as_array()
        .into_iter()
        .flatten()
        .chain(details.get("documentReference"))
        .map(|r| {
            json!({
                "documentReferenceType": code(&DOCUMENTS, &r["type"]),
                "documentReferenceValue": r["reference"],
            })
        })
        .collect()
}

fn transport_call(call: &Value, place: &Value) -> Value {
    let vessel = &call["vesselTransport"];
    let mut out = json!({
        "transportCallID": call["transportCallReference"],
        "transportCallSequenceNumber": call["transportCallSequenceNumber"],
        "modeOfTransport": call["modeOfTransport"],
        "exportVoyageNumber": call["exportVoyageNumberOrReference"]["carrierVoyageNumber"],
        "carrierServiceCode": call["serviceCodeOrReference"]["carrierServiceCode"],
        "UNLocationCode": place["UNLocationCode"],
        "facilityCode": place["facility"]["facilityCode"],
        "location": location(place),
    });
    if vessel.is_object() {
        out["vessel"] = json!({"vesselIMONumber": vessel["vesselIMONumber"], "vesselName": vessel["vesselName"]});
    }
    out
}

fn location(place: &Value) -> Value {
    json!({
        "locationName": place["locationName"],
        "UNLocationCode": place["UNLocationCode"],
        "facilityCode": place["facility"]["facilityCode"],
    })
}

/// One 3.0 event in 2.2's shape.
fn event(event: &Value) -> Value {
    let classification = &event["eventClassification"];
    let place = &event["eventLocation"];
    let mut out = Map::new();
    let mut put = |field: &str, value: Value| {
        if !value.is_null() {
            out.insert(field.to_owned(), value);
        }
    };
    put("eventID", event["eventID"].clone());
    put("eventType", classification["eventType"].clone());
    put(
        "eventClassifierCode",
        code(&CLASSIFIERS, &classification["eventClassifier"]),
    );
    put("eventDateTime", event["eventDateTime"].clone());
    put(
        "eventCreatedDateTime",
        event["eventUpdatedDateTime"].clone(),
    );
    put(
        "transportEventTypeCode",
        code(&TRANSPORT, &classification["transportEventType"]),
    );
    put(
        "equipmentEventTypeCode",
        code(&EQUIPMENT, &classification["equipmentEventType"]),
    );
    put(
        "shipmentEventTypeCode",
        code(&SHIPMENT, &classification["shipmentEventType"]),
    );
    let document = &event["shipmentDetails"]["documentReference"];
    if classification["eventType"] == "SHIPMENT" {
        put("documentTypeCode", code(&DOCUMENTS, &document["type"]));
        put("documentID", document["reference"].clone());
    }
    put("documentReferences", Value::Array(references(event)));
    let equipment = &event["equipmentDetails"];
    put(
        "equipmentReference",
        equipment["equipmentReference"].clone(),
    );
    put("ISOEquipmentCode", equipment["ISOEquipmentCode"].clone());
    put("emptyIndicatorCode", equipment["emptyIndicator"].clone());
    if let Some(seals) = equipment["seals"].as_array() {
        let seals: Vec<Value> = seals
            .iter()
            .map(|s| json!({"sealNumber": s["number"], "sealSource": s["source"], "sealType": s["type"]}))
            .collect();
        put("seals", Value::Array(seals));
    }
    let call = &event["transportDetails"]["transportCall"];
    if call.is_object() {
        put("transportCall", transport_call(call, place));
    }
    if place.is_object() {
        put("eventLocation", location(place));
    }
    Value::Object(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_become_codes_and_retractions_withdraw() {
        let events = vec![
            json!({"eventID": "e1", "eventDateTime": "2026-01-01T00:00:00Z",
                "eventUpdatedDateTime": "2026-01-01T00:10:00Z",
                "eventClassification": {"eventType": "TRANSPORT", "eventClassifier": "ACTUAL",
                    "transportEventType": "DEPARTED"},
                "eventLocation": {"UNLocationCode": "NLRTM", "facility": {"facilityCode": "ECTDE"}},
                "transportDetails": {"transportCall": {"transportCallReference": "c1",
                    "modeOfTransport": "VESSEL", "vesselTransport": {"vesselIMONumber": "9321483"}}},
                "shipmentDetails": {"additionalDocumentReferences": [{"type": "TRANSPORT_DOCUMENT", "reference": "BL1"}]}}),
            json!({"eventID": "e2", "eventDateTime": "2026-01-01T00:00:00Z",
                "eventUpdatedDateTime": "2026-01-01T00:10:00Z",
                "eventClassification": {"eventType": "EQUIPMENT", "eventClassifier": "ACTUAL",
                    "equipmentEventType": "AVAILABLE_FOR_PICKUP"},
                "equipmentDetails": {"equipmentReference": "MSKU1234565", "emptyIndicator": "LADEN"}}),
            json!({"eventID": "e3", "isRetracted": false, "eventClassification": {"eventType": "SHIPMENT"}}),
            json!({"eventID": "e3", "isRetracted": true}),
        ];
        let old = downgrade(events);
        assert_eq!(old.len(), 2, "e3 is retracted, every copy");
        assert_eq!(old[0]["transportEventTypeCode"], "DEPA");
        assert_eq!(old[0]["eventClassifierCode"], "ACT");
        assert_eq!(old[0]["eventCreatedDateTime"], "2026-01-01T00:10:00Z");
        assert_eq!(old[0]["transportCall"]["UNLocationCode"], "NLRTM");
        assert_eq!(
            old[0]["documentReferences"][0]["documentReferenceType"],
            "TRD"
        );
        assert_eq!(
            old[1]["equipmentEventTypeCode"], "AVAILABLE_FOR_PICKUP",
            "no 2.2 word"
        );
        assert!(read(b"[]").is_err());
    }
}
