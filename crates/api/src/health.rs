//! `GET /healthz` (the process is up) and `GET /readyz` (the database answers).

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

/// Readiness: answers 200 when the database is reachable, 503 otherwise.
#[utoipa::path(get, path = "/readyz", tag = "Operations", security(()),
    responses(
        (status = 200, description = "The database answers.", body = Health),
        (status = 503, description = "The database does not answer.", body = crate::error::ErrorDocument, content_type = "application/vnd.api+json"),
    ))]
pub async fn readyz(State(state): State<AppState>) -> Result<Json<Health>, ApiError> {
    match state.store.ping().await {
        Ok(()) => Ok(Json(Health { status: "ready" })),
        Err(error) => {
            tracing::warn!(%error, "readiness check failed");
            Err(ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "unavailable",
                "the database does not answer",
                None,
            ))
        }
    }
}
