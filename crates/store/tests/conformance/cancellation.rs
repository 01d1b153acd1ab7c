//! A write whose caller goes away mid-way (a client that disconnects, a timeout) is
//! finished all the same, and the connection it used is ready for the next write: nothing
//! it began is left open. The store has one connection, so every write reuses the one the
//! abandoned write had; another store reads what was committed.

use std::future::Future;
use std::sync::Arc;
use std::task::Poll;
use std::time::Duration;

use tidemark_domain::{Account, CompanyName, Party, TrackingRequest};
use tidemark_store::testing::{Backend, TestDatabase};
use tidemark_store::{ConnectOptions, Store, StoreError};

use crate::{account, request};

async fn with_database<F, Fut>(backend: Backend, case: F)
where
    F: FnOnce(TestDatabase) -> Fut,
    Fut: Future<Output = ()>,
{
    case(TestDatabase::create(backend).await).await;
}

tidemark_store::backends!(
    with_database,
    a_write_abandoned_by_its_caller_is_finished_and_leaves_nothing_open,
);

/// Whether `read` finds what it reads, within a few seconds (another store: what was
/// committed).
async fn committed<T, F, Fut>(read: F) -> bool
where
    F: Fn() -> Fut,
    Fut: Future<Output = Result<Option<T>, StoreError>>,
{
    let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
    loop {
        if read().await.expect("read").is_some() {
            return true;
        }
        if tokio::time::Instant::now() > deadline {
            return false;
        }
        tokio::task::yield_now().await;
    }
}

fn numbered(owner: &Account, number: u32) -> TrackingRequest {
    request(
        owner,
        "bill_of_lading",
        &format!("MAEU{number:09}"),
        "MAEU",
        i64::from(number),
    )
}

async fn a_write_abandoned_by_its_caller_is_finished_and_leaves_nothing_open(
    database: TestDatabase,
) {
    let options = ConnectOptions {
        max_connections: 1,
        ..database.options.clone()
    };
    let store: Arc<dyn Store> = tidemark_store::connect(&options).await.expect("opens");
    let other = database.connect().await;
    let owner = account(&store, "acme").await;
    let mut abandoned_writes = Vec::new();
    for round in 0..20 {
        let abandoned = numbered(&owner, round * 2);
        {
            // Polled a few times (as many as the round says), so its work has begun, then
            // dropped wherever it stands: before, during or after its `BEGIN`.
            let mut write = std::pin::pin!(store.insert_tracking_request(&abandoned));
            for _ in 0..=round % 5 {
                let polled = std::future::poll_fn(|cx| Poll::Ready(write.as_mut().poll(cx)));
                if polled.await.is_ready() {
                    break;
                }
                tokio::task::yield_now().await;
            }
        }
        // A write of one statement, which commits by itself: on a connection left inside
        // a transaction it would not.
        let name = CompanyName::parse(&format!("Customer {round}")).expect("a name");
        let next = Party::new(owner.id, name, crate::at(i64::from(round)));
        store.create_party(&next).await.expect("written");
        assert!(
            committed(|| other.party(owner.id, next.id)).await,
            "round {round}: the next write committed"
        );
        abandoned_writes.push(abandoned);
    }
    for (round, abandoned) in abandoned_writes.iter().enumerate() {
        assert!(
            committed(|| other.tracking_request(owner.id, abandoned.id)).await,
            "round {round}: the abandoned write finished"
        );
    }
}
