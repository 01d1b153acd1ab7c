//! DCSA Track & Trace 1.1.0, as lines that never upgraded still serve it (Yang Ming):
//! `GET /{SCAC}/v1/events?bookingReference=…|billOfLadingNumber=…|equipmentReference=…`
//! answers `{"events": […]}`, each event flat (`eventTypeCode` for every kind, no
//! `eventType`, no `eventCreatedDateTime`, no transport call: the vessel's IMO number in
//! `transportReference`, the voyage in `transportLegReference`, the port in
//! `UNLocationCode`), and no paging. Source: `dcsaorg/DCSA-OpenAPI`, `tnt/v1/tnt.yaml`
//! (version 1.1.0).

use serde_json::{Map, Value, json};

/// The 1.1.0 parameter names, with the 2.2 names the simulator's query reads.
pub const PARAMETERS: [(&str, &str); 3] = [
    ("bookingReference", "carrierBookingReference"),
    ("billOfLadingNumber", "transportDocumentReference"),
    ("equipmentReference", "equipmentReference"),
];

/// The 2.2 query of a 1.1.0 one: its three references renamed, anything else refused by
/// name (1.1.0 has no other parameter).
///
/// # Errors
/// The parameter 1.1.0 does not know.
pub fn query(raw: &str) -> Result<String, String> {
    let mut out = form_urlencoded::Serializer::new(String::new());
    for (key, value) in form_urlencoded::parse(raw.as_bytes()) {
        let Some((_, name)) = PARAMETERS.iter().find(|(old, _)| *old == key) else {
            return Err(format!("{key} is not a parameter of this API"));
        };
        out.append_pair(name, &value);
    }
    out.append_pair("limit", &crate::query::MAX_LIMIT.to_string());
    Ok(out.finish())
}

/// UN/ECE Recommendation 19 codes, as 1.1.0's `modeOfTransportCode` takes them.
fn mode_code(mode: &str) -> &'static str {
    match mode {
        "RAIL" => "2",
        "TRUCK" => "3",
        "BARGE" => "8",
        _ => "1",
    }
}

/// One 2.2 event in 1.1.0's shape.
#[must_use]
pub fn event(event: &Value) -> Value {
    let mut out = Map::new();
    for field in ["eventID", "eventDateTime", "eventClassifierCode"] {
        if let Some(value) = event.get(field) {
            out.insert(field.to_owned(), value.clone());
        }
    }
    let text = |field: &str| event.get(field).and_then(Value::as_str);
    let code = text("shipmentEventTypeCode")
        .or_else(|| text("transportEventTypeCode"))
        .or_else(|| text("equipmentEventTypeCode"));
    out.insert("eventTypeCode".into(), json!(code));
    if let Some(document) = text("documentTypeCode") {
        out.insert("shipmentInformationTypeCode".into(), json!(document));
    }
    if let Some(number) = text("equipmentReference") {
        out.insert("equipmentReference".into(), json!(number));
    }
    if let Some(empty) = text("emptyIndicatorCode") {
        out.insert("emptyIndicatorCode".into(), json!(empty));
    }
    let call = event.get("transportCall");
    let place = call.or_else(|| event.get("eventLocation"));
    if let Some(place) = place {
        out.insert("UNLocationCode".into(), place["UNLocationCode"].clone());
        if place["facilityCode"].is_string() {
            out.insert("facilityTypeCode".into(), json!("POTE"));
            out.insert("facilityCode".into(), place["facilityCode"].clone());
        } else {
            // A depot without a code: 1.1.0's `otherFacility` names it.
            out.insert("facilityTypeCode".into(), json!("DEPO"));
            out.insert("otherFacility".into(), place["locationName"].clone());
        }
    }
    if let Some(call) = call {
        out.insert(
            "transportReference".into(),
            call["vessel"]["vesselIMONumber"].clone(),
        );
        out.insert(
            "transportLegReference".into(),
            call["exportVoyageNumber"].clone(),
        );
        let mode = call["modeOfTransport"].as_str().unwrap_or("VESSEL");
        out.insert("modeOfTransportCode".into(), json!(mode_code(mode)));
    }
    Value::Object(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_old_names_become_the_new_and_others_are_refused() {
        let renamed = query("billOfLadingNumber=ABC123&bookingReference=B1").expect("valid");
        assert!(
            renamed.contains("transportDocumentReference=ABC123"),
            "{renamed}"
        );
        assert!(renamed.contains("carrierBookingReference=B1"), "{renamed}");
        assert!(query("transportDocumentReference=ABC123").is_err());
    }

    #[test]
    fn a_load_keeps_its_vessel_voyage_and_port_flat() {
        let old = event(&json!({
            "eventID": "e1", "eventType": "EQUIPMENT", "eventClassifierCode": "ACT",
            "eventCreatedDateTime": "2026-01-01T00:00:00Z", "eventDateTime": "2026-01-01T00:00:00Z",
            "equipmentEventTypeCode": "LOAD", "equipmentReference": "MSKU1234565",
            "emptyIndicatorCode": "LADEN",
            "transportCall": {"transportCallID": "c1", "UNLocationCode": "NLRTM",
                "facilityCode": "ECTDE", "exportVoyageNumber": "101E", "modeOfTransport": "VESSEL",
                "vessel": {"vesselIMONumber": "9321483"}},
        }));
        assert_eq!(old["eventTypeCode"], "LOAD");
        assert_eq!(old["transportReference"], "9321483");
        assert_eq!(old["transportLegReference"], "101E");
        assert_eq!(old["UNLocationCode"], "NLRTM");
        assert_eq!(old["modeOfTransportCode"], "1");
        assert!(old.get("eventType").is_none() && old.get("eventCreatedDateTime").is_none());
    }
}
