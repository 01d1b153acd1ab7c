//! Authentication by API key (api.md §1): `Authorization: Token <key>` or `Bearer <key>`.
//!
//! The key is found by its visible prefix and compared by hash in constant time; keys
//! once verified are kept in memory ([`keys::KeyCache`]), and a revocation reaches every
//! process within a second through the database's key counter.

pub mod keys;

use axum::extract::{FromRequestParts, Request, State};
use axum::http::header::AUTHORIZATION;
use axum::http::request::Parts;
use axum::middleware::Next;
use axum::response::Response;
use tidemark_domain::{AccountId, ApiKeySecret};

use crate::{ApiError, AppState};

/// The authenticated caller, put into the request by [`authenticate`].
#[derive(Debug, Clone, Copy)]
pub struct Caller {
    /// The account every query is scoped to.
    pub account_id: AccountId,
}

/// Extracts the bearer of `Authorization: Token <key>` or `Bearer <key>`.
fn presented_key(request: &Request) -> Result<ApiKeySecret, ApiError> {
    let value = request
        .headers()
        .get(AUTHORIZATION)
        .ok_or_else(|| ApiError::unauthorized("send your API key as Authorization: Token <key>"))?;
    let text = value
        .to_str()
        .map_err(|_| ApiError::unauthorized("the Authorization header is not readable text"))?;
    let (scheme, key) = text
        .trim()
        .split_once(' ')
        .ok_or_else(|| ApiError::unauthorized("use the form Authorization: Token <key>"))?;
    if !(scheme.eq_ignore_ascii_case("token") || scheme.eq_ignore_ascii_case("bearer")) {
        return Err(ApiError::unauthorized(
            "the Authorization scheme must be Token or Bearer",
        ));
    }
    ApiKeySecret::parse(key.trim())
        .ok_or_else(|| ApiError::unauthorized("the API key is invalid or revoked"))
}

/// Middleware: admits requests with a valid, unrevoked key and records the caller.
pub async fn authenticate(
    State(state): State<AppState>,
    mut request: Request,
    next: Next,
) -> Result<Response, ApiError> {
    let key = presented_key(&request)?;
    let record = state
        .keys
        .verified(&key, state.store.as_ref())
        .await?
        .ok_or_else(|| ApiError::unauthorized("the API key is invalid or revoked"))?;
    tracing::Span::current().record("account", tracing::field::display(record.account_id));
    request.extensions_mut().insert(Caller {
        account_id: record.account_id,
    });
    Ok(next.run(request).await)
}

impl<S: Send + Sync> FromRequestParts<S> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, ApiError> {
        parts.extensions.get::<Self>().copied().ok_or_else(|| {
            ApiError::unauthorized("send your API key as Authorization: Token <key>")
        })
    }
}
