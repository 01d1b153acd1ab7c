//! `/v2/ports/{id}`, `/v2/terminals/{id}`, `/v2/vessels/{id}`: places and vessels learned
//! from carrier data (api.md §4). Ports are found by id or UN/LOCODE, vessels by id or IMO
//! number. What carriers did not say (coordinates, time zones, addresses) is null.

use axum::Router;
use axum::extract::State;
use axum::routing::get;
use serde::Serialize;
use tidemark_domain::{Reference, ReferenceKind};
use utoipa::ToSchema;

use crate::auth::Caller;
use crate::document::{Document, JsonApi, ResourceIdentifier, SelfLink, ToMany, ToOne};
use crate::extract::{PathId, QueryParams};
use crate::{ApiError, AppState};

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
            port: ToOne::of(
                "port",
                record
                    .port_locode
                    .as_deref()
                    .map(|locode| ReferenceKind::Port.id(locode)),
            ),
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

/// The routes of the reference data.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/v2/ports/{id}", get(show_port))
        .route("/v2/terminals/{id}", get(show_terminal))
        .route("/v2/vessels/{id}", get(show_vessel))
}

async fn find(
    state: &AppState,
    kind: ReferenceKind,
    key: &str,
    what: &str,
) -> Result<Reference, ApiError> {
    state
        .store
        .reference(kind, key)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no {what} is known by this id")))
}

/// A port named in carrier data, by id or UN/LOCODE.
#[utoipa::path(
    get,
    path = "/v2/ports/{id}",
    operation_id = "getPort",
    tag = "Reference data",
    params(("id" = String, Path, description = "The port's id, or its UN/LOCODE")),
    responses((status = 200, description = "The port.", body = Document<PortResource>, content_type = "application/vnd.api+json")),
)]
pub async fn show_port(
    State(state): State<AppState>,
    _caller: Caller,
    PathId(key): PathId,
    query: QueryParams,
) -> Result<JsonApi<Document<PortResource>>, ApiError> {
    query.finish()?;
    let record = find(&state, ReferenceKind::Port, &key, "port").await?;
    let terminals = state
        .store
        .terminals_at(std::slice::from_ref(&record.code))
        .await?;
    let data = port(&record, &terminals);
    let links = data.links.clone();
    Ok(JsonApi::ok(Document {
        data,
        included: None,
        links,
    }))
}

/// A terminal named in carrier data, by id.
#[utoipa::path(
    get,
    path = "/v2/terminals/{id}",
    operation_id = "getTerminal",
    tag = "Reference data",
    params(("id" = String, Path, description = "The terminal's id")),
    responses((status = 200, description = "The terminal.", body = Document<TerminalResource>, content_type = "application/vnd.api+json")),
)]
pub async fn show_terminal(
    State(state): State<AppState>,
    _caller: Caller,
    PathId(key): PathId,
    query: QueryParams,
) -> Result<JsonApi<Document<TerminalResource>>, ApiError> {
    query.finish()?;
    let record = find(&state, ReferenceKind::Terminal, &key, "terminal").await?;
    let data = terminal(&record);
    let links = data.links.clone();
    Ok(JsonApi::ok(Document {
        data,
        included: None,
        links,
    }))
}

/// A vessel named in carrier data, by id or IMO number.
#[utoipa::path(
    get,
    path = "/v2/vessels/{id}",
    operation_id = "getVessel",
    tag = "Reference data",
    params(("id" = String, Path, description = "The vessel's id, or its IMO number")),
    responses((status = 200, description = "The vessel.", body = Document<VesselResource>, content_type = "application/vnd.api+json")),
)]
pub async fn show_vessel(
    State(state): State<AppState>,
    _caller: Caller,
    PathId(key): PathId,
    query: QueryParams,
) -> Result<JsonApi<Document<VesselResource>>, ApiError> {
    query.finish()?;
    let record = find(&state, ReferenceKind::Vessel, &key, "vessel").await?;
    let data = vessel(&record);
    let links = data.links.clone();
    Ok(JsonApi::ok(Document {
        data,
        included: None,
        links,
    }))
}
