//! Where each line's Arrival Notices are read: `[arrival_notices.endpoints.SCAC]` for the
//! shipments of real carriers, the simulator's publisher for the sandbox's. A line without
//! an endpoint is not asked: its containers' line fields stay unknown. And who may push
//! them: a line presenting its `[arrival_notices.callbacks.SCAC]` token speaks for the
//! shipments tracked from the line, the simulator presenting the sandbox's key for the
//! sandbox's.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use tidemark_domain::Scac;

use super::{ArrivalNoticeConnector, HttpArrivalNotices};
use crate::callbacks::{CallbackConfig, Callers};
use crate::registry::{EndpointConfig, RegistryError, Sandbox, Sandboxed, Source};
use crate::settings::HttpSettings;

/// `[arrival_notices]`: the connection defaults and the lines whose notices are read.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ArrivalNoticesConfig {
    /// Limits and timeouts of every publisher connection.
    pub defaults: HttpSettings,
    /// Publishers by the line's SCAC; notices at `{base_url}/arrival-notices`.
    pub endpoints: BTreeMap<String, EndpointConfig<HttpSettings>>,
    /// Lines that push their notices to `/carrier-callbacks/{SCAC}/arrival-notices` (and
    /// `…/arrival-notice-notifications`), by SCAC.
    pub callbacks: BTreeMap<String, CallbackConfig>,
}

/// The Arrival Notice connectors.
#[derive(Debug, Default)]
pub struct Publishers {
    endpoints: HashMap<Scac, Arc<HttpArrivalNotices>>,
    callers: Callers<Scac>,
    sandbox: Option<Sandbox>,
    sandboxed: Sandboxed<Scac, HttpArrivalNotices>,
}

impl Publishers {
    /// The publishers as configured, and the simulator's for the sandbox's shipments.
    ///
    /// # Errors
    /// The first malformed entry: a bad SCAC, base URL or setting.
    pub fn build(
        config: &ArrivalNoticesConfig,
        sandbox: Option<Sandbox>,
    ) -> Result<Self, RegistryError> {
        let mut endpoints = HashMap::new();
        for (key, endpoint) in &config.endpoints {
            let error = |problem: String| RegistryError {
                entry: format!("arrival_notices.endpoints.{key}"),
                problem,
            };
            let scac = Scac::parse(key).map_err(|_| error("not a SCAC".to_owned()))?;
            let settings = endpoint.settings.as_ref().unwrap_or(&config.defaults);
            if settings.timeout.is_zero() {
                return Err(error("timeout must be above 0".to_owned()));
            }
            let connector =
                HttpArrivalNotices::new(&endpoint.base_url, endpoint.auth.clone().into(), settings)
                    .map_err(|problem| error(problem.to_string()))?;
            endpoints.insert(scac, Arc::new(connector));
        }
        let callers = Callers::build(
            "arrival_notices.callbacks",
            &config.callbacks,
            |key| Scac::parse(key).ok(),
            sandbox.as_ref(),
        )?;
        Ok(Self {
            endpoints,
            callers,
            sandbox,
            sandboxed: Sandboxed::default(),
        })
    }

    /// The publisher of line `scac` for a shipment whose data comes from `source`.
    #[must_use]
    pub fn connector(&self, scac: Scac, source: Source) -> Option<Arc<dyn ArrivalNoticeConnector>> {
        match source {
            Source::Carrier => self
                .endpoints
                .get(&scac)
                .map(|connector| Arc::clone(connector) as Arc<dyn ArrivalNoticeConnector>),
            Source::Sandbox => self.simulated(scac),
        }
    }

    /// Whose pushes for line `scac` a caller presenting `token` makes: the line's, for the
    /// shipments tracked from it, or the simulator's, for the sandbox's; `None` for anyone
    /// else. Tokens are compared in constant time.
    #[must_use]
    pub fn authorize(&self, scac: Scac, token: &str) -> Option<Source> {
        self.callers.authorize(&scac, token)
    }

    fn simulated(&self, scac: Scac) -> Option<Arc<dyn ArrivalNoticeConnector>> {
        let sandbox = self.sandbox.as_ref()?;
        let connector = self.sandboxed.get_or_build(&scac, || {
            let settings = sandbox.settings.http.clone();
            HttpArrivalNotices::new(&sandbox.url(scac.as_str()), sandbox.auth(), &settings)
                .ok()
                .map(Arc::new)
        })?;
        Some(connector as Arc<dyn ArrivalNoticeConnector>)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Secret;

    fn config(text: &str) -> ArrivalNoticesConfig {
        toml::from_str(text).expect("a configuration")
    }

    #[test]
    fn a_push_is_the_line_s_with_its_token_or_the_sandbox_s_with_its_key() {
        let scac = |code: &str| Scac::parse(code).expect("scac");
        let sandbox = Sandbox {
            base_url: "http://127.0.0.1:1".to_owned(),
            api_key: Secret::new("sandbox-key"),
            settings: crate::registry::ConnectionSettings::default(),
            ais_feed: None,
        };
        let publishers = Publishers::build(
            &config("[callbacks.MAEU]\ntoken = \"a-long-line-token-1234\""),
            Some(sandbox),
        )
        .expect("valid");
        let token = "a-long-line-token-1234";
        assert_eq!(
            publishers.authorize(scac("MAEU"), token),
            Some(Source::Carrier)
        );
        assert_eq!(
            publishers.authorize(scac("HLCU"), token),
            None,
            "another line's"
        );
        assert_eq!(publishers.authorize(scac("MAEU"), &token[1..]), None);
        assert_eq!(publishers.authorize(scac("MAEU"), ""), None);
        assert_eq!(
            publishers.authorize(scac("HLCU"), "sandbox-key"),
            Some(Source::Sandbox)
        );
        assert!(!format!("{publishers:?}").contains(token), "redacted");
    }

    #[test]
    fn a_short_token_or_a_bad_scac_is_refused_at_start() {
        for (text, entry) in [
            (
                "[callbacks.MAEU]\ntoken = \"short\"",
                "arrival_notices.callbacks.MAEU",
            ),
            (
                "[callbacks.maersk]\ntoken = \"a-long-line-token-1234\"",
                "arrival_notices.callbacks.maersk",
            ),
        ] {
            let error = Publishers::build(&config(text), None).expect_err("refused");
            assert_eq!(error.entry, entry);
        }
    }
}
