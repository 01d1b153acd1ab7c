//! Conformance cases of carriers' shared quotas: concurrent takers spend each call once, a
//! burst then the rate, and a spent day waits for the next.

use std::num::NonZeroU32;
use std::sync::Arc;

use tidemark_domain::Scac;
use tidemark_domain::quota::Quota;
use tidemark_store::Store;

use super::at;

pub async fn concurrent_takers_share_one_quota(store: Arc<dyn Store>) {
    let scac = Scac::parse("HLCU").expect("scac");
    let quota = Quota {
        per_second: NonZeroU32::new(2).expect("rate"),
        burst: NonZeroU32::new(5).expect("burst"),
        per_day: NonZeroU32::new(7),
    };
    let takers: Vec<_> = (0..20)
        .map(|_| {
            let store = Arc::clone(&store);
            tokio::spawn(async move { store.take_quota(scac, &quota, at(0)).await })
        })
        .collect();
    let mut granted = 0;
    for taker in takers {
        if taker.await.expect("joined").expect("taken").is_ok() {
            granted += 1;
        }
    }
    assert_eq!(granted, 5, "the burst, once, however many ask at once");
    let wait = store
        .take_quota(scac, &quota, at(0))
        .await
        .expect("taken")
        .expect_err("spent");
    assert!(wait > at(0) && wait <= at(1), "{wait:?}");
    // Two seconds on: four more at the rate would pass, but the day allows two.
    let later = [at(2), at(2), at(2)];
    let mut granted = 0;
    for now in later {
        if store
            .take_quota(scac, &quota, now)
            .await
            .expect("taken")
            .is_ok()
        {
            granted += 1;
        }
    }
    assert_eq!(granted, 2);
    let state = store.quota_state(scac).await.expect("read").expect("used");
    assert_eq!(state.used, 7);
    // Another carrier has its own.
    let other = Scac::parse("MSCU").expect("scac");
    assert!(
        store
            .take_quota(other, &quota, at(2))
            .await
            .expect("taken")
            .is_ok()
    );
}

pub async fn concurrent_requests_share_one_rate_limit(store: Arc<dyn Store>) {
    use tidemark_domain::rate::Cell;
    let cell = Cell::per_minute(NonZeroU32::new(5).expect("rate"));
    let takers: Vec<_> = (0..20)
        .map(|_| {
            let store = Arc::clone(&store);
            tokio::spawn(async move { store.take_rate("account:create", &cell, at(0)).await })
        })
        .collect();
    let mut passed = 0;
    for taker in takers {
        if taker.await.expect("joined").expect("taken").is_ok() {
            passed += 1;
        }
    }
    assert_eq!(passed, 5, "the minute's five, however many ask at once");
    let wait = store
        .take_rate("account:create", &cell, at(0))
        .await
        .expect("taken")
        .expect_err("spent");
    assert_eq!(wait, at(12), "one interval (12 s) on");
    assert!(
        store
            .take_rate("account:create", &cell, at(12))
            .await
            .expect("taken")
            .is_ok()
    );
    assert!(
        store
            .take_rate("another:create", &cell, at(0))
            .await
            .expect("taken")
            .is_ok(),
        "each bucket its own"
    );
}
