//! The work queue: its SQL and rows, written once. Claims take a lease, so several workers
//! (in one process or many) never hold one job at once; on PostgreSQL the claim locks the
//! rows it takes and skips rows other processes are claiming (`FOR UPDATE SKIP LOCKED`),
//! on SQLite the one writer serializes claims.

use async_trait::async_trait;
use tidemark_domain::{ClaimedJob, JobId, JobKind, NewJob, Timestamp};
use uuid::Uuid;

use crate::StoreError;
use crate::db::{Backend, Dialect, Query, Row, Unit, Value};

/// The work queue: jobs are claimed with a lease, so several workers (in one process or
/// many) never hold one job at once, and a crashed worker's job is claimed again when its
/// lease runs out.
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

    /// The jobs of `kind` due at `now`, held or not, and when the oldest of them fell due.
    async fn jobs_due(
        &self,
        kind: JobKind,
        now: Timestamp,
    ) -> Result<(u64, Option<Timestamp>), StoreError>;
}

/// The job upsert: a job of the same kind and key is kept, due at the earlier time (or,
/// while held, at the new one, applied when its worker is done); one scheduled only if
/// absent leaves an existing job as it is.
pub(crate) fn schedule(dialect: &Dialect, job: &NewJob, now: Timestamp) -> Query {
    let on_conflict = if job.if_absent {
        // A write that changes nothing, so the existing job's id is returned.
        "DO UPDATE SET due_at = jobs.due_at".to_owned()
    } else {
        format!(
            "DO UPDATE SET due_at = CASE WHEN jobs.lease_until IS NULL \
             THEN {least}(jobs.due_at, excluded.due_at) ELSE excluded.due_at END, \
             revision = jobs.revision + 1",
            least = dialect.least
        )
    };
    Query::with(
        &format!(
            "INSERT INTO jobs (id, kind, key, due_at, created_at) VALUES ($1, $2, $3, $4, $5) \
             ON CONFLICT (kind, key) {on_conflict} RETURNING id"
        ),
        vec![
            JobId::new().as_uuid().into(),
            job.kind.as_str().into(),
            job.key.as_str().into(),
            job.due_at.into(),
            now.into(),
        ],
    )
}

/// Finishing a held job: removing it, unless it was scheduled again while held, or else
/// releasing it, keeping the new schedule. One of the two affects a row exactly when the
/// lease still holds.
pub(crate) fn finish(job: &ClaimedJob) -> [Query; 2] {
    let id = job.id.as_uuid();
    [
        Query::with(
            "DELETE FROM jobs WHERE id = $1 AND lease_token = $2 AND revision = $3",
            vec![id.into(), job.lease_token.into(), job.revision.into()],
        ),
        Query::with(
            "UPDATE jobs SET lease_until = NULL, lease_token = NULL \
             WHERE id = $1 AND lease_token = $2",
            vec![id.into(), job.lease_token.into()],
        ),
    ]
}

fn parse(row: &Row) -> Result<ClaimedJob, StoreError> {
    Ok(ClaimedJob {
        id: JobId::from_uuid(row.required_id("id")?),
        kind: row.parsed("kind", JobKind::parse)?,
        key: row.required_text("key")?,
        due_at: row.required_time("due_at")?,
        attempts: u32::try_from(row.int("attempts")?).unwrap_or(u32::MAX),
        revision: row.int("revision")?,
        lease_until: row.required_time("lease_until")?,
        lease_token: row.required_id("lease_token")?,
    })
}

#[async_trait]
impl<B: Backend> JobStore for B {
    async fn schedule_job(&self, job: &NewJob) -> Result<JobId, StoreError> {
        let now = Timestamp::from_datetime(time::OffsetDateTime::now_utc());
        let rows = self.returning(schedule(self.dialect(), job, now)).await?;
        let id = rows
            .first()
            .ok_or_else(|| StoreError::corrupt("a job upsert returned no id"))?
            .required_id("id")?;
        Ok(JobId::from_uuid(id))
    }

    async fn claim_due(
        &self,
        kind: JobKind,
        limit: u32,
        lease: std::time::Duration,
        now: Timestamp,
    ) -> Result<Vec<ClaimedJob>, StoreError> {
        let claim = Query::with(
            &format!(
                "UPDATE jobs SET lease_until = $3, lease_token = $4, attempts = attempts + 1 \
                 WHERE id IN (SELECT id FROM jobs WHERE kind = $1 AND due_at <= $5 \
                 AND (lease_until IS NULL OR lease_until <= $5) ORDER BY due_at, id LIMIT $2{}) \
                 RETURNING id, kind, key, due_at, attempts, revision, lease_until, lease_token",
                self.dialect().skip_locked("jobs")
            ),
            vec![
                kind.as_str().into(),
                i64::from(limit).into(),
                (now + lease).into(),
                Uuid::now_v7().into(),
                now.into(),
            ],
        );
        let mut jobs = self
            .returning(claim)
            .await?
            .iter()
            .map(parse)
            .collect::<Result<Vec<_>, _>>()?;
        jobs.sort_by_key(|job| (job.due_at, job.id));
        Ok(jobs)
    }

    async fn complete_job(&self, job: &ClaimedJob) -> Result<bool, StoreError> {
        let affected = self.execute_all(finish(job).into()).await?;
        Ok(affected.iter().any(|rows| *rows > 0))
    }

    async fn reschedule_job(
        &self,
        job: &ClaimedJob,
        due_at: Timestamp,
    ) -> Result<bool, StoreError> {
        let reschedule = Query::with(
            &format!(
                "UPDATE jobs SET due_at = CASE WHEN revision = $3 THEN $4 \
                 ELSE {least}(due_at, $4) END, lease_until = NULL, lease_token = NULL \
                 WHERE id = $1 AND lease_token = $2",
                least = self.dialect().least
            ),
            vec![
                job.id.as_uuid().into(),
                job.lease_token.into(),
                job.revision.into(),
                due_at.into(),
            ],
        );
        Ok(self.execute(reschedule).await? > 0)
    }

    async fn next_due(&self, kind: JobKind) -> Result<Option<Timestamp>, StoreError> {
        // A job can be claimed at its due time, or when its lease ends if that is later:
        // the first unheld (or soon free) job in due order, and the earliest lease that
        // outlasts its job's due time, each read from its index (`jobs_due`, `jobs_leased`).
        let next = Query::with(
            "SELECT MIN(next) AS next FROM (\
             SELECT next FROM (SELECT due_at AS next FROM jobs WHERE kind = $1 \
             AND (lease_until IS NULL OR lease_until <= due_at) ORDER BY due_at LIMIT 1) AS free \
             UNION ALL \
             SELECT MIN(lease_until) AS next FROM jobs WHERE kind = $1 AND lease_until > due_at\
             ) AS due",
            vec![Value::from(kind.as_str())],
        );
        Ok(self
            .fetch_one(&next)
            .await?
            .map(|row| row.time("next"))
            .transpose()?
            .flatten())
    }

    async fn jobs_due(
        &self,
        kind: JobKind,
        now: Timestamp,
    ) -> Result<(u64, Option<Timestamp>), StoreError> {
        let due = Query::with(
            "SELECT COUNT(*) AS due, MIN(due_at) AS oldest FROM jobs WHERE kind = $1 AND due_at <= $2",
            vec![Value::from(kind.as_str()), Value::from(now)],
        );
        let Some(row) = self.fetch_one(&due).await? else {
            return Ok((0, None));
        };
        Ok((
            u64::try_from(row.int("due")?).unwrap_or(0),
            row.time("oldest")?,
        ))
    }
}

/// A unit that finishes `job` when its lease still holds, and is undone otherwise.
pub(crate) fn guard_lease(unit: &mut Unit, job: &ClaimedJob) -> Vec<usize> {
    let [delete, release] = finish(job);
    let steps = vec![unit.push(delete), unit.push(release)];
    unit.guards.push(steps.clone());
    steps
}
