//! Points in time as the API shows them: UTC, microsecond precision, RFC 3339 with `Z`.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use time::format_description::well_known::Rfc3339;
use time::{OffsetDateTime, UtcOffset};

/// A UTC instant truncated to microseconds, the precision both storage backends keep,
/// so a value written and read back compares equal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Timestamp(OffsetDateTime);

impl Timestamp {
    /// Wraps any instant, converting it to UTC and dropping sub-microsecond digits.
    #[must_use]
    pub fn from_datetime(at: OffsetDateTime) -> Self {
        let at = at.to_offset(UtcOffset::UTC);
        let micros = at.microsecond();
        // `replace_microsecond` only fails for values >= 1_000_000, which `microsecond()` never returns.
        Self(at.replace_microsecond(micros).unwrap_or(at))
    }

    /// The instant `micros` microseconds after the Unix epoch; `None` when out of range.
    #[must_use]
    pub fn from_unix_micros(micros: i64) -> Option<Self> {
        OffsetDateTime::from_unix_timestamp_nanos(i128::from(micros) * 1_000)
            .ok()
            .map(Self)
    }

    /// Whole seconds since the Unix epoch.
    #[must_use]
    pub fn unix_seconds(&self) -> i64 {
        self.0.unix_timestamp()
    }

    /// Microseconds since the Unix epoch.
    #[must_use]
    pub fn unix_micros(&self) -> i64 {
        // Any OffsetDateTime fits: ±9999 years is about ±3.2e17 µs, well inside i64.
        i64::try_from(self.0.unix_timestamp_nanos() / 1_000).unwrap_or(i64::MAX)
    }

    /// Parses an RFC 3339 timestamp (any offset) as a client may send it in a filter.
    ///
    /// # Errors
    /// When `text` is not RFC 3339.
    pub fn parse_rfc3339(text: &str) -> Result<Self, time::error::Parse> {
        OffsetDateTime::parse(text, &Rfc3339).map(Self::from_datetime)
    }

    /// The instant inside.
    #[must_use]
    pub const fn as_datetime(&self) -> OffsetDateTime {
        self.0
    }

    /// Seconds from `earlier` to this instant (negative when `earlier` is later).
    #[must_use]
    pub fn seconds_since(&self, earlier: Self) -> f64 {
        (self.0 - earlier.0).as_seconds_f64()
    }
}

impl std::ops::Add<std::time::Duration> for Timestamp {
    type Output = Self;

    /// `self` moved `duration` later (saturating at the end of time).
    fn add(self, duration: std::time::Duration) -> Self {
        Self::from_datetime(
            self.0
                .saturating_add(time::Duration::try_from(duration).unwrap_or(time::Duration::MAX)),
        )
    }
}

impl std::ops::Sub<std::time::Duration> for Timestamp {
    type Output = Self;

    /// `self` moved `duration` earlier (saturating at the start of time).
    fn sub(self, duration: std::time::Duration) -> Self {
        Self::from_datetime(
            self.0
                .saturating_sub(time::Duration::try_from(duration).unwrap_or(time::Duration::MAX)),
        )
    }
}

impl fmt::Display for Timestamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.format(&Rfc3339) {
            Ok(text) => f.write_str(&text),
            Err(_) => Err(fmt::Error),
        }
    }
}

impl Serialize for Timestamp {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Timestamp {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        Self::parse_rfc3339(&text).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    #[test]
    fn timestamps_are_utc_with_z_and_microseconds() {
        let at = Timestamp::from_datetime(datetime!(2026-11-22 03:04:05.123_456_789 +02:00));
        assert_eq!(at.to_string(), "2026-11-22T01:04:05.123456Z");
    }

    #[test]
    fn unix_micros_round_trip() {
        let at = Timestamp::from_datetime(datetime!(2026-01-02 03:04:05.000_007 UTC));
        assert_eq!(Timestamp::from_unix_micros(at.unix_micros()), Some(at));
    }

    #[test]
    fn filter_values_must_be_rfc3339() {
        assert!(Timestamp::parse_rfc3339("2026-11-22T00:00:00Z").is_ok());
        assert!(Timestamp::parse_rfc3339("2026-11-22").is_err());
        assert!(Timestamp::parse_rfc3339("yesterday").is_err());
    }

    #[test]
    fn durations_move_a_timestamp_and_saturate_at_the_ends_of_time() {
        let at = Timestamp::from_datetime(datetime!(2026-11-22 00:00 UTC));
        let hour = std::time::Duration::from_secs(3600);
        assert_eq!((at + hour).to_string(), "2026-11-22T01:00:00Z");
        assert_eq!((at - hour).to_string(), "2026-11-21T23:00:00Z");
        assert_eq!(at + hour - hour, at);
        let forever = std::time::Duration::MAX;
        assert!(
            at + forever > at && at - forever < at,
            "saturates, never panics"
        );
    }
}
