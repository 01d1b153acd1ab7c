//! `[carriers.defaults]` and an endpoint's `settings`: the limits and timeouts of one
//! carrier connection.

use std::num::NonZeroU32;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::auth::Auth;
use crate::dcsa::DcsaConfig;
use crate::limits::RateLimits;

/// Limits and timeouts of one carrier connection.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ConnectionSettings {
    /// Sustained requests per second to the carrier.
    pub per_second: NonZeroU32,
    /// Requests at once after a quiet spell.
    pub burst: NonZeroU32,
    /// Requests per UTC day, when the carrier counts them (Hapag-Lloyd: 6,000); with the
    /// rate and burst, held by every process on the database together.
    pub per_day: Option<NonZeroU32>,
    /// Lookups in flight at once.
    pub concurrency: NonZeroU32,
    /// How long to wait for a connection (`"5s"`; `connect_timeout_secs` before).
    #[serde(with = "humantime_serde")]
    pub connect_timeout: Duration,
    /// How long to wait for a whole answer (`"30s"`; `timeout_secs` before).
    #[serde(with = "humantime_serde")]
    pub timeout: Duration,
    /// Largest answer read, in bytes.
    pub max_response_bytes: usize,
    /// Events asked per page.
    pub page_size: u32,
    /// Most pages followed per lookup.
    pub max_pages: u32,
}

impl Default for ConnectionSettings {
    fn default() -> Self {
        let limits = RateLimits::default();
        let dcsa = DcsaConfig::new("http://localhost", Auth::None);
        Self {
            per_second: limits.per_second,
            burst: limits.burst,
            per_day: None,
            concurrency: limits.concurrency,
            connect_timeout: dcsa.connect_timeout,
            timeout: dcsa.timeout,
            max_response_bytes: dcsa.max_response_bytes,
            page_size: dcsa.page_size,
            max_pages: dcsa.max_pages,
        }
    }
}
