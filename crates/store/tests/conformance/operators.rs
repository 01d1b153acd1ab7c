//! What operators and the console count: the gauges of `/metrics` across accounts (requests
//! by status, boxes on hold, boxes past their last free day, the oldest delivery owed) and
//! a webhook's delivery outcomes.

use std::sync::Arc;

use tidemark_domain::terminal::{Hold, HoldName, HoldStatus, LastFreeDays, TerminalView};
use tidemark_domain::webhook::Settlement;
use tidemark_domain::{ContainerStatus, Milestone, RequestStatus};
use tidemark_store::Store;

use super::deliveries::{attempt, settle, three_events};
use super::tracking::{looked_up, snapshot};
use super::webhooks::subscribe;
use super::{account, at};

/// Held by customs, released by the terminal's flag, its last free day at `lfd` seconds.
fn held(lfd: i64) -> TerminalView {
    TerminalView {
        availability_known: true,
        available_for_pickup: Some(true),
        holds: vec![Hold {
            name: HoldName::Customs,
            status: HoldStatus::Hold,
            description: None,
        }],
        last_free_days: LastFreeDays {
            terminal: Some(at(lfd)),
            ..LastFreeDays::default()
        },
        ..TerminalView::default()
    }
}

pub async fn the_gauges_count_boxes_as_they_stand_across_accounts(store: Arc<dyn Store>) {
    let empty = store.gauges(at(0)).await.expect("gauges");
    assert_eq!(empty.containers_on_hold, 0);
    assert_eq!(empty.oldest_pending_delivery, None);
    assert!(empty.requests.iter().all(|(_, n)| *n == 0));
    assert_eq!(
        empty.requests.len(),
        RequestStatus::ALL.len(),
        "every status told"
    );

    let discharged = snapshot(&[(Milestone::VesselDischarged, 2)]);
    for (name, number, status) in [
        ("gauges-held", "586118841", ContainerStatus::NotAvailable),
        ("gauges-gone", "586118842", ContainerStatus::PickedUp),
    ] {
        let owner = account(&store, name).await;
        let (_, job, mut commit) = looked_up(&store, &owner, number, &discharged, 3).await;
        commit.delta.containers[0].terminal = held(1_000);
        commit.delta.containers[0].current_status = status;
        super::committed(&store, &job, &commit).await;
    }
    let before = store.gauges(at(500)).await.expect("gauges");
    assert_eq!(
        before.containers_on_hold, 1,
        "the box that left is held by nothing"
    );
    assert_eq!(before.containers_past_last_free_day, 0);
    let after = store.gauges(at(1_500)).await.expect("gauges");
    assert_eq!(
        after.containers_past_last_free_day, 1,
        "past its last free day while still at the terminal; the one that left is not"
    );
    let created = after
        .requests
        .iter()
        .find(|(status, _)| *status == RequestStatus::Created)
        .map(|(_, n)| *n);
    assert_eq!(created, Some(2), "across accounts");
}

pub async fn a_webhooks_delivery_outcomes_count_what_was_attempted(store: Arc<dyn Store>) {
    let owner = account(&store, "outcomes").await;
    let webhook = subscribe(&store, &owner, &[], true).await;
    three_events(&store, &owner, "586118841", 3).await;
    let none = store
        .delivery_outcomes(owner.id, webhook)
        .await
        .expect("read");
    assert_eq!((none.attempted, none.failing()), (0, 0));
    assert!(!none.failing_every_delivery());
    let oldest = store
        .gauges(at(10))
        .await
        .expect("gauges")
        .oldest_pending_delivery;
    assert_eq!(oldest, Some(at(3)), "owed since its event");

    let claimed = super::claim_deliveries(&store, 10, 100, at(10)).await;
    assert_eq!(claimed.len(), 3);
    for notification in &claimed {
        let retry = Settlement::Retry(at(100));
        assert!(
            settle(
                &store,
                notification,
                attempt(at(11), Some(503)),
                retry,
                at(0)
            )
            .await
        );
    }
    let failing = store
        .delivery_outcomes(owner.id, webhook)
        .await
        .expect("read");
    assert_eq!((failing.attempted, failing.failing()), (3, 3));
    assert!(failing.failing_every_delivery());

    let again = super::claim_deliveries(&store, 10, 100, at(100)).await;
    let delivered = settle(
        &store,
        &again[0],
        attempt(at(101), Some(200)),
        Settlement::Succeeded,
        at(0),
    );
    assert!(delivered.await);
    let mended = store
        .delivery_outcomes(owner.id, webhook)
        .await
        .expect("read");
    assert_eq!(
        (mended.attempted, mended.delivered, mended.failing()),
        (3, 1, 2)
    );
    assert!(!mended.failing_every_delivery());
    let other = account(&store, "outcomes-other").await;
    let theirs = store
        .delivery_outcomes(other.id, webhook)
        .await
        .expect("read");
    assert_eq!(
        theirs.attempted, 0,
        "another account's webhook is not counted"
    );
}

/// SQLite at its size limit (`sqlite_max_bytes`, refused as on a full disk): writes are
/// refused as `StorageFull` and counted, reads go on, and the store says it is full.
/// SQLite only: PostgreSQL's `disk_full` is its server's to raise.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_sqlite_database_refuses_writes_and_keeps_reading() {
    use tidemark_domain::{Account, AccountId, AccountName};
    use tidemark_store::testing::{Backend, TestDatabase};

    let mut database = TestDatabase::create(Backend::Sqlite).await;
    // No larger than it is once migrated: the first write that needs a page is refused.
    database.options.sqlite_max_bytes = Some(1);
    let store = database.connect().await;
    assert!(!store.storage_full());
    let mut written = 0;
    let refused = loop {
        let account = Account {
            id: AccountId::new(),
            name: AccountName::parse(&format!("full-{written}")).expect("a name"),
            created_at: at(0),
        };
        match store.create_account(&account).await {
            Ok(()) => written += 1,
            Err(error) => break error,
        }
        assert!(written < 10_000, "never refused");
    };
    assert!(refused.is_storage_full(), "{refused}");
    assert!(store.storage_full());
    assert!(store.storage_refusals() >= 1);
    let listed = store.list_accounts().await.expect("reads go on");
    assert_eq!(listed.len(), written);
}
