//! Building and serving the application: the same code runs in `tidemark serve` and in tests.

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use tidemark_api::{ApiConfig, AppState};
use tidemark_domain::{
    Account, AccountName, ApiKey, ApiKeySecret, CarrierMatrix, Clock, SystemClock,
};
use tidemark_store::{Store, StoreError};
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

/// The HTTP application over `store`.
pub fn router(
    store: Arc<dyn Store>,
    carriers: Arc<CarrierMatrix>,
    config: ApiConfig,
    clock: Arc<dyn Clock>,
) -> Router {
    tidemark_api::router(AppState::new(store, carriers, config, clock))
}

/// The carrier matrix: the file at `path` when given, else the one shipped with Tidemark.
/// Loaded and validated once, at start.
///
/// # Errors
/// An unreadable file, or a matrix that does not validate (the message names the rows).
pub fn carriers(path: Option<&std::path::Path>) -> anyhow::Result<Arc<CarrierMatrix>> {
    use anyhow::Context;
    let matrix = match path {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read the carrier matrix {}", path.display()))?;
            CarrierMatrix::parse_toml(&text)
                .with_context(|| format!("invalid carrier matrix {}", path.display()))?
        }
        None => CarrierMatrix::bundled().context("the bundled carrier matrix is invalid")?,
    };
    Ok(Arc::new(matrix))
}

/// The system clock, shared.
#[must_use]
pub fn system_clock() -> Arc<dyn Clock> {
    Arc::new(SystemClock)
}

/// Creates the account `default` and its first key if the database has no account yet.
/// Returns the key to show once, or `None` when accounts already existed.
///
/// # Errors
/// A storage failure.
pub async fn bootstrap(
    store: &dyn Store,
    clock: &dyn Clock,
) -> Result<Option<ApiKeySecret>, StoreError> {
    let now = clock.now();
    let Ok(name) = AccountName::parse("default") else {
        return Ok(None);
    };
    let account = Account {
        id: tidemark_domain::AccountId::new(),
        name,
        created_at: now,
    };
    let key = ApiKey::generate(account.id, now);
    let created = store.bootstrap_account(&account, &key.record).await?;
    Ok(created.then_some(key.secret))
}

/// Serves `router` on `listener` until `shutdown` is cancelled, then lets requests in
/// flight finish for up to `grace`.
///
/// # Errors
/// When the listener fails.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    shutdown: CancellationToken,
    grace: Duration,
) -> std::io::Result<()> {
    let stopping = shutdown.clone();
    let server = axum::serve(listener, router)
        .with_graceful_shutdown(async move { stopping.cancelled().await });
    tokio::select! {
        result = server => result,
        () = async {
            shutdown.cancelled().await;
            tokio::time::sleep(grace).await;
        } => {
            tracing::warn!(grace_secs = grace.as_secs(), "requests still in flight after the grace period; stopping");
            Ok(())
        }
    }
}

/// Cancels `token` on Ctrl-C or SIGTERM.
pub fn cancel_on_signal(token: CancellationToken) {
    tokio::spawn(async move {
        let ctrl_c = async {
            let _ = tokio::signal::ctrl_c().await;
        };
        #[cfg(unix)]
        let terminate = async {
            match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                Ok(mut signal) => {
                    signal.recv().await;
                }
                Err(_) => std::future::pending::<()>().await,
            }
        };
        #[cfg(not(unix))]
        let terminate = std::future::pending::<()>();
        tokio::select! {
            () = ctrl_c => {},
            () = terminate => {},
        }
        tracing::info!("shutdown signal received; draining requests");
        token.cancel();
    });
}
