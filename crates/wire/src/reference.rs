//! Ports, terminals and vessels learned from carrier data (api.md §4) as resources. What
//! carriers did not say (coordinates, time zones, addresses) is null.

use serde::Serialize;
use tidemark_domain::Reference;
use utoipa::ToSchema;

use crate::document::{ResourceIdentifier, SelfLink, ToMany, ToOne};

/// A port's attributes.
#[derive(Debug, Serialize, ToSchema)]
pub struct PortAttributes {
    /// Its name (the UN/LOCODE when no carrier named it).
    pub name: String,
    /// UN/LOCODE.
    pub code: String,
    /// ISO 3166 country code (the first two letters of the UN/LOCODE).
    pub country_code: String,
    /// City (not known: null).
    pub city: Option<String>,
    /// State or province (not known: null).
    pub state_abbr: Option<String>,
    /// IANA time zone (not known: null).
    pub time_zone: Option<String>,
    /// Latitude (not known: null).
    pub latitude: Option<String>,
    /// Longitude (not known: null).
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
    /// Its name (its code when no carrier named it).
    pub name: String,
    /// A short name (not known: null).
    pub nickname: Option<String>,
    /// The SMDG or BIC facility code carriers use.
    pub smdg_code: String,
    /// CBP FIRMS code (not known: null).
    pub firms_code: Option<String>,
    /// BIC facility code (carriers send one code, kept in `smdg_code`: null).
    pub bic_facility_code: Option<String>,
    /// Street address (not known: null).
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
}

/// A vessel's attributes.
#[derive(Debug, Serialize, ToSchema)]
pub struct VesselAttributes {
    /// Its name (null when no carrier named it).
    pub name: Option<String>,
    /// IMO number.
    pub imo: String,
    /// MMSI (not known: null).
    pub mmsi: Option<String>,
    /// Last known latitude (no position source: null).
    pub latitude: Option<f64>,
    /// Last known longitude (no position source: null).
    pub longitude: Option<f64>,
    /// Speed over ground in knots (no position source: null).
    pub nautical_speed_knots: Option<f64>,
    /// Heading in degrees (no position source: null).
    pub navigational_heading_degrees: Option<f64>,
    /// When the position was taken (no position source: null).
    #[schema(format = DateTime)]
    pub position_timestamp: Option<String>,
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
    VesselResource,
    Vessel,
    "vessel",
    VesselAttributes,
    NoRelationships
);

fn link(kind: &str, record: &Reference) -> SelfLink {
    SelfLink {
        self_: format!("/v2/{kind}s/{}", record.id),
    }
}

/// A port record as a resource, with the terminals known at it.
#[must_use]
pub fn port(record: &Reference, terminals: &[Reference]) -> PortResource {
    PortResource {
        id: record.id.to_string(),
        type_: "port",
        attributes: PortAttributes {
            name: record.name.clone().unwrap_or_else(|| record.code.clone()),
            code: record.code.clone(),
            country_code: record.code.chars().take(2).collect(),
            city: None,
            state_abbr: None,
            time_zone: None,
            latitude: None,
            longitude: None,
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

/// A terminal record as a resource.
#[must_use]
pub fn terminal(record: &Reference) -> TerminalResource {
    TerminalResource {
        id: record.id.to_string(),
        type_: "terminal",
        attributes: TerminalAttributes {
            name: record.name.clone().unwrap_or_else(|| record.code.clone()),
            nickname: None,
            smdg_code: record.code.clone(),
            firms_code: None,
            bic_facility_code: None,
            street: None,
            city: None,
            state: None,
            state_abbr: None,
            zip: None,
            country: None,
            facility_type: None,
            provided_data: None,
        },
        relationships: Some(TerminalRelationships {
            port: ToOne::port(record.port_locode.as_deref()),
        }),
        links: link("terminal", record),
    }
}

/// A vessel record as a resource.
#[must_use]
pub fn vessel(record: &Reference) -> VesselResource {
    VesselResource {
        id: record.id.to_string(),
        type_: "vessel",
        attributes: VesselAttributes {
            name: record.name.clone(),
            imo: record.code.clone(),
            mmsi: None,
            latitude: None,
            longitude: None,
            nautical_speed_knots: None,
            navigational_heading_degrees: None,
            position_timestamp: None,
        },
        relationships: None,
        links: link("vessel", record),
    }
}
