//! Limits and timeouts of one connection: what every connection has (a terminal's and
//! an Arrival Notice publisher's alone; a carrier's with its quota and paging).

use std::num::NonZeroU32;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::limits::RateLimits;

/// Limits and timeouts of one connection: a terminal's, a line's Arrival Notice
/// publisher's, and the part of a carrier's
/// [`ConnectionSettings`](crate::registry::ConnectionSettings) that is not its quota or
/// paging.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct HttpSettings {
    /// Sustained requests per second to the terminal.
    pub per_second: NonZeroU32,
    /// Requests at once after a quiet spell.
    pub burst: NonZeroU32,
    /// Requests in flight at once.
    pub concurrency: NonZeroU32,
    /// How long to wait for a connection (`"5s"`).
    #[serde(with = "humantime_serde")]
    pub connect_timeout: Duration,
    /// How long to wait for a whole answer (`"30s"`).
    #[serde(with = "humantime_serde")]
    pub timeout: Duration,
    /// Largest answer read, in bytes.
    pub max_response_bytes: usize,
}

impl Default for HttpSettings {
    /// A terminal's community portal is slower than a carrier's API: two requests a
    /// second (of up to 100 containers each, at a terminal).
    fn default() -> Self {
        Self {
            per_second: NonZeroU32::new(2).unwrap_or(NonZeroU32::MIN),
            burst: NonZeroU32::new(4).unwrap_or(NonZeroU32::MIN),
            concurrency: NonZeroU32::new(2).unwrap_or(NonZeroU32::MIN),
            connect_timeout: Duration::from_secs(5),
            timeout: Duration::from_secs(30),
            max_response_bytes: 2 * 1024 * 1024,
        }
    }
}

impl HttpSettings {
    /// The rate limits these settings keep to.
    #[must_use]
    pub const fn limits(&self) -> RateLimits {
        RateLimits {
            per_second: self.per_second,
            burst: self.burst,
            concurrency: self.concurrency,
        }
    }
}
