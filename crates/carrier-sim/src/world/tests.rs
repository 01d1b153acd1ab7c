//! The world: deterministic per seed, plausible, fates following their chances.

use super::*;
use time::macros::datetime;

fn world() -> World {
    World {
        seed: 7,
        epoch: datetime!(2026-06-01 0:00 UTC),
        chances: Chances::default(),
    }
}

#[test]
fn the_same_reference_gives_the_same_shipment() {
    let world = world();
    let reference = Reference::TransportDocument("MAEU123456789".to_owned());
    let a = world.shipment("MAEU", &reference, Placement::Seeded, None);
    let b = world.shipment("MAEU", &reference, Placement::Seeded, None);
    assert_eq!(a, b);
    let other = world.shipment(
        "MAEU",
        &Reference::TransportDocument("MAEU123456780".to_owned()),
        Placement::Seeded,
        None,
    );
    assert_ne!(a, other);
    let reseeded = World { seed: 8, ..world };
    assert_ne!(
        a,
        reseeded.shipment("MAEU", &reference, Placement::Seeded, None)
    );
}

#[test]
fn shipments_are_plausible() {
    let world = world();
    let mut transshipments = 0;
    for i in 0..300 {
        let reference = Reference::Booking(format!("B{i:08}"));
        let shipment = world
            .shipment("MSCU", &reference, Placement::Seeded, None)
            .expect("a booking always names a shipment");
        assert!(shipment.booked_at <= shipment.manifested_at);
        assert!(shipment.manifested_at < shipment.empty_out);
        assert!(shipment.empty_out < shipment.full_in);
        assert!(shipment.full_in < shipment.calls[0].planned_arrival);
        for pair in shipment.calls.windows(2) {
            assert!(pair[0].arrival < pair[1].arrival, "{reference:?}");
        }
        for leg in shipment.calls.chunks(2) {
            assert_eq!(leg[0].role, Role::Load);
            assert_eq!(leg[1].role, Role::Discharge);
            assert_eq!(leg[0].vessel, leg[1].vessel);
            assert!(leg[0].departure < leg[1].arrival);
        }
        for call in &shipment.calls {
            assert!(call.arrival < call.departure);
            assert_eq!(call.vessel.imo.len(), 7);
            let digits: Vec<u8> = call.vessel.imo.bytes().map(|b| b - b'0').collect();
            let six: [u8; 6] = digits[..6].try_into().expect("six");
            assert_eq!(data::imo_check_digit(six), digits[6]);
        }
        assert!(shipment.calls.last().expect("calls").arrival < shipment.full_out);
        assert!(shipment.full_out < shipment.empty_in);
        for container in &shipment.containers {
            assert!(
                data::is_container_number(&container.number),
                "{}",
                container.number
            );
            assert!(data::container_prefixes("MSCU").contains(&container.number[..4].to_owned()));
        }
        transshipments += usize::from(shipment.calls.len() == 4);
    }
    assert!(
        (60..180).contains(&transshipments),
        "{transshipments} of 300"
    );
}

#[test]
fn fates_follow_the_chances() {
    let world = world();
    let mut unknown = 0;
    let mut cancelled = 0;
    let mut late_manifest = 0;
    for i in 0..2_000 {
        let shipment = world
            .shipment(
                "ONEY",
                &Reference::Booking(format!("X{i}")),
                Placement::Seeded,
                None,
            )
            .expect("shipment");
        match shipment.fate {
            Fate::Unknown => unknown += 1,
            Fate::Cancelled(_) => cancelled += 1,
            Fate::Sails => late_manifest += usize::from(shipment.manifested_at > world.epoch),
        }
    }
    assert!((40..130).contains(&unknown), "{unknown}");
    assert!((15..70).contains(&cancelled), "{cancelled}");
    assert!((60..190).contains(&late_manifest), "{late_manifest}");
}

#[test]
fn a_container_query_puts_that_container_first() {
    let world = world();
    let shipment = world
        .shipment(
            "MAEU",
            &Reference::Equipment("CSQU3054383".to_owned()),
            Placement::Seeded,
            None,
        )
        .expect("valid number");
    assert_eq!(shipment.containers[0].number, "CSQU3054383");
    assert!(
        world
            .shipment(
                "MAEU",
                &Reference::Equipment("CSQU3054384".to_owned()),
                Placement::Seeded,
                None
            )
            .is_none()
    );
}
