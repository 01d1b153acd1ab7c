//! The frame both console maps draw in (the shipment page's voyage, the overview's
//! vessels at sea): degrees as they are (an equirectangular view, ten units a degree)
//! around what is drawn, longitudes running on across the antimeridian so a Pacific
//! crossing stays in one piece, and Natural Earth's 1:110m land (`seaways::land`).

use std::fmt::Write as _;

/// Units a degree.
pub(super) const SCALE: f64 = 10.0;

/// A view around what a map draws: longitudes are measured from `center`, the short way.
pub(super) struct Frame {
    center: f64,
    /// The south-west corner (latitude, longitude from the centre's turn).
    pub(super) min: (f64, f64),
    /// The north-east corner.
    pub(super) max: (f64, f64),
}

impl Frame {
    pub(super) fn x(&self, lon: f64) -> f64 {
        self.center + (lon - self.center + 540.0).rem_euclid(360.0) - 180.0
    }

    pub(super) fn around(points: &[(f64, f64)]) -> Option<Self> {
        let (lat0, lon0) = *points.first()?;
        let mut frame = Self {
            center: lon0,
            min: (lat0, lon0),
            max: (lat0, lon0),
        };
        for &(lat, lon) in points {
            let x = frame.x(lon);
            frame.min = (frame.min.0.min(lat), frame.min.1.min(x));
            frame.max = (frame.max.0.max(lat), frame.max.1.max(x));
        }
        // At least 20° by 10°, and a tenth more on every side.
        let pad_lon = ((20.0 - (frame.max.1 - frame.min.1)) / 2.0).max(0.0)
            + (frame.max.1 - frame.min.1) * 0.1
            + 2.0;
        let pad_lat = ((10.0 - (frame.max.0 - frame.min.0)) / 2.0).max(0.0)
            + (frame.max.0 - frame.min.0) * 0.1
            + 2.0;
        frame.min = ((frame.min.0 - pad_lat).max(-85.0), frame.min.1 - pad_lon);
        frame.max = ((frame.max.0 + pad_lat).min(85.0), frame.max.1 + pad_lon);
        // A port's label stands above it: room for a line of text at the top.
        let size = (frame.max.1 - frame.min.1).max(frame.max.0 - frame.min.0);
        frame.max.0 = (frame.max.0 + size / 20.0).min(85.0);
        Some(frame)
    }

    pub(super) fn point(&self, lat: f64, lon: f64) -> (f64, f64) {
        (self.x(lon) * SCALE, -lat * SCALE)
    }

    pub(super) fn line(&self, points: impl Iterator<Item = (f64, f64)>) -> String {
        let mut text = String::new();
        let mut previous: Option<f64> = None;
        for (lat, lon) in points {
            // Along a line, each longitude follows the one before the short way.
            let x = match previous {
                Some(before) => before + (self.x(lon) - before + 540.0).rem_euclid(360.0) - 180.0,
                None => self.x(lon),
            };
            previous = Some(x);
            let _ = write!(text, "{:.1},{:.1} ", x * SCALE, -lat * SCALE);
        }
        text.trim_end().to_owned()
    }

    /// The land rings that reach into the view, shifted by a turn when that brings them
    /// in, as SVG path data.
    pub(super) fn land(&self) -> Vec<String> {
        let mut paths = Vec::new();
        for ring in seaways::land() {
            let (lats, lons): (Vec<f64>, Vec<f64>) = ring.iter().map(|p| (p.lat, p.lon)).unzip();
            let (south, north) = lats
                .iter()
                .fold((90.0_f64, -90.0_f64), |(s, n), v| (s.min(*v), n.max(*v)));
            if north < self.min.0 || south > self.max.0 {
                continue;
            }
            let (west, east) = lons
                .iter()
                .fold((180.0_f64, -180.0_f64), |(w, e), v| (w.min(*v), e.max(*v)));
            for shift in [-360.0, 0.0, 360.0] {
                if east + shift < self.min.1 || west + shift > self.max.1 {
                    continue;
                }
                let mut d = String::with_capacity(ring.len() * 12);
                for (i, p) in ring.iter().enumerate() {
                    let command = if i == 0 { 'M' } else { 'L' };
                    let _ = write!(
                        d,
                        "{command}{:.1} {:.1}",
                        (p.lon + shift) * SCALE,
                        -p.lat * SCALE
                    );
                }
                d.push('Z');
                paths.push(d);
            }
        }
        paths
    }
}

/// Which way a label at `x` reads so it stays inside a view from `left` across `width`.
pub(super) fn anchor(x: f64, (left, width): (f64, f64)) -> &'static str {
    match (x - left) / width {
        share if share < 0.25 => "start",
        share if share > 0.75 => "end",
        _ => "middle",
    }
}
