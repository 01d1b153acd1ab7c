//! A voyage played step by step records each event exactly once.

use std::collections::HashSet;

use tidemark_carriers::Lookup;
use tidemark_domain::{
    ContainerId, ContainerStatus, EventName, JobKind, LookupOutcome, RequestStatus, RequestType,
    StopReason, Timestamp, Tracked, TransportEventKind,
};
use time::Duration;

use crate::support::TestApp;

pub async fn a_voyage_step_by_step_records_each_event_exactly_once(h: TestApp) {
    let request = h.test_bill("TEST-TR-JOURNEY").await;
    h.drain().await;
    // Found at once: its boxes loaded, the vessel about to sail.
    assert_eq!(h.stored(&request).await.status, RequestStatus::Created);
    // Play the voyage: every few hours the due refreshes run.
    for _ in 0..(24 * 120 / 3) {
        h.advance(Duration::hours(3));
        h.drain().await;
        if h.stored(&request).await.status == RequestStatus::TrackingStopped {
            break;
        }
    }
    let stopped = h.stored(&request).await;
    assert_eq!(stopped.status, RequestStatus::TrackingStopped);
    let tracked = h.tracked(&request).await;
    assert_eq!(
        tracked.shipment.stopped_reason,
        Some(StopReason::AllContainersTerminated)
    );
    assert!(
        tracked
            .containers
            .iter()
            .all(|c| c.current_status == ContainerStatus::EmptyReturned)
    );

    // What the carrier knows at the end is exactly what was recorded.
    let expected = the_carriers_last_word(&h, &tracked).await;
    let recorded: Vec<_> = tracked
        .events
        .iter()
        .filter(|e| matches!(e.kind, TransportEventKind::Actual(_)))
        .map(|e| {
            (
                e.container_id,
                e.kind.name(),
                e.location
                    .as_ref()
                    .map(|p| p.locode.clone())
                    .unwrap_or_default(),
                e.timestamp,
            )
        })
        .collect();
    let unique: HashSet<_> = recorded.iter().cloned().collect();
    assert_eq!(unique.len(), recorded.len(), "no transport event twice");
    assert_eq!(unique, expected);
    the_events_were_heard_once(&h, &expected).await;
    assert_eq!(h.drain().await, 0);
    for kind in JobKind::ALL {
        assert_eq!(h.store.next_due(kind).await.expect("next"), None, "{kind}");
    }
}

/// One webhook-visible event per container, milestone and place; one succeeded, one stop.
async fn the_events_were_heard_once(h: &TestApp, expected: &HashSet<Recorded>) {
    let events = h.store.domain_events(h.account.id).await.expect("events");
    let keys: HashSet<&str> = events.iter().map(|e| e.dedupe_key.as_str()).collect();
    assert_eq!(keys.len(), events.len());
    let milestones = events
        .iter()
        .filter(|e| {
            e.name.name().starts_with("container.transport.")
                && !e.name.name().contains("estimated")
                && !matches!(e.name, EventName::Terminal(_))
        })
        .count();
    let distinct: HashSet<_> = expected.iter().map(|(c, n, l, _)| (c, n, l)).collect();
    assert_eq!(milestones, distinct.len());
    let names: Vec<String> = events.iter().map(|e| e.name.name()).collect();
    for once in [
        "tracking_request.succeeded",
        "tracking_request.tracking_stopped",
    ] {
        assert_eq!(names.iter().filter(|n| *n == once).count(), 1, "{once}");
    }
    assert_eq!(
        names.last().map(String::as_str),
        Some("tracking_request.tracking_stopped")
    );
    for milestone in [
        "vessel_loaded",
        "vessel_departed",
        "vessel_arrived",
        "vessel_discharged",
        "full_out",
        "empty_in",
    ] {
        let name = format!("container.transport.{milestone}");
        assert!(names.contains(&name), "{name} in {names:?}");
    }
    // Each box became available for pickup at its terminal once, between discharge and
    // out-gate, and its terminal's last free day was heard.
    let boxes: HashSet<_> = expected.iter().map(|(container, ..)| container).collect();
    let available = names
        .iter()
        .filter(|n| *n == "container.transport.available")
        .count();
    assert_eq!(available, boxes.len(), "{names:?}");
    assert!(names.contains(&"container.pickup_lfd_terminal.changed".to_owned()));
    // The simulator moves its arrival estimate during the voyage: each move is heard.
    assert!(names.contains(&"shipment.estimated.arrival".to_owned()));
    assert!(names.contains(&"container.transport.estimated.vessel_arrived".to_owned()));
}

/// An actual transport event as compared: container, name, place, time.
type Recorded = (ContainerId, String, String, Timestamp);

/// The actual events of the journey as the carrier tells them now, per recorded container.
async fn the_carriers_last_word(h: &TestApp, tracked: &Tracked) -> HashSet<Recorded> {
    let (connector, _) = h
        .application()
        .carriers()
        .expect("carriers")
        .connector(&tidemark_domain::Scac::parse("TEST").expect("scac"))
        .expect("sandbox");
    let LookupOutcome::Found(last) = connector
        .lookup(&Lookup::new(
            "TEST-TR-JOURNEY".to_owned(),
            RequestType::BillOfLading,
        ))
        .await
    else {
        panic!("the journey is found")
    };
    let mut expected = HashSet::new();
    for view in &last.containers {
        let container = tracked
            .containers
            .iter()
            .find(|c| c.number == view.number)
            .expect("every container recorded");
        for m in &view.milestones {
            expected.insert((
                container.id,
                TransportEventKind::Actual(m.milestone).name(),
                m.place
                    .as_ref()
                    .map(|p| p.locode.clone())
                    .unwrap_or_default(),
                m.at,
            ));
        }
    }
    expected
}
