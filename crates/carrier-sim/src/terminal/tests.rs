//! The terminals: what a box's terminal says over its stay, scripted and seeded.

use time::macros::datetime;
use time::{Duration, OffsetDateTime};

use super::*;
use crate::scenario::SANDBOX_SCAC;
use crate::world::Chances;

fn world() -> World {
    World {
        seed: 0,
        epoch: datetime!(2026-06-01 0:00 UTC),
        chances: Chances::default(),
    }
}

/// A scripted sandbox number's shipment, as the carrier served it, and its index.
fn served(reference: &str, placement: Placement) -> (Shipment, Index) {
    let visit = Visit {
        scac: SANDBOX_SCAC.to_owned(),
        reference: Reference::Booking(reference.to_owned()),
        placement,
        outcome: Some(Outcome::Sails),
        epoch: world().epoch,
    };
    let shipment = world()
        .shipment(SANDBOX_SCAC, &visit.reference, placement, visit.outcome)
        .expect("a booking names a shipment");
    let mut index = Index::default();
    index.remember(&shipment, &visit);
    (shipment, index)
}

fn plan_of(shipment: &Shipment, reference: &str) -> Plan {
    Plan::new(
        &world(),
        shipment,
        &shipment.containers[0],
        &Reference::Booking(reference.to_owned()),
    )
}

fn at(entry: &Value, member: &str) -> OffsetDateTime {
    let text = entry[member].as_str().expect(member);
    OffsetDateTime::parse(text, &time::format_description::well_known::Rfc3339).expect(member)
}

fn hold_states(entry: &Value) -> Vec<(String, String)> {
    entry["holds"]
        .as_array()
        .expect("holds")
        .iter()
        .map(|hold| {
            (
                hold["type"].as_str().unwrap_or_default().to_owned(),
                hold["status"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect()
}

#[test]
fn the_holds_script_plays_out_from_the_manifest_to_the_out_gate() {
    let reference = "TEST-TR-HOLDS";
    let placement = Placement::Discharging(Duration::hours(12));
    let (shipment, index) = served(reference, placement);
    let world = world();
    assert_eq!(
        shipment.destination_arrival(),
        world.epoch + Duration::hours(12)
    );
    let code = shipment.destination().terminal;
    let number = shipment.containers[0].number.clone();
    let plan = plan_of(&shipment, reference);
    let say = |now| entry(&world, &index, code, &number, now);

    assert_eq!(say(plan.known_from - Duration::minutes(1))["known"], false);
    let before = say(world.epoch);
    assert_eq!(before["known"], true);
    assert_eq!(before["available"], false);
    let pending = vec![
        ("customs".to_owned(), "pending".to_owned()),
        ("freight".to_owned(), "hold".to_owned()),
    ];
    assert_eq!(hold_states(&before), pending);
    assert!(before["lastFreeDay"].is_null() && before["yardLocation"].is_null());

    let landed = say(plan.discharged + Duration::hours(7));
    let held = vec![
        ("customs".to_owned(), "hold".to_owned()),
        ("freight".to_owned(), "hold".to_owned()),
    ];
    assert_eq!(hold_states(&landed), held);
    assert_eq!(
        landed["available"], false,
        "a hold in force blocks the pickup"
    );
    assert_eq!(
        landed["fees"],
        json!([{"type": "exam", "amount": 212.5, "currency": "USD"},
               {"type": "total", "amount": 212.5, "currency": "USD"}])
    );
    assert!(at(&landed, "lastFreeDay") > plan.discharged);
    assert!(landed["yardLocation"].is_string());

    let cleared = say(plan.discharged + Duration::hours(25));
    assert_eq!(hold_states(&cleared), Vec::new());
    assert_eq!(cleared["available"], true);
    assert_eq!(
        at(&cleared, "appointment"),
        plan.out_gate - Duration::minutes(90)
    );

    let gone = say(plan.out_gate);
    assert_eq!(at(&gone, "outGateAt"), plan.out_gate);
    assert_eq!(gone["available"], false);
    assert!(gone["yardLocation"].is_null());
}

#[test]
fn the_lfd_script_extends_the_terminal_last_free_day_by_two_days_minutes_after_the_first_ask() {
    let reference = "TEST-TR-LFD-EXTENDED";
    let Some(crate::scenario::Script::Shipment(_, placement)) =
        crate::scenario::script(SANDBOX_SCAC, reference)
    else {
        panic!("{reference} is a scripted shipment");
    };
    let (shipment, index) = served(reference, placement);
    let world = world();
    let code = shipment.destination().terminal;
    let number = &shipment.containers[0].number;
    let plan = plan_of(&shipment, reference);
    let asked = world.epoch;
    assert!(
        plan.discharged < asked,
        "discharged before it is first asked about"
    );
    let first = entry(&world, &index, code, number, asked);
    let later = entry(
        &world,
        &index,
        code,
        number,
        asked + crate::scenario::LFD_EXTENDED_AFTER,
    );
    assert!(plan.last_free_day > asked, "its last free day still ahead");
    assert_eq!(at(&first, "lastFreeDay"), plan.last_free_day);
    assert_eq!(
        at(&later, "lastFreeDay"),
        plan.last_free_day + Duration::days(2)
    );
}

#[test]
fn a_terminal_knows_only_the_boxes_it_discharges_and_a_carrier_served() {
    let (shipment, index) = served("TEST-TR-HOLDS", Placement::Discharging(Duration::hours(1)));
    let world = world();
    let number = &shipment.containers[0].number;
    let now = world.epoch;
    assert_eq!(entry(&world, &index, "NOPE", number, now)["known"], false);
    assert_eq!(
        entry(
            &world,
            &Index::default(),
            shipment.destination().terminal,
            number,
            now
        )["known"],
        false,
        "no carrier served it"
    );
    let code = shipment.destination().terminal.to_ascii_lowercase();
    assert_eq!(entry(&world, &index, &code, number, now)["known"], true);
}

#[test]
fn demurrage_runs_per_day_past_the_last_free_day_until_the_out_gate() {
    let reference = "TEST-TR-LFD-EXTENDED";
    let (shipment, _) = served(reference, Placement::Discharging(Duration::hours(-12)));
    let mut plan = plan_of(&shipment, reference);
    plan.extended = None;
    plan.out_gate = plan.last_free_day + Duration::days(3);
    let number = &shipment.containers[0].number;
    let fees = |now| plan.entry(number, now).expect("known")["fees"].clone();
    assert_eq!(fees(plan.last_free_day), json!([]));
    let day_two = fees(plan.last_free_day + Duration::hours(25));
    assert_eq!(
        day_two[0],
        json!({"type": "demurrage", "amount": 300.0, "currency": "USD"})
    );
    let after = fees(plan.out_gate + Duration::days(5));
    assert_eq!(
        after[0]["amount"], 450.0,
        "nothing accrues after the out-gate"
    );
}
