//! Answers for requests no handler takes: unknown paths (404) and wrong methods (405),
//! both as JSON:API errors.

use axum::http::StatusCode;
use axum::http::header::{ALLOW, CONTENT_TYPE};
use axum::response::{IntoResponse, Response};

use crate::ApiError;

/// 404 for any path without a route.
pub async fn not_found() -> ApiError {
    ApiError::not_found("there is no resource at this path; the API lives under /v2")
}

/// Turns the router's bare 405 into a JSON:API error.
///
/// `Router::layer` wraps each route's endpoints, so this runs inside the method router,
/// which adds the `Allow` header afterwards; a header already present is kept.
pub async fn method_not_allowed(response: Response) -> Response {
    if response.status() != StatusCode::METHOD_NOT_ALLOWED
        || response.headers().contains_key(CONTENT_TYPE)
    {
        return response;
    }
    let allow = response.headers().get(ALLOW).cloned();
    ApiError::method_not_allowed(allow).into_response()
}
