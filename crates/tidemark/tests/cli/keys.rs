//! API keys across processes: two `tidemark serve` processes on one database each keep the
//! keys they verified; a key revoked by a third (`tidemark keys revoke`) is refused by
//! both within a second.

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
        while status(server).await != 401 {
            assert!(
                at.elapsed() < Duration::from_secs(1),
                "a revoked key still accepted after a second"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
    assert!(at.elapsed() < Duration::from_secs(1));
}
