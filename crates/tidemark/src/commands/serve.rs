//! `tidemark serve`.

use std::time::Duration;

use anyhow::Context;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

use crate::config::Config;
use crate::{app, output};

/// Opens the database, creates the first account if there is none, and serves until a
/// shutdown signal.
pub async fn run(config: Config) -> anyhow::Result<()> {
    let carriers = app::carriers(config.carriers_file.as_deref())?;
    tracing::info!(
        carriers = carriers.carriers().len(),
        "carrier matrix loaded"
    );
    let store = super::open(&config).await?;
    tracing::info!(backend = store.backend(), database = %config.database_url.redacted(), "database ready");
    let clock = app::system_clock();
    let listener = TcpListener::bind(config.listen)
        .await
        .with_context(|| format!("cannot listen on {}", config.listen))?;
    let address = listener.local_addr()?;

    if let Some(key) = app::bootstrap(store.as_ref(), clock.as_ref()).await? {
        tracing::info!(
            prefix = key.prefix(),
            "created the first account, \"default\", and printed its API key"
        );
        output::line(format!(
            "\nTidemark created the account \"default\" and its first API key.\n\
             It is shown only this once; keep it somewhere safe:\n\n    {key}\n\n\
             Try:\n    curl -H 'Authorization: Token {key}' http://{address}/v2/tracking_requests\n",
            key = key.expose(),
        ))?;
    }

    let router = app::router(store, carriers, config.api(), clock);
    let shutdown = CancellationToken::new();
    app::cancel_on_signal(shutdown.clone());
    tracing::info!(%address, "listening on http://{address}");
    app::serve(
        listener,
        router,
        shutdown,
        Duration::from_secs(config.shutdown_grace_secs),
    )
    .await?;
    tracing::info!("stopped");
    Ok(())
}
