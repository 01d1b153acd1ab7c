//! The dispatcher's side of the delivery log: claiming due notifications with a lease, and
//! recording each attempt with what it decided, in one transaction guarded by the lease.
//! Written once over [`Backend`] for both backends.

use std::time::Duration;

use async_trait::async_trait;
use tidemark_domain::webhook::{Attempt, ClaimedNotification, Settlement};
use tidemark_domain::{Timestamp, WebhookId, WebhookNotificationId};
use uuid::Uuid;

use crate::StoreError;
use crate::db::{Backend, Query};
use crate::notifications::{NOTIFICATION_COLUMNS, notification_row};

mod claim;
mod settle;

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
    ) -> Result<Vec<ClaimedNotification>, StoreError> {
        self.claim_notifications_after(limit, per_webhook, lease, now, &[])
            .await
    }

    /// [`DeliveryStore::claim_notifications`], each webhook named in `webhooks` claimed as
    /// it says: up to its own limit in flight, and only what is due after the place given
    /// (in due order). A dispatcher that resumes where its last claim ended does not read
    /// again, on PostgreSQL, the index entries of what it delivered since the last vacuum;
    /// what it passes over (a lease of another dispatcher that ran out behind that place)
    /// waits for a claim from the start.
    async fn claim_notifications_after(
        &self,
        limit: u32,
        per_webhook: u32,
        lease: Duration,
        now: Timestamp,
        webhooks: &[WebhookClaim],
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

/// How one webhook's notifications are claimed, where it differs from the claim's default.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WebhookClaim {
    /// The webhook.
    pub webhook: WebhookId,
    /// Only what is due after this notification (when it was due, its id), in due order.
    pub after: Option<(Timestamp, WebhookNotificationId)>,
    /// At most this many of its notifications in flight, in place of the claim's own.
    pub in_flight: u32,
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
    async fn claim_notifications_after(
        &self,
        limit: u32,
        per_webhook: u32,
        lease: Duration,
        now: Timestamp,
        webhooks: &[WebhookClaim],
    ) -> Result<Vec<ClaimedNotification>, StoreError> {
        let token = Uuid::now_v7();
        let mut claim = if self.dialect().skip_locked {
            claim::by_webhook(token, (limit, per_webhook), lease, now, webhooks)
        } else {
            claim::per_webhook_in_order(token, (limit, per_webhook), lease, now, webhooks)
        };
        // The claimed rows come back from the claim itself, with their events' included
        // records (keys of frozen records, read next), oldest due first.
        let columns = NOTIFICATION_COLUMNS.trim_start_matches("SELECT ");
        claim.push(&format!(
            " RETURNING {columns}, (SELECT d.included FROM domain_events d \
             WHERE d.id = domain_event_id) AS included"
        ));
        let mut rows = self.returning(claim).await?;
        if rows.is_empty() {
            return Ok(Vec::new());
        }
        let mut keyed = rows
            .drain(..)
            .map(|row| Ok(((row.time("due_at")?, row.required_id("id")?), row)))
            .collect::<Result<Vec<_>, StoreError>>()?;
        keyed.sort_by_key(|(key, _)| *key);
        let rows: Vec<_> = keyed.into_iter().map(|(_, row)| row).collect();
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
        if batch.is_empty() {
            return Ok(Vec::new());
        }
        let (unit, settling) = settle::unit(self.dialect(), batch);
        let mut written = self.write(unit).await?;
        let settled = settling
            .into_iter()
            .map(|at| {
                written
                    .rows(at)
                    .iter()
                    .map(|row| row.required_id("id"))
                    .collect::<Result<Vec<_>, _>>()
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(settle::held_of(batch, &settled))
    }
}
