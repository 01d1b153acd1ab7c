//! The HTTP every connector speaks, carrier or terminal: one client with connect and total
//! timeouts and no redirects, credentials attached by an [`Authenticator`] (an OAuth2
//! token renewed once when refused), the statuses every outside party means the same by
//! (`401`, `403`, `429`, `503` with `Retry-After`), and answers read up to a cap.

use std::time::Duration;

use reqwest::{RequestBuilder, Response, StatusCode, Url};
use tidemark_domain::{Clock, SystemClock, TemporaryReason};

use crate::auth::{Auth, AuthError, Authenticator};

/// Why a connector cannot be built.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The base URL does not parse or is not http(s).
    #[error("base URL {0:?} is not an http or https URL")]
    BaseUrl(String),
    /// The HTTP client could not be built.
    #[error("cannot build the HTTP client: {0}")]
    Client(String),
}

/// `{base_url}{path}`, when it is an http(s) URL.
///
/// # Errors
/// When it is not.
pub fn endpoint_url(base_url: &str, path: &str) -> Result<Url, ConfigError> {
    let base = base_url.trim_end_matches('/');
    Url::parse(&format!("{base}{path}"))
        .ok()
        .filter(|url| matches!(url.scheme(), "http" | "https"))
        .ok_or_else(|| ConfigError::BaseUrl(base_url.to_owned()))
}

/// Why an outside party gave no answer (a DCSA connector maps these onto lookup
/// outcomes; terminals and Arrival Notice publishers answer with them).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// Worth asking again later: no answer, refused credentials, "slow down",
    /// "unavailable", or an answer out of the protocol.
    Temporary(TemporaryReason),
    /// `403`: our credentials are good, but this is not shared with us; asking again soon
    /// will not change that.
    Forbidden,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Temporary(reason) => write!(f, "{reason}"),
            Self::Forbidden => f.write_str("access refused (403)"),
        }
    }
}

/// One outside party's HTTP endpoint: its client, credentials and answer cap.
#[derive(Debug)]
pub struct Endpoint {
    client: reqwest::Client,
    auth: Authenticator,
    max_response_bytes: usize,
}

/// The wait a `Retry-After` asks for (`tidemark_domain::retry_after`). An outside party's
/// date is in real time, so it is read against the system's clock.
fn retry_after(response: &Response) -> Option<Duration> {
    let value = response.headers().get("Retry-After")?.to_str().ok()?;
    tidemark_domain::retry_after::retry_after(value, SystemClock.now())
}

/// The reason of an answer with an unexpected status.
#[must_use]
pub fn unexpected(status: StatusCode) -> TemporaryReason {
    TemporaryReason::Unreachable(format!("status {}", status.as_u16()))
}

/// Why a request got no answer, in words an operator can act on: the host name does not
/// resolve, the TLS handshake failed, the connection was refused, or it timed out. Only
/// the causes' kinds are named, never the URL (it may carry credentials).
pub fn why(error: &reqwest::Error) -> String {
    if error.is_timeout() {
        return "timed out".to_owned();
    }
    let mut causes = Vec::new();
    let mut source = std::error::Error::source(error);
    while let Some(cause) = source {
        causes.push(cause.to_string().to_lowercase());
        source = cause.source();
    }
    let said = |words: &[&str]| causes.iter().any(|c| words.iter().any(|w| c.contains(w)));
    if said(&[
        "dns",
        "failed to lookup",
        "name or service not known",
        "no such host",
    ]) {
        "DNS: the host name does not resolve".to_owned()
    } else if said(&[
        "certificate",
        "tls",
        "ssl",
        "handshake",
        "corrupt message",
        "invalidcontenttype",
    ]) {
        "TLS: the handshake failed (certificate, or not TLS at that port)".to_owned()
    } else if said(&["refused"]) {
        "connection refused".to_owned()
    } else if error.is_connect() {
        "connection failed".to_owned()
    } else {
        "no answer".to_owned()
    }
}

impl Endpoint {
    /// An endpoint reached with `auth`, within these timeouts, reading at most
    /// `max_response_bytes` of an answer.
    ///
    /// # Errors
    /// When the HTTP client cannot be built.
    pub fn new(
        auth: Auth,
        connect_timeout: Duration,
        timeout: Duration,
        max_response_bytes: usize,
    ) -> Result<Self, ConfigError> {
        let client = reqwest::Client::builder()
            .connect_timeout(connect_timeout)
            .timeout(timeout)
            .redirect(reqwest::redirect::Policy::none())
            .user_agent(concat!("tidemark/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|error| ConfigError::Client(error.to_string()))?;
        Ok(Self {
            client,
            auth: Authenticator::new(auth),
            max_response_bytes,
        })
    }

    /// Sends the request `build` makes with our credentials, once more with a fresh token
    /// when refused, and answers the response unless its status says what every party
    /// means by it (`401`, `403`, `429`, `503`): `200` and any other status are the
    /// caller's to read.
    ///
    /// # Errors
    /// No answer, refused credentials, "slow down", "unavailable" or "forbidden".
    pub async fn call(
        &self,
        build: impl Fn(&reqwest::Client) -> RequestBuilder + Send + Sync,
    ) -> Result<Response, Failure> {
        let mut renewed = false;
        loop {
            let response = self.send(build(&self.client)).await?;
            let temporary = |reason| Err(Failure::Temporary(reason));
            return match response.status() {
                StatusCode::UNAUTHORIZED if self.auth.renews_tokens() && !renewed => {
                    self.auth.forget_token().await;
                    renewed = true;
                    continue;
                }
                StatusCode::UNAUTHORIZED => temporary(TemporaryReason::Unauthorized),
                StatusCode::FORBIDDEN => Err(Failure::Forbidden),
                StatusCode::TOO_MANY_REQUESTS => temporary(TemporaryReason::RateLimited {
                    retry_after: retry_after(&response),
                }),
                StatusCode::SERVICE_UNAVAILABLE => temporary(TemporaryReason::Unavailable {
                    retry_after: retry_after(&response),
                }),
                _ => Ok(response),
            };
        }
    }

    async fn send(&self, request: RequestBuilder) -> Result<Response, Failure> {
        let request = self
            .auth
            .apply(&self.client, request)
            .await
            .map_err(|error| {
                Failure::Temporary(match error {
                    AuthError::Refused => TemporaryReason::Unauthorized,
                    AuthError::Unreachable(detail) => TemporaryReason::Unreachable(detail),
                    AuthError::Unrecognized(detail) => TemporaryReason::Unrecognized(detail),
                })
            })?;
        request
            .send()
            .await
            .map_err(|error| Failure::Temporary(TemporaryReason::Unreachable(why(&error))))
    }

    /// The whole answer, at most the endpoint's cap of it.
    ///
    /// # Errors
    /// Too large, cut off or timed out.
    pub async fn read(&self, response: &mut Response) -> Result<Vec<u8>, TemporaryReason> {
        let limit = self.max_response_bytes;
        let too_large =
            || TemporaryReason::Unrecognized(format!("the answer is larger than {limit} bytes"));
        if response
            .content_length()
            .is_some_and(|length| length > limit as u64)
        {
            return Err(too_large());
        }
        let mut body = Vec::new();
        loop {
            match response.chunk().await {
                Ok(Some(chunk)) => {
                    if body.len() + chunk.len() > limit {
                        return Err(too_large());
                    }
                    body.extend_from_slice(&chunk);
                }
                Ok(None) => return Ok(body),
                Err(error) if error.is_timeout() => {
                    return Err(TemporaryReason::Unreachable(
                        "timed out reading the answer".to_owned(),
                    ));
                }
                Err(error) => {
                    return Err(TemporaryReason::Unrecognized(format!(
                        "the answer was cut off: {error}"
                    )));
                }
            }
        }
    }
}
