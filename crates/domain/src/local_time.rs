//! Times in a place's own zone (api.md §4): the IANA zone a port, terminal or inland place
//! has (`gazetteer`), read from the IANA database bundled with Tidemark, so the same
//! instant shows the same local time on every machine. Times are stored and sent in UTC;
//! the zone is for showing them where they happen, and for the one kind of time given as
//! a local day: a last free day ("free until the end of 2026-12-08 at Valencia").

use crate::Timestamp;

/// An IANA time zone.
#[derive(Debug, Clone, PartialEq)]
pub struct Zone {
    name: String,
    zone: jiff::tz::TimeZone,
}

/// An instant as a place's clocks show it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocalTime {
    /// The local date, `2026-12-08`.
    pub date: String,
    /// The local time to the minute, `14:05`.
    pub time: String,
    /// The zone's abbreviation then (`CET`, `CEST`), or its UTC offset where the zone has
    /// none (`+09`).
    pub abbreviation: String,
    /// The offset from UTC then, `+01:00`.
    pub offset: String,
}

impl Zone {
    /// The zone with this IANA name; `None` for a name the database does not have.
    #[must_use]
    pub fn named(name: &str) -> Option<Self> {
        let zone = jiff::tz::TimeZone::get(name).ok()?;
        Some(Self {
            name: name.to_owned(),
            zone,
        })
    }

    /// The zone of the place with this UN/LOCODE, when the bundled places know it.
    #[must_use]
    pub fn of_place(locode: &str) -> Option<Self> {
        crate::gazetteer::Gazetteer::bundled()
            .time_zone(locode)
            .and_then(Self::named)
    }

    /// Its IANA name.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The last instant of the local day `date` (`YYYY-MM-DD`) here: 23:59:59 local time,
    /// as a last free day without a time means. `None` for a date that is not one.
    #[must_use]
    pub fn end_of_day(&self, date: &str) -> Option<Timestamp> {
        let day: jiff::civil::Date = date.parse().ok()?;
        let end = day
            .at(23, 59, 59, 0)
            .to_zoned_datetime(self.zone.clone())
            .ok()?;
        Timestamp::from_unix_micros(end.timestamp().as_microsecond())
    }

    /// `at` as this place's clocks show it.
    #[must_use]
    pub fn local(&self, at: Timestamp) -> LocalTime {
        let instant = jiff::Timestamp::from_microsecond(at.unix_micros())
            .unwrap_or(jiff::Timestamp::UNIX_EPOCH);
        let zoned = instant.to_zoned_datetime(self.zone.clone());
        let offset = zoned.offset();
        let abbreviation = self.zone.to_offset_info(instant).abbreviation().to_owned();
        LocalTime {
            date: zoned.date().to_string(),
            time: zoned.strftime("%H:%M").to_string(),
            abbreviation,
            offset: offset.to_string(),
        }
    }

    /// `at` in ISO 8601 as this place's clocks show it, with their offset:
    /// `2026-12-09T00:30:00+01:00`.
    #[must_use]
    pub fn iso(&self, at: Timestamp) -> String {
        let instant = jiff::Timestamp::from_microsecond(at.unix_micros())
            .unwrap_or(jiff::Timestamp::UNIX_EPOCH);
        instant
            .to_zoned_datetime(self.zone.clone())
            .strftime("%Y-%m-%dT%H:%M:%S%:z")
            .to_string()
    }

    /// The local date of `at` here.
    #[must_use]
    pub fn date_of(&self, at: Timestamp) -> String {
        self.local(at).date
    }
}

/// The local date of `at` at the place with UN/LOCODE `locode`, and the zone it is a date
/// in; the UTC date (and no zone) where the place is not known. A last free day is this
/// date: what the terminal's clock says, not a UTC cut-off.
#[must_use]
pub fn date_at(at: Timestamp, locode: Option<&str>) -> (String, Option<Zone>) {
    match locode.and_then(Zone::of_place) {
        Some(zone) => (zone.date_of(at), Some(zone)),
        None => (at.as_datetime().date().to_string(), None),
    }
}

/// `at` in ISO 8601 at the place with UN/LOCODE `locode`, with its offset; in UTC (`Z`)
/// where the place is not known.
#[must_use]
pub fn iso_at(at: Timestamp, locode: Option<&str>) -> String {
    locode
        .and_then(Zone::of_place)
        .map_or_else(|| at.to_string(), |zone| zone.iso(at))
}

#[cfg(test)]
mod tests;
