//! Conformance cases of lease renewal: work whose lease is renewed stays held past the
//! lease's first end, and lapses one lease after the last renewal (a process that died).

use std::sync::Arc;
use std::time::Duration;

use tidemark_domain::{JobKind, NewJob};
use tidemark_store::Store;

use super::deliveries::three_events;
use super::webhooks::subscribe;
use super::{account, at};

const LEASE: Duration = Duration::from_secs(5);

pub async fn renewed_job_leases_hold_and_lapse_a_lease_after_the_last_renewal(
    store: Arc<dyn Store>,
) {
    for key in ["a", "b"] {
        let job = NewJob {
            kind: JobKind::Lookup,
            key: key.to_owned(),
            due_at: at(0),
            if_absent: false,
        };
        store.schedule_job(&job).await.expect("scheduled");
    }
    let held = store
        .claim_due(JobKind::Lookup, 1, LEASE, at(0))
        .await
        .expect("claim");
    let other = store
        .claim_due(JobKind::Lookup, 1, LEASE, at(0))
        .await
        .expect("claim");
    // Renewed at 4 s, so held until 9 s; the other job was not.
    assert_eq!(
        store
            .renew_job_leases(&[held[0].lease_token], at(4) + LEASE)
            .await
            .expect("renew"),
        1
    );
    let at_six = store
        .claim_due(JobKind::Lookup, 10, LEASE, at(6))
        .await
        .expect("claim");
    assert_eq!(at_six.len(), 1, "only the job not renewed lapsed");
    assert_eq!(at_six[0].key, other[0].key);
    assert_eq!(
        store
            .renew_job_leases(&[other[0].lease_token], at(6) + LEASE)
            .await
            .expect("renew"),
        0,
        "a lost lease is not renewed"
    );
    let at_nine = store
        .claim_due(JobKind::Lookup, 10, LEASE, at(9))
        .await
        .expect("claim");
    assert_eq!(at_nine.len(), 1, "lapsed a lease after its last renewal");
    assert_eq!(at_nine[0].key, held[0].key);
    assert!(
        !store.complete_job(&held[0]).await.expect("complete"),
        "lost"
    );
}

pub async fn renewed_delivery_leases_hold_and_lapse_a_lease_after_the_last_renewal(
    store: Arc<dyn Store>,
) {
    let owner = account(&store, "leases").await;
    subscribe(&store, &owner, &[], true).await;
    three_events(&store, &owner, "586118841", 3).await;
    let held = store
        .claim_notifications(3, 100, LEASE, at(3))
        .await
        .expect("claim");
    assert_eq!(held.len(), 3);
    let token = held[0].lease_token;
    assert!(held.iter().all(|claimed| claimed.lease_token == token));
    assert_eq!(
        store
            .renew_notification_leases(&[token], at(7) + LEASE)
            .await
            .expect("renew"),
        3
    );
    assert!(
        store
            .claim_notifications(10, 100, LEASE, at(11))
            .await
            .expect("claim")
            .is_empty(),
        "still held at 11 s: renewed at 7 s"
    );
    assert_eq!(
        store
            .claim_notifications(10, 100, LEASE, at(12))
            .await
            .expect("claim")
            .len(),
        3,
        "claimable again a lease after the last renewal"
    );
}
