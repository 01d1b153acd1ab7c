//! The DCSA Track & Trace 2.2 connector: `GET {base}/v2/events` by booking, transport
//! document or equipment reference, following `Next-Page` (a cursor token or a URL), with
//! connect and total timeouts, a cap on the answer's size, and per-carrier credentials.
//! A carrier's departures from the standard are its [`Quirks`]; one still on DCSA 1.1.0, or
//! already on the 3.0 beta, is read into 2.2's shape ([`v1`], [`v3`]).

mod mapping;
mod model;
pub mod quirks;
pub mod subscriptions;
mod v1;
pub mod v3;

use std::time::Duration;

use async_trait::async_trait;
use reqwest::{StatusCode, Url};
use tidemark_domain::{LookupOutcome, TemporaryReason};

use crate::auth::Auth;
pub use crate::http::ConfigError;
use crate::http::{Endpoint, Failure, endpoint_url, unexpected};
use crate::profiles::DcsaVersion;
use crate::{CarrierConnector, Lookup};
pub use quirks::Quirks;

/// Where DCSA 2.2 puts the events under a carrier's base URL.
pub const DEFAULT_EVENTS_PATH: &str = "/v2/events";

/// Settings of one carrier's DCSA endpoint.
#[derive(Debug, Clone)]
pub struct DcsaConfig {
    /// The base URL; events are at `{base_url}{events_path}`.
    pub base_url: String,
    /// The events resource under the base URL: DCSA's `/v2/events` unless the carrier's
    /// profile says otherwise.
    pub events_path: String,
    /// Credentials.
    pub auth: Auth,
    /// Longest wait for a connection.
    pub connect_timeout: Duration,
    /// Longest wait for one whole answer.
    pub timeout: Duration,
    /// Largest answer read, in bytes; larger is an unrecognized answer.
    pub max_response_bytes: usize,
    /// `limit` asked per page.
    pub page_size: u32,
    /// Most pages followed for one lookup.
    pub max_pages: u32,
    /// This carrier answers a reference it has never heard of with 404 and a DCSA error
    /// document (the sandbox's `TEST-TR-FAILED`): a definite "not found". Off for others,
    /// where a 404 means a wrong base URL.
    pub unknown_reference_is_404: bool,
    /// The version it speaks: 1.1.0 is read into 2.2's shape; anything else is read as 2.2.
    pub version: DcsaVersion,
    /// Its departures from the standard.
    pub quirks: Quirks,
}

impl DcsaConfig {
    /// Defaults for an endpoint at `base_url`.
    #[must_use]
    pub fn new(base_url: impl Into<String>, auth: Auth) -> Self {
        Self {
            base_url: base_url.into(),
            events_path: DEFAULT_EVENTS_PATH.to_owned(),
            auth,
            connect_timeout: Duration::from_secs(5),
            timeout: Duration::from_secs(30),
            max_response_bytes: 8 * 1024 * 1024,
            page_size: 100,
            max_pages: 50,
            unknown_reference_is_404: false,
            version: DcsaVersion::V2_2,
            quirks: Quirks::default(),
        }
    }
}

/// A carrier reached over DCSA Track & Trace 2.2.
#[derive(Debug)]
pub struct DcsaConnector {
    config: DcsaConfig,
    events_url: Url,
    endpoint: Endpoint,
}

fn temporary(reason: TemporaryReason) -> LookupOutcome {
    LookupOutcome::Temporary(reason)
}

impl DcsaConnector {
    /// A connector as configured.
    ///
    /// # Errors
    /// When the base URL is not http(s) or the client cannot be built.
    pub fn new(config: DcsaConfig) -> Result<Self, ConfigError> {
        let events_url = endpoint_url(&config.base_url, &config.events_path)?;
        let endpoint = Endpoint::new(
            config.auth.clone(),
            config.connect_timeout,
            config.timeout,
            config.max_response_bytes,
        )?;
        Ok(Self {
            config,
            events_url,
            endpoint,
        })
    }

    /// The `API-Version` asked for.
    const fn api_version(&self) -> &'static str {
        match self.config.version {
            DcsaVersion::V1_1 => "1",
            DcsaVersion::V3Beta => "3.0.0",
            DcsaVersion::V2_2 | DcsaVersion::DcsaBased => "2",
        }
    }

    /// The URL of the page after one whose `Next-Page` said `next`.
    fn next_url(&self, first: &Url, next: &str) -> Option<Url> {
        let next = next.trim();
        if next.starts_with("http://") || next.starts_with("https://") {
            return Url::parse(next).ok();
        }
        if next.starts_with('/') {
            return first.join(next).ok();
        }
        let mut url = first.clone();
        url.query_pairs_mut().append_pair("cursor", next);
        Some(url)
    }

    /// One page of events and the `Next-Page` after it.
    async fn page(
        &self,
        url: &Url,
        lookup: &Lookup,
    ) -> Result<(Vec<serde_json::Value>, Option<String>), LookupOutcome> {
        let number = &lookup.number;
        let answer = self
            .endpoint
            .call(|client| {
                client
                    .get(url.clone())
                    .header("Accept", "application/json")
                    .header("API-Version", self.api_version())
            })
            .await;
        let mut response = match answer {
            Ok(response) => response,
            Err(Failure::Temporary(reason)) => return Err(temporary(reason)),
            Err(Failure::Forbidden) => return Err(self.config.quirks.forbidden()),
        };
        match response.status() {
            StatusCode::OK => {}
            StatusCode::BAD_REQUEST => {
                return Err(LookupOutcome::InvalidNumber(format!(
                    "the carrier refused the reference {number:?}"
                )));
            }
            StatusCode::NOT_FOUND => {
                if self.config.unknown_reference_is_404 {
                    let body = self.endpoint.read(&mut response).await.unwrap_or_default();
                    if model::is_error_document(&body, 404) {
                        return Err(LookupOutcome::Unknown);
                    }
                }
                return Err(temporary(TemporaryReason::Unreachable(
                    "the events endpoint answered 404; check the base URL".to_owned(),
                )));
            }
            other => {
                return Err(self
                    .config
                    .quirks
                    .status(other, lookup)
                    .unwrap_or_else(|| temporary(unexpected(other))));
            }
        }
        let next = response
            .headers()
            .get(if self.config.version == DcsaVersion::V3Beta {
                "Next-Page-Cursor"
            } else {
                "Next-Page"
            })
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let body = self.endpoint.read(&mut response).await.map_err(temporary)?;
        let events = match self.config.version {
            DcsaVersion::V1_1 => v1::read(&body, lookup),
            DcsaVersion::V3Beta => v3::read(&body),
            DcsaVersion::V2_2 | DcsaVersion::DcsaBased => serde_json::from_slice(&body)
                .map_err(|error| format!("not a JSON array of events: {error}")),
        };
        let events = events.map_err(|problem| temporary(TemporaryReason::Unrecognized(problem)))?;
        Ok((events, next))
    }

    /// Every event the carrier answers about `lookup`: each query's pages, read into 2.2's
    /// shape, its quirks undone, checked.
    async fn all_events(&self, lookup: &Lookup) -> Result<Vec<model::Event>, LookupOutcome> {
        let mut raw = Vec::new();
        let queries = self.config.quirks.queries(lookup)?;
        let several = queries.len() > 1;
        let mut unknown = None;
        for references in queries {
            match self.pages(lookup, &references).await {
                Ok(events) => raw.extend(events),
                // A pair that is not one shipment's: another may be.
                Err(outcome @ LookupOutcome::NotFound) if several => unknown = Some(outcome),
                Err(outcome) => return Err(outcome),
            }
        }
        if raw.is_empty()
            && let Some(outcome) = unknown
        {
            return Err(outcome);
        }
        self.config.quirks.normalise(&mut raw);
        check(raw)
    }

    /// The pages of one query.
    async fn pages(
        &self,
        lookup: &Lookup,
        references: &quirks::References,
    ) -> Result<Vec<serde_json::Value>, LookupOutcome> {
        let old = self.config.version == DcsaVersion::V1_1;
        let mut first = self.events_url.clone();
        {
            let mut query = first.query_pairs_mut();
            for (name, value) in references {
                query.append_pair(if old { v1::parameter(name) } else { name }, value);
            }
            if !old {
                query.append_pair("limit", &self.config.page_size.to_string());
            }
        }
        let mut url = first.clone();
        let mut raw = Vec::new();
        for _ in 0..self.config.max_pages {
            let (events, next) = self.page(&url, lookup).await?;
            raw.extend(events);
            match next.and_then(|n| self.next_url(&first, &n)) {
                Some(next) => url = next,
                None => return Ok(raw),
            }
        }
        Err(temporary(TemporaryReason::Unrecognized(format!(
            "more than {} pages",
            self.config.max_pages
        ))))
    }
}

/// The events that keep their own rules (DCSA's required fields, ISO 6346, UN/LOCODE,
/// IMO); each one that does not is dropped and logged with its reason, so one bad event
/// costs that event, not the shipment. An answer with events but none valid is not
/// understood.
fn check(raw: Vec<serde_json::Value>) -> Result<Vec<model::Event>, LookupOutcome> {
    let total = raw.len();
    let mut first_problem = None;
    let mut events = Vec::with_capacity(total);
    for (index, value) in raw.into_iter().enumerate() {
        let id = value
            .get("eventID")
            .and_then(serde_json::Value::as_str)
            .unwrap_or("-")
            .to_owned();
        match serde_json::from_value::<model::RawEvent>(value)
            .map_err(|error| error.to_string())
            .and_then(|event| event.check())
        {
            Ok(event) => events.push(event),
            Err(problem) => {
                tracing::warn!(event = index, event_id = %id, %problem, "carrier event dropped");
                first_problem.get_or_insert(format!("event {index}: {problem}"));
            }
        }
    }
    match first_problem {
        Some(problem) if events.is_empty() => Err(temporary(TemporaryReason::Unrecognized(
            format!("no event of {total} keeps the standard's rules; {problem}"),
        ))),
        _ => Ok(events),
    }
}

#[async_trait]
impl CarrierConnector for DcsaConnector {
    async fn lookup(&self, lookup: &Lookup) -> LookupOutcome {
        match self.all_events(lookup).await {
            Ok(events) => {
                let outcome = mapping::outcome(events, lookup);
                tracing::debug!(number = %lookup.number, kind = %lookup.kind, outcome = outcome.label(), "DCSA lookup");
                outcome
            }
            Err(outcome) => {
                tracing::debug!(number = %lookup.number, outcome = outcome.label(), "DCSA lookup failed");
                outcome
            }
        }
    }
}
