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

/// Many requests at once under a limit far above them all pass: a busy bucket refuses no
/// one for being busy, only for being spent.
pub async fn a_busy_bucket_refuses_no_one_under_its_rate(store: Arc<dyn Store>) {
    use tidemark_domain::rate::Cell;
    let cell = Cell::per_minute(NonZeroU32::new(6_000_000).expect("rate"));
    for round in 0..4 {
        let takers: Vec<_> = (0..64)
            .map(|i| {
                let store = Arc::clone(&store);
                let now = at(round * 60) + std::time::Duration::from_micros(i);
                tokio::spawn(async move { store.take_rate("busy:create", &cell, now).await })
            })
            .collect();
        for taker in takers {
            let taken = taker.await.expect("joined").expect("taken");
            assert!(taken.is_ok(), "round {round}: refused until {taken:?}");
        }
    }
}

/// A shared bucket passes and refuses exactly as the domain's [`Cell::take`] does, step
/// by step, including the time a refused request may pass from.
pub async fn a_shared_bucket_takes_as_the_domain_reckons(store: Arc<dyn Store>) {
    use tidemark_domain::rate::Cell;
    let cell = Cell::per_minute(NonZeroU32::new(3).expect("rate"));
    let mut tat: Option<i64> = None;
    for seconds in [0, 0, 1, 2, 3, 20, 21, 45, 46, 200, 200, 200, 200] {
        let now = at(seconds);
        let expected = cell.take(tat, now.unix_micros());
        let taken = store
            .take_rate("reckoned:create", &cell, now)
            .await
            .expect("taken");
        match expected {
            Ok(next) => {
                assert_eq!(taken, Ok(next), "at {seconds} s");
                tat = Some(next);
            }
            Err(until) => assert_eq!(
                taken.map_err(|at| at.unix_micros()),
                Err(until),
                "at {seconds} s"
            ),
        }
    }
}
