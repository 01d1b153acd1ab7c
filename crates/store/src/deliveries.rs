//! The dispatcher's side of the delivery log: claiming due notifications with a lease, and
//! recording each attempt with what it decided, in one transaction guarded by the lease.
//! Written once over [`Backend`] for both backends.

use std::time::Duration;

use async_trait::async_trait;
use tidemark_domain::webhook::{Attempt, ClaimedNotification, DeliveryStatus, Settlement};
use tidemark_domain::{Timestamp, WebhookId};
use uuid::Uuid;

use crate::StoreError;
use crate::db::{Backend, Query, Value};
use crate::notifications::{NOTIFICATION_COLUMNS, notification_row};

mod claim;

/// Why a webhook was turned off after failing for too long.
pub const FAILING_TOO_LONG: &str = "every delivery failed for 5 days";

/// Claiming and settling deliveries.
#[async_trait]
pub trait DeliveryStore: Send + Sync {
    /// Claims up to `limit` pending notifications due at `now` whose webhook is active,
    /// oldest due first, for `lease`, never so many that a webhook would have more than
    /// `per_webhook` held at once (by any dispatcher). A claim whose lease ran out is
    /// claimed again.
    async fn claim_notifications(
        &self,
        limit: u32,
        per_webhook: u32,
        lease: Duration,
        now: Timestamp,
    ) -> Result<Vec<ClaimedNotification>, StoreError>;

    /// When the next pending notification of an active webhook falls due.
    async fn next_notification_due(&self) -> Result<Option<Timestamp>, StoreError>;

    /// Each active webhook's notifications waiting to be delivered (pending), by webhook.
    async fn webhook_backlogs(&self) -> Result<Vec<(WebhookId, u64)>, StoreError>;

    /// Gives a claimed notification back without an attempt, due again at `due_at` (its
    /// webhook had as many deliveries in flight as it may). False if the claim was lost.
    async fn release_notification(
        &self,
        claimed: &ClaimedNotification,
        due_at: Timestamp,
    ) -> Result<bool, StoreError>;

    /// Records `attempt` and what it decided, if the claim still holds (false otherwise,
    /// and nothing is written). A failure also turns the webhook off when it has been
    /// failing since before `failing_cutoff`.
    async fn settle_notification(
        &self,
        claimed: &ClaimedNotification,
        attempt: &Attempt,
        settlement: &Settlement,
        failing_cutoff: Timestamp,
    ) -> Result<bool, StoreError> {
        let settled = self
            .settle_notifications(&[Settle {
                claimed,
                attempt,
                settlement,
                failing_cutoff,
            }])
            .await?;
        Ok(settled.first().copied().unwrap_or(false))
    }

    /// Settles several notifications in one transaction (one commit for many attempts);
    /// each as [`DeliveryStore::settle_notification`] would, in order. Whether each claim
    /// still held.
    async fn settle_notifications(&self, batch: &[Settle<'_>]) -> Result<Vec<bool>, StoreError>;
}

/// One attempt to record, and what it decided.
#[derive(Debug, Clone, Copy)]
pub struct Settle<'a> {
    /// The notification, as claimed.
    pub claimed: &'a ClaimedNotification,
    /// The attempt.
    pub attempt: &'a Attempt,
    /// What it decided.
    pub settlement: &'a Settlement,
    /// A webhook failing since before this is turned off by a failure.
    pub failing_cutoff: Timestamp,
}

/// Appends `AND EXISTS (the claim still holds)`.
fn held(query: &mut Query, claimed: &ClaimedNotification) {
    query
        .push(" AND EXISTS (SELECT 1 FROM webhook_notifications h WHERE h.id = ")
        .bind(claimed.notification.id.as_uuid())
        .push(" AND h.lease_token = ")
        .bind(claimed.lease_token)
        .push(")");
}

#[async_trait]
impl<T: Backend> DeliveryStore for T {
    async fn claim_notifications(
        &self,
        limit: u32,
        per_webhook: u32,
        lease: Duration,
        now: Timestamp,
    ) -> Result<Vec<ClaimedNotification>, StoreError> {
        let token = Uuid::now_v7();
        let claim = if self.dialect().skip_locked {
            claim::by_webhook(token, (limit, per_webhook), lease, now)
        } else {
            claim::per_webhook_in_order(token, (limit, per_webhook), lease, now)
        };
        if self.execute(claim).await? == 0 {
            return Ok(Vec::new());
        }
        let mut read = Query::new(NOTIFICATION_COLUMNS);
        read.push(
            ", (SELECT d.included FROM domain_events d WHERE d.id = domain_event_id) \
             AS included FROM webhook_notifications WHERE lease_token = ",
        )
        .bind(token)
        .push(" ORDER BY due_at, id");
        let rows = self.fetch(&read).await?;
        rows.iter()
            .zip(crate::frozen::included(self, &rows).await?)
            .map(|(row, included)| {
                Ok(ClaimedNotification {
                    notification: notification_row(row)?,
                    lease_token: token,
                    included,
                })
            })
            .collect()
    }

    async fn next_notification_due(&self) -> Result<Option<Timestamp>, StoreError> {
        let query = Query::new(
            "SELECT n.due_at AS due_at, n.id AS id FROM webhook_notifications n \
             JOIN webhooks w ON w.id = n.webhook_id \
             WHERE n.delivery_status = 'pending' AND w.active ORDER BY n.due_at LIMIT 1",
        );
        self.fetch(&query)
            .await?
            .first()
            .map(|row| row.time("due_at"))
            .transpose()
            .map(Option::flatten)
    }

    async fn webhook_backlogs(&self) -> Result<Vec<(WebhookId, u64)>, StoreError> {
        let query = Query::new(
            "SELECT n.webhook_id AS webhook_id, COUNT(*) AS waiting FROM webhook_notifications n \
             JOIN webhooks w ON w.id = n.webhook_id \
             WHERE n.delivery_status = 'pending' AND w.active GROUP BY n.webhook_id",
        );
        self.fetch(&query)
            .await?
            .iter()
            .map(|row| {
                Ok((
                    WebhookId::from_uuid(row.required_id("webhook_id")?),
                    u64::try_from(row.int("waiting")?).unwrap_or(0),
                ))
            })
            .collect()
    }

    async fn release_notification(
        &self,
        claimed: &ClaimedNotification,
        due_at: Timestamp,
    ) -> Result<bool, StoreError> {
        let mut release = Query::new("UPDATE webhook_notifications SET due_at = ");
        release
            .bind(due_at)
            .push(", lease_until = NULL, lease_token = NULL WHERE id = ")
            .bind(claimed.notification.id.as_uuid())
            .push(" AND lease_token = ")
            .bind(claimed.lease_token);
        Ok(self.execute(release).await? > 0)
    }

    async fn settle_notifications(&self, batch: &[Settle<'_>]) -> Result<Vec<bool>, StoreError> {
        let mut statements = Vec::with_capacity(batch.len() * 4);
        // The index of each item's last statement: the one that settles it.
        let mut settles = Vec::with_capacity(batch.len());
        for item in batch {
            settle_statements(item, &mut statements);
            settles.push(statements.len() - 1);
        }
        if statements.is_empty() {
            return Ok(Vec::new());
        }
        let affected = self.execute_all(statements).await?;
        Ok(settles
            .into_iter()
            .map(|at| affected.get(at).copied().unwrap_or(0) > 0)
            .collect())
    }
}

/// The statements that record `item`'s attempt and its outcome, the settling one last.
fn settle_statements(item: &Settle<'_>, statements: &mut Vec<Query>) {
    statements.push(attempt_log(item));
    statements.extend(webhook_health(item));
    statements.push(settle(item));
}

/// The attempt, logged while the claim holds.
fn attempt_log(item: &Settle<'_>) -> Query {
    let Settle {
        claimed, attempt, ..
    } = *item;
    let mut log = Query::new(
        "INSERT INTO webhook_attempts (id, notification_id, attempted_at, status_code, error, \
             latency_ms, response_body) SELECT ",
    );
    log.bind(Uuid::now_v7())
        .push(", id, ")
        .bind(attempt.at)
        .push(", ")
        .bind(Value::int(attempt.status_code))
        .push(", ")
        .bind(attempt.error.clone())
        .push(", ")
        .bind(i64::try_from(attempt.latency_ms).unwrap_or(i64::MAX))
        .push(", ")
        .bind(attempt.response_body.clone())
        .push(" FROM webhook_notifications WHERE id = ")
        .bind(claimed.notification.id.as_uuid())
        .push(" AND lease_token = ")
        .bind(claimed.lease_token);
    log
}

/// The webhook's health: a success clears its failing streak; a failure starts one (if
/// none runs) and turns the webhook off once it is too old, or at once on 410.
fn webhook_health(item: &Settle<'_>) -> Vec<Query> {
    let Settle {
        claimed,
        attempt,
        settlement,
        failing_cutoff,
    } = *item;
    let webhook = claimed.notification.webhook_id.as_uuid();
    let mut health = Query::new("UPDATE webhooks SET ");
    match settlement {
        Settlement::Succeeded => {
            // Written only when a streak ends: most successes change nothing here.
            health
                .push("failing_since = NULL WHERE id = ")
                .bind(webhook)
                .push(" AND failing_since IS NOT NULL");
        }
        Settlement::Retry(_) | Settlement::Failed => {
            health
                .push("failing_since = COALESCE(failing_since, ")
                .bind(attempt.at)
                .push(") WHERE id = ")
                .bind(webhook);
        }
        Settlement::DisableWebhook(reason) => {
            health
                .push("active = ")
                .bind(false)
                .push(", disabled_reason = ")
                .bind(reason.as_str())
                .push(", updated_at = ")
                .bind(attempt.at)
                .push(" WHERE id = ")
                .bind(webhook);
        }
    }
    held(&mut health, claimed);
    let mut queries = vec![health];
    if matches!(settlement, Settlement::Retry(_) | Settlement::Failed) {
        let mut too_long = Query::new("UPDATE webhooks SET active = ");
        too_long
            .bind(false)
            .push(", disabled_reason = ")
            .bind(FAILING_TOO_LONG)
            .push(", updated_at = ")
            .bind(attempt.at)
            .push(" WHERE id = ")
            .bind(webhook)
            .push(" AND active AND failing_since <= ")
            .bind(failing_cutoff);
        held(&mut too_long, claimed);
        queries.push(too_long);
    }
    queries
}

/// The notification's new state, written only under its claim.
fn settle(item: &Settle<'_>) -> Query {
    let Settle {
        claimed,
        attempt,
        settlement,
        ..
    } = *item;
    let (status, due) = match settlement {
        Settlement::Succeeded => (DeliveryStatus::Succeeded, None),
        Settlement::Retry(at) => (DeliveryStatus::Pending, Some(*at)),
        Settlement::Failed | Settlement::DisableWebhook(_) => (DeliveryStatus::Failed, None),
    };
    let mut settle = Query::new("UPDATE webhook_notifications SET delivery_status = ");
    settle
        .bind(status.as_str())
        .push(", attempts = attempts + 1, due_at = ")
        .bind(due)
        .push(", lease_until = NULL, lease_token = NULL, updated_at = ")
        .bind(attempt.at)
        .push(" WHERE id = ")
        .bind(claimed.notification.id.as_uuid())
        .push(" AND lease_token = ")
        .bind(claimed.lease_token);
    settle
}
