//! The shipment page's map: the voyage drawn on the server as inline SVG, nothing fetched
//! from elsewhere, in the frame of [`super::map_frame`]. The ports are the voyage's
//! (`tidemark_app::voyage`), the path sailed is the vessel's track as the feeds heard it,
//! the legs ahead follow the sea routes, the vessel is where it was last heard.

use tidemark_app::voyage::VoyageView;
use tidemark_domain::gazetteer::Gazetteer;

use super::map_frame::{Frame, SCALE, anchor};

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
