//! Terminal checks end to end: the tracker asks the simulator's terminal of discharge
//! from the vessel's approach, records each change of a box's terminal view once, and a
//! terminal that fails leaves the tracking request alone.

use carrier_sim::{Fault, FaultRule};
use tidemark_domain::terminal::{HoldName, HoldStatus};
use tidemark_domain::{Clock, ContainerStatus, EventName, JobKind, RequestStatus, Timestamp};
use time::Duration;

use crate::support::TestApp;

fn count(names: &[String], name: &str) -> usize {
    names.iter().filter(|n| *n == name).count()
}

/// Plays `hours` in steps of an hour, working what is due after each.
async fn play(h: &TestApp, hours: u32) {
    for _ in 0..hours {
        h.advance(Duration::hours(1));
        h.drain().await;
    }
}

pub async fn terminal_checks_follow_a_box_from_the_approach_to_its_pickup(h: TestApp) {
    let request = h.test_bill("TEST-TR-HOLDS").await;
    h.drain().await;
    assert_eq!(h.stored(&request).await.status, RequestStatus::Created);
    // The vessel is twelve hours out: within the near-arrival window, checked at once.
    let approach = h.tracked(&request).await;
    let now: Timestamp = h.clock.now();
    for container in &approach.containers {
        assert_eq!(container.terminal_checked_at, Some(now));
        let holds: Vec<(HoldName, HoldStatus)> = container
            .terminal
            .holds
            .iter()
            .map(|hold| (hold.name, hold.status))
            .collect();
        assert_eq!(
            holds,
            [
                (HoldName::Freight, HoldStatus::Hold),
                (HoldName::Customs, HoldStatus::Pending)
            ]
        );
        assert_ne!(
            container.current_status,
            ContainerStatus::NotAvailable,
            "still aboard"
        );
    }
    let boxes = approach.containers.len();
    let names = h.event_names().await;
    assert_eq!(count(&names, "container.updated"), boxes, "{names:?}");
    assert_eq!(h.drain().await, 0, "nothing more is due now");
    assert_eq!(
        h.store
            .next_due(JobKind::TerminalCheck)
            .await
            .expect("read"),
        Some(now + std::time::Duration::from_secs(3600)),
        "the next check at the near-arrival cadence"
    );

    // Two and a half days on: discharged, held, examined, released, available.
    play(&h, 60).await;
    let landed = h.tracked(&request).await;
    let names = h.event_names().await;
    for container in &landed.containers {
        assert_eq!(container.current_status, ContainerStatus::Available);
        assert!(container.terminal.holds.is_empty());
        assert!(container.terminal.last_free_days.terminal.is_some());
        assert!(container.terminal.pickup_appointment_at.is_some());
    }
    for (name, times) in [
        ("container.transport.not_available", boxes),
        ("container.transport.available", boxes),
        ("container.pickup_lfd.changed", boxes),
        ("container.pickup_lfd_terminal.changed", boxes),
        ("container.pickup_appointment.changed", boxes),
    ] {
        assert_eq!(count(&names, name), times, "{name} in {names:?}");
    }
    let checked = landed.containers[0].terminal_checked_at.expect("checked");
    assert!(
        checked > now + std::time::Duration::from_secs(59 * 3600),
        "{checked}"
    );
}

pub async fn a_failing_terminal_leaves_the_request_alone(h: TestApp) {
    h.sim.add_fault(FaultRule {
        scac: None,
        terminal: Some("*".into()),
        reference: None,
        fault: Fault::ServerError {
            status: 503,
            retry_after_seconds: Some(7200),
        },
        times: None,
    });
    let request = h.test_bill("TEST-TR-HOLDS").await;
    h.drain().await;
    let after = h.stored(&request).await;
    assert_eq!(after.status, RequestStatus::Created);
    assert_eq!(after.failed_reason, None);
    let now = h.clock.now();
    let shipment = h.tracked(&request).await;
    for container in &shipment.containers {
        assert_eq!(container.terminal_checked_at, None, "no terminal answered");
        assert!(
            container.terminal.holds.iter().all(|hold| hold
                .description
                .as_deref()
                .is_some_and(|text| text.contains("arrival notice"))),
            "only the line's word, from its arrival notice: {:?}",
            container.terminal.holds
        );
    }
    assert_eq!(
        h.store
            .next_due(JobKind::TerminalCheck)
            .await
            .expect("read"),
        Some(now + std::time::Duration::from_secs(7200)),
        "the terminal's Retry-After, being longer than the cadence, though the line answered"
    );
    let events = h.store.domain_events(h.account.id).await.expect("events");
    assert!(
        events
            .iter()
            .all(|event| !matches!(event.name, EventName::Terminal(_))),
        "no terminal event"
    );

    h.sim.clear_faults();
    play(&h, 2).await;
    let checked = h.tracked(&request).await;
    assert!(
        checked
            .containers
            .iter()
            .all(|c| c.terminal_checked_at.is_some())
    );
    assert_eq!(
        h.stored(&request).await.updated_at,
        checked.containers[0].updated_at
    );
}
