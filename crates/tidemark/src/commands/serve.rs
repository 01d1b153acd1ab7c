//! `tidemark serve`: the API, the tracker and the dispatcher (or the roles given), until a
//! shutdown signal.

use crate::application::{Application, Seams};
use crate::config::Role;
use crate::settings::Settings;
use crate::{app, output};

/// Builds the application from `settings`, creates the first account when the database has
/// none, and runs until a shutdown signal: the API stops taking requests and drains them,
/// the tracker finishes the jobs in hand.
pub async fn run(settings: Settings) -> anyhow::Result<()> {
    crate::memory::apply(&settings.config.memory);
    // The metrics recorder, before anything records (`/metrics`).
    tidemark_api::metrics::handle();
    tracing::info!(
        carriers = settings.matrix.carriers().len(),
        "carrier matrix loaded"
    );
    let seams = Seams::production();
    app::cancel_on_signal(seams.shutdown.clone());
    let application = Application::build(&settings, seams).await?;
    if let (true, Some(address)) = (
        settings.config.roles.contains(&Role::Api),
        application.address(),
    ) {
        let (store, clock) = (application.store(), application.clock());
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
    }
    announce(&settings, &application);
    application.run_until_stopped().await
}

/// Says what this process runs and where it listens (the lines scripts wait for).
fn announce(settings: &Settings, application: &Application) {
    let config = &settings.config;
    if application.tracker().is_some() {
        tracing::info!(workers = config.tracker.workers.get(), "tracker started");
    }
    if application.dispatcher().is_some() {
        tracing::info!(
            workers = config.dispatcher.workers.get(),
            "dispatcher started"
        );
        tracing::info!(
            retention_days = settings.retention.duration().as_secs() / 86_400,
            "delivery log pruner started"
        );
    }
    match (application.address(), config.roles.contains(&Role::Api)) {
        (Some(address), true) => tracing::info!(%address, "listening on http://{address}"),
        (Some(address), false) => {
            tracing::info!(%address, "health and metrics on http://{address}");
        }
        (None, _) => {}
    }
}
