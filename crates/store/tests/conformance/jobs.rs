//! Conformance cases of the job queue (both backends run them through `backends!`).

use std::sync::Arc;

use tidemark_domain::{JobKind, NewJob};
use tidemark_store::{Store, StoreError};

use super::{account, at, request};

fn job(key: &str, due: i64) -> NewJob {
    NewJob {
        kind: JobKind::Lookup,
        key: key.to_owned(),
        due_at: at(due),
        if_absent: false,
    }
}

pub async fn due_jobs_are_claimed_once_oldest_first(store: Arc<dyn Store>) {
    for (key, due) in [("c", 30), ("a", 10), ("b", 20)] {
        store.schedule_job(&job(key, due)).await.expect("scheduled");
    }
    store
        .schedule_job(&NewJob {
            kind: JobKind::Refresh,
            ..job("a", 0)
        })
        .await
        .expect("another kind, same key");
    assert_eq!(
        store.next_due(JobKind::Lookup).await.expect("next"),
        Some(at(10))
    );
    let first = super::claim_jobs(&store, JobKind::Lookup, 10, at(25)).await;
    let keys: Vec<&str> = first.iter().map(|j| j.key.as_str()).collect();
    assert_eq!(keys, ["a", "b"], "due ones, oldest first");
    assert!(
        first
            .iter()
            .all(|j| j.attempts == 1 && j.lease_until == at(55))
    );
    assert!(
        super::claim_jobs(&store, JobKind::Lookup, 10, at(25))
            .await
            .is_empty(),
        "held jobs are not claimed twice"
    );
    let limited = super::claim_jobs(&store, JobKind::Lookup, 1, at(40)).await;
    assert_eq!(limited.len(), 1);
    assert_eq!(limited[0].key, "c");
    for held in first.iter().chain(&limited) {
        assert!(store.complete_job(held).await.expect("complete"));
    }
    assert_eq!(store.next_due(JobKind::Lookup).await.expect("next"), None);
    let refresh = super::claim_jobs(&store, JobKind::Refresh, 10, at(0)).await;
    assert_eq!(refresh.len(), 1, "kinds are separate queues");
}

pub async fn scheduling_is_idempotent_and_keeps_the_earlier_time(store: Arc<dyn Store>) {
    let id = store.schedule_job(&job("r1", 50)).await.expect("scheduled");
    let if_absent = |key: &str, due| NewJob {
        if_absent: true,
        ..job(key, due)
    };
    assert_eq!(
        store
            .schedule_job(&if_absent("r1", 10))
            .await
            .expect("again"),
        id
    );
    assert_eq!(
        store.next_due(JobKind::Lookup).await.expect("next"),
        Some(at(50)),
        "an existing job keeps its time"
    );
    assert_ne!(
        store
            .schedule_job(&if_absent("r2", 500))
            .await
            .expect("new"),
        id,
        "an absent one is scheduled"
    );
    assert_eq!(store.schedule_job(&job("r1", 20)).await.expect("again"), id);
    assert_eq!(store.schedule_job(&job("r1", 80)).await.expect("again"), id);
    assert_eq!(
        store.next_due(JobKind::Lookup).await.expect("next"),
        Some(at(20))
    );
    let claimed = super::claim_jobs(&store, JobKind::Lookup, 10, at(100)).await;
    assert_eq!(claimed.len(), 1, "one job however often it was scheduled");
}

pub async fn an_expired_lease_makes_a_job_claimable_again(store: Arc<dyn Store>) {
    store
        .schedule_job(&job("crash", 0))
        .await
        .expect("scheduled");
    let crashed = super::claim_jobs(&store, JobKind::Lookup, 1, at(0)).await;
    assert_eq!(crashed.len(), 1);
    assert_eq!(
        store.next_due(JobKind::Lookup).await.expect("next"),
        Some(at(30)),
        "lease end"
    );
    assert!(
        super::claim_jobs(&store, JobKind::Lookup, 1, at(29))
            .await
            .is_empty()
    );
    let retaken = super::claim_jobs(&store, JobKind::Lookup, 1, at(30)).await;
    assert_eq!(retaken.len(), 1);
    assert_eq!(retaken[0].attempts, 2);
    assert_ne!(retaken[0].lease_token, crashed[0].lease_token);
    assert!(
        !store.complete_job(&crashed[0]).await.expect("stale"),
        "the old holder lost it"
    );
    assert!(
        !store
            .reschedule_job(&crashed[0], at(99))
            .await
            .expect("stale")
    );
    assert!(store.complete_job(&retaken[0]).await.expect("complete"));
    assert_eq!(store.next_due(JobKind::Lookup).await.expect("next"), None);

    // A held job ahead of a free one: the earlier of its lease's end and the free one.
    store.schedule_job(&job("held", 100)).await.expect("held");
    store.schedule_job(&job("free", 200)).await.expect("free");
    let held = super::claim_jobs(&store, JobKind::Lookup, 1, at(100)).await;
    assert_eq!(held.len(), 1);
    assert_eq!(
        store.next_due(JobKind::Lookup).await.expect("next"),
        Some(at(130)),
        "the lease ends first"
    );
    store
        .schedule_job(&job("sooner", 110))
        .await
        .expect("sooner");
    assert_eq!(
        store.next_due(JobKind::Lookup).await.expect("next"),
        Some(at(110)),
        "a free job due before the lease ends"
    );
}

pub async fn rescheduling_releases_a_job_for_later(store: Arc<dyn Store>) {
    store
        .schedule_job(&job("retry", 0))
        .await
        .expect("scheduled");
    let held = super::claim_jobs(&store, JobKind::Lookup, 1, at(0)).await;
    assert!(
        store
            .reschedule_job(&held[0], at(600))
            .await
            .expect("reschedule")
    );
    assert_eq!(
        store.next_due(JobKind::Lookup).await.expect("next"),
        Some(at(600))
    );
    assert!(
        super::claim_jobs(&store, JobKind::Lookup, 1, at(599))
            .await
            .is_empty()
    );
    let again = super::claim_jobs(&store, JobKind::Lookup, 1, at(600)).await;
    assert_eq!(again[0].attempts, 2);
}

pub async fn a_job_scheduled_again_while_held_is_not_lost(store: Arc<dyn Store>) {
    store
        .schedule_job(&job("busy", 0))
        .await
        .expect("scheduled");
    let held = super::claim_jobs(&store, JobKind::Lookup, 1, at(0)).await;
    store
        .schedule_job(&job("busy", 100))
        .await
        .expect("scheduled while held");
    assert!(
        super::claim_jobs(&store, JobKind::Lookup, 1, at(10))
            .await
            .is_empty(),
        "still held"
    );
    assert!(store.complete_job(&held[0]).await.expect("complete"));
    assert_eq!(
        store.next_due(JobKind::Lookup).await.expect("next"),
        Some(at(100))
    );
    let later = super::claim_jobs(&store, JobKind::Lookup, 1, at(100)).await;
    assert_eq!(later.len(), 1, "the new schedule survived");
}

pub async fn concurrent_claims_never_share_a_job(store: Arc<dyn Store>) {
    for i in 0..120 {
        store
            .schedule_job(&job(&format!("j{i:03}"), i))
            .await
            .expect("scheduled");
    }
    let workers: Vec<_> = (0..6)
        .map(|_| {
            let store = Arc::clone(&store);
            tokio::spawn(async move {
                let mut mine = Vec::new();
                loop {
                    let batch = super::claim_jobs(&store, JobKind::Lookup, 7, at(1_000)).await;
                    if batch.is_empty() {
                        return mine;
                    }
                    mine.extend(batch.into_iter().map(|j| j.key));
                }
            })
        })
        .collect();
    let mut all = Vec::new();
    for worker in workers {
        all.extend(worker.await.expect("worker"));
    }
    let total = all.len();
    all.sort();
    all.dedup();
    assert_eq!(
        (total, all.len()),
        (120, 120),
        "every job claimed exactly once"
    );
}

pub async fn a_new_request_queues_its_first_lookup_with_it(store: Arc<dyn Store>) {
    let owner = account(&store, "queue").await;
    let first = request(&owner, "bill_of_lading", "586118841", "MAEU", 5);
    super::insert(&store, &first).await;
    let twin = request(&owner, "bill_of_lading", "586118841", "MAEU", 6);
    assert!(matches!(
        store.insert_tracking_request(&twin).await,
        Err(StoreError::Duplicate { .. })
    ));
    assert_eq!(
        store.next_due(JobKind::Lookup).await.expect("next"),
        Some(first.created_at)
    );
    let jobs = super::claim_jobs(&store, JobKind::Lookup, 10, first.created_at).await;
    let keys: Vec<String> = jobs.iter().map(|j| j.key.clone()).collect();
    assert_eq!(
        keys,
        [first.id.to_string()],
        "one lookup, for the admitted request only"
    );
}
