//! `GET /v2/vessels/{id}/future_positions` and `…/future_positions_with_coordinates`
//! (compat-api.md §3.9): where the vessel is expected along the sea route to a port, one
//! minute apart as the reference spaces them (wider on a voyage long enough to pass
//! [`ESTIMATES_MAX`]), at its recent speed (what it made good over the last day of its
//! track, else its latest reported speed, else a service speed of 14 knots), starting
//! from its latest position heard, or from the coordinates given. A vessel no feed heard
//! has no estimate: `positions` is empty, never invented.

use std::time::Duration;

use tidemark_domain::ReferenceKind;
use tidemark_domain::gazetteer::{Gazetteer, Locality};
use tidemark_domain::vessel::forecast::{self, Estimate, RECENT, SERVICE_SPEED_KNOTS};
use tidemark_wire::reference::{VesselPosition, VesselResource, vessel};

use crate::ApiError;
use crate::auth::Scope;
use crate::document::{Document, JsonApi, One};
use crate::error::ErrorCode;
use crate::extract::{PathId, QueryParams};

/// The most estimates one answer carries: a week at one a minute.
pub const ESTIMATES_MAX: usize = 10_080;

/// The reference's spacing of estimates.
const SPACING: Duration = Duration::from_secs(60);

/// The ports of the future positions in the OpenAPI document.
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code, reason = "read by the OpenAPI derive only")]
pub struct Ports {
    /// The port it is bound for: its id or UN/LOCODE.
    #[param(
        pattern = r"^([A-Za-z]{2}[A-Za-z0-9]{3}|[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12})$"
    )]
    port_id: String,
    /// The port it came from (id or UN/LOCODE), checked as the reference takes it.
    #[param(
        pattern = r"^([A-Za-z]{2}[A-Za-z0-9]{3}|[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12})$"
    )]
    previous_port_id: Option<String>,
}

/// Where to start, in the OpenAPI document.
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code, reason = "read by the OpenAPI derive only")]
pub struct Start {
    /// Degrees north.
    #[param(minimum = -90, maximum = 90)]
    latitude: f64,
    /// Degrees east.
    #[param(minimum = -180, maximum = 180)]
    longitude: f64,
}

/// The port `key` names (its id or UN/LOCODE), with its coordinates: 400 when the value
/// is neither, 404 when no port Tidemark can place has it.
fn port(query: &mut QueryParams, key: &str) -> Result<Option<Locality>, ApiError> {
    let Some(value) = query.take(key) else {
        return Ok(None);
    };
    let value = value.trim();
    if !port_shaped(value) {
        return Err(ApiError::bad_parameter(
            ErrorCode::InvalidParameter,
            key,
            format!("{key} is a port's id or UN/LOCODE"),
        ));
    }
    let places = Gazetteer::bundled();
    let found = crate::reference_data::locality(
        value,
        |code| places.port(code),
        |id| places.port_by_id(id),
    );
    found.map(Some).ok_or_else(|| {
        ApiError::not_found(format!("{key} names no port Tidemark knows the place of"))
    })
}

/// Whether `value` has the shape of a port's id or UN/LOCODE (the pattern of `Ports`).
fn port_shaped(value: &str) -> bool {
    let locode = value.len() == 5
        && value.bytes().take(2).all(|b| b.is_ascii_alphabetic())
        && value.bytes().all(|b| b.is_ascii_alphanumeric());
    locode || (value.len() == 36 && uuid::Uuid::try_parse(value).is_ok())
}

/// `port_id`, required, and `previous_port_id`, checked when given.
fn bound_for(query: &mut QueryParams) -> Result<Locality, ApiError> {
    let to = port(query, "port_id")?;
    port(query, "previous_port_id")?;
    required(to, "port_id", "the id or UN/LOCODE of a port")
}

fn required<T>(value: Option<T>, key: &str, what: &str) -> Result<T, ApiError> {
    value.ok_or_else(|| {
        ApiError::bad_parameter(
            ErrorCode::InvalidParameter,
            key,
            format!("{key} is required: {what}"),
        )
    })
}

/// A coordinate parameter within ±`limit` degrees.
fn degrees(query: &mut QueryParams, key: &str, limit: f64) -> Result<f64, ApiError> {
    let value = query
        .take(key)
        .and_then(|text| text.trim().parse::<f64>().ok())
        .filter(|value| value.is_finite() && value.abs() <= limit);
    required(value, key, &format!("degrees between -{limit} and {limit}"))
}

/// The vessel with `positions` estimated from `start` (a point and when), else from its
/// latest position, to `to`.
async fn answer(
    scope: &Scope,
    key: &str,
    to: &Locality,
    start: Option<(seaways::Point, tidemark_domain::Timestamp)>,
) -> One<VesselResource> {
    let record = crate::reference_data::find(scope, ReferenceKind::Vessel, key, "vessel").await?;
    let heard = scope.store.heard_vessel(&record.code).await?;
    let latest = heard.as_ref().and_then(|heard| heard.position);
    let start = start.or_else(|| latest.map(|latest| (forecast::point(&latest), latest.at)));
    let knots = match (&heard, latest) {
        (Some(heard), Some(latest)) => {
            let window = (latest.at - RECENT, latest.at);
            let track = scope.store.track(heard.mmsi, window, 1_000).await?;
            forecast::recent_speed(&latest, &track)
        }
        _ => None,
    }
    .unwrap_or(SERVICE_SPEED_KNOTS);
    let port = seaways::Point::new(to.latitude, to.longitude);
    let estimates: Vec<Estimate> = start
        .and_then(|start| forecast::to_port(start, port, knots, (SPACING, ESTIMATES_MAX)))
        .unwrap_or_default();
    let positions = estimates.iter().map(estimated).collect();
    let data = vessel(&record, heard.as_ref(), Some(positions));
    let link = data.links.self_.clone();
    Ok(JsonApi::ok(Document::new(data, link)))
}

fn estimated(estimate: &Estimate) -> VesselPosition {
    VesselPosition {
        latitude: estimate.point.lat,
        longitude: estimate.point.lon,
        heading: Some(estimate.heading),
        timestamp: estimate.at.to_string(),
        estimated: true,
    }
}

/// A vessel's estimated positions from its latest position to a port.
#[utoipa::path(get, path = "/v2/vessels/{id}/future_positions", operation_id = "getVesselFuturePositions", tag = "Reference data",
    params(("id" = String, Path, description = "The vessel's id, or its IMO number"), Ports),
    responses((status = 200, description = "The vessel, `positions` estimated one minute apart (empty when no position of it was heard).", body = Document<VesselResource>)),
)]
pub async fn future_positions(
    scope: Scope,
    PathId(key): PathId,
    mut query: QueryParams,
) -> One<VesselResource> {
    let to = bound_for(&mut query)?;
    query.finish()?;
    answer(&scope, &key, &to, None).await
}

/// A vessel's estimated positions from the coordinates given to a port.
#[utoipa::path(get, path = "/v2/vessels/{id}/future_positions_with_coordinates", operation_id = "getVesselFuturePositionsWithCoordinates", tag = "Reference data",
    params(("id" = String, Path, description = "The vessel's id, or its IMO number"), Ports, Start),
    responses((status = 200, description = "The vessel, `positions` estimated from the coordinates one minute apart from now.", body = Document<VesselResource>)),
)]
pub async fn future_positions_with_coordinates(
    scope: Scope,
    PathId(key): PathId,
    mut query: QueryParams,
) -> One<VesselResource> {
    let to = bound_for(&mut query)?;
    let latitude = degrees(&mut query, "latitude", 90.0)?;
    let longitude = degrees(&mut query, "longitude", 180.0)?;
    query.finish()?;
    let start = (seaways::Point::new(latitude, longitude), scope.clock.now());
    answer(&scope, &key, &to, Some(start)).await
}
