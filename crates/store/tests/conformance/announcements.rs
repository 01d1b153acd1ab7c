//! PostgreSQL's announcements of notifications falling due (the wake-ups of dispatchers
//! in other processes): one when notifications are recorded or made due again, none when
//! a settlement ends one.

use std::time::Duration;

use sqlx::Connection;
use sqlx::postgres::PgListener;
use tidemark_domain::webhook::Settlement;
use tidemark_store::testing::TestDatabase;

use super::deliveries::{attempt, settle, three_events};
use super::webhooks::subscribe;
use super::{account, at};

const CHANNEL: &str = "tidemark_notifications";

pub async fn notifications_are_announced_when_they_fall_due(database: &TestDatabase) {
    let store = database.connect().await;
    let mut listener = PgListener::connect(&database.options.url)
        .await
        .expect("a listener");
    listener.listen(CHANNEL).await.expect("listening");
    let owner = account(&store, "announced").await;
    subscribe(&store, &owner, &[], true).await;
    // Recorded: announced once (one transaction).
    three_events(&store, &owner, "586118854", 3).await;
    let claims = super::claim_deliveries(&store, 10, 100, at(10)).await;
    assert_eq!(claims.len(), 3);
    // Two delivered: nothing falls due.
    for claimed in &claims[..2] {
        let ok = attempt(at(11), Some(200));
        assert!(settle(&store, claimed, ok, Settlement::Succeeded, at(0)).await);
    }
    // One retried: due again, announced.
    let busy = attempt(at(11), Some(503));
    assert!(settle(&store, &claims[2], busy, Settlement::Retry(at(60)), at(0)).await);
    // A last announcement of our own marks the end of what the store announced.
    let mut marker = sqlx::PgConnection::connect(&database.options.url)
        .await
        .expect("a connection");
    sqlx::query("SELECT pg_notify($1, 'end')")
        .bind(CHANNEL)
        .execute(&mut marker)
        .await
        .expect("notify");
    let mut heard = Vec::new();
    loop {
        let next = tokio::time::timeout(Duration::from_secs(10), listener.recv())
            .await
            .expect("the marker arrives")
            .expect("a notification");
        if next.payload() == "end" {
            break;
        }
        heard.push(next.payload().to_owned());
    }
    assert_eq!(
        heard.len(),
        2,
        "recorded and due again, not delivered: {heard:?}"
    );
}
