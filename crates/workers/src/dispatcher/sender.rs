//! One signed POST of a notification body to a webhook, and what came of it. The
//! dispatcher sends every delivery through it; `POST /v2/webhooks/{id}/test` sends its
//! samples through it too, so a test travels exactly as a delivery would.

use std::sync::Arc;
use std::time::{Duration, Instant};

use reqwest::StatusCode;
use tidemark_domain::webhook::{Attempt, Exchange, Webhook};
use tidemark_domain::{Clock, Timestamp};

use super::DispatcherSettings;
use super::client;

/// Most of an answer's headers kept for a test to show, and most bytes of each value.
const ANSWER_HEADERS: usize = 64;
const HEADER_VALUE_BYTES: usize = 1024;

/// Whether a POST keeps the answer's headers: a test shows them, a delivery has no use
/// for them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AnswerHeaders {
    Kept,
    Dropped,
}

/// What the receiver did, before it is judged.
#[derive(Debug)]
pub(crate) struct Outcome {
    pub(crate) status: Option<StatusCode>,
    pub(crate) retry_after: Option<Duration>,
    pub(crate) error: Option<String>,
    pub(crate) body: Option<String>,
    pub(crate) latency: Duration,
    /// The headers sent; none when nothing was.
    pub(crate) sent_headers: Vec<(String, String)>,
    /// The answer's first headers, when kept.
    pub(crate) answer_headers: Vec<(String, String)>,
}

impl Outcome {
    fn failed(error: String, started: Instant) -> Self {
        Self {
            status: None,
            retry_after: None,
            error: Some(error),
            body: None,
            latency: started.elapsed(),
            sent_headers: Vec::new(),
            answer_headers: Vec::new(),
        }
    }

    /// The outcome as the log records it, for an attempt started `at`.
    pub(crate) fn attempt(self, at: Timestamp) -> Attempt {
        Attempt {
            at,
            status_code: self.status.map(|s| s.as_u16()),
            error: self.error,
            latency_ms: u64::try_from(self.latency.as_millis()).unwrap_or(u64::MAX),
            response_body: self.body,
        }
    }
}

/// Sends notification bodies to webhooks: signed, without following redirects, within the
/// timeout, reaching only the addresses the settings permit.
#[derive(Debug, Clone)]
pub struct Sender {
    client: reqwest::Client,
    settings: Arc<DispatcherSettings>,
    clock: Arc<dyn Clock>,
}

impl Sender {
    /// A sender with the dispatcher's `settings`.
    ///
    /// # Errors
    /// When the HTTP client cannot be built.
    pub fn new(settings: DispatcherSettings, clock: Arc<dyn Clock>) -> reqwest::Result<Self> {
        let client = client::build(
            Arc::clone(&settings.networks),
            Arc::clone(&settings.resolver),
            settings.timeout,
        )?;
        Ok(Self {
            client,
            settings: Arc::new(settings),
            clock,
        })
    }

    /// The settings it sends with.
    #[must_use]
    pub fn settings(&self) -> &DispatcherSettings {
        &self.settings
    }

    /// POSTs `body` to `webhook` as the message `id`, signed now: the attempt, and the
    /// headers each way.
    pub async fn send(&self, webhook: &Webhook, id: &str, body: Vec<u8>) -> Exchange {
        let now = self.clock.now();
        let mut outcome = self.post(webhook, id, now, body, AnswerHeaders::Kept).await;
        let request_headers = std::mem::take(&mut outcome.sent_headers);
        let response_headers = std::mem::take(&mut outcome.answer_headers);
        Exchange {
            attempt: outcome.attempt(now),
            request_headers,
            response_headers,
        }
    }

    /// The headers of a POST of `body` to `webhook` as message `id` at `now`: the media
    /// type, both signatures (by the secrets that sign at `now`), then the webhook's own.
    fn headers(
        &self,
        webhook: &Webhook,
        id: &str,
        now: Timestamp,
        body: &[u8],
    ) -> Vec<(String, String)> {
        let signers = webhook.signers(now);
        let timestamp = now.unix_seconds();
        let mut headers = vec![
            ("content-type".to_owned(), "application/json".to_owned()),
            ("webhook-id".to_owned(), id.to_owned()),
            ("webhook-timestamp".to_owned(), timestamp.to_string()),
            (
                "webhook-signature".to_owned(),
                signers.standard_signature(id, timestamp, body),
            ),
            (
                self.settings.signature_header.as_str().to_owned(),
                signers.hex_signature(body),
            ),
        ];
        headers.extend(
            webhook
                .headers
                .iter()
                .map(|header| (header.name.clone(), header.value.clone())),
        );
        headers
    }

    /// POSTs `body` to `webhook`, signed with the time `now`, and reads at most the
    /// configured bytes of the answer (its headers too when `keep` says so).
    pub(crate) async fn post(
        &self,
        webhook: &Webhook,
        id: &str,
        now: Timestamp,
        body: Vec<u8>,
        keep: AnswerHeaders,
    ) -> Outcome {
        let started = Instant::now();
        if let Err(error) = client::check_literal(&webhook.url, &self.settings.networks) {
            return Outcome::failed(error.to_string(), started);
        }
        let sent_headers = self.headers(webhook, id, now, &body);
        let mut request = self.client.post(webhook.url.target());
        for (name, value) in &sent_headers {
            request = request.header(name.as_str(), value.as_str());
        }
        let mut response = match request.body(body).send().await {
            Err(error) => {
                return Outcome {
                    sent_headers,
                    ..Outcome::failed(describe(error), started)
                };
            }
            Ok(response) => response,
        };
        let status = response.status();
        let answer_headers = (keep == AnswerHeaders::Kept)
            .then(|| response.headers().iter())
            .into_iter()
            .flatten()
            .take(ANSWER_HEADERS)
            .map(|(name, value)| {
                let value = value.as_bytes();
                let value = String::from_utf8_lossy(&value[..value.len().min(HEADER_VALUE_BYTES)]);
                (name.as_str().to_owned(), value.into_owned())
            })
            .collect();
        let retry_after = response
            .headers()
            .get("retry-after")
            .and_then(|value| value.to_str().ok())
            .and_then(|value| tidemark_domain::retry_after::retry_after(value, now));
        let limit = self.settings.response_bytes;
        let mut kept = Vec::new();
        let mut error = None;
        while kept.len() < limit {
            match response.chunk().await {
                Ok(Some(chunk)) => kept.extend_from_slice(&chunk),
                Ok(None) => break,
                Err(read) => {
                    error = Some(describe(read));
                    break;
                }
            }
        }
        kept.truncate(limit);
        Outcome {
            status: Some(status),
            retry_after,
            error,
            body: Some(String::from_utf8_lossy(&kept).into_owned()),
            latency: started.elapsed(),
            sent_headers,
            answer_headers,
        }
    }
}

/// The error with its causes (a refused address is a cause several levels down), without
/// the URL, which may carry credentials.
fn describe(error: reqwest::Error) -> String {
    let error = error.without_url();
    let mut text = error.to_string();
    let mut source = std::error::Error::source(&error);
    while let Some(cause) = source {
        let cause_text = cause.to_string();
        if !text.contains(&cause_text) {
            text.push_str(": ");
            text.push_str(&cause_text);
        }
        source = cause.source();
    }
    text
}

/// The port webhook tests are sent through (`tidemark_app::WebhookSender`): the very
/// sender of deliveries.
#[async_trait::async_trait]
impl tidemark_app::WebhookSender for Sender {
    async fn send(&self, webhook: &Webhook, id: &str, body: Vec<u8>) -> Exchange {
        Self::send(self, webhook, id, body).await
    }
}
