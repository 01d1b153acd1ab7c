//! `ApiError`: the one place that writes JSON:API error documents (api.md §1 "Errors").
//!
//! Errors of the lower layers convert into it; internal failures are logged once here and
//! leave as an opaque 500.

use axum::http::header::{ALLOW, RETRY_AFTER, WWW_AUTHENTICATE};
use axum::http::{HeaderMap, HeaderName, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use serde_json::{Value, json};
use tidemark_domain::{Field, FieldError, ValidationCode};
use tidemark_store::StoreError;
use utoipa::ToSchema;

use crate::document::JSON_API;

mod code;
mod convert;
pub use code::ErrorCode;

/// `Retry-After` of a 503 for a database out of reach, in seconds: an ordinary restart
/// takes one or two.
const DATABASE_RETRY_AFTER: &str = "2";

/// Where in the request a problem is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ErrorSource {
    /// A JSON pointer into the request body.
    Pointer(String),
    /// A query parameter.
    Parameter(String),
    /// A request header.
    Header(String),
}

/// One JSON:API error object.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ErrorObject {
    /// The HTTP status, as a string.
    pub status: String,
    /// The status's standard reason phrase.
    pub title: String,
    /// What went wrong, for a person.
    pub detail: String,
    /// What went wrong, for a program.
    pub code: String,
    /// Where the problem is.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Object>)]
    pub source: Option<ErrorSource>,
    /// More facts, e.g. `existing_id` on `duplicate`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Object>)]
    pub meta: Option<Value>,
}

/// The body of every error response.
#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorDocument {
    /// The problems, one per object.
    pub errors: Vec<ErrorObject>,
}

/// An error answer: a status, its error objects and any headers it needs (boxed, so
/// `Result<_, ApiError>` stays small on the success path).
#[derive(Debug)]
pub struct ApiError(Box<Parts>);

#[derive(Debug)]
struct Parts {
    status: StatusCode,
    errors: Vec<ErrorObject>,
    headers: HeaderMap,
}

fn object(
    status: StatusCode,
    code: &str,
    detail: impl Into<String>,
    source: Option<ErrorSource>,
) -> ErrorObject {
    ErrorObject {
        status: status.as_str().to_owned(),
        title: status.canonical_reason().unwrap_or("Error").to_owned(),
        detail: detail.into(),
        code: code.to_owned(),
        source,
        meta: None,
    }
}

impl ApiError {
    /// A single problem of `code`: the one place a status is chosen for a code.
    fn new(code: ErrorCode, detail: impl Into<String>, source: Option<ErrorSource>) -> Self {
        Self::one(code.status(), code.as_str(), detail, source)
    }

    fn one(
        status: StatusCode,
        code: &str,
        detail: impl Into<String>,
        source: Option<ErrorSource>,
    ) -> Self {
        Self(Box::new(Parts {
            status,
            errors: vec![object(status, code, detail, source)],
            headers: HeaderMap::new(),
        }))
    }

    /// The answer an OpenAPI example shows for `status` and `code` (a code of
    /// [`ErrorCode`] or a validation code).
    pub(crate) fn example(status: StatusCode, code: &str, detail: &str) -> Self {
        Self::one(status, code, detail, None)
    }

    /// Adds a header to the answer.
    #[must_use]
    pub fn with_header(mut self, name: HeaderName, value: HeaderValue) -> Self {
        self.0.headers.insert(name, value);
        self
    }

    /// Adds `meta` to the (first) error object.
    #[must_use]
    pub fn with_meta(mut self, meta: Value) -> Self {
        if let Some(first) = self.0.errors.first_mut() {
            first.meta = Some(meta);
        }
        self
    }

    /// The answer's status.
    #[must_use]
    pub fn status(&self) -> StatusCode {
        self.0.status
    }

    /// The error document this answer carries (the OpenAPI document's examples).
    #[must_use]
    pub fn document(&self) -> ErrorDocument {
        ErrorDocument {
            errors: self.0.errors.clone(),
        }
    }

    /// Each problem's `detail`, for showing to a person (the console).
    #[must_use]
    pub fn details(&self) -> Vec<&str> {
        self.0
            .errors
            .iter()
            .map(|error| error.detail.as_str())
            .collect()
    }

    /// 400 for a query parameter.
    #[must_use]
    pub fn bad_parameter(code: ErrorCode, parameter: &str, detail: impl Into<String>) -> Self {
        code.at(detail, ErrorSource::Parameter(parameter.to_owned()))
    }

    /// 400 `malformed_json`.
    #[must_use]
    pub fn malformed_json(detail: impl Into<String>, pointer: Option<&str>) -> Self {
        Self::new(
            ErrorCode::MalformedJson,
            detail,
            pointer.map(|p| ErrorSource::Pointer(p.to_owned())),
        )
    }

    /// 401, with the challenge clients need.
    #[must_use]
    pub fn unauthorized(detail: impl Into<String>) -> Self {
        Self::new(
            ErrorCode::Unauthorized,
            detail,
            Some(ErrorSource::Header("Authorization".into())),
        )
        .with_header(WWW_AUTHENTICATE, HeaderValue::from_static("Token"))
    }

    /// 409 `conflict`: the record changed under the request.
    #[must_use]
    pub fn conflict(detail: impl Into<String>) -> Self {
        Self::new(ErrorCode::Conflict, detail, None)
    }

    /// 404.
    #[must_use]
    pub fn not_found(detail: impl Into<String>) -> Self {
        Self::new(ErrorCode::NotFound, detail, None)
    }

    /// 405; `allow` lists the methods the path takes when known (the router adds the
    /// header itself otherwise).
    #[must_use]
    pub fn method_not_allowed(allow: Option<HeaderValue>) -> Self {
        let error = Self::new(
            ErrorCode::MethodNotAllowed,
            "this path does not accept this method; the Allow header lists those it does",
            None,
        );
        match allow {
            Some(allow) => error.with_header(ALLOW, allow),
            None => error,
        }
    }

    /// 429 with `Retry-After` in whole seconds (at least 1).
    #[must_use]
    pub fn rate_limited(retry_after_secs: u64, limit_headers: HeaderMap) -> Self {
        let seconds = retry_after_secs.max(1);
        let mut error = Self::new(
            ErrorCode::RateLimited,
            format!("rate limit exceeded for this account; retry in {seconds} s"),
            None,
        )
        .with_header(RETRY_AFTER, HeaderValue::from(seconds));
        error.0.headers.extend(limit_headers);
        error
    }

    /// 507 `storage_full`: the database's storage is full, so the write was refused and
    /// nothing changed; reads still work. Logged by the store, once a minute.
    #[must_use]
    pub fn storage_full() -> Self {
        Self::new(
            ErrorCode::StorageFull,
            "the database's storage is full: nothing was changed; reads still work, and writes will again once space is freed",
            None,
        )
    }

    /// 503 `database_unavailable` with `Retry-After`: the database could not be reached in
    /// time; nothing was changed, and the same request may be sent again. Logged as a
    /// warning (the outage, not the request, is the news).
    #[must_use]
    pub fn database_unavailable(error: &dyn std::error::Error) -> Self {
        tracing::warn!(error = %error, "the database could not be reached");
        Self::new(
            ErrorCode::DatabaseUnavailable,
            "the database could not be reached; nothing was changed, try again shortly",
            None,
        )
        .with_header(RETRY_AFTER, HeaderValue::from_static(DATABASE_RETRY_AFTER))
    }

    /// 503 `database_unavailable` when the connection was lost while the change was being
    /// committed: it may have been kept. Said so, so that a client reads back, or sends
    /// again with its `Idempotency-Key`, rather than assume nothing happened.
    fn outcome_unknown(error: &StoreError) -> Self {
        tracing::warn!(error = %error, "a commit's outcome is unknown");
        Self::new(
            ErrorCode::DatabaseUnavailable,
            "the connection to the database was lost while the change was being saved; it \
             may have been kept: read it back, or send the request again with the same \
             Idempotency-Key",
            None,
        )
        .with_header(RETRY_AFTER, HeaderValue::from_static(DATABASE_RETRY_AFTER))
    }

    /// 500: logs `error` and answers without internals.
    #[must_use]
    pub fn internal(error: &dyn std::error::Error) -> Self {
        tracing::error!(error = %error, "internal error");
        Self::new(
            ErrorCode::InternalError,
            "an internal error occurred; it has been logged",
            None,
        )
    }

    /// 422 with one error object per field problem, pointing into `/data/attributes`.
    #[must_use]
    pub fn validation(problems: &[FieldError]) -> Self {
        Self::unprocessable(
            problems
                .iter()
                .map(|problem| {
                    (
                        field_pointer(&problem.field),
                        problem.code,
                        problem.detail.clone(),
                    )
                })
                .collect(),
        )
    }

    /// 422 for problems found at arbitrary pointers (e.g. wrong JSON types).
    #[must_use]
    pub fn unprocessable(problems: Vec<(String, ValidationCode, String)>) -> Self {
        let errors = problems
            .into_iter()
            .map(|(pointer, code, detail)| {
                object(
                    StatusCode::UNPROCESSABLE_ENTITY,
                    code.as_str(),
                    detail,
                    Some(ErrorSource::Pointer(pointer)),
                )
            })
            .collect();
        Self(Box::new(Parts {
            status: StatusCode::UNPROCESSABLE_ENTITY,
            errors,
            headers: HeaderMap::new(),
        }))
    }
}

/// The JSON pointer of a domain field inside a request document.
#[must_use]
pub fn field_pointer(field: &Field) -> String {
    match field.index() {
        Some(index) => format!("/data/attributes/{}/{index}", field.attribute()),
        None => format!("/data/attributes/{}", field.attribute()),
    }
}

impl ApiError {
    /// The duplicate rule's answer, wherever a request would become a second open one for
    /// its number and SCAC (creating it, or resuming a stopped one): 422 `duplicate`, with
    /// the open request's id when the store knows it.
    pub(crate) fn duplicate(
        existing_id: Option<tidemark_domain::TrackingRequestId>,
        source: Option<ErrorSource>,
    ) -> Self {
        Self::one(
            StatusCode::UNPROCESSABLE_ENTITY,
            ValidationCode::Duplicate.as_str(),
            "an open tracking request (pending, awaiting_manifest or created) exists for this \
             request number and SCAC",
            source,
        )
        .with_meta(json!({ "existing_id": existing_id.map(|id| id.to_string()) }))
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let Parts {
            status,
            errors,
            headers,
        } = *self.0;
        let body = serde_json::to_vec(&ErrorDocument { errors }).unwrap_or_default();
        let mut response =
            (status, [(axum::http::header::CONTENT_TYPE, JSON_API)], body).into_response();
        response.headers_mut().extend(headers);
        response
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_storage_is_a_507_and_other_failures_stay_internal() {
        let full = ApiError::from(StoreError::StorageFull);
        assert_eq!(full.status(), StatusCode::INSUFFICIENT_STORAGE);
        assert_eq!(full.document().errors[0].code, "storage_full");
        let other = ApiError::from(StoreError::Corrupt("a row".to_owned()));
        assert_eq!(other.status(), StatusCode::INTERNAL_SERVER_ERROR);
    }
}
