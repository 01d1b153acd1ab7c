//! How a box stands, by table: every milestone a voyage passes against every kind of
//! terminal report, with the answer written out per stage of the voyage.

use super::*;
use crate::Milestone;

/// The stage of the voyage each milestone leaves a box at, written out here rather than
/// derived, so the table checks `ContainerStatus::after` too.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    Origin,
    Sea,
    Terminal,
    Rail,
    Gone,
}

fn stage(milestone: Milestone) -> Stage {
    use Milestone::*;
    match milestone {
        EmptyOut | FullIn => Stage::Origin,
        FeederLoaded
        | FeederDeparted
        | FeederArrived
        | FeederDischarged
        | VesselLoaded
        | VesselDeparted
        | TransshipmentArrived
        | TransshipmentDischarged
        | TransshipmentLoaded
        | TransshipmentDeparted
        | VesselArrived => Stage::Sea,
        VesselDischarged | RailUnloaded => Stage::Terminal,
        RailLoaded | RailDeparted | RailArrived => Stage::Rail,
        FullOut | EmptyIn => Stage::Gone,
    }
}

/// What a terminal may have said of a box.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Said {
    Nothing,
    NotKnown,
    Available,
    NotAvailable,
    AvailableButHeld,
    AvailablePendingHold,
    AvailableOffDock,
}

const SAID: [Said; 7] = [
    Said::Nothing,
    Said::NotKnown,
    Said::Available,
    Said::NotAvailable,
    Said::AvailableButHeld,
    Said::AvailablePendingHold,
    Said::AvailableOffDock,
];

fn view(said: Said) -> TerminalView {
    let customs = |status| {
        vec![Hold {
            name: HoldName::Customs,
            status,
            description: None,
        }]
    };
    let report = |available, holds| TerminalReport {
        available,
        holds,
        last_free_day: Some(at(4)),
        ..TerminalReport::default()
    };
    let seen = |report: TerminalReport| TerminalView::default().with_report(&report);
    match said {
        Said::Nothing => TerminalView::default(),
        Said::NotKnown => seen(report(None, vec![])),
        Said::Available => seen(report(Some(true), vec![])),
        Said::NotAvailable => seen(report(Some(false), vec![])),
        Said::AvailableButHeld => seen(report(Some(true), customs(HoldStatus::Hold))),
        Said::AvailablePendingHold => seen(report(Some(true), customs(HoldStatus::Pending))),
        Said::AvailableOffDock => seen(TerminalReport {
            pickup_facility: Some("OFFDOCK1".into()),
            ..report(Some(true), vec![])
        }),
    }
}

/// The expected status and availability, written out per stage and report.
fn expected(
    stage: Stage,
    milestones: ContainerStatus,
    said: Said,
) -> (ContainerStatus, Option<bool>) {
    use ContainerStatus as S;
    match (stage, said) {
        (Stage::Gone, _) => (milestones, Some(false)),
        (Stage::Terminal, Said::Nothing | Said::NotKnown) => (S::Grounded, None),
        (Stage::Terminal, Said::Available | Said::AvailablePendingHold) => {
            (S::Available, Some(true))
        }
        (Stage::Terminal, Said::AvailableOffDock) => (S::OffDock, Some(true)),
        (Stage::Terminal, Said::NotAvailable | Said::AvailableButHeld) => {
            (S::NotAvailable, Some(false))
        }
        (_, Said::Nothing | Said::NotKnown) => (milestones, None),
        (_, Said::Available | Said::AvailablePendingHold | Said::AvailableOffDock) => {
            (milestones, Some(true))
        }
        (_, Said::NotAvailable | Said::AvailableButHeld) => (milestones, Some(false)),
    }
}

#[test]
fn every_milestone_against_every_terminal_report() {
    let mut cases = 0;
    for milestone in Milestone::ALL {
        let stage = stage(milestone);
        let milestones = ContainerStatus::after(milestone);
        for said in SAID {
            let view = view(said);
            let standing = view.standing(milestones);
            let (status, available) = expected(stage, milestones, said);
            let case = format!("{milestone:?} × {said:?}");
            assert_eq!(standing.status, status, "{case}");
            assert_eq!(standing.available_for_pickup, available, "{case}");
            // A box that left is held by nothing; elsewhere the holds are the report's.
            if stage == Stage::Gone {
                assert!(standing.holds.is_empty(), "{case}");
                assert!(!standing.on_hold(), "{case}");
            } else {
                assert_eq!(standing.holds, view.holds, "{case}");
                assert_eq!(standing.on_hold(), said == Said::AvailableButHeld, "{case}");
            }
            // Never both available and held, never both gone and available.
            assert!(!(standing.available_for_pickup == Some(true) && standing.on_hold()));
            assert!(!(standing.status.gone() && standing.available_for_pickup == Some(true)));
            // The last free day outlives the stay: demurrage is counted from it.
            let lfd = (said != Said::Nothing).then(|| at(4));
            assert_eq!(standing.pickup_lfd, lfd, "{case}");
            // Deciding again from what was decided changes nothing.
            assert_eq!(view.standing(standing.status), standing, "{case}: again");
            cases += 1;
        }
    }
    assert_eq!(cases, 20 * 7);
}

#[test]
fn a_box_not_yet_tracked_through_a_milestone_stands_as_new() {
    let standing = view(Said::Available).standing(ContainerStatus::New);
    assert_eq!(standing.status, ContainerStatus::New);
    assert_eq!(standing.available_for_pickup, Some(true));
}

#[test]
fn availability_a_hold_takes_back_is_announced_as_not_available() {
    let released = view(Said::Available);
    let held = TerminalView {
        holds: vec![Hold {
            name: HoldName::Customs,
            status: HoldStatus::Hold,
            description: None,
        }],
        ..released.clone()
    };
    // The terminal's flag still says available: the hold decides.
    assert_eq!(held.available_for_pickup, Some(true));
    let taken_back = diff(&released, &held);
    assert!(
        taken_back.events.contains(&TerminalEvent::NotAvailable),
        "{taken_back:?}"
    );
    assert_eq!(
        taken_back.changeset.get("available_for_pickup"),
        Some(&[json!(true), json!(false)])
    );
    let given_again = diff(&held, &released);
    assert!(given_again.events.contains(&TerminalEvent::Available));
    // A hold on a box the terminal never released announces no availability at all.
    let never = diff(&view(Said::NotAvailable), &held);
    assert!(!never.events.contains(&TerminalEvent::Available));
    assert!(!never.events.contains(&TerminalEvent::NotAvailable));
}
