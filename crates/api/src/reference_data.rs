//! `/v2/ports/{id}`, `/v2/terminals/{id}`, `/v2/metro_areas/{id}`: places (api.md §4;
//! vessels are `vessels.rs`'s). Ports and metro areas are found by id or UN/LOCODE. Ports
//! carriers named and every port and inland place of the bundled reference data answer;
//! terminals answer once carrier data named them. The resources are
//! `tidemark_wire::reference`'s.

use axum::Router;
use axum::routing::get;
use tidemark_domain::gazetteer::{Gazetteer, Locality};
use tidemark_domain::{Reference, ReferenceKind};
pub use tidemark_wire::reference::*;

use crate::auth::{Caller, Scope};
use crate::document::{Document, JsonApi, One};
use crate::extract::{PathId, QueryParams};
use crate::{ApiError, AppState};

/// The routes of the reference data.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/v2/ports/{id}", get(show_port))
        .route("/v2/terminals/{id}", get(show_terminal))
        .route("/v2/metro_areas/{id}", get(show_metro_area))
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

/// The reference data's locality `key` names: its id, or its UN/LOCODE in any case.
pub(crate) fn locality(
    key: &str,
    by_code: impl Fn(&str) -> Option<Locality>,
    by_id: impl Fn(uuid::Uuid) -> Option<Locality>,
) -> Option<Locality> {
    match uuid::Uuid::parse_str(key) {
        Ok(id) => by_id(id),
        Err(_) => by_code(key),
    }
}

/// A port, by id or UN/LOCODE: one carrier data named (with the terminals they named at
/// it), else one of the reference data.
#[utoipa::path(get, path = "/v2/ports/{id}", operation_id = "getPort", tag = "Reference data",
    params(("id" = String, Path, description = "The port's id, or its UN/LOCODE")),
    responses((status = 200, description = "The port.", body = Document<PortResource>)),
)]
pub async fn show_port(scope: Scope, PathId(key): PathId, query: QueryParams) -> One<PortResource> {
    query.finish()?;
    let data = match scope.store.reference(ReferenceKind::Port, &key).await? {
        Some(record) => {
            let terminals = scope
                .store
                .terminals_at(std::slice::from_ref(&record.code))
                .await?;
            port(&record, &terminals)
        }
        None => {
            let places = Gazetteer::bundled();
            let found = locality(&key, |c| places.port(c), |id| places.port_by_id(id))
                .ok_or_else(|| ApiError::not_found("no port is known by this id"))?;
            known_port(&found)
        }
    };
    let link = data.links.self_.clone();
    Ok(JsonApi::ok(Document::new(data, link)))
}

/// An inland place of the reference data (a rail ramp, a city), by id or UN/LOCODE.
#[utoipa::path(get, path = "/v2/metro_areas/{id}", operation_id = "getMetroArea", tag = "Reference data",
    params(("id" = String, Path, description = "The metro area's id, or its UN/LOCODE")),
    responses((status = 200, description = "The metro area.", body = Document<MetroAreaResource>)),
)]
pub async fn show_metro_area(
    _caller: Caller,
    PathId(key): PathId,
    query: QueryParams,
) -> One<MetroAreaResource> {
    query.finish()?;
    let places = Gazetteer::bundled();
    let found = locality(
        &key,
        |c| places.metro_area(c),
        |id| places.metro_area_by_id(id),
    )
    .ok_or_else(|| ApiError::not_found("no metro area is known by this id"))?;
    let data = metro_area(&found);
    let link = data.links.self_.clone();
    Ok(JsonApi::ok(Document::new(data, link)))
}

/// A terminal named in carrier data, by id.
#[utoipa::path(get, path = "/v2/terminals/{id}", operation_id = "getTerminal", tag = "Reference data",
    params(("id" = String, Path, description = "The terminal's id")),
    responses((status = 200, description = "The terminal.", body = Document<TerminalResource>)),
)]
pub async fn show_terminal(
    scope: Scope,
    PathId(key): PathId,
    query: QueryParams,
) -> One<TerminalResource> {
    query.finish()?;
    let record = find(&scope, ReferenceKind::Terminal, &key, "terminal").await?;
    let data = terminal(&record);
    let link = data.links.self_.clone();
    Ok(JsonApi::ok(Document::new(data, link)))
}
