//! How the console writes times, places and event names for people.

use tidemark_domain::{Place, Timestamp};

/// A time in UTC to the minute: `2026-11-25 04:30 UTC`.
#[must_use]
pub fn when(at: Timestamp) -> String {
    let at = at.as_datetime();
    format!(
        "{:04}-{:02}-{:02} {:02}:{:02} UTC",
        at.year(),
        u8::from(at.month()),
        at.day(),
        at.hour(),
        at.minute()
    )
}

/// An optional time, or a dash.
#[must_use]
pub fn maybe_when(at: Option<Timestamp>) -> String {
    at.map_or_else(|| "—".to_owned(), when)
}

/// A length of time, roughly, its second part left out when it is nothing: `2 d 3 h`,
/// `1 d`, `5 h 20 min`, `12 min`, `40 s`.
#[must_use]
pub fn span(seconds: u64) -> String {
    let (days, hours, minutes) = (
        seconds / 86_400,
        seconds % 86_400 / 3_600,
        seconds % 3_600 / 60,
    );
    let two = |big: u64, big_unit: &str, small: u64, small_unit: &str| match small {
        0 => format!("{big} {big_unit}"),
        _ => format!("{big} {big_unit} {small} {small_unit}"),
    };
    if days > 0 {
        two(days, "d", hours, "h")
    } else if hours > 0 {
        two(hours, "h", minutes, "min")
    } else if minutes > 0 {
        format!("{minutes} min")
    } else {
        format!("{seconds} s")
    }
}

/// How far `at` is from `now`, roughly: `in 2 d 3 h`, `5 h ago`, `in 12 min`.
#[must_use]
pub fn relative(at: Timestamp, now: Timestamp) -> String {
    let seconds = at.unix_seconds() - now.unix_seconds();
    if seconds.unsigned_abs() < 60 {
        return "just now".to_owned();
    }
    let amount = span(seconds.unsigned_abs());
    if seconds >= 0 {
        format!("in {amount}")
    } else {
        format!("{amount} ago")
    }
}

/// A place as people read it: `Rotterdam (NLRTM)`, or the code alone.
#[must_use]
pub fn place(place: &Place) -> String {
    match &place.name {
        Some(name) => format!("{name} ({})", place.locode),
        None => place.locode.clone(),
    }
}

/// An optional place, or a dash.
#[must_use]
pub fn maybe_place(at: Option<&Place>) -> String {
    at.map_or_else(|| "—".to_owned(), place)
}

/// An event's name as a phrase: `container.transport.vessel_departed` → `Vessel departed`.
#[must_use]
pub fn event_phrase(name: &str) -> String {
    let last = name
        .strip_prefix("container.transport.estimated.")
        .or_else(|| name.strip_prefix("container.transport."))
        .unwrap_or(name);
    let words = last.replace(['_', '.'], " ");
    let mut chars = words.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

/// A wire word as a label: `awaiting_manifest` → `awaiting manifest`.
#[must_use]
pub fn words(wire: &str) -> String {
    wire.replace('_', " ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str) -> Timestamp {
        Timestamp::parse_rfc3339(text).expect("a time")
    }

    #[test]
    fn times_read_as_people_write_them() {
        assert_eq!(when(at("2026-11-25T04:30:59Z")), "2026-11-25 04:30 UTC");
        let now = at("2026-11-25T00:00:00Z");
        assert_eq!(relative(at("2026-11-27T03:00:00Z"), now), "in 2 d 3 h");
        assert_eq!(relative(at("2026-11-24T19:00:00Z"), now), "5 h ago");
        assert_eq!(relative(at("2026-11-25T00:12:00Z"), now), "in 12 min");
        assert_eq!(relative(at("2026-11-24T23:59:30Z"), now), "just now");
    }

    #[test]
    fn lengths_of_time_leave_out_a_second_part_of_nothing() {
        assert_eq!(span(24 * 3600), "1 d");
        assert_eq!(span(2 * 86_400 + 3 * 3600 + 59), "2 d 3 h");
        assert_eq!(span(5 * 3600 + 20 * 60), "5 h 20 min");
        assert_eq!(span(12 * 60 + 5), "12 min");
        assert_eq!(span(40), "40 s");
    }

    #[test]
    fn event_names_read_as_phrases() {
        assert_eq!(
            event_phrase("container.transport.vessel_departed"),
            "Vessel departed"
        );
        assert_eq!(
            event_phrase("container.transport.estimated.vessel_arrived"),
            "Vessel arrived"
        );
        assert_eq!(words("awaiting_manifest"), "awaiting manifest");
    }
}
