//! Conformance cases of webhook subscriptions: they read back exactly as written, stay in
//! their account, and changes replace what they name.

use std::sync::Arc;

use tidemark_domain::webhook::{Networks, Webhook, WebhookDraft, WebhookHeader};
use tidemark_domain::{Account, WebhookId};
use tidemark_store::Store;

use super::{account, at, page};

fn webhook(owner: &Account, url: &str, events: &[&str], created: i64) -> Webhook {
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
    let listed = store
        .list_webhooks(acme.id, page(1, 10))
        .await
        .expect("list");
    assert_eq!(listed.total, 2);
    assert_eq!(
        listed.items,
        vec![second.clone(), first.clone()],
        "newest first"
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
