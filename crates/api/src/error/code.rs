//! Every error code the API answers with outside field validation (whose codes are the
//! domain's `ValidationCode`, all 422), each with its HTTP status and what it means. A
//! handler names a code; the status, the title and the OpenAPI's words follow from it.

use axum::http::StatusCode;

use super::{ApiError, ErrorSource};

macro_rules! error_codes {
    ($($(#[doc = $doc:literal])* $variant:ident = ($status:ident, $code:literal),)*) => {
        /// An error code and the status it is answered with.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum ErrorCode {
            $($(#[doc = $doc])* $variant,)*
        }

        impl ErrorCode {
            /// Every code, in the order above.
            pub const ALL: &[Self] = &[$(Self::$variant,)*];

            /// The HTTP status it is answered with.
            #[must_use]
            pub const fn status(self) -> StatusCode {
                match self {
                    $(Self::$variant => StatusCode::$status,)*
                }
            }

            /// The `code` of its error objects.
            #[must_use]
            pub const fn as_str(self) -> &'static str {
                match self {
                    $(Self::$variant => $code,)*
                }
            }

            /// What it means, for the OpenAPI document.
            #[must_use]
            pub fn meaning(self) -> &'static str {
                match self {
                    $(Self::$variant => concat!($($doc),*).trim_ascii(),)*
                }
            }
        }
    };
}

error_codes! {
    /// The body is not the JSON:API document this endpoint takes.
    MalformedJson = (BAD_REQUEST, "malformed_json"),
    /// A query parameter this endpoint does not take, or a value it cannot read.
    InvalidParameter = (BAD_REQUEST, "invalid_parameter"),
    /// A `filter[…]` this list does not take, or a value it cannot read.
    InvalidFilter = (BAD_REQUEST, "invalid_filter"),
    /// An `include` path this resource does not have.
    InvalidInclude = (BAD_REQUEST, "invalid_include"),
    /// A header whose value cannot be read (an `Idempotency-Key` out of shape).
    InvalidHeader = (BAD_REQUEST, "invalid"),
    /// No API key, or not a valid one (or a push without the party's credential).
    Unauthorized = (UNAUTHORIZED, "unauthorized"),
    /// Ids are assigned by Tidemark: a body may not carry `data.id`.
    ClientIdNotAllowed = (FORBIDDEN, "client_id_not_allowed"),
    /// No such record in this account.
    NotFound = (NOT_FOUND, "not_found"),
    /// The path does not take this method; `Allow` lists those it does.
    MethodNotAllowed = (METHOD_NOT_ALLOWED, "method_not_allowed"),
    /// `Accept` names JSON:API only with parameters Tidemark does not support.
    NotAcceptable = (NOT_ACCEPTABLE, "not_acceptable"),
    /// The body stopped arriving, or took too long.
    RequestTimeout = (REQUEST_TIMEOUT, "request_timeout"),
    /// The record changed under the request, or already exists: read it and try again.
    Conflict = (CONFLICT, "conflict"),
    /// The record's state does not allow this now.
    InvalidState = (CONFLICT, "invalid_state"),
    /// Tracking of the shipment is stopped: resume it first.
    TrackingStopped = (CONFLICT, "tracking_stopped"),
    /// `data.type` is not this endpoint's type.
    TypeMismatch = (CONFLICT, "type_mismatch"),
    /// `data.id` is not the id in the path.
    IdMismatch = (CONFLICT, "id_mismatch"),
    /// A delivery of the notification is under way.
    InFlight = (CONFLICT, "in_flight"),
    /// The first request with this `Idempotency-Key` is still being answered.
    IdempotencyInProgress = (CONFLICT, "idempotency_in_progress"),
    /// The body is larger than the limit.
    PayloadTooLarge = (PAYLOAD_TOO_LARGE, "payload_too_large"),
    /// The body is not `application/vnd.api+json` (or `application/json`).
    UnsupportedMediaType = (UNSUPPORTED_MEDIA_TYPE, "unsupported_media_type"),
    /// This `Idempotency-Key` was used for another request.
    IdempotencyKeyReused = (UNPROCESSABLE_ENTITY, "idempotency_key_reused"),
    /// Too many requests for this account; `Retry-After` says when to retry.
    RateLimited = (TOO_MANY_REQUESTS, "rate_limited"),
    /// Something failed inside Tidemark; it was logged.
    InternalError = (INTERNAL_SERVER_ERROR, "internal_error"),
    /// Not ready, or could not store this now; try again (`Retry-After` when known).
    Unavailable = (SERVICE_UNAVAILABLE, "unavailable"),
    /// The database could not be reached in time; `Retry-After` says when to retry.
    DatabaseUnavailable = (SERVICE_UNAVAILABLE, "database_unavailable"),
    /// The database's storage is full: nothing was changed; reads still work.
    StorageFull = (INSUFFICIENT_STORAGE, "storage_full"),
}

impl ErrorCode {
    /// The answer of this code, saying `detail`.
    #[must_use]
    pub fn error(self, detail: impl Into<String>) -> ApiError {
        ApiError::new(self, detail, None)
    }

    /// The answer of this code, saying `detail` of what is at `source`.
    #[must_use]
    pub fn at(self, detail: impl Into<String>, source: ErrorSource) -> ApiError {
        ApiError::new(self, detail, Some(source))
    }

    /// The code named `code`, if it is one of these.
    #[must_use]
    pub fn parse(code: &str) -> Option<Self> {
        Self::ALL
            .iter()
            .copied()
            .find(|known| known.as_str() == code)
    }
}

#[cfg(test)]
mod tests {
    use super::ErrorCode;

    #[test]
    fn every_code_is_one_word_and_says_what_it_means() {
        let mut seen = std::collections::BTreeSet::new();
        for code in ErrorCode::ALL {
            assert!(seen.insert(code.as_str()), "{code:?} twice");
            assert!(
                code.as_str()
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b == b'_'),
                "{code:?}"
            );
            assert!(
                code.meaning().ends_with('.'),
                "{code:?}: {}",
                code.meaning()
            );
            assert!(code.status().is_client_error() || code.status().is_server_error());
            assert_eq!(ErrorCode::parse(code.as_str()), Some(*code));
        }
    }
}
