//! One module per command group.

pub mod accounts;
pub mod carriers;
pub mod infer;
pub mod keys;
pub mod serve;

use std::sync::Arc;

use anyhow::Context;
use tidemark_store::Store;

use crate::config::Config;
use crate::output;

/// Opens the configured database (migrating it when configured to); `create`: a missing
/// SQLite file is created (serving), else it is an error (the other commands).
async fn open(config: &Config, create: bool) -> anyhow::Result<Arc<dyn Store>> {
    let options = tidemark_store::ConnectOptions {
        create,
        ..config.connect_options()
    };
    tidemark_store::connect(&options).await.with_context(|| {
        format!(
            "cannot open the database {}",
            config.database_url.redacted()
        )
    })
}

/// `tidemark migrate`.
pub async fn migrate(config: &Config) -> anyhow::Result<()> {
    tidemark_store::migrate(&config.connect_options())
        .await
        .with_context(|| format!("cannot migrate {}", config.database_url.redacted()))?;
    tracing::info!(database = %config.database_url.redacted(), "migrations applied");
    Ok(())
}

/// `tidemark openapi`.
pub fn openapi(settings: &crate::settings::Settings) -> anyhow::Result<()> {
    let document = serde_json::to_string_pretty(&tidemark_api::openapi::document(
        &settings.api,
        &settings.matrix,
    ))?;
    output::line(document)?;
    Ok(())
}
