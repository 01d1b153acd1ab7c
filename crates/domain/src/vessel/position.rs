//! What one AIS message says of a vessel: where it is, or who it is.

use crate::Timestamp;
use crate::codes::check_imo;

use super::Mmsi;

/// A vessel's position as one message reported it. AIS's "not available" values (91°,
/// 181°, 102.3 knots, 360°, 511°) are read as absent, and a message without a position
/// is not a `Position` at all.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Position {
    /// Whose.
    pub mmsi: Mmsi,
    /// When it was heard (the feed's tag block, else the reader's clock).
    pub at: Timestamp,
    /// Latitude, degrees north.
    pub latitude: f64,
    /// Longitude, degrees east.
    pub longitude: f64,
    /// Speed over ground, knots.
    pub speed_knots: Option<f64>,
    /// Course over ground, degrees.
    pub course_degrees: Option<f64>,
    /// True heading, degrees.
    pub heading_degrees: Option<f64>,
}

impl Position {
    /// A position from a message's fields: `None` when the coordinates are missing or
    /// out of range; a speed, course or heading out of range is dropped.
    #[must_use]
    pub fn read(mmsi: Mmsi, at: Timestamp, fields: [Option<f64>; 5]) -> Option<Self> {
        let [latitude, longitude, speed, course, heading] = fields;
        let latitude = latitude.filter(|v| v.is_finite() && v.abs() <= 90.0)?;
        let longitude = longitude.filter(|v| v.is_finite() && v.abs() <= 180.0)?;
        Some(Self {
            mmsi,
            at,
            latitude,
            longitude,
            speed_knots: speed.filter(|v| v.is_finite() && (0.0..102.3).contains(v)),
            course_degrees: course.filter(|v| v.is_finite() && (0.0..360.0).contains(v)),
            heading_degrees: heading.filter(|v| v.is_finite() && (0.0..360.0).contains(v)),
        })
    }
}

/// Who a vessel is, as its static data (message 5, or 24 and 19 for class B) says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StaticData {
    /// Whose.
    pub mmsi: Mmsi,
    /// When it was heard.
    pub at: Timestamp,
    /// The IMO number, when given and valid (class B messages carry none).
    pub imo: Option<String>,
    /// The name, trimmed, when given.
    pub name: Option<String>,
}

impl StaticData {
    /// Static data from a message's fields: an IMO number that fails its check is
    /// dropped, a name of only padding is none.
    #[must_use]
    pub fn read(mmsi: Mmsi, at: Timestamp, imo: Option<u32>, name: Option<&str>) -> Self {
        let imo = imo
            .map(|number| format!("{number:07}"))
            .filter(|text| check_imo(text).is_ok());
        let name = name
            .map(|text| text.trim_matches(|c: char| c == '@' || c.is_whitespace()))
            .filter(|text| !text.is_empty())
            .map(str::to_owned);
        Self {
            mmsi,
            at,
            imo,
            name,
        }
    }
}

/// What one decoded message said.
#[derive(Debug, Clone, PartialEq)]
pub enum Heard {
    /// Where a vessel is.
    Position(Position),
    /// Who a vessel is.
    Static(StaticData),
}

/// A transponder as the feeds told of it: who it said it is, and where it last was.
#[derive(Debug, Clone, PartialEq)]
pub struct HeardVessel {
    /// Its identity.
    pub mmsi: Mmsi,
    /// The IMO number its static data gave.
    pub imo: Option<String>,
    /// The name its static data gave.
    pub name: Option<String>,
    /// Its latest position.
    pub position: Option<Position>,
}
