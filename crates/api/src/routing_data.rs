//! The reference API's routing data (compat-api.md §3.2, §3.9): a container's map
//! (`/v2/containers/{id}/map_geojson`) and a vessel's future positions
//! (`/v2/vessels/{id}/future_positions`, `…_with_coordinates`). The reference sells them
//! separately and answers 403 to an account without them; Tidemark has no routing data,
//! so it answers the same 403 for a container or vessel that exists (404 otherwise), and a
//! client that handles the reference's refusal handles Tidemark's. A 404 here would tell
//! the client the container or vessel is gone.

use axum::Router;
use axum::routing::get;
use tidemark_domain::ReferenceKind;

use crate::auth::Scope;
use crate::error::ErrorCode;
use crate::extract::{PathId, QueryParams};
use crate::found::Record;
use crate::{ApiError, AppState};

/// The routes of the routing data.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/v2/containers/{id}/map_geojson", get(container_map))
        .route("/v2/vessels/{id}/future_positions", get(future_positions))
        .route(
            "/v2/vessels/{id}/future_positions_with_coordinates",
            get(future_positions_with_coordinates),
        )
}

/// 403 `routing_data_unavailable`.
fn unavailable() -> ApiError {
    ErrorCode::RoutingDataUnavailable
        .error("Tidemark has no routing data (vessel positions, routes, maps)")
}

/// A container's route as GeoJSON, in the reference API: not offered.
#[utoipa::path(get, path = "/v2/containers/{id}/map_geojson", operation_id = "getContainerMap", tag = "Containers",
    params(Record<tidemark_domain::Container>),
)]
pub async fn container_map(Record(_): Record<tidemark_domain::Container>) -> Result<(), ApiError> {
    Err(unavailable())
}

/// A vessel's estimated positions, in the reference API: not offered.
#[utoipa::path(get, path = "/v2/vessels/{id}/future_positions", operation_id = "getVesselFuturePositions", tag = "Reference data",
    params(("id" = String, Path, description = "The vessel's id, or its IMO number")),
)]
pub async fn future_positions(
    scope: Scope,
    PathId(key): PathId,
    query: QueryParams,
) -> Result<(), ApiError> {
    query.finish()?;
    crate::reference_data::find(&scope, ReferenceKind::Vessel, &key, "vessel").await?;
    Err(unavailable())
}

/// A vessel's estimated positions from a point, in the reference API: not offered.
#[utoipa::path(get, path = "/v2/vessels/{id}/future_positions_with_coordinates", operation_id = "getVesselFuturePositionsWithCoordinates", tag = "Reference data",
    params(("id" = String, Path, description = "The vessel's id, or its IMO number")),
)]
pub async fn future_positions_with_coordinates(
    scope: Scope,
    key: PathId,
    query: QueryParams,
) -> Result<(), ApiError> {
    future_positions(scope, key, query).await
}
