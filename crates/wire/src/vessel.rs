//! The `vessel` resource: a vessel carriers named or an AIS feed heard, its latest
//! position and, when asked (`show_positions`), its track, as the reference writes them.

use serde::Serialize;
use tidemark_domain::Reference;
use tidemark_domain::vessel::{HeardVessel, Position};
use utoipa::ToSchema;

use crate::reference::{VesselResource, link};

/// A vessel's attributes.
#[derive(Debug, Serialize, ToSchema)]
pub struct VesselAttributes {
    /// Its name (a carrier's, else its AIS static data's; null when neither named it).
    pub name: Option<String>,
    /// IMO number.
    pub imo: String,
    /// MMSI, from its AIS static data (not heard: null).
    pub mmsi: Option<String>,
    /// Latest latitude heard on an AIS feed (none heard: null).
    pub latitude: Option<f64>,
    /// Latest longitude heard on an AIS feed (none heard: null).
    pub longitude: Option<f64>,
    /// Speed over ground in knots at the latest position (not sent: null).
    pub nautical_speed_knots: Option<f64>,
    /// True heading in degrees at the latest position, else its course over ground (not
    /// sent: null).
    pub navigational_heading_degrees: Option<f64>,
    /// When the latest position was heard (none heard: null).
    #[schema(format = DateTime)]
    pub position_timestamp: Option<String>,
    /// Its track between `show_positions[from_timestamp]` and `[to_timestamp]`, oldest
    /// first: present only when `show_positions` is asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub positions: Option<Vec<VesselPosition>>,
}

/// One point of a vessel's track.
#[derive(Debug, Serialize, ToSchema)]
pub struct VesselPosition {
    /// Latitude, degrees.
    pub latitude: f64,
    /// Longitude, degrees.
    pub longitude: f64,
    /// Heading (else course over ground), degrees; null when not sent.
    pub heading: Option<f64>,
    /// When it was heard, or for an estimate, when the vessel is expected there.
    #[schema(format = DateTime)]
    pub timestamp: String,
    /// Whether the position is Tidemark's estimate rather than heard.
    pub estimated: bool,
}

impl VesselPosition {
    /// A point heard (`estimated: false`) or estimated.
    #[must_use]
    pub fn of(position: &Position, estimated: bool) -> Self {
        Self {
            latitude: position.latitude,
            longitude: position.longitude,
            heading: heading(position),
            timestamp: position.at.to_string(),
            estimated,
        }
    }
}

fn heading(position: &Position) -> Option<f64> {
    position.heading_degrees.or(position.course_degrees)
}

/// A vessel record as a resource, with what the feeds heard of it and, when asked, its
/// track.
#[must_use]
pub fn vessel(
    record: &Reference,
    heard: Option<&HeardVessel>,
    positions: Option<Vec<VesselPosition>>,
) -> VesselResource {
    let latest = heard.and_then(|heard| heard.position.as_ref());
    VesselResource {
        id: record.id.to_string(),
        type_: "vessel",
        attributes: VesselAttributes {
            name: record
                .name
                .clone()
                .or_else(|| heard.and_then(|heard| heard.name.clone())),
            imo: record.code.clone(),
            mmsi: heard.map(|heard| heard.mmsi.to_string()),
            latitude: latest.map(|position| position.latitude),
            longitude: latest.map(|position| position.longitude),
            nautical_speed_knots: latest.and_then(|position| position.speed_knots),
            navigational_heading_degrees: latest.and_then(heading),
            position_timestamp: latest.map(|position| position.at.to_string()),
            positions,
        },
        relationships: None,
        links: link("vessel", record),
    }
}
