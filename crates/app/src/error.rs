//! What a use case refuses, besides the store's failures; the API maps each to its answer
//! in one place (`tidemark_api::error`), and the console shows the API's.

use tidemark_domain::{FieldError, RequestStatus, TrackingRequestId};
use tidemark_store::StoreError;

/// Why a use case did not do what was asked.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The account has no such record: what it was called ("webhook").
    #[error("no {0} has this id in this account")]
    Missing(&'static str),
    /// Another change crossed this one; nothing was written.
    #[error("{0}")]
    Conflict(&'static str),
    /// Tracking of the shipment is stopped: resume it first.
    #[error("tracking of this shipment is stopped; resume it first")]
    TrackingStopped,
    /// A delivery of the notification is under way.
    #[error("a delivery of this notification is under way; try again when it ends")]
    InFlight,
    /// The lifecycle cannot move the request this way (a stop of a failed request): its
    /// status.
    #[error("tracking cannot change while the request is {0}")]
    InvalidState(RequestStatus),
    /// Resuming would track what a newer open request tracks: its id, when known.
    #[error("a newer open tracking request tracks the same number and carrier")]
    Duplicate(Option<TrackingRequestId>),
    /// No event of the catalog has this name.
    #[error("{0:?} is not an event of the catalog (GET /v2/webhooks/events)")]
    NoSample(String),
    /// What was asked is not valid: each problem with its field.
    #[error("the request is not valid")]
    Invalid(Vec<FieldError>),
    /// The database failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}
