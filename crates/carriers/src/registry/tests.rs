//! The registry: which connector each SCAC gets from the configuration.

use super::*;

fn scac(text: &str) -> Scac {
    Scac::parse(text).expect("SCAC")
}

const SETTINGS: &str = r#"
[defaults]
per_second = 5

[endpoints.MAEU]
base_url = "https://api.example.com/track-and-trace"
auth = { kind = "oauth2", token_url = "https://login.example.com/token", client_id = "tidemark", client_secret = "s3cret", headers = [{ name = "Consumer-Key", value = "c0nsumer" }] }

[endpoints.HLCU]
base_url = "https://api.example.org/hlag/external"
auth = { kind = "headers", headers = [{ name = "X-IBM-Client-Id", value = "k3y" }, { name = "X-IBM-Client-Secret", value = "p4ir" }] }
settings = { per_second = 2, concurrency = 1 }
"#;

#[test]
fn endpoints_come_from_settings_and_other_scacs_from_the_sandbox() {
    let config: CarriersConfig = toml::from_str(SETTINGS).expect("settings parse");
    assert_eq!(config.defaults.http.per_second.get(), 5);
    assert_eq!(
        config.defaults.http.burst,
        ConnectionSettings::default().http.burst
    );
    let sandbox = Sandbox {
        base_url: "http://127.0.0.1:9/".into(),
        api_key: Secret::new("sandbox"),
        settings: ConnectionSettings::default(),
        ais_feed: None,
    };
    let registry =
        Registry::build(&config, Some(sandbox.clone()), SandboxScope::AllCarriers).expect("valid");
    assert_eq!(
        registry.connector(&scac("MAEU")).map(|(_, s)| s),
        Some(Source::Carrier)
    );
    assert_eq!(
        registry.connector(&scac("MSCU")).map(|(_, s)| s),
        Some(Source::Sandbox)
    );
    // By default the sandbox serves its own line only: no made-up voyage for MSCU.
    let default = Registry::build(&config, Some(sandbox), SandboxScope::TestOnly).expect("valid");
    assert!(default.connector(&scac("MSCU")).is_none());
    assert_eq!(
        default.connector(&Scac::SANDBOX).map(|(_, s)| s),
        Some(Source::Sandbox)
    );
    assert_eq!(
        default.coverage().source(scac("MAEU")),
        Some(LineSource::Carrier)
    );
    let shown = default.describe();
    assert!(
        shown.contains("MAEU -> https://api.example.com/track-and-trace"),
        "{shown}"
    );
    assert!(shown.contains("TEST -> sandbox"), "{shown}");
    let mut secret_url = config.clone();
    if let Some(endpoint) = secret_url.endpoints.get_mut("MAEU") {
        endpoint.base_url = Some("https://tidemark:s3cret@api.example.com/tnt".to_owned());
    }
    let shown = Registry::build(&secret_url, None, SandboxScope::Off)
        .expect("valid")
        .describe();
    assert!(
        !shown.contains("s3cret") && shown.contains("api.example.com"),
        "{shown}"
    );
    let without = Registry::build(&config, None, SandboxScope::AllCarriers).expect("valid");
    assert!(without.connector(&scac("MSCU")).is_none());
    assert!(without.connector(&Scac::SANDBOX).is_none());
}

#[test]
fn secrets_stay_out_of_debug_and_serialized_settings() {
    let config: CarriersConfig = toml::from_str(SETTINGS).expect("settings parse");
    let shown = format!("{config:?}");
    let dumped = serde_json::to_string(&config).expect("serializes");
    for secret in ["s3cret", "k3y", "c0nsumer", "p4ir"] {
        assert!(
            !shown.contains(secret) && !dumped.contains(secret),
            "{secret}"
        );
    }
}

#[test]
fn bad_entries_stop_the_start_with_their_name() {
    for (toml, expected) in [
        ("[endpoints.MA]\nbase_url = \"https://x\"", "not a SCAC"),
        ("[endpoints.MAEU]\nbase_url = \"ftp://x\"", "http"),
        (
            "[endpoints.MAEU]\nbase_url = \"https://x\"\nsettings = { page_size = 0 }",
            "above 0",
        ),
    ] {
        let config: CarriersConfig = toml::from_str(toml).expect("parses");
        let error = Registry::build(&config, None, SandboxScope::TestOnly).expect_err(toml);
        assert!(error.to_string().contains(expected), "{error}");
    }
    assert!(
        toml::from_str::<CarriersConfig>(
            "[endpoints.MAEU]\nbase_url = \"https://x\"\nauth = { kind = \"magic\" }"
        )
        .is_err()
    );
    assert!(toml::from_str::<CarriersConfig>("[defaults]\nper_second = 0").is_err());
}

#[test]
fn every_auth_style_reads_into_the_connector_s_credentials() {
    let config: CarriersConfig = toml::from_str(SETTINGS).expect("settings parse");
    let auth = |scac: &str| Auth::from(config.endpoints[scac].auth.clone().expect("auth"));
    match auth("HLCU") {
        Auth::Headers(headers) => {
            let names: Vec<&str> = headers.iter().map(|(name, _)| name.as_str()).collect();
            assert_eq!(names, ["X-IBM-Client-Id", "X-IBM-Client-Secret"]);
            assert_eq!(headers[1].1.expose(), "p4ir");
        }
        other => panic!("a pair of headers: {other:?}"),
    }
    match auth("MAEU") {
        Auth::OAuth2 { headers, .. } => {
            assert_eq!(headers.len(), 1);
            assert_eq!(headers[0].0, "Consumer-Key");
        }
        other => panic!("OAuth2 with a key header: {other:?}"),
    }
}

#[test]
fn a_profile_s_known_rate_holds_the_default_limits() {
    let profiles = crate::profiles::Profiles::bundled().expect("profiles");
    let defaults = ConnectionSettings::default();
    let resolve = |text: &str| {
        toml::from_str::<CarrierEndpoint>(text)
            .expect("entry")
            .resolve(&profiles, &defaults)
            .expect("resolved")
            .settings
    };
    let msc = resolve("profile = \"msc\"\napi_key = \"k\"");
    assert_eq!(
        (msc.http.per_second.get(), msc.http.burst.get()),
        (4, 4),
        "MSC: 4 a second"
    );
    assert_eq!(msc.http.concurrency, defaults.http.concurrency);
    let own = resolve("profile = \"msc\"\napi_key = \"k\"\nsettings = { per_second = 8 }");
    assert_eq!(own.http.per_second.get(), 8, "the entry's own settings win");
    let cma = resolve("profile = \"cma-cgm\"\napi_key = \"k\"");
    assert_eq!(cma, defaults, "no known rate: the defaults");
}
