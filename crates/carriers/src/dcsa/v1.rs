//! DCSA Track & Trace 1.1.0 (Yang Ming), read into 2.2's shape so that one model and one
//! mapping serve both (`dcsaorg/DCSA-OpenAPI`, `tnt/v1/tnt.yaml`):
//!
//! - parameters `bookingReference`, `billOfLadingNumber`, `equipmentReference`; no paging;
//! - the answer `{"events": […]}`; each event flat, its kind told by its fields (an
//!   `equipmentReference` is an equipment event, a `transportReference` without one a
//!   transport event, else a shipment event), one `eventTypeCode` for every kind;
//! - no `eventCreatedDateTime`: the event's own time stands in (so of two estimates of one
//!   call, the later-dated wins, not the later-issued);
//! - no transport call: one is made of the port, the vessel (`transportReference`, an IMO
//!   number for vessels) and the voyage (`transportLegReference`), so an arrival and a
//!   departure of the same call meet; `modeOfTransportCode` is UN/ECE Recommendation 19's;
//! - shipment events name no document: one is kept only when its
//!   `shipmentInformationTypeCode` is the kind of number asked, which it then names.

use serde_json::{Map, Value, json};
use tidemark_domain::RequestType;

use crate::Lookup;

/// The 1.1.0 name of a 2.2 reference parameter.
pub(super) fn parameter(name: &str) -> &str {
    match name {
        "carrierBookingReference" => "bookingReference",
        "transportDocumentReference" => "billOfLadingNumber",
        other => other,
    }
}

#[derive(serde::Deserialize)]
struct Answer {
    events: Vec<Value>,
}

/// The events of a 1.1.0 answer, each in 2.2's shape.
///
/// # Errors
/// When the answer is not `{"events": […]}`.
pub(super) fn read(body: &[u8], lookup: &Lookup) -> Result<Vec<Value>, String> {
    let answer: Answer = serde_json::from_slice(body)
        .map_err(|error| format!("not a DCSA 1.1.0 answer ({{\"events\": […]}}): {error}"))?;
    Ok(answer
        .events
        .iter()
        .filter_map(|event| event.as_object().and_then(|e| upgrade(e, lookup)))
        .collect())
}

fn mode(code: Option<&Value>) -> &'static str {
    match code
        .and_then(|c| {
            c.as_str()
                .map(str::to_owned)
                .or_else(|| c.as_i64().map(|n| n.to_string()))
        })
        .as_deref()
    {
        Some("2" | "RAIL") => "RAIL",
        Some("3" | "TRUCK") => "TRUCK",
        Some("8" | "BARGE") => "BARGE",
        _ => "VESSEL",
    }
}

/// A 1.1.0 event in 2.2's shape; `None` for a shipment event about another document.
fn upgrade(old: &Map<String, Value>, lookup: &Lookup) -> Option<Value> {
    let field = |name: &str| old.get(name).cloned().unwrap_or(Value::Null);
    let mut event = json!({
        "eventID": field("eventID"),
        "eventClassifierCode": field("eventClassifierCode"),
        "eventDateTime": field("eventDateTime"),
        "eventCreatedDateTime": field("eventDateTime"),
    });
    let code = field("eventTypeCode");
    let call = old.get("transportReference").map(|vessel| {
        let port = field("UNLocationCode");
        let voyage = field("transportLegReference");
        let id = format!(
            "{}/{}/{}",
            port.as_str().unwrap_or_default(),
            vessel.as_str().unwrap_or_default(),
            voyage.as_str().unwrap_or_default()
        );
        let mode = mode(old.get("modeOfTransportCode"));
        let mut call = json!({
            "transportCallID": id,
            "UNLocationCode": port,
            "facilityCode": field("facilityCode"),
            "exportVoyageNumber": voyage,
            "modeOfTransport": mode,
        });
        let imo = vessel
            .as_str()
            .filter(|v| v.len() == 7 && v.bytes().all(|b| b.is_ascii_digit()));
        if let (Some(imo), "VESSEL" | "BARGE") = (imo, mode) {
            call["vessel"] = json!({"vesselIMONumber": imo});
        }
        call
    });
    let object = event.as_object_mut()?;
    if let Some(number) = old.get("equipmentReference") {
        object.insert("eventType".into(), json!("EQUIPMENT"));
        object.insert("equipmentEventTypeCode".into(), code);
        object.insert("equipmentReference".into(), number.clone());
        let empty = field("emptyIndicatorCode");
        let empty = empty.as_str().map(str::to_ascii_uppercase);
        object.insert("emptyIndicatorCode".into(), json!(empty));
        object.insert(
            "eventLocation".into(),
            json!({"UNLocationCode": field("UNLocationCode"), "facilityCode": field("facilityCode")}),
        );
        if let Some(call) = call {
            object.insert("transportCall".into(), call);
        }
    } else if let Some(call) = call {
        object.insert("eventType".into(), json!("TRANSPORT"));
        object.insert("transportEventTypeCode".into(), code);
        object.insert("transportCall".into(), call);
    } else {
        let document = field("shipmentInformationTypeCode");
        let asked = matches!(
            (document.as_str(), lookup.kind),
            (Some("BKG" | "CBR"), RequestType::BookingNumber)
                | (Some("TRD"), RequestType::BillOfLading)
        );
        if !asked {
            return None;
        }
        object.insert("eventType".into(), json!("SHIPMENT"));
        object.insert("shipmentEventTypeCode".into(), code);
        object.insert("documentTypeCode".into(), document);
        object.insert("documentID".into(), json!(lookup.number));
    }
    Some(event)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_is_told_by_its_fields() {
        let body = json!({"events": [
            {"eventID": "1", "eventDateTime": "2026-01-01T00:00:00Z", "eventClassifierCode": "ACT",
             "eventTypeCode": "DEPA", "transportReference": "9321483", "transportLegReference": "101E",
             "UNLocationCode": "NLRTM", "facilityCode": "ECTDE", "facilityTypeCode": "POTE",
             "modeOfTransportCode": "1"},
            {"eventID": "2", "eventDateTime": "2026-01-01T00:00:00Z", "eventClassifierCode": "ACT",
             "eventTypeCode": "LOAD", "equipmentReference": "MSKU1234565", "emptyIndicatorCode": "Laden",
             "transportReference": "9321483", "transportLegReference": "101E",
             "UNLocationCode": "NLRTM", "facilityCode": "ECTDE", "facilityTypeCode": "POTE"},
            {"eventID": "3", "eventDateTime": "2026-01-01T00:00:00Z", "eventClassifierCode": "ACT",
             "eventTypeCode": "ISSU", "shipmentInformationTypeCode": "TRD"},
            {"eventID": "4", "eventDateTime": "2026-01-01T00:00:00Z", "eventClassifierCode": "ACT",
             "eventTypeCode": "CONF", "shipmentInformationTypeCode": "BKG"},
        ]});
        let bytes = serde_json::to_vec(&body).expect("json");
        let events = read(&bytes, &Lookup::new("YMLU1", RequestType::BillOfLading)).expect("read");
        assert_eq!(
            events.len(),
            3,
            "the booking's event is about another document"
        );
        assert_eq!(events[0]["eventType"], "TRANSPORT");
        assert_eq!(
            events[0]["transportCall"]["vessel"]["vesselIMONumber"],
            "9321483"
        );
        assert_eq!(events[1]["eventType"], "EQUIPMENT");
        assert_eq!(events[1]["emptyIndicatorCode"], "LADEN");
        assert_eq!(
            events[0]["transportCall"]["transportCallID"],
            events[1]["transportCall"]["transportCallID"]
        );
        assert_eq!(events[2]["documentID"], "YMLU1");
        assert!(read(b"[]", &Lookup::new("YMLU1", RequestType::BillOfLading)).is_err());
        assert_eq!(
            parameter("transportDocumentReference"),
            "billOfLadingNumber"
        );
    }
}
