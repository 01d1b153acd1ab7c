//! Local days and times, against the IANA database's own rules (summer time included).

use super::*;

fn at(text: &str) -> Timestamp {
    Timestamp::parse_rfc3339(text).expect("a time")
}

#[test]
fn a_local_day_ends_at_the_places_midnight_not_utcs() {
    let madrid = Zone::named("Europe/Madrid").expect("a zone");
    // Winter: UTC+1.
    assert_eq!(
        madrid.end_of_day("2026-12-08"),
        Some(at("2026-12-08T22:59:59Z"))
    );
    // Summer: UTC+2.
    assert_eq!(
        madrid.end_of_day("2026-07-08"),
        Some(at("2026-07-08T21:59:59Z"))
    );
    let los_angeles = Zone::named("America/Los_Angeles").expect("a zone");
    assert_eq!(
        los_angeles.end_of_day("2026-12-08"),
        Some(at("2026-12-09T07:59:59Z"))
    );
    assert_eq!(madrid.end_of_day("2026-13-40"), None);
    assert_eq!(madrid.end_of_day("tomorrow"), None);
}

#[test]
fn an_instant_shows_as_the_places_clocks_do() {
    let busan = Zone::named("Asia/Seoul").expect("a zone");
    let shown = busan.local(at("2026-12-08T20:30:00Z"));
    assert_eq!(shown.date, "2026-12-09", "past midnight in Busan");
    assert_eq!(shown.time, "05:30");
    assert_eq!(shown.abbreviation, "KST");
    assert_eq!(shown.offset, "+09");
    let hamburg = Zone::named("Europe/Berlin").expect("a zone");
    assert_eq!(
        hamburg.local(at("2026-07-01T12:00:00Z")).abbreviation,
        "CEST"
    );
    assert_eq!(
        hamburg.local(at("2026-12-01T12:00:00Z")).abbreviation,
        "CET"
    );
    assert_eq!(Zone::named("Mars/Olympus_Mons"), None);
}

#[test]
fn a_date_at_a_place_is_its_clocks_date_and_utcs_where_the_place_is_unknown() {
    let late = at("2026-12-08T23:30:00Z");
    let (day, zone) = date_at(late, Some("ESVLC"));
    assert_eq!(day, "2026-12-09", "already the 9th in Valencia");
    assert_eq!(
        zone.map(|zone| zone.name().to_owned()).as_deref(),
        Some("Europe/Madrid")
    );
    assert_eq!(date_at(late, Some("USLAX")).0, "2026-12-08");
    let (day, zone) = date_at(late, Some("ZZZZZ"));
    assert_eq!((day.as_str(), zone), ("2026-12-08", None));
    assert_eq!(date_at(late, None).0, "2026-12-08");
}

#[test]
fn an_instant_in_iso_8601_carries_its_places_offset() {
    let late = at("2026-12-08T23:30:00Z");
    assert_eq!(iso_at(late, Some("ESVLC")), "2026-12-09T00:30:00+01:00");
    assert_eq!(iso_at(late, Some("USLAX")), "2026-12-08T15:30:00-08:00");
    assert_eq!(iso_at(late, None), late.to_string());
    assert!(iso_at(late, Some("ZZZZZ")).ends_with('Z'));
}
