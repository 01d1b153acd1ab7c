//! Authentication by API key (api.md §1): `Authorization: Token <key>` or `Bearer <key>`.
//!
//! The key is found by its visible prefix and compared by hash in constant time; keys
//! once verified are kept in memory ([`keys::KeyCache`]), and a revocation reaches every
//! process within a second through the database's key counter.

pub mod keys;

use axum::extract::{FromRequestParts, Request};
use axum::http::header::AUTHORIZATION;
use axum::http::request::Parts;
use tidemark_domain::{AccountId, ApiKeySecret};

use crate::{ApiError, AppState};

/// The authenticated caller, put into the request by [`admit`].
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

/// Admits a request with a valid, unrevoked key: the caller, also put into the request's
/// extensions for the handlers and recorded on the request's span.
///
/// # Errors
/// 401 when no valid key is presented; the database.
pub async fn admit(state: &AppState, request: &mut Request) -> Result<Caller, ApiError> {
    let key = presented_key(request)?;
    let record = state
        .keys
        .verified(&key, state.store.as_ref(), state.clock.now())
        .await?
        .ok_or_else(|| ApiError::unauthorized("the API key is invalid or revoked"))?;
    tracing::Span::current().record("account", tracing::field::display(record.account_id));
    let caller = Caller {
        account_id: record.account_id,
    };
    request.extensions_mut().insert(caller);
    Ok(caller)
}

impl<S: Send + Sync> FromRequestParts<S> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, ApiError> {
        parts.extensions.get::<Self>().copied().ok_or_else(|| {
            ApiError::unauthorized("send your API key as Authorization: Token <key>")
        })
    }
}

/// What an operation on an account's records works with: the application, and the caller
/// whose account every query is scoped to. It dereferences to the application's state.
#[derive(Debug, Clone)]
pub struct Scope {
    state: AppState,
    /// The caller.
    pub caller: Caller,
}

impl Scope {
    /// The account every query is scoped to.
    #[must_use]
    pub fn account(&self) -> AccountId {
        self.caller.account_id
    }
}

impl std::ops::Deref for Scope {
    type Target = AppState;

    fn deref(&self) -> &AppState {
        &self.state
    }
}

impl FromRequestParts<AppState> for Scope {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let caller = Caller::from_request_parts(parts, state).await?;
        Ok(Self {
            state: state.clone(),
            caller,
        })
    }
}
