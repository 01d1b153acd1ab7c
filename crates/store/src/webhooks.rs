//! Webhook subscriptions (api.md §5), always scoped by account. Written once over
//! [`Neutral`] for both backends.

use std::collections::HashMap;

use async_trait::async_trait;
use tidemark_domain::webhook::{
    Attempt, DeliveryStatus, LoggedAttempt, Webhook, WebhookHeader, WebhookNotification,
    WebhookSecret, WebhookUrl,
};
use tidemark_domain::{AccountId, DomainEventId, Subject, WebhookId, WebhookNotificationId};
use uuid::Uuid;

use crate::neutral::{Neutral, OwnedRow, Query};
use crate::plan::Value;
use crate::rows::Columns;
use crate::shipments::{page_of, parse_all, push_range, scoped};
use crate::{Page, PageRequest, StoreError, TimeRange};

/// The columns of `webhooks`, in the order reads select them.
const COLUMNS: &str = "SELECT id, account_id, url, active, all_events, secret, headers, \
                       disabled_reason, created_at, updated_at";

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

/// Webhook subscriptions and their delivery log.
#[async_trait]
pub trait WebhookStore: Send + Sync {
    /// Stores a new webhook.
    async fn create_webhook(&self, webhook: &Webhook) -> Result<(), StoreError>;

    /// One webhook of `account`.
    async fn webhook(
        &self,
        account: AccountId,
        id: WebhookId,
    ) -> Result<Option<Webhook>, StoreError>;

    /// The webhooks with these ids, whatever their account: what a dispatcher delivers
    /// a claimed batch to.
    async fn webhooks_by_id(&self, ids: &[WebhookId]) -> Result<Vec<Webhook>, StoreError>;

    /// A page of `account`'s webhooks, newest first.
    async fn list_webhooks(
        &self,
        account: AccountId,
        page: PageRequest,
    ) -> Result<Page<Webhook>, StoreError>;

    /// Replaces what a client may change (and `disabled_reason`); false when there is no
    /// such webhook.
    async fn update_webhook(&self, webhook: &Webhook) -> Result<bool, StoreError>;

    /// Deletes a webhook and its delivery log; false when there is no such webhook.
    async fn delete_webhook(&self, account: AccountId, id: WebhookId) -> Result<bool, StoreError>;

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
        now: tidemark_domain::Timestamp,
    ) -> Result<bool, StoreError>;
}

pub(crate) fn notification_row(row: &OwnedRow) -> Result<WebhookNotification, StoreError> {
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

fn headers_json(webhook: &Webhook) -> Value {
    Value::Json(serde_json::to_string(&webhook.headers).unwrap_or_else(|_| "[]".to_owned()))
}

/// The statements that replace `webhook`'s subscribed events, touching only a webhook of
/// its account.
fn event_rows(webhook: &Webhook) -> Vec<Query> {
    let owned = |query: &mut Query| {
        query
            .push(" FROM webhooks WHERE id = ")
            .bind(webhook.id.as_uuid())
            .push(" AND account_id = ")
            .bind(webhook.account_id.as_uuid());
    };
    let mut queries = Vec::with_capacity(webhook.events.len() + 1);
    let mut delete = Query::new("DELETE FROM webhook_events WHERE webhook_id IN (SELECT id");
    owned(&mut delete);
    delete.push(")");
    queries.push(delete);
    for (position, event) in webhook.events.iter().enumerate() {
        let mut insert =
            Query::new("INSERT INTO webhook_events (webhook_id, event, position) SELECT id, ");
        insert
            .bind(event.as_str())
            .push(", ")
            .bind(Value::Int(i64::try_from(position).ok()));
        owned(&mut insert);
        queries.push(insert);
    }
    queries
}

fn webhook_row(row: &OwnedRow, events: &HashMap<Uuid, Vec<String>>) -> Result<Webhook, StoreError> {
    let id = row.required_id("id")?;
    let url = row.required_text("url")?;
    let secret = row.required_text("secret")?;
    let headers: Vec<WebhookHeader> = row.json("headers")?;
    Ok(Webhook {
        id: WebhookId::from_uuid(id),
        account_id: AccountId::from_uuid(row.required_id("account_id")?),
        url: WebhookUrl::from_stored(&url)
            .map_err(|_| StoreError::corrupt(format!("webhook url {url:?}")))?,
        active: row.int("active")? != 0,
        events: if row.int("all_events")? != 0 {
            Vec::new()
        } else {
            events.get(&id).cloned().unwrap_or_default()
        },
        secret: WebhookSecret::parse(&secret)
            .map_err(|_| StoreError::corrupt("a webhook secret"))?,
        headers,
        disabled_reason: row.text("disabled_reason")?,
        created_at: row.required_time("created_at")?,
        updated_at: row.required_time("updated_at")?,
    })
}

/// The subscribed events of these webhooks, in the order the client gave them.
async fn events_of<B: Neutral + ?Sized>(
    backend: &B,
    ids: &[Uuid],
) -> Result<HashMap<Uuid, Vec<String>>, StoreError> {
    let mut query = Query::new("SELECT webhook_id, event FROM webhook_events WHERE webhook_id IN ");
    query
        .bind_list(ids.iter().copied())
        .push(" ORDER BY webhook_id, position");
    let mut events: HashMap<Uuid, Vec<String>> = HashMap::new();
    for row in backend.fetch(&query).await? {
        events
            .entry(row.required_id("webhook_id")?)
            .or_default()
            .push(row.required_text("event")?);
    }
    Ok(events)
}

/// Parses rows of `webhooks`, with their events.
async fn webhooks_of<B: Neutral + ?Sized>(
    backend: &B,
    rows: Vec<OwnedRow>,
) -> Result<Vec<Webhook>, StoreError> {
    let ids: Vec<Uuid> = rows
        .iter()
        .map(|row| row.required_id("id"))
        .collect::<Result<_, _>>()?;
    let events = events_of(backend, &ids).await?;
    parse_all(rows, |row| webhook_row(row, &events))
}

#[async_trait]
impl<T: Neutral> WebhookStore for T {
    async fn create_webhook(&self, webhook: &Webhook) -> Result<(), StoreError> {
        let mut insert = Query::new(
            "INSERT INTO webhooks (id, account_id, url, active, all_events, secret, headers, \
             disabled_reason, created_at, updated_at) VALUES (",
        );
        insert
            .bind(webhook.id.as_uuid())
            .push(", ")
            .bind(webhook.account_id.as_uuid())
            .push(", ")
            .bind(webhook.url.as_str())
            .push(", ")
            .bind(Value::Bool(webhook.active))
            .push(", ")
            .bind(Value::Bool(webhook.events.is_empty()))
            .push(", ")
            .bind(webhook.secret.expose())
            .push(", ")
            .bind(headers_json(webhook))
            .push(", ")
            .bind(webhook.disabled_reason.clone())
            .push(", ")
            .bind(webhook.created_at)
            .push(", ")
            .bind(webhook.updated_at)
            .push(")");
        let mut queries = vec![insert];
        queries.extend(event_rows(webhook).into_iter().skip(1));
        self.execute_all(&queries).await?;
        Ok(())
    }

    async fn webhook(
        &self,
        account: AccountId,
        id: WebhookId,
    ) -> Result<Option<Webhook>, StoreError> {
        let mut query = scoped(&format!("{COLUMNS} FROM webhooks"), account);
        query.push(" AND id = ").bind(id.as_uuid());
        let rows = self.fetch(&query).await?;
        Ok(webhooks_of(self, rows).await?.into_iter().next())
    }

    async fn webhooks_by_id(&self, ids: &[WebhookId]) -> Result<Vec<Webhook>, StoreError> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let mut query = Query::new(&format!("{COLUMNS} FROM webhooks WHERE id IN "));
        query.bind_list(ids.iter().map(|id| id.as_uuid()));
        let rows = self.fetch(&query).await?;
        webhooks_of(self, rows).await
    }

    async fn list_webhooks(
        &self,
        account: AccountId,
        page: PageRequest,
    ) -> Result<Page<Webhook>, StoreError> {
        let filter = scoped(" FROM webhooks", account);
        let raw = page_of(self, COLUMNS, filter, page, |row| Ok(row.clone())).await?;
        Ok(Page {
            items: webhooks_of(self, raw.items).await?,
            total: raw.total,
        })
    }

    async fn update_webhook(&self, webhook: &Webhook) -> Result<bool, StoreError> {
        let mut update = Query::new("UPDATE webhooks SET url = ");
        update
            .bind(webhook.url.as_str())
            .push(", active = ")
            .bind(Value::Bool(webhook.active))
            .push(", all_events = ")
            .bind(Value::Bool(webhook.events.is_empty()))
            .push(", headers = ")
            .bind(headers_json(webhook))
            .push(", disabled_reason = ")
            .bind(webhook.disabled_reason.clone())
            .push(", updated_at = ")
            .bind(webhook.updated_at)
            .push(" WHERE account_id = ")
            .bind(webhook.account_id.as_uuid())
            .push(" AND id = ")
            .bind(webhook.id.as_uuid());
        let mut queries = vec![update];
        queries.extend(event_rows(webhook));
        let affected = self.execute_all(&queries).await?;
        Ok(affected.first().copied().unwrap_or(0) > 0)
    }

    async fn delete_webhook(&self, account: AccountId, id: WebhookId) -> Result<bool, StoreError> {
        let mut delete = Query::new("DELETE FROM webhooks WHERE account_id = ");
        delete
            .bind(account.as_uuid())
            .push(" AND id = ")
            .bind(id.as_uuid());
        Ok(self.execute(&delete).await? > 0)
    }

    async fn webhook_notification(
        &self,
        account: AccountId,
        id: WebhookNotificationId,
    ) -> Result<Option<WebhookNotification>, StoreError> {
        let mut query = scoped(
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
        let mut query = scoped(" FROM webhook_notifications", account);
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
        push_range(&mut query, "created_at", filter.created_at);
        page_of(self, NOTIFICATION_COLUMNS, query, page, notification_row).await
    }

    async fn frozen_records(
        &self,
        account: AccountId,
        events: &[DomainEventId],
    ) -> Result<HashMap<DomainEventId, Vec<serde_json::Value>>, StoreError> {
        if events.is_empty() {
            return Ok(HashMap::new());
        }
        let mut query = scoped("SELECT id, included FROM domain_events", account);
        query
            .push(" AND id IN ")
            .bind_list(events.iter().map(|id| id.as_uuid()));
        self.fetch(&query)
            .await?
            .iter()
            .map(|row| {
                Ok((
                    DomainEventId::from_uuid(row.required_id("id")?),
                    row.json("included")?,
                ))
            })
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
        now: tidemark_domain::Timestamp,
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
        Ok(self.execute(&again).await? > 0)
    }
}
