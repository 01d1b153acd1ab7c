//! `/v2/ports/{id}`, `/v2/terminals/{id}`, `/v2/vessels/{id}`: places and vessels learned
//! from carrier data (api.md §4). Ports are found by id or UN/LOCODE, vessels by id or IMO
//! number. The resources are `tidemark_wire::reference`'s.

use axum::Router;
use axum::extract::State;
use axum::routing::get;
use tidemark_domain::{Reference, ReferenceKind};
pub use tidemark_wire::reference::*;

use crate::auth::Caller;
use crate::document::{Document, JsonApi};
use crate::extract::{PathId, QueryParams};
use crate::{ApiError, AppState};

/// The routes of the reference data.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/v2/ports/{id}", get(show_port))
        .route("/v2/terminals/{id}", get(show_terminal))
        .route("/v2/vessels/{id}", get(show_vessel))
}

pub(crate) async fn find(
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
    let link = data.links.self_.clone();
    Ok(JsonApi::ok(Document::new(data, link)))
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
    let link = data.links.self_.clone();
    Ok(JsonApi::ok(Document::new(data, link)))
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
    let link = data.links.self_.clone();
    Ok(JsonApi::ok(Document::new(data, link)))
}
