//! Conformance cases of webhook subscriptions: they read back exactly as written, stay in
//! their account, changes replace what they name, and recorded events fan out to them.

use std::sync::Arc;

use tidemark_domain::tracking::Change;
use tidemark_domain::webhook::{Networks, Webhook, WebhookDraft, WebhookHeader};
use tidemark_domain::{Account, DomainEvent, DomainEventId, Milestone, TrackingRequest, WebhookId};
use tidemark_store::{CommitOutcome, Store};

use super::tracking::{snapshot, tracked};
use super::{account, at, newest_first, page};

pub(super) fn webhook(owner: &Account, url: &str, events: &[&str], created: i64) -> Webhook {
    WebhookDraft {
        url: Some(url.to_owned()),
        active: None,
        events: Some(events.iter().map(|e| (*e).to_owned()).collect()),
        headers: Some(vec![WebhookHeader {
            name: "X-Team".to_owned(),
            value: "ops".to_owned(),
        }]),
    }
    .create(owner.id, &Networks::public_only(), at(created))
    .expect("a valid webhook")
}

pub async fn webhooks_read_back_as_written_and_stay_in_their_account(store: Arc<dyn Store>) {
    let acme = account(&store, "acme").await;
    let globex = account(&store, "globex").await;
    let first = webhook(
        &acme,
        "https://hooks.example.com/a",
        &["container.created", "tracking_request.failed"],
        1,
    );
    let second = webhook(&acme, "https://hooks.example.com/b", &[], 2);
    store.create_webhook(&first).await.expect("create");
    store.create_webhook(&second).await.expect("create");

    assert_eq!(
        store.webhook(acme.id, first.id).await.expect("read"),
        Some(first.clone())
    );
    assert_eq!(
        store.webhook(globex.id, first.id).await.expect("read"),
        None
    );
    newest_first(
        store
            .list_webhooks(acme.id, page(1, 10))
            .await
            .expect("list"),
        &second,
        &first,
    );
    assert_eq!(
        store
            .list_webhooks(globex.id, page(1, 10))
            .await
            .expect("list")
            .total,
        0
    );
    assert_eq!(
        store
            .webhook(acme.id, WebhookId::new())
            .await
            .expect("read"),
        None
    );
}

pub async fn webhook_changes_replace_what_they_name_and_deletes_are_final(store: Arc<dyn Store>) {
    let acme = account(&store, "acme").await;
    let globex = account(&store, "globex").await;
    let original = webhook(
        &acme,
        "https://hooks.example.com/a",
        &["container.created"],
        1,
    );
    store.create_webhook(&original).await.expect("create");

    let mut changed = original.clone();
    changed.url = tidemark_domain::webhook::WebhookUrl::parse(
        "https://hooks.example.com/new",
        &Networks::public_only(),
    )
    .expect("url");
    changed.events = vec![
        "tracking_request.succeeded".to_owned(),
        "container.transport.vessel_departed".to_owned(),
    ];
    changed.headers = Vec::new();
    changed.active = false;
    changed.disabled_reason = Some("the receiver answered 410 Gone".to_owned());
    changed.updated_at = at(5);
    assert!(store.update_webhook(&changed).await.expect("update"));
    assert_eq!(
        store.webhook(acme.id, original.id).await.expect("read"),
        Some(changed.clone())
    );

    // Every event again: the list empties.
    let mut all = changed.clone();
    all.events = Vec::new();
    assert!(store.update_webhook(&all).await.expect("update"));
    assert_eq!(
        store.webhook(acme.id, original.id).await.expect("read"),
        Some(all.clone())
    );

    // Another account's change touches nothing.
    let mut intruder = changed.clone();
    intruder.account_id = globex.id;
    intruder.events = vec!["container.updated".to_owned()];
    assert!(!store.update_webhook(&intruder).await.expect("update"));
    assert_eq!(
        store.webhook(acme.id, original.id).await.expect("read"),
        Some(all)
    );

    assert!(
        !store
            .delete_webhook(globex.id, original.id)
            .await
            .expect("delete")
    );
    assert!(
        store
            .delete_webhook(acme.id, original.id)
            .await
            .expect("delete")
    );
    assert!(
        !store
            .delete_webhook(acme.id, original.id)
            .await
            .expect("delete")
    );
    assert_eq!(
        store.webhook(acme.id, original.id).await.expect("read"),
        None
    );
}

/// A webhook of `owner` wanting `events` (none: all).
pub(super) async fn subscribe(
    store: &Arc<dyn Store>,
    owner: &tidemark_domain::Account,
    events: &[&str],
    active: bool,
) -> tidemark_domain::WebhookId {
    let webhook = tidemark_domain::webhook::WebhookDraft {
        url: Some("https://hooks.example.com/t".to_owned()),
        active: Some(active),
        events: Some(events.iter().map(|e| (*e).to_owned()).collect()),
        headers: None,
    }
    .create(
        owner.id,
        &tidemark_domain::webhook::Networks::public_only(),
        at(0),
    )
    .expect("a valid webhook");
    store.create_webhook(&webhook).await.expect("create");
    webhook.id
}

/// The webhook that wants everything has each of the commit's events pending once, due
/// at once, readable by id in its account only.
async fn every_wanted_event_is_pending_once(
    store: &Arc<dyn Store>,
    owner: &Account,
    stranger: &Account,
    everything: WebhookId,
    commit: &Change,
) {
    use tidemark_domain::webhook::DeliveryStatus;
    use tidemark_store::NotificationFilter;

    let page = super::page(1, 100);
    let of = |webhook| NotificationFilter {
        webhook_id: Some(webhook),
        ..NotificationFilter::default()
    };
    let all = store
        .list_webhook_notifications(owner.id, &of(everything), page)
        .await
        .expect("list");
    assert_eq!(all.total, 3, "succeeded, empty_out, full_in");
    let mut names: Vec<&str> = all.items.iter().map(|n| n.event.as_str()).collect();
    names.sort_unstable();
    assert_eq!(
        names,
        [
            "container.transport.empty_out",
            "container.transport.full_in",
            "tracking_request.succeeded"
        ]
    );
    for notification in &all.items {
        assert_eq!(notification.delivery_status, DeliveryStatus::Pending);
        assert_eq!(notification.attempts, 0);
        assert_eq!(notification.due_at, Some(at(3)));
        assert!(
            commit
                .events
                .iter()
                .any(|e| e.id == notification.domain_event_id)
        );
        assert_eq!(
            store
                .webhook_notification(owner.id, notification.id)
                .await
                .expect("read")
                .as_ref(),
            Some(notification)
        );
        assert_eq!(
            store
                .webhook_notification(stranger.id, notification.id)
                .await
                .expect("read"),
            None
        );
    }
    let ids: std::collections::HashSet<_> = all.items.iter().map(|n| n.id).collect();
    assert_eq!(ids.len(), 3, "distinct ids");
}

/// Each recorded domain event becomes one pending notification per active webhook of its
/// account that wants it, in the commit that recorded it; an event recorded again (same
/// dedupe key) fans out nothing.
pub async fn recorded_events_fan_out_to_the_webhooks_that_want_them(store: Arc<dyn Store>) {
    use tidemark_domain::webhook::DeliveryStatus;
    use tidemark_store::NotificationFilter;

    let owner = account(&store, "fanout").await;
    let stranger = account(&store, "stranger").await;
    let everything = subscribe(&store, &owner, &[], true).await;
    let milestones = subscribe(&store, &owner, &["container.transport.full_in"], true).await;
    let failures = subscribe(&store, &owner, &["tracking_request.failed"], true).await;
    let paused = subscribe(&store, &owner, &[], false).await;
    let _theirs = subscribe(&store, &stranger, &[], true).await;

    let found = snapshot(&[(Milestone::EmptyOut, 1), (Milestone::FullIn, 2)]);
    let (pending, commit) = tracked(&store, &owner, "586118841", &found, 3).await;
    every_wanted_event_is_pending_once(&store, &owner, &stranger, everything, &commit).await;

    let page = super::page(1, 100);
    let of = |webhook| NotificationFilter {
        webhook_id: Some(webhook),
        ..NotificationFilter::default()
    };
    let wanted = store
        .list_webhook_notifications(owner.id, &of(milestones), page)
        .await
        .expect("list");
    assert_eq!(wanted.total, 1);
    assert_eq!(wanted.items[0].event, "container.transport.full_in");
    for none in [failures, paused] {
        assert_eq!(
            store
                .list_webhook_notifications(owner.id, &of(none), page)
                .await
                .expect("list")
                .total,
            0
        );
    }
    assert_eq!(
        store
            .list_webhook_notifications(stranger.id, &NotificationFilter::default(), page)
            .await
            .expect("list")
            .total,
        0
    );
    let filtered = store
        .list_webhook_notifications(
            owner.id,
            &NotificationFilter {
                events: vec!["container.transport.full_in".to_owned()],
                delivery_status: vec![DeliveryStatus::Pending],
                ..NotificationFilter::default()
            },
            page,
        )
        .await
        .expect("list");
    assert_eq!(filtered.total, 2, "the full_in event, to two webhooks");
    the_same_news_again_fans_out_nothing(&store, &owner, &pending, &commit).await;
}

/// The same news again, under new event ids: recorded once, so nothing fans out.
async fn the_same_news_again_fans_out_nothing(
    store: &Arc<dyn Store>,
    owner: &Account,
    pending: &TrackingRequest,
    commit: &Change,
) {
    use tidemark_store::NotificationFilter;

    let page = super::page(1, 100);
    let stored = super::stored(store, pending).await;
    let again = Change {
        request: TrackingRequest {
            updated_at: at(4),
            ..stored.clone()
        },
        request_read_at: stored.updated_at,
        events: commit
            .events
            .iter()
            .map(|event| DomainEvent {
                id: DomainEventId::new(),
                ..event.clone()
            })
            .collect(),
        next: None,
        ..commit.clone()
    };
    assert_eq!(
        store.commit_tracking(None, &again).await.expect("commit"),
        CommitOutcome::Committed
    );
    assert_eq!(
        store
            .list_webhook_notifications(owner.id, &NotificationFilter::default(), page)
            .await
            .expect("list")
            .total,
        4
    );
}
