//! API keys and rate limits across processes: two `tidemark serve` processes on one
//! database each keep the keys they verified, and a key revoked by a third (`tidemark keys
//! revoke`) is refused by both within a second; on PostgreSQL an account's rate limit holds
//! across both.

use std::time::{Duration, Instant};

use tidemark_store::testing::{Backend, TestDatabase};

use super::*;

tidemark_store::backends!(
    on_database,
    a_key_revoked_elsewhere_is_refused_within_a_second
);

async fn on_database<F, Fut>(backend: Backend, case: F)
where
    F: FnOnce(TestDatabase) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    case(TestDatabase::create(backend).await).await;
}

async fn status(server: &Served) -> u16 {
    reqwest::Client::new()
        .get(format!("http://{}/v2/tracking_requests", server.address))
        .header("Authorization", format!("Token {}", server.key))
        .send()
        .await
        .expect("request")
        .status()
        .as_u16()
}

async fn a_key_revoked_elsewhere_is_refused_within_a_second(database: TestDatabase) {
    let url = database.options.url.clone();
    let env = [("TIDEMARK_DATABASE_URL", url.as_str())];
    let first = Served::start(&["--roles", "api"], &env);
    let second = Served::start_sharing(&["--roles", "api"], &env, &first.key, serve::LISTENING);
    // Each verifies the key once and keeps it.
    for _ in 0..3 {
        assert_eq!(status(&first).await, 200);
        assert_eq!(status(&second).await, 200);
    }
    let revoked = Command::new(env!("CARGO_BIN_EXE_tidemark"))
        .args(["keys", "revoke", &first.key])
        .env("TIDEMARK_DATABASE_URL", &url)
        .env_remove("RUST_LOG")
        .output()
        .expect("runs");
    assert!(revoked.status.success(), "{revoked:?}");
    let at = Instant::now();
    for server in [&first, &second] {
        let what = || "a revoked key still accepted".to_owned();
        tidemark_testkit::poll_until(at, Duration::from_secs(1), what, || async {
            status(server).await == 401
        })
        .await;
    }
    assert!(at.elapsed() < Duration::from_secs(1));
}

/// One account's rate limit holds across two API processes on PostgreSQL: its bucket
/// lives in the database.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    not(tidemark_postgres_tests),
    ignore = "set TIDEMARK_TEST_DATABASE_URL to run the PostgreSQL suite"
)]
async fn an_account_s_rate_limit_holds_across_processes() {
    let database = TestDatabase::create(Backend::Postgres).await;
    let url = database.options.url.clone();
    let env = [
        ("TIDEMARK_DATABASE_URL", url.as_str()),
        ("TIDEMARK_RATE_LIMITS__CREATE_PER_MINUTE", "10"),
    ];
    let first = Served::start(&["--roles", "api"], &env);
    let second = Served::start_sharing(&["--roles", "api"], &env, &first.key, serve::LISTENING);
    let started = Instant::now();
    let mut created = [0, 0];
    for n in 0..30 {
        let server = if n % 2 == 0 { &first } else { &second };
        let response = server
            .create(&format!("MEDU{:07}", 1_000_000 + n), "MSCU")
            .await;
        match response.status().as_u16() {
            201 | 422 => created[n % 2] += 1,
            429 => assert!(response.headers().contains_key("retry-after")),
            other => panic!("unexpected {other}"),
        }
    }
    // Ten at once, then one every six seconds.
    let allowed = 10 + started.elapsed().as_secs() / 6;
    let total = created[0] + created[1];
    assert!(
        total >= 10 && u64::try_from(total).unwrap_or(u64::MAX) <= allowed,
        "{created:?} in {:?}",
        started.elapsed()
    );
    assert!(
        created[0] > 0 && created[1] > 0,
        "both processes served: {created:?}"
    );
}
