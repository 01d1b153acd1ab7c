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
use tidemark_domain::TemporaryReason;

pub use protocol::{MAX_CONTAINERS, Reports};

use crate::auth::Auth;
use crate::http::{ConfigError, Endpoint, Failure, endpoint_url, unexpected};
use crate::limits::{Gate, RateLimits};

/// "What does the terminal know of these containers now?"
#[async_trait]
pub trait TerminalConnector: Send + Sync + fmt::Debug {
    /// Its reports of `containers` (normalized ISO 6346 numbers), or why there are none.
    /// Never panics: every problem is a failure.
    async fn check(&self, containers: &[String]) -> Result<Reports, Failure>;
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
            endpoint: Endpoint::new(
                config.auth.clone(),
                config.connect_timeout,
                config.timeout,
                config.max_response_bytes,
            )?,
            gate: Gate::new(config.limits),
        })
    }

    async fn ask(&self, containers: &[String]) -> Result<Reports, Failure> {
        let _slot = self.gate.enter().await;
        let body = serde_json::to_vec(&protocol::Ask { containers }).unwrap_or_default();
        let answer = self
            .endpoint
            .call(|client| {
                client
                    .post(self.url.clone())
                    .header("Accept", "application/json")
                    .header("Content-Type", "application/json")
                    .body(body.clone())
            })
            .await;
        let mut response = answer?;
        if response.status() != StatusCode::OK {
            return Err(Failure::Temporary(unexpected(response.status())));
        }
        let body = self
            .endpoint
            .read(&mut response)
            .await
            .map_err(Failure::Temporary)?;
        protocol::read(&body, containers)
            .map_err(|problem| Failure::Temporary(TemporaryReason::Unrecognized(problem)))
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
}
