//! The one middleware in front of every authenticated route. In order: who calls
//! ([`auth::admit`]), whether their bucket allows this request ([`rate_limit::charge`]),
//! and whether it repeats an earlier POST ([`idempotency::answer`]); every answer past
//! authentication carries the rate limit's headers.
//!
//! One layer rather than three: each `from_fn` layer clones the service inside it and
//! boxes a future on every request, which showed in the profile of a point read.

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::{AppState, auth, idempotency, rate_limit};

/// The middleware.
pub async fn gate(State(state): State<AppState>, mut request: Request, next: Next) -> Response {
    let caller = match auth::admit(&state, &mut request).await {
        Ok(caller) => caller,
        Err(error) => return error.into_response(),
    };
    let class = rate_limit::class(&request);
    let decision = match rate_limit::charge(&state, class, caller).await {
        Ok(decision) => decision,
        Err(error) => return error.into_response(),
    };
    let mut response = idempotency::answer(&state, caller, request, next)
        .await
        .unwrap_or_else(IntoResponse::into_response);
    rate_limit::stamp(response.headers_mut(), decision);
    response
}
