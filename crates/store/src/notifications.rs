//! The delivery log: notifications, their attempts and frozen records, and redelivery.

use std::collections::HashMap;

use async_trait::async_trait;
use tidemark_domain::webhook::{Attempt, DeliveryStatus, LoggedAttempt, WebhookNotification};
use tidemark_domain::{
    AccountId, DomainEventId, Subject, Timestamp, WebhookId, WebhookNotificationId,
};

use crate::db::{Backend, Paged, Query, Row, parse_all};
use crate::{Page, PageRequest, StoreError, TimeRange};

/// The columns of `webhook_notifications`.
pub(crate) const NOTIFICATION_COLUMNS: &str = "SELECT id, account_id, webhook_id, domain_event_id, event, \
     delivery_status, attempts, due_at, created_at, updated_at, \
     (SELECT d.subject_type FROM domain_events d WHERE d.id = domain_event_id) AS subject_type, \
     (SELECT d.subject_id FROM domain_events d WHERE d.id = domain_event_id) AS subject_id";

/// Which notifications a list shows; empty lists and `None` do not filter.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NotificationFilter {
    /// Any of these event names.
    pub events: Vec<String>,
    /// Any of these statuses.
    pub delivery_status: Vec<DeliveryStatus>,
    /// Of this webhook.
    pub webhook_id: Option<WebhookId>,
    /// Created in this range.
    pub created_at: TimeRange,
}

/// The delivery log of webhooks: notifications, attempts and the records they carry.
#[async_trait]
pub trait NotificationStore: Send + Sync {
    /// One notification of `account`.
    async fn webhook_notification(
        &self,
        account: AccountId,
        id: WebhookNotificationId,
    ) -> Result<Option<WebhookNotification>, StoreError>;

    /// A page of `account`'s notifications, newest first.
    async fn list_webhook_notifications(
        &self,
        account: AccountId,
        filter: &NotificationFilter,
        page: PageRequest,
    ) -> Result<Page<WebhookNotification>, StoreError>;

    /// The records frozen with these events of `account` (the `included` member of their
    /// notifications), by event.
    async fn frozen_records(
        &self,
        account: AccountId,
        events: &[DomainEventId],
    ) -> Result<HashMap<DomainEventId, Vec<serde_json::Value>>, StoreError>;

    /// The attempts made to deliver these notifications of `account`, oldest first.
    async fn notification_attempts(
        &self,
        account: AccountId,
        notifications: &[WebhookNotificationId],
    ) -> Result<Vec<LoggedAttempt>, StoreError>;

    /// Makes a notification due again at `now`, whatever its state, unless a dispatcher
    /// holds it; false when there is no such notification or it is being delivered.
    async fn redeliver_notification(
        &self,
        account: AccountId,
        id: WebhookNotificationId,
        now: Timestamp,
    ) -> Result<bool, StoreError>;

    /// When the settled notification (succeeded or failed) that changed longest ago last
    /// changed; `None` when none is settled.
    async fn oldest_settled_notification(&self) -> Result<Option<Timestamp>, StoreError>;

    /// Forgets up to `limit` settled notifications, of every account, that last changed
    /// before `cutoff`, the oldest first, with their attempts (the delivery log's retention);
    /// how many. A pending one, or one made pending again meanwhile, is kept.
    async fn forget_notifications(&self, cutoff: Timestamp, limit: u32) -> Result<u64, StoreError>;

    /// How `account`'s webhook's deliveries have gone, over the notifications kept.
    async fn delivery_outcomes(
        &self,
        account: AccountId,
        webhook: WebhookId,
    ) -> Result<DeliveryOutcomes, StoreError>;
}

/// How a webhook's deliveries have gone: of the notifications attempted at least once,
/// how many have been delivered, and how many have not (failed for good, or still
/// retrying after a failed attempt).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DeliveryOutcomes {
    /// Notifications attempted at least once.
    pub attempted: u64,
    /// Of those, delivered.
    pub delivered: u64,
}

impl DeliveryOutcomes {
    /// Attempted and not delivered: failed for good or retrying.
    #[must_use]
    pub fn failing(&self) -> u64 {
        self.attempted.saturating_sub(self.delivered)
    }

    /// Whether every delivery attempted so far has failed.
    #[must_use]
    pub fn failing_every_delivery(&self) -> bool {
        self.attempted > 0 && self.delivered == 0
    }
}

pub(crate) fn notification_row(row: &Row) -> Result<WebhookNotification, StoreError> {
    let status = row.required_text("delivery_status")?;
    Ok(WebhookNotification {
        id: WebhookNotificationId::from_uuid(row.required_id("id")?),
        account_id: AccountId::from_uuid(row.required_id("account_id")?),
        webhook_id: WebhookId::from_uuid(row.required_id("webhook_id")?),
        domain_event_id: DomainEventId::from_uuid(row.required_id("domain_event_id")?),
        event: row.required_text("event")?,
        subject: {
            let kind = row.required_text("subject_type")?;
            Subject::from_parts(&kind, row.required_id("subject_id")?)
                .ok_or_else(|| StoreError::corrupt(format!("event subject {kind:?}")))?
        },
        delivery_status: DeliveryStatus::parse(&status)
            .ok_or_else(|| StoreError::corrupt(format!("delivery status {status:?}")))?,
        attempts: u32::try_from(row.int("attempts")?).unwrap_or(0),
        due_at: row.time("due_at")?,
        created_at: row.required_time("created_at")?,
        updated_at: row.required_time("updated_at")?,
    })
}

#[async_trait]
impl<T: Backend> NotificationStore for T {
    async fn delivery_outcomes(
        &self,
        account: AccountId,
        webhook: WebhookId,
    ) -> Result<DeliveryOutcomes, StoreError> {
        let mut query =
            Query::new("SELECT COUNT(*) AS attempted, COALESCE(SUM(CASE WHEN delivery_status = ");
        query
            .bind(DeliveryStatus::Succeeded.as_str())
            .push(" THEN 1 ELSE 0 END), 0) AS delivered FROM webhook_notifications WHERE account_id = ")
            .bind(account.as_uuid())
            .push(" AND webhook_id = ")
            .bind(webhook.as_uuid())
            .push(" AND attempts > 0");
        let rows = self.fetch(&query).await?;
        let Some(row) = rows.first() else {
            return Ok(DeliveryOutcomes::default());
        };
        let count = |name| row.int(name).map(|n| u64::try_from(n).unwrap_or(0));
        Ok(DeliveryOutcomes {
            attempted: count("attempted")?,
            delivered: count("delivered")?,
        })
    }

    async fn webhook_notification(
        &self,
        account: AccountId,
        id: WebhookNotificationId,
    ) -> Result<Option<WebhookNotification>, StoreError> {
        let mut query = Query::scoped(
            &format!("{NOTIFICATION_COLUMNS} FROM webhook_notifications"),
            account,
        );
        query.push(" AND id = ").bind(id.as_uuid());
        let rows = self.fetch(&query).await?;
        rows.first().map(notification_row).transpose()
    }

    async fn list_webhook_notifications(
        &self,
        account: AccountId,
        filter: &NotificationFilter,
        page: PageRequest,
    ) -> Result<Page<WebhookNotification>, StoreError> {
        let mut query = Query::scoped(" FROM webhook_notifications", account);
        if !filter.events.is_empty() {
            query
                .push(" AND event IN ")
                .bind_list(filter.events.iter().map(String::as_str));
        }
        if !filter.delivery_status.is_empty() {
            query
                .push(" AND delivery_status IN ")
                .bind_list(filter.delivery_status.iter().map(|s| s.as_str()));
        }
        if let Some(webhook) = filter.webhook_id {
            query.push(" AND webhook_id = ").bind(webhook.as_uuid());
        }
        query.push_range("created_at", filter.created_at);
        Paged::newest_first(NOTIFICATION_COLUMNS, query)
            .read(self, page, notification_row)
            .await
    }

    async fn frozen_records(
        &self,
        account: AccountId,
        events: &[DomainEventId],
    ) -> Result<HashMap<DomainEventId, Vec<serde_json::Value>>, StoreError> {
        if events.is_empty() {
            return Ok(HashMap::new());
        }
        let mut query = Query::scoped("SELECT id, included FROM domain_events", account);
        query
            .push(" AND id IN ")
            .bind_list(events.iter().map(|id| id.as_uuid()));
        let rows = self.fetch(&query).await?;
        rows.iter()
            .zip(crate::frozen::included(self, &rows).await?)
            .map(|(row, included)| Ok((DomainEventId::from_uuid(row.required_id("id")?), included)))
            .collect()
    }

    async fn notification_attempts(
        &self,
        account: AccountId,
        notifications: &[WebhookNotificationId],
    ) -> Result<Vec<LoggedAttempt>, StoreError> {
        if notifications.is_empty() {
            return Ok(Vec::new());
        }
        let mut query = Query::new(
            "SELECT a.id AS id, a.notification_id AS notification_id, \
             a.attempted_at AS attempted_at, a.status_code AS status_code, a.error AS error, \
             a.latency_ms AS latency_ms, a.response_body AS response_body \
             FROM webhook_attempts a JOIN webhook_notifications n ON n.id = a.notification_id \
             WHERE n.account_id = ",
        );
        query
            .bind(account.as_uuid())
            .push(" AND a.notification_id IN ")
            .bind_list(notifications.iter().map(|id| id.as_uuid()))
            .push(" ORDER BY a.attempted_at, a.id");
        parse_all(self.fetch(&query).await?, |row| {
            Ok(LoggedAttempt {
                id: row.required_id("id")?,
                notification_id: WebhookNotificationId::from_uuid(
                    row.required_id("notification_id")?,
                ),
                attempt: Attempt {
                    at: row.required_time("attempted_at")?,
                    status_code: row
                        .int_opt("status_code")?
                        .and_then(|code| u16::try_from(code).ok()),
                    error: row.text("error")?,
                    latency_ms: u64::try_from(row.int("latency_ms")?).unwrap_or(0),
                    response_body: row.text("response_body")?,
                },
            })
        })
    }

    async fn redeliver_notification(
        &self,
        account: AccountId,
        id: WebhookNotificationId,
        now: Timestamp,
    ) -> Result<bool, StoreError> {
        let mut again =
            Query::new("UPDATE webhook_notifications SET delivery_status = 'pending', due_at = ");
        again
            .bind(now)
            .push(", updated_at = ")
            .bind(now)
            .push(" WHERE account_id = ")
            .bind(account.as_uuid())
            .push(" AND id = ")
            .bind(id.as_uuid())
            .push(" AND (lease_until IS NULL OR lease_until <= ")
            .bind(now)
            .push(")");
        Ok(self.execute(again).await? > 0)
    }

    async fn oldest_settled_notification(&self) -> Result<Option<Timestamp>, StoreError> {
        let query = Query::new(
            "SELECT updated_at FROM webhook_notifications WHERE delivery_status <> 'pending' \
             ORDER BY updated_at, id LIMIT 1",
        );
        self.fetch(&query)
            .await?
            .first()
            .map(|row| row.required_time("updated_at"))
            .transpose()
    }

    async fn forget_notifications(&self, cutoff: Timestamp, limit: u32) -> Result<u64, StoreError> {
        // The inner query reads the index `webhook_notifications_settled`, oldest first;
        // the outer status is checked again against a row changed meanwhile (made pending
        // by a redelivery), so only what is still settled goes.
        let mut forget = Query::new(
            "DELETE FROM webhook_notifications WHERE delivery_status <> 'pending' \
             AND id IN (SELECT id FROM webhook_notifications \
             WHERE delivery_status <> 'pending' AND updated_at < ",
        );
        forget
            .bind(cutoff)
            .push(" ORDER BY updated_at, id LIMIT ")
            .bind(i64::from(limit))
            .push(")");
        self.execute(forget).await
    }
}
