//! Tidemark's settings, typed and layered: built-in defaults, then `tidemark.toml` (or
//! `--config`), then `TIDEMARK_*` environment variables (`__` separates sections, e.g.
//! `TIDEMARK_RATE_LIMITS__CREATE_PER_MINUTE`), then command-line flags.
//! `config/tidemark.example.toml` documents every setting.

use std::net::SocketAddr;
use std::path::Path;
use std::time::Duration;

use figment::Figment;
use figment::providers::{Env, Format, Serialized, Toml};
use serde::{Deserialize, Serialize};
use tidemark_api::{ApiConfig, RateLimitConfig};
use tidemark_domain::SandboxScope;
use tidemark_store::ConnectOptions;
use tidemark_store::Synchronous;

mod ais;
mod database;
mod http;
mod legacy;
mod log;
mod work;

pub use ais::AisConfig;
pub use database::{DatabaseConfig, DatabaseUrl, SqliteSynchronous};
pub use http::HttpConfig;
pub use log::{LogConfig, LogFormat};
pub use work::{DispatcherConfig, Role, SandboxConfig, TrackerConfig, all_roles};

/// Input limits.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct LimitsConfig {
    /// Largest request body, in bytes.
    pub body_bytes: usize,
    /// Longest `request_number`.
    pub request_number_chars: usize,
    /// Most items in `ref_numbers` / `shipment_tags`.
    pub list_items: usize,
    /// Longest item of those lists.
    pub list_item_chars: usize,
    /// Default `page[size]`.
    pub page_size_default: u32,
    /// Largest `page[size]`.
    pub page_size_max: u32,
    /// How long a client may take to send a request's headers (`header_timeout_secs`
    /// before).
    #[serde(with = "humantime_serde")]
    pub header_timeout: Duration,
    /// Longest pause while a client sends a body (`body_idle_timeout_secs` before).
    #[serde(with = "humantime_serde")]
    pub body_idle_timeout: Duration,
    /// Longest time a client may take to send a whole body, however steadily.
    #[serde(with = "humantime_serde")]
    pub body_total_timeout: Duration,
}

impl Default for LimitsConfig {
    fn default() -> Self {
        let api = ApiConfig::default();
        Self {
            body_bytes: api.body_bytes,
            request_number_chars: api.limits.request_number_chars,
            list_items: api.limits.list_items,
            list_item_chars: api.limits.list_item_chars,
            page_size_default: api.page_size_default,
            page_size_max: api.page_size_max,
            header_timeout: crate::http_server::ServerSettings::default().header_timeout,
            body_idle_timeout: api.body_idle_timeout,
            body_total_timeout: api.body_total_timeout,
        }
    }
}

/// Every setting.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Config {
    /// `sqlite://PATH` or `postgres://USER@HOST/DB`.
    pub database_url: DatabaseUrl,
    /// Address the API listens on.
    pub listen: SocketAddr,
    /// Address where a process without the API role answers `/healthz`, `/readyz` and
    /// `/metrics` (none by default).
    pub health_listen: Option<SocketAddr>,
    /// Apply pending migrations when `serve` starts.
    pub migrate_on_start: bool,
    /// How long `serve` waits for requests in flight after a shutdown signal
    /// (`shutdown_grace_secs` before).
    #[serde(with = "humantime_serde")]
    pub shutdown_grace: Duration,
    /// A carrier matrix file to use instead of the one shipped with Tidemark.
    pub carriers_file: Option<std::path::PathBuf>,
    /// Logging.
    pub log: LogConfig,
    /// Database pool.
    pub database: DatabaseConfig,
    /// Input limits.
    pub limits: LimitsConfig,
    /// Per-account rate limits: the API's own settings.
    pub rate_limits: RateLimitConfig,
    /// Carrier connections: limits, timeouts, and the carriers reached at real endpoints.
    pub carriers: tidemark_carriers::registry::CarriersConfig,
    /// Terminal connections: limits, timeouts, and the terminals reached at real endpoints.
    pub terminals: tidemark_carriers::terminal::registry::TerminalsConfig,
    /// The lines' Arrival Notice publishers.
    pub arrival_notices: tidemark_carriers::arrival_notice::registry::ArrivalNoticesConfig,
    /// The parts this process runs.
    pub roles: Vec<Role>,
    /// The tracking lifecycle: its intervals and limits.
    pub tracking: tidemark_domain::lifecycle::Policy,
    /// How this process's tracker runs.
    pub tracker: TrackerConfig,
    /// The built-in carrier simulator.
    pub sandbox: SandboxConfig,
    /// Networks beyond the public internet that webhooks may reach (comma-separated CIDR).
    pub webhook_allowed_networks: String,
    /// The addresses deliveries leave from, published at `GET /v2/webhooks/ips`.
    pub webhook_source_ips: Vec<std::net::IpAddr>,
    /// How webhooks are delivered.
    pub webhooks: tidemark_workers::DispatcherSettings,
    /// How this process's dispatcher runs.
    pub dispatcher: DispatcherConfig,
    /// How the process gives memory back.
    pub memory: crate::memory::MemoryConfig,
    /// How clients reach the API.
    pub http: HttpConfig,
    /// The AIS feeds read by the `ais` role.
    pub ais: AisConfig,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            database_url: DatabaseUrl("sqlite://tidemark.db".to_owned()),
            listen: SocketAddr::from(([127, 0, 0, 1], 8080)),
            health_listen: None,
            migrate_on_start: true,
            shutdown_grace: Duration::from_secs(30),
            carriers_file: None,
            log: LogConfig::default(),
            database: DatabaseConfig::default(),
            limits: LimitsConfig::default(),
            rate_limits: RateLimitConfig::default(),
            carriers: tidemark_carriers::registry::CarriersConfig::default(),
            terminals: tidemark_carriers::terminal::registry::TerminalsConfig::default(),
            arrival_notices: Default::default(),
            roles: all_roles(),
            tracking: tidemark_domain::lifecycle::Policy::default(),
            tracker: TrackerConfig::default(),
            sandbox: SandboxConfig::default(),
            webhook_allowed_networks: String::new(),
            webhook_source_ips: Vec::new(),
            webhooks: tidemark_workers::DispatcherSettings::default(),
            dispatcher: DispatcherConfig::default(),
            memory: crate::memory::MemoryConfig::default(),
            http: HttpConfig::default(),
            ais: AisConfig::default(),
        }
    }
}

/// The top-level keys, so unrelated `TIDEMARK_*` variables (e.g. of the test suite) are
/// ignored. `roles` is not among them: `TIDEMARK_ROLES` is a comma-separated list read by
/// `serve`'s `--roles` flag, and other commands have no roles to take from it.
const KEYS: [&str; 23] = [
    "database_url",
    "listen",
    "health_listen",
    "migrate_on_start",
    "shutdown_grace",
    "carriers_file",
    "log",
    "database",
    "limits",
    "rate_limits",
    "carriers",
    "terminals",
    "arrival_notices",
    "tracking",
    "tracker",
    "sandbox",
    "webhook_allowed_networks",
    "webhook_source_ips",
    "webhooks",
    "dispatcher",
    "memory",
    "http",
    "ais",
];

/// Flag values that override everything else; `None` leaves a setting alone.
#[derive(Debug, Default, Serialize)]
pub struct Overrides {
    /// `--database-url`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub database_url: Option<String>,
    /// `--listen`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub listen: Option<SocketAddr>,
    /// `--roles`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub roles: Option<Vec<Role>>,
    /// `--webhook-allowed-networks`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub webhook_allowed_networks: Option<String>,
    /// `--sandbox-all-carriers`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sandbox: Option<SandboxOverrides>,
}

/// The `[sandbox]` settings a flag can set.
#[derive(Debug, Default, Serialize)]
pub struct SandboxOverrides {
    /// `--sandbox-all-carriers`.
    pub all_carriers: bool,
}

impl Config {
    /// The lifecycle's policies: `[tracking]` for the lines, `[sandbox.tracking]` for the
    /// sandbox line `TEST`.
    #[must_use]
    pub const fn policies(&self) -> tidemark_domain::lifecycle::Policies {
        tidemark_domain::lifecycle::Policies {
            line: self.tracking,
            sandbox: self.sandbox.tracking,
        }
    }

    /// Loads the layers. Without `file`, `./tidemark.toml` is read if it exists.
    ///
    /// # Errors
    /// A malformed file, an unknown key or a value of the wrong type, with its source.
    pub fn load(file: Option<&Path>, overrides: &Overrides) -> Result<Self, Box<figment::Error>> {
        let mut figment = Figment::from(Serialized::defaults(Self::default()));
        figment = match file {
            Some(path) => figment.merge(legacy::Legacy(Toml::file_exact(path))),
            None => figment.merge(legacy::Legacy(Toml::file("tidemark.toml"))),
        };
        figment
            .merge(legacy::Legacy(
                Env::prefixed("TIDEMARK_")
                    .split("__")
                    .filter(|key| {
                        let top = key.as_str().split('.').next().unwrap_or_default();
                        KEYS.iter().any(|known| top.eq_ignore_ascii_case(known))
                    })
                    .map(|key| env_key(key.as_str()).into())
                    // After the last map: each map sets lowercasing on again.
                    .lowercase(false),
            ))
            .merge(Serialized::defaults(overrides))
            .extract()
            .map_err(Box::new)
    }

    /// What the storage layer needs.
    #[must_use]
    pub fn connect_options(&self) -> ConnectOptions {
        ConnectOptions {
            url: self.database_url.0.clone(),
            migrate: self.migrate_on_start,
            max_connections: self.database.max_connections,
            sqlite_cache_kib: self.database.sqlite_cache_kib,
            sqlite_synchronous: match self.database.sqlite_synchronous {
                SqliteSynchronous::Full => Synchronous::Full,
                SqliteSynchronous::Normal => Synchronous::Normal,
            },
            sqlite_max_bytes: self.database.sqlite_max_bytes,
            create: true,
        }
    }

    /// How far the sandbox reaches.
    #[must_use]
    pub fn sandbox_scope(&self) -> SandboxScope {
        match (self.sandbox.enabled, self.sandbox.all_carriers) {
            (false, _) => SandboxScope::Off,
            (true, false) => SandboxScope::TestOnly,
            (true, true) => SandboxScope::AllCarriers,
        }
    }
}

/// An environment variable's key path as the file spells it: lowercase, but for the SCAC
/// or terminal code after `endpoints` or `callbacks`, in capitals
/// (`TIDEMARK_CARRIERS__ENDPOINTS__HLCU__CLIENT_SECRET` is `carriers.endpoints.HLCU.client_secret`,
/// the entry `[carriers.endpoints.HLCU]` of the file).
fn env_key(key: &str) -> String {
    let mut parts: Vec<String> = Vec::new();
    for part in key.split('.') {
        let named = parts
            .last()
            .is_some_and(|previous| previous == "endpoints" || previous == "callbacks");
        parts.push(if named {
            part.to_ascii_uppercase()
        } else {
            part.to_ascii_lowercase()
        });
    }
    parts.join(".")
}

#[cfg(test)]
mod tests;
