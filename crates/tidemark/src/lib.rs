//! The `tidemark` binary as a library: configuration, the command line, and the wiring of
//! store, API, carriers and workers. `main` is a thin call into [`run`]; tests build the very
//! same application through [`application::Application`].

pub mod app;
pub mod application;
pub mod cli;
mod commands;
pub mod config;
pub mod http_server;
pub mod memory;
mod output;
pub mod settings;
pub mod telemetry;

use anyhow::Context;

use crate::cli::{Cli, Command};
use crate::config::{Config, Overrides, SandboxOverrides};

/// Runs one command line.
///
/// # Errors
/// Any failure, with context, for `main` to print.
pub async fn run(cli: Cli) -> anyhow::Result<()> {
    let overrides = Overrides {
        database_url: cli.database_url.clone(),
        listen: match &cli.command {
            Command::Serve(args) => args.listen,
            _ => None,
        },
        roles: match &cli.command {
            Command::Serve(args) => args.roles.clone(),
            _ => None,
        },
        webhook_allowed_networks: match &cli.command {
            Command::Serve(args) => args.webhook_allowed_networks.clone(),
            _ => None,
        },
        sandbox: match &cli.command {
            Command::Serve(args) if args.sandbox_all_carriers => {
                Some(SandboxOverrides { all_carriers: true })
            }
            _ => None,
        },
    };
    let config =
        Config::load(cli.config.as_deref(), &overrides).context("invalid configuration")?;
    let settings = settings::Settings::parse(config)
        .map_err(anyhow::Error::msg)
        .context("invalid configuration")?;
    telemetry::init(&settings.config.log);
    let config = &settings.config;
    match cli.command {
        Command::Serve(_) => commands::serve::run(settings).await,
        Command::Migrate => commands::migrate(config).await,
        Command::Accounts(command) => commands::accounts::run(config, command).await,
        Command::Keys(command) => commands::keys::run(config, command).await,
        Command::Carriers(command) => commands::carriers::run(config, command).await,
        Command::Infer { numbers } => commands::infer::run(&settings, &numbers),
        Command::Openapi => commands::openapi(&settings),
    }
}
