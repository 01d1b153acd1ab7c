//! Which terminal answers for which code: `[terminals.endpoints.CODE]` from the settings for
//! containers tracked at real carriers, the simulator's terminals for containers the
//! sandbox tracks. A container of a real carrier is never asked at a simulated terminal,
//! nor a simulated one at a real terminal.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};
use tidemark_domain::terminal::TerminalCode;

use super::{HttpTerminal, TerminalConfig, TerminalConnector};
use crate::Secret;
use crate::auth::Auth;
use crate::registry::{EndpointConfig, RegistryError, Sandbox, Source, without_credentials};
use crate::settings::HttpSettings;

fn connector(
    settings: &HttpSettings,
    base_url: String,
    auth: Auth,
) -> Result<Arc<HttpTerminal>, String> {
    if settings.timeout.is_zero() {
        return Err("timeout must be above 0".to_owned());
    }
    let config = TerminalConfig {
        base_url,
        auth,
        connect_timeout: settings.connect_timeout,
        timeout: settings.timeout,
        max_response_bytes: settings.max_response_bytes,
        limits: settings.limits(),
    };
    HttpTerminal::new(&config)
        .map(Arc::new)
        .map_err(|error| error.to_string())
}

/// `[terminals]`: the connection defaults and the terminals reached at real endpoints.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TerminalsConfig {
    /// Limits and timeouts of every terminal connection.
    pub defaults: HttpSettings,
    /// Terminals by code (SMDG, BIC facility or FIRMS).
    pub endpoints: BTreeMap<String, EndpointConfig<HttpSettings>>,
}

/// The terminal connectors.
#[derive(Debug, Default)]
pub struct Terminals {
    endpoints: HashMap<TerminalCode, Arc<HttpTerminal>>,
    base_urls: BTreeMap<TerminalCode, String>,
    sandbox: Option<Sandbox>,
    sandboxed: Mutex<HashMap<TerminalCode, Arc<HttpTerminal>>>,
}

impl Terminals {
    /// The terminals as configured, and the simulator's for the sandbox's containers.
    ///
    /// # Errors
    /// The first malformed entry: a bad code, base URL or setting.
    pub fn build(
        config: &TerminalsConfig,
        sandbox: Option<Sandbox>,
    ) -> Result<Self, RegistryError> {
        let mut endpoints = HashMap::new();
        let mut base_urls = BTreeMap::new();
        for (key, endpoint) in &config.endpoints {
            let error = |problem: String| RegistryError {
                entry: format!("terminals.endpoints.{key}"),
                problem,
            };
            let code = TerminalCode::parse(key).map_err(error)?;
            let settings = endpoint.settings.as_ref().unwrap_or(&config.defaults);
            let connector = connector(
                settings,
                endpoint.base_url.clone(),
                endpoint.auth.clone().into(),
            )
            .map_err(error)?;
            base_urls.insert(code.clone(), without_credentials(&endpoint.base_url));
            endpoints.insert(code, connector);
        }
        Ok(Self {
            endpoints,
            base_urls,
            sandbox,
            sandboxed: Mutex::new(HashMap::new()),
        })
    }

    /// The terminals configured by endpoint, for the start-up log.
    #[must_use]
    pub fn describe(&self) -> String {
        if self.base_urls.is_empty() {
            return "no terminal endpoints".to_owned();
        }
        let endpoints: Vec<String> = self
            .base_urls
            .iter()
            .map(|(code, url)| format!("{code} -> {url}"))
            .collect();
        endpoints.join(", ")
    }

    /// The connector of terminal `code` for a container whose carrier data comes from
    /// `source`; `None` when no terminal of that code is reachable for it.
    #[must_use]
    pub fn connector(
        &self,
        code: &TerminalCode,
        source: Source,
    ) -> Option<Arc<dyn TerminalConnector>> {
        match source {
            Source::Carrier => self
                .endpoints
                .get(code)
                .map(|connector| Arc::clone(connector) as Arc<dyn TerminalConnector>),
            Source::Sandbox => self.simulated(code),
        }
    }

    fn simulated(&self, code: &TerminalCode) -> Option<Arc<dyn TerminalConnector>> {
        let sandbox = self.sandbox.as_ref()?;
        let mut cache = self
            .sandboxed
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(connector) = cache.get(code) {
            return Some(Arc::clone(connector) as Arc<dyn TerminalConnector>);
        }
        let base = format!(
            "{}/terminals/{code}",
            sandbox.base_url.trim_end_matches('/')
        );
        let auth = Auth::Header {
            name: "API-Key".to_owned(),
            value: Secret::clone(&sandbox.api_key),
        };
        let connector = connector(&HttpSettings::from(&sandbox.settings), base, auth).ok()?;
        cache.insert(code.clone(), Arc::clone(&connector));
        Some(connector as Arc<dyn TerminalConnector>)
    }
}
