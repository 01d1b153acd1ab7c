//! Which terminal answers for which code: `[terminals.endpoints.CODE]` from the settings for
//! containers tracked at real carriers, the simulator's terminals for containers the
//! sandbox tracks. A container of a real carrier is never asked at a simulated terminal,
//! nor a simulated one at a real terminal.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use tidemark_domain::terminal::TerminalCode;

use super::{CallbackTarget, HttpTerminal, TerminalConfig, TerminalConnector};
use crate::auth::Auth;
use crate::callbacks::{CallbackConfig, Callers};
use crate::registry::{
    EndpointConfig, RegistryError, Sandbox, Sandboxed, Source, without_credentials,
};
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
    /// Where terminals reach this Tidemark (`https://tidemark.example.com`): a terminal that
    /// pushes is asked to send its answers to `{callback_base_url}/terminal-callbacks/{CODE}/
    /// import-availability`. Without it, every terminal is only polled.
    pub callback_base_url: Option<String>,
    /// Terminals that push, by code, with the token they push with.
    pub callbacks: BTreeMap<String, CallbackConfig>,
}

/// The terminal connectors.
#[derive(Debug, Default)]
pub struct Terminals {
    endpoints: HashMap<TerminalCode, Arc<HttpTerminal>>,
    callers: Callers<TerminalCode>,
    callback_base: Option<String>,
    base_urls: BTreeMap<TerminalCode, String>,
    sandbox: Option<Sandbox>,
    sandboxed: Sandboxed<TerminalCode, HttpTerminal>,
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
        let callers = Callers::build(
            "terminals.callbacks",
            &config.callbacks,
            |key| TerminalCode::parse(key).ok(),
            sandbox.as_ref(),
        )?;
        let callback_base = config
            .callback_base_url
            .as_deref()
            .map(|base| {
                crate::http::endpoint_url(base, "/")
                    .map(|_| base.trim_end_matches('/').to_owned())
                    .map_err(|problem| RegistryError {
                        entry: "terminals.callback_base_url".to_owned(),
                        problem: problem.to_string(),
                    })
            })
            .transpose()?;
        Ok(Self {
            endpoints,
            callers,
            callback_base,
            base_urls,
            sandbox,
            sandboxed: Sandboxed::default(),
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

    /// Where terminal `code` is asked to push for a container tracked from `source`, when
    /// it pushes and this Tidemark says where it is reached.
    #[must_use]
    pub fn callback(&self, code: &TerminalCode, source: Source) -> Option<CallbackTarget> {
        let base = self.callback_base.as_ref()?;
        let token = self.callers.token(code, source)?;
        Some(CallbackTarget {
            url: format!("{base}/terminal-callbacks/{code}/import-availability"),
            token: token.clone(),
        })
    }

    /// Whose pushes a caller presenting `token` for terminal `code` makes (see
    /// [`Callers::authorize`]).
    #[must_use]
    pub fn authorize(&self, code: &TerminalCode, token: &str) -> Option<Source> {
        self.callers.authorize(code, token)
    }

    fn simulated(&self, code: &TerminalCode) -> Option<Arc<dyn TerminalConnector>> {
        let sandbox = self.sandbox.as_ref()?;
        let connector = self.sandboxed.get_or_build(code, || {
            let settings = sandbox.settings.http.clone();
            connector(
                &settings,
                sandbox.url(&format!("terminals/{code}")),
                sandbox.auth(),
            )
            .ok()
        })?;
        Some(connector as Arc<dyn TerminalConnector>)
    }
}
