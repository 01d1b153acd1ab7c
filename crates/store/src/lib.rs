//! Tidemark's storage layer: the only place that speaks SQL.
//!
//! Callers see the traits below and [`StoreError`]; [`connect`] picks the SQLite or
//! PostgreSQL implementation from the database URL. Both run embedded migrations and
//! pass the same conformance suite (`tests/conformance.rs`).

mod accounts;
mod ais;
mod changes;
mod containers;
mod counts;
mod custom_fields;
mod db;
mod deliveries;
mod domain_events;
mod error;
mod frozen;
mod gauges;
mod idempotency;
mod import;
mod jobs;
mod leases;
mod lists;
mod model;
mod notifications;
mod parties;
mod pushes;
mod quotas;
mod rate_limits;
mod raw_events;
mod references;
mod search;
mod shipments;
#[cfg(feature = "testing")]
pub mod testing;
mod tracking_requests;
mod transport_events;
pub mod wake_ups;
mod webhooks;

use std::sync::Arc;

use async_trait::async_trait;

pub use accounts::AccountStore;
pub use ais::{AisBatch, AisStore};
pub use changes::ChangeStore;
pub use custom_fields::{CustomFieldFilter, CustomFieldStore, DefinitionFilter};
pub use db::postgres::PgStore;
pub use db::sqlite::{SqliteStore, Synchronous};
pub use deliveries::{DeliveryStore, FAILING_TOO_LONG, Settle, WebhookClaim};
pub use error::StoreError;
pub use gauges::{GaugeStore, Gauges};
pub use idempotency::{Claim, IdempotencyStore, KeptAnswer};
pub use import::ImportStore;
pub use jobs::JobStore;
pub use leases::LeaseStore;
pub use lists::ListStore;
pub use model::{
    CommitOutcome, ContainerFilter, ContainerOrder, ContainerTally, Page, PageRequest,
    ShipmentFilter, ShipmentOrder, ShipmentTally, TimeRange, TrackingRequestFilter,
};
pub use notifications::{DeliveryOutcomes, NotificationFilter, NotificationStore};
pub use parties::PartyStore;
pub use pushes::PushStore;
pub use quotas::QuotaStore;
pub use rate_limits::RateLimitStore;
pub use raw_events::RawEventStore;
pub use search::CANDIDATES_MAX as SEARCH_CANDIDATES_MAX;
pub use shipments::ShipmentStore;
pub use tracking_requests::TrackingRequestStore;
pub use webhooks::WebhookStore;

/// Everything Tidemark stores.
#[async_trait]
pub trait Store:
    AccountStore
    + AisStore
    + TrackingRequestStore
    + JobStore
    + ChangeStore
    + ImportStore
    + ShipmentStore
    + RawEventStore
    + WebhookStore
    + PartyStore
    + CustomFieldStore
    + NotificationStore
    + DeliveryStore
    + LeaseStore
    + ListStore
    + PushStore
    + QuotaStore
    + IdempotencyStore
    + RateLimitStore
    + GaugeStore
    + std::fmt::Debug
{
    /// Whether the database answers (for `/readyz`).
    async fn ping(&self) -> Result<(), StoreError>;

    /// Which backend this is, for logs.
    fn backend(&self) -> &'static str;

    /// How many units this store wrote again because the database cancelled them for a
    /// concurrent transaction (a deadlock, a serialization failure), since it was opened:
    /// more than a few means two writers lock rows in different orders. Always 0 on
    /// SQLite, whose one writer never deadlocks.
    fn writes_retried(&self) -> u64 {
        0
    }

    /// Whether the last write was refused because the database's storage is full (SQLite;
    /// PostgreSQL answers each write with its own refusal).
    fn storage_full(&self) -> bool {
        false
    }

    /// How many writes were refused for want of space since the store was opened.
    fn storage_refusals(&self) -> u64 {
        0
    }
}

/// How to open the database.
#[derive(Debug, Clone)]
pub struct ConnectOptions {
    /// `sqlite://PATH` or `postgres://…`.
    pub url: String,
    /// Run pending migrations on connect.
    pub migrate: bool,
    /// Most pooled connections (for SQLite, readers: at most this many reads at once).
    pub max_connections: u32,
    /// Each SQLite reader's page cache, in KiB (SQLite's own default is 2,000).
    pub sqlite_cache_kib: u32,
    /// SQLite `synchronous` level: `full` (every commit reaches the disk) or `normal`.
    pub sqlite_synchronous: Synchronous,
    /// The largest the SQLite file may grow, in bytes (writes beyond are refused as on a
    /// full disk); none for no limit but the disk's.
    pub sqlite_max_bytes: Option<u64>,
    /// Create a missing SQLite file (serving and migrating do; other commands refuse).
    pub create: bool,
}

impl ConnectOptions {
    /// Defaults for `url`: migrate, 8 connections, `synchronous=FULL`.
    #[must_use]
    pub fn new(url: impl Into<String>) -> Self {
        Self {
            url: url.into(),
            migrate: true,
            max_connections: 8,
            sqlite_cache_kib: 2_000,
            sqlite_synchronous: Synchronous::Full,
            sqlite_max_bytes: None,
            create: true,
        }
    }
}

/// Opens the database named by `options.url`.
///
/// # Errors
/// An unsupported URL, an unreachable database or a failed migration.
pub async fn connect(options: &ConnectOptions) -> Result<Arc<dyn Store>, StoreError> {
    let url = options.url.as_str();
    if url.starts_with("sqlite:") {
        Ok(Arc::new(SqliteStore::connect(options).await?))
    } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        Ok(Arc::new(PgStore::connect(options).await?))
    } else {
        Err(StoreError::UnsupportedUrl)
    }
}

/// Runs the migrations of the database named by `options.url` and closes it.
///
/// # Errors
/// As [`connect`].
pub async fn migrate(options: &ConnectOptions) -> Result<(), StoreError> {
    let options = ConnectOptions {
        migrate: true,
        create: true,
        ..options.clone()
    };
    connect(&options).await.map(drop)
}
