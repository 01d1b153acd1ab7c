//! The readiness rule, the LFD coalescing and the diff, each by table.

use serde_json::json;

use crate::ContainerStatus;

use super::*;

fn at(day: u32) -> Timestamp {
    Timestamp::parse_rfc3339(&format!("2026-12-{day:02}T00:00:00Z")).expect("a day of December")
}

fn hold(name: HoldName, status: HoldStatus) -> Hold {
    Hold {
        name,
        status,
        description: None,
    }
}

fn fee(kind: FeeType, amount: &str) -> Fee {
    Fee {
        kind,
        amount: Amount::parse(amount).expect("an amount"),
        currency: Currency::parse("USD").expect("a currency"),
    }
}

fn known(available: Option<bool>, holds: Vec<Hold>) -> TerminalView {
    TerminalView {
        availability_known: true,
        available_for_pickup: available,
        holds,
        ..TerminalView::default()
    }
}

#[test]
fn ready_for_pickup_means_available_and_no_blocking_hold() {
    use HoldStatus::{Hold as Blocking, Pending};
    let customs = |status| vec![hold(HoldName::Customs, status)];
    for (view, ready) in [
        (TerminalView::default(), false),
        (
            TerminalView {
                available_for_pickup: Some(true),
                ..TerminalView::default()
            },
            false,
        ),
        (known(None, vec![]), false),
        (known(Some(false), vec![]), false),
        (known(Some(true), vec![]), true),
        (known(Some(true), customs(Pending)), true),
        (known(Some(true), customs(Blocking)), false),
        (known(Some(false), customs(Pending)), false),
    ] {
        assert_eq!(view.ready_for_pickup(), ready, "{view:?}");
    }
}

#[test]
fn the_pickup_lfd_is_the_lines_else_the_terminals_else_the_rails() {
    let (line, terminal, rail) = (Some(at(20)), Some(at(10)), Some(at(5)));
    for (days, expected) in [
        (LastFreeDays::default(), None),
        (
            LastFreeDays {
                line,
                terminal,
                rail,
            },
            line,
        ),
        (
            LastFreeDays {
                line: None,
                terminal,
                rail,
            },
            terminal,
        ),
        (
            LastFreeDays {
                line: None,
                terminal: None,
                rail,
            },
            rail,
        ),
        (
            LastFreeDays {
                line,
                terminal: None,
                rail: None,
            },
            line,
        ),
    ] {
        assert_eq!(days.pickup_lfd(), expected, "{days:?}: not the earliest");
    }
}

#[test]
fn the_status_at_the_terminal_follows_readiness() {
    let blocked = known(Some(true), vec![hold(HoldName::Freight, HoldStatus::Hold)]);
    for (view, carrier, shown) in [
        (
            known(Some(true), vec![]),
            ContainerStatus::Grounded,
            ContainerStatus::Available,
        ),
        (
            blocked.clone(),
            ContainerStatus::Grounded,
            ContainerStatus::NotAvailable,
        ),
        (
            known(Some(false), vec![]),
            ContainerStatus::Grounded,
            ContainerStatus::NotAvailable,
        ),
        (
            TerminalView::default(),
            ContainerStatus::Grounded,
            ContainerStatus::Grounded,
        ),
        (
            TerminalView::default(),
            ContainerStatus::Available,
            ContainerStatus::Grounded,
        ),
        (
            known(Some(true), vec![]),
            ContainerStatus::NotAvailable,
            ContainerStatus::Available,
        ),
        (
            known(Some(true), vec![]),
            ContainerStatus::OnShip,
            ContainerStatus::OnShip,
        ),
        (
            blocked,
            ContainerStatus::PickedUp,
            ContainerStatus::PickedUp,
        ),
    ] {
        assert_eq!(view.standing(carrier).status, shown, "{view:?} {carrier:?}");
    }
    for status in ContainerStatus::ALL {
        assert_eq!(ContainerStatus::parse(status.as_str()), Some(status));
    }
}

#[test]
fn holds_and_fees_are_one_per_kind_in_a_fixed_order() {
    let holds = hold::normalized([
        hold(HoldName::Usda, HoldStatus::Pending),
        hold(HoldName::Customs, HoldStatus::Pending),
        hold(HoldName::Customs, HoldStatus::Hold),
        hold(HoldName::Customs, HoldStatus::Pending),
    ]);
    assert_eq!(
        holds,
        [
            hold(HoldName::Customs, HoldStatus::Hold),
            hold(HoldName::Usda, HoldStatus::Pending),
        ]
    );
    let fees = fee::normalized([
        fee(FeeType::Total, "300"),
        fee(FeeType::Demurrage, "150.00"),
        fee(FeeType::Total, "450"),
    ]);
    assert_eq!(
        fees,
        [fee(FeeType::Demurrage, "150"), fee(FeeType::Total, "450")]
    );
    for name in HoldName::ALL {
        assert_eq!(HoldName::parse(name.as_str()), Some(name));
    }
    assert_eq!(HoldName::parse("usda"), None, "names are case-sensitive");
    assert_eq!(
        serde_json::to_value(hold(HoldName::Tmf, HoldStatus::Pending)).expect("json"),
        json!({"name": "TMF", "status": "pending", "description": null})
    );
}

#[test]
fn amounts_are_exact_decimals() {
    for (text, kept) in [
        ("12", Some("12")),
        ("012.50", Some("12.5")),
        ("0.0001", Some("0.0001")),
        ("1200.7500", Some("1200.75")),
        ("0", Some("0")),
        ("-5", None),
        ("1e3", None),
        ("1.23456", None),
        ("", None),
        (".5", None),
        ("1.2.3", None),
    ] {
        assert_eq!(
            Amount::parse(text).as_ref().map(Amount::as_str),
            kept,
            "{text}"
        );
    }
    assert_eq!(
        Currency::parse("eur")
            .map(|c| c.as_str().to_owned())
            .as_deref(),
        Some("EUR")
    );
    assert_eq!(Currency::parse("EURO"), None);
}

#[test]
fn a_view_reads_back_as_written() {
    let view = TerminalView {
        holds: vec![hold(HoldName::Vacis, HoldStatus::Pending)],
        fees: vec![fee(FeeType::ExtendedDwellTime, "99.99")],
        last_free_days: LastFreeDays {
            line: Some(at(3)),
            terminal: None,
            rail: Some(at(9)),
        },
        pickup_appointment_at: Some(at(2)),
        location: Some("Row 12 Bay 4".to_owned()),
        pod_terminal: Some(PodTerminal {
            code: "USLAXAPM".to_owned(),
            source: DataSource::Terminal,
        }),
        pickup_facility: None,
        ..known(Some(true), vec![])
    };
    let text = serde_json::to_string(&view).expect("json");
    assert!(text.contains(r#""source":"terminal""#), "{text}");
    assert_eq!(
        serde_json::from_str::<TerminalView>(&text).expect("reads"),
        view
    );
    assert!(serde_json::from_str::<Hold>(r#"{"name": "usda", "status": "hold"}"#).is_err());
}

mod diff;
mod notice;
mod release;
mod standing;

#[test]
fn a_terminal_report_replaces_the_terminals_fields_and_keeps_the_lines() {
    let line_lfd = Some(at(12));
    let before = TerminalView {
        last_free_days: LastFreeDays {
            line: line_lfd,
            terminal: Some(at(9)),
            rail: None,
        },
        pod_terminal: Some(PodTerminal {
            code: "USLAXAPM".to_owned(),
            source: DataSource::ShippingLine,
        }),
        holds: vec![hold(HoldName::Freight, HoldStatus::Hold)],
        ..TerminalView::default()
    };
    let report = TerminalReport {
        available: Some(true),
        holds: vec![
            hold(HoldName::Usda, HoldStatus::Pending),
            hold(HoldName::Customs, HoldStatus::Pending),
        ],
        last_free_day: Some(at(10)),
        location: Some("Row 3".to_owned()),
        ..TerminalReport::default()
    };
    let after = before.with_report(&report);
    assert!(after.availability_known && after.ready_for_pickup());
    assert_eq!(
        after.holds,
        [
            hold(HoldName::Customs, HoldStatus::Pending),
            hold(HoldName::Usda, HoldStatus::Pending)
        ],
        "the terminal's list, normalized"
    );
    assert_eq!(after.last_free_days.line, line_lfd, "the line's is kept");
    assert_eq!(after.last_free_days.terminal, Some(at(10)));
    assert_eq!(after.pickup_lfd(), line_lfd);
    assert_eq!(after.pod_terminal, before.pod_terminal, "not named: kept");
    let moved = before.with_report(&TerminalReport {
        terminal: Some("USLAXTTI".to_owned()),
        ..TerminalReport::default()
    });
    assert_eq!(
        moved.pod_terminal,
        Some(PodTerminal {
            code: "USLAXTTI".to_owned(),
            source: DataSource::Terminal
        })
    );
    assert!(!moved.availability_known, "a terminal that does not say");
}
