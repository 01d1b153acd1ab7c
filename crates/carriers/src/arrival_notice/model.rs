//! The parts of a DCSA Arrival Notice 1.0.1 Tidemark reads, and what they say of each
//! container: the latest notice issued for the bill, its demurrage free time's last free
//! day, its release information, pickup and return information (a container's own over
//! the notice's).

use serde::Deserialize;
use tidemark_domain::gazetteer::Gazetteer;
use tidemark_domain::local_time::Zone;
use tidemark_domain::terminal::{ContainerNotice, LineNotice};
use tidemark_domain::{ContainerNumber, Place, Timestamp};

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Page {
    #[serde(default)]
    pub(super) arrival_notices: Vec<Notice>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Notice {
    issue_date_time: String,
    transport_document_reference: String,
    #[serde(default)]
    pickup_information: Option<Pickup>,
    #[serde(default)]
    return_information: Option<Return>,
    #[serde(default)]
    release_information: Option<Release>,
    #[serde(default)]
    free_times: Vec<FreeTime>,
    #[serde(default)]
    utilized_transport_equipments: Vec<Utilized>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Pickup {
    #[serde(default)]
    pickup_number: Option<String>,
    #[serde(default)]
    pickup_location: Option<Location>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Return {
    #[serde(default)]
    turn_in_reference: Option<String>,
    #[serde(default)]
    return_location: Option<Location>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Location {
    #[serde(default)]
    location_name: Option<String>,
    #[serde(default, rename = "UNLocationCode")]
    un_location_code: Option<String>,
    #[serde(default)]
    facility: Option<Facility>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Facility {
    facility_code: String,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Release {
    #[serde(default)]
    is_freight_released: Option<bool>,
    #[serde(default)]
    is_customs_released: Option<bool>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct FreeTime {
    #[serde(default)]
    type_codes: Vec<String>,
    #[serde(default, rename = "ISOEquipmentCodes")]
    iso_equipment_codes: Vec<String>,
    #[serde(default)]
    equipment_references: Vec<String>,
    #[serde(default)]
    last_free_date: Option<Classified>,
    #[serde(default)]
    last_free_date_time: Option<Classified>,
}

#[derive(Debug, Deserialize)]
struct Classified {
    value: String,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Utilized {
    equipment: Equipment,
    #[serde(default)]
    pickup_information: Option<Pickup>,
    #[serde(default)]
    return_information: Option<Return>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Equipment {
    equipment_reference: String,
    #[serde(default, rename = "ISOEquipmentCode")]
    iso_equipment_code: Option<String>,
}

fn facility(location: Option<&Location>) -> Option<String> {
    location
        .and_then(|l| l.facility.as_ref())
        .map(|f| f.facility_code.trim().to_owned())
        .filter(|code| !code.is_empty())
}

/// A facility `location` names with the UN/LOCODE it stands at, as a place to learn; not
/// its `locationName`, which names the facility and not the port a place's name is of. A
/// code out of the standard only leaves the facility unlearned.
fn facility_place(location: Option<&Location>) -> Option<Place> {
    let facility = facility(location)?;
    let locode = location?.un_location_code.as_deref()?.trim();
    tidemark_domain::codes::check_locode(locode).ok()?;
    Some(Place {
        locode: locode.to_owned(),
        name: None,
        facility: Some(facility),
    })
}

impl Notice {
    /// When it was issued; a notice whose issue time does not parse is refused.
    pub(super) fn issued_at(&self) -> Result<Timestamp, String> {
        Timestamp::parse_rfc3339(&self.issue_date_time)
            .map_err(|_| format!("issueDateTime {:?} is not RFC 3339", self.issue_date_time))
    }

    /// Its transport document reference, as written.
    pub(super) fn reference(&self) -> &str {
        &self.transport_document_reference
    }

    /// Whether it is a notice of `bill`.
    pub(super) fn is_of(&self, bill: &str) -> bool {
        self.transport_document_reference.eq_ignore_ascii_case(bill)
    }

    /// The last free day of demurrage free time for a box: a date and time as given, a
    /// date as the end of that day where the box is picked up (`zone`, the pickup place's;
    /// UTC's end of the day for a place the reference data does not know).
    fn last_free_day(
        &self,
        number: &str,
        iso: Option<&str>,
        zone: Option<&Zone>,
    ) -> Result<Option<Timestamp>, String> {
        let applies = |free: &&FreeTime| {
            free.type_codes.iter().any(|code| code == "DEM")
                && (free.equipment_references.iter().any(|r| r == number)
                    || iso.is_some_and(|iso| free.iso_equipment_codes.iter().any(|c| c == iso))
                    || (free.equipment_references.is_empty()
                        && free.iso_equipment_codes.is_empty()))
        };
        let Some(free) = self.free_times.iter().find(applies) else {
            return Ok(None);
        };
        if let Some(at) = &free.last_free_date_time {
            return Timestamp::parse_rfc3339(&at.value)
                .map(Some)
                .map_err(|_| format!("lastFreeDateTime {:?} is not RFC 3339", at.value));
        }
        free.last_free_date
            .as_ref()
            .map(|date| {
                let local = zone.and_then(|zone| zone.end_of_day(&date.value));
                local
                    .map_or_else(
                        || Timestamp::parse_rfc3339(&format!("{}T23:59:59Z", date.value)),
                        Ok,
                    )
                    .map_err(|_| format!("lastFreeDate {:?} is not a date", date.value))
            })
            .transpose()
    }

    /// What it says of each of its containers, by normalized number.
    ///
    /// # Errors
    /// A container number or a date out of the standard.
    pub(super) fn containers(&self) -> Result<Vec<(String, ContainerNotice)>, String> {
        let release = self.release_information.as_ref();
        let issued_at = self.issued_at().ok();
        self.utilized_transport_equipments
            .iter()
            .map(|utilized| {
                let raw = &utilized.equipment.equipment_reference;
                let number = ContainerNumber::parse(raw)
                    .map_err(|problem| format!("equipmentReference {raw:?} {problem}"))?
                    .as_str()
                    .to_owned();
                let pickup = utilized
                    .pickup_information
                    .as_ref()
                    .or(self.pickup_information.as_ref());
                let back = utilized
                    .return_information
                    .as_ref()
                    .or(self.return_information.as_ref());
                let notice = LineNotice {
                    issued_at,
                    freight_released: release.and_then(|r| r.is_freight_released),
                    customs_released: release.and_then(|r| r.is_customs_released),
                    pickup_number: pickup.and_then(|p| p.pickup_number.clone()),
                    pickup_facility: facility(pickup.and_then(|p| p.pickup_location.as_ref())),
                    return_location: back.and_then(|r| {
                        let at = r.return_location.as_ref();
                        facility(at).or_else(|| at.and_then(|l| l.location_name.clone()))
                    }),
                    return_reference: back.and_then(|r| r.turn_in_reference.clone()),
                };
                let iso = utilized.equipment.iso_equipment_code.as_deref();
                let pickup_place = facility_place(pickup.and_then(|p| p.pickup_location.as_ref()));
                let zone = pickup
                    .and_then(|p| p.pickup_location.as_ref())
                    .and_then(|at| at.un_location_code.as_deref())
                    .and_then(|locode| Gazetteer::bundled().time_zone(locode.trim()))
                    .and_then(Zone::named);
                let last_free_day = self.last_free_day(raw, iso, zone.as_ref())?;
                Ok((
                    number,
                    ContainerNotice {
                        notice,
                        last_free_day,
                        pickup_place,
                    },
                ))
            })
            .collect()
    }
}
