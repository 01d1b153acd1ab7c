//! `GET /v2/vessels/{id or IMO}`: a vessel carriers named or an AIS feed heard, with its
//! latest position, and with `show_positions` its track (compat-api.md §3.9). The
//! positions are what the feeds of `[ais] sources` heard, never invented: a vessel no
//! feed heard answers with null position attributes, as the reference does for a vessel
//! it has no position of.

use std::time::Duration;

use axum::Router;
use axum::routing::get;
use tidemark_domain::ReferenceKind;
use tidemark_wire::reference::{VesselPosition, VesselResource, vessel};

use crate::auth::Scope;
use crate::document::{Document, JsonApi, One};
use crate::error::ErrorCode;
use crate::extract::{PathId, QueryParams};
use crate::params::{take_flag, take_time};
use crate::{ApiError, AppState};

/// The most track points one answer carries (a week at the default thinning is about a
/// thousand).
pub const POSITIONS_MAX: u32 = 5_000;

/// How far back `show_positions` reaches when no `from_timestamp` is given.
const DEFAULT_WINDOW: Duration = Duration::from_secs(7 * 86_400);

pub mod future;

pub use future::{future_positions, future_positions_with_coordinates};

/// The routes of vessels.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/v2/vessels/{id}", get(show_vessel))
        .route("/v2/vessels/{id}/future_positions", get(future_positions))
        .route(
            "/v2/vessels/{id}/future_positions_with_coordinates",
            get(future_positions_with_coordinates),
        )
}

/// A vessel, by id or IMO number, with its latest position and, when asked, its track.
#[utoipa::path(get, path = "/v2/vessels/{id}", operation_id = "getVessel", tag = "Reference data",
    params(
        ("id" = String, Path, description = "The vessel's id, or its IMO number"),
        ("show_positions" = Option<bool>, Query, description = "Include the vessel's track (`positions`), from 7 days ago to now unless the bounds below are given."),
        ("show_positions[from_timestamp]" = Option<String>, Query, format = DateTime, description = "The track from this time (RFC 3339; 7 days before `to_timestamp` by default). Giving it asks for `positions`."),
        ("show_positions[to_timestamp]" = Option<String>, Query, format = DateTime, description = "The track up to this time (RFC 3339; now by default). Giving it asks for `positions`."),
    ),
    responses((status = 200, description = "The vessel.", body = Document<VesselResource>)),
)]
pub async fn show_vessel(
    scope: Scope,
    PathId(key): PathId,
    mut query: QueryParams,
) -> One<VesselResource> {
    let code = ErrorCode::InvalidParameter;
    let asked = take_flag(&mut query, "show_positions")?;
    let from = take_time(&mut query, "show_positions[from_timestamp]", code)?;
    let to = take_time(&mut query, "show_positions[to_timestamp]", code)?;
    query.finish()?;
    let record = crate::reference_data::find(&scope, ReferenceKind::Vessel, &key, "vessel").await?;
    let heard = scope.store.heard_vessel(&record.code).await?;
    let wants_track = asked.unwrap_or(false) || from.is_some() || to.is_some();
    let positions = if wants_track {
        let to = to.unwrap_or_else(|| scope.clock.now());
        let from = from.unwrap_or(to - DEFAULT_WINDOW);
        if from > to {
            return Err(ApiError::bad_parameter(
                code,
                "show_positions[from_timestamp]",
                "show_positions[from_timestamp] is after show_positions[to_timestamp]",
            ));
        }
        let track = match &heard {
            Some(heard) => {
                scope
                    .store
                    .track(heard.mmsi, (from, to), POSITIONS_MAX)
                    .await?
            }
            None => Vec::new(),
        };
        Some(
            track
                .iter()
                .map(|position| VesselPosition::of(position, false))
                .collect(),
        )
    } else {
        None
    };
    let data = vessel(&record, heard.as_ref(), positions);
    let link = data.links.self_.clone();
    Ok(JsonApi::ok(Document::new(data, link)))
}
