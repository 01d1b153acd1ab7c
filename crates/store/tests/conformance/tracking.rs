//! Conformance cases of what tracking writes: a lookup's commit is all or nothing, guarded
//! by the job's lease and the request's last change, and never duplicates an event.

use std::sync::Arc;

use tidemark_domain::lifecycle::{self, Next, Observation, Policy};
use tidemark_domain::tracking::{self, Context};
use tidemark_domain::{
    CallView, ClaimedJob, ContainerView, DomainEvent, DomainEventId, JobKind, Milestone,
    MilestoneEvent, NewJob, Place, RequestStatus, Scac, Snapshot, TrackingRequest, TrackingSource,
    TransportEventId, VesselRef,
};
use tidemark_store::{CommitOutcome, LookupCommit, Store, StoreError};

use super::{account, at, request};

const LEASE: std::time::Duration = std::time::Duration::from_secs(30);

pub(super) fn snapshot(milestones: &[(Milestone, i64)]) -> Snapshot {
    let place = |locode: &str| Place {
        locode: locode.to_owned(),
        name: Some(format!("Port {locode}")),
        facility: Some("TRM1".to_owned()),
    };
    let vessel = VesselRef {
        imo: "9321483".to_owned(),
        name: Some("EMMA MAERSK".to_owned()),
    };
    let call = |locode: &str, eta: i64| CallView {
        id: locode.to_owned(),
        place: place(locode),
        vessel: Some(vessel.clone()),
        voyage: Some("123W".to_owned()),
        original_eta: Some(at(eta)),
        eta: Some(at(eta)),
        ata: None,
        etd: Some(at(eta + 10)),
        atd: None,
    };
    Snapshot {
        bill_of_lading: Some("586118841".to_owned()),
        booking: None,
        calls: vec![call("CNSHA", 100), call("NLRTM", 5000)],
        containers: vec![ContainerView {
            number: "MSKU1234565".to_owned(),
            iso_code: Some("45G1".to_owned()),
            seal: Some("S1".to_owned()),
            milestones: milestones
                .iter()
                .map(|(milestone, time)| MilestoneEvent {
                    milestone: *milestone,
                    at: at(*time),
                    place: Some(place("CNSHA")),
                    vessel: None,
                    voyage: None,
                    source_id: None,
                })
                .collect(),
        }],
    }
}

/// What the tracker would commit for `request` finding `snapshot` at `now`.
pub(super) async fn found(
    store: &Arc<dyn Store>,
    request: &TrackingRequest,
    snapshot: &Snapshot,
    now: i64,
) -> LookupCommit {
    let prior = store.tracked(request.id).await.expect("read");
    let ctx = Context {
        request,
        scac: Scac::parse("MAEU").expect("scac"),
        source: TrackingSource::Sandbox,
        now: at(now),
    };
    let changes = tracking::apply_snapshot(prior.as_ref(), snapshot, &ctx);
    let (next_request, request_events) = if request.status == RequestStatus::Created {
        let mut same = request.clone();
        same.updated_at = at(now);
        (same, Vec::new())
    } else {
        let step = lifecycle::transition(request, Observation::Found, at(now), &Policy::default())
            .expect("a row");
        assert_eq!(step.next, Next::Refresh);
        (step.request, step.events)
    };
    let mut events: Vec<DomainEvent> = request_events
        .into_iter()
        .map(|event| {
            DomainEvent::for_request(
                request.account_id,
                request.id,
                Some(changes.shipment.id),
                event,
                at(now),
            )
        })
        .collect();
    events.extend(changes.events.iter().cloned());
    LookupCommit {
        request: TrackingRequest {
            tracked_object: Some(changes.shipment.id.as_uuid()),
            ..next_request
        },
        request_read_at: request.updated_at,
        shipment: Some(changes.shipment.clone()),
        containers: changes.containers.clone(),
        transport_events: changes.transport_events.clone(),
        events,
        places: changes.places.clone(),
        vessels: changes.vessels.clone(),
        next: Some(NewJob {
            kind: JobKind::Refresh,
            key: request.id.to_string(),
            due_at: at(now + 3600),
        }),
    }
}

/// Events in the order storage lists them: by time, then id.
fn by_id(events: &[DomainEvent]) -> Vec<DomainEvent> {
    let mut sorted = events.to_vec();
    sorted.sort_by_key(|event| (event.created_at, event.id));
    sorted
}

pub(super) async fn claim(store: &Arc<dyn Store>, kind: JobKind, now: i64) -> ClaimedJob {
    let mut jobs = store
        .claim_due(kind, 1, LEASE, at(now))
        .await
        .expect("claim");
    assert_eq!(jobs.len(), 1, "one due job");
    jobs.remove(0)
}

pub async fn a_lookup_commit_writes_everything_at_once(store: Arc<dyn Store>) {
    let owner = account(&store, "tracking").await;
    let pending = request(&owner, "bill_of_lading", "586118841", "MAEU", 0);
    store
        .insert_tracking_request(&pending)
        .await
        .expect("insert");
    let job = claim(&store, JobKind::Lookup, 1).await;
    let commit = found(
        &store,
        &pending,
        &snapshot(&[(Milestone::EmptyOut, 1), (Milestone::FullIn, 2)]),
        3,
    )
    .await;
    assert_eq!(
        store
            .commit_tracking(Some(&job), &commit)
            .await
            .expect("commit"),
        CommitOutcome::Committed
    );

    let created = store
        .tracking_request(owner.id, pending.id)
        .await
        .expect("read")
        .expect("exists");
    assert_eq!(created, commit.request);
    assert_eq!(created.status, RequestStatus::Created);
    let tracked = store
        .tracked(pending.id)
        .await
        .expect("read")
        .expect("tracked");
    assert_eq!(tracked.shipment, commit.shipment.clone().expect("shipment"));
    assert_eq!(tracked.containers, commit.containers);
    assert_eq!(tracked.events, commit.transport_events);
    let mut names: Vec<String> = store
        .domain_events(owner.id)
        .await
        .expect("events")
        .iter()
        .map(|event| event.name.name())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "container.transport.empty_out",
            "container.transport.full_in",
            "tracking_request.succeeded",
        ]
    );
    assert_eq!(
        store.domain_events(owner.id).await.expect("events"),
        by_id(&commit.events)
    );
    assert!(
        store
            .claim_due(JobKind::Lookup, 1, LEASE, at(10))
            .await
            .expect("claim")
            .is_empty(),
        "the lookup is done"
    );
    assert_eq!(
        store.next_due(JobKind::Refresh).await.expect("next"),
        Some(at(3603))
    );

    // A refresh with one new milestone adds exactly that.
    let refresh = claim(&store, JobKind::Refresh, 3603).await;
    let update = found(
        &store,
        &created,
        &snapshot(&[
            (Milestone::EmptyOut, 1),
            (Milestone::FullIn, 2),
            (Milestone::VesselLoaded, 50),
        ]),
        3604,
    )
    .await;
    assert_eq!(update.transport_events.len(), 1);
    assert_eq!(
        store
            .commit_tracking(Some(&refresh), &update)
            .await
            .expect("commit"),
        CommitOutcome::Committed
    );
    let tracked = store
        .tracked(pending.id)
        .await
        .expect("read")
        .expect("tracked");
    assert_eq!(tracked.events.len(), 3);
    assert_eq!(
        store.domain_events(owner.id).await.expect("events").len(),
        4
    );
}

pub async fn a_commit_with_a_lost_lease_writes_nothing(store: Arc<dyn Store>) {
    let owner = account(&store, "lease").await;
    let pending = request(&owner, "bill_of_lading", "586118841", "MAEU", 0);
    store
        .insert_tracking_request(&pending)
        .await
        .expect("insert");
    let stale = claim(&store, JobKind::Lookup, 1).await;
    // The lease runs out and another worker claims the job.
    let _current = claim(&store, JobKind::Lookup, 100).await;
    let commit = found(&store, &pending, &snapshot(&[(Milestone::FullIn, 2)]), 101).await;
    assert_eq!(
        store
            .commit_tracking(Some(&stale), &commit)
            .await
            .expect("commit"),
        CommitOutcome::LeaseLost
    );
    assert!(store.tracked(pending.id).await.expect("read").is_none());
    assert!(
        store
            .domain_events(owner.id)
            .await
            .expect("events")
            .is_empty()
    );
    let unchanged = store
        .tracking_request(owner.id, pending.id)
        .await
        .expect("read")
        .expect("exists");
    assert_eq!(unchanged, pending);
}

pub async fn a_commit_after_the_request_changed_writes_nothing(store: Arc<dyn Store>) {
    let owner = account(&store, "conflict").await;
    let pending = request(&owner, "bill_of_lading", "586118841", "MAEU", 0);
    store
        .insert_tracking_request(&pending)
        .await
        .expect("insert");
    let job = claim(&store, JobKind::Lookup, 1).await;
    let commit = found(&store, &pending, &snapshot(&[(Milestone::FullIn, 2)]), 3).await;
    // Meanwhile the request changes (a client patch, say).
    let mut changed = pending.clone();
    changed.updated_at = at(2);
    store
        .set_tracking_request_state(&changed)
        .await
        .expect("changed");
    assert_eq!(
        store
            .commit_tracking(Some(&job), &commit)
            .await
            .expect("commit"),
        CommitOutcome::Conflict
    );
    assert!(store.tracked(pending.id).await.expect("read").is_none());
    assert!(
        store
            .domain_events(owner.id)
            .await
            .expect("events")
            .is_empty()
    );
}

/// Lookups committed at the same moment (SQLite groups them into one transaction) stand
/// or fall alone: one whose request changed meanwhile writes nothing, the others commit.
pub async fn concurrent_commits_stand_or_fall_alone(store: Arc<dyn Store>) {
    let owner = account(&store, "concurrent").await;
    let requests: Vec<TrackingRequest> = ["586118841", "586118842", "586118843"]
        .iter()
        .map(|number| request(&owner, "bill_of_lading", number, "MAEU", 0))
        .collect();
    for pending in &requests {
        store
            .insert_tracking_request(pending)
            .await
            .expect("insert");
    }
    let jobs = store
        .claim_due(JobKind::Lookup, 3, LEASE, at(1))
        .await
        .expect("claim");
    let job_of = |pending: &TrackingRequest| {
        jobs.iter()
            .find(|job| job.key == pending.id.to_string())
            .expect("a job per request")
            .clone()
    };
    let found_snapshot = snapshot(&[(Milestone::FullIn, 2)]);
    let mut commits = Vec::new();
    for pending in &requests {
        commits.push(found(&store, pending, &found_snapshot, 3).await);
    }
    // The middle request changes before its lookup commits.
    let mut changed = requests[1].clone();
    changed.updated_at = at(2);
    store
        .set_tracking_request_state(&changed)
        .await
        .expect("changed");

    let (first, second, third) = (
        job_of(&requests[0]),
        job_of(&requests[1]),
        job_of(&requests[2]),
    );
    let outcomes = tokio::join!(
        store.commit_tracking(Some(&first), &commits[0]),
        store.commit_tracking(Some(&second), &commits[1]),
        store.commit_tracking(Some(&third), &commits[2]),
    );
    assert_eq!(
        (
            outcomes.0.expect("first"),
            outcomes.1.expect("second"),
            outcomes.2.expect("third")
        ),
        (
            CommitOutcome::Committed,
            CommitOutcome::Conflict,
            CommitOutcome::Committed
        )
    );
    assert!(store.tracked(requests[0].id).await.expect("read").is_some());
    assert!(store.tracked(requests[1].id).await.expect("read").is_none());
    assert!(store.tracked(requests[2].id).await.expect("read").is_some());
    let events = store.domain_events(owner.id).await.expect("events");
    let expected: usize = commits[0].events.len() + commits[2].events.len();
    assert_eq!(events.len(), expected);
    let refused = commits[1].shipment.as_ref().map(|shipment| shipment.id);
    assert!(refused.is_some());
    assert!(events.iter().all(|event| event.shipment_id != refused));
}

pub async fn events_are_recorded_once_whatever_their_ids(store: Arc<dyn Store>) {
    let owner = account(&store, "dedupe").await;
    let pending = request(&owner, "bill_of_lading", "586118841", "MAEU", 0);
    store
        .insert_tracking_request(&pending)
        .await
        .expect("insert");
    let job = claim(&store, JobKind::Lookup, 1).await;
    let commit = found(&store, &pending, &snapshot(&[(Milestone::FullIn, 2)]), 3).await;
    assert_eq!(
        store
            .commit_tracking(Some(&job), &commit)
            .await
            .expect("commit"),
        CommitOutcome::Committed
    );
    // The same facts again under new ids, as a repeated answer would produce them.
    let created = store
        .tracking_request(owner.id, pending.id)
        .await
        .expect("read")
        .expect("exists");
    let refresh = claim(&store, JobKind::Refresh, 3603).await;
    let mut again = commit.clone();
    again.request = TrackingRequest {
        updated_at: at(3604),
        ..created.clone()
    };
    again.request_read_at = created.updated_at;
    again.next = None;
    for event in &mut again.transport_events {
        event.id = TransportEventId::new();
    }
    for event in &mut again.events {
        event.id = DomainEventId::new();
    }
    assert_eq!(
        store
            .commit_tracking(Some(&refresh), &again)
            .await
            .expect("commit"),
        CommitOutcome::Committed
    );
    let tracked = store
        .tracked(pending.id)
        .await
        .expect("read")
        .expect("tracked");
    assert_eq!(tracked.events, commit.transport_events);
    assert_eq!(
        store.domain_events(owner.id).await.expect("events"),
        by_id(&commit.events)
    );
}

pub async fn a_detected_carrier_that_makes_a_duplicate_is_refused(store: Arc<dyn Store>) {
    let owner = account(&store, "detect").await;
    let open = request(&owner, "bill_of_lading", "586118841", "MAEU", 0);
    store.insert_tracking_request(&open).await.expect("insert");
    let mut detecting = request(&owner, "bill_of_lading", "586118841", "MAEU", 1);
    detecting.scac = None;
    detecting.auto_detect_scac = true;
    store
        .insert_tracking_request(&detecting)
        .await
        .expect("no carrier yet, so no duplicate");
    let jobs = store
        .claim_due(JobKind::Lookup, 10, LEASE, at(5))
        .await
        .expect("claim");
    let job = jobs
        .iter()
        .find(|job| job.key == detecting.id.to_string())
        .expect("its lookup");
    let mut commit = found(&store, &detecting, &snapshot(&[]), 6).await;
    commit.request.scac = Some(Scac::parse("MAEU").expect("scac"));
    assert!(matches!(
        store.commit_tracking(Some(job), &commit).await,
        Err(StoreError::Duplicate { .. })
    ));
    assert!(store.tracked(detecting.id).await.expect("read").is_none());
}

pub async fn what_tracking_found_reads_back_by_id_filter_and_page(store: Arc<dyn Store>) {
    use tidemark_domain::{ContainerStatus, ReferenceKind};
    use tidemark_store::{ContainerFilter, PageRequest, ShipmentFilter, TimeRange};

    let owner = account(&store, "reader").await;
    let stranger = account(&store, "stranger").await;
    let pending = request(&owner, "bill_of_lading", "586118841", "MAEU", 0);
    store
        .insert_tracking_request(&pending)
        .await
        .expect("insert");
    let job = claim(&store, JobKind::Lookup, 1).await;
    let commit = found(
        &store,
        &pending,
        &snapshot(&[(Milestone::FullIn, 2), (Milestone::VesselLoaded, 3)]),
        4,
    )
    .await;
    store
        .commit_tracking(Some(&job), &commit)
        .await
        .expect("commit");
    let shipment = commit.shipment.clone().expect("shipment");
    let container = commit.containers[0].clone();
    let page = PageRequest {
        number: 1,
        size: 10,
    };

    assert_eq!(
        store.shipment(owner.id, shipment.id).await.expect("read"),
        Some(shipment.clone())
    );
    assert_eq!(
        store
            .shipment(stranger.id, shipment.id)
            .await
            .expect("read"),
        None
    );
    let list = |filter: ShipmentFilter| {
        let store = Arc::clone(&store);
        async move {
            store
                .list_shipments(owner.id, &filter, page)
                .await
                .expect("list")
                .total
        }
    };
    assert_eq!(list(ShipmentFilter::default()).await, 1);
    for (filter, expected) in [
        (
            ShipmentFilter {
                number: Some("586118841".into()),
                ..Default::default()
            },
            1,
        ),
        (
            ShipmentFilter {
                number: Some("999".into()),
                ..Default::default()
            },
            0,
        ),
        (
            ShipmentFilter {
                tracking_stopped: Some(false),
                ..Default::default()
            },
            1,
        ),
        (
            ShipmentFilter {
                tracking_stopped: Some(true),
                ..Default::default()
            },
            0,
        ),
        (
            ShipmentFilter {
                scac: vec![Scac::parse("MAEU").expect("scac")],
                ..Default::default()
            },
            1,
        ),
        (
            ShipmentFilter {
                pol_locode: vec!["CNSHA".into()],
                ..Default::default()
            },
            1,
        ),
        (
            ShipmentFilter {
                pod_locode: vec!["CNSHA".into(), "DEHAM".into()],
                ..Default::default()
            },
            0,
        ),
        (
            ShipmentFilter {
                pod_locode: vec!["NLRTM".into()],
                ..Default::default()
            },
            1,
        ),
        (
            ShipmentFilter {
                updated_at: TimeRange {
                    start: Some(at(5)),
                    end: None,
                },
                ..Default::default()
            },
            0,
        ),
    ] {
        assert_eq!(list(filter.clone()).await, expected, "{filter:?}");
    }
    assert_eq!(
        store
            .list_shipments(stranger.id, &ShipmentFilter::default(), page)
            .await
            .expect("list")
            .total,
        0
    );

    assert_eq!(
        store.container(owner.id, container.id).await.expect("read"),
        Some(container.clone())
    );
    assert_eq!(
        store
            .containers(owner.id, &[], &[shipment.id])
            .await
            .expect("read"),
        std::slice::from_ref(&container)
    );
    for (filter, expected) in [
        (ContainerFilter::default(), 1),
        (
            ContainerFilter {
                number: Some("MSKU1234565".into()),
                ..Default::default()
            },
            1,
        ),
        (
            ContainerFilter {
                current_status: vec![ContainerStatus::OnShip],
                ..Default::default()
            },
            1,
        ),
        (
            ContainerFilter {
                current_status: vec![ContainerStatus::Grounded],
                ..Default::default()
            },
            0,
        ),
    ] {
        assert_eq!(
            store
                .list_containers(owner.id, &filter, page)
                .await
                .expect("list")
                .total,
            expected,
            "{filter:?}"
        );
    }
    let events = store
        .list_transport_events(owner.id, container.id, PageRequest { number: 1, size: 1 })
        .await
        .expect("events");
    assert_eq!(events.total, 2);
    assert_eq!(
        events.items,
        [commit.transport_events[0].clone()],
        "oldest first"
    );
    assert_eq!(
        store
            .transport_events(owner.id, &[container.id])
            .await
            .expect("events"),
        commit.transport_events
    );
    assert!(
        store
            .transport_events(stranger.id, &[container.id])
            .await
            .expect("events")
            .is_empty()
    );

    let tags = vec!["blue".to_owned()];
    let updated = store
        .update_shipment(owner.id, shipment.id, None, Some(&tags), at(9))
        .await
        .expect("update")
        .expect("exists");
    assert_eq!(updated.tags, tags);
    assert_eq!(updated.ref_numbers, shipment.ref_numbers);
    assert_eq!(updated.updated_at, at(9));
    assert!(
        store
            .update_shipment(stranger.id, shipment.id, None, Some(&tags), at(9))
            .await
            .expect("update")
            .is_none()
    );

    let port = store
        .reference(ReferenceKind::Port, "nlrtm")
        .await
        .expect("read")
        .expect("learned");
    assert_eq!(port.name.as_deref(), Some("Port NLRTM"));
    assert_eq!(
        store
            .reference(ReferenceKind::Port, &port.id.to_string())
            .await
            .expect("read"),
        Some(port.clone())
    );
    let vessel = store
        .reference(ReferenceKind::Vessel, "9321483")
        .await
        .expect("read")
        .expect("learned");
    assert_eq!(vessel.name.as_deref(), Some("EMMA MAERSK"));
    let terminals = store
        .references(ReferenceKind::Terminal, &["TRM1".to_owned()])
        .await
        .expect("read");
    assert_eq!(terminals.len(), 1);
    assert_eq!(terminals[0].port_locode.as_deref(), Some("CNSHA"));
    assert_eq!(
        store
            .reference(ReferenceKind::Port, "ZZZZZ")
            .await
            .expect("read"),
        None
    );
}

/// Lookups that name the same ports, terminals and vessels commit side by side: the shared
/// reference rows never make one of them fail.
pub async fn concurrent_lookups_share_reference_rows(store: Arc<dyn Store>) {
    let owner = account(&store, "shared").await;
    let requests: Vec<TrackingRequest> = (0..8)
        .map(|i| request(&owner, "bill_of_lading", &format!("58611890{i}"), "MAEU", 0))
        .collect();
    for pending in &requests {
        store
            .insert_tracking_request(pending)
            .await
            .expect("insert");
    }
    let jobs = store
        .claim_due(JobKind::Lookup, 8, LEASE, at(1))
        .await
        .expect("claim");
    assert_eq!(jobs.len(), 8);
    let found_snapshot = snapshot(&[(Milestone::FullIn, 2)]);
    let mut tasks = Vec::new();
    for pending in &requests {
        let commit = found(&store, pending, &found_snapshot, 3).await;
        let job = jobs
            .iter()
            .find(|job| job.key == pending.id.to_string())
            .expect("a job per request")
            .clone();
        let store = Arc::clone(&store);
        tasks.push(tokio::spawn(async move {
            store.commit_tracking(Some(&job), &commit).await
        }));
    }
    for task in tasks {
        assert_eq!(
            task.await.expect("task").expect("commit"),
            CommitOutcome::Committed
        );
    }
    for pending in &requests {
        assert!(store.tracked(pending.id).await.expect("read").is_some());
    }
}
