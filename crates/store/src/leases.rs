//! The timing of queued work: a worker renews the leases of the work it holds every so
//! often, so a lease can be short (a process that dies stops renewing, and its jobs and
//! deliveries are claimable again a lease's length later, not after the longest a lookup
//! or a delivery may take); and a tracker started with shorter intervals brings jobs
//! queued under longer ones forward.

use async_trait::async_trait;
use tidemark_domain::{JobKind, Timestamp};
use uuid::Uuid;

use crate::StoreError;
use crate::db::{Backend, Query};

/// Renewing held leases, and bringing queued jobs forward.
#[async_trait]
pub trait LeaseStore: Send + Sync {
    /// Makes every job of `kind` that is not held and due after `latest` due at `latest`;
    /// returns how many moved.
    async fn pull_in_jobs(&self, kind: JobKind, latest: Timestamp) -> Result<u64, StoreError>;

    /// Holds the jobs claimed under `tokens` until `until`; returns how many are still held.
    async fn renew_job_leases(&self, tokens: &[Uuid], until: Timestamp) -> Result<u64, StoreError>;

    /// Holds the notifications claimed under `tokens` until `until`; returns how many are
    /// still held.
    async fn renew_notification_leases(
        &self,
        tokens: &[Uuid],
        until: Timestamp,
    ) -> Result<u64, StoreError>;
}

async fn renew<B: Backend + ?Sized>(
    backend: &B,
    table: &str,
    tokens: &[Uuid],
    until: Timestamp,
) -> Result<u64, StoreError> {
    if tokens.is_empty() {
        return Ok(0);
    }
    let mut query = Query::new(&format!("UPDATE {table} SET lease_until = "));
    query
        .bind(until)
        .push(" WHERE lease_token IN ")
        .bind_list(tokens.iter().copied());
    backend.execute(query).await
}

#[async_trait]
impl<T: Backend> LeaseStore for T {
    async fn pull_in_jobs(&self, kind: JobKind, latest: Timestamp) -> Result<u64, StoreError> {
        let mut query = Query::new("UPDATE jobs SET due_at = ");
        query
            .bind(latest)
            .push(" WHERE kind = ")
            .bind(kind.as_str().to_owned())
            .push(" AND lease_until IS NULL AND due_at > ")
            .bind(latest);
        self.execute(query).await
    }

    async fn renew_job_leases(&self, tokens: &[Uuid], until: Timestamp) -> Result<u64, StoreError> {
        renew(self, "jobs", tokens, until).await
    }

    async fn renew_notification_leases(
        &self,
        tokens: &[Uuid],
        until: Timestamp,
    ) -> Result<u64, StoreError> {
        renew(self, "webhook_notifications", tokens, until).await
    }
}
