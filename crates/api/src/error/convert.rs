//! What the layers below the API answer, as JSON:API errors: the use cases' refusals and
//! the store's failures, each mapped here once.

use tidemark_domain::ValidationCode;
use tidemark_store::StoreError;

use super::{ApiError, ErrorCode, ErrorSource};

impl From<tidemark_app::Error> for ApiError {
    fn from(error: tidemark_app::Error) -> Self {
        use tidemark_app::Error;
        match error {
            Error::Missing(_) => ErrorCode::NotFound.error(error.to_string()),
            Error::Conflict(detail) => Self::conflict(detail),
            Error::InFlight => ErrorCode::InFlight.error(error.to_string()),
            Error::InvalidState(_) => ErrorCode::InvalidState.error(error.to_string()),
            Error::Duplicate(existing_id) => Self::duplicate(existing_id, None),
            Error::TrackingStopped => ErrorCode::TrackingStopped.error(error.to_string()),
            Error::NoSample(_) => Self::unprocessable(vec![(
                "/data/attributes/event".to_owned(),
                ValidationCode::Invalid,
                error.to_string(),
            )]),
            Error::Invalid(errors) => crate::body::merge(Vec::new(), errors),
            Error::Store(error) => error.into(),
        }
    }
}

impl From<StoreError> for ApiError {
    fn from(error: StoreError) -> Self {
        match error {
            StoreError::Duplicate { existing_id } => Self::duplicate(
                existing_id,
                Some(ErrorSource::Pointer(
                    "/data/attributes/request_number".into(),
                )),
            ),
            StoreError::Conflict(what) => Self::conflict(format!("{what} already exists")),
            other if other.is_storage_full() => Self::storage_full(),
            other @ StoreError::OutcomeUnknown(_) => Self::outcome_unknown(&other),
            other if other.is_unavailable() => Self::database_unavailable(&other),
            other => Self::internal(&other),
        }
    }
}
