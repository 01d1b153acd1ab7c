//! Webhook subscriptions (api.md §5), always scoped by account. Written once over
//! [`Backend`] for both backends.

use std::collections::HashMap;

use async_trait::async_trait;
use tidemark_domain::webhook::{PreviousSecret, Webhook, WebhookHeader, WebhookSecret, WebhookUrl};
use tidemark_domain::{AccountId, WebhookId};
use uuid::Uuid;

use crate::db::{Backend, Paged, Query, Row, Value, parse_all};
use crate::{Page, PageRequest, StoreError};

/// The columns of `webhooks`, in the order reads select them.
const COLUMNS: &str = "SELECT id, account_id, url, active, all_events, secret, \
                       previous_secret, previous_secret_until, headers, disabled_reason, \
                       created_at, updated_at";

/// Webhook subscriptions.
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

    /// Writes the secrets of `rotated` (`Webhook::rotate_secret`) while the stored secret is
    /// still `replaced`, so that of two rotations at once only one is kept; false when there
    /// is no such webhook or its secret changed since it was read.
    async fn rotate_webhook_secret(
        &self,
        rotated: &Webhook,
        replaced: &WebhookSecret,
    ) -> Result<bool, StoreError>;

    /// Deletes a webhook and its delivery log; false when there is no such webhook.
    async fn delete_webhook(&self, account: AccountId, id: WebhookId) -> Result<bool, StoreError>;
}

fn headers_json(webhook: &Webhook) -> Value {
    Value::json(&webhook.headers)
}

fn previous_text(webhook: &Webhook) -> Option<&str> {
    webhook.previous_secret.as_ref().map(|p| p.secret.expose())
}

fn previous_until(webhook: &Webhook) -> Option<tidemark_domain::Timestamp> {
    webhook.previous_secret.as_ref().map(|p| p.until)
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

fn secret(text: &str) -> Result<WebhookSecret, StoreError> {
    WebhookSecret::parse(text).map_err(|_| StoreError::corrupt("a webhook secret"))
}

fn previous_secret(row: &Row) -> Result<Option<PreviousSecret>, StoreError> {
    let Some(text) = row.text("previous_secret")? else {
        return Ok(None);
    };
    Ok(Some(PreviousSecret {
        secret: secret(&text)?,
        until: row.required_time("previous_secret_until")?,
    }))
}

fn webhook_row(row: &Row, events: &HashMap<Uuid, Vec<String>>) -> Result<Webhook, StoreError> {
    let id = row.required_id("id")?;
    let url = row.required_text("url")?;
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
        secret: secret(&row.required_text("secret")?)?,
        previous_secret: previous_secret(row)?,
        headers,
        disabled_reason: row.text("disabled_reason")?,
        created_at: row.required_time("created_at")?,
        updated_at: row.required_time("updated_at")?,
    })
}

/// The subscribed events of these webhooks, in the order the client gave them.
async fn events_of<B: Backend + ?Sized>(
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
async fn webhooks_of<B: Backend + ?Sized>(
    backend: &B,
    rows: Vec<Row>,
) -> Result<Vec<Webhook>, StoreError> {
    let ids: Vec<Uuid> = rows
        .iter()
        .map(|row| row.required_id("id"))
        .collect::<Result<_, _>>()?;
    let events = events_of(backend, &ids).await?;
    parse_all(rows, |row| webhook_row(row, &events))
}

#[async_trait]
impl<T: Backend> WebhookStore for T {
    async fn create_webhook(&self, webhook: &Webhook) -> Result<(), StoreError> {
        let mut insert = Query::new(
            "INSERT INTO webhooks (id, account_id, url, active, all_events, secret, \
             previous_secret, previous_secret_until, headers, disabled_reason, created_at, \
             updated_at) VALUES (",
        );
        insert
            .bind(webhook.id.as_uuid())
            .push(", ")
            .bind(webhook.account_id.as_uuid())
            .push(", ")
            .bind(webhook.url.as_str())
            .push(", ")
            .bind(Value::from(webhook.active))
            .push(", ")
            .bind(Value::from(webhook.events.is_empty()))
            .push(", ")
            .bind(webhook.secret.expose())
            .push(", ")
            .bind(previous_text(webhook))
            .push(", ")
            .bind(previous_until(webhook))
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
        self.execute_all(queries).await?;
        Ok(())
    }

    async fn webhook(
        &self,
        account: AccountId,
        id: WebhookId,
    ) -> Result<Option<Webhook>, StoreError> {
        let mut query = Query::scoped(&format!("{COLUMNS} FROM webhooks"), account);
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
        let filter = Query::scoped(" FROM webhooks", account);
        let raw = Paged::newest_first(COLUMNS, filter)
            .read(self, page, |row| Ok(row.clone()))
            .await?;
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
            .bind(Value::from(webhook.active))
            .push(", all_events = ")
            .bind(Value::from(webhook.events.is_empty()))
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
        let affected = self.execute_all(queries).await?;
        Ok(affected.first().copied().unwrap_or(0) > 0)
    }

    async fn rotate_webhook_secret(
        &self,
        rotated: &Webhook,
        replaced: &WebhookSecret,
    ) -> Result<bool, StoreError> {
        let mut update = Query::new("UPDATE webhooks SET secret = ");
        update
            .bind(rotated.secret.expose())
            .push(", previous_secret = ")
            .bind(previous_text(rotated))
            .push(", previous_secret_until = ")
            .bind(previous_until(rotated))
            .push(", updated_at = ")
            .bind(rotated.updated_at)
            .push(" WHERE account_id = ")
            .bind(rotated.account_id.as_uuid())
            .push(" AND id = ")
            .bind(rotated.id.as_uuid())
            .push(" AND secret = ")
            .bind(replaced.expose());
        Ok(self.execute(update).await? > 0)
    }

    async fn delete_webhook(&self, account: AccountId, id: WebhookId) -> Result<bool, StoreError> {
        let mut delete = Query::new("DELETE FROM webhooks WHERE account_id = ");
        delete
            .bind(account.as_uuid())
            .push(" AND id = ")
            .bind(id.as_uuid());
        Ok(self.execute(delete).await? > 0)
    }
}
