//! DCSA Track & Trace 3.0, the beta snapshot of 2026-05-25 (`dcsa/TNT_v3.0.0-beta-20260525.json`),
//! as a line that has moved to it serves it: `GET /{SCAC}/v3/events` answers
//! `{"events": […]}` with each event redesigned (`eventClassification` with full words,
//! `eventUpdatedDateTime`, the details of its kind in `shipmentDetails`,
//! `transportDetails` or `equipmentDetails`), and pages with `Next-Page-Cursor`.
//!
//! A 3.0 line also says what 2.2 has no word for: a box discharged at its port of
//! discharge is selected for a customs scan an hour later, released by customs six hours
//! after discharge and available for pickup after eight ([`release_events`]), each told
//! once its time has come.

use serde_json::{Map, Value, json};

/// The DCSA contract version of the 3.0 answers.
pub const API_VERSION: &str = "3.0.0-Beta-20260525";

/// 2.2's codes and 3.0's words, per kind.
const CLASSIFIERS: [(&str, &str); 3] =
    [("ACT", "ACTUAL"), ("EST", "ESTIMATED"), ("PLN", "PLANNED")];
const TRANSPORT: [(&str, &str); 2] = [("ARRI", "ARRIVED"), ("DEPA", "DEPARTED")];
const EQUIPMENT: [(&str, &str); 11] = [
    ("LOAD", "LOADED"),
    ("DISC", "DISCHARGED"),
    ("GTIN", "GATED_IN"),
    ("GTOT", "GATED_OUT"),
    ("STUF", "STUFFED"),
    ("STRP", "STRIPPED"),
    ("PICK", "PICKED_UP"),
    ("DROP", "DROPPED_OFF"),
    ("INSP", "INSPECTED"),
    ("RSEA", "RESEALED"),
    ("RMVD", "REMOVED"),
];
const SHIPMENT: [(&str, &str); 16] = [
    ("RECE", "RECEIVED"),
    ("CONF", "CONFIRMED"),
    ("DRFT", "DRAFTED"),
    ("ISSU", "ISSUED"),
    ("VOID", "VOIDED"),
    ("CANC", "CANCELLED"),
    ("REJE", "REJECTED"),
    ("APPR", "APPROVED"),
    ("SURR", "SURRENDERED"),
    ("SUBM", "SUBMITTED"),
    ("PENA", "PENDING_APPROVAL"),
    ("PENU", "PENDING_UPDATE"),
    ("HOLD", "ON_HOLD"),
    ("RELS", "RELEASED"),
    ("CMPL", "COMPLETED"),
    ("REQS", "REQUESTED"),
];
const DOCUMENTS: [(&str, &str); 3] = [
    ("BKG", "BOOKING"),
    ("CBR", "CARRIER_BOOKING_REQUEST"),
    ("TRD", "TRANSPORT_DOCUMENT"),
];

fn word(table: &[(&str, &'static str)], code: Option<&str>) -> Value {
    code.and_then(|code| table.iter().find(|(c, _)| *c == code))
        .map_or(Value::Null, |(_, word)| json!(word))
}

/// The 2.2 query of a 3.0 one: `eventUpdatedDateTimeMin`/`Max` become the creation
/// bounds the simulator filters by; the references, `limit` and `cursor` are the same.
#[must_use]
pub fn query(raw: &str) -> String {
    let mut out = form_urlencoded::Serializer::new(String::new());
    for (key, value) in form_urlencoded::parse(raw.as_bytes()) {
        let key = match key.as_ref() {
            "eventUpdatedDateTimeMin" => "eventCreatedDateTime:gte",
            "eventUpdatedDateTimeMax" => "eventCreatedDateTime:lte",
            // 3.0's event types include IoT and reefer events, which the simulator has none
            // of; its shipment, transport and equipment events are always answered.
            "eventTypes" => continue,
            other => other,
        };
        out.append_pair(key, &value);
    }
    out.finish()
}

fn location(place: &Value) -> Value {
    let mut location = Map::new();
    for field in ["locationName", "UNLocationCode"] {
        if let Some(value) = place.get(field).filter(|v| !v.is_null()) {
            location.insert(field.to_owned(), value.clone());
        }
    }
    if let Some(code) = place.get("facilityCode").and_then(Value::as_str) {
        location.insert(
            "facility".into(),
            json!({"facilityCode": code, "facilityCodeListProvider": place.get("facilityCodeListProvider").cloned().unwrap_or(json!("SMDG"))}),
        );
    }
    Value::Object(location)
}

fn transport_call(call: &Value) -> Value {
    let mut out = json!({
        "transportCallReference": call["transportCallID"],
        "transportCallSequenceNumber": call["transportCallSequenceNumber"],
        "modeOfTransport": call["modeOfTransport"],
        "exportVoyageNumberOrReference": {"carrierVoyageNumber": call["exportVoyageNumber"]},
        "importVoyageNumberOrReference": {"carrierVoyageNumber": call["importVoyageNumber"]},
        "serviceCodeOrReference": {"carrierServiceCode": call["carrierServiceCode"]},
    });
    if let Some(vessel) = call.get("vessel") {
        out["vesselTransport"] = json!({
            "vesselIMONumber": vessel["vesselIMONumber"],
            "vesselName": vessel["vesselName"],
            "vesselFlag": vessel["vesselFlag"],
        });
    }
    strip_nulls(&mut out);
    out
}

/// `value` without its null members, at every depth (3.0 types them as strings).
fn strip_nulls(value: &mut Value) {
    if let Some(object) = value.as_object_mut() {
        object.retain(|_, v| !v.is_null());
        for member in object.values_mut() {
            strip_nulls(member);
        }
        object.retain(|_, v| !v.as_object().is_some_and(Map::is_empty));
    }
}

fn document(kind: Option<&str>, reference: &Value) -> Value {
    json!({"type": word(&DOCUMENTS, kind), "reference": reference})
}

/// One 2.2 event in 3.0's shape.
#[must_use]
pub fn event(event: &Value) -> Value {
    let text = |field: &str| event.get(field).and_then(Value::as_str);
    let kind = text("eventType").unwrap_or_default();
    let mut classification = json!({
        "eventType": kind,
        "eventClassifier": word(&CLASSIFIERS, text("eventClassifierCode")),
    });
    let mut out = json!({
        "eventID": event["eventID"],
        "eventDateTime": event["eventDateTime"],
        "eventUpdatedDateTime": event["eventCreatedDateTime"],
    });
    let references: Vec<Value> = event["documentReferences"]
        .as_array()
        .map(|refs| {
            refs.iter()
                .map(|r| {
                    document(
                        r["documentReferenceType"].as_str(),
                        &r["documentReferenceValue"],
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    let mut shipment = json!({"additionalDocumentReferences": references});
    match kind {
        "SHIPMENT" => {
            classification["shipmentEventType"] = word(&SHIPMENT, text("shipmentEventTypeCode"));
            shipment["documentReference"] =
                document(text("documentTypeCode"), &event["documentID"]);
        }
        "TRANSPORT" => {
            classification["transportEventType"] = word(&TRANSPORT, text("transportEventTypeCode"));
        }
        _ => {
            classification["equipmentEventType"] = word(&EQUIPMENT, text("equipmentEventTypeCode"));
            let seals: Vec<Value> = event["seals"]
                .as_array()
                .map(|seals| {
                    seals
                        .iter()
                        .map(|s| json!({"number": s["sealNumber"], "source": s["sealSource"], "type": s["sealType"]}))
                        .collect()
                })
                .unwrap_or_default();
            out["equipmentDetails"] = json!({
                "equipmentReference": event["equipmentReference"],
                "ISOEquipmentCode": event["ISOEquipmentCode"],
                "emptyIndicator": event["emptyIndicatorCode"],
                "seals": seals,
            });
        }
    }
    if let Some(call) = event.get("transportCall") {
        out["transportDetails"] = json!({"transportCall": transport_call(call)});
    }
    let place = event
        .get("eventLocation")
        .or_else(|| event.get("transportCall").and_then(|c| c.get("location")));
    if let Some(place) = place {
        out["eventLocation"] = location(place);
    }
    out["eventClassification"] = classification;
    out["shipmentDetails"] = shipment;
    strip_nulls(&mut out);
    if let Some(object) = out
        .get_mut("equipmentDetails")
        .and_then(Value::as_object_mut)
        && object
            .get("seals")
            .is_some_and(|s| s.as_array().is_some_and(Vec::is_empty))
    {
        object.remove("seals");
    }
    out
}

/// The release events that follow a discharge, hours after it.
const RELEASE: [(i64, &str); 3] = [
    (1, "CUSTOMS_SELECTED_FOR_SCAN"),
    (6, "CUSTOMS_RELEASED"),
    (8, "AVAILABLE_FOR_PICKUP"),
];

/// The release events (3.0's shape) that followed `discharge`, a 3.0 equipment event, by
/// `now`: none unless it is an actual discharge at `pod`, the box's port of discharge
/// (UN/LOCODE) as `pod` tells it from the box's number.
#[must_use]
pub fn release_events(
    discharge: &Value,
    pod: impl Fn(&str) -> Option<&'static str>,
    now: time::OffsetDateTime,
) -> Vec<Value> {
    let classification = &discharge["eventClassification"];
    let number = discharge["equipmentDetails"]["equipmentReference"]
        .as_str()
        .unwrap_or_default();
    if classification["equipmentEventType"] != "DISCHARGED"
        || classification["eventClassifier"] != "ACTUAL"
        || discharge["eventLocation"]["UNLocationCode"].as_str() != pod(number)
    {
        return Vec::new();
    }
    let Some(at) = discharge["eventDateTime"].as_str().and_then(|text| {
        time::OffsetDateTime::parse(text, &time::format_description::well_known::Rfc3339).ok()
    }) else {
        return Vec::new();
    };
    RELEASE
        .iter()
        .map(|(hours, code)| (at + time::Duration::hours(*hours), code))
        .filter(|(when, _)| *when <= now)
        .map(|(when, code)| {
            let mut event = discharge.clone();
            let stamp = crate::timeline::timestamp(when);
            event["eventID"] = json!(format!(
                "{}-{}",
                discharge["eventID"].as_str().unwrap_or_default(),
                code.to_lowercase()
            ));
            event["eventDateTime"] = json!(stamp);
            event["eventUpdatedDateTime"] = json!(stamp);
            event["eventClassification"]["equipmentEventType"] = json!(code);
            if let Some(object) = event.as_object_mut() {
                object.remove("transportDetails");
            }
            event
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_load_in_full_words_with_its_details() {
        let load = event(&json!({
            "eventID": "e1", "eventType": "EQUIPMENT", "eventClassifierCode": "ACT",
            "eventCreatedDateTime": "2026-01-01T00:10:00Z", "eventDateTime": "2026-01-01T00:00:00Z",
            "equipmentEventTypeCode": "LOAD", "equipmentReference": "MSKU1234565",
            "emptyIndicatorCode": "LADEN",
            "documentReferences": [{"documentReferenceType": "TRD", "documentReferenceValue": "BL1"}],
            "transportCall": {"transportCallID": "c1", "transportCallSequenceNumber": 1,
                "UNLocationCode": "NLRTM", "modeOfTransport": "VESSEL", "exportVoyageNumber": "101E",
                "vessel": {"vesselIMONumber": "9321483", "vesselName": "X"}},
        }));
        assert_eq!(load["eventClassification"]["equipmentEventType"], "LOADED");
        assert_eq!(load["eventClassification"]["eventClassifier"], "ACTUAL");
        assert_eq!(load["eventUpdatedDateTime"], "2026-01-01T00:10:00Z");
        assert_eq!(load["equipmentDetails"]["emptyIndicator"], "LADEN");
        assert_eq!(
            load["transportDetails"]["transportCall"]["vesselTransport"]["vesselIMONumber"],
            "9321483"
        );
        assert_eq!(
            load["shipmentDetails"]["additionalDocumentReferences"][0]["type"],
            "TRANSPORT_DOCUMENT"
        );
        assert!(load.get("eventClassifierCode").is_none());
    }

    #[test]
    fn the_query_s_update_bounds_are_creation_bounds() {
        let q = query(
            "transportDocumentReference=BL1&eventUpdatedDateTimeMin=2026-01-01T00:00:00Z&eventTypes=EQUIPMENT",
        );
        assert!(q.contains("eventCreatedDateTime%3Agte=2026"), "{q}");
        assert!(!q.contains("eventTypes"), "{q}");
    }
}
