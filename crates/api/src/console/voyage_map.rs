//! The shipment page's map: the voyage drawn on the server as inline SVG, nothing fetched
//! from elsewhere. Land is Natural Earth's 1:110m (`seaways::land`), the ports are the
//! voyage's (`crate::voyage`), the path sailed is the vessel's track as the feeds heard
//! it, the legs ahead follow the sea routes, the vessel is where it was last heard.
//! Degrees are drawn as they are (an equirectangular view, ten units a degree) around the
//! voyage, longitudes running on across the antimeridian so a Pacific crossing stays in
//! one piece.

use std::fmt::Write as _;

use tidemark_domain::gazetteer::Gazetteer;

use crate::voyage::VoyageView;

/// Units a degree.
const SCALE: f64 = 10.0;

/// A port on the map.
#[derive(Debug)]
pub(crate) struct MapPort {
    pub x: String,
    pub y: String,
    pub label: String,
    pub name: String,
    pub reached: bool,
    /// `start`, `middle` or `end`: the label reads away from the nearer edge.
    pub anchor: &'static str,
}

/// The vessel on the map.
#[derive(Debug)]
pub(crate) struct MapVessel {
    pub x: String,
    pub y: String,
    pub name: String,
    /// `start` or `end`: the label reads away from the nearer edge.
    pub anchor: &'static str,
}

/// What the template draws.
#[derive(Debug)]
pub(crate) struct VoyageMap {
    pub view_box: String,
    /// The size of a port's mark and its label's text, in the view's units.
    pub mark: String,
    pub text: String,
    pub land: Vec<String>,
    pub sailed: Option<String>,
    pub ahead: Vec<String>,
    pub ports: Vec<MapPort>,
    pub vessel: Option<MapVessel>,
    /// What the map shows, in words, for those who do not see it.
    pub title: String,
}

/// A view around the voyage: longitudes are measured from `center`, the short way.
struct Frame {
    center: f64,
    min: (f64, f64),
    max: (f64, f64),
}

impl Frame {
    fn x(&self, lon: f64) -> f64 {
        self.center + (lon - self.center + 540.0).rem_euclid(360.0) - 180.0
    }

    fn around(points: &[(f64, f64)]) -> Option<Self> {
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

    fn point(&self, lat: f64, lon: f64) -> (f64, f64) {
        (self.x(lon) * SCALE, -lat * SCALE)
    }

    fn line(&self, points: impl Iterator<Item = (f64, f64)>) -> String {
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
    fn land(&self) -> Vec<String> {
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
fn anchor(x: f64, (left, width): (f64, f64)) -> &'static str {
    match (x - left) / width {
        share if share < 0.25 => "start",
        share if share > 0.75 => "end",
        _ => "middle",
    }
}

/// The voyage's ports where the frame draws them.
fn ports(frame: &Frame, view: &VoyageView) -> Vec<MapPort> {
    let places = Gazetteer::bundled();
    let span = (frame.min.1 * SCALE, (frame.max.1 - frame.min.1) * SCALE);
    view.voyage
        .stops
        .iter()
        .map(|stop| {
            let (x, y) = frame.point(stop.point.lat, stop.point.lon);
            MapPort {
                x: format!("{x:.1}"),
                y: format!("{y:.1}"),
                label: stop.label.clone(),
                name: places
                    .place(&stop.locode)
                    .map_or_else(|| stop.locode.clone(), |p| p.name.to_owned()),
                reached: stop.reached,
                anchor: anchor(x, span),
            }
        })
        .collect()
}

/// The map of `view`; `None` when none of its ports can be placed.
pub(crate) fn draw(view: &VoyageView) -> Option<VoyageMap> {
    let stops = &view.voyage.stops;
    let latest = view.latest();
    let mut placed: Vec<(f64, f64)> = stops.iter().map(|s| (s.point.lat, s.point.lon)).collect();
    placed.extend(latest.map(|p| (p.latitude, p.longitude)));
    placed.extend(view.path.iter().map(|p| (p.latitude, p.longitude)));
    for leg in &view.ahead {
        placed.extend(leg.route.points().iter().map(|p| (p.lat, p.lon)));
    }
    if stops.is_empty() {
        return None;
    }
    let frame = Frame::around(&placed)?;
    let (x0, y0) = (frame.min.1 * SCALE, -frame.max.0 * SCALE);
    let (width, height) = (
        (frame.max.1 - frame.min.1) * SCALE,
        (frame.max.0 - frame.min.0) * SCALE,
    );
    let size = width.max(height);
    let mut sailed: Vec<(f64, f64)> = view
        .path
        .iter()
        .map(|p| (p.latitude, p.longitude))
        .collect();
    sailed.extend(latest.map(|p| (p.latitude, p.longitude)));
    let ports = ports(&frame, view);
    let vessel_name = view
        .vessel
        .as_ref()
        .and_then(|v| v.name.clone())
        .or_else(|| view.heard.as_ref().and_then(|h| h.name.clone()))
        .unwrap_or_else(|| "The vessel".to_owned());
    let vessel = latest.map(|p| {
        let (x, y) = frame.point(p.latitude, p.longitude);
        MapVessel {
            x: format!("{x:.1}"),
            y: format!("{y:.1}"),
            name: vessel_name.clone(),
            anchor: match anchor(x, (x0, width)) {
                "end" => "end",
                _ => "start",
            },
        }
    });
    let route_words: Vec<String> = ports
        .iter()
        .map(|p| format!("{} {}", p.label, p.name))
        .collect();
    let title = match &vessel {
        Some(vessel) => format!(
            "The voyage {}, {} at sea where last heard",
            route_words.join(" to "),
            vessel.name
        ),
        None => format!(
            "The voyage {}; no position of its vessel heard",
            route_words.join(" to ")
        ),
    };
    Some(VoyageMap {
        view_box: format!("{x0:.1} {y0:.1} {width:.1} {height:.1}"),
        mark: format!("{:.1}", size / 120.0),
        text: format!("{:.1}", size / 28.0),
        land: frame.land(),
        sailed: (sailed.len() >= 2).then(|| frame.line(sailed.into_iter())),
        ahead: view
            .ahead
            .iter()
            .map(|leg| frame.line(leg.route.points().iter().map(|p| (p.lat, p.lon))))
            .collect(),
        ports,
        vessel,
        title,
    })
}
