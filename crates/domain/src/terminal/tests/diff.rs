//! The diff of two views: its events in order and its changeset exactly.

use serde_json::json;

use super::*;

#[test]
fn the_same_answer_again_changes_nothing() {
    let view = TerminalView {
        holds: vec![hold(HoldName::Customs, HoldStatus::Hold)],
        fees: vec![fee(FeeType::Demurrage, "75")],
        last_free_days: LastFreeDays {
            line: Some(at(12)),
            ..LastFreeDays::default()
        },
        pickup_appointment_at: Some(at(11)),
        ..known(Some(false), vec![])
    };
    assert!(diff(&view, &view.clone()).is_empty());
}

type Case = (
    TerminalView,
    TerminalView,
    Vec<TerminalEvent>,
    serde_json::Value,
);

/// Each case's diff: its events in order and its changeset exactly.
fn check(cases: Vec<Case>) {
    for (before, after, events, changeset) in cases {
        let change = diff(&before, &after);
        assert_eq!(change.events, events, "{before:?} -> {after:?}");
        assert_eq!(
            serde_json::to_value(&change.changeset).expect("json"),
            changeset,
            "{before:?} -> {after:?}"
        );
    }
}

#[test]
fn availability_holds_fees_and_appointments_record_their_events() {
    use TerminalEvent as E;
    let base = known(None, vec![]);
    let customs = json!([{"name": "customs", "status": "hold", "description": null}]);
    let held = TerminalView {
        holds: vec![hold(HoldName::Customs, HoldStatus::Hold)],
        ..known(Some(false), vec![])
    };
    check(vec![
        (
            base.clone(),
            held.clone(),
            vec![E::NotAvailable, E::Updated],
            json!({"available_for_pickup": [null, false], "holds_at_pod_terminal": [[], customs]}),
        ),
        (
            held,
            known(Some(true), vec![]),
            vec![E::Available, E::Updated],
            json!({"available_for_pickup": [false, true], "holds_at_pod_terminal": [customs, []]}),
        ),
        (
            base.clone(),
            TerminalView {
                pickup_appointment_at: Some(at(14)),
                fees: vec![fee(FeeType::Exam, "212.5")],
                ..base
            },
            vec![E::PickupAppointment, E::Updated],
            json!({
                "pickup_appointment_at": [null, "2026-12-14T00:00:00Z"],
                "fees_at_pod_terminal": [[], [{"type": "exam", "amount": 212.5, "currency_code": "USD"}]],
            }),
        ),
    ]);
}

#[test]
fn last_free_days_and_terminals_record_their_events() {
    use TerminalEvent as E;
    let base = known(None, vec![]);
    let lfd = |line, terminal| TerminalView {
        last_free_days: LastFreeDays {
            line,
            terminal,
            rail: None,
        },
        ..base.clone()
    };
    let at_terminal = |code: &str, source| TerminalView {
        pod_terminal: Some(PodTerminal {
            code: code.to_owned(),
            source,
        }),
        ..base.clone()
    };
    check(vec![
        (
            base.clone(),
            lfd(None, Some(at(10))),
            vec![E::PickupLfd, E::PickupLfdTerminal, E::Updated],
            json!({"pickup_lfd": [null, "2026-12-10T00:00:00Z"]}),
        ),
        (
            // The line's LFD arrives where the terminal's stood: both events, one move.
            lfd(None, Some(at(10))),
            lfd(Some(at(12)), Some(at(10))),
            vec![E::PickupLfd, E::PickupLfdLine, E::Updated],
            json!({"pickup_lfd": ["2026-12-10T00:00:00Z", "2026-12-12T00:00:00Z"]}),
        ),
        (
            // The terminal extends its LFD behind the line's: heard, but pickup_lfd stays.
            lfd(Some(at(12)), Some(at(10))),
            lfd(Some(at(12)), Some(at(11))),
            vec![E::PickupLfdTerminal],
            json!({}),
        ),
        (
            at_terminal("USLAXAPM", DataSource::ShippingLine),
            at_terminal("USLAXTTI", DataSource::Terminal),
            vec![E::PodTerminalChanged(DataSource::Terminal), E::Updated],
            json!({"pod_terminal": ["USLAXAPM", "USLAXTTI"]}),
        ),
        (
            // First named: part of the changeset, not a change of terminal.
            base.clone(),
            at_terminal("USLAXAPM", DataSource::ShippingLine),
            vec![E::Updated],
            json!({"pod_terminal": [null, "USLAXAPM"]}),
        ),
    ]);
}

#[test]
fn every_terminal_event_has_a_distinct_name_but_one_for_the_terminal_change() {
    let names: std::collections::BTreeSet<&str> = TerminalEvent::ALL
        .iter()
        .map(|event| event.name())
        .collect();
    assert_eq!(names.len(), TerminalEvent::ALL.len() - 1);
    assert!(names.contains("container.pickup_lfd_line.changed"));
}
