//! The line's Arrival Notice in a container's view: its holds beside the terminal's, kept
//! through the terminal's answers and replaced by the next notice; its last free day; a
//! pickup place of its own only when it is not the terminal of discharge.

use super::super::{
    ContainerNotice, Hold, HoldName, HoldStatus, LineNotice, TerminalReport, TerminalView,
};
use crate::Timestamp;

fn day(text: &str) -> Option<Timestamp> {
    Timestamp::parse_rfc3339(text).ok()
}

fn notice(freight: bool, pickup: Option<&str>) -> ContainerNotice {
    ContainerNotice {
        notice: LineNotice {
            freight_released: Some(freight),
            customs_released: Some(true),
            pickup_facility: pickup.map(str::to_owned),
            ..LineNotice::default()
        },
        last_free_day: day("2026-06-05T23:59:59Z"),
        pickup_place: None,
    }
}

fn names(view: &TerminalView) -> Vec<(HoldName, HoldStatus)> {
    view.holds.iter().map(|h| (h.name, h.status)).collect()
}

#[test]
fn the_line_s_holds_stand_beside_the_terminal_s_until_it_releases() {
    let held = TerminalView::default().with_notice(&notice(false, None), Some("ECTDE"));
    assert_eq!(names(&held), [(HoldName::Freight, HoldStatus::Hold)]);
    assert!(held.has_holds());
    assert_eq!(held.last_free_days.line, day("2026-06-05T23:59:59Z"));

    // The terminal answers with a USDA hold of its own: the line's freight hold stays.
    let report = TerminalReport {
        available: Some(true),
        holds: vec![Hold {
            name: HoldName::Usda,
            status: HoldStatus::Pending,
            description: None,
        }],
        ..TerminalReport::default()
    };
    let both = held.with_report(&report);
    assert_eq!(
        names(&both),
        [
            (HoldName::Freight, HoldStatus::Hold),
            (HoldName::Usda, HoldStatus::Pending)
        ]
    );
    assert!(
        !both.ready_for_pickup(),
        "available at the terminal, held by the line"
    );

    // The line releases the freight: only the terminal's hold is left.
    let released = both.with_notice(&notice(true, None), Some("ECTDE"));
    assert_eq!(names(&released), [(HoldName::Usda, HoldStatus::Pending)]);
    assert!(released.ready_for_pickup());
}

#[test]
fn a_pickup_place_is_the_line_s_only_when_it_is_not_the_terminal_of_discharge() {
    let at_terminal =
        TerminalView::default().with_notice(&notice(true, Some("ECTDE")), Some("ECTDE"));
    assert_eq!(at_terminal.pickup_facility, None);
    let off_dock =
        TerminalView::default().with_notice(&notice(true, Some("RTMDEPOT")), Some("ECTDE"));
    assert_eq!(off_dock.pickup_facility.as_deref(), Some("RTMDEPOT"));
    let terminal_says = off_dock.with_report(&TerminalReport {
        pickup_facility: Some("CFS01".to_owned()),
        ..TerminalReport::default()
    });
    assert_eq!(terminal_says.pickup_facility.as_deref(), Some("CFS01"));
    let next = terminal_says.with_notice(&notice(true, Some("RTMDEPOT2")), Some("ECTDE"));
    assert_eq!(
        next.pickup_facility.as_deref(),
        Some("CFS01"),
        "the terminal's stands"
    );
}

#[test]
fn an_older_notice_arriving_late_does_not_override_a_newer_one() {
    let issued = |text: &str, freight: bool| ContainerNotice {
        notice: LineNotice {
            issued_at: day(text),
            ..notice(freight, None).notice
        },
        ..notice(freight, None)
    };
    let released = TerminalView::default()
        .with_notice(&issued("2026-06-02T08:00:00Z", false), None)
        .with_notice(&issued("2026-06-03T08:00:00Z", true), None);
    assert!(names(&released).is_empty(), "the newer notice released it");

    let late = released.with_notice(&issued("2026-06-02T08:00:00Z", false), None);
    assert_eq!(
        late, released,
        "the older notice, pushed late, changes nothing"
    );

    let reissued = released.with_notice(&issued("2026-06-04T08:00:00Z", false), None);
    assert_eq!(names(&reissued), [(HoldName::Freight, HoldStatus::Hold)]);
}
