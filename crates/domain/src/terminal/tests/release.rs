//! The line's DCSA 3.0 release events in a container's view: folded in the order they
//! happened, beside the terminal's holds, against the Arrival Notice's customs word by
//! time, and kept through the terminal's answers and the line's notices.

use super::super::{
    ContainerNotice, Hold, HoldName, HoldStatus, LineEvents, LineNotice, ReleaseEvent,
    TerminalReport, TerminalView,
};
use super::{at, hold};
use crate::Timestamp;

use ReleaseEvent::{
    AvailableForPickup, CustomsReleased, CustomsSelectedForInspection, CustomsSelectedForScan,
};

fn names(view: &TerminalView) -> Vec<&'static str> {
    view.holds.iter().map(|hold| hold.name.as_str()).collect()
}

fn word(events: &[(u32, ReleaseEvent)]) -> LineEvents {
    let timed: Vec<(Timestamp, ReleaseEvent)> = events
        .iter()
        .map(|(day, event)| (at(*day), *event))
        .collect();
    LineEvents::of(&timed)
}

#[test]
fn release_events_hold_and_release_in_the_order_they_happened() {
    let usda = hold(HoldName::Usda, HoldStatus::Hold);
    let start = TerminalView {
        holds: vec![usda.clone()],
        ..TerminalView::default()
    };
    for (events, holds, available) in [
        (vec![], vec!["USDA"], None),
        (vec![(1, AvailableForPickup)], vec!["USDA"], Some(true)),
        (
            vec![(1, CustomsSelectedForInspection)],
            vec!["customs", "USDA"],
            None,
        ),
        (
            vec![(1, CustomsSelectedForScan)],
            vec!["USDA", "VACIS"],
            None,
        ),
        (
            vec![
                (2, CustomsReleased),
                (1, CustomsSelectedForInspection),
                (1, CustomsSelectedForScan),
            ],
            vec!["USDA"],
            None,
        ),
        (
            vec![(1, CustomsReleased), (2, CustomsSelectedForScan)],
            vec!["USDA", "VACIS"],
            None,
        ),
    ] {
        let after = start.with_line_events(&word(&events));
        assert_eq!(names(&after), holds, "{events:?}");
        assert_eq!(after.available_for_pickup, available, "{events:?}");
        assert!(
            after.holds.contains(&usda),
            "the line's release never clears the terminal's hold"
        );
    }
    for event in ReleaseEvent::ALL {
        assert_eq!(ReleaseEvent::parse(event.code()), Some(event));
    }
    assert_eq!(ReleaseEvent::parse("LOADED"), None);
}

#[test]
fn the_same_events_read_again_change_nothing_and_none_is_no_word() {
    let view = TerminalView::default().with_line_events(&word(&[(1, CustomsSelectedForScan)]));
    assert_eq!(view.with_line_events(&view.line_events.clone()), view);
    assert_eq!(
        TerminalView::default().with_line_events(&LineEvents::default()),
        TerminalView::default()
    );
    // A later answer without the selection (retracted) clears what it held.
    let cleared = view.with_line_events(&LineEvents::default());
    assert!(cleared.holds.is_empty(), "{:?}", cleared.holds);
}

#[test]
fn the_terminal_decides_availability_once_it_says_and_keeps_the_lines_holds() {
    let line = TerminalView::default().with_line_events(&word(&[
        (1, CustomsSelectedForScan),
        (2, AvailableForPickup),
    ]));
    assert!(line.availability_known);
    assert!(!line.ready_for_pickup(), "held for the scan");
    // The terminal says nothing of availability: the line's word stands.
    let silent = line.with_report(&TerminalReport::default());
    assert_eq!(silent.available_for_pickup, Some(true));
    assert_eq!(
        names(&silent),
        ["VACIS"],
        "the line's hold stays beside the terminal's"
    );
    // The terminal says it may not go: it does not.
    let refused = line.with_report(&TerminalReport {
        available: Some(false),
        ..TerminalReport::default()
    });
    assert_eq!(refused.available_for_pickup, Some(false));
    // A terminal that said no is not overruled by the line's event.
    let later = refused.with_line_events(&word(&[(2, AvailableForPickup), (3, CustomsReleased)]));
    assert_eq!(later.available_for_pickup, Some(false));
    assert!(later.holds.is_empty());
    // The line's release clears the line's scan; the terminal's own hold stays.
    let terminal_held = line.with_report(&TerminalReport {
        available: Some(true),
        holds: vec![hold(HoldName::Customs, HoldStatus::Hold)],
        ..TerminalReport::default()
    });
    let released =
        terminal_held.with_line_events(&word(&[(1, CustomsSelectedForScan), (3, CustomsReleased)]));
    assert_eq!(names(&released), ["customs"]);
}

fn customs_notice(released: bool, issued: u32) -> ContainerNotice {
    ContainerNotice {
        notice: LineNotice {
            issued_at: Some(at(issued)),
            customs_released: Some(released),
            freight_released: Some(false),
            ..LineNotice::default()
        },
        last_free_day: Some(at(20)),
        pickup_place: None,
    }
}

#[test]
fn the_newer_of_the_notice_and_the_events_speaks_for_customs() {
    let pending = |view: &TerminalView| -> Vec<(HoldName, HoldStatus)> {
        view.holds
            .iter()
            .map(|h: &Hold| (h.name, h.status))
            .collect()
    };
    // Notice of day 2: customs not released (pending); the events release it on day 3.
    let noticed = TerminalView::default().with_notice(&customs_notice(false, 2), None);
    assert_eq!(
        pending(&noticed),
        [
            (HoldName::Freight, HoldStatus::Hold),
            (HoldName::Customs, HoldStatus::Pending)
        ]
    );
    let released = noticed.with_line_events(&word(&[(3, CustomsReleased)]));
    assert_eq!(
        pending(&released),
        [(HoldName::Freight, HoldStatus::Hold)],
        "the freight hold is the notice's alone"
    );
    assert_eq!(
        released.last_free_days.line,
        Some(at(20)),
        "the notice's last free day is kept"
    );
    // A release of day 1 is older than the notice: the notice's pending hold stands.
    let older = noticed.with_line_events(&word(&[(1, CustomsReleased)]));
    assert_eq!(pending(&older), pending(&noticed));
    // A scan selected on day 3, then a notice of day 4 saying customs released: cleared.
    let scanned = TerminalView::default().with_line_events(&word(&[(3, CustomsSelectedForScan)]));
    let cleared = scanned.with_notice(&customs_notice(true, 4), None);
    assert_eq!(pending(&cleared), [(HoldName::Freight, HoldStatus::Hold)]);
    assert_eq!(
        cleared.line_events, scanned.line_events,
        "the events' word is kept"
    );
}
