//! The work queue on PostgreSQL: claims lock the rows they take and skip rows other
//! processes are claiming (`FOR UPDATE SKIP LOCKED`), so any number of workers in any
//! number of processes share one queue without holding one job twice.

use async_trait::async_trait;
use sqlx::Row;
use sqlx::postgres::PgRow;
use tidemark_domain::{ClaimedJob, JobId, JobKind, NewJob, Timestamp};
use time::OffsetDateTime;
use uuid::Uuid;

use super::{PgStore, time_of};
use crate::{JobStore, StoreError, sql};

pub(super) const SCHEDULE: &str = "INSERT INTO jobs (id, kind, key, due_at, created_at) VALUES ($1, $2, $3, $4, $5) \
     ON CONFLICT (kind, key) DO UPDATE SET \
     due_at = CASE WHEN jobs.lease_until IS NULL THEN LEAST(jobs.due_at, excluded.due_at) \
     ELSE excluded.due_at END, revision = jobs.revision + 1 \
     RETURNING id";

const CLAIM: &str = "UPDATE jobs SET lease_until = $3, lease_token = $4, attempts = attempts + 1 \
     WHERE id IN (SELECT id FROM jobs WHERE kind = $1 AND due_at <= $5 \
     AND (lease_until IS NULL OR lease_until <= $5) ORDER BY due_at, id LIMIT $2 \
     FOR UPDATE SKIP LOCKED) \
     RETURNING id, kind, key, due_at, attempts, revision, lease_until, lease_token";

const RESCHEDULE: &str = "UPDATE jobs SET \
     due_at = CASE WHEN revision = $3 THEN $4 ELSE LEAST(due_at, $4) END, \
     lease_until = NULL, lease_token = NULL WHERE id = $1 AND lease_token = $2";

fn job_from_row(row: &PgRow) -> Result<ClaimedJob, StoreError> {
    let kind: String = row.try_get("kind")?;
    let lease_until: Option<OffsetDateTime> = row.try_get("lease_until")?;
    let lease_token: Option<Uuid> = row.try_get("lease_token")?;
    Ok(ClaimedJob {
        id: JobId::from_uuid(row.try_get("id")?),
        kind: JobKind::parse(&kind)
            .ok_or_else(|| StoreError::corrupt(format!("job kind {kind:?}")))?,
        key: row.try_get("key")?,
        due_at: time_of(row.try_get("due_at")?),
        attempts: u32::try_from(row.try_get::<i32, _>("attempts")?).unwrap_or(u32::MAX),
        revision: row.try_get("revision")?,
        lease_until: lease_until
            .map(time_of)
            .ok_or_else(|| StoreError::corrupt("a claimed job without a lease"))?,
        lease_token: lease_token
            .ok_or_else(|| StoreError::corrupt("a claimed job without a token"))?,
    })
}

#[async_trait]
impl JobStore for PgStore {
    async fn schedule_job(&self, job: &NewJob) -> Result<JobId, StoreError> {
        let id: Uuid = sqlx::query_scalar(SCHEDULE)
            .bind(JobId::new().as_uuid())
            .bind(job.kind.as_str())
            .bind(&job.key)
            .bind(job.due_at.as_datetime())
            .bind(OffsetDateTime::now_utc())
            .fetch_one(&self.pool)
            .await?;
        Ok(JobId::from_uuid(id))
    }

    async fn claim_due(
        &self,
        kind: JobKind,
        limit: u32,
        lease: std::time::Duration,
        now: Timestamp,
    ) -> Result<Vec<ClaimedJob>, StoreError> {
        let rows = sqlx::query(CLAIM)
            .bind(kind.as_str())
            .bind(i64::from(limit))
            .bind(now.as_datetime() + lease)
            .bind(Uuid::now_v7())
            .bind(now.as_datetime())
            .fetch_all(&self.pool)
            .await?;
        let mut jobs = rows
            .iter()
            .map(job_from_row)
            .collect::<Result<Vec<_>, _>>()?;
        jobs.sort_by_key(|job| (job.due_at, job.id));
        Ok(jobs)
    }

    async fn complete_job(&self, job: &ClaimedJob) -> Result<bool, StoreError> {
        let deleted = sqlx::query(sql::COMPLETE_JOB)
            .bind(job.id.as_uuid())
            .bind(job.lease_token)
            .bind(job.revision)
            .execute(&self.pool)
            .await?
            .rows_affected();
        if deleted > 0 {
            return Ok(true);
        }
        let released = sqlx::query(sql::RELEASE_JOB)
            .bind(job.id.as_uuid())
            .bind(job.lease_token)
            .execute(&self.pool)
            .await?
            .rows_affected();
        Ok(released > 0)
    }

    async fn reschedule_job(
        &self,
        job: &ClaimedJob,
        due_at: Timestamp,
    ) -> Result<bool, StoreError> {
        let updated = sqlx::query(RESCHEDULE)
            .bind(job.id.as_uuid())
            .bind(job.lease_token)
            .bind(job.revision)
            .bind(due_at.as_datetime())
            .execute(&self.pool)
            .await?
            .rows_affected();
        Ok(updated > 0)
    }

    async fn next_due(&self, kind: JobKind) -> Result<Option<Timestamp>, StoreError> {
        let next: Option<OffsetDateTime> = sqlx::query_scalar(sql::NEXT_DUE)
            .bind(kind.as_str())
            .fetch_one(&self.pool)
            .await?;
        Ok(next.map(time_of))
    }
}
