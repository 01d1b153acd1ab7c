//! `GET /healthz` (the process is up) and `GET /readyz` (the database answers, and the
//! process's workers' loops still turn).

use axum::Json;
use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::get;
use serde::Serialize;
use utoipa::ToSchema;

use crate::{ApiError, AppState};

/// A health answer.
#[derive(Debug, Serialize, ToSchema)]
pub struct Health {
    /// `ok` or `ready`.
    pub status: &'static str,
}

/// What else a process's readiness depends on: the workers it runs.
pub trait Workers: Send + Sync + std::fmt::Debug {
    /// Each worker whose loop has stalled, and for how long it has been silent.
    fn stalled(&self) -> Vec<(&'static str, std::time::Duration)>;
}

/// The routes of this module.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/healthz", get(healthz))
        .route("/readyz", get(readyz))
}

/// Liveness: answers while the process serves requests.
#[utoipa::path(get, path = "/healthz", tag = "Operations", security(()),
    responses((status = 200, description = "The process is up.", body = Health)))]
pub async fn healthz() -> Json<Health> {
    Json(Health { status: "ok" })
}

/// Readiness: answers 200 when the database is reachable and every worker of the process
/// turns, 503 otherwise.
#[utoipa::path(get, path = "/readyz", tag = "Operations", security(()),
    responses(
        (status = 200, description = "The database answers, and the process's workers turn.", body = Health),
        (status = 503, description = "The database does not answer, or a worker's loop has stalled.", body = crate::error::ErrorDocument, content_type = "application/vnd.api+json"),
    ))]
pub async fn readyz(State(state): State<AppState>) -> Result<Json<Health>, ApiError> {
    let unavailable = |detail: String| {
        ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "unavailable", detail, None)
    };
    if let Err(error) = state.store.ping().await {
        tracing::warn!(%error, "readiness check failed");
        return Err(unavailable("the database does not answer".to_owned()));
    }
    let stalled = state
        .workers
        .as_ref()
        .map(|workers| workers.stalled())
        .unwrap_or_default();
    if let Some((worker, silent)) = stalled.first() {
        tracing::warn!(
            worker,
            silent_s = silent.as_secs(),
            "readiness: a worker's loop has stalled"
        );
        return Err(unavailable(format!(
            "the {worker}'s loop has not turned for {} s",
            silent.as_secs()
        )));
    }
    Ok(Json(Health { status: "ready" }))
}
