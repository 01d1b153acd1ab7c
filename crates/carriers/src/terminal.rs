//! Terminals: how Tidemark asks a container terminal what it knows of the containers it
//! discharges (`docs/terminals.md`, "The terminal protocol"). The protocol's field names
//! live only here (and in the simulator).
//!
//! [`TerminalConnector`] is the one question; [`HttpTerminal`] asks it over HTTP
//! (`POST {base_url}/import-availability`, at most [`MAX_CONTAINERS`] a request), with the
//! carriers' credentials and failure rules ([`crate::http`]), within the terminal's rate
//! limits; [`registry`] says which terminal code is reached where.

pub mod protocol;
pub mod registry;

use std::fmt;
use std::time::Duration;

use async_trait::async_trait;
use reqwest::{StatusCode, Url};
use tidemark_domain::{TemporaryReason, Timestamp};

pub use protocol::{MAX_CONTAINERS, Reports};

use crate::auth::Auth;
use crate::http::{ConfigError, Endpoint, Failure, endpoint_url, unexpected};
use crate::limits::{Gate, RateLimits};

/// "What does the terminal know of these containers now?", and "tell me when it changes".
#[async_trait]
pub trait TerminalConnector: Send + Sync + fmt::Debug {
    /// Its reports of `containers` (normalized ISO 6346 numbers), or why there are none.
    /// Never panics: every problem is a failure.
    async fn check(&self, containers: &[String]) -> Result<Reports, Failure>;

    /// Asks the terminal to push its answers of `containers` to `target` as they change;
    /// until when it will. Never panics: every problem is a failure.
    async fn subscribe(
        &self,
        containers: &[String],
        target: &CallbackTarget,
    ) -> Result<Timestamp, Failure>;
}

/// Where a terminal pushes, and with what token.
#[derive(Debug, Clone)]
pub struct CallbackTarget {
    /// The URL it POSTs its answers to.
    pub url: String,
    /// The bearer token it sends.
    pub token: crate::Secret,
}

/// Settings of one terminal's endpoint.
#[derive(Debug, Clone)]
pub struct TerminalConfig {
    /// The base URL; the protocol is at `{base_url}/import-availability`.
    pub base_url: String,
    /// Credentials.
    pub auth: Auth,
    /// Longest wait for a connection.
    pub connect_timeout: Duration,
    /// Longest wait for one whole answer.
    pub timeout: Duration,
    /// Largest answer read, in bytes; larger is an unrecognized answer.
    pub max_response_bytes: usize,
    /// Requests per second and in flight: each request of at most [`MAX_CONTAINERS`]
    /// waits its turn.
    pub limits: RateLimits,
}

/// A terminal reached over the terminal protocol.
#[derive(Debug)]
pub struct HttpTerminal {
    url: Url,
    subscriptions: Url,
    endpoint: Endpoint,
    gate: Gate,
}

impl HttpTerminal {
    /// A connector as configured.
    ///
    /// # Errors
    /// When the base URL is not http(s) or the client cannot be built.
    pub fn new(config: &TerminalConfig) -> Result<Self, ConfigError> {
        Ok(Self {
            url: endpoint_url(&config.base_url, "/import-availability")?,
            subscriptions: endpoint_url(&config.base_url, "/import-availability/subscriptions")?,
            endpoint: Endpoint::new(
                config.auth.clone(),
                config.connect_timeout,
                config.timeout,
                config.max_response_bytes,
            )?,
            gate: Gate::new(config.limits),
        })
    }

    /// POSTs `body` to `url` within the terminal's limits; the answer's body when it is
    /// one of `expected`.
    async fn post(
        &self,
        url: &Url,
        body: Vec<u8>,
        expected: &[StatusCode],
    ) -> Result<Vec<u8>, Failure> {
        let _slot = self.gate.enter().await;
        let answer = self
            .endpoint
            .call(|client| {
                client
                    .post(url.clone())
                    .header("Accept", "application/json")
                    .header("Content-Type", "application/json")
                    .body(body.clone())
            })
            .await;
        let mut response = answer?;
        if !expected.contains(&response.status()) {
            return Err(Failure::Temporary(unexpected(response.status())));
        }
        self.endpoint
            .read(&mut response)
            .await
            .map_err(Failure::Temporary)
    }

    async fn ask(&self, containers: &[String]) -> Result<Reports, Failure> {
        let body = serde_json::to_vec(&protocol::Ask { containers }).unwrap_or_default();
        let answer = self.post(&self.url, body, &[StatusCode::OK]).await?;
        protocol::read(&answer, containers).map_err(unrecognized)
    }
}

#[async_trait]
impl TerminalConnector for HttpTerminal {
    async fn check(&self, containers: &[String]) -> Result<Reports, Failure> {
        let mut reports = Vec::with_capacity(containers.len());
        for chunk in containers.chunks(MAX_CONTAINERS) {
            reports.extend(self.ask(chunk).await?);
        }
        Ok(reports)
    }

    async fn subscribe(
        &self,
        containers: &[String],
        target: &CallbackTarget,
    ) -> Result<Timestamp, Failure> {
        let mut until: Option<Timestamp> = None;
        for chunk in containers.chunks(MAX_CONTAINERS) {
            let body = serde_json::to_vec(&protocol::Subscribe {
                containers: chunk,
                callback_url: &target.url,
                callback_token: target.token.expose(),
            })
            .unwrap_or_default();
            let answer = self
                .post(
                    &self.subscriptions,
                    body,
                    &[StatusCode::OK, StatusCode::CREATED],
                )
                .await?;
            let ends = protocol::read_subscription(&answer).map_err(unrecognized)?;
            until = Some(until.map_or(ends, |earlier| earlier.min(ends)));
        }
        until.ok_or_else(|| unrecognized("no container to subscribe to".to_owned()))
    }
}

fn unrecognized(problem: String) -> Failure {
    Failure::Temporary(TemporaryReason::Unrecognized(problem))
}
