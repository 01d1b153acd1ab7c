//! PostgreSQL alone: a transaction PostgreSQL cancels to break a deadlock with another
//! client is written again, so the caller sees its outcome rather than the deadlock.

use std::time::{Duration, Instant};

use sqlx::{Connection, PgConnection};
use tidemark_domain::{JobKind, Milestone};
use tidemark_store::CommitOutcome;
use tidemark_store::testing::{Backend, TestDatabase};

use super::account;
use super::tracking::{claim, found, snapshot, tracked};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    not(tidemark_postgres_tests),
    ignore = "set TIDEMARK_TEST_DATABASE_URL to run the PostgreSQL suite"
)]
async fn a_commit_that_loses_a_deadlock_is_written_again() {
    let database = TestDatabase::create(Backend::Postgres).await;
    let store = database.connect().await;
    let owner = account(&store, "contention").await;
    let (pending, _) = tracked(
        &store,
        &owner,
        "586118841",
        &snapshot(&[(Milestone::FullIn, 2)]),
        10,
    )
    .await;
    let request = super::stored(&store, &pending).await;
    let job = claim(&store, JobKind::Refresh, 3700).await;
    let news = snapshot(&[(Milestone::FullIn, 2), (Milestone::VesselLoaded, 3)]);
    let lookup = found(&store, &request, &news, 3701).await;

    // Another client holds the lookup's job row; it waits longest before it looks for a
    // deadlock, so PostgreSQL cancels the lookup's transaction, not this one.
    let mut other = PgConnection::connect(&database.options.url)
        .await
        .expect("connect");
    sqlx::raw_sql("SET deadlock_timeout = '60s'; BEGIN")
        .execute(&mut other)
        .await
        .expect("begin");
    sqlx::query("UPDATE jobs SET due_at = due_at WHERE id = $1")
        .bind(job.id.as_uuid())
        .execute(&mut other)
        .await
        .expect("lock the job");
    let committing = {
        let (store, job, lookup) = (store.clone(), job.clone(), lookup.clone());
        tokio::spawn(async move { store.commit_tracking(Some(&job), &lookup).await })
    };
    // The lookup holds the request's row and waits for the job's.
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let waiting: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM pg_stat_activity \
             WHERE datname = current_database() AND wait_event_type = 'Lock'",
        )
        .fetch_one(&mut other)
        .await
        .expect("activity");
        if waiting > 0 {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the lookup never waited for the job"
        );
        tokio::task::yield_now().await;
    }
    // This client now wants the request's row: a deadlock, which cancels the lookup.
    sqlx::query("UPDATE tracking_requests SET updated_at = updated_at WHERE id = $1")
        .bind(request.id.as_uuid())
        .execute(&mut other)
        .await
        .expect("the request, once the lookup gave it up");
    sqlx::raw_sql("COMMIT")
        .execute(&mut other)
        .await
        .expect("commit");

    let outcome = committing.await.expect("joined");
    assert_eq!(outcome.expect("written again"), CommitOutcome::Committed);
    // Counted, for /metrics. Once, or twice when the first rewrite takes the request's row
    // before this client does and meets it again (a second deadlock, also rewritten).
    let retried = store.writes_retried();
    assert!(
        (1..=2).contains(&retried),
        "counted, for /metrics: {retried}"
    );
    let after = super::now_tracked(&store, request.id).await;
    assert!(!lookup.delta.transport_events.is_empty());
    for event in &lookup.delta.transport_events {
        assert!(
            after.events.iter().any(|kept| kept.id == event.id),
            "{event:?}"
        );
    }
}
