//! Carrier connectors: how Tidemark asks a shipping line what it knows about a number.
//!
//! [`CarrierConnector`] is the one question. [`dcsa::DcsaConnector`] answers it over DCSA
//! Track & Trace 2.2 (`GET /v2/events`), with per-carrier authentication ([`auth`]), and
//! maps the carrier's events to Tidemark's [`Snapshot`](tidemark_domain::Snapshot).
//! [`limits::Limited`] keeps each carrier within its request rate and concurrency.
//!
//! DCSA field names live only here (and in the simulator).

pub mod ais;
pub mod arrival_notice;
pub mod auth;
pub mod callbacks;
pub mod dcsa;
pub mod http;
pub mod limits;
pub mod profiles;
pub mod registry;
pub mod settings;
pub mod terminal;

use std::fmt;

use async_trait::async_trait;
use tidemark_domain::{LookupOutcome, RequestType};

/// A number to look up at one carrier.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lookup {
    /// The number as the carrier writes it (normalized, no carrier prefix added).
    pub number: String,
    /// What kind of number it is.
    pub kind: RequestType,
    /// The references it may go with, for a carrier that must be asked two together (HMM:
    /// a booking and one of its containers).
    pub known: Known,
}

/// The other references a shipment may have: those earlier answers gave, and those the
/// same client tracks at the same carrier.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Known {
    /// Bookings it may be.
    pub bookings: Vec<String>,
    /// Containers it may hold.
    pub containers: Vec<String>,
}

impl Lookup {
    /// A lookup of `number`, nothing else known.
    #[must_use]
    pub fn new(number: impl Into<String>, kind: RequestType) -> Self {
        Self {
            number: number.into(),
            kind,
            known: Known::default(),
        }
    }
}

/// "What does the carrier know about this number now?"
#[async_trait]
pub trait CarrierConnector: Send + Sync + fmt::Debug {
    /// The carrier's current view, or why there is none. Never panics and never fails
    /// outright: every problem is an outcome (a temporary one when retrying may help).
    async fn lookup(&self, lookup: &Lookup) -> LookupOutcome;
}

/// A secret (API key, client secret) that never shows in `Debug` output or logs.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    /// Wraps a secret.
    #[must_use]
    pub fn new(value: impl Into<String>) -> Self {
        Self(value.into())
    }

    /// The secret itself, to send it.
    #[must_use]
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret(***)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_redacted() {
        let secret = Secret::new("hunter2");
        assert_eq!(format!("{secret:?}"), "Secret(***)");
        assert_eq!(secret.expose(), "hunter2");
    }
}
