//! Paging, as tokens or URLs, and OAuth2 client credentials fetched, cached and renewed.

use carrier_sim::NextPage;
use tidemark_carriers::auth::Auth;
use tidemark_carriers::dcsa::DcsaConnector;
use tidemark_carriers::{CarrierConnector, Secret};
use tidemark_domain::{LookupOutcome, TemporaryReason};

use crate::*;

#[tokio::test]
async fn pages_are_followed_as_tokens_or_urls_and_bounded() {
    let mut snapshots = Vec::new();
    for style in [NextPage::Token, NextPage::Url] {
        let mut config = sim_config();
        config.next_page = style;
        let world = World::start(config).await;
        world.advance_days(90);
        let mut paged = world.config("ONEY");
        paged.page_size = 4;
        let connector = DcsaConnector::new(paged).expect("config");
        let whole = found(world.connector("ONEY").lookup(&bill("SH9FSK690300")).await);
        let snapshot = found(connector.lookup(&bill("SH9FSK690300")).await);
        assert_eq!(snapshot, whole, "{style:?}");
        snapshots.push(snapshot);

        let mut bounded = world.config("ONEY");
        bounded.page_size = 1;
        bounded.max_pages = 3;
        let outcome = DcsaConnector::new(bounded)
            .expect("config")
            .lookup(&bill("SH9FSK690300"))
            .await;
        assert!(
            matches!(outcome, LookupOutcome::Temporary(TemporaryReason::Unrecognized(d)) if d.contains("pages"))
        );
    }
    assert_eq!(snapshots[0], snapshots[1]);
}

#[tokio::test]
async fn oauth2_client_credentials_are_fetched_cached_and_renewed() {
    let world = World::start(sim_config()).await;
    world.advance_days(30);
    let oauth = |secret: &str| Auth::OAuth2 {
        token_url: format!("{}/oauth/token", world.base),
        client_id: "tidemark".into(),
        client_secret: Secret::new(secret),
        scope: None,
        headers: Vec::new(),
    };
    let mut config = world.config("ZIMU");
    config.auth = oauth("s3cret");
    let connector = DcsaConnector::new(config.clone()).expect("config");
    let first = found(connector.lookup(&bill("ZIMUSNH1160339")).await);
    // The simulator's tokens live one simulated hour; the connector's cache does not know,
    // is refused, renews once and succeeds.
    world.advance_days(1);
    let again = found(connector.lookup(&bill("ZIMUSNH1160339")).await);
    assert!(again.containers.len() == first.containers.len());

    config.auth = oauth("wrong");
    let refused = DcsaConnector::new(config)
        .expect("config")
        .lookup(&bill("ZIMUSNH1160339"))
        .await;
    assert_eq!(
        refused,
        LookupOutcome::Temporary(TemporaryReason::Unauthorized)
    );
    assert!(
        !format!("{:?}", oauth("s3cret")).contains("s3cret"),
        "secrets stay out of logs"
    );
}
