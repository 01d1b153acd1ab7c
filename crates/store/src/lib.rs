//! Tidemark's storage layer: the only place that speaks SQL.
//!
//! Callers see the traits below and [`StoreError`]; [`connect`] picks the SQLite or
//! PostgreSQL implementation from the database URL. Both run embedded migrations and
//! pass the same conformance suite (`tests/conformance.rs`).

mod error;
mod model;
pub mod postgres;
mod rows;
mod sql;
pub mod sqlite;
#[cfg(feature = "testing")]
pub mod testing;

use std::sync::Arc;

use async_trait::async_trait;
use tidemark_domain::{
    Account, AccountId, AccountName, ApiKeyRecord, Timestamp, TrackingRequest, TrackingRequestId,
    TrackingRequestPatch,
};

pub use error::StoreError;
pub use model::{Page, PageRequest, TimeRange, TrackingRequestFilter};

/// Accounts and API keys.
#[async_trait]
pub trait AccountStore: Send + Sync {
    /// Stores a new account; [`StoreError::Conflict`] when the name is taken.
    async fn create_account(&self, account: &Account) -> Result<(), StoreError>;

    /// Creates `account` with `key` only if no account exists yet, atomically, so two
    /// processes starting on one empty database create one first account between them.
    /// Returns whether it created them.
    async fn bootstrap_account(
        &self,
        account: &Account,
        key: &ApiKeyRecord,
    ) -> Result<bool, StoreError>;

    /// The account with this id.
    async fn account_by_id(&self, id: AccountId) -> Result<Option<Account>, StoreError>;

    /// The account with this name.
    async fn account_by_name(&self, name: &AccountName) -> Result<Option<Account>, StoreError>;

    /// Every account, oldest first.
    async fn list_accounts(&self) -> Result<Vec<Account>, StoreError>;

    /// Stores a new key.
    async fn insert_api_key(&self, key: &ApiKeyRecord) -> Result<(), StoreError>;

    /// The key with this visible prefix, revoked or not.
    async fn api_key_by_prefix(&self, prefix: &str) -> Result<Option<ApiKeyRecord>, StoreError>;

    /// Every key (of one account, when given), oldest first.
    async fn list_api_keys(
        &self,
        account: Option<AccountId>,
    ) -> Result<Vec<ApiKeyRecord>, StoreError>;

    /// Revokes the key with this prefix; returns it, or `None` when there is no such key.
    /// Revoking a revoked key keeps its first revocation time.
    async fn revoke_api_key(
        &self,
        prefix: &str,
        at: Timestamp,
    ) -> Result<Option<ApiKeyRecord>, StoreError>;
}

/// Tracking requests, always scoped by account.
#[async_trait]
pub trait TrackingRequestStore: Send + Sync {
    /// Stores a new request. An open request of the same account, normalized number and
    /// SCAC makes it fail with [`StoreError::Duplicate`], decided by a unique index.
    async fn insert_tracking_request(&self, request: &TrackingRequest) -> Result<(), StoreError>;

    /// One request of `account`.
    async fn tracking_request(
        &self,
        account: AccountId,
        id: TrackingRequestId,
    ) -> Result<Option<TrackingRequest>, StoreError>;

    /// A page of `account`'s requests matching `filter`, newest first.
    async fn list_tracking_requests(
        &self,
        account: AccountId,
        filter: &TrackingRequestFilter,
        page: PageRequest,
    ) -> Result<Page<TrackingRequest>, StoreError>;

    /// Applies `patch` and returns the updated request, or `None` when `account` has no
    /// request `id`.
    async fn update_tracking_request(
        &self,
        account: AccountId,
        id: TrackingRequestId,
        patch: &TrackingRequestPatch,
        at: Timestamp,
    ) -> Result<Option<TrackingRequest>, StoreError>;

    /// Sets a request's status, reason and retry state (the lifecycle's effects).
    async fn set_tracking_request_state(&self, request: &TrackingRequest)
    -> Result<(), StoreError>;
}

/// Everything Tidemark stores.
#[async_trait]
pub trait Store: AccountStore + TrackingRequestStore + std::fmt::Debug {
    /// Whether the database answers (for `/readyz`).
    async fn ping(&self) -> Result<(), StoreError>;

    /// Which backend this is, for logs.
    fn backend(&self) -> &'static str;
}

/// How to open the database.
#[derive(Debug, Clone)]
pub struct ConnectOptions {
    /// `sqlite://PATH` or `postgres://…`.
    pub url: String,
    /// Run pending migrations on connect.
    pub migrate: bool,
    /// Most pooled connections (readers, for SQLite).
    pub max_connections: u32,
    /// SQLite `synchronous` level: `full` (every commit reaches the disk) or `normal`.
    pub sqlite_synchronous: sqlite::Synchronous,
}

impl ConnectOptions {
    /// Defaults for `url`: migrate, 8 connections, `synchronous=FULL`.
    #[must_use]
    pub fn new(url: impl Into<String>) -> Self {
        Self {
            url: url.into(),
            migrate: true,
            max_connections: 8,
            sqlite_synchronous: sqlite::Synchronous::Full,
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
        Ok(Arc::new(sqlite::SqliteStore::connect(options).await?))
    } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        Ok(Arc::new(postgres::PgStore::connect(options).await?))
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
        ..options.clone()
    };
    connect(&options).await.map(drop)
}
