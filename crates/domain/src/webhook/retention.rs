//! How long the delivery log keeps a notification (webhooks.md, "How long the log keeps
//! deliveries"; beyond the reference API, which states no bound). A notification that is
//! settled (succeeded or failed) and has not changed for the retention is forgotten with
//! its attempts; one still pending, or redelivered, is kept whatever its age. The events
//! themselves stay: their dedupe keys are what keeps a carrier's old news from being
//! announced twice.

use std::fmt;
use std::time::Duration;

use crate::Timestamp;

const DAY: Duration = Duration::from_secs(24 * 3600);

/// How long settled notifications are kept unless the operator says otherwise: 90 days,
/// as Svix keeps its messages.
pub const DEFAULT_RETENTION: Duration = Duration::from_secs(90 * 24 * 3600);

/// How long a notification is kept after it last changed, once it is settled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Retention(Duration);

/// A retention outside the bounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetentionError(Duration);

impl fmt::Display for RetentionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "from {} to {} days, not {} s",
            Retention::MIN.as_secs() / DAY.as_secs(),
            Retention::MAX.as_secs() / DAY.as_secs(),
            self.0.as_secs()
        )
    }
}

impl std::error::Error for RetentionError {}

impl Retention {
    /// The shortest: a day, so a client that was down for a night can still reconcile
    /// through `GET /v2/webhook_notifications`.
    pub const MIN: Duration = DAY;

    /// The longest: ten years.
    pub const MAX: Duration = Duration::from_secs(3650 * 24 * 3600);

    /// `duration`, if it is within the bounds.
    ///
    /// # Errors
    /// When it is shorter than [`Retention::MIN`] or longer than [`Retention::MAX`].
    pub fn new(duration: Duration) -> Result<Self, RetentionError> {
        if (Self::MIN..=Self::MAX).contains(&duration) {
            Ok(Self(duration))
        } else {
            Err(RetentionError(duration))
        }
    }

    /// The length.
    #[must_use]
    pub const fn duration(self) -> Duration {
        self.0
    }

    /// At `now`, the settled notifications that last changed before this instant are
    /// forgotten.
    #[must_use]
    pub fn cutoff(self, now: Timestamp) -> Timestamp {
        now - self.0
    }

    /// When a notification that last changed at `changed` may be forgotten, if it is
    /// settled.
    #[must_use]
    pub fn forgotten_after(self, changed: Timestamp) -> Timestamp {
        changed + self.0
    }
}

impl Default for Retention {
    fn default() -> Self {
        Self(DEFAULT_RETENTION)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str) -> Timestamp {
        Timestamp::parse_rfc3339(text).expect("a time")
    }

    #[test]
    fn a_retention_is_from_a_day_to_ten_years() {
        assert!(Retention::new(DAY - Duration::from_secs(1)).is_err());
        assert!(Retention::new(Duration::ZERO).is_err());
        assert_eq!(Retention::new(DAY).map(Retention::duration), Ok(DAY));
        assert!(Retention::new(Retention::MAX).is_ok());
        let error = Retention::new(Retention::MAX + DAY).expect_err("too long");
        assert_eq!(error.to_string(), "from 1 to 3650 days, not 315446400 s");
        assert_eq!(Retention::default().duration(), 90 * DAY);
    }

    #[test]
    fn the_cutoff_and_the_time_forgotten_are_the_retention_apart() {
        let retention = Retention::new(2 * DAY).expect("valid");
        let now = at("2026-11-28T10:00:00Z");
        assert_eq!(retention.cutoff(now), at("2026-11-26T10:00:00Z"));
        assert_eq!(retention.forgotten_after(at("2026-11-26T10:00:00Z")), now);
    }
}
