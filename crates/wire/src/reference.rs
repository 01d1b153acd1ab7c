//! Ports, terminals, metro areas and vessels (api.md §4) as resources. Ports, terminals
//! and inland places carriers name are matched to the bundled reference places
//! (`tidemark_domain::gazetteer`): a known one shows its name, coordinates, time zone and
//! address as the public data sets give them; one they do not know keeps what the carrier
//! reported, says so (`in_reference_data: false`), and leaves the rest null.

use serde::Serialize;
use tidemark_domain::Reference;
use tidemark_domain::gazetteer::{Facility, Gazetteer, Locality};
use tidemark_domain::shipment::metro_area_id;
use utoipa::ToSchema;

use crate::document::{ResourceIdentifier, SelfLink, ToMany, ToOne};
pub use crate::vessel::{VesselAttributes, VesselPosition, vessel};

/// A port's attributes.
#[derive(Debug, Serialize, ToSchema)]
pub struct PortAttributes {
    /// Its name: UN/LOCODE's; for a port the reference data does not know, as the carrier
    /// named it (its UN/LOCODE when none did).
    pub name: String,
    /// UN/LOCODE.
    pub code: String,
    /// ISO 3166 country code (the first two letters of the UN/LOCODE).
    pub country_code: String,
    /// City (the port's own name; not known: null).
    pub city: Option<String>,
    /// UN/LOCODE's subdivision: a US state's or a province's code (none or not known: null).
    pub state_abbr: Option<String>,
    /// IANA time zone (not known: null).
    pub time_zone: Option<String>,
    /// Latitude in decimal degrees, as a string as the reference's production sends it
    /// (not known: null).
    pub latitude: Option<String>,
    /// Longitude in decimal degrees, as a string (not known: null).
    pub longitude: Option<String>,
    /// Whether Tidemark's reference data knows the port (beyond the reference): false for
    /// one only a carrier named, whose other attributes are then what it reported or null.
    pub in_reference_data: bool,
}

/// A metro area's attributes: an inland place (a rail ramp, a city) a shipment may end at.
#[derive(Debug, Serialize, ToSchema)]
pub struct MetroAreaAttributes {
    /// Its name (UN/LOCODE's).
    pub name: String,
    /// UN/LOCODE.
    pub code: String,
    /// UN/LOCODE's subdivision (none: null).
    pub state_abbr: Option<String>,
    /// ISO 3166 country code.
    pub country_code: String,
    /// IANA time zone.
    pub time_zone: String,
    /// Latitude in decimal degrees.
    pub latitude: Option<String>,
    /// Longitude in decimal degrees.
    pub longitude: Option<String>,
}

/// A port's relationships.
#[derive(Debug, Serialize, ToSchema)]
pub struct PortRelationships {
    /// The terminals carriers named at this port.
    pub terminals: ToMany,
}

/// A terminal's attributes.
#[derive(Debug, Serialize, ToSchema)]
pub struct TerminalAttributes {
    /// Its name, as the SMDG's terminal list (or the reference's US terminal list) gives it;
    /// its code when the reference data does not know it.
    pub name: String,
    /// A short name (not known: null).
    pub nickname: Option<String>,
    /// The SMDG code (for a terminal the reference data does not know, the code carriers
    /// sent).
    pub smdg_code: String,
    /// CBP FIRMS code (not known: null).
    pub firms_code: Option<String>,
    /// BIC facility code (carriers send one code, kept in `smdg_code`: null).
    pub bic_facility_code: Option<String>,
    /// Its address as one line, as the SMDG's list writes it (not known: null).
    pub street: Option<String>,
    /// City (not known: null).
    pub city: Option<String>,
    /// State or province (not known: null).
    pub state: Option<String>,
    /// State abbreviation (not known: null).
    pub state_abbr: Option<String>,
    /// Postal code (not known: null).
    pub zip: Option<String>,
    /// Country (not known: null).
    pub country: Option<String>,
    /// Kind of facility (not known: null).
    pub facility_type: Option<String>,
    /// Which terminal data this terminal provides (no terminal source yet: null).
    #[schema(value_type = Option<Object>)]
    pub provided_data: Option<serde_json::Value>,
    /// IANA time zone (not known: null; beyond the reference).
    pub time_zone: Option<String>,
    /// Latitude in decimal degrees (not known: null; beyond the reference).
    pub latitude: Option<String>,
    /// Longitude in decimal degrees (not known: null; beyond the reference).
    pub longitude: Option<String>,
    /// The company operating it (not known: null; beyond the reference).
    pub company: Option<String>,
    /// Whether Tidemark's reference data knows the terminal (beyond the reference).
    pub in_reference_data: bool,
}

/// A terminal's relationships.
#[derive(Debug, Serialize, ToSchema)]
pub struct TerminalRelationships {
    /// Its port.
    pub port: ToOne,
}

macro_rules! reference_resource {
    ($name:ident, $schema:ident, $type_:literal, $attributes:ty, $relationships:ty) => {
        #[doc = concat!("A `", $type_, "` resource.")]
        #[derive(Debug, Serialize, ToSchema)]
        #[schema(as = $schema)]
        pub struct $name {
            /// Its id.
            #[schema(format = Uuid)]
            pub id: String,
            #[doc = concat!("Always `", $type_, "`.")]
            #[serde(rename = "type")]
            #[schema(pattern = $type_)]
            pub type_: &'static str,
            /// Its attributes.
            pub attributes: $attributes,
            /// Its relationships.
            #[serde(skip_serializing_if = "Option::is_none")]
            pub relationships: Option<$relationships>,
            /// Its own link.
            pub links: SelfLink,
        }
    };
}

/// No relationships.
#[derive(Debug, Serialize, ToSchema)]
pub struct NoRelationships {}

reference_resource!(
    PortResource,
    Port,
    "port",
    PortAttributes,
    PortRelationships
);
reference_resource!(
    TerminalResource,
    Terminal,
    "terminal",
    TerminalAttributes,
    TerminalRelationships
);
reference_resource!(
    MetroAreaResource,
    MetroArea,
    "metro_area",
    MetroAreaAttributes,
    NoRelationships
);
reference_resource!(
    VesselResource,
    Vessel,
    "vessel",
    VesselAttributes,
    NoRelationships
);

pub(crate) fn link(kind: &str, record: &Reference) -> SelfLink {
    SelfLink {
        self_: format!("/v2/{kind}s/{}", record.id),
    }
}

/// Degrees as the wire writes them.
fn degrees(value: f64) -> String {
    format!("{value:.5}")
}

/// Empty text as null.
fn text(value: &str) -> Option<String> {
    (!value.is_empty()).then(|| value.to_owned())
}

/// A port record as a resource, with the terminals known at it, as the reference data
/// knows it (else as the carrier reported it).
#[must_use]
pub fn port(record: &Reference, terminals: &[Reference]) -> PortResource {
    let known = Gazetteer::bundled().place(&record.code);
    PortResource {
        id: record.id.to_string(),
        type_: "port",
        attributes: PortAttributes {
            name: known.map_or_else(
                || record.name.clone().unwrap_or_else(|| record.code.clone()),
                |place| place.name.to_owned(),
            ),
            code: record.code.clone(),
            country_code: record.code.chars().take(2).collect(),
            city: known.map(|place| place.name.to_owned()),
            state_abbr: known.and_then(|place| text(place.subdivision)),
            time_zone: known.map(|place| place.time_zone.to_owned()),
            latitude: known.map(|place| degrees(place.latitude)),
            longitude: known.map(|place| degrees(place.longitude)),
            in_reference_data: known.is_some(),
        },
        relationships: Some(PortRelationships {
            terminals: ToMany {
                data: terminals
                    .iter()
                    .filter(|t| t.port_locode.as_deref() == Some(record.code.as_str()))
                    .map(|t| ResourceIdentifier::new("terminal", t.id))
                    .collect(),
            },
        }),
        links: link("port", record),
    }
}

/// A port only the reference data knows (no carrier has named it yet).
#[must_use]
pub fn known_port(place: &Locality) -> PortResource {
    let record = Reference::port(&tidemark_domain::Place {
        locode: place.locode.to_owned(),
        name: Some(place.name.to_owned()),
        facility: None,
    });
    port(&record, &[])
}

/// An inland place as a resource.
#[must_use]
pub fn metro_area(place: &Locality) -> MetroAreaResource {
    let id = metro_area_id(place.locode);
    MetroAreaResource {
        id: id.to_string(),
        type_: "metro_area",
        attributes: MetroAreaAttributes {
            name: place.name.to_owned(),
            code: place.locode.to_owned(),
            state_abbr: text(place.subdivision),
            country_code: place.country.to_owned(),
            time_zone: place.time_zone.to_owned(),
            latitude: Some(degrees(place.latitude)),
            longitude: Some(degrees(place.longitude)),
        },
        relationships: None,
        links: SelfLink {
            self_: format!("/v2/metro_areas/{id}"),
        },
    }
}

/// A terminal record as a resource, as the reference data knows it (matched by its port
/// and code), else as the carrier named it.
#[must_use]
pub fn terminal(record: &Reference) -> TerminalResource {
    let known: Option<&Facility> =
        Gazetteer::bundled().terminal(record.port_locode.as_deref(), &record.code);
    let port = known.map_or(record.port_locode.as_deref(), |t| Some(t.port));
    TerminalResource {
        id: record.id.to_string(),
        type_: "terminal",
        attributes: TerminalAttributes {
            name: known.map_or_else(
                || record.name.clone().unwrap_or_else(|| record.code.clone()),
                |t| t.name.to_owned(),
            ),
            nickname: known.and_then(|t| text(t.nickname)),
            smdg_code: known
                .and_then(|t| text(t.smdg_code))
                .unwrap_or_else(|| record.code.clone()),
            firms_code: known.and_then(|t| text(t.firms_code)),
            bic_facility_code: None,
            street: known.and_then(|t| text(t.address)),
            city: known.and_then(|t| text(t.city)),
            state: None,
            state_abbr: known.and_then(|t| text(t.state_abbr)),
            zip: None,
            country: port.map(|code| code.chars().take(2).collect()),
            facility_type: None,
            provided_data: None,
            time_zone: known.and_then(|t| text(t.time_zone)),
            latitude: known.and_then(|t| t.latitude).map(degrees),
            longitude: known.and_then(|t| t.longitude).map(degrees),
            company: known.and_then(|t| text(t.company)),
            in_reference_data: known.is_some(),
        },
        relationships: Some(TerminalRelationships {
            port: ToOne::port(port),
        }),
        links: link("terminal", record),
    }
}
