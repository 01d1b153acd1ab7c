use super::*;
use crate::world::{Placement, World};

fn shipment(reference: &str) -> Shipment {
    let world = World {
        seed: 7,
        epoch: time::macros::datetime!(2026-06-01 00:00 UTC),
        chances: crate::Chances {
            not_found: 0,
            awaiting_manifest: 0,
            cancelled: 0,
        },
    };
    world
        .shipment(
            "CMDU",
            &Reference::TransportDocument(reference.to_owned()),
            Placement::Seeded,
            None,
        )
        .expect("a shipment")
}

#[test]
fn a_booking_and_container_line_wants_both() {
    let plays = Plays::new([Quirk::BookingAndContainer]);
    let mut alone = EventQuery::parse("carrierBookingReference=B1").expect("valid");
    assert!(matches!(
        plays.narrow(&mut alone),
        Err(Answer::Error(400, ..))
    ));
    let mut both = EventQuery::parse("carrierBookingReference=B1&equipmentReference=MSKU1234565")
        .expect("valid");
    assert_eq!(
        plays.narrow(&mut both).expect("taken").as_deref(),
        Some("MSKU1234565")
    );
    assert_eq!(both.references, vec![Reference::Booking("B1".into())]);
    // Other lines take either.
    assert_eq!(Plays::default().narrow(&mut alone).expect("taken"), None);
}

#[test]
fn barges_code_the_first_leg_of_a_transshipped_route() {
    let transshipped = (0..200)
        .map(|n| shipment(&format!("CMDU{n:06}")))
        .find(|s| s.calls.iter().any(|c| c.leg > 0))
        .expect("some route is transshipped");
    let mut events: Vec<Value> = crate::timeline::events(&transshipped)
        .into_iter()
        .map(|e| e.body)
        .collect();
    Plays::new([Quirk::BargeFeederCodes, Quirk::PlanForPln]).rewrite(
        &mut events,
        Some(&transshipped),
        &Reference::TransportDocument("x".into()),
        None,
    );
    let codes: BTreeSet<&str> = events
        .iter()
        .filter_map(|e| e["transportEventTypeCode"].as_str())
        .collect();
    for code in ["ABA", "ABD", "PBA", "PBD", "ARRI", "DEPA"] {
        assert!(codes.contains(code), "{code} missing from {codes:?}");
    }
    assert!(events.iter().any(|e| e["eventClassifierCode"] == "PLAN"));
    assert!(events.iter().all(|e| e["eventClassifierCode"] != "PLN"));
    let barge = events
        .iter()
        .find(|e| e["transportEventTypeCode"] == "ABD")
        .expect("a barge departure");
    assert_eq!(barge["transportCall"]["modeOfTransport"], "BARGE");
}

#[test]
fn a_line_missing_containers_drops_equipment_events_of_bills_only() {
    let shipment = shipment("CMDU000001");
    let all: Vec<Value> = crate::timeline::events(&shipment)
        .into_iter()
        .map(|e| e.body)
        .collect();
    let plays = Plays::new([Quirk::MissingContainers]);
    let mut bill = all.clone();
    plays.rewrite(
        &mut bill,
        Some(&shipment),
        &Reference::TransportDocument("x".into()),
        None,
    );
    assert!(bill.iter().all(|e| e["eventType"] != "EQUIPMENT"));
    let mut by_box = all.clone();
    plays.rewrite(
        &mut by_box,
        Some(&shipment),
        &Reference::Equipment("x".into()),
        None,
    );
    assert_eq!(by_box.len(), all.len());
}

#[test]
fn a_container_less_booking_gets_an_equipment_event_naming_no_box() {
    let shipment = shipment("CMDU000002");
    let mut booking_only: Vec<Value> = crate::timeline::events(&shipment)
        .into_iter()
        .map(|e| e.body)
        .filter(|e| e["eventType"] == "SHIPMENT")
        .collect();
    Plays::new([Quirk::ContainerLessBookings]).rewrite(
        &mut booking_only,
        Some(&shipment),
        &Reference::Booking("x".into()),
        None,
    );
    let boxless = booking_only.last().expect("added");
    assert_eq!(boxless["eventType"], "EQUIPMENT");
    assert!(boxless.get("equipmentReference").is_none());
}
