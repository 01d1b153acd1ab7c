//! Times where they happen (api.md §4): a voyage's or a terminal's time is shown in the
//! local time of its place, with the zone's abbreviation, UTC on hover; a last free day as
//! the local date it is at the terminal, counting down. A place the reference data does
//! not know shows UTC. System times (created, checked) stay in UTC (`format::when`).

use tidemark_domain::Timestamp;
use tidemark_domain::local_time::{Zone, date_at};

use super::format::{relative, when};

/// Within this of its end a last free day turns amber.
const SOON: i64 = 2 * 86_400;

/// The zone of the place with this UN/LOCODE, when the reference data knows it.
fn zone(locode: Option<&str>) -> Option<Zone> {
    locode.and_then(Zone::of_place)
}

/// A time as its place reads it.
#[derive(Debug, Clone)]
pub struct Moment {
    /// Local, to the minute, with the zone's abbreviation: `2026-12-08 14:05 CET`; UTC
    /// for a place not known.
    pub local: String,
    /// The same in UTC, for the hover.
    pub utc: String,
    /// RFC 3339.
    pub iso: String,
}

impl Moment {
    /// `at`, at the place with UN/LOCODE `locode`.
    #[must_use]
    pub fn at(at: Timestamp, locode: Option<&str>) -> Self {
        let utc = when(at);
        let local = zone(locode).map_or_else(
            || utc.clone(),
            |zone| {
                let shown = zone.local(at);
                format!("{} {} {}", shown.date, shown.time, shown.abbreviation)
            },
        );
        Self {
            local,
            utc,
            iso: at.to_string(),
        }
    }
}

/// A last free day: the local date it is at the terminal, and how far it is.
#[derive(Debug, Clone)]
pub struct Deadline {
    /// The local date, `2026-12-08`, with the zone it is a date in.
    pub day: String,
    /// Its end in UTC, for the hover.
    pub utc: String,
    /// RFC 3339 (for the page's countdown).
    pub iso: String,
    /// How far from now.
    pub left: String,
    /// `passed`, `soon` (within two days) or empty.
    pub tone: &'static str,
}

impl Deadline {
    /// The last free day ending at `at`, at the place with UN/LOCODE `locode`, seen at
    /// `now`.
    #[must_use]
    pub fn new(at: Timestamp, now: Timestamp, locode: Option<&str>) -> Self {
        let day = match date_at(at, locode) {
            (day, Some(zone)) => format!("{day} ({})", zone.name()),
            (day, None) => format!("{day} (UTC)"),
        };
        let left = at.unix_seconds() - now.unix_seconds();
        Self {
            day,
            utc: when(at),
            iso: at.to_string(),
            left: relative(at, now),
            tone: if left < 0 {
                "passed"
            } else if left <= SOON {
                "soon"
            } else {
                ""
            },
        }
    }

    /// Whether it has passed.
    #[must_use]
    pub fn passed(&self) -> bool {
        self.tone == "passed"
    }
}

/// How late `now_expected` is against `first_expected`: `20 h late`, `3 h early`, or
/// `on time` within an hour.
#[must_use]
pub fn lateness(first_expected: Timestamp, now_expected: Timestamp) -> (String, bool) {
    let seconds = now_expected.unix_seconds() - first_expected.unix_seconds();
    if seconds.abs() < 3_600 {
        return ("on time".to_owned(), false);
    }
    let amount = super::format::span(seconds.unsigned_abs());
    if seconds > 0 {
        (format!("{amount} late"), true)
    } else {
        (format!("{amount} early"), false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str) -> Timestamp {
        Timestamp::parse_rfc3339(text).expect("a time")
    }

    #[test]
    fn a_time_shows_in_its_places_zone_with_utc_beside_it() {
        let moment = Moment::at(at("2026-12-08T20:30:00Z"), Some("KRPUS"));
        assert_eq!(moment.local, "2026-12-09 05:30 KST");
        assert_eq!(moment.utc, "2026-12-08 20:30 UTC");
        let unknown = Moment::at(at("2026-12-08T20:30:00Z"), Some("ZZZZZ"));
        assert_eq!(unknown.local, "2026-12-08 20:30 UTC");
    }

    #[test]
    fn a_last_free_day_is_a_local_date_turning_amber_then_red() {
        let lfd = at("2026-12-08T22:59:59Z");
        let early = Deadline::new(lfd, at("2026-12-01T00:00:00Z"), Some("ESVLC"));
        assert_eq!(early.day, "2026-12-08 (Europe/Madrid)");
        assert_eq!(early.tone, "");
        assert_eq!(
            Deadline::new(lfd, at("2026-12-07T12:00:00Z"), Some("ESVLC")).tone,
            "soon"
        );
        let late = Deadline::new(lfd, at("2026-12-09T00:00:00Z"), Some("ESVLC"));
        assert!(late.passed());
        // In Madrid the day ends an hour before it does in UTC.
        let utc_day = Deadline::new(at("2026-12-08T23:30:00Z"), lfd, Some("ESVLC"));
        assert_eq!(utc_day.day, "2026-12-09 (Europe/Madrid)");
    }

    #[test]
    fn lateness_is_told_against_the_first_estimate() {
        let first = at("2026-12-08T04:00:00Z");
        assert_eq!(
            lateness(first, at("2026-12-09T00:00:00Z")),
            ("20 h late".to_owned(), true)
        );
        assert_eq!(
            lateness(first, at("2026-12-08T04:30:00Z")),
            ("on time".to_owned(), false)
        );
        assert_eq!(
            lateness(first, at("2026-12-08T01:00:00Z")),
            ("3 h early".to_owned(), false)
        );
    }
}
