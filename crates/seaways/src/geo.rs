//! Points on the sphere and the distances between them.

/// The Earth's mean radius in nautical miles (6,371.0088 km).
pub const EARTH_RADIUS_NM: f64 = 3_440.069;

/// A point: latitude and longitude in degrees.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Point {
    /// Degrees north.
    pub lat: f64,
    /// Degrees east, -180 to 180.
    pub lon: f64,
}

impl Point {
    /// The point at `lat`, `lon` (longitude wrapped into -180..180, 180 itself -180).
    #[must_use]
    pub fn new(lat: f64, lon: f64) -> Self {
        let lon = if lon >= 180.0 {
            lon - 360.0
        } else if lon < -180.0 {
            lon + 360.0
        } else {
            lon
        };
        Self { lat, lon }
    }

    /// The great-circle distance to `other`, in nautical miles (haversine).
    #[must_use]
    pub fn distance_nm(self, other: Self) -> f64 {
        let (lat1, lat2) = (self.lat.to_radians(), other.lat.to_radians());
        let d_lat = lat2 - lat1;
        let d_lon = (other.lon - self.lon).to_radians();
        let h = (d_lat / 2.0).sin().powi(2) + lat1.cos() * lat2.cos() * (d_lon / 2.0).sin().powi(2);
        2.0 * EARTH_RADIUS_NM * h.sqrt().min(1.0).asin()
    }

    /// The point a `fraction` of the way to `other`, along the short way round (for the
    /// short segments of a route, a straight line in degrees is near enough).
    #[must_use]
    pub fn toward(self, other: Self, fraction: f64) -> Self {
        let mut d_lon = other.lon - self.lon;
        if d_lon > 180.0 {
            d_lon -= 360.0;
        } else if d_lon < -180.0 {
            d_lon += 360.0;
        }
        Self::new(
            self.lat + (other.lat - self.lat) * fraction,
            self.lon + d_lon * fraction,
        )
    }

    /// The initial bearing toward `other`, degrees clockwise from north.
    #[must_use]
    pub fn bearing_to(self, other: Self) -> f64 {
        let (lat1, lat2) = (self.lat.to_radians(), other.lat.to_radians());
        let d_lon = (other.lon - self.lon).to_radians();
        let y = d_lon.sin() * lat2.cos();
        let x = lat1.cos() * lat2.sin() - lat1.sin() * lat2.cos() * d_lon.cos();
        (y.atan2(x).to_degrees() + 360.0) % 360.0
    }
}

/// The polylines of a bundled file: `lon lat` pairs separated by `;`, one polyline a
/// line, `#` lines skipped. The files are built by `data/import_maps.py`; a pair that
/// does not read is skipped.
pub(crate) fn polylines(text: &str) -> Vec<Vec<Point>> {
    text.lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| {
            line.split(';')
                .filter_map(|pair| {
                    let (lon, lat) = pair.trim().split_once(' ')?;
                    Some(Point::new(lat.parse().ok()?, lon.parse().ok()?))
                })
                .collect()
        })
        .filter(|points: &Vec<Point>| points.len() >= 2)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances_are_great_circle_nautical_miles() {
        // Rotterdam to Shanghai as the crow flies: 8,944 km, 4,829 nm.
        let rotterdam = Point::new(51.95, 4.14);
        let shanghai = Point::new(31.23, 121.47);
        let far = rotterdam.distance_nm(shanghai);
        assert!((far - 4_829.0).abs() < 5.0, "{far}");
        // A degree of latitude is 60 nm.
        assert!((Point::new(0.0, 0.0).distance_nm(Point::new(1.0, 0.0)) - 60.04).abs() < 0.1);
        // Across the antimeridian, the short way.
        let east = Point::new(0.0, 179.5);
        let west = Point::new(0.0, -179.5);
        assert!((east.distance_nm(west) - 60.04).abs() < 0.1);
        assert!((east.toward(west, 0.5).lon.abs() - 180.0).abs() < 1e-9);
        assert_eq!(
            Point::new(10.0, 180.0),
            Point::new(10.0, -180.0),
            "one meridian"
        );
    }

    #[test]
    fn bearings_point_the_way() {
        let origin = Point::new(0.0, 0.0);
        assert!((origin.bearing_to(Point::new(1.0, 0.0)) - 0.0).abs() < 1e-6);
        assert!((origin.bearing_to(Point::new(0.0, 1.0)) - 90.0).abs() < 1e-6);
        assert!((origin.bearing_to(Point::new(-1.0, 0.0)) - 180.0).abs() < 1e-6);
    }

    #[test]
    fn polylines_read_pairs_and_skip_what_does_not_read() {
        let lines = polylines("# header\n1 2;3 4\n5 6\nx y;7 8;9 10\n");
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0][1], Point::new(4.0, 3.0));
        assert_eq!(lines[1], vec![Point::new(8.0, 7.0), Point::new(10.0, 9.0)]);
    }
}
