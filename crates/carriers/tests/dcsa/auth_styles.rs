//! The carriers' authentication styles, each against the simulator enforcing it: an API
//! key in a header of the carrier's own name, a client id and secret pair of headers,
//! OAuth2 client credentials with a key header on every call (the token request too), and a
//! token from a line's own exchange at its token URL (JSON, a JWT answered). A
//! wrong or missing part is refused, and no secret shows in `Debug`.

use tidemark_carriers::auth::Auth;
use tidemark_carriers::dcsa::DcsaConnector;
use tidemark_carriers::{CarrierConnector, Secret};
use tidemark_domain::{LookupOutcome, TemporaryReason};

use crate::*;

fn pair(a: &str, b: &str) -> (String, String) {
    (a.to_owned(), b.to_owned())
}

fn secret(name: &str, value: &str) -> (String, Secret) {
    (name.to_owned(), Secret::new(value))
}

/// What `auth` gets for a bill of the simulator's ZIM.
async fn lookup(world: &World, auth: Auth) -> LookupOutcome {
    let mut config = world.config("ZIMU");
    config.auth = auth;
    DcsaConnector::new(config)
        .expect("config")
        .lookup(&bill("ZIMUSNH1160339"))
        .await
}

fn refused(outcome: &LookupOutcome) -> bool {
    *outcome == LookupOutcome::Temporary(TemporaryReason::Unauthorized)
}

#[tokio::test]
async fn a_key_of_the_carrier_s_own_name_or_a_pair_of_headers() {
    let mut config = sim_config();
    config.header_credentials = vec![
        vec![pair("keyId", "cma-key")],
        vec![
            pair("X-IBM-Client-Id", "hl-id"),
            pair("X-IBM-Client-Secret", "hl-secret"),
        ],
    ];
    let world = World::start(config).await;
    world.advance_days(30);
    let key = |value: &str| Auth::Header {
        name: "keyId".into(),
        value: Secret::new(value),
    };
    found(lookup(&world, key("cma-key")).await);
    assert!(refused(&lookup(&world, key("other")).await));

    let both = Auth::Headers(vec![
        secret("X-IBM-Client-Id", "hl-id"),
        secret("X-IBM-Client-Secret", "hl-secret"),
    ]);
    found(lookup(&world, both.clone()).await);
    let half = Auth::Headers(vec![secret("X-IBM-Client-Id", "hl-id")]);
    assert!(
        refused(&lookup(&world, half).await),
        "the secret is missing"
    );
    assert!(
        !format!("{both:?}").contains("hl-secret"),
        "secrets stay out of Debug"
    );
}

#[tokio::test]
async fn oauth2_with_a_key_header_on_every_call() {
    let mut config = sim_config();
    config.required_headers = vec![pair("Consumer-Key", "tidemark")];
    let world = World::start(config).await;
    world.advance_days(30);
    let oauth = |headers: Vec<(String, Secret)>| Auth::OAuth2 {
        token_url: format!("{}/oauth/token", world.base),
        client_id: "tidemark".into(),
        client_secret: Secret::new("s3cret"),
        scope: None,
        headers,
    };
    found(lookup(&world, oauth(vec![secret("Consumer-Key", "tidemark")])).await);
    assert!(
        refused(&lookup(&world, oauth(Vec::new())).await),
        "without the key, no token and no events"
    );
    assert!(refused(
        &lookup(&world, oauth(vec![secret("Consumer-Key", "other")])).await
    ));
    // The key alone is not enough: the token is needed too.
    let key_only = Auth::Header {
        name: "Consumer-Key".into(),
        value: Secret::new("tidemark"),
    };
    assert!(refused(&lookup(&world, key_only).await));
}

#[tokio::test]
async fn a_token_fetched_from_the_line_s_own_token_url() {
    use tidemark_carriers::auth::ExchangeFields;
    let world = World::start(sim_config()).await;
    world.advance_days(30);
    let exchange = |secret: &str, fields: ExchangeFields| Auth::TokenExchange {
        token_url: format!("{}/auth/token", world.base),
        client_id: "tidemark".into(),
        client_secret: Secret::new(secret),
        fields,
    };
    let usual = || ExchangeFields::named(None, None, None);
    // Posted as JSON, answered with `{"token": <a JWT>}`: the token found, its `exp` read.
    let auth = exchange("s3cret", usual());
    found(lookup(&world, auth.clone()).await);
    assert!(refused(&lookup(&world, exchange("other", usual())).await));
    // Names the exchange does not know: refused, so the names are the ones sent.
    let camel = ExchangeFields::named(Some("clientId".into()), Some("clientSecret".into()), None);
    assert!(refused(&lookup(&world, exchange("s3cret", camel)).await));
    // A token member named but absent: not a token.
    let named = ExchangeFields::named(None, None, Some("access_token".into()));
    assert!(!matches!(
        lookup(&world, exchange("s3cret", named)).await,
        LookupOutcome::Found(_)
    ));
    // An OAuth2 form is not this exchange.
    let form = Auth::OAuth2 {
        token_url: format!("{}/auth/token", world.base),
        client_id: "tidemark".into(),
        client_secret: Secret::new("s3cret"),
        scope: None,
        headers: Vec::new(),
    };
    assert!(refused(&lookup(&world, form).await));
    assert!(
        !format!("{auth:?}").contains("s3cret"),
        "secrets stay out of Debug"
    );
}
