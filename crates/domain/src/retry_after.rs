//! `Retry-After` (RFC 9110 §10.2.3), as a carrier, a terminal or a webhook receiver sends
//! it: whole seconds, or an HTTP date read against the caller's clock (a date gone by is
//! no wait). One reading for every party Tidemark calls.

use std::time::Duration;

use time::OffsetDateTime;
use time::format_description::well_known::Rfc2822;

use crate::Timestamp;

/// How long `value` asks to wait from `now`; `None` when it is neither form.
#[must_use]
pub fn retry_after(value: &str, now: Timestamp) -> Option<Duration> {
    let value = value.trim();
    if let Ok(seconds) = value.parse::<u64>() {
        return Some(Duration::from_secs(seconds));
    }
    let date = OffsetDateTime::parse(value, &Rfc2822).ok()?;
    Some(Duration::try_from(date - now.as_datetime()).unwrap_or(Duration::ZERO))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_reads_seconds_and_http_dates() {
        let now = Timestamp::from_datetime(time::macros::datetime!(2026-11-23 10:00 UTC));
        assert_eq!(retry_after("120", now), Some(Duration::from_secs(120)));
        assert_eq!(retry_after(" 7 ", now), Some(Duration::from_secs(7)));
        assert_eq!(
            retry_after("Mon, 23 Nov 2026 10:05:00 GMT", now),
            Some(Duration::from_secs(300))
        );
        assert_eq!(
            retry_after("Mon, 23 Nov 2026 09:00:00 GMT", now),
            Some(Duration::ZERO),
            "a date gone by"
        );
        assert_eq!(retry_after("soon", now), None);
        assert_eq!(retry_after("-5", now), None);
    }
}
