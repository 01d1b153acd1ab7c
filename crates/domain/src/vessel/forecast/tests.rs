use std::time::Duration;

use seaways::{Point, Route};

use super::*;
use crate::vessel::{Mmsi, Position};

fn at(hours: f64) -> Timestamp {
    #[allow(clippy::cast_possible_truncation)]
    let micros = (hours * 3_600.0 * 1e6) as i64;
    Timestamp::from_unix_micros(1_800_000_000_000_000 + micros).expect("in range")
}

fn heard(hours: f64, lat: f64, lon: f64, speed: Option<f64>) -> Position {
    Position::read(
        Mmsi::new(477_123_400).expect("an MMSI"),
        at(hours),
        [Some(lat), Some(lon), speed, None, None],
    )
    .expect("a position")
}

#[test]
fn the_recent_speed_is_what_the_vessel_made_good_else_what_it_reported() {
    // Sixty nautical miles (a degree of latitude) in four hours: 15 knots, whatever the
    // last report said.
    let latest = heard(4.0, 1.0, 0.0, Some(22.0));
    let track = [
        heard(0.0, 0.0, 0.0, Some(14.0)),
        heard(2.0, 0.5, 0.0, Some(15.0)),
    ];
    let knots = recent_speed(&latest, &track).expect("a speed");
    assert!((knots - 15.01).abs() < 0.05, "{knots}");
    // No track within the day: the report.
    let old = [heard(-30.0, 0.0, 0.0, None)];
    assert_eq!(recent_speed(&latest, &old), Some(22.0));
    // Moored and silent: none.
    let moored = heard(4.0, 1.0, 0.0, Some(0.1));
    assert_eq!(recent_speed(&moored, &[]), None);
}

#[test]
fn estimates_run_forward_a_minute_apart_and_end_at_the_route_end() {
    let route = Route::new(vec![Point::new(0.0, 0.0), Point::new(1.0, 0.0)]);
    // 60.04 nm at 12 knots: about five hours, 301 estimates a minute apart.
    let estimates = along(&route, at(0.0), 12.0, Duration::from_secs(60), 10_000);
    assert_eq!(estimates.len(), 302);
    assert!(estimates.windows(2).all(|pair| pair[0].at < pair[1].at));
    let last = estimates.last().expect("a last");
    assert!((last.point.lat - 1.0).abs() < 1e-9);
    assert_eq!(arrival(&route, at(0.0), 12.0), last.at);
    // Too many for the cap: the spacing widens, the end stays.
    let capped = along(&route, at(0.0), 12.0, Duration::from_secs(60), 10);
    assert_eq!(capped.len(), 10);
    assert_eq!(capped.last().map(|e| e.at), Some(last.at));
}

#[test]
fn the_predicted_arrival_sails_the_routes_and_waits_at_the_ports_between() {
    let singapore = Point::new(1.24, 103.83);
    let colombo = Point::new(6.93, 79.85);
    let jebel_ali = Point::new(25.02, 55.05);
    let network = seaways::Network::bundled();
    let route = |a, b| network.route(a, b).expect("a route");
    let knots = 15.0;
    let day = Duration::from_secs(86_400);
    let direct = predicted_arrival(at(0.0), &[&route(singapore, jebel_ali)], knots, day)
        .expect("an arrival");
    let legs = [route(singapore, colombo), route(colombo, jebel_ali)];
    let via = predicted_arrival(at(0.0), &[&legs[0], &legs[1]], knots, day).expect("an arrival");
    let sailed = legs[0].length_nm() + legs[1].length_nm();
    let expected = at(sailed / knots + 24.0);
    assert!(
        (via.seconds_since(expected)).abs() < 1.0,
        "{via} against {expected}"
    );
    assert!(via > direct, "a call on the way takes longer");
    // A direct route: its length at the speed, no wait.
    let sailed = route(singapore, jebel_ali).length_nm();
    assert!((direct.seconds_since(at(sailed / knots))).abs() < 1.0);
    assert_eq!(predicted_arrival(at(0.0), &[], knots, day), None);
}
