//! Tracking requests: the states a request moves through (api.md §2). A request is born
//! `pending` here; `lifecycle` moves it on. Validation of what clients send lives in
//! `tracking_request_input`.

use std::fmt;

use uuid::Uuid;

use crate::{
    AccountId, NewTrackingRequest, PartyId, RequestNumber, RequestType, Scac, Timestamp,
    TrackingRequestId,
};

/// Where a tracking request stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RequestStatus {
    /// Accepted; the first lookup has not decided yet.
    Pending,
    /// The carrier does not know the number yet; checked again until it expires.
    AwaitingManifest,
    /// Found: a shipment exists and is being tracked.
    Created,
    /// Given up; `failed_reason` says why.
    Failed,
    /// The shipment's tracking was stopped.
    TrackingStopped,
}

impl RequestStatus {
    /// Every status, in lifecycle order.
    pub const ALL: [Self; 5] = [
        Self::Pending,
        Self::AwaitingManifest,
        Self::Created,
        Self::Failed,
        Self::TrackingStopped,
    ];

    /// The wire name.
    #[must_use]
    pub const fn as_str(&self) -> &'static str {
        match self {
            Self::Pending => "pending",
            Self::AwaitingManifest => "awaiting_manifest",
            Self::Created => "created",
            Self::Failed => "failed",
            Self::TrackingStopped => "tracking_stopped",
        }
    }

    /// Parses the wire name.
    #[must_use]
    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|status| status.as_str() == text)
    }

    /// Open requests block a duplicate (the seed's duplicate rule).
    #[must_use]
    pub const fn is_open(&self) -> bool {
        matches!(self, Self::Pending | Self::AwaitingManifest | Self::Created)
    }
}

impl fmt::Display for RequestStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a request failed, or the temporary reason while it is retrying.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FailedReason {
    /// The carrier reports the booking cancelled.
    BookingCancelled,
    /// The shipment was already tracked.
    Duplicate,
    /// Still unknown to the carrier seven days after creation.
    Expired,
    /// Temporary: an internal failure.
    InternalProcessingError,
    /// The carrier rejected the number's format.
    InvalidNumber,
    /// The carrier does not know the number.
    NotFound,
    /// Temporary failures went on past the retry limit.
    RetriesExhausted,
    /// Temporary: the carrier could not be reached.
    ShippingLineUnreachable,
    /// Temporary: the carrier's answer could not be understood.
    UnrecognizedResponse,
    /// The carrier withholds the data.
    DataUnavailable,
    /// Auto-detection found no carrier for the number.
    ScacAutoDetectFailed,
}

impl FailedReason {
    /// Every reason.
    pub const ALL: [Self; 11] = [
        Self::BookingCancelled,
        Self::Duplicate,
        Self::Expired,
        Self::InternalProcessingError,
        Self::InvalidNumber,
        Self::NotFound,
        Self::RetriesExhausted,
        Self::ShippingLineUnreachable,
        Self::UnrecognizedResponse,
        Self::DataUnavailable,
        Self::ScacAutoDetectFailed,
    ];

    /// The wire name.
    #[must_use]
    pub const fn as_str(&self) -> &'static str {
        match self {
            Self::BookingCancelled => "booking_cancelled",
            Self::Duplicate => "duplicate",
            Self::Expired => "expired",
            Self::InternalProcessingError => "internal_processing_error",
            Self::InvalidNumber => "invalid_number",
            Self::NotFound => "not_found",
            Self::RetriesExhausted => "retries_exhausted",
            Self::ShippingLineUnreachable => "shipping_line_unreachable",
            Self::UnrecognizedResponse => "unrecognized_response",
            Self::DataUnavailable => "data_unavailable",
            Self::ScacAutoDetectFailed => "scac_auto_detect_failed",
        }
    }

    /// Parses the wire name.
    #[must_use]
    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|reason| reason.as_str() == text)
    }
}

/// A tracking request as stored and shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrackingRequest {
    /// Its id.
    pub id: TrackingRequestId,
    /// The owning account.
    pub account_id: AccountId,
    /// What kind of number.
    pub request_type: RequestType,
    /// The number.
    pub request_number: RequestNumber,
    /// The carrier; `None` while auto-detection has not decided.
    pub scac: Option<Scac>,
    /// Whether the carrier is to be inferred from the number.
    pub auto_detect_scac: bool,
    /// The client's reference numbers.
    pub ref_numbers: Vec<String>,
    /// Tags copied onto the shipment.
    pub shipment_tags: Vec<String>,
    /// Where it stands.
    pub status: RequestStatus,
    /// Why it failed, or the temporary reason while retrying.
    pub failed_reason: Option<FailedReason>,
    /// Inside an automatic retry cycle.
    pub is_retrying: bool,
    /// Lookup attempts retried; `None` when never retried.
    pub retry_count: Option<u32>,
    /// The shipment it tracks, once found.
    pub tracked_object: Option<Uuid>,
    /// The client's customer it is for (`relationships.customer`).
    pub customer: Option<PartyId>,
    /// When it was created.
    pub created_at: Timestamp,
    /// When it last changed.
    pub updated_at: Timestamp,
}

impl TrackingRequest {
    /// A new request, `pending`, as the create endpoint answers it.
    #[must_use]
    pub fn open(account_id: AccountId, new: NewTrackingRequest, now: Timestamp) -> Self {
        Self {
            id: TrackingRequestId::new(),
            account_id,
            request_type: new.request_type,
            request_number: new.request_number,
            scac: new.scac,
            auto_detect_scac: new.auto_detect_scac,
            ref_numbers: new.ref_numbers,
            shipment_tags: new.shipment_tags,
            status: RequestStatus::Pending,
            failed_reason: None,
            is_retrying: false,
            retry_count: None,
            tracked_object: None,
            customer: new.customer,
            created_at: now,
            updated_at: now,
        }
    }
}

#[cfg(test)]
impl TrackingRequest {
    /// A request of a new account opened at `at` from `draft`, which must be valid
    /// against the bundled carriers (every line covered, default limits).
    pub(crate) fn opened_for_test(draft: crate::TrackingRequestDraft, at: Timestamp) -> Self {
        let new = crate::NewTrackingRequest::validate(
            draft,
            &crate::CarrierMatrix::bundled().expect("the bundled matrix is valid"),
            &crate::Coverage::new([], crate::SandboxScope::AllCarriers),
            &crate::Limits::default(),
        )
        .expect("a valid draft");
        Self::open(AccountId::new(), new, at)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn open_statuses_are_the_three_of_the_duplicate_rule() {
        let open: Vec<_> = RequestStatus::ALL
            .into_iter()
            .filter(RequestStatus::is_open)
            .collect();
        assert_eq!(
            open,
            [
                RequestStatus::Pending,
                RequestStatus::AwaitingManifest,
                RequestStatus::Created
            ]
        );
    }

    #[test]
    fn wire_names_round_trip() {
        for status in RequestStatus::ALL {
            assert_eq!(RequestStatus::parse(status.as_str()), Some(status));
        }
        for reason in FailedReason::ALL {
            assert_eq!(FailedReason::parse(reason.as_str()), Some(reason));
        }
    }
}
