//! Configuration: layers, defaults, validation and redaction.
#![allow(
    clippy::result_large_err,
    reason = "figment's Jail fixes the error type of the cases' closures"
)]

use super::*;
use crate::settings::Settings;

mod environment;

/// Runs `case` in a figment jail: a directory and an environment of its own.
fn jailed(case: impl FnOnce(&mut figment::Jail) -> figment::error::Result<()>) {
    figment::Jail::expect_with(case);
}

/// The configuration of `file` (none: defaults and the environment), with no flags.
fn load(file: Option<&str>) -> Result<Config, String> {
    Config::load(file.map(Path::new), &Overrides::default()).map_err(|e| e.to_string())
}

#[test]
#[expect(
    clippy::result_large_err,
    reason = "figment's Jail fixes the closure's error type"
)]
fn the_example_file_documents_exactly_the_defaults() {
    // In a jail: the other tests' variables are set only inside theirs.
    figment::Jail::expect_with(|_| {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../config/tidemark.example.toml");
        let example =
            Config::load(Some(&path), &Overrides::default()).map_err(|e| e.to_string())?;
        let defaults = serde_json::to_value(Config::default()).map_err(|e| e.to_string())?;
        assert_eq!(
            serde_json::to_value(example).map_err(|e| e.to_string())?,
            defaults
        );
        Ok(())
    });
}

#[test]
fn one_key_of_the_sandbox_cadence_keeps_the_others() {
    jailed(|jail| {
        jail.set_env("TIDEMARK_SANDBOX__TRACKING__REFRESH", "10s");
        let config = load(None)?;
        let expected = tidemark_domain::lifecycle::Policy {
            refresh: std::time::Duration::from_secs(10),
            ..tidemark_domain::lifecycle::Policy::sandbox()
        };
        assert_eq!(config.sandbox.tracking, expected);
        assert_eq!(config.policies().sandbox, expected);
        assert_eq!(config.policies().line, config.tracking);
        Ok(())
    });
}

#[test]
fn the_all_carriers_flag_keeps_the_other_sandbox_settings() {
    jailed(|jail| {
        jail.set_env("TIDEMARK_SANDBOX__CLOCK_FACTOR", "60");
        let plain = load(None)?;
        assert_eq!(plain.sandbox_scope(), SandboxScope::TestOnly);
        // A connection's settings keep their defaults through the layers (one flat table).
        assert_eq!(plain.carriers.defaults, Config::default().carriers.defaults);
        let flagged = Config::load(
            None,
            &Overrides {
                sandbox: Some(SandboxOverrides { all_carriers: true }),
                ..Overrides::default()
            },
        )
        .map_err(|e| e.to_string())?;
        assert_eq!(flagged.sandbox_scope(), SandboxScope::AllCarriers);
        assert!((flagged.sandbox.clock_factor - 60.0).abs() < f64::EPSILON);
        jail.set_env("TIDEMARK_SANDBOX__ALL_CARRIERS", "true");
        let by_env = load(None)?;
        assert_eq!(by_env.sandbox_scope(), SandboxScope::AllCarriers);
        Ok(())
    });
}

#[test]
fn carrier_endpoints_come_from_the_environment_and_are_validated() {
    jailed(|jail| {
        jail.set_env(
            "TIDEMARK_CARRIERS__ENDPOINTS__MAEU__BASE_URL",
            "https://api.example.com/tnt",
        );
        jail.set_env("TIDEMARK_CARRIERS__DEFAULTS__PER_SECOND", "3");
        let config = load(None)?;
        assert_eq!(config.carriers.defaults.http.per_second.get(), 3);
        // The environment provider lower-cases keys; SCACs are case-insensitive.
        assert!(
            config
                .carriers
                .endpoints
                .keys()
                .any(|k| k.eq_ignore_ascii_case("MAEU"))
        );
        assert!(Settings::parse(config.clone()).is_ok());
        jail.set_env("TIDEMARK_CARRIERS__ENDPOINTS__MAEU__BASE_URL", "not a url");
        let config = load(None)?;
        let error = Settings::parse(config).expect_err("a bad URL stops the start");
        assert!(
            error
                .to_string()
                .to_ascii_uppercase()
                .contains("CARRIERS.ENDPOINTS.MAEU"),
            "{error}"
        );
        Ok(())
    });
}

#[test]
fn terminal_endpoints_are_read_by_code_and_validated() {
    jailed(|jail| {
        jail.create_file(
            "tidemark.toml",
            "[terminals.defaults]\nper_second = 1\n\n[terminals.endpoints.USORFVIG]\n\
             base_url = \"https://terminal.example.com/vig\"\n\
             auth = { kind = \"header\", name = \"API-Key\", value = \"k\" }\n",
        )?;
        let config = load(None)?;
        assert_eq!(config.terminals.defaults.per_second.get(), 1);
        assert!(config.terminals.endpoints.contains_key("USORFVIG"));
        assert!(Settings::parse(config.clone()).is_ok());
        jail.set_env(
            "TIDEMARK_TERMINALS__ENDPOINTS__USORFVIG__BASE_URL",
            "ftp://terminal.example.com",
        );
        let error = Settings::parse(load(None)?).expect_err("a bad URL stops the start");
        assert!(
            error
                .to_ascii_uppercase()
                .contains("TERMINALS.ENDPOINTS.USORFVIG"),
            "{error}"
        );
        Ok(())
    });
}

#[test]
fn passwords_never_show_in_debug_output() {
    let url = DatabaseUrl("postgres://app:s3cret@db.internal:5432/tidemark".to_owned());
    let shown = format!("{url:?}");
    assert!(!shown.contains("s3cret"), "{shown}");
    assert_eq!(shown, "postgres://app:***@db.internal:5432/tidemark");
    assert_eq!(
        format!("{:?}", DatabaseUrl("sqlite://tidemark.db".into())),
        "sqlite://tidemark.db"
    );
}

#[test]
fn layers_apply_in_order_and_unknown_keys_fail() {
    jailed(|jail| {
        jail.create_file(
            "tidemark.toml",
            "listen = \"127.0.0.1:9000\"\n[rate_limits]\ncreate_per_minute = 7\n",
        )?;
        jail.set_env("TIDEMARK_RATE_LIMITS__CREATE_PER_MINUTE", "9");
        jail.set_env("TIDEMARK_TEST_DATABASE_URL", "ignored");
        // For `serve`, the flag's parser reads it; any other command ignores it.
        jail.set_env("TIDEMARK_ROLES", "api");
        let config = load(None)?;
        assert_eq!(config.listen.port(), 9000);
        assert_eq!(config.rate_limits.create_per_minute.get(), 9);
        let flagged = Config::load(
            None,
            &Overrides {
                listen: Some("127.0.0.1:9100".parse().map_err(|_| "addr")?),
                roles: Some(vec![Role::Tracker]),
                database_url: None,
                webhook_allowed_networks: None,
                sandbox: None,
            },
        )
        .map_err(|e| e.to_string())?;
        assert_eq!(flagged.listen.port(), 9100);
        assert_eq!(flagged.roles, [Role::Tracker]);
        assert_eq!(
            config.roles,
            [Role::Api, Role::Tracker, Role::Dispatcher, Role::Ais],
            "all by default"
        );

        // Webhook networks: none by default, the documented variable, the flag last.
        assert!(
            Settings::parse(config.clone())?
                .api
                .webhook_networks
                .allowed()
                .is_empty()
        );
        jail.set_env("TIDEMARK_WEBHOOK_ALLOWED_NETWORKS", "127.0.0.0/8,::1/128");
        let allowed = load(None)?;
        assert_eq!(
            Settings::parse(allowed)?
                .api
                .webhook_networks
                .allowed()
                .len(),
            2
        );
        let flagged = Config::load(
            None,
            &Overrides {
                webhook_allowed_networks: Some("10.0.0.0/8".to_owned()),
                ..Overrides::default()
            },
        )
        .map_err(|e| e.to_string())?;
        assert_eq!(flagged.webhook_allowed_networks, "10.0.0.0/8");
        let bad = Config {
            webhook_allowed_networks: "127.0.0.0/8,nope".to_owned(),
            ..Config::default()
        };
        let error = Settings::parse(bad).expect_err("a bad network");
        assert!(error.contains("webhook_allowed_networks"), "{error}");
        jail.set_env("TIDEMARK_WEBHOOK_ALLOWED_NETWORKS", "");

        jail.create_file("typo.toml", "lsiten = \"127.0.0.1:1\"\n")?;
        let error = load(Some("typo.toml")).expect_err("unknown key");
        assert!(error.to_string().contains("lsiten"), "{error}");
        Ok(())
    });
}

#[test]
fn tracking_durations_read_human_and_old_integer_keys() {
    jailed(|jail| {
        jail.create_file(
            "human.toml",
            "[tracking]\nretry_first = \"90s\"\nstop_after_arrival = \"10days\"\n[tracker]\npoll = \"250ms\"\n",
        )?;
        let human = load(Some("human.toml"))?;
        assert_eq!(human.tracking.retry_first, Duration::from_secs(90));
        assert_eq!(
            human.tracking.stop_after_arrival,
            Duration::from_secs(10 * 86_400)
        );
        assert_eq!(human.tracker.runner().poll, Duration::from_millis(250));

        jail.create_file(
            "old.toml",
            "[tracking]\nretry_first_secs = 90\nstop_after_arrival_days = 10\nlease_secs = 7\n",
        )?;
        jail.set_env("TIDEMARK_TRACKING__POLL_MS", "250");
        let old = load(Some("old.toml"))?;
        assert_eq!(old.tracking, human.tracking);
        assert_eq!(
            old.tracker.settings(old.policies()).lease,
            Duration::from_secs(7)
        );
        assert_eq!(old.tracker.runner().poll, Duration::from_millis(250));

        jail.create_file("bad.toml", "[tracking]\nretry_first = \"soon\"\n")?;
        let error = load(Some("bad.toml")).expect_err("not a duration");
        assert!(error.to_string().contains("retry_first"), "{error}");
        jail.create_file("typo.toml", "[tracking]\nrety_first = \"1m\"\n")?;
        let error = load(Some("typo.toml")).expect_err("unknown key");
        assert!(error.to_string().contains("rety_first"), "{error}");
        Ok(())
    });
}

#[test]
fn webhook_settings_read_human_and_old_keys_alike() {
    jailed(|jail| {
        jail.create_file(
            "human.toml",
            "webhook_source_ips = [\"203.0.113.7\"]\n[webhooks]\ntimeout = \"20s\"\n\
             disable_after = \"2days\"\n[dispatcher]\nworkers = 8\npoll = \"250ms\"\n",
        )?;
        jail.create_file(
            "old.toml",
            "[webhooks]\ntimeout_secs = 20\ndisable_after_days = 2\nworkers = 8\npoll_ms = 250\n\
             source_ips = [\"203.0.113.7\"]\n",
        )?;
        for file in ["human.toml", "old.toml"] {
            let config = load(Some(file))?;
            let parsed = Settings::parse(config.clone())?;
            let settings = &parsed.dispatcher;
            assert_eq!(settings.timeout, Duration::from_secs(20), "{file}");
            assert_eq!(settings.disable_after, Duration::from_secs(2 * 86_400));
            assert_eq!(settings.lease, Duration::from_secs(5), "the default");
            assert_eq!(settings.response_bytes, 4096, "not configured: the default");
            assert_eq!(config.dispatcher.runner().concurrency, 8);
            assert_eq!(config.dispatcher.runner().poll, Duration::from_millis(250));
            assert_eq!(parsed.api.webhook_source_ips.len(), 1);
        }
        Ok(())
    });
}

#[test]
fn server_and_carrier_timeouts_read_human_and_old_keys_alike() {
    jailed(|jail| {
        jail.create_file(
            "human.toml",
            "shutdown_grace = \"5s\"\n[limits]\nheader_timeout = \"3s\"\nbody_idle_timeout = \"4s\"\nbody_total_timeout = \"90s\"\n\
             [carriers.defaults]\ntimeout = \"20s\"\nconnect_timeout = \"2s\"\n\
             [rate_limits]\ncreate_per_minute = 7\n",
        )?;
        jail.create_file(
            "old.toml",
            "shutdown_grace_secs = 5\n[limits]\nheader_timeout_secs = 3\nbody_idle_timeout_secs = 4\n\
             [carriers.defaults]\ntimeout_secs = 20\nconnect_timeout_secs = 2\n\
             [rate_limits]\ncreate_per_minute = 7\n",
        )?;
        for file in ["human.toml", "old.toml"] {
            let config = load(Some(file))?;
            let parsed = Settings::parse(config.clone())?;
            let server = parsed.server;
            assert_eq!(server.grace, Duration::from_secs(5), "{file}");
            assert_eq!(server.header_timeout, Duration::from_secs(3), "{file}");
            let api = &parsed.api;
            assert_eq!(api.body_idle_timeout, Duration::from_secs(4), "{file}");
            let total = if file == "human.toml" { 90 } else { 60 };
            assert_eq!(api.body_total_timeout, Duration::from_secs(total), "{file}");
            assert_eq!(api.rate_limits.create_per_minute.get(), 7, "{file}");
            assert_eq!(
                api.rate_limits,
                tidemark_api::RateLimitConfig {
                    create_per_minute: api.rate_limits.create_per_minute,
                    ..tidemark_api::RateLimitConfig::default()
                }
            );
            assert_eq!(
                config.carriers.defaults.http.timeout,
                Duration::from_secs(20)
            );
            assert_eq!(
                config.carriers.defaults.http.connect_timeout,
                Duration::from_secs(2)
            );
        }
        let error = load(Some("typo.toml")).err();
        assert!(error.is_some(), "a missing file is an error");
        jail.create_file("zero.toml", "[limits]\nheader_timeout = \"soon\"\n")?;
        let error = load(Some("zero.toml")).expect_err("not a duration");
        assert!(error.contains("header_timeout"), "{error}");
        Ok(())
    });
}

#[test]
fn a_carrier_by_profile_takes_its_secrets_from_the_environment() {
    jailed(|jail| {
        jail.create_file(
            "tidemark.toml",
            "[carriers.endpoints.HLCU]\nprofile = \"hapag-lloyd\"\nclient_id = \"hl-id\"\n",
        )?;
        let missing =
            Settings::parse(load(Some("tidemark.toml"))?).expect_err("the secret is missing");
        assert!(
            missing.contains("carriers.endpoints.HLCU") && missing.contains("client_secret"),
            "{missing}"
        );
        jail.set_env(
            "TIDEMARK_CARRIERS__ENDPOINTS__HLCU__CLIENT_SECRET",
            "hl-secret",
        );
        let config = load(Some("tidemark.toml"))?;
        Settings::parse(config.clone())?;
        let endpoint = &config.carriers.endpoints["HLCU"];
        assert_eq!(endpoint.profile.as_deref(), Some("hapag-lloyd"));
        assert!(!format!("{config:?}").contains("hl-secret"), "redacted");
        Ok(())
    });
}

#[test]
fn environment_keys_name_endpoints_in_capitals() {
    assert_eq!(
        super::env_key("CARRIERS.ENDPOINTS.hlcu.CLIENT_SECRET"),
        "carriers.endpoints.HLCU.client_secret"
    );
    assert_eq!(super::env_key("TRACKING.REFRESH"), "tracking.refresh");
}

#[test]
fn the_delivery_log_keeps_settled_notifications_a_day_to_ten_years() {
    const DAY: u64 = 24 * 3600;
    jailed(|jail| {
        let days = |config: Config| {
            Settings::parse(config).map(|s| s.retention.duration().as_secs() / DAY)
        };
        assert_eq!(days(load(None)?), Ok(90));
        jail.create_file("week.toml", "[webhooks]\nretention = \"7days\"\n")?;
        assert_eq!(days(load(Some("week.toml"))?), Ok(7));
        jail.create_file("short.toml", "[webhooks]\nretention = \"12h\"\n")?;
        let refused = Settings::parse(load(Some("short.toml"))?).map(|_| ());
        let expected = "webhooks.retention: from 1 to 3650 days, not 43200 s";
        assert_eq!(refused, Err(expected.to_owned()));
        Ok(())
    });
}
