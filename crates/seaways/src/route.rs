//! A route: points in order, and how far along each is.

use crate::geo::Point;

/// A polyline a vessel follows, with the distance sailed at each point.
#[derive(Debug, Clone, PartialEq)]
pub struct Route {
    points: Vec<Point>,
    along: Vec<f64>,
}

impl Route {
    /// The route through `points` in order.
    #[must_use]
    pub fn new(points: Vec<Point>) -> Self {
        let mut along = Vec::with_capacity(points.len());
        let mut sailed = 0.0;
        for (i, point) in points.iter().enumerate() {
            if i > 0 {
                sailed += points[i - 1].distance_nm(*point);
            }
            along.push(sailed);
        }
        Self { points, along }
    }

    /// Its points.
    #[must_use]
    pub fn points(&self) -> &[Point] {
        &self.points
    }

    /// Its length in nautical miles.
    #[must_use]
    pub fn length_nm(&self) -> f64 {
        self.along.last().copied().unwrap_or(0.0)
    }

    /// The point `nm` nautical miles along (the start before it, the end after it).
    #[must_use]
    pub fn at(&self, nm: f64) -> Option<Point> {
        let after = self.along.partition_point(|sailed| *sailed <= nm);
        match (after, self.points.len()) {
            (_, 0) => None,
            (0, _) => self.points.first().copied(),
            (after, len) if after >= len => self.points.last().copied(),
            (after, _) => {
                let (from, to) = (self.points[after - 1], self.points[after]);
                let span = self.along[after] - self.along[after - 1];
                let fraction = if span > 0.0 {
                    (nm - self.along[after - 1]) / span
                } else {
                    0.0
                };
                Some(from.toward(to, fraction))
            }
        }
    }

    /// The bearing of the route `nm` nautical miles along, degrees from north.
    #[must_use]
    pub fn bearing_at(&self, nm: f64) -> Option<f64> {
        let after = self
            .along
            .partition_point(|sailed| *sailed <= nm)
            .clamp(1, self.points.len().saturating_sub(1).max(1));
        let (from, to) = (self.points.get(after - 1)?, self.points.get(after)?);
        Some(from.bearing_to(*to))
    }

    /// This route, then `next` (its first point dropped when it is this one's last).
    #[must_use]
    pub fn then(&self, next: &Self) -> Self {
        let mut points = self.points.clone();
        let skip = usize::from(points.last() == next.points.first());
        points.extend(next.points.iter().skip(skip));
        Self::new(points)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_along_a_route_are_found_by_distance() {
        let route = Route::new(vec![
            Point::new(0.0, 0.0),
            Point::new(1.0, 0.0),
            Point::new(1.0, 1.0),
        ]);
        assert!((route.length_nm() - 120.06).abs() < 0.1);
        let half = route.at(30.0).expect("a point");
        assert!((half.lat - 0.5).abs() < 0.01 && half.lon.abs() < 1e-9);
        let corner = route.at(60.04).expect("a point");
        assert!((corner.lat - 1.0).abs() < 0.01);
        assert_eq!(route.at(-5.0), Some(Point::new(0.0, 0.0)));
        assert_eq!(route.at(500.0), Some(Point::new(1.0, 1.0)));
        assert!((route.bearing_at(10.0).expect("a bearing")).abs() < 1e-6);
        assert!((route.bearing_at(100.0).expect("a bearing") - 90.0).abs() < 0.1);
        assert_eq!(Route::new(Vec::new()).at(1.0), None);
    }

    #[test]
    fn routes_join_without_repeating_their_meeting_point() {
        let a = Route::new(vec![Point::new(0.0, 0.0), Point::new(1.0, 0.0)]);
        let b = Route::new(vec![Point::new(1.0, 0.0), Point::new(2.0, 0.0)]);
        let joined = a.then(&b);
        assert_eq!(joined.points().len(), 3);
        assert!((joined.length_nm() - a.length_nm() - b.length_nm()).abs() < 1e-9);
    }
}
