//! `[carriers.defaults]` and an endpoint's `settings`: the limits and timeouts of one
//! carrier connection: what every connection has ([`HttpSettings`]), plus a carrier's
//! daily quota and paging. Written flat in the configuration, as the keys always were.

use std::num::NonZeroU32;

use serde::{Deserialize, Serialize};

use crate::auth::Auth;
use crate::dcsa::DcsaConfig;
use crate::limits::RateLimits;
use crate::settings::HttpSettings;

/// Limits and timeouts of one carrier connection.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "Flat", into = "Flat")]
pub struct ConnectionSettings {
    /// Rate, concurrency, timeouts and answer size, as every connection has them.
    pub http: HttpSettings,
    /// Requests per UTC day, when the carrier counts them (Hapag-Lloyd: 6,000); with the
    /// rate and burst, held by every process on the database together.
    pub per_day: Option<NonZeroU32>,
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
            http: HttpSettings {
                per_second: limits.per_second,
                burst: limits.burst,
                concurrency: limits.concurrency,
                connect_timeout: dcsa.connect_timeout,
                timeout: dcsa.timeout,
                max_response_bytes: dcsa.max_response_bytes,
            },
            per_day: None,
            page_size: dcsa.page_size,
            max_pages: dcsa.max_pages,
        }
    }
}

/// The settings as the configuration spells them: one table of keys, unknown keys refused.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
struct Flat {
    per_second: NonZeroU32,
    burst: NonZeroU32,
    per_day: Option<NonZeroU32>,
    concurrency: NonZeroU32,
    #[serde(with = "humantime_serde")]
    connect_timeout: std::time::Duration,
    #[serde(with = "humantime_serde")]
    timeout: std::time::Duration,
    max_response_bytes: usize,
    page_size: u32,
    max_pages: u32,
}

impl Default for Flat {
    fn default() -> Self {
        ConnectionSettings::default().into()
    }
}

impl From<Flat> for ConnectionSettings {
    fn from(flat: Flat) -> Self {
        Self {
            http: HttpSettings {
                per_second: flat.per_second,
                burst: flat.burst,
                concurrency: flat.concurrency,
                connect_timeout: flat.connect_timeout,
                timeout: flat.timeout,
                max_response_bytes: flat.max_response_bytes,
            },
            per_day: flat.per_day,
            page_size: flat.page_size,
            max_pages: flat.max_pages,
        }
    }
}

impl From<ConnectionSettings> for Flat {
    fn from(settings: ConnectionSettings) -> Self {
        let http = settings.http;
        Self {
            per_second: http.per_second,
            burst: http.burst,
            per_day: settings.per_day,
            concurrency: http.concurrency,
            connect_timeout: http.connect_timeout,
            timeout: http.timeout,
            max_response_bytes: http.max_response_bytes,
            page_size: settings.page_size,
            max_pages: settings.max_pages,
        }
    }
}
