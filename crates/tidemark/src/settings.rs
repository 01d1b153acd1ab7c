//! The configuration, checked once: every setting that is only used later (carrier
//! endpoints, the sandbox, the roles, networks, retention) is parsed here at start, so a
//! mistake stops the start instead of the first lookup, and nothing downstream falls back
//! to a default.

use std::sync::Arc;
use std::time::Duration;

use tidemark_api::ApiConfig;
use tidemark_domain::webhook::{MAX_SECRET_GRACE, Networks, Retention};
use tidemark_domain::{CarrierMatrix, Limits};

use crate::config::Config;
use crate::http_server::ServerSettings;

/// [`Config`], validated, with what each part of the application needs derived from it.
#[derive(Debug, Clone)]
pub struct Settings {
    /// The settings as read.
    pub config: Config,
    /// The carrier matrix: the configured file, else the one shipped with Tidemark.
    pub matrix: Arc<CarrierMatrix>,
    /// How webhooks are delivered (and the API's tests of them are sent).
    pub dispatcher: tidemark_workers::DispatcherSettings,
    /// How long the delivery log keeps settled notifications.
    pub retention: Retention,
    /// What the API layer needs.
    pub api: ApiConfig,
    /// How the HTTP server treats slow clients and shutdowns.
    pub server: ServerSettings,
    /// The AIS feeds and their tracks.
    pub ais: tidemark_workers::AisSettings,
}

impl Settings {
    /// Checks `config` and derives the parts' settings from it.
    ///
    /// # Errors
    /// The first bad setting, named.
    pub fn parse(config: Config) -> Result<Self, String> {
        tidemark_carriers::registry::Registry::build(
            &config.carriers,
            None,
            tidemark_domain::SandboxScope::Off,
        )
        .and_then(|registry| registry.with_terminals(&config.terminals))
        .and_then(|registry| registry.with_arrival_notices(&config.arrival_notices))
        .map_err(|error| error.to_string())?;
        if config.roles.is_empty() {
            return Err("roles: name at least one of api, tracker, dispatcher, ais".to_owned());
        }
        let networks = Networks::parse_list(&config.webhook_allowed_networks)
            .map_err(|error| format!("webhook_allowed_networks: {error}"))?;
        let grace = config.webhooks.secret_grace;
        if grace > MAX_SECRET_GRACE {
            return Err(format!(
                "webhooks.secret_grace: at most {} days, not {} s",
                MAX_SECRET_GRACE.as_secs() / 86_400,
                grace.as_secs()
            ));
        }
        let retention = Retention::new(config.webhooks.retention)
            .map_err(|error| format!("webhooks.retention: {error}"))?;
        let factor = config.sandbox.clock_factor;
        if !(factor.is_finite() && factor > 0.0) {
            return Err(format!(
                "sandbox.clock_factor: must be above 0, not {factor}"
            ));
        }
        let matrix = matrix(config.carriers_file.as_deref())?;
        let coverage = tidemark_domain::Coverage::new(
            config
                .carriers
                .endpoints
                .keys()
                .filter_map(|key| tidemark_domain::Scac::parse(key).ok()),
            config.sandbox_scope(),
        )
        .with_details(
            tidemark_carriers::registry::describe(&config.carriers)
                .map_err(|error| error.to_string())?,
        );
        let api = ApiConfig {
            limits: Limits {
                request_number_chars: config.limits.request_number_chars,
                list_items: config.limits.list_items,
                list_item_chars: config.limits.list_item_chars,
            },
            body_bytes: config.limits.body_bytes,
            body_idle_timeout: at_least_a_second(config.limits.body_idle_timeout),
            body_total_timeout: at_least_a_second(config.limits.body_total_timeout),
            page_size_default: config.limits.page_size_default,
            page_size_max: config.limits.page_size_max,
            rate_limits: config.rate_limits,
            webhook_networks: networks.clone(),
            webhook_source_ips: config.webhook_source_ips.clone(),
            coverage,
            webhook_retention: retention,
            links: public_links(&config.http)?,
        };
        let dispatcher = tidemark_workers::DispatcherSettings {
            lease: at_least_a_second(config.webhooks.lease),
            timeout: at_least_a_second(config.webhooks.timeout),
            networks: Arc::new(networks),
            ..config.webhooks.clone()
        };
        let server = ServerSettings {
            header_timeout: at_least_a_second(config.limits.header_timeout),
            grace: config.shutdown_grace,
        };
        let ais = config.ais.settings()?;
        Ok(Self {
            config,
            matrix,
            dispatcher,
            retention,
            api,
            server,
            ais,
        })
    }

    /// How long a rotated webhook secret keeps signing beside the new one.
    #[must_use]
    pub fn secret_grace(&self) -> Duration {
        self.config.webhooks.secret_grace
    }
}

fn at_least_a_second(duration: Duration) -> Duration {
    duration.max(Duration::from_secs(1))
}

/// The carrier matrix: the file at `path` when given, else the one shipped with Tidemark.
fn matrix(path: Option<&std::path::Path>) -> Result<Arc<CarrierMatrix>, String> {
    let matrix = match path {
        Some(path) => {
            let text = std::fs::read_to_string(path).map_err(|error| {
                format!("cannot read the carrier matrix {}: {error}", path.display())
            })?;
            CarrierMatrix::parse_toml(&text)
                .map_err(|error| format!("invalid carrier matrix {}: {error}", path.display()))?
        }
        None => CarrierMatrix::bundled()
            .map_err(|error| format!("the bundled carrier matrix is invalid: {error}"))?,
    };
    Ok(Arc::new(matrix))
}

/// Where the API's links point, as `[http]` says.
fn public_links(
    http: &crate::config::HttpConfig,
) -> Result<tidemark_api::public_links::PublicLinks, String> {
    let public_url = http
        .public_url
        .as_deref()
        .map(tidemark_api::public_links::PublicLinks::parse_public_url)
        .transpose()
        .map_err(|error| format!("http.public_url: {error}"))?;
    Ok(tidemark_api::public_links::PublicLinks {
        public_url,
        trust_forwarded_headers: http.trust_forwarded_headers,
    })
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::Settings;
    use crate::config::Config;

    #[test]
    fn the_tracker_decides_with_the_configured_policy() {
        let mut config = Config::default();
        config.tracking.refresh = Duration::from_secs(10);
        let policy = config.tracker.settings(config.policies()).policies.line;
        assert_eq!(policy, config.tracking);
        assert_ne!(policy, tidemark_domain::lifecycle::Policy::default());
    }

    #[test]
    fn a_rotated_secret_signs_at_most_thirty_days() {
        let mut config = Config::default();
        assert_eq!(
            Settings::parse(config.clone()).map(|settings| settings.secret_grace()),
            Ok(Duration::from_secs(24 * 3600))
        );
        config.webhooks.secret_grace = Duration::from_secs(30 * 24 * 3600);
        assert!(Settings::parse(config.clone()).is_ok());
        config.webhooks.secret_grace = Duration::from_secs(30 * 24 * 3600 + 1);
        let refused = Settings::parse(config).expect_err("too long");
        assert_eq!(
            refused,
            "webhooks.secret_grace: at most 30 days, not 2592001 s"
        );
    }
}
