//! Tidemark's storage layer: the only place that speaks SQL.
//!
//! Callers see the traits below and [`StoreError`]; [`connect`] picks the SQLite or
//! PostgreSQL implementation from the database URL. Both run embedded migrations and
//! pass the same conformance suite (`tests/conformance.rs`).

mod deliveries;
mod error;
mod leases;
mod model;
mod neutral;
mod notifications;
mod plan;
pub mod postgres;
mod raw_events;
mod references;
mod rows;
mod shipments;
mod sql;
pub mod sqlite;
#[cfg(feature = "testing")]
pub mod testing;
mod webhooks;

use std::sync::Arc;

use async_trait::async_trait;
use tidemark_domain::{
    Account, AccountId, AccountName, ApiKeyRecord, ClaimedJob, DomainEvent, JobId, JobKind, NewJob,
    Timestamp, Tracked, TrackingRequest, TrackingRequestId, TrackingRequestPatch,
};

pub use deliveries::{DeliveryStore, FAILING_TOO_LONG, Settle};
pub use error::StoreError;
pub use leases::LeaseStore;
pub use model::{
    CommitOutcome, ContainerFilter, Page, PageRequest, ShipmentFilter, TimeRange,
    TrackingRequestFilter,
};
pub use notifications::{NotificationFilter, NotificationStore};
pub use raw_events::RawEventStore;
pub use shipments::ShipmentStore;
pub use webhooks::WebhookStore;

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
}

/// The work queue: jobs are claimed with a lease, so several workers (in one process or
/// many) never hold one job at once, and a crashed worker's job is claimed again when its
/// lease runs out. `FOR UPDATE SKIP LOCKED` on PostgreSQL; SQLite's single writer.
#[async_trait]
pub trait JobStore: Send + Sync {
    /// Schedules a job. If one of the same kind and key exists, it is kept, with the earlier
    /// due time (or, while a worker holds it, the new one, applied when the worker is done).
    /// Returns the job's id.
    async fn schedule_job(&self, job: &NewJob) -> Result<JobId, StoreError>;

    /// Claims up to `limit` jobs of `kind` due at `now` and not held, oldest due first,
    /// holding each until `now + lease`.
    async fn claim_due(
        &self,
        kind: JobKind,
        limit: u32,
        lease: std::time::Duration,
        now: Timestamp,
    ) -> Result<Vec<ClaimedJob>, StoreError>;

    /// Finishes a job: removes it, or, when it was scheduled again while held, releases it
    /// to run at its new time. False when the lease was lost (another worker holds it now).
    async fn complete_job(&self, job: &ClaimedJob) -> Result<bool, StoreError>;

    /// Releases a held job to run again at `due_at` (the earlier of that and a schedule made
    /// while it was held). False when the lease was lost.
    async fn reschedule_job(&self, job: &ClaimedJob, due_at: Timestamp)
    -> Result<bool, StoreError>;

    /// When the next job of `kind` can be claimed, if there is one.
    async fn next_due(&self, kind: JobKind) -> Result<Option<Timestamp>, StoreError>;
}

/// What tracking finds (shipments, containers, transport events) and the outbox of
/// domain events, written by the tracker one lookup per transaction.
#[async_trait]
pub trait TrackingStore: Send + Sync {
    /// A request by id, whatever its account (workers act for every account).
    async fn tracking_request_for_work(
        &self,
        id: TrackingRequestId,
    ) -> Result<Option<TrackingRequest>, StoreError>;

    /// The shipment a request found, with its containers and their transport events.
    async fn tracked(&self, request: TrackingRequestId) -> Result<Option<Tracked>, StoreError>;

    /// Writes everything a lookup (or a client's stop or resume) changed, in one
    /// transaction, finishing `job` when given: only if the job's lease still holds and the
    /// request did not change since it was read.
    /// [`StoreError::Duplicate`] when the request's new carrier makes it a duplicate of
    /// another open request.
    async fn commit_tracking(
        &self,
        job: Option<&ClaimedJob>,
        commit: &tidemark_domain::tracking::Change,
    ) -> Result<CommitOutcome, StoreError>;

    /// The domain events of an account, oldest first.
    async fn domain_events(&self, account: AccountId) -> Result<Vec<DomainEvent>, StoreError>;
}

/// Everything Tidemark stores.
#[async_trait]
pub trait Store:
    AccountStore
    + TrackingRequestStore
    + JobStore
    + TrackingStore
    + ShipmentStore
    + RawEventStore
    + WebhookStore
    + NotificationStore
    + DeliveryStore
    + LeaseStore
    + std::fmt::Debug
{
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
            sqlite_synchronous: sqlite::Synchronous::Full,
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
        create: true,
        ..options.clone()
    };
    connect(&options).await.map(drop)
}
