//! `carrier-sim`: a simulated carrier speaking DCSA Track & Trace 2.2 over HTTP.
//!
//! ```sh
//! carrier-sim --listen 127.0.0.1:9090 --api-key secret --admin-key admin
//! curl -H 'API-Key: secret' 'http://127.0.0.1:9090/MAEU/v2/events?transportDocumentReference=586118841'
//! ```

use std::net::SocketAddr;
use std::path::PathBuf;

use anyhow::Context;
use carrier_sim::{
    Chances, ClockMode, FaultRule, NextPage, OAuthClient, Quirk, SimConfig, Simulator,
};
use clap::Parser;
use serde::Deserialize;
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

/// A simulated ocean carrier speaking DCSA Track & Trace 2.2 (every SCAC under /{SCAC}/v2/events).
#[derive(Debug, Parser)]
#[command(name = "carrier-sim", version, about)]
struct Cli {
    /// Address to listen on (port 0 picks a free port).
    #[arg(long, default_value = "127.0.0.1:9090", value_name = "ADDR")]
    listen: SocketAddr,
    /// The key clients send in the `API-Key` header.
    #[arg(long, env = "CARRIER_SIM_API_KEY", hide_env_values = true)]
    api_key: String,
    /// The key of the admin API (`Admin-Key` header); without it the admin API is off.
    #[arg(long, env = "CARRIER_SIM_ADMIN_KEY", hide_env_values = true)]
    admin_key: Option<String>,
    /// Settings file (TOML): seed, epoch, clock, chances, next_page, oauth clients, faults,
    /// the lines' quirks to play.
    #[arg(long, value_name = "PATH")]
    config: Option<PathBuf>,
    /// Seed of the world (another seed, another world).
    #[arg(long)]
    seed: Option<u64>,
    /// Simulated seconds per real second (1 = real time).
    #[arg(long, conflicts_with = "stepped")]
    speed: Option<f64>,
    /// Time moves only when the admin API advances it.
    #[arg(long)]
    stepped: bool,
}

/// The settings file.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    seed: Option<u64>,
    /// RFC 3339; default: start time.
    epoch: Option<String>,
    clock: Option<ClockMode>,
    next_page: Option<NextPage>,
    not_found_percent: Option<u8>,
    awaiting_manifest_percent: Option<u8>,
    cancelled_percent: Option<u8>,
    #[serde(default)]
    oauth_client: Vec<OAuthClient>,
    #[serde(default)]
    fault: Vec<FaultRule>,
    /// Real lines' ways to play, by SCAC: `MAEU = ["missing_containers"]`.
    #[serde(default)]
    quirks: std::collections::BTreeMap<String, Vec<Quirk>>,
}

fn config(cli: &Cli) -> anyhow::Result<SimConfig> {
    let file: File = match &cli.config {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            toml::from_str(&text)
                .with_context(|| format!("invalid settings in {}", path.display()))?
        }
        None => File::default(),
    };
    let mut config = SimConfig::new(cli.api_key.clone());
    config.admin_key.clone_from(&cli.admin_key);
    config.seed = cli.seed.or(file.seed).unwrap_or(0);
    if let Some(epoch) = &file.epoch {
        config.epoch = OffsetDateTime::parse(epoch, &Rfc3339).context("epoch is not RFC 3339")?;
    }
    config.clock = match (cli.stepped, cli.speed, file.clock) {
        (true, _, _) => ClockMode::Stepped,
        (false, Some(factor), _) => ClockMode::Running { factor },
        (false, None, Some(clock)) => clock,
        (false, None, None) => ClockMode::Running { factor: 1.0 },
    };
    let defaults = Chances::default();
    config.chances = Chances {
        not_found: file.not_found_percent.unwrap_or(defaults.not_found),
        awaiting_manifest: file
            .awaiting_manifest_percent
            .unwrap_or(defaults.awaiting_manifest),
        cancelled: file.cancelled_percent.unwrap_or(defaults.cancelled),
    };
    anyhow::ensure!(
        u16::from(config.chances.not_found)
            + u16::from(config.chances.awaiting_manifest)
            + u16::from(config.chances.cancelled)
            <= 100,
        "the percentages add up to more than 100"
    );
    config.next_page = file.next_page.unwrap_or_default();
    config.oauth_clients = file.oauth_client;
    config.faults = file.fault;
    config.quirks = file.quirks;
    Ok(config)
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .with_writer(std::io::stderr)
        .init();
    let cli = Cli::parse();
    let config = config(&cli)?;
    let listener = tokio::net::TcpListener::bind(cli.listen)
        .await
        .with_context(|| format!("cannot listen on {}", cli.listen))?;
    let address = listener.local_addr()?;
    tracing::info!(
        %address,
        seed = config.seed,
        epoch = %config.epoch,
        admin = config.admin_key.is_some(),
        "carrier simulator listening on http://{address} (GET /{{SCAC}}/v2/events)"
    );
    Simulator::new(config)
        .serve(listener, async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await?;
    Ok(())
}
