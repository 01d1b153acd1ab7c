//! DCSA Track & Trace 2.2 push, the subscriber's side of the carrier's API:
//! `POST {base}/v2/event-subscriptions` with the shipment's reference, our callback URL and
//! a shared secret (the carrier answers the `subscriptionID`), `DELETE …/{id}` when
//! tracking stops (a subscription the carrier no longer knows is gone already), and
//! `PUT …/{id}/secret` to replace the secret. And the events a callback carries, read with
//! the carrier's quirks and checked like a poll's: their ids and creation times, so a
//! replay is heard once.

use async_trait::async_trait;
use reqwest::{StatusCode, Url};
use serde_json::{Value, json};
use tidemark_domain::{PushSecret, TemporaryReason, Timestamp};

use super::DcsaConnector;
use super::quirks::filter;
use crate::Lookup;
use crate::http::{Failure, unexpected};

/// Most events one callback may carry.
pub const MAX_PUSHED_EVENTS: usize = 1_000;

/// A carrier that pushes events to subscribers.
#[async_trait]
pub trait EventSubscriber: Send + Sync + std::fmt::Debug {
    /// Subscribes `callback_url` to the events of `lookup`'s shipment, signed with
    /// `secret`; the carrier's `subscriptionID`.
    async fn subscribe(
        &self,
        lookup: &Lookup,
        callback_url: &str,
        secret: &PushSecret,
    ) -> Result<String, Failure>;

    /// Ends the subscription `id`.
    async fn unsubscribe(&self, id: &str) -> Result<(), Failure>;

    /// Replaces the secret of the subscription `id`.
    async fn rotate(&self, id: &str, secret: &PushSecret) -> Result<(), Failure>;

    /// The events of a callback's `body`: `(eventID, eventCreatedDateTime)` of each that
    /// keeps the standard's rules.
    ///
    /// # Errors
    /// Not a JSON array of events, too many, or none readable.
    fn read_pushed(&self, body: &[u8]) -> Result<Vec<(String, Timestamp)>, String>;
}

fn unrecognized(problem: impl Into<String>) -> Failure {
    Failure::Temporary(TemporaryReason::Unrecognized(problem.into()))
}

impl DcsaConnector {
    /// `{base}/v2/event-subscriptions`, beside the events resource.
    fn subscriptions_url(&self, tail: &str) -> Result<Url, Failure> {
        let events = self.events_url.as_str().trim_end_matches('/');
        let base = events.strip_suffix("/events").unwrap_or(events);
        Url::parse(&format!("{base}/event-subscriptions{tail}"))
            .map_err(|error| unrecognized(format!("no subscriptions URL: {error}")))
    }

    async fn send_json(
        &self,
        method: reqwest::Method,
        url: Url,
        body: Option<Value>,
        ok: &[StatusCode],
    ) -> Result<Vec<u8>, Failure> {
        let mut response = self
            .endpoint
            .call(|client| {
                let request = client
                    .request(method.clone(), url.clone())
                    .header("Accept", "application/json")
                    .header("API-Version", "2");
                match &body {
                    Some(body) => request.json(body),
                    None => request,
                }
            })
            .await?;
        if !ok.contains(&response.status()) {
            return Err(Failure::Temporary(unexpected(response.status())));
        }
        self.endpoint
            .read(&mut response)
            .await
            .map_err(Failure::Temporary)
    }
}

#[async_trait]
impl EventSubscriber for DcsaConnector {
    async fn subscribe(
        &self,
        lookup: &Lookup,
        callback_url: &str,
        secret: &PushSecret,
    ) -> Result<String, Failure> {
        let body = json!({
            "callbackUrl": callback_url,
            "secret": secret.expose(),
            filter(lookup.kind): lookup.number,
        });
        let url = self.subscriptions_url("")?;
        let ok = [StatusCode::CREATED, StatusCode::OK];
        let answer = self
            .send_json(reqwest::Method::POST, url, Some(body), &ok)
            .await?;
        serde_json::from_slice::<Value>(&answer)
            .ok()
            .and_then(|v| {
                v.get("subscriptionID")
                    .and_then(Value::as_str)
                    .map(str::to_owned)
            })
            .filter(|id| !id.is_empty() && id.len() <= 100)
            .ok_or_else(|| unrecognized("the subscription's answer names no subscriptionID"))
    }

    async fn unsubscribe(&self, id: &str) -> Result<(), Failure> {
        let url = self.subscriptions_url(&format!("/{}", urlencoding(id)))?;
        let ok = [
            StatusCode::NO_CONTENT,
            StatusCode::OK,
            StatusCode::NOT_FOUND,
        ];
        self.send_json(reqwest::Method::DELETE, url, None, &ok)
            .await
            .map(drop)
    }

    async fn rotate(&self, id: &str, secret: &PushSecret) -> Result<(), Failure> {
        let url = self.subscriptions_url(&format!("/{}/secret", urlencoding(id)))?;
        let body = json!({"secret": secret.expose()});
        let ok = [StatusCode::NO_CONTENT, StatusCode::OK];
        self.send_json(reqwest::Method::PUT, url, Some(body), &ok)
            .await
            .map(drop)
    }

    fn read_pushed(&self, body: &[u8]) -> Result<Vec<(String, Timestamp)>, String> {
        let mut raw: Vec<Value> = serde_json::from_slice(body)
            .map_err(|error| format!("not a JSON array of events: {error}"))?;
        if raw.len() > MAX_PUSHED_EVENTS {
            return Err(format!(
                "more than {MAX_PUSHED_EVENTS} events in one callback"
            ));
        }
        self.config.quirks.normalise(&mut raw);
        // A retraction (3.0's `isRetracted`, which some push ahead of it) is news of its
        // own: heard once, apart from the event it withdraws.
        let retracted: Vec<bool> = raw
            .iter()
            .map(|event| event.get("isRetracted") == Some(&Value::Bool(true)))
            .collect();
        let ids: Vec<Option<String>> = raw
            .iter()
            .map(|event| {
                event
                    .get("eventID")
                    .and_then(Value::as_str)
                    .map(str::to_owned)
            })
            .collect();
        let events = super::check(raw).map_err(|outcome| match outcome {
            tidemark_domain::LookupOutcome::Temporary(TemporaryReason::Unrecognized(problem)) => {
                problem
            }
            other => other.label().to_owned(),
        })?;
        Ok(events
            .into_iter()
            .map(|event| {
                let withdrawn = ids
                    .iter()
                    .zip(&retracted)
                    .any(|(id, retracted)| *retracted && id.as_deref() == Some(event.id.as_str()));
                let id = if withdrawn {
                    format!("{}:retracted", event.id)
                } else {
                    event.id
                };
                (id, event.created)
            })
            .collect())
    }
}

/// `id` made safe as one path segment.
fn urlencoding(id: &str) -> String {
    form_urlencoded::byte_serialize(id.as_bytes()).collect()
}
