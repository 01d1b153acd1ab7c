//! Conformance cases of what tracking writes: a lookup's commit is all or nothing, guarded
//! by the job's lease and the request's last change, and never duplicates an event.

use std::sync::Arc;

use tidemark_domain::lifecycle::{self, Next, Observation, Policy};
use tidemark_domain::tracking::Change;
use tidemark_domain::tracking::{self, Context};
use tidemark_domain::{
    Account, CallView, ClaimedJob, ContainerView, DomainEvent, JobKind, Milestone, MilestoneEvent,
    NewJob, Place, RequestStatus, Scac, Snapshot, TrackingRequest, TrackingSource, VesselRef,
};
use tidemark_store::{CommitOutcome, Store};

use super::{account, at, commit_request, request};

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
            raw_events: Vec::new(),
        }],
        shipment_events: Vec::new(),
    }
}

/// What the tracker would commit for `request` finding `snapshot` at `now`.
pub(super) async fn found(
    store: &Arc<dyn Store>,
    request: &TrackingRequest,
    snapshot: &Snapshot,
    now: i64,
) -> Change {
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
    Change {
        request: TrackingRequest {
            tracked_object: Some(changes.shipment.id.as_uuid()),
            ..next_request
        },
        request_read_at: request.updated_at,
        shipment: Some(changes.shipment.clone()),
        delta: changes.delta.clone(),
        events,
        next: Some(NewJob {
            kind: JobKind::Refresh,
            key: request.id.to_string(),
            due_at: at(now + 3600),
            if_absent: false,
        }),
        terminal_check: None,
        prediction: None,
        custom_fields: Vec::new(),
    }
}

/// A pending request of `owner` for `number`, inserted at `when - 3`, its lookup claimed at
/// `when - 2`, and what the tracker would commit for it finding `snapshot` at `when`: not
/// yet committed, for a case to change first.
pub(super) async fn looked_up(
    store: &Arc<dyn Store>,
    owner: &Account,
    number: &str,
    snapshot: &Snapshot,
    when: i64,
) -> (TrackingRequest, ClaimedJob, Change) {
    let pending = request(owner, "bill_of_lading", number, "MAEU", when - 3);
    super::insert(store, &pending).await;
    let job = claim(store, JobKind::Lookup, when - 2).await;
    let change = found(store, &pending, snapshot, when).await;
    (pending, job, change)
}

/// [`looked_up`], committed.
pub(super) async fn tracked(
    store: &Arc<dyn Store>,
    owner: &Account,
    number: &str,
    snapshot: &Snapshot,
    when: i64,
) -> (TrackingRequest, Change) {
    let (pending, job, change) = looked_up(store, owner, number, snapshot, when).await;
    super::committed(store, &job, &change).await;
    (pending, change)
}

/// Events in the order storage lists them: by time, then id.
pub(crate) fn by_id(events: &[DomainEvent]) -> Vec<DomainEvent> {
    let mut sorted = events.to_vec();
    sorted.sort_by_key(|event| (event.created_at, event.id));
    sorted
}

pub(super) async fn claim(store: &Arc<dyn Store>, kind: JobKind, now: i64) -> ClaimedJob {
    let mut jobs = super::claim_jobs(store, kind, 1, at(now)).await;
    assert_eq!(jobs.len(), 1, "one due job");
    jobs.remove(0)
}

pub async fn a_lookup_commit_writes_everything_at_once(store: Arc<dyn Store>) {
    let owner = account(&store, "tracking").await;
    let milestones = snapshot(&[(Milestone::EmptyOut, 1), (Milestone::FullIn, 2)]);
    let (pending, job, mut commit) = looked_up(&store, &owner, "586118841", &milestones, 3).await;
    // Every column of a container reads back, the terminal's last answer included.
    commit.delta.containers[0].terminal_checked_at = Some(at(2));
    super::committed(&store, &job, &commit).await;

    let created = super::stored(&store, &pending).await;
    assert_eq!(created, commit.request);
    assert_eq!(created.status, RequestStatus::Created);
    let tracked = super::now_tracked(&store, pending.id).await;
    assert_eq!(tracked.shipment, commit.shipment.clone().expect("shipment"));
    assert_eq!(tracked.containers, commit.delta.containers);
    assert_eq!(tracked.events, commit.delta.transport_events);
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
        super::claim_jobs(&store, JobKind::Lookup, 1, at(10))
            .await
            .is_empty(),
        "the lookup is done"
    );
    assert_eq!(
        store.next_due(JobKind::Refresh).await.expect("next"),
        Some(at(3603))
    );
    a_refresh_adds_only_what_is_new(&store, &owner, &created).await;
}

/// A refresh of `created` with one new milestone adds exactly that.
async fn a_refresh_adds_only_what_is_new(
    store: &Arc<dyn Store>,
    owner: &Account,
    created: &TrackingRequest,
) {
    let pending = created;
    let refresh = claim(store, JobKind::Refresh, 3603).await;
    let update = found(
        store,
        created,
        &snapshot(&[
            (Milestone::EmptyOut, 1),
            (Milestone::FullIn, 2),
            (Milestone::VesselLoaded, 50),
        ]),
        3604,
    )
    .await;
    assert_eq!(update.delta.transport_events.len(), 1);
    super::committed(store, &refresh, &update).await;
    let tracked = super::now_tracked(store, pending.id).await;
    assert_eq!(tracked.events.len(), 3);
    assert_eq!(
        store.domain_events(owner.id).await.expect("events").len(),
        4
    );
}

/// Neither the shipment nor any event of `pending` was written.
async fn nothing_was_tracked(store: &Arc<dyn Store>, owner: &Account, pending: &TrackingRequest) {
    assert!(store.tracked(pending.id).await.expect("read").is_none());
    assert!(
        store
            .domain_events(owner.id)
            .await
            .expect("events")
            .is_empty()
    );
}

pub async fn a_commit_with_a_lost_lease_writes_nothing(store: Arc<dyn Store>) {
    let owner = account(&store, "lease").await;
    let pending = request(&owner, "bill_of_lading", "586118841", "MAEU", 0);
    super::insert(&store, &pending).await;
    let stale = claim(&store, JobKind::Lookup, 1).await;
    // The lease runs out and another worker claims the job.
    let _current = claim(&store, JobKind::Lookup, 100).await;
    let commit = found(&store, &pending, &snapshot(&[(Milestone::FullIn, 2)]), 101).await;
    assert_eq!(
        super::commit(&store, &stale, &commit).await,
        CommitOutcome::LeaseLost
    );
    nothing_was_tracked(&store, &owner, &pending).await;
    let unchanged = super::stored(&store, &pending).await;
    assert_eq!(unchanged, pending);
}

pub async fn a_commit_after_the_request_changed_writes_nothing(store: Arc<dyn Store>) {
    let owner = account(&store, "conflict").await;
    let pending = request(&owner, "bill_of_lading", "586118841", "MAEU", 0);
    super::insert(&store, &pending).await;
    let job = claim(&store, JobKind::Lookup, 1).await;
    let commit = found(&store, &pending, &snapshot(&[(Milestone::FullIn, 2)]), 3).await;
    // Meanwhile the request changes (a client patch, say).
    let changed = TrackingRequest {
        updated_at: at(2),
        ..pending.clone()
    };
    commit_request(store.as_ref(), &pending, changed).await;
    assert_eq!(
        super::commit(&store, &job, &commit).await,
        CommitOutcome::Conflict
    );
    nothing_was_tracked(&store, &owner, &pending).await;
}
