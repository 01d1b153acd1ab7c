//! Snapshot diffing: a voyage told step by step produces each event once.

use super::*;
use crate::lifecycle::Policy;
use crate::{
    CallView, Container, ContainerDetails, ContainerId, ContainerStatus, ContainerView, Estimate,
    Milestone, MilestoneEvent, Place, Snapshot, StopReason, TrackingRequestDraft,
    TransportEventKind, VesselRef,
};

fn at(hours: i64) -> Timestamp {
    Timestamp::from_datetime(
        time::OffsetDateTime::UNIX_EPOCH + time::Duration::hours(500_000 + hours),
    )
}

fn request() -> TrackingRequest {
    let draft = TrackingRequestDraft {
        request_type: Some("bill_of_lading".to_owned()),
        request_number: Some("586118841".to_owned()),
        scac: Some("MAEU".to_owned()),
        shipment_tags: vec!["urgent".to_owned()],
        ..TrackingRequestDraft::default()
    };
    TrackingRequest::opened_for_test(draft, at(0))
}

fn place(locode: &str, facility: Option<&str>) -> Place {
    Place {
        locode: locode.to_owned(),
        name: Some(format!("Port {locode}")),
        facility: facility.map(str::to_owned),
    }
}

fn vessel() -> VesselRef {
    VesselRef {
        imo: "9321483".to_owned(),
        name: Some("EMMA MAERSK".to_owned()),
    }
}

fn call(
    locode: &str,
    eta: Option<i64>,
    ata: Option<i64>,
    etd: Option<i64>,
    atd: Option<i64>,
) -> CallView {
    CallView {
        id: locode.to_owned(),
        place: place(locode, Some("TERM1")),
        vessel: Some(vessel()),
        voyage: Some("123W".to_owned()),
        original_eta: eta.map(at),
        eta: eta.map(at),
        ata: ata.map(at),
        etd: etd.map(at),
        atd: atd.map(at),
    }
}

fn milestone(milestone: Milestone, hour: i64, locode: &str) -> MilestoneEvent {
    MilestoneEvent {
        milestone,
        at: at(hour),
        place: Some(place(locode, None)),
        vessel: None,
        voyage: None,
        source_id: None,
    }
}

fn container(number: &str, milestones: Vec<MilestoneEvent>) -> ContainerView {
    ContainerView {
        number: number.to_owned(),
        iso_code: Some("45G1".to_owned()),
        seal: Some("S1".to_owned()),
        milestones,
        raw_events: Vec::new(),
    }
}

fn snapshot(pod_eta: i64, containers: Vec<ContainerView>) -> Snapshot {
    Snapshot {
        bill_of_lading: Some("586118841".to_owned()),
        booking: None,
        calls: vec![
            call("CNSHA", None, Some(1), Some(10), None),
            call("NLRTM", Some(pod_eta), None, None, None),
        ],
        containers,
        shipment_events: Vec::new(),
    }
}

fn ctx(request: &TrackingRequest, now: Timestamp) -> Context<'_> {
    Context {
        request,
        scac: Scac::parse("MAEU").expect("scac"),
        source: TrackingSource::Sandbox,
        now,
    }
}

fn names(changes: &SnapshotDiff) -> Vec<String> {
    changes.events.iter().map(|e| e.name.name()).collect()
}

#[test]
fn the_first_answer_creates_the_shipment_and_announces_past_milestones() {
    let request = request();
    let first = snapshot(
        500,
        vec![container(
            "MSKU1234565",
            vec![
                milestone(Milestone::EmptyOut, 1, "CNSHA"),
                milestone(Milestone::FullIn, 2, "CNSHA"),
            ],
        )],
    );
    let changes = apply_snapshot(None, &first, &ctx(&request, at(3)));
    assert_eq!(changes.shipment.tracking_request_id, request.id);
    assert_eq!(changes.shipment.tags, ["urgent"]);
    assert_eq!(changes.shipment.source, TrackingSource::Sandbox);
    assert_eq!(
        changes
            .shipment
            .route
            .port_of_discharge
            .as_ref()
            .map(|p| p.locode.as_str()),
        Some("NLRTM")
    );
    assert_eq!(changes.shipment.route.pod_eta_at, Some(at(500)));
    assert_eq!(changes.shipment.route.pod_original_eta_at, Some(at(500)));
    assert_eq!(changes.delta.containers.len(), 1);
    assert_eq!(
        changes.delta.containers[0].details.pol_full_in_at,
        Some(at(2))
    );
    assert_eq!(
        changes.delta.containers[0].details.pod_terminal.as_deref(),
        Some("TERM1")
    );
    assert_eq!(changes.delta.transport_events.len(), 2);
    assert_eq!(
        names(&changes),
        [
            "container.transport.empty_out",
            "container.transport.full_in"
        ],
        "no container.created and no estimate change on the first answer"
    );
    assert!(changes.changed);
    assert_eq!(changes.delta.places.len(), 2);
    assert_eq!(changes.delta.vessels.len(), 1);
}

#[test]
fn a_repeated_answer_changes_nothing_and_announces_nothing() {
    let request = request();
    let answer = snapshot(
        500,
        vec![container(
            "MSKU1234565",
            vec![milestone(Milestone::FullIn, 2, "CNSHA")],
        )],
    );
    let first = apply_snapshot(None, &answer, &ctx(&request, at(3)));
    let stored = first.tracked(None);
    let again = apply_snapshot(Some(&stored), &answer, &ctx(&request, at(4)));
    assert!(again.events.is_empty());
    assert!(again.delta.transport_events.is_empty());
    assert!(again.delta.containers.is_empty());
    assert!(!again.changed);
    assert_eq!(again.shipment.last_changed_at, at(3));
    assert_eq!(again.shipment.last_attempted_at, Some(at(4)));
}

#[test]
fn a_voyage_step_by_step_announces_each_milestone_once_and_each_eta_change() {
    let request = request();
    let c = |milestones| vec![container("MSKU1234565", milestones)];
    let steps = [
        snapshot(500, c(vec![milestone(Milestone::FullIn, 2, "CNSHA")])),
        snapshot(
            500,
            c(vec![
                milestone(Milestone::FullIn, 2, "CNSHA"),
                milestone(Milestone::VesselLoaded, 8, "CNSHA"),
            ]),
        ),
        // The answer repeats, in another order: nothing new.
        snapshot(
            500,
            c(vec![
                milestone(Milestone::VesselLoaded, 8, "CNSHA"),
                milestone(Milestone::FullIn, 2, "CNSHA"),
            ]),
        ),
        // The arrival estimate moves.
        snapshot(
            520,
            c(vec![
                milestone(Milestone::FullIn, 2, "CNSHA"),
                milestone(Milestone::VesselLoaded, 8, "CNSHA"),
            ]),
        ),
        // A corrected time for a known milestone: recorded, not announced again.
        snapshot(
            520,
            c(vec![
                milestone(Milestone::FullIn, 2, "CNSHA"),
                milestone(Milestone::VesselLoaded, 9, "CNSHA"),
            ]),
        ),
    ];
    let expected: [&[&str]; 5] = [
        &["container.transport.full_in"],
        &["container.transport.vessel_loaded"],
        &[],
        &[
            "container.transport.estimated.vessel_arrived",
            "shipment.estimated.arrival",
        ],
        &[],
    ];
    let mut stored: Option<Tracked> = None;
    for (hour, (step, expected)) in (10..).zip(steps.iter().zip(expected)) {
        let changes = apply_snapshot(stored.as_ref(), step, &ctx(&request, at(hour)));
        assert_eq!(names(&changes), expected, "step at hour {hour}");
        stored = Some(changes.tracked(stored.as_ref()));
    }
    let stored = stored.expect("tracked");
    assert_eq!(
        stored.events.len(),
        4,
        "full_in, loaded, the estimate, the corrected loaded"
    );
    assert_eq!(stored.shipment.route.pod_original_eta_at, Some(at(500)));
    assert_eq!(stored.shipment.route.pod_eta_at, Some(at(520)));
    let estimate = &stored.events[2];
    assert_eq!(
        estimate.kind,
        TransportEventKind::Estimated(Estimate::VesselArrived)
    );
    assert_eq!(estimate.timestamp, at(520));
}

#[test]
fn containers_added_later_are_created_and_changed_ones_updated() {
    let request = request();
    let one = snapshot(500, vec![container("MSKU1234565", Vec::new())]);
    let stored = apply_snapshot(None, &one, &ctx(&request, at(1))).tracked(None);
    let mut resealed = container("MSKU1234565", Vec::new());
    resealed.seal = Some("S2".to_owned());
    let two = snapshot(500, vec![resealed, container("MSKU7654321", Vec::new())]);
    let changes = apply_snapshot(Some(&stored), &two, &ctx(&request, at(2)));
    assert_eq!(names(&changes), ["container.updated", "container.created"]);
    let updated = &changes.events[0];
    assert_eq!(
        updated.detail.changeset.get("seal_number"),
        Some(&[serde_json::json!("S1"), serde_json::json!("S2")])
    );
    assert_eq!(changes.delta.containers.len(), 2);
    let after = changes.tracked(Some(&stored));
    assert_eq!(after.containers.len(), 2);
    assert_eq!(after.containers[0].id, stored.containers[0].id);
}

#[test]
fn statuses_follow_the_milestones() {
    let request = request();
    let answer = snapshot(
        500,
        vec![container(
            "MSKU1234565",
            vec![
                milestone(Milestone::VesselLoaded, 8, "CNSHA"),
                milestone(Milestone::VesselDischarged, 520, "NLRTM"),
            ],
        )],
    );
    let changes = apply_snapshot(None, &answer, &ctx(&request, at(530)));
    assert_eq!(
        changes.delta.containers[0].current_status,
        ContainerStatus::Grounded
    );
    assert_eq!(
        changes.delta.containers[0].details.pod_discharged_at,
        Some(at(520))
    );
}

fn tracked_with(statuses: &[ContainerStatus], pod_ata: Option<i64>, changed: i64) -> Tracked {
    let request = request();
    let mut tracked = apply_snapshot(
        None,
        &snapshot(500, Vec::new()),
        &ctx(&request, at(changed)),
    )
    .tracked(None);
    tracked.shipment.route.pod_ata_at = pod_ata.map(at);
    for (i, status) in statuses.iter().enumerate() {
        tracked.containers.push(Container {
            id: ContainerId::new(),
            account_id: tracked.shipment.account_id,
            shipment_id: tracked.shipment.id,
            number: format!("C{i}"),
            current_status: *status,
            ref_numbers: Vec::new(),
            details: ContainerDetails::default(),
            terminal: crate::terminal::TerminalView::default(),
            terminal_checked_at: None,
            terminal_subscribed_until: None,
            created_at: at(0),
            updated_at: at(0),
        });
    }
    tracked
}

#[test]
fn tracking_stops_by_itself_for_the_three_reasons_and_not_before() {
    let policy = Policy::default();
    let days = |d: i64| d * 24;
    let returned = tracked_with(
        &[
            ContainerStatus::EmptyReturned,
            ContainerStatus::EmptyReturned,
        ],
        None,
        0,
    );
    assert_eq!(
        auto_stop(&returned, at(1), &policy),
        Some(StopReason::AllContainersTerminated)
    );
    let one_left = tracked_with(
        &[ContainerStatus::EmptyReturned, ContainerStatus::PickedUp],
        None,
        0,
    );
    assert_eq!(auto_stop(&one_left, at(1), &policy), None);
    let arrived = tracked_with(&[ContainerStatus::Grounded], Some(days(10)), days(50));
    assert_eq!(auto_stop(&arrived, at(days(65)), &policy), None);
    assert_eq!(
        auto_stop(&arrived, at(days(66)), &policy),
        Some(StopReason::PastArrivalWindow)
    );
    let quiet = tracked_with(&[ContainerStatus::OnShip], None, 0);
    assert_eq!(auto_stop(&quiet, at(days(55)), &policy), None);
    assert_eq!(
        auto_stop(&quiet, at(days(56)), &policy),
        Some(StopReason::NoUpdatesAtLine)
    );
    let empty = tracked_with(&[], None, 0);
    assert_eq!(auto_stop(&empty, at(1), &policy), None, "no containers yet");
}

#[test]
fn refreshes_are_frequent_near_arrival_and_rare_at_sea() {
    let policy = Policy::default();
    let wait = |tracked: &Tracked, now: i64| {
        (next_refresh(tracked, at(now), &policy).as_datetime() - at(now).as_datetime())
            .whole_hours()
    };
    let at_sea = tracked_with(&[ContainerStatus::OnShip], None, 0);
    assert_eq!(wait(&at_sea, 100), 6, "ETA at hour 500 is far");
    assert_eq!(wait(&at_sea, 460), 1, "within 48 hours of the ETA");
    let grounded = tracked_with(&[ContainerStatus::Grounded], Some(500), 0);
    assert_eq!(wait(&grounded, 510), 1);
    let before_departure = tracked_with(&[ContainerStatus::New], None, 0);
    assert_eq!(wait(&before_departure, 100), 3);
}

mod decide;
mod prediction;
mod terminal;
