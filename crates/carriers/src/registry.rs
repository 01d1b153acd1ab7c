//! Which connector serves which SCAC: a real DCSA endpoint from the settings, or the
//! sandbox (the carrier simulator) for every other SCAC; each within its limits.

use std::collections::{BTreeMap, HashMap};
use std::num::NonZeroU32;
use std::sync::Arc;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use tidemark_domain::quota::Quota;
use tidemark_domain::{Coverage, LineSource, SandboxScope, Scac};

mod connection;
mod described;
mod endpoint;
mod pushers;
mod sandboxed;
mod source;
pub use connection::ConnectionSettings;
pub use endpoint::{AuthConfig, CarrierEndpoint, HeaderConfig};
pub(crate) use sandboxed::Sandboxed;
pub use source::Source;

use crate::arrival_notice::registry::{ArrivalNoticesConfig, Publishers};
use crate::auth::Auth;
use crate::dcsa::{DcsaConfig, DcsaConnector};
use crate::limits::{Limited, RateLimits};
use crate::profiles::Quirk;
use crate::terminal::registry::{Terminals, TerminalsConfig};
use crate::{CarrierConnector, Secret};
pub use described::{auth_style, describe};
pub use pushers::Pusher;
use pushers::Pushers;

impl Serialize for Secret {
    /// Secrets serialize redacted: a settings dump never carries them.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str("***")
    }
}

impl<'de> Deserialize<'de> for Secret {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        String::deserialize(deserializer).map(Self::new)
    }
}

/// A carrier reached at its own DCSA endpoint (a terminal at its own, with
/// [`HttpSettings`](crate::settings::HttpSettings)).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EndpointConfig<S = ConnectionSettings> {
    /// Base URL; a carrier's events are at `{base_url}/v2/events`, a terminal's answers at
    /// `{base_url}/import-availability`.
    pub base_url: String,
    /// Credentials.
    #[serde(default)]
    pub auth: AuthConfig,
    /// Limits and timeouts, when they differ from the section's `defaults`.
    #[serde(default)]
    pub settings: Option<S>,
}

/// `[carriers]`: the connection defaults and the carriers reached at real endpoints.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CarriersConfig {
    /// Limits and timeouts of every connection.
    pub defaults: ConnectionSettings,
    /// Real DCSA endpoints by SCAC, by profile or written out; every other SCAC is served
    /// by the sandbox.
    pub endpoints: BTreeMap<String, CarrierEndpoint>,
    /// Where carriers that push reach Tidemark (`{callback_base_url}/carrier-callbacks/SCAC`):
    /// without it no carrier is asked to push.
    pub callback_base_url: Option<String>,
    /// The tokens carriers push their DCSA 3.0 events with (`POST
    /// /carrier-callbacks/SCAC/v3/events`), by SCAC: `[carriers.callbacks.SCAC] token`.
    pub callbacks: BTreeMap<String, crate::callbacks::CallbackConfig>,
}

/// A settings problem found at start.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{entry}: {problem}")]
pub struct RegistryError {
    /// The entry, by its dotted path (`carriers.endpoints.MAEU`).
    pub entry: String,
    /// What is wrong.
    pub problem: String,
}

/// Where the sandbox (the carrier simulator) answers.
#[derive(Debug, Clone)]
pub struct Sandbox {
    /// Its base URL; a SCAC's events are at `{base_url}/{SCAC}/v2/events`.
    pub base_url: String,
    /// The key it expects in `API-Key`.
    pub api_key: Secret,
    /// Limits and timeouts of its connections (the simulator is local, so they may be
    /// far above a real carrier's).
    pub settings: ConnectionSettings,
    /// Its AIS feed (`tcp://…`), where its vessels report their positions, when it serves
    /// one.
    pub ais_feed: Option<String>,
}

fn dcsa_config(base_url: String, auth: Auth, settings: &ConnectionSettings) -> DcsaConfig {
    DcsaConfig {
        base_url,
        events_path: crate::dcsa::DEFAULT_EVENTS_PATH.to_owned(),
        auth,
        connect_timeout: settings.http.connect_timeout,
        timeout: settings.http.timeout,
        max_response_bytes: settings.http.max_response_bytes,
        page_size: settings.page_size,
        max_pages: settings.max_pages,
        unknown_reference_is_404: false,
        version: crate::profiles::DcsaVersion::V2_2,
        quirks: crate::dcsa::Quirks::default(),
    }
}

fn limited(config: DcsaConfig, settings: &ConnectionSettings) -> Result<Arc<Limited>, String> {
    let connector = DcsaConnector::new(config).map_err(|error| error.to_string())?;
    Ok(limit(Arc::new(connector), settings))
}

fn limit(connector: Arc<DcsaConnector>, settings: &ConnectionSettings) -> Arc<Limited> {
    Arc::new(Limited::new(
        connector,
        RateLimits {
            per_second: settings.http.per_second,
            burst: settings.http.burst,
            concurrency: settings.http.concurrency,
        },
    ))
}

/// `url` without a user name or password, for logs.
pub(crate) fn without_credentials(url: &str) -> String {
    match reqwest::Url::parse(url) {
        Ok(mut parsed) if !parsed.username().is_empty() || parsed.password().is_some() => {
            let _ = parsed.set_username("");
            let _ = parsed.set_password(None);
            parsed.to_string()
        }
        _ => url.to_owned(),
    }
}

/// The connectors of every SCAC.
#[derive(Debug)]
pub struct Registry {
    endpoints: HashMap<Scac, Arc<Limited>>,
    base_urls: BTreeMap<Scac, String>,
    sandbox: Option<Sandbox>,
    coverage: Coverage,
    sandboxed: Sandboxed<Scac, Limited>,
    terminals: Terminals,
    notices: Publishers,
    pushers: Pushers,
}

impl Registry {
    /// Connectors as configured; SCACs without an endpoint go to `sandbox` as far as
    /// `scope` reaches (the sandbox line `TEST` only, unless the operator asked for all).
    ///
    /// # Errors
    /// The first malformed entry: a bad SCAC, base URL or setting.
    pub fn build(
        config: &CarriersConfig,
        sandbox: Option<Sandbox>,
        scope: SandboxScope,
    ) -> Result<Self, RegistryError> {
        let mut endpoints = HashMap::new();
        let mut base_urls = BTreeMap::new();
        let mut pushers = Pushers::new(
            config.callback_base_url.as_deref(),
            &config.callbacks,
            sandbox.as_ref(),
        )?;
        let mut details = BTreeMap::new();
        for (key, scac, resolved) in described::resolve_all(config)? {
            let error = |problem: String| described::entry_error(key, problem);
            let endpoint = &config.endpoints[key];
            details.insert(
                scac,
                described::line_endpoint(
                    endpoint.profile.as_deref(),
                    &resolved,
                    config.callback_base_url.is_some(),
                ),
            );
            let settings = &resolved.settings;
            if settings.http.timeout.is_zero() || settings.page_size == 0 || settings.max_pages == 0
            {
                return Err(error(
                    "timeout, page_size and max_pages must be above 0".to_owned(),
                ));
            }
            let dcsa = DcsaConfig {
                events_path: resolved.events_path,
                version: resolved.version,
                quirks: resolved.quirks.clone(),
                ..dcsa_config(resolved.base_url.clone(), resolved.auth, settings)
            };
            let connector = Arc::new(DcsaConnector::new(dcsa).map_err(|e| error(e.to_string()))?);
            pushers.read_with(scac, resolved.quirks);
            if resolved.push == crate::profiles::Push::Dcsa22 {
                pushers.add(scac, Arc::clone(&connector));
            }
            // The rate and burst are the shared quota's, held by the tracker across
            // processes; in here only the lookups in flight are capped.
            let mut shared = settings.clone();
            shared.http.per_second = NonZeroU32::MAX;
            shared.http.burst = NonZeroU32::MAX;
            endpoints.insert(scac, limit(connector, &shared));
            base_urls.insert(scac, without_credentials(&resolved.base_url));
        }
        let scope = if sandbox.is_some() {
            scope
        } else {
            SandboxScope::Off
        };
        Ok(Self {
            coverage: Coverage::new(endpoints.keys().copied(), scope).with_details(details),
            endpoints,
            base_urls,
            terminals: Terminals::build(&TerminalsConfig::default(), sandbox.clone())?,
            notices: Publishers::build(&ArrivalNoticesConfig::default(), sandbox.clone())?,
            sandbox,
            sandboxed: Sandboxed::default(),
            pushers,
        })
    }

    /// The quota every process together keeps to at `scac`'s own endpoint (the sandbox's
    /// lines have none: the simulator is ours).
    #[must_use]
    pub fn quota(&self, scac: Scac) -> Option<Quota> {
        self.coverage.endpoint(scac).map(|endpoint| endpoint.quota)
    }

    /// Whose 3.0 pushes a caller presenting `token` for `scac` makes: the carrier's (its
    /// `[carriers.callbacks.SCAC] token`), or the simulator's for the sandbox's lines.
    #[must_use]
    pub fn authorize_push(&self, scac: Scac, token: &str) -> Option<Source> {
        self.pushers.authorize(scac, token)
    }

    /// A DCSA 3.0 push of `scac` (`{"events": […]}`), read with its quirks.
    ///
    /// # Errors
    /// Not a 3.0 push, or nothing in it readable.
    pub fn read_v3_push(&self, scac: Scac, body: &[u8]) -> Result<crate::dcsa::v3::Pushed, String> {
        self.pushers.read_v3(scac, body)
    }

    /// `scac`'s subscriptions and the callback URL it is to push to, when it pushes.
    #[must_use]
    pub fn pusher(&self, scac: Scac) -> Option<Pusher> {
        self.pushers.get(scac)
    }

    /// These connectors with the terminals of `config` (the simulator's terminals serve
    /// the sandbox's containers either way).
    ///
    /// # Errors
    /// The first malformed terminal entry.
    pub fn with_terminals(mut self, config: &TerminalsConfig) -> Result<Self, RegistryError> {
        self.terminals = Terminals::build(config, self.sandbox.clone())?;
        Ok(self)
    }

    /// The terminal connectors.
    #[must_use]
    pub const fn terminals(&self) -> &Terminals {
        &self.terminals
    }

    /// These connectors with the Arrival Notice publishers of `config` (the simulator's
    /// serves the sandbox's shipments either way).
    ///
    /// # Errors
    /// The first malformed publisher entry.
    pub fn with_arrival_notices(
        mut self,
        config: &ArrivalNoticesConfig,
    ) -> Result<Self, RegistryError> {
        self.notices = Publishers::build(config, self.sandbox.clone())?;
        Ok(self)
    }

    /// The Arrival Notice connectors.
    #[must_use]
    pub const fn arrival_notices(&self) -> &Publishers {
        &self.notices
    }

    /// Which lines these connectors track, and from where.
    #[must_use]
    pub fn coverage(&self) -> &Coverage {
        &self.coverage
    }

    /// The sandbox's AIS feed, when it serves one.
    #[must_use]
    pub fn sandbox_ais_feed(&self) -> Option<&str> {
        self.sandbox.as_ref()?.ais_feed.as_deref()
    }

    /// The SCACs configured by endpoint and the sandbox's reach, for the start-up log.
    #[must_use]
    pub fn describe(&self) -> String {
        let endpoints: Vec<String> = self
            .base_urls
            .iter()
            .map(|(scac, url)| format!("{scac} -> {url}"))
            .collect();
        let sandbox = match self.coverage.sandbox() {
            SandboxScope::Off => "no sandbox",
            SandboxScope::TestOnly => "TEST -> sandbox",
            SandboxScope::AllCarriers => "every other SCAC -> sandbox (sandbox.all_carriers)",
        };
        let terminals = self.terminals.describe();
        if endpoints.is_empty() {
            format!("no carrier endpoints; {terminals}; {sandbox}")
        } else {
            format!("{}; {terminals}; {sandbox}", endpoints.join(", "))
        }
    }

    /// The connector for `scac` and where its data comes from; `None` when this instance
    /// cannot track the SCAC (no endpoint, and the sandbox does not serve it).
    #[must_use]
    pub fn connector(&self, scac: &Scac) -> Option<(Arc<dyn CarrierConnector>, Source)> {
        if let Some(connector) = self.endpoints.get(scac) {
            return Some((
                Arc::clone(connector) as Arc<dyn CarrierConnector>,
                Source::Carrier,
            ));
        }
        if self.coverage.source(*scac) != Some(LineSource::Sandbox) {
            return None;
        }
        let sandbox = self.sandbox.as_ref()?;
        let connector = self.sandboxed.get_or_build(scac, || {
            let settings = &sandbox.settings;
            // The simulator's sandbox withholds a shipment with 403 (its `forbidden`
            // fault): access to that shipment, not our credentials.
            let config = DcsaConfig {
                unknown_reference_is_404: true,
                quirks: [Quirk::ForbiddenMeansNoAccess].into_iter().collect(),
                ..dcsa_config(sandbox.url(scac.as_str()), sandbox.auth(), settings)
            };
            limited(config, settings).ok()
        })?;
        Some((connector as Arc<dyn CarrierConnector>, Source::Sandbox))
    }
}

#[cfg(test)]
mod tests;
