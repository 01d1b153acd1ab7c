//! The line's Arrival Notice (DCSA AN 1.0.1) of a simulated shipment, as the carrier would
//! publish it: issued five days before the vessel arrives and reissued as the freight and
//! customs are released and as free time is set or extended, telling the same story as
//! the terminal ([`Plan`]): demurrage free time up to the terminal's last free day, where
//! to pick each box up and where to return it.

use serde_json::{Value, json};
use time::{Duration, OffsetDateTime};

use super::Plan;
use crate::timeline::timestamp;
use crate::world::{Reference, Shipment, World};

/// When the notice is first issued, before the vessel arrives.
const ISSUED_BEFORE_ARRIVAL: Duration = Duration::days(5);

/// When the notice of `shipment` is first issued.
#[must_use]
pub fn first_issued(shipment: &Shipment) -> OffsetDateTime {
    shipment.destination_arrival() - ISSUED_BEFORE_ARRIVAL
}

/// The notice of `shipment`, found by `reference`, as it stands at `now`; `None` before
/// it is issued.
#[must_use]
pub fn arrival_notice(
    world: &World,
    shipment: &Shipment,
    reference: &Reference,
    now: OffsetDateTime,
) -> Option<Value> {
    let first = first_issued(shipment);
    if now < first {
        return None;
    }
    let plans: Vec<Plan> = shipment
        .containers
        .iter()
        .map(|container| Plan::new(world, shipment, container, reference))
        .collect();
    let freight_at = plans.iter().filter_map(|p| p.freight_until).max();
    let customs_at = plans
        .iter()
        .map(|p| p.customs.map_or(p.discharged, |customs| customs.until))
        .max();
    let discharged = plans.iter().map(|p| p.discharged).min();
    let extended = plans
        .iter()
        .filter_map(|p| p.extended.map(|(at, _)| at))
        .min();
    let issued = [Some(first), freight_at, customs_at, discharged, extended]
        .into_iter()
        .flatten()
        .filter(|at| *at <= now)
        .max()
        .unwrap_or(first);
    let destination = shipment.destination();
    let equipments: Vec<Value> = shipment
        .containers
        .iter()
        .map(|container| {
            let serial: String = container.number.chars().skip(4).take(6).collect();
            json!({
                "equipment": {"equipmentReference": container.number, "ISOEquipmentCode": container.iso_code},
                "pickupInformation": {
                    "pickupNumber": format!("PU{serial}"),
                    "pickupLocation": {"locationName": destination.name, "UNLocationCode": destination.locode,
                                       "facility": {"facilityCode": destination.terminal, "facilityCodeListProvider": "SMDG"}},
                },
                "returnInformation": {
                    "turnInReference": format!("RT{serial}"),
                    "returnLocation": {"locationName": format!("{} empty depot", destination.name),
                                       "UNLocationCode": destination.locode},
                },
            })
        })
        .collect();
    // Free time is set once the boxes are discharged.
    let free_times: Vec<Value> = shipment
        .containers
        .iter()
        .zip(&plans)
        .filter(|(_, plan)| now >= plan.discharged)
        .map(|(container, plan)| {
            json!({
                "typeCodes": ["DEM"],
                "equipmentReferences": [container.number],
                "lastFreeDate": {"value": plan.last_free_day(now).date().to_string(), "classifier": "ACT"},
            })
        })
        .collect();
    Some(json!({
        "issueDateTime": timestamp(issued),
        "typeLabel": "English, consignee",
        "carrierCode": shipment.scac,
        "carrierCodeListProvider": "NMFTA",
        "transportDocumentReference": shipment.transport_document,
        "transportDocumentTypeCode": "BOL",
        "releaseInformation": {
            "isFreightReleased": freight_at.is_none_or(|at| now >= at),
            "isCustomsReleased": customs_at.is_some_and(|at| now >= at),
        },
        "freeTimes": free_times,
        "utilizedTransportEquipments": equipments,
    }))
}
