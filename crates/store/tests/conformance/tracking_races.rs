//! Conformance cases of commits that race: concurrent commits, events recorded once, a detected carrier that makes a duplicate, a terminal check and a lookup.

use std::sync::Arc;

use tidemark_domain::tracking::Change;
use tidemark_domain::{
    ClaimedJob, DomainEventId, JobKind, Milestone, NewJob, Scac, TrackingRequest, TransportEventId,
};
use tidemark_store::{CommitOutcome, Store, StoreError};

use super::tracking::{by_id, claim, found, snapshot, tracked};
use super::{account, at, commit_request, request};

/// Lookups committed at the same moment (SQLite groups them into one transaction) stand
/// or fall alone: one whose request changed meanwhile writes nothing, the others commit.
pub async fn concurrent_commits_stand_or_fall_alone(store: Arc<dyn Store>) {
    let owner = account(&store, "concurrent").await;
    let requests: Vec<TrackingRequest> = ["586118841", "586118842", "586118843"]
        .iter()
        .map(|number| request(&owner, "bill_of_lading", number, "MAEU", 0))
        .collect();
    for pending in &requests {
        super::insert(&store, pending).await;
    }
    let jobs = super::claim_jobs(&store, JobKind::Lookup, 3, at(1)).await;
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
    let changed = TrackingRequest {
        updated_at: at(2),
        ..requests[1].clone()
    };
    commit_request(store.as_ref(), &requests[1], changed).await;

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
    let milestones = snapshot(&[(Milestone::FullIn, 2)]);
    let (pending, commit) = tracked(&store, &owner, "586118841", &milestones, 3).await;
    // The same facts again under new ids, as a repeated answer would produce them.
    let created = super::stored(&store, &pending).await;
    let refresh = claim(&store, JobKind::Refresh, 3603).await;
    let mut again = commit.clone();
    again.request = TrackingRequest {
        updated_at: at(3604),
        ..created.clone()
    };
    again.request_read_at = created.updated_at;
    again.next = None;
    for event in &mut again.delta.transport_events {
        event.id = TransportEventId::new();
    }
    for event in &mut again.events {
        event.id = DomainEventId::new();
    }
    super::committed(&store, &refresh, &again).await;
    let tracked = super::now_tracked(&store, pending.id).await;
    assert_eq!(tracked.events, commit.delta.transport_events);
    assert_eq!(
        store.domain_events(owner.id).await.expect("events"),
        by_id(&commit.events)
    );
}

pub async fn a_detected_carrier_that_makes_a_duplicate_is_refused(store: Arc<dyn Store>) {
    let owner = account(&store, "detect").await;
    let open = request(&owner, "bill_of_lading", "586118841", "MAEU", 0);
    super::insert(&store, &open).await;
    let mut detecting = request(&owner, "bill_of_lading", "586118841", "MAEU", 1);
    detecting.scac = None;
    detecting.auto_detect_scac = true;
    store
        .insert_tracking_request(&detecting)
        .await
        .expect("no carrier yet, so no duplicate");
    let jobs = super::claim_jobs(&store, JobKind::Lookup, 10, at(5)).await;
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

/// A terminal check that changed nothing but when the terminal was checked leaves the
/// request as it was; a lookup read before it then commits without a conflict, and keeps
/// the check's time and the terminal's subscription instead of taking them back.
pub async fn a_lookup_read_before_a_check_keeps_when_the_terminal_was_checked(
    store: Arc<dyn Store>,
) {
    let owner = account(&store, "checked").await;
    let found_now = snapshot(&[(Milestone::FullIn, 2)]);
    let (pending, _) = tracked(&store, &owner, "586118841", &found_now, 10).await;
    let request = super::stored(&store, &pending).await;
    let job = claim(&store, JobKind::Refresh, 3700).await;
    // The line has news of the boxes: the lookup writes them again.
    let news = snapshot(&[(Milestone::FullIn, 2), (Milestone::VesselLoaded, 3)]);
    let lookup = found(&store, &request, &news, 3701).await;
    assert!(
        !lookup.delta.containers.is_empty(),
        "the lookup writes the containers"
    );

    let mut check = terminal_check(&store, &request, 3700).await;
    for container in &mut check.delta.containers {
        container.terminal_subscribed_until = Some(at(90_000));
    }
    assert_eq!(
        store.commit_tracking(None, &check).await.expect("check"),
        CommitOutcome::Committed
    );
    assert_eq!(
        super::commit(&store, &job, &lookup).await,
        CommitOutcome::Committed,
        "the check left the request as it was"
    );
    let after = super::now_tracked(&store, request.id).await;
    assert!(!after.containers.is_empty());
    for container in &after.containers {
        assert_eq!(container.terminal_checked_at, Some(at(3700)));
        assert_eq!(container.terminal_subscribed_until, Some(at(90_000)));
    }
}

/// A lookup and a terminal check of one request, committed at the same moment as their
/// workers do, each stand or fall whole and neither fails on the other's locks: on
/// PostgreSQL the check used to lock its job before the request and the lookup the
/// request before that job, and one of them died of a deadlock. (The PostgreSQL driver
/// now also writes a unit cancelled for a deadlock again, which `contention.rs` tests;
/// here none may have been.)
pub async fn a_lookup_and_a_terminal_check_committed_at_once_never_deadlock(store: Arc<dyn Store>) {
    let owner = account(&store, "deadlock").await;
    let found_now = snapshot(&[(Milestone::FullIn, 2)]);
    let news = snapshot(&[(Milestone::FullIn, 2), (Milestone::VesselLoaded, 3)]);
    for round in 0..16 {
        let (pending, _) = tracked(
            &store,
            &owner,
            &format!("5861190{round:02}"),
            &found_now,
            10,
        )
        .await;
        let request = super::stored(&store, &pending).await;
        let check_job = |if_absent, due_at| NewJob {
            kind: JobKind::TerminalCheck,
            key: pending.id.to_string(),
            due_at,
            if_absent,
        };
        store
            .schedule_job(&check_job(false, at(3600)))
            .await
            .expect("schedule");
        let ours = |jobs: Vec<ClaimedJob>| {
            jobs.into_iter()
                .find(|job| job.key == pending.id.to_string())
                .expect("the request's job")
        };
        let refresh = ours(super::claim_jobs(&store, JobKind::Refresh, 100, at(3700)).await);
        let checking = ours(super::claim_jobs(&store, JobKind::TerminalCheck, 100, at(3700)).await);
        let mut lookup = found(&store, &request, &news, 3701).await;
        lookup.terminal_check = Some(check_job(true, at(3701)));
        let mut check = terminal_check(&store, &request, 3700).await;
        check.terminal_check = Some(check_job(false, at(7300)));
        let (looked, checked) = tokio::join!(
            store.commit_tracking(Some(&refresh), &lookup),
            store.commit_tracking(Some(&checking), &check),
        );
        let outcomes = (looked.expect("the lookup"), checked.expect("the check"));
        assert!(
            outcomes.0 == CommitOutcome::Committed || outcomes.1 == CommitOutcome::Committed,
            "round {round}: {outcomes:?}"
        );
    }
    assert_eq!(
        store.writes_retried(),
        0,
        "no unit was cancelled for a deadlock and written again"
    );
}

/// What a terminal check of `request` that changed nothing but when the terminal was
/// checked commits: each container as stored, checked at `seconds`.
async fn terminal_check(store: &Arc<dyn Store>, request: &TrackingRequest, seconds: i64) -> Change {
    let mut containers = store
        .tracked(request.id)
        .await
        .expect("read")
        .expect("tracked")
        .containers;
    for container in &mut containers {
        container.terminal_checked_at = Some(at(seconds));
    }
    let mut change = Change::to(request, request.clone());
    change.delta.containers = containers;
    change
}
