//! Creating a tracking request, the one way the API and the console both do it: the draft
//! validated against this instance's carriers, coverage and limits, then the request and
//! its first lookup stored together.

use std::sync::Arc;

use tidemark_domain::{
    AccountId, CarrierMatrix, Clock, Coverage, FieldError, Limits, NewTrackingRequest,
    TrackingRequest, TrackingRequestDraft,
};
use tidemark_store::{Store, StoreError};

/// The use case that creates tracking requests.
#[derive(Debug, Clone)]
pub struct Requests {
    store: Arc<dyn Store>,
    clock: Arc<dyn Clock>,
    matrix: Arc<CarrierMatrix>,
    coverage: Coverage,
    limits: Limits,
}

impl Requests {
    /// Creates requests in `store` for the lines of `matrix` this instance tracks
    /// (`coverage`), within `limits`.
    #[must_use]
    pub fn new(
        store: Arc<dyn Store>,
        clock: Arc<dyn Clock>,
        matrix: Arc<CarrierMatrix>,
        coverage: Coverage,
        limits: Limits,
    ) -> Self {
        Self {
            store,
            clock,
            matrix,
            coverage,
            limits,
        }
    }

    /// The field limits requests are held to.
    #[must_use]
    pub const fn limits(&self) -> &Limits {
        &self.limits
    }

    /// `draft` as a valid new request, or every problem with it.
    ///
    /// # Errors
    /// The problems, each naming its field.
    pub fn validate(
        &self,
        draft: TrackingRequestDraft,
    ) -> Result<NewTrackingRequest, Vec<FieldError>> {
        NewTrackingRequest::validate(draft, &self.matrix, &self.coverage, &self.limits)
    }

    /// Opens `new` for `account` now, `pending`, with its first lookup queued.
    ///
    /// # Errors
    /// [`StoreError::Duplicate`] when an open request tracks the same number and line;
    /// or the database failed.
    pub async fn open(
        &self,
        account: AccountId,
        new: NewTrackingRequest,
    ) -> Result<TrackingRequest, StoreError> {
        self.open_staging(account, new, &[]).await
    }

    /// Opens a request as [`Requests::open`] does, with custom field values `staged` for
    /// the shipment and containers it will find, in the same transaction.
    ///
    /// # Errors
    /// As [`Requests::open`].
    pub async fn open_staging(
        &self,
        account: AccountId,
        new: NewTrackingRequest,
        staged: &[tidemark_domain::custom_field::Staged],
    ) -> Result<TrackingRequest, StoreError> {
        let request = TrackingRequest::open(account, new, self.clock.now());
        self.store
            .insert_tracking_request_staging(&request, staged)
            .await?;
        Ok(request)
    }
}
