//! A carrier named by its profile and secrets alone, its base URL (and token URL) pointed
//! at the simulator playing that carrier's authentication: the lookup goes through. What
//! the profile cannot give stops the start with the entry named.

use tidemark_carriers::registry::{CarriersConfig, Registry};
use tidemark_domain::{RequestType, SandboxScope, Scac};

use crate::*;

/// The registry of `endpoints` (TOML of `[endpoints.SCAC]` tables), `{sim}` replaced.
fn registry(world: &World, endpoints: &str) -> Result<Registry, String> {
    let text = endpoints.replace("{sim}", &world.base);
    let config: CarriersConfig = toml::from_str(&text).map_err(|e| e.to_string())?;
    Registry::build(&config, None, SandboxScope::Off).map_err(|e| e.to_string())
}

async fn tracks(registry: &Registry, scac: &str, bill_number: &str) {
    let (connector, _) = registry
        .connector(&Scac::parse(scac).expect("scac"))
        .expect("configured");
    found(
        connector
            .lookup(&lookup(bill_number, RequestType::BillOfLading))
            .await,
    );
}

#[tokio::test]
async fn a_profile_and_its_key_or_header_pair_are_a_whole_configuration() {
    let mut config = sim_config();
    config.header_credentials = vec![
        vec![("keyId".into(), "cma-key".into())],
        vec![
            ("X-IBM-Client-Id".into(), "hl-id".into()),
            ("X-IBM-Client-Secret".into(), "hl-secret".into()),
        ],
    ];
    let world = World::start(config).await;
    world.advance_days(30);
    let registry = registry(
        &world,
        r#"
        [endpoints.CMDU]
        profile = "cma-cgm"
        base_url = "{sim}/CMDU"
        events_path = "/v2/events"
        api_key = "cma-key"

        [endpoints.HLCU]
        profile = "hapag-lloyd"
        base_url = "{sim}/HLCU"
        client_id = "hl-id"
        client_secret = "hl-secret"
        "#,
    )
    .expect("valid");
    let described = registry.describe();
    assert!(described.contains("CMDU ->"), "{described}");
    tracks(&registry, "HLCU", "HLCUSHA2401AXYZ1").await;
    tracks(&registry, "CMDU", "CMDUSHZ0412345").await;
}

#[tokio::test]
async fn maersk_s_profile_sends_its_consumer_key_with_the_token() {
    let mut config = sim_config();
    // Maersk's Consumer-Key is its client id, sent on every call and for the token.
    config.required_headers = vec![("Consumer-Key".into(), "tidemark".into())];
    let world = World::start(config).await;
    world.advance_days(30);
    let registry = registry(
        &world,
        r#"
        [endpoints.MAEU]
        profile = "maersk"
        base_url = "{sim}/MAEU"
        events_path = "/v2/events"
        token_url = "{sim}/oauth/token"
        client_id = "tidemark"
        client_secret = "s3cret"
        "#,
    )
    .expect("valid");
    tracks(&registry, "MAEU", "MAEU240529131").await;
}

#[test]
fn what_a_profile_cannot_give_stops_the_start() {
    let world_base = "http://127.0.0.1:9";
    let build = |text: &str| {
        let config: CarriersConfig =
            toml::from_str(&text.replace("{sim}", world_base)).expect("parses");
        Registry::build(&config, None, SandboxScope::Off)
            .map(|_| ())
            .map_err(|e| e.to_string())
    };
    for (text, expected) in [
        (
            "[endpoints.MAEU]\nprofile = \"maersk-line\"",
            "no profile \"maersk-line\"",
        ),
        ("[endpoints.ONEY]\nprofile = \"one\"", "knows no base URL"),
        (
            "[endpoints.ONEY]\nprofile = \"one\"\nbase_url = \"{sim}\"",
            "knows no authentication",
        ),
        ("[endpoints.CMDU]\nprofile = \"cma-cgm\"", "needs api_key"),
        (
            "[endpoints.HLCU]\nprofile = \"hapag-lloyd\"\nclient_id = \"x\"",
            "needs client_secret",
        ),
        (
            "[endpoints.EGLV]\nprofile = \"evergreen\"\nbase_url = \"{sim}\"",
            "knows no token URL",
        ),
        (
            "[endpoints.EGLV]\nprofile = \"evergreen\"\nbase_url = \"{sim}\"\ntoken_url = \"{sim}/auth/token\"",
            "needs client_id",
        ),
        (
            "[endpoints.MAEU]\nbase_url = \"{sim}\"\nsurprise = 1",
            "unknown field",
        ),
    ] {
        let problem = match toml::from_str::<CarriersConfig>(&text.replace("{sim}", world_base)) {
            Err(error) => error.to_string(),
            Ok(_) => build(text).expect_err(text),
        };
        assert!(problem.contains(expected), "{text}: {problem}");
    }
    // A carrier that upgraded: the profile's version overridden.
    build("[endpoints.YMLU]\nprofile = \"yang-ming\"\ndcsa_version = \"2.2\"\napi_key = \"k\"")
        .expect("valid");
    // Written out whole, no profile needed, as before.
    build("[endpoints.MAEU]\nbase_url = \"{sim}\"").expect("valid");
}
