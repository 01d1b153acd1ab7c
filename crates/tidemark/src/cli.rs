//! The command line: `serve`, `migrate`, `accounts`, `keys`, `carriers`, `infer` and
//! `openapi`.

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

/// Tidemark: self-hosted ocean shipment tracking.
#[derive(Debug, Parser)]
#[command(name = "tidemark", version, about, propagate_version = true)]
pub struct Cli {
    /// Settings file (default: ./tidemark.toml if present).
    #[arg(long, global = true, value_name = "PATH")]
    pub config: Option<PathBuf>,

    /// Database: sqlite://PATH or postgres://USER@HOST/DB.
    #[arg(
        long,
        global = true,
        env = "TIDEMARK_DATABASE_URL",
        value_name = "URL",
        hide_env_values = true
    )]
    pub database_url: Option<String>,

    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run the API (creates the database and a first account on first start).
    Serve(ServeArgs),
    /// Apply pending database migrations and exit.
    Migrate,
    /// Manage accounts.
    #[command(subcommand)]
    Accounts(AccountsCommand),
    /// Manage API keys.
    #[command(subcommand)]
    Keys(KeysCommand),
    /// The carriers configured at their own endpoints: how each is reached, and a check.
    #[command(subcommand)]
    Carriers(CarriersCommand),
    /// Infer the type and carrier of numbers, offline; one JSON line per number, with the
    /// endpoint's answer (`-` reads one number per line from stdin).
    Infer {
        /// Container, bill of lading or booking numbers, or `-`.
        #[arg(required = true, value_name = "NUMBER")]
        numbers: Vec<String>,
    },
    /// Print the OpenAPI document.
    Openapi,
}

/// Options of `serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Address to listen on (port 0 picks a free port).
    #[arg(long, env = "TIDEMARK_LISTEN", value_name = "ADDR")]
    pub listen: Option<SocketAddr>,

    /// The parts to run, e.g. `api` on some processes and `tracker` on others (default:
    /// all).
    #[arg(
        long,
        env = "TIDEMARK_ROLES",
        value_name = "ROLES",
        value_delimiter = ',',
        value_enum
    )]
    pub roles: Option<Vec<crate::config::Role>>,

    /// Networks webhooks may reach beyond the public internet, comma-separated CIDR (e.g.
    /// `127.0.0.0/8,::1/128` for receivers on this machine).
    #[arg(long, env = "TIDEMARK_WEBHOOK_ALLOWED_NETWORKS", value_name = "CIDRS")]
    pub webhook_allowed_networks: Option<String>,

    /// Serve every SCAC without a carrier endpoint from the simulator, with made-up
    /// voyages (demos and benchmarks; `sandbox.all_carriers`). By default the sandbox
    /// serves only its own line, `TEST`.
    #[arg(long)]
    pub sandbox_all_carriers: bool,
}

/// `accounts …`
#[derive(Debug, Subcommand)]
pub enum AccountsCommand {
    /// Create an account.
    Create {
        /// Its unique name.
        name: String,
    },
    /// List accounts.
    List,
}

/// `carriers …`
#[derive(Debug, Subcommand)]
pub enum CarriersCommand {
    /// Each configured carrier: profile, DCSA version, authentication, push or poll, its
    /// quota and today's use.
    List,
    /// Asks the carrier one harmless question (a token first, when it takes OAuth2) and
    /// says what is wrong, if anything: DNS, TLS, the credentials, access, the answer's
    /// shape. Exits with 1 when the carrier cannot be used.
    Check {
        /// The carrier's SCAC, as configured under `[carriers.endpoints]`.
        scac: String,
    },
}

/// `keys …`
#[derive(Debug, Subcommand)]
pub enum KeysCommand {
    /// Create an API key and print it alone on stdout (`--create-account` creates a missing
    /// account).
    Create {
        /// The account's name or id.
        #[arg(long, value_name = "NAME_OR_ID")]
        account: String,
        /// Create the account when no account has this name (a mistyped name is refused
        /// otherwise).
        #[arg(long)]
        create_account: bool,
    },
    /// List keys (prefix, account, created, revoked); never the keys themselves.
    List {
        /// Only this account's keys (name or id).
        #[arg(long, value_name = "NAME_OR_ID")]
        account: Option<String>,
    },
    /// Revoke a key: refused by every process within a second.
    Revoke {
        /// The key's prefix (as `keys list` shows it) or the whole key.
        key: String,
    },
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_command_line_is_consistent() {
        Cli::command().debug_assert();
    }
}
