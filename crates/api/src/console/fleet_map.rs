//! The overview's map of the vessels at sea: each vessel carrying the account's shipments
//! at sea (`Shipment::sailing_vessel`) where a feed last heard it within a day, on the
//! land of [`super::map_frame`], drawn on the server as inline SVG; and the same vessels
//! as a table, for those who do not see the map and for a phone's width.

use std::time::Duration;

use tidemark_domain::Timestamp;
use tidemark_domain::vessel::HeardVessel;

use super::format::relative;
use super::map_frame::{Frame, SCALE};

/// How recently a vessel must have been heard to be drawn where it was heard.
pub(crate) const HEARD_WITHIN: Duration = Duration::from_secs(86_400);

/// Vessels drawn at most (the most laden first).
pub(crate) const MOST: u32 = 500;

/// Vessels listed under the map.
const LISTED: usize = 10;

/// One vessel: where it is drawn, and what the table says of it.
#[derive(Debug)]
pub(crate) struct FleetVessel {
    pub x: String,
    pub y: String,
    pub name: String,
    pub imo: String,
    pub shipments: u64,
    pub heard: String,
}

/// What the overview draws.
#[derive(Debug)]
pub(crate) struct FleetMap {
    pub view_box: String,
    pub mark: String,
    pub land: Vec<String>,
    pub vessels: Vec<FleetVessel>,
    /// How many the table lists (the first of `vessels`).
    pub listed: usize,
    /// What the map shows, in words.
    pub title: String,
}

/// The map of `heard` (each vessel with how many shipments it carries) at `now`; `None`
/// when no vessel at sea was heard.
pub(crate) fn draw(heard: &[(HeardVessel, u64)], now: Timestamp) -> Option<FleetMap> {
    let placed: Vec<(&HeardVessel, u64, (f64, f64))> = heard
        .iter()
        .filter_map(|(vessel, shipments)| {
            let at = vessel.position?;
            Some((vessel, *shipments, (at.latitude, at.longitude)))
        })
        .collect();
    let points: Vec<(f64, f64)> = placed.iter().map(|(_, _, point)| *point).collect();
    let frame = Frame::around(&points)?;
    let (x0, y0) = (frame.min.1 * SCALE, -frame.max.0 * SCALE);
    let (width, height) = (
        (frame.max.1 - frame.min.1) * SCALE,
        (frame.max.0 - frame.min.0) * SCALE,
    );
    let vessels: Vec<FleetVessel> = placed
        .iter()
        .filter_map(|(vessel, shipments, (lat, lon))| {
            let (x, y) = frame.point(*lat, *lon);
            Some(FleetVessel {
                x: format!("{x:.1}"),
                y: format!("{y:.1}"),
                name: vessel
                    .name
                    .clone()
                    .unwrap_or_else(|| format!("IMO {}", vessel.imo.as_deref().unwrap_or("?"))),
                imo: vessel.imo.clone().unwrap_or_default(),
                shipments: *shipments,
                heard: relative(vessel.position?.at, now),
            })
        })
        .collect();
    let carried: u64 = vessels.iter().map(|v| v.shipments).sum();
    let title = format!(
        "{} at sea carrying {carried} of your shipments, where last heard",
        match vessels.len() {
            1 => "1 vessel".to_owned(),
            n => format!("{n} vessels"),
        }
    );
    Some(FleetMap {
        view_box: format!("{x0:.1} {y0:.1} {width:.1} {height:.1}"),
        mark: format!("{:.1}", width.max(height) / 150.0),
        land: frame.land(),
        listed: vessels.len().min(LISTED),
        vessels,
        title,
    })
}
