//! `GET /healthz` (the process is up) and `GET /readyz` (the database answers, and the
//! process's workers' loops still turn). The database check is bounded (a dead server
//! answers 503 within [`DATABASE_CHECK`], not after the pool's acquire timeout) and its
//! result reused for [`CHECK_REUSED`], so health checks do not pile onto a dead pool.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use axum::Json;
use axum::Router;
use axum::extract::State;
use axum::routing::get;
use serde::Serialize;
use utoipa::ToSchema;

use crate::error::ErrorCode;
use crate::{ApiError, AppState};

/// A health answer.
#[derive(Debug, Serialize, ToSchema)]
pub struct Health {
    /// `ok` or `ready`.
    pub status: &'static str,
}

/// The longest the readiness check waits for the database.
pub const DATABASE_CHECK: Duration = Duration::from_millis(800);

/// How long a readiness check's answer is reused.
pub const CHECK_REUSED: Duration = Duration::from_secs(1);

/// The database's last readiness check: when, and what it found.
#[derive(Debug, Default)]
pub struct DatabaseCheck(Mutex<Option<(Instant, Result<(), String>)>>);

impl DatabaseCheck {
    /// The database's answer: the last one if it is fresh, else a new bounded check.
    async fn answer(&self, store: &dyn tidemark_store::Store) -> Result<(), String> {
        let fresh = |checked: &Instant| checked.elapsed() < CHECK_REUSED;
        if let Ok(last) = self.0.lock()
            && let Some((checked, answer)) = last.as_ref()
            && fresh(checked)
        {
            return answer.clone();
        }
        let answer = match tokio::time::timeout(DATABASE_CHECK, store.ping()).await {
            Ok(Ok(())) => Ok(()),
            Ok(Err(error)) => Err(error.to_string()),
            Err(_) => Err(format!(
                "no answer within {} ms",
                DATABASE_CHECK.as_millis()
            )),
        };
        if let Ok(mut last) = self.0.lock() {
            *last = Some((Instant::now(), answer.clone()));
        }
        answer
    }
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
        (status = 503, description = "The database does not answer, or a worker's loop has stalled."),
    ))]
pub async fn readyz(State(state): State<AppState>) -> Result<Json<Health>, ApiError> {
    let unavailable = |detail: String| ErrorCode::Unavailable.error(detail);
    if let Err(error) = state.database_check.answer(state.store.as_ref()).await {
        tracing::warn!(%error, "readiness check failed");
        return Err(unavailable("the database does not answer".to_owned()));
    }
    if state.store.storage_full() {
        return Err(unavailable(
            "the database's storage is full: writes are refused, reads go on".to_owned(),
        ));
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
