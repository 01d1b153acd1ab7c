//! What the API and the console do to webhooks beyond storing them: rotate a secret, send
//! a sample of an event (a test), and make a notification due again (a redelivery).

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};
use tidemark_domain::lifecycle::RequestEvent;
use tidemark_domain::webhook::payload::{self, Records};
use tidemark_domain::webhook::{
    DeliveryStatus, Example, Exchange, Networks, Webhook, WebhookDraft, WebhookNotification,
    example_of, sample,
};
use tidemark_domain::{
    AccountId, CarrierMatrix, Clock, EventName, Timestamp, WebhookId, WebhookNotificationId,
};
use tidemark_store::Store;
use tidemark_wire::EventRecords;

use crate::Error;

/// Sends a signed notification body to a webhook exactly as a delivery is sent; the
/// binary gives the dispatcher's own sender.
#[async_trait::async_trait]
pub trait WebhookSender: Send + Sync + fmt::Debug {
    /// POSTs `body` to `webhook` as message `id`, signed, and says what happened.
    async fn send(&self, webhook: &Webhook, id: &str, body: Vec<u8>) -> Exchange;
}

/// The webhook use cases.
#[derive(Debug, Clone)]
pub struct Webhooks {
    store: Arc<dyn Store>,
    clock: Arc<dyn Clock>,
    render: EventRecords,
    sender: Arc<dyn WebhookSender>,
    secret_grace: Duration,
}

impl Webhooks {
    /// Over `store`, sending tests with `sender`; a rotated secret keeps signing for
    /// `secret_grace`.
    #[must_use]
    pub fn new(
        store: Arc<dyn Store>,
        clock: Arc<dyn Clock>,
        matrix: Arc<CarrierMatrix>,
        sender: Arc<dyn WebhookSender>,
        secret_grace: Duration,
    ) -> Self {
        Self {
            store,
            clock,
            render: EventRecords::new(matrix),
            sender,
            secret_grace,
        }
    }

    /// Renders samples' records with links under `base` (the configured public URL),
    /// when given, as deliveries carry them.
    #[must_use]
    pub fn links_under(mut self, base: Option<&str>) -> Self {
        self.render = self.render.under(base);
        self
    }

    /// How long a rotated secret keeps signing.
    #[must_use]
    pub const fn secret_grace(&self) -> Duration {
        self.secret_grace
    }

    /// Subscribes `draft`'s URL for `account`, as the domain checks a webhook
    /// (`WebhookDraft::create`: the URL, its address outside `networks`' refusals, the
    /// events, the headers); the webhook made, with its secret.
    ///
    /// # Errors
    /// `Invalid` with what is wrong, or the store's failure.
    pub async fn create(
        &self,
        account: AccountId,
        draft: WebhookDraft,
        networks: &Networks,
    ) -> Result<Webhook, Error> {
        let webhook = draft
            .create(account, networks, self.clock.now())
            .map_err(Error::Invalid)?;
        self.store.create_webhook(&webhook).await?;
        Ok(webhook)
    }

    /// Changes what `draft` gives of `current` (`WebhookDraft::apply`); the webhook changed.
    ///
    /// # Errors
    /// `Invalid` with what is wrong, `Missing` when it is gone, or the store's failure.
    pub async fn change(
        &self,
        current: &Webhook,
        draft: WebhookDraft,
        networks: &Networks,
    ) -> Result<Webhook, Error> {
        let changed = draft
            .apply(current, networks, self.clock.now())
            .map_err(Error::Invalid)?;
        if !self.store.update_webhook(&changed).await? {
            return Err(Error::Missing("webhook"));
        }
        Ok(changed)
    }

    /// Deletes `account`'s webhook `id` and its delivery log.
    ///
    /// # Errors
    /// `Missing` when there is no such webhook, or the store's failure.
    pub async fn delete(&self, account: AccountId, id: WebhookId) -> Result<(), Error> {
        if self.store.delete_webhook(account, id).await? {
            Ok(())
        } else {
            Err(Error::Missing("webhook"))
        }
    }

    /// Gives `current` a new secret now, the replaced one signing beside it for the
    /// grace (the domain's rule, `Webhook::rotate_secret`); the webhook as rotated.
    ///
    /// # Errors
    /// `Missing` when the webhook is gone, `Conflict` when another rotation crossed this
    /// one, or the store's failure.
    pub async fn rotate(&self, current: &Webhook) -> Result<Webhook, Error> {
        let rotated = current.rotate_secret(self.clock.now(), self.secret_grace);
        if self
            .store
            .rotate_webhook_secret(&rotated, &current.secret)
            .await?
        {
            return Ok(rotated);
        }
        match self.store.webhook(current.account_id, current.id).await? {
            None => Err(Error::Missing("webhook")),
            Some(_) => Err(Error::Conflict(
                "another rotation of this webhook's secret was made at the same moment; read \
                 the webhook for the secret kept",
            )),
        }
    }

    /// Makes notification `id` of `account` due again now.
    ///
    /// # Errors
    /// `Missing`, `InFlight` while a dispatcher holds it, or the store's failure.
    pub async fn redeliver(
        &self,
        account: AccountId,
        id: WebhookNotificationId,
    ) -> Result<WebhookNotification, Error> {
        let now = self.clock.now();
        let redelivered = self.store.redeliver_notification(account, id, now).await?;
        let found = self.store.webhook_notification(account, id).await?;
        match (redelivered, found) {
            (_, None) => Err(Error::Missing("webhook notification")),
            // It exists here, so a dispatcher holds it.
            (false, Some(_)) => Err(Error::InFlight),
            (true, Some(notification)) => Ok(notification),
        }
    }

    /// Signs and sends a sample of event `name` to `webhook` now, as a delivery would be;
    /// nothing is stored. The notification, what happened and the body sent.
    ///
    /// # Errors
    /// `NoSample` when no event of the catalog has the name `name`.
    pub async fn send_sample(
        &self,
        webhook: &Webhook,
        name: &str,
    ) -> Result<(WebhookNotification, Exchange, Value), Error> {
        let now = self.clock.now();
        let (notification, document) =
            example_notification(&self.render, webhook.account_id, webhook.id, name, now)
                .ok_or_else(|| Error::NoSample(name.to_owned()))?;
        let bytes = serde_json::to_vec(&document).unwrap_or_default();
        let message = notification.id.to_string();
        let exchange = self.sender.send(webhook, &message, bytes).await;
        tracing::info!(
            webhook = %webhook.id,
            event = %notification.event,
            status = exchange.attempt.status_code,
            latency_ms = exchange.attempt.latency_ms,
            "webhook test"
        );
        Ok((notification, exchange, document))
    }
}

/// A sample notification of `name` for `webhook`, and its body: a made-up voyage run
/// through the real lifecycle, rendered by the code that renders real deliveries. `None`
/// for an event that has no sample.
#[must_use]
pub fn sample_notification(
    render: &EventRecords,
    account: AccountId,
    webhook: WebhookId,
    name: EventName,
    now: Timestamp,
) -> Option<(WebhookNotification, Value)> {
    let sample = sample::sample(name, account, now)?;
    let records = Records {
        request: &sample.request,
        tracked: sample.tracked.as_ref(),
        customer_name: None,
    };
    let included = payload::Render::included(render, &sample.event, &records);
    let notification = WebhookNotification {
        id: WebhookNotificationId::new(),
        account_id: account,
        webhook_id: webhook,
        domain_event_id: sample.event.id,
        event: sample.event.name.name(),
        subject: sample.event.subject,
        delivery_status: DeliveryStatus::Pending,
        attempts: 0,
        due_at: Some(now),
        created_at: now,
        updated_at: now,
    };
    let document = payload::document(&notification, &included);
    Some((notification, document))
}

/// An example notification of the catalog event `name` for `webhook`, and its body: the
/// sample of a recorded event; for an event Tidemark does not record yet, the sample of
/// the recorded event it is modelled on under its own name, marked in the notification's
/// `meta` (`produced: false`, `modelled_on`); for a document event, the notification
/// alone, its reference object a `document`. `None` when no event has the name.
#[must_use]
pub fn example_notification(
    render: &EventRecords,
    account: AccountId,
    webhook: WebhookId,
    name: &str,
    now: Timestamp,
) -> Option<(WebhookNotification, Value)> {
    let (model, document_event) = match example_of(name)? {
        Example::Recorded(event) => {
            return sample_notification(render, account, webhook, event, now);
        }
        Example::Like(model) => (model, false),
        Example::Document => (EventName::Request(RequestEvent::Failed), true),
    };
    let (mut notification, mut body) = sample_notification(render, account, webhook, model, now)?;
    let data = &mut body["data"];
    let reference = data["relationships"]["reference_object"]["data"].clone();
    data["attributes"]["event"] = Value::from(name);
    data["meta"] =
        json!({"produced": false, "modelled_on": (!document_event).then(|| model.name())});
    if document_event {
        data["relationships"]["reference_object"]["data"] =
            json!({"id": notification.domain_event_id.to_string(), "type": "document"});
        if let Some(document) = body.as_object_mut() {
            document.remove("included");
        }
    } else if let Some(included) = body["included"].as_array_mut() {
        // The reference object (a transport event) carries the event's name too.
        for resource in included.iter_mut().filter(|resource| {
            resource["type"] == reference["type"] && resource["id"] == reference["id"]
        }) {
            if resource["attributes"].get("event").is_some() {
                resource["attributes"]["event"] = Value::from(name);
            }
        }
    }
    name.clone_into(&mut notification.event);
    Some((notification, body))
}
