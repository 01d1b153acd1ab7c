//! Conformance cases of idempotency keys: one claimant of a key however many ask at once,
//! its answer kept for the same request, a failed request's key released, a claim whose
//! holder died taken over after its lock, an answer expired, keys per account.

use std::sync::Arc;
use std::time::Duration;

use tidemark_store::{Claim, KeptAnswer, Store};

use super::{account, at};

const LOCK: Duration = Duration::from_secs(60);
const KEEP: Duration = Duration::from_secs(24 * 3600);

pub async fn an_idempotency_key_has_one_claimant_and_keeps_its_answer(store: Arc<dyn Store>) {
    let owner = account(&store, "keys").await.id;
    let claimants: Vec<_> = (0..10)
        .map(|_| {
            let store = Arc::clone(&store);
            tokio::spawn(
                async move { store.claim_key(owner, "k", "fp", at(0), (LOCK, KEEP)).await },
            )
        })
        .collect();
    let mut taken = 0;
    for claimant in claimants {
        match claimant.await.expect("joined").expect("claimed") {
            Claim::Taken => taken += 1,
            Claim::InProgress { fingerprint } => assert_eq!(fingerprint, "fp"),
            Claim::Answered { .. } => panic!("nothing was answered yet"),
        }
    }
    assert_eq!(taken, 1, "one claimant");
    let answer = KeptAnswer {
        status: 201,
        content_type: Some("application/vnd.api+json".into()),
        location: None,
        body: b"{\"data\":{}}".to_vec(),
    };
    // Another fingerprint cannot keep an answer for the key.
    store
        .keep_answer(owner, "k", "other", &answer)
        .await
        .expect("kept");
    assert!(matches!(
        store
            .claim_key(owner, "k", "fp", at(1), (LOCK, KEEP))
            .await
            .expect("claimed"),
        Claim::InProgress { .. }
    ));
    store
        .keep_answer(owner, "k", "fp", &answer)
        .await
        .expect("kept");
    let again = store
        .claim_key(owner, "k", "other", at(2), (LOCK, KEEP))
        .await
        .expect("claimed");
    assert_eq!(
        again,
        Claim::Answered {
            fingerprint: "fp".into(),
            answer: answer.clone()
        }
    );
    // A kept answer is not released, and outlives the lock.
    store.release_key(owner, "k", "fp").await.expect("released");
    let later = store
        .claim_key(owner, "k", "fp", at(3600), (LOCK, KEEP))
        .await
        .expect("claimed");
    assert!(matches!(later, Claim::Answered { .. }));
    // Another account's key of the same name is its own.
    let stranger = account(&store, "stranger").await.id;
    assert_eq!(
        store
            .claim_key(stranger, "k", "fp", at(0), (LOCK, KEEP))
            .await
            .expect("claimed"),
        Claim::Taken
    );
    // A day on, the answer has expired: the key is new.
    let day = 24 * 3600 + 1;
    assert_eq!(
        store
            .claim_key(owner, "k", "new", at(day), (LOCK, KEEP))
            .await
            .expect("claimed"),
        Claim::Taken
    );
}

pub async fn a_released_or_abandoned_key_is_claimed_again(store: Arc<dyn Store>) {
    let owner = account(&store, "abandoned").await.id;
    let claim = |key: &'static str, fingerprint: &'static str, second: i64| {
        let store = Arc::clone(&store);
        async move {
            store
                .claim_key(owner, key, fingerprint, at(second), (LOCK, KEEP))
                .await
                .expect("claimed")
        }
    };
    assert_eq!(claim("failed", "fp", 0).await, Claim::Taken);
    store
        .release_key(owner, "failed", "fp")
        .await
        .expect("released");
    assert_eq!(
        claim("failed", "fp", 1).await,
        Claim::Taken,
        "released: runs again"
    );

    assert_eq!(claim("died", "fp", 0).await, Claim::Taken);
    assert!(matches!(
        claim("died", "fp", 59).await,
        Claim::InProgress { .. }
    ));
    assert_eq!(
        claim("died", "fp", 61).await,
        Claim::Taken,
        "its lock passed"
    );
}
