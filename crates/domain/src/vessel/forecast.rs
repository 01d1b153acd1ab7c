//! Where a vessel will be: its recent speed, and positions along the route ahead at that
//! speed, the last at the route's end.

use std::time::Duration;

use seaways::{Point, Route};

use super::Position;
use crate::Timestamp;

/// The speed assumed for a vessel whose own is unknown, or that is stopped: a container
/// ship's slow-steaming service speed.
pub const SERVICE_SPEED_KNOTS: f64 = 14.0;

/// How far back the track is read for a vessel's recent speed.
pub const RECENT: Duration = Duration::from_secs(24 * 3_600);

/// A vessel's recent speed over ground, in knots: the sea distance between its earliest
/// track point of the last day and its latest position over the time between (what it
/// made good, whatever a single report says), else its latest report's speed. `None` when
/// neither says it is under way (under half a knot).
#[must_use]
pub fn recent_speed(latest: &Position, track: &[Position]) -> Option<f64> {
    let since = latest.at - RECENT;
    let made_good = track
        .iter()
        .filter(|point| point.at >= since && point.at < latest.at)
        .min_by_key(|point| point.at)
        .and_then(|first| {
            let hours = latest.at.seconds_since(first.at) / 3_600.0;
            let sailed = point(first).distance_nm(point(latest));
            (hours > 0.0 && sailed >= 1.0).then_some(sailed / hours)
        });
    made_good
        .or(latest.speed_knots)
        .filter(|knots| *knots >= 0.5)
}

/// A position's point.
#[must_use]
pub fn point(position: &Position) -> Point {
    Point::new(position.latitude, position.longitude)
}

/// One estimated position.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Estimate {
    /// Where.
    pub point: Point,
    /// When.
    pub at: Timestamp,
    /// The route's bearing there, degrees.
    pub heading: f64,
}

/// When a vessel at `route`'s start at `start` reaches its end at `knots`.
#[must_use]
pub fn arrival(route: &Route, start: Timestamp, knots: f64) -> Timestamp {
    start + hours(route.length_nm() / knots.max(0.1))
}

fn hours(hours: f64) -> Duration {
    Duration::try_from_secs_f64((hours * 3_600.0).max(0.0)).unwrap_or(Duration::MAX)
}

/// Positions along `route` from `start` at `knots`, `every` apart (widened so there are at
/// most `most`), the last at the route's end.
#[must_use]
pub fn along(
    route: &Route,
    start: Timestamp,
    knots: f64,
    every: Duration,
    most: usize,
) -> Vec<Estimate> {
    let knots = knots.max(0.1);
    let total = route.length_nm() / knots * 3_600.0;
    let most = most.max(2);
    #[allow(clippy::cast_precision_loss)]
    let step = every.as_secs_f64().max(total / (most - 1) as f64).max(1.0);
    let mut estimates = Vec::new();
    let mut elapsed = 0.0;
    while elapsed < total && estimates.len() + 1 < most {
        estimates.extend(estimate(route, start, knots, elapsed));
        elapsed += step;
    }
    estimates.extend(estimate(route, start, knots, total));
    estimates
}

fn estimate(route: &Route, start: Timestamp, knots: f64, seconds: f64) -> Option<Estimate> {
    let along = knots * seconds / 3_600.0;
    Some(Estimate {
        point: route.at(along)?,
        at: start + Duration::try_from_secs_f64(seconds.max(0.0)).unwrap_or(Duration::MAX),
        heading: route.bearing_at(along).unwrap_or(0.0),
    })
}

/// The estimates from `from` at `start` to `port` over the sea routes at `knots`, `every`
/// apart (at most `most`); `None` when no route reaches it.
#[must_use]
pub fn to_port(
    (from, start): (Point, Timestamp),
    port: Point,
    knots: f64,
    (every, most): (Duration, usize),
) -> Option<Vec<Estimate>> {
    let route = seaways::Network::bundled().route(from, port)?;
    Some(along(&route, start, knots, every, most))
}

/// How long a vessel is assumed to stay at each port it calls at on the way: a day, the
/// usual berth window of a container ship's call.
pub const PORT_STAY: Duration = Duration::from_secs(24 * 3_600);

/// When a vessel that starts at `start` reaches the end of the last of `legs` (the sea
/// routes from where it is to its next port, then port to port), sailing at `knots` and
/// spending `in_port` at each port between: Tidemark's own arrival estimate. `None`
/// without a leg.
#[must_use]
pub fn predicted_arrival(
    start: Timestamp,
    legs: &[&Route],
    knots: f64,
    in_port: Duration,
) -> Option<Timestamp> {
    let calls = u32::try_from(legs.len().checked_sub(1)?).unwrap_or(u32::MAX);
    let sea_nm: f64 = legs.iter().map(|leg| leg.length_nm()).sum();
    Some(start + hours(sea_nm / knots.max(0.1)) + in_port.saturating_mul(calls))
}

#[cfg(test)]
mod tests;
