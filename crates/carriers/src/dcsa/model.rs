//! DCSA Track & Trace 2.2 events as they arrive, and their checked form. Unknown fields are
//! ignored; a missing required field or an unknown code makes the answer unrecognized.

use serde::Deserialize;
use tidemark_domain::{ContainerNumber, EventClassifier, Place, Timestamp, VesselRef};

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct RawEvent {
    #[serde(rename = "eventID")]
    event_id: Option<String>,
    event_type: Option<String>,
    event_classifier_code: Option<String>,
    event_created_date_time: Option<String>,
    event_date_time: Option<String>,
    shipment_event_type_code: Option<String>,
    document_type_code: Option<String>,
    #[serde(rename = "documentID")]
    document_id: Option<String>,
    transport_event_type_code: Option<String>,
    transport_call: Option<RawCall>,
    equipment_event_type_code: Option<String>,
    equipment_reference: Option<String>,
    #[serde(rename = "ISOEquipmentCode")]
    iso_equipment_code: Option<String>,
    empty_indicator_code: Option<String>,
    event_location: Option<RawLocation>,
    #[serde(default)]
    document_references: Vec<RawDocumentReference>,
    #[serde(default)]
    seals: Vec<RawSeal>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct RawCall {
    #[serde(rename = "transportCallID")]
    transport_call_id: Option<String>,
    transport_call_sequence_number: Option<i64>,
    export_voyage_number: Option<String>,
    carrier_voyage_number: Option<String>,
    #[serde(rename = "UNLocationCode")]
    un_location_code: Option<String>,
    facility_code: Option<String>,
    mode_of_transport: Option<String>,
    location: Option<RawLocation>,
    vessel: Option<RawVessel>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct RawLocation {
    location_name: Option<String>,
    #[serde(rename = "UNLocationCode")]
    un_location_code: Option<String>,
    facility_code: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct RawVessel {
    #[serde(rename = "vesselIMONumber")]
    vessel_imo_number: Option<String>,
    vessel_name: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct RawDocumentReference {
    document_reference_type: Option<String>,
    document_reference_value: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct RawSeal {
    seal_number: Option<String>,
}

/// How the vessel call is made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    Vessel,
    /// A barge: a feeder leg, off the ocean route.
    Barge,
    Rail,
    Other,
}

/// A transport call, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Call {
    pub id: String,
    pub sequence: Option<i64>,
    pub place: Option<Place>,
    pub vessel: Option<VesselRef>,
    pub voyage: Option<String>,
    pub mode: Mode,
}

/// What an event is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Kind {
    Shipment {
        code: String,
        document_type: String,
        document_id: String,
    },
    Transport {
        arrival: bool,
        call: Call,
    },
    Equipment {
        code: String,
        container: Option<String>,
        iso_code: Option<String>,
        empty: bool,
        place: Option<Place>,
        call: Option<Call>,
        seal: Option<String>,
    },
}

/// A checked event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Event {
    pub id: String,
    pub created: Timestamp,
    pub at: Timestamp,
    pub classifier: EventClassifier,
    pub kind: Kind,
    /// (`BKG` or `TRD`, value) pairs.
    pub documents: Vec<(String, String)>,
}

fn required<'a>(value: Option<&'a String>, field: &str) -> Result<&'a str, String> {
    value
        .map(String::as_str)
        .filter(|v| !v.trim().is_empty())
        .ok_or_else(|| format!("{field} is missing"))
}

fn timestamp(value: Option<&String>, field: &str) -> Result<Timestamp, String> {
    let text = required(value, field)?;
    Timestamp::parse_rfc3339(text).map_err(|_| format!("{field} {text:?} is not a date-time"))
}

fn place(
    location: Option<&RawLocation>,
    locode: Option<&String>,
    facility: Option<&String>,
) -> Result<Option<Place>, String> {
    let Some(locode) = locode
        .or_else(|| location.and_then(|l| l.un_location_code.as_ref()))
        .filter(|l| !l.is_empty())
    else {
        return Ok(None);
    };
    tidemark_domain::codes::check_locode(locode)?;
    Ok(Some(Place {
        locode: locode.clone(),
        name: location.and_then(|l| l.location_name.clone()),
        facility: facility
            .or_else(|| location.and_then(|l| l.facility_code.as_ref()))
            .cloned(),
    }))
}

impl RawCall {
    fn check(&self) -> Result<Call, String> {
        let id = required(
            self.transport_call_id.as_ref(),
            "transportCall.transportCallID",
        )?;
        let mode = match self.mode_of_transport.as_deref() {
            Some("VESSEL") => Mode::Vessel,
            Some("BARGE") => Mode::Barge,
            Some("RAIL") => Mode::Rail,
            Some("TRUCK") => Mode::Other,
            Some(other) => {
                return Err(format!(
                    "transportCall.modeOfTransport {other:?} is unknown"
                ));
            }
            None => return Err("transportCall.modeOfTransport is missing".to_owned()),
        };
        Ok(Call {
            id: id.to_owned(),
            sequence: self.transport_call_sequence_number,
            place: place(
                self.location.as_ref(),
                self.un_location_code.as_ref(),
                self.facility_code.as_ref(),
            )?,
            vessel: self
                .vessel
                .as_ref()
                .and_then(|v| {
                    v.vessel_imo_number.as_ref().map(|imo| {
                        tidemark_domain::codes::check_imo(imo).map(|()| VesselRef {
                            imo: imo.clone(),
                            name: v.vessel_name.clone(),
                        })
                    })
                })
                .transpose()?,
            voyage: self
                .export_voyage_number
                .clone()
                .or_else(|| self.carrier_voyage_number.clone()),
            mode,
        })
    }
}

impl RawEvent {
    /// The checked event, or what is wrong with it.
    pub(crate) fn check(&self) -> Result<Event, String> {
        let code = required(self.event_classifier_code.as_ref(), "eventClassifierCode")?;
        let classifier = EventClassifier::parse(code)
            .ok_or_else(|| format!("eventClassifierCode {code:?} is unknown"))?;
        let created = timestamp(
            self.event_created_date_time.as_ref(),
            "eventCreatedDateTime",
        )?;
        let at = timestamp(self.event_date_time.as_ref(), "eventDateTime")?;
        let kind = match required(self.event_type.as_ref(), "eventType")? {
            "SHIPMENT" => self.shipment_kind()?,
            "TRANSPORT" => self.transport_kind()?,
            "EQUIPMENT" => self.equipment_kind()?,
            other => return Err(format!("eventType {other:?} is unknown")),
        };
        let documents = self
            .document_references
            .iter()
            .filter_map(|d| {
                Some((
                    d.document_reference_type.clone()?,
                    d.document_reference_value.clone()?,
                ))
            })
            .collect();
        Ok(Event {
            id: required(self.event_id.as_ref(), "eventID")?.to_owned(),
            created,
            at,
            classifier,
            kind,
            documents,
        })
    }

    /// A `SHIPMENT` event's own members.
    fn shipment_kind(&self) -> Result<Kind, String> {
        Ok(Kind::Shipment {
            code: required(
                self.shipment_event_type_code.as_ref(),
                "shipmentEventTypeCode",
            )?
            .to_owned(),
            document_type: required(self.document_type_code.as_ref(), "documentTypeCode")?
                .to_owned(),
            document_id: required(self.document_id.as_ref(), "documentID")?.to_owned(),
        })
    }

    /// A `TRANSPORT` event's own members.
    fn transport_kind(&self) -> Result<Kind, String> {
        Ok(Kind::Transport {
            arrival: match required(
                self.transport_event_type_code.as_ref(),
                "transportEventTypeCode",
            )? {
                "ARRI" => true,
                "DEPA" => false,
                other => return Err(format!("transportEventTypeCode {other:?} is unknown")),
            },
            call: self
                .transport_call
                .as_ref()
                .ok_or("transportCall is missing")?
                .check()?,
        })
    }

    /// An `EQUIPMENT` event's own members.
    fn equipment_kind(&self) -> Result<Kind, String> {
        Ok(Kind::Equipment {
            code: required(
                self.equipment_event_type_code.as_ref(),
                "equipmentEventTypeCode",
            )?
            .to_owned(),
            container: self
                .equipment_reference
                .as_deref()
                .map(|reference| {
                    ContainerNumber::parse(reference)
                        .map(|number| number.as_str().to_owned())
                        .map_err(|problem| format!("equipmentReference {reference:?} {problem}"))
                })
                .transpose()?,
            iso_code: self.iso_equipment_code.clone(),
            empty: match required(self.empty_indicator_code.as_ref(), "emptyIndicatorCode")? {
                "EMPTY" => true,
                "LADEN" => false,
                other => return Err(format!("emptyIndicatorCode {other:?} is unknown")),
            },
            place: place(self.event_location.as_ref(), None, None)?,
            call: self
                .transport_call
                .as_ref()
                .map(RawCall::check)
                .transpose()?,
            seal: self.seals.iter().find_map(|s| s.seal_number.clone()),
        })
    }
}

/// Whether `body` is a DCSA error document (ERROR_DOMAIN 1.0: `statusCode` and an
/// `errors` list) for `status`: the carrier's own answer, not a gateway's page.
pub(crate) fn is_error_document(body: &[u8], status: u16) -> bool {
    #[derive(serde::Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct ErrorDocument {
        status_code: u16,
        errors: Vec<serde_json::Value>,
    }
    serde_json::from_slice::<ErrorDocument>(body)
        .is_ok_and(|document| document.status_code == status && !document.errors.is_empty())
}
