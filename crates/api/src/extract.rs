//! Our own extractors, so malformed input becomes a JSON:API error, never axum's plain text.

use std::collections::BTreeMap;

use std::time::Duration;

use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::HeaderValue;
use axum::http::header::{CONNECTION, CONTENT_LENGTH, EXPECT};
use axum::http::request::Parts;
use bytes::Bytes;
use http_body_util::BodyExt;
use serde_json::Value;
use tokio::time::Instant;

use crate::error::ErrorCode;
use crate::{ApiError, AppState};

/// A request body parsed as JSON, after the media type and size checks.
#[derive(Debug)]
pub struct JsonBody(pub Value);

/// The JSON body of an operation that takes no query parameter of JSON:API's families:
/// the query is read, then the body, then the query checked, in the order a handler taking
/// [`QueryParams`] and [`JsonBody`] checks them.
#[derive(Debug)]
pub struct Input(pub Value);

impl FromRequest<AppState> for Input {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &AppState) -> Result<Self, ApiError> {
        let query = QueryParams::parse(request.uri().query().unwrap_or(""))?;
        let JsonBody(body) = JsonBody::from_request(request, state).await?;
        query.finish()?;
        Ok(Self(body))
    }
}

/// How much of an oversized body is read and discarded before answering 413 (or the
/// body's limit, when larger), so a client still sending gets the answer instead of a reset
/// connection. Larger bodies are cut off.
const DRAIN_LIMIT: u64 = 1024 * 1024;

/// How long a body may take: each part within `idle` of the last, the whole within
/// `total` of the first byte asked for.
#[derive(Debug, Clone, Copy)]
pub struct BodyDeadlines {
    /// The longest pause between two parts.
    pub idle: Duration,
    /// The longest time for the whole body.
    pub total: Duration,
}

impl BodyDeadlines {
    /// The deadlines the API's configuration sets.
    #[must_use]
    pub fn of(config: &crate::ApiConfig) -> Self {
        Self {
            idle: config.body_idle_timeout,
            total: config.body_total_timeout,
        }
    }
}

/// Why a body stopped being read.
enum Stopped {
    /// No part arrived within the idle gap.
    Idle,
    /// The whole took longer than its total.
    Total,
}

/// The next part of `body` (its data; none for trailers), if it arrives within the idle
/// gap and before `deadline`; `None` at the end.
async fn next_frame(
    body: &mut axum::body::Body,
    idle: Duration,
    deadline: Instant,
) -> Result<Option<Result<Option<Bytes>, axum::Error>>, Stopped> {
    let left = deadline.saturating_duration_since(Instant::now());
    if left.is_zero() {
        return Err(Stopped::Total);
    }
    match tokio::time::timeout(idle.min(left), body.frame()).await {
        Ok(frame) => Ok(frame.map(|part| part.map(|frame| frame.into_data().ok()))),
        Err(_) if left <= idle => Err(Stopped::Total),
        Err(_) => Err(Stopped::Idle),
    }
}

/// Reads the rest of `body`, discarding it, until `budget` bytes have been read, within the
/// same deadlines as a body read whole.
async fn drain(mut body: axum::body::Body, mut budget: u64, idle: Duration, deadline: Instant) {
    while budget > 0 {
        match next_frame(&mut body, idle, deadline).await {
            Ok(Some(Ok(data))) => {
                let read = data.map_or(0, |data| data.len() as u64);
                budget = budget.saturating_sub(read.max(1));
            }
            _ => return,
        }
    }
}

impl FromRequest<AppState> for JsonBody {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &AppState) -> Result<Self, ApiError> {
        crate::negotiation::check_content_type(request.headers())?;
        let deadlines = BodyDeadlines::of(&state.config);
        let bytes = read_body(request, state.config.body_bytes, deadlines).await?;
        let value = serde_json::from_slice(&bytes).map_err(|error| {
            ApiError::malformed_json(format!("the body is not valid JSON: {error}"), None)
        })?;
        Ok(Self(value))
    }
}

/// An answer after which the connection is closed: the client's body was not read whole.
fn closing(error: ApiError) -> ApiError {
    error.with_header(CONNECTION, HeaderValue::from_static("close"))
}

/// The body of `request`, at most `limit` bytes (413 beyond), each part arriving within
/// the idle gap of the last and the whole within the total deadline (408 after either).
/// An oversized body is drained within the same deadlines before its 413. Each refusal
/// closes the connection.
pub async fn read_body(
    request: Request,
    limit: usize,
    deadlines: BodyDeadlines,
) -> Result<Vec<u8>, ApiError> {
    let deadline = Instant::now() + deadlines.total;
    let too_large = || {
        closing(ErrorCode::PayloadTooLarge.error(format!("the body is larger than {limit} bytes")))
    };
    let timed_out = |why: Stopped| {
        let detail = match why {
            Stopped::Idle => format!(
                "the body stopped arriving for {} s",
                deadlines.idle.as_secs()
            ),
            Stopped::Total => format!(
                "the body took longer than {} s to arrive",
                deadlines.total.as_secs()
            ),
        };
        closing(ErrorCode::RequestTimeout.error(detail))
    };
    let declared = request
        .headers()
        .get(CONTENT_LENGTH)
        .and_then(|value| value.to_str().ok())
        .and_then(|text| text.parse::<u64>().ok());
    // A client that waits for `100 Continue` has sent nothing yet: answering at once
    // spares it the upload (hyper sends `100 Continue` only when the body is read).
    let waits_to_send = request
        .headers()
        .get(EXPECT)
        .is_some_and(|value| value.as_bytes().eq_ignore_ascii_case(b"100-continue"));
    let mut body = request.into_body();
    let budget = DRAIN_LIMIT.max(limit as u64);
    if declared.is_some_and(|length| length > limit as u64) {
        if !waits_to_send {
            drain(body, budget, deadlines.idle, deadline).await;
        }
        return Err(too_large());
    }
    let mut bytes = Vec::new();
    loop {
        let frame = next_frame(&mut body, deadlines.idle, deadline)
            .await
            .map_err(timed_out)?;
        let Some(frame) = frame else { break };
        let data =
            frame.map_err(|_| ApiError::malformed_json("the body could not be read", None))?;
        if let Some(data) = data {
            if bytes.len() + data.len() > limit {
                drain(body, budget, deadlines.idle, deadline).await;
                return Err(too_large());
            }
            bytes.extend_from_slice(&data);
        }
    }
    Ok(bytes)
}

/// The one variable segment of a resource's path (an id, a SCAC, an IMO number). A segment
/// that cannot be read as text (`%ff`) names nothing: 404, never axum's plain-text 400.
#[derive(Debug)]
pub struct PathId(pub String);

impl<S: Send + Sync> FromRequestParts<S> for PathId {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        match axum::extract::Path::<String>::from_request_parts(parts, state).await {
            Ok(axum::extract::Path(id)) => Ok(Self(id)),
            Err(_) => Err(ApiError::not_found("nothing here has this id")),
        }
    }
}

/// Whether `key` belongs to one of JSON:API's parameter families.
fn of_json_api(key: &str) -> bool {
    matches!(key, "include" | "sort")
        || ["fields[", "page[", "filter["]
            .iter()
            .any(|family| key.starts_with(family))
}

/// The query string, decoded (raw or percent-encoded brackets alike). Handlers take the
/// parameters they know; [`QueryParams::finish`] rejects the rest of JSON:API's own
/// families (JA-82) and ignores any other parameter, as the reference API does (api.md §1).
#[derive(Debug, Default)]
pub struct QueryParams {
    pairs: BTreeMap<String, String>,
    original: Vec<(String, String)>,
    /// Parameters outside JSON:API's families given more than once: an error only if a
    /// handler reads one.
    repeated: Vec<String>,
    taken: Vec<String>,
    /// Every parameter a handler looked for, given or not: what the endpoint takes.
    asked: std::collections::BTreeSet<String>,
}

fn given_twice(key: &str) -> ApiError {
    ApiError::bad_parameter(
        ErrorCode::InvalidParameter,
        key,
        format!("{key} is given more than once"),
    )
}

impl QueryParams {
    /// Parses a query string.
    ///
    /// # Errors
    /// 400 when a parameter of JSON:API's families is given twice.
    pub fn parse(query: &str) -> Result<Self, ApiError> {
        let mut params = Self::default();
        for (key, value) in form_urlencoded::parse(query.as_bytes()) {
            let (key, value) = (key.into_owned(), value.into_owned());
            if params.pairs.insert(key.clone(), value.clone()).is_some() {
                if of_json_api(&key) {
                    return Err(given_twice(&key));
                }
                params.repeated.push(key.clone());
            }
            params.original.push((key, value));
        }
        Ok(params)
    }

    /// Takes a parameter's value.
    pub fn take(&mut self, key: &str) -> Option<String> {
        let value = self.pairs.remove(key);
        self.asked.insert(key.to_owned());
        if value.is_some() {
            self.taken.push(key.to_owned());
        }
        value
    }

    /// The parameters as sent, in order, for building links.
    #[must_use]
    pub fn original(&self) -> &[(String, String)] {
        &self.original
    }

    /// Rejects every parameter of JSON:API's families (`include`, `sort`, `fields[…]`,
    /// `page[…]`, `filter[…]`) that no one took, and any parameter a handler read that was
    /// given twice; every other parameter is ignored.
    ///
    /// # Errors
    /// 400 `invalid_filter` for an unknown `filter[…]`, `invalid_parameter` otherwise.
    pub fn finish(&self) -> Result<(), ApiError> {
        if let Some(key) = self.taken.iter().find(|key| self.repeated.contains(key)) {
            return Err(given_twice(key));
        }
        match self.pairs.keys().find(|key| of_json_api(key)) {
            None => Ok(()),
            Some(key) if key.starts_with("filter[") => {
                let supported: Vec<&str> = self
                    .asked
                    .iter()
                    .map(String::as_str)
                    .filter(|asked| asked.starts_with("filter["))
                    .collect();
                let detail = if supported.is_empty() {
                    format!("{key} is not a filter of this endpoint, which takes none")
                } else {
                    format!(
                        "{key} is not a filter of this endpoint; it takes {}",
                        supported.join(", ")
                    )
                };
                Err(ApiError::bad_parameter(
                    ErrorCode::InvalidFilter,
                    key,
                    detail,
                ))
            }
            Some(key) => Err(ApiError::bad_parameter(
                ErrorCode::InvalidParameter,
                key,
                format!("{key} is not a parameter of this endpoint"),
            )),
        }
    }
}

impl<S: Send + Sync> FromRequestParts<S> for QueryParams {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, ApiError> {
        Self::parse(parts.uri.query().unwrap_or(""))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_and_encoded_brackets_are_the_same_parameter() {
        let mut params =
            QueryParams::parse("page%5Bsize%5D=5&filter[status]=pending").expect("valid");
        assert_eq!(params.take("page[size]").as_deref(), Some("5"));
        assert_eq!(params.take("filter[status]").as_deref(), Some("pending"));
        assert!(params.finish().is_ok());
    }

    #[test]
    fn leftovers_are_rejected_by_kind() {
        let params = QueryParams::parse("filter[colour]=red").expect("valid");
        assert_eq!(
            params.finish().map_err(|e| e.status()),
            Err(axum::http::StatusCode::BAD_REQUEST)
        );
        for family in ["sort=name", "fields[container]=number", "page[offset]=3"] {
            let params = QueryParams::parse(family).expect("valid");
            assert!(params.finish().is_err(), "{family}");
        }
        let params = QueryParams::parse("fooBar=1&utm[x]=2").expect("valid");
        assert!(params.finish().is_ok(), "others are ignored");
    }

    #[test]
    fn repeated_parameters_are_rejected_when_read() {
        assert!(QueryParams::parse("include=a&include=b").is_err());
        let mut params = QueryParams::parse("q=a&q=b&tag=1&tag=2").expect("parses");
        assert_eq!(params.take("q").as_deref(), Some("b"));
        assert!(params.finish().is_err(), "q was read");
        let params = QueryParams::parse("tag=1&tag=2").expect("parses");
        assert!(params.finish().is_ok(), "tag is ignored");
    }
}
