use std::str::FromStr;
use std::time::Duration;

use super::*;
use crate::Timestamp;

fn at(seconds: i64) -> Timestamp {
    Timestamp::from_unix_micros(1_800_000_000_000_000 + seconds * 1_000_000).expect("in range")
}

fn mmsi(number: u32) -> Mmsi {
    Mmsi::new(number).expect("an MMSI")
}

#[test]
fn an_mmsi_is_nine_digits_and_ships_start_with_two_to_seven() {
    assert_eq!(Mmsi::from_str("477123400").map(Mmsi::get), Ok(477_123_400));
    assert_eq!(mmsi(2_050_000).to_string(), "002050000");
    assert!(Mmsi::from_str("47712340").is_err());
    assert!(Mmsi::from_str("000000000").is_err());
    assert!(Mmsi::from_str("47712340x").is_err());
    assert!(Mmsi::new(1_000_000_000).is_none());
    assert!(mmsi(477_123_400).is_ship());
    assert!(!mmsi(2_050_000).is_ship(), "a coast station");
    assert!(!mmsi(992_351_000).is_ship(), "an aid to navigation");
}

#[test]
fn positions_out_of_range_are_not_positions_and_not_available_values_are_absent() {
    let read = |fields| Position::read(mmsi(477_123_400), at(0), fields);
    let position =
        read([Some(51.9), Some(4.1), Some(14.2), Some(270.5), Some(271.0)]).expect("a position");
    assert_eq!(position.speed_knots, Some(14.2));
    assert!(read([Some(91.0), Some(4.1), None, None, None]).is_none());
    assert!(read([Some(51.9), Some(181.0), None, None, None]).is_none());
    assert!(read([None, Some(4.1), None, None, None]).is_none());
    let unknown =
        read([Some(0.5), Some(-0.5), Some(102.3), Some(360.0), Some(511.0)]).expect("a position");
    assert_eq!(
        (
            unknown.speed_knots,
            unknown.course_degrees,
            unknown.heading_degrees
        ),
        (None, None, None)
    );
}

#[test]
fn static_data_keeps_a_valid_imo_and_a_trimmed_name() {
    let data = StaticData::read(
        mmsi(477_123_400),
        at(0),
        Some(9_811_000),
        Some("EVER GIVEN@@@  "),
    );
    assert_eq!(data.imo.as_deref(), Some("9811000"));
    assert_eq!(data.name.as_deref(), Some("EVER GIVEN"));
    let data = StaticData::read(mmsi(477_123_400), at(0), Some(9_811_001), Some("@@@@"));
    assert_eq!((data.imo, data.name), (None, None));
}

#[test]
fn a_track_keeps_one_point_per_interval_per_vessel() {
    let mut track = Track::new(TrackSettings::default());
    let point = |mmsi_number, seconds| {
        Position::read(
            mmsi(mmsi_number),
            at(seconds),
            [Some(1.0), Some(2.0), None, None, None],
        )
        .expect("a position")
    };
    assert!(track.keep(&point(477_123_400, 0)));
    assert!(!track.keep(&point(477_123_400, 599)));
    assert!(
        track.keep(&point(477_123_401, 30)),
        "another vessel has its own"
    );
    assert!(track.keep(&point(477_123_400, 600)));
    assert!(
        !track.keep(&point(477_123_400, 10)),
        "an older position replayed"
    );
}

#[test]
fn track_settings_are_checked_and_give_a_cutoff() {
    let settings = TrackSettings::default();
    assert_eq!(settings.check(), Ok(()));
    assert_eq!(settings.cutoff(at(90 * 86_400)), at(0));
    let short = TrackSettings {
        retention: Duration::from_secs(3_600),
        ..settings
    };
    assert!(short.check().is_err());
}
