//! The outcome of a carrier lookup: the snapshot, or why there is none this time.

use std::fmt;
use std::time::Duration;

use super::Snapshot;
use crate::FailedReason;

/// Why a lookup could not be answered this time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TemporaryReason {
    /// No answer: connection refused, timeout, or a 5xx.
    Unreachable(String),
    /// The carrier asked us to slow down.
    RateLimited {
        /// How long it asked us to wait, when it said.
        retry_after: Option<Duration>,
    },
    /// The carrier is temporarily unavailable (503).
    Unavailable {
        /// How long it asked us to wait, when it said.
        retry_after: Option<Duration>,
    },
    /// The carrier refused our credentials.
    Unauthorized,
    /// An answer we could not understand: not JSON, cut short, too large, or events that
    /// break the standard.
    Unrecognized(String),
}

impl TemporaryReason {
    /// The `failed_reason` a retrying request shows.
    #[must_use]
    pub const fn failed_reason(&self) -> FailedReason {
        match self {
            Self::Unreachable(_)
            | Self::RateLimited { .. }
            | Self::Unavailable { .. }
            | Self::Unauthorized => FailedReason::ShippingLineUnreachable,
            Self::Unrecognized(_) => FailedReason::UnrecognizedResponse,
        }
    }
}

impl TemporaryReason {
    /// How long the carrier asked us to wait before asking again (`Retry-After`).
    #[must_use]
    pub const fn retry_after(&self) -> Option<Duration> {
        match self {
            Self::RateLimited { retry_after } | Self::Unavailable { retry_after } => *retry_after,
            _ => None,
        }
    }
}

impl fmt::Display for TemporaryReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Unreachable(detail) => write!(f, "carrier unreachable: {detail}"),
            Self::RateLimited {
                retry_after: Some(wait),
            } => write!(f, "rate limited by the carrier for {}s", wait.as_secs()),
            Self::RateLimited { retry_after: None } => f.write_str("rate limited by the carrier"),
            Self::Unavailable {
                retry_after: Some(wait),
            } => write!(
                f,
                "the carrier is unavailable (503) for {}s",
                wait.as_secs()
            ),
            Self::Unavailable { retry_after: None } => {
                f.write_str("the carrier is unavailable (503)")
            }
            Self::Unauthorized => f.write_str("the carrier refused our credentials"),
            Self::Unrecognized(detail) => write!(f, "unrecognized answer: {detail}"),
        }
    }
}

/// The answer to "what does the carrier know about this number now?".
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LookupOutcome {
    /// The shipment, its route and containers.
    Found(Snapshot),
    /// Booked but not yet manifested: no containers or voyage yet.
    NotYetManifested,
    /// Not (yet) known to the carrier: for a bill or booking, possibly not manifested yet.
    NotFound,
    /// The carrier says outright that it has no shipment with this reference (a DCSA error
    /// answer of 404), whatever the number's type: nothing to wait for.
    Unknown,
    /// The carrier rejects the number's format.
    InvalidNumber(String),
    /// The booking was cancelled.
    BookingCancelled,
    /// The carrier has the shipment but does not share its data.
    DataUnavailable,
    /// Try again later.
    Temporary(TemporaryReason),
}

impl LookupOutcome {
    /// A short name for logs and metrics, in the tracking request's words: `found`,
    /// `awaiting_manifest`, `not_found`, or the `failed_reason` it gives (a carrier that
    /// knows no such shipment, outright or not yet, is `not_found` either way).
    #[must_use]
    pub const fn label(&self) -> &'static str {
        match self {
            Self::Found(_) => "found",
            Self::NotYetManifested => "awaiting_manifest",
            Self::NotFound | Self::Unknown => FailedReason::NotFound.as_str(),
            Self::InvalidNumber(_) => FailedReason::InvalidNumber.as_str(),
            Self::BookingCancelled => FailedReason::BookingCancelled.as_str(),
            Self::DataUnavailable => FailedReason::DataUnavailable.as_str(),
            Self::Temporary(reason) => reason.failed_reason().as_str(),
        }
    }

    /// Why the lookup failed, for logs; `None` when the carrier answered about the number.
    #[must_use]
    pub fn failure(&self) -> Option<String> {
        match self {
            Self::Found(_) | Self::NotYetManifested | Self::NotFound => None,
            Self::Unknown => Some("the carrier knows no shipment with this reference".to_owned()),
            Self::InvalidNumber(detail) => Some(detail.clone()),
            Self::BookingCancelled => Some("the booking is cancelled".to_owned()),
            Self::DataUnavailable => Some("the carrier does not share this shipment".to_owned()),
            Self::Temporary(reason) => Some(reason.to_string()),
        }
    }
}
