//! `Idempotency-Key` on every POST: the first answer to an account's key is kept in the
//! database and replayed, with `Idempotent-Replayed: true`, to a retry of the same request
//! (method, path, query and body) for 24 hours ([`idempotency::KEPT_FOR`]). Another
//! request with the key is refused (422 `idempotency_key_reused`). A retry arriving while
//! the first is still answered waits for its answer (409 `idempotency_in_progress` after
//! [`WAIT`]), so concurrent retries make one resource, across processes. A first answer
//! that failed on our side (5xx) is not kept: a retry runs again.

use std::time::Duration;

use axum::body::Body;
use axum::extract::Request;
use axum::http::header::{CONTENT_TYPE, LOCATION};
use axum::http::{HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::Response;
use tidemark_domain::idempotency::{self, IdempotencyKey};
use tidemark_store::{Claim, KeptAnswer};

use crate::auth::Caller;
use crate::error::ErrorCode;
use crate::error::ErrorSource;
use crate::{ApiError, AppState};

/// The request header.
pub const HEADER: &str = "Idempotency-Key";

/// The header on a replayed answer.
pub const REPLAYED: &str = "Idempotent-Replayed";

/// How long a claim holds before another process may take it over (its holder died).
const LOCK: Duration = Duration::from_secs(60);

/// How long a retry waits for the first request's answer.
pub const WAIT: Duration = Duration::from_secs(10);

/// How often a waiting retry looks again.
const POLL: Duration = Duration::from_millis(20);

/// The largest answer kept.
const MAX_ANSWER: usize = 16 * 1024 * 1024;

fn header_error(code: ErrorCode, detail: impl Into<String>) -> ApiError {
    code.at(detail, ErrorSource::Header(HEADER.to_owned()))
}

/// Runs `request` (the caller's, authenticated) through `next`, answering a POST with the
/// header once per key.
///
/// # Errors
/// A malformed key (400), a key reused for another request (422), a first request still
/// being answered after [`WAIT`] (409), an unreadable body, the database.
pub async fn answer(
    state: &AppState,
    caller: Caller,
    request: Request,
    next: Next,
) -> Result<Response, ApiError> {
    if request.method() != Method::POST {
        return Ok(next.run(request).await);
    }
    let Some(raw) = request.headers().get(HEADER) else {
        return Ok(next.run(request).await);
    };
    let key = IdempotencyKey::parse(raw.as_bytes())
        .map_err(|problem| header_error(ErrorCode::InvalidHeader, problem))?;
    let (parts, body) = request.into_parts();
    let probe = Request::from_parts(parts.clone(), body);
    let deadlines = crate::extract::BodyDeadlines::of(&state.config);
    let bytes = crate::extract::read_body(probe, state.config.body_bytes, deadlines).await?;
    let target = parts
        .uri
        .path_and_query()
        .map_or_else(|| parts.uri.path().to_owned(), ToString::to_string);
    let fingerprint = idempotency::fingerprint(parts.method.as_str(), &target, &bytes);
    // From the claim on, the request runs to its end on a task of its own: a client that
    // goes away (its retry is coming) must not leave the key claimed with nobody to answer,
    // nor the request done with no answer kept for the retry.
    let state = state.clone();
    let request = Request::from_parts(parts, Body::from(bytes));
    tokio::spawn(async move { claimed(&state, caller, &key, &fingerprint, request, next).await })
        .await
        .unwrap_or_else(|error| Err(ApiError::internal(&error)))
}

/// Claims `key` for `request` (waiting up to [`WAIT`] for a first request with it), then
/// answers it once or replays the answer kept.
async fn claimed(
    state: &AppState,
    caller: Caller,
    key: &IdempotencyKey,
    fingerprint: &str,
    request: Request,
    next: Next,
) -> Result<Response, ApiError> {
    let account = caller.account_id;
    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        let now = state.clock.now();
        let claim = state
            .store
            .claim_key(
                account,
                key.as_str(),
                fingerprint,
                now,
                (LOCK, idempotency::KEPT_FOR),
            )
            .await?;
        match claim {
            Claim::Taken => break,
            Claim::Answered {
                fingerprint: first,
                answer,
            } if first == fingerprint => return Ok(replay(answer)),
            Claim::InProgress { fingerprint: first } if first == fingerprint => {
                if tokio::time::Instant::now() >= deadline {
                    return Err(header_error(
                        ErrorCode::IdempotencyInProgress,
                        "the first request with this key is still being answered: retry later",
                    )
                    .with_header(
                        axum::http::header::RETRY_AFTER,
                        HeaderValue::from_static("1"),
                    ));
                }
                tokio::time::sleep(POLL).await;
            }
            Claim::Answered { .. } | Claim::InProgress { .. } => {
                return Err(header_error(
                    ErrorCode::IdempotencyKeyReused,
                    "this key was used for another request: send a new key for a new request",
                ));
            }
        }
    }
    answer_once(state, key, fingerprint, account, next.run(request).await).await
}

/// Keeps `response` for the key (unless it failed on our side) and gives it back.
async fn answer_once(
    state: &AppState,
    key: &IdempotencyKey,
    fingerprint: &str,
    account: tidemark_domain::AccountId,
    response: Response,
) -> Result<Response, ApiError> {
    let (parts, body) = response.into_parts();
    let bytes = match axum::body::to_bytes(body, MAX_ANSWER).await {
        Ok(bytes) => bytes,
        Err(error) => {
            state
                .store
                .release_key(account, key.as_str(), fingerprint)
                .await?;
            return Err(ApiError::internal(&error));
        }
    };
    if parts.status.is_server_error() {
        state
            .store
            .release_key(account, key.as_str(), fingerprint)
            .await?;
    } else {
        let text = |name| {
            parts
                .headers
                .get(name)
                .and_then(|value: &HeaderValue| value.to_str().ok())
                .map(str::to_owned)
        };
        let kept = KeptAnswer {
            status: parts.status.as_u16(),
            content_type: text(CONTENT_TYPE),
            location: text(LOCATION),
            body: bytes.to_vec(),
        };
        state
            .store
            .keep_answer(account, key.as_str(), fingerprint, &kept)
            .await?;
    }
    Ok(Response::from_parts(parts, Body::from(bytes)))
}

/// The kept `answer`, said to be a replay.
fn replay(answer: KeptAnswer) -> Response {
    let mut response = Response::new(Body::from(answer.body));
    *response.status_mut() =
        StatusCode::from_u16(answer.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let headers = response.headers_mut();
    for (name, value) in [
        (CONTENT_TYPE, answer.content_type),
        (LOCATION, answer.location),
    ] {
        if let Some(value) = value.and_then(|v| HeaderValue::from_str(&v).ok()) {
            headers.insert(name, value);
        }
    }
    headers.insert(REPLAYED, HeaderValue::from_static("true"));
    response
}
