//! The work queue on SQLite: every change goes through the one writer connection, so a
//! claim (`UPDATE … RETURNING`) can never hand one job to two workers.

use async_trait::async_trait;
use sqlx::Row;
use sqlx::sqlite::SqliteRow;
use tidemark_domain::{ClaimedJob, JobId, JobKind, NewJob, Timestamp};
use uuid::Uuid;

use super::{SqliteStore, parse_time, parse_uuid, time_text};
use crate::{JobStore, StoreError, sql};

pub(super) const SCHEDULE: &str = "INSERT INTO jobs (id, kind, key, due_at, created_at) VALUES ($1, $2, $3, $4, $5) \
     ON CONFLICT (kind, key) DO UPDATE SET \
     due_at = CASE WHEN jobs.lease_until IS NULL THEN MIN(jobs.due_at, excluded.due_at) \
     ELSE excluded.due_at END, revision = jobs.revision + 1 \
     RETURNING id";

const CLAIM: &str = "UPDATE jobs SET lease_until = $3, lease_token = $4, attempts = attempts + 1 \
     WHERE id IN (SELECT id FROM jobs WHERE kind = $1 AND due_at <= $5 \
     AND (lease_until IS NULL OR lease_until <= $5) ORDER BY due_at, id LIMIT $2) \
     RETURNING id, kind, key, due_at, attempts, revision, lease_until, lease_token";

const RESCHEDULE: &str = "UPDATE jobs SET \
     due_at = CASE WHEN revision = $3 THEN $4 ELSE MIN(due_at, $4) END, \
     lease_until = NULL, lease_token = NULL WHERE id = $1 AND lease_token = $2";

fn job_from_row(row: &SqliteRow) -> Result<ClaimedJob, StoreError> {
    let kind: String = row.try_get("kind")?;
    let lease_until: Option<String> = row.try_get("lease_until")?;
    let lease_token: Option<String> = row.try_get("lease_token")?;
    Ok(ClaimedJob {
        id: JobId::from_uuid(parse_uuid(&row.try_get::<String, _>("id")?)?),
        kind: JobKind::parse(&kind)
            .ok_or_else(|| StoreError::corrupt(format!("job kind {kind:?}")))?,
        key: row.try_get("key")?,
        due_at: parse_time(&row.try_get::<String, _>("due_at")?)?,
        attempts: u32::try_from(row.try_get::<i64, _>("attempts")?).unwrap_or(u32::MAX),
        revision: row.try_get("revision")?,
        lease_until: parse_time(lease_until.as_deref().unwrap_or_default())?,
        lease_token: parse_uuid(lease_token.as_deref().unwrap_or_default())?,
    })
}

#[async_trait]
impl JobStore for SqliteStore {
    async fn schedule_job(&self, job: &NewJob) -> Result<JobId, StoreError> {
        let now = Timestamp::from_datetime(time::OffsetDateTime::now_utc());
        let id: String = sqlx::query_scalar(SCHEDULE)
            .bind(JobId::new().to_string())
            .bind(job.kind.as_str())
            .bind(&job.key)
            .bind(time_text(job.due_at))
            .bind(time_text(now))
            .fetch_one(&self.write)
            .await?;
        Ok(JobId::from_uuid(parse_uuid(&id)?))
    }

    async fn claim_due(
        &self,
        kind: JobKind,
        limit: u32,
        lease: std::time::Duration,
        now: Timestamp,
    ) -> Result<Vec<ClaimedJob>, StoreError> {
        let lease_until = Timestamp::from_datetime(now.as_datetime() + lease);
        let rows = sqlx::query(CLAIM)
            .bind(kind.as_str())
            .bind(i64::from(limit))
            .bind(time_text(lease_until))
            .bind(Uuid::now_v7().to_string())
            .bind(time_text(now))
            .fetch_all(&self.write)
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
            .bind(job.id.to_string())
            .bind(job.lease_token.to_string())
            .bind(job.revision)
            .execute(&self.write)
            .await?
            .rows_affected();
        if deleted > 0 {
            return Ok(true);
        }
        let released = sqlx::query(sql::RELEASE_JOB)
            .bind(job.id.to_string())
            .bind(job.lease_token.to_string())
            .execute(&self.write)
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
            .bind(job.id.to_string())
            .bind(job.lease_token.to_string())
            .bind(job.revision)
            .bind(time_text(due_at))
            .execute(&self.write)
            .await?
            .rows_affected();
        Ok(updated > 0)
    }

    async fn next_due(&self, kind: JobKind) -> Result<Option<Timestamp>, StoreError> {
        let next: Option<String> = sqlx::query_scalar(sql::NEXT_DUE)
            .bind(kind.as_str())
            .fetch_one(&self.write)
            .await?;
        next.as_deref().map(parse_time).transpose()
    }
}
