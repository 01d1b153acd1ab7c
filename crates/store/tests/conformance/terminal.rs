//! Conformance cases of a container's terminal view (api.md §4a): it reads back whole,
//! and the container lists filter on what the domain derives from it.

use std::sync::Arc;

use tidemark_domain::terminal::{
    Amount, Currency, Fee, FeeType, Hold, HoldName, HoldStatus, LastFreeDays, TerminalView,
};
use tidemark_domain::{ContainerStatus, Milestone};
use tidemark_store::{CommitOutcome, ContainerFilter, Store, TimeRange};

use super::tracking::{looked_up, snapshot};
use super::{account, at, page};

/// Held at the terminal, its line's last free day at `lfd` seconds.
fn held(lfd: i64) -> TerminalView {
    TerminalView {
        availability_known: true,
        available_for_pickup: Some(false),
        holds: vec![Hold {
            name: HoldName::Customs,
            status: HoldStatus::Hold,
            description: Some("Selected for exam".to_owned()),
        }],
        fees: vec![Fee {
            kind: FeeType::Exam,
            amount: Amount::parse("212.50").expect("amount"),
            currency: Currency::parse("USD").expect("currency"),
        }],
        last_free_days: LastFreeDays {
            line: Some(at(lfd)),
            terminal: Some(at(lfd - 100)),
            rail: None,
        },
        location: Some("Row 12 Bay 4 Tier 2".to_owned()),
        ..TerminalView::default()
    }
}

/// Filters of the container held by [`held`]`(1_000)`, each with how many it finds.
fn filters() -> Vec<(ContainerFilter, u64)> {
    let lfd = |start: i64, end: i64| TimeRange {
        start: Some(at(start)),
        end: Some(at(end)),
    };
    vec![
        (ContainerFilter::default(), 1),
        (
            ContainerFilter {
                available_for_pickup: Some(false),
                ..ContainerFilter::default()
            },
            1,
        ),
        (
            ContainerFilter {
                available_for_pickup: Some(true),
                ..ContainerFilter::default()
            },
            0,
        ),
        (
            ContainerFilter {
                has_holds: Some(true),
                ..ContainerFilter::default()
            },
            1,
        ),
        (
            ContainerFilter {
                has_holds: Some(false),
                ..ContainerFilter::default()
            },
            0,
        ),
        (
            // The line's last free day counts, not the terminal's earlier one.
            ContainerFilter {
                pickup_lfd: lfd(950, 1_050),
                ..ContainerFilter::default()
            },
            1,
        ),
        (
            ContainerFilter {
                pickup_lfd: lfd(850, 950),
                ..ContainerFilter::default()
            },
            0,
        ),
        (
            ContainerFilter {
                current_status: vec![ContainerStatus::NotAvailable],
                ..ContainerFilter::default()
            },
            1,
        ),
    ]
}

pub async fn terminal_views_read_back_and_the_lists_filter_on_them(store: Arc<dyn Store>) {
    let owner = account(&store, "terminal").await;
    let milestones = snapshot(&[(Milestone::VesselDischarged, 2)]);
    let (_, job, mut commit) = looked_up(&store, &owner, "586118841", &milestones, 3).await;
    commit.delta.containers[0].terminal = held(1_000);
    commit.delta.containers[0].current_status = ContainerStatus::NotAvailable;
    commit.delta.containers[0].terminal_subscribed_until = Some(at(2_000));
    super::committed(&store, &job, &commit).await;
    let written = &commit.delta.containers[0];
    let read = store
        .container(owner.id, written.id)
        .await
        .expect("read")
        .expect("exists");
    assert_eq!(&read, written, "every member of the view reads back");

    for (filter, total) in filters() {
        let found = super::containers_listed(&store, owner.id, filter.clone()).await;
        assert_eq!(found, total, "{filter:?}");
    }
}

/// A terminal check decided by the domain commits like a lookup: the views, the events,
/// their notifications; the same answer again records nothing.
pub async fn terminal_checks_record_their_events_once_and_fan_out(store: Arc<dyn Store>) {
    use tidemark_domain::lifecycle::Policy;
    use tidemark_domain::tracking::{Cause, TerminalAnswer, decide};

    let owner = account(&store, "terminal-events").await;
    super::webhooks::subscribe(&store, &owner, &[], true).await;
    let milestones = snapshot(&[(Milestone::VesselDischarged, 2)]);
    let (pending, _) = super::tracking::tracked(&store, &owner, "586118841", &milestones, 3).await;
    let before = store.domain_events(owner.id).await.expect("events").len();
    for round in 0..2 {
        let request = super::stored(&store, &pending).await;
        let tracked = super::now_tracked(&store, pending.id).await;
        let answer = TerminalAnswer::terminal(vec![(tracked.containers[0].id, held(1_000))]);
        let change = decide(
            &request,
            Some(&tracked),
            Cause::Terminal(&answer),
            at(10 + round),
            &Policy::default(),
        )
        .expect("a change");
        assert_eq!(
            store.commit_tracking(None, &change).await.expect("commit"),
            CommitOutcome::Committed
        );
    }
    let events = store.domain_events(owner.id).await.expect("events");
    let names: Vec<String> = events[before..].iter().map(|e| e.name.name()).collect();
    assert_eq!(
        names,
        [
            "container.transport.not_available",
            "container.pickup_lfd.changed",
            "container.pickup_lfd_line.changed",
            "container.pickup_lfd_terminal.changed",
            "container.updated",
        ],
        "recorded once, read back by name"
    );
    let notified = store
        .list_webhook_notifications(
            owner.id,
            &tidemark_store::NotificationFilter {
                events: vec!["container.transport.not_available".to_owned()],
                ..Default::default()
            },
            page(1, 10),
        )
        .await
        .expect("list");
    assert_eq!(notified.total, 1, "fanned out in the same commit");
    checked_and_scheduled(&store, pending.id).await;
}

/// The last check is written on the container, the next is scheduled.
async fn checked_and_scheduled(
    store: &Arc<dyn Store>,
    request: tidemark_domain::TrackingRequestId,
) {
    use tidemark_domain::lifecycle::Policy;
    let tracked = super::now_tracked(store, request).await;
    assert_eq!(tracked.containers[0].terminal_checked_at, Some(at(11)));
    assert_eq!(
        tracked.containers[0].current_status,
        ContainerStatus::NotAvailable
    );
    let next_check = store
        .next_due(tidemark_domain::JobKind::TerminalCheck)
        .await
        .expect("read");
    assert_eq!(
        next_check,
        Some(at(10) + Policy::default().refresh_near),
        "the next check scheduled in the same commit (the earlier of the two)"
    );
}

/// A line's push names a bill, a terminal's its boxes: the open requests tracking them
/// from that source are found, whatever their account, oldest first; a closed one,
/// another line's or another source's are not.
pub async fn the_open_requests_of_a_bill_are_found_across_accounts(store: Arc<dyn Store>) {
    use tidemark_domain::{RequestStatus, TrackingSource};
    let scac = |code: &str| tidemark_domain::Scac::parse(code).expect("scac");
    let milestones = snapshot(&[(Milestone::VesselDischarged, 2)]);
    let first = account(&store, "bill-first").await;
    let second = account(&store, "bill-second").await;
    let (older, _) = super::tracking::tracked(&store, &first, "586118841", &milestones, 3).await;
    let (newer, _) = super::tracking::tracked(&store, &second, "586118841", &milestones, 9).await;
    let found = |code: &'static str, source: TrackingSource| {
        let store = Arc::clone(&store);
        async move {
            store
                .open_requests_of_bill(scac(code), "586118841", source)
                .await
                .expect("read")
        }
    };
    assert_eq!(
        found("MAEU", TrackingSource::Sandbox).await,
        [older.id, newer.id]
    );
    assert!(found("MAEU", TrackingSource::ShippingLine).await.is_empty());
    assert!(found("HLCU", TrackingSource::Sandbox).await.is_empty());

    let read = store
        .tracking_request(second.id, newer.id)
        .await
        .expect("read")
        .expect("exists");
    tidemark_store::testing::commit_status(store.as_ref(), &read, RequestStatus::TrackingStopped)
        .await;
    assert_eq!(found("MAEU", TrackingSource::Sandbox).await, [older.id]);

    // A terminal's push names containers: the same requests, by a box of theirs.
    let boxes = |numbers: &[&str], source| {
        let store = Arc::clone(&store);
        let numbers: Vec<String> = numbers.iter().map(|n| (*n).to_owned()).collect();
        async move {
            store
                .open_requests_of_containers(&numbers, source)
                .await
                .expect("read")
        }
    };
    let number = "MSKU1234565";
    assert_eq!(
        boxes(&[number, "TGHU7654321"], TrackingSource::Sandbox).await,
        [older.id],
        "once per request, the closed one left out"
    );
    assert!(
        boxes(&[number], TrackingSource::ShippingLine)
            .await
            .is_empty()
    );
    assert!(
        boxes(&["TGHU7654321"], TrackingSource::Sandbox)
            .await
            .is_empty()
    );
    assert!(boxes(&[], TrackingSource::Sandbox).await.is_empty());
}
