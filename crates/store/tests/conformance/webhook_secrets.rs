//! Conformance cases of a webhook's secret rotation: the rotated secrets read back as
//! written, only one of two rotations at once is kept, and a change never restores the
//! secret a rotation replaced.

use std::sync::Arc;

use tidemark_store::Store;

use super::webhooks::webhook;
use super::{account, at};

pub async fn a_rotated_secret_is_kept_once_and_a_change_never_restores_the_old(
    store: Arc<dyn Store>,
) {
    let acme = account(&store, "acme").await;
    let globex = account(&store, "globex").await;
    let original = webhook(&acme, "https://hooks.example.com/a", &[], 1);
    store.create_webhook(&original).await.expect("create");
    let day = std::time::Duration::from_secs(24 * 3600);

    let rotated = original.rotate_secret(at(10), day);
    assert!(
        store
            .rotate_webhook_secret(&rotated, &original.secret)
            .await
            .expect("rotate")
    );
    assert_eq!(
        store.webhook(acme.id, original.id).await.expect("read"),
        Some(rotated.clone())
    );
    let found = store.webhooks_by_id(&[original.id]).await.expect("read");
    assert_eq!(found, vec![rotated.clone()]);

    // A rotation made from the secret read before the first one is refused: one wins.
    let late = original.rotate_secret(at(11), day);
    assert!(
        !store
            .rotate_webhook_secret(&late, &original.secret)
            .await
            .expect("rotate")
    );
    // So is another account's.
    let mut intruder = rotated.rotate_secret(at(12), day);
    intruder.account_id = globex.id;
    assert!(
        !store
            .rotate_webhook_secret(&intruder, &rotated.secret)
            .await
            .expect("rotate")
    );

    // A change made from the webhook read before the rotation keeps the new secrets.
    let mut stale = original.clone();
    stale.active = false;
    stale.updated_at = at(13);
    assert!(store.update_webhook(&stale).await.expect("update"));
    let read = store
        .webhook(acme.id, original.id)
        .await
        .expect("read")
        .expect("there");
    assert!(!read.active);
    assert_eq!(read.secret, rotated.secret);
    assert_eq!(read.previous_secret, rotated.previous_secret);

    // A rotation without a grace keeps no previous secret.
    let at_once = read.rotate_secret(at(14), std::time::Duration::ZERO);
    assert!(
        store
            .rotate_webhook_secret(&at_once, &read.secret)
            .await
            .expect("rotate")
    );
    assert_eq!(
        store.webhook(acme.id, original.id).await.expect("read"),
        Some(at_once)
    );
}
