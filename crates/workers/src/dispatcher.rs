//! The dispatcher: claims due webhook notifications, POSTs each, signed, to its webhook,
//! and records the attempt with what it decided (delivered, retry later, failed, webhook
//! turned off), all under the notification's lease, so a dispatcher that dies mid-delivery
//! loses nothing: the notification is claimed again when the lease ends (at least once).

mod client;
mod pace;
mod sender;
mod settler;

pub use client::{HostResolver, SystemResolver};
use pace::{Limits, Pace};
pub use sender::Sender;
use sender::{AnswerHeaders, Outcome};
use settler::Settler;

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use async_trait::async_trait;
use reqwest::StatusCode;
use tidemark_domain::webhook::{
    ClaimedNotification, Networks, RetrySchedule, Settlement, Webhook, payload,
};
use tidemark_domain::{Clock, Timestamp, WebhookId};
use tidemark_store::Store;

use crate::WorkerError;
use crate::leases::{Held, renewal_interval};
use crate::runner::Worker;

/// How the dispatcher delivers: the `[webhooks]` section of the configuration (durations
/// written `"15s"`, `"5days"`), besides what is not configured there (the networks come
/// from `webhook_allowed_networks`).
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DispatcherSettings {
    /// How long a claimed notification is held past its last renewal (renewed every third
    /// of it while in flight).
    #[serde(with = "humantime_serde")]
    pub lease: Duration,
    /// The longest a receiver may take to answer.
    #[serde(with = "humantime_serde")]
    pub timeout: Duration,
    /// Deliveries in flight at once per webhook: a slow receiver holds at most this many
    /// of the dispatcher's slots, and the rest go to the others.
    pub per_webhook: usize,
    /// Deliveries in flight at once to a webhook whose receiver answered the last
    /// `per_webhook` deliveries with a 2xx within `fast_within`: a fast receiver empties a
    /// backlog faster, and one slow answer takes it back to `per_webhook`.
    pub per_webhook_fast: usize,
    /// An answer within this is fast (see `per_webhook_fast`).
    #[serde(with = "humantime_serde")]
    pub fast_within: Duration,
    /// The header carrying the hex HMAC of the body.
    pub signature_header: String,
    /// Networks beyond the public internet that deliveries may reach.
    #[serde(skip)]
    pub networks: Arc<Networks>,
    /// When failed attempts are retried.
    #[serde(skip)]
    pub schedule: RetrySchedule,
    /// A webhook failing without a success for this long is turned off.
    #[serde(with = "humantime_serde")]
    pub disable_after: Duration,
    /// How long the secret a rotation replaced keeps signing beside the new one (the API
    /// rotates; deliveries read the time with the webhook).
    #[serde(with = "humantime_serde")]
    pub secret_grace: Duration,
    /// How long the delivery log keeps a settled notification, with its attempts, after
    /// it last changed (the pruner's `Retention`: from a day to ten years).
    #[serde(with = "humantime_serde")]
    pub retention: Duration,
    /// How much of an answer the log keeps.
    #[serde(skip)]
    pub response_bytes: usize,
    /// Where webhook host names are looked up (the answers are checked against
    /// `networks` either way).
    #[serde(skip, default = "system_resolver")]
    pub resolver: Arc<dyn HostResolver>,
}

fn system_resolver() -> Arc<dyn HostResolver> {
    Arc::new(SystemResolver)
}

impl Default for DispatcherSettings {
    fn default() -> Self {
        Self {
            lease: Duration::from_secs(5),
            timeout: Duration::from_secs(15),
            per_webhook: 4,
            per_webhook_fast: 16,
            fast_within: Duration::from_millis(250),
            signature_header: "X-Tidemark-Signature".to_owned(),
            networks: Arc::new(Networks::public_only()),
            schedule: RetrySchedule::default(),
            disable_after: Duration::from_secs(5 * 24 * 3600),
            secret_grace: tidemark_domain::webhook::DEFAULT_SECRET_GRACE,
            retention: tidemark_domain::webhook::DEFAULT_RETENTION,
            response_bytes: 4096,
            resolver: Arc::new(SystemResolver),
        }
    }
}

/// A claimed notification and the webhook it goes to (`None`: deleted since).
#[derive(Debug)]
pub struct Delivery {
    claimed: ClaimedNotification,
    webhook: Option<Arc<Webhook>>,
}

/// Delivers webhook notifications.
#[derive(Debug)]
pub struct Dispatcher {
    store: Arc<dyn Store>,
    clock: Arc<dyn Clock>,
    sender: Sender,
    settler: Settler,
    in_flight: Mutex<HashMap<WebhookId, usize>>,
    /// The leases of the deliveries in hand.
    held: Held,
    /// How each webhook is claimed: where its next claim resumes, its limit in flight.
    pace: Mutex<Pace>,
}

/// Counts a delivery in flight for its webhook until dropped.
struct Slot<'a> {
    dispatcher: &'a Dispatcher,
    webhook: WebhookId,
}

impl Drop for Slot<'_> {
    fn drop(&mut self) {
        let mut counts = self
            .dispatcher
            .in_flight
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(count) = counts.get_mut(&self.webhook) {
            *count = count.saturating_sub(1);
            if *count == 0 {
                counts.remove(&self.webhook);
            }
        }
    }
}

impl Dispatcher {
    /// A dispatcher over `store`.
    ///
    /// # Errors
    /// When the HTTP client cannot be built.
    pub fn new(
        store: Arc<dyn Store>,
        clock: Arc<dyn Clock>,
        settings: DispatcherSettings,
    ) -> Result<Self, WorkerError> {
        let limits = Limits {
            per_webhook: settings.per_webhook,
            per_webhook_fast: settings.per_webhook_fast,
            fast_within: settings.fast_within,
        };
        let sender = Sender::new(settings, Arc::clone(&clock))
            .map_err(|error| WorkerError::Setup(error.to_string()))?;
        Ok(Self {
            settler: Settler::new(Arc::clone(&store)),
            store,
            clock,
            sender,
            in_flight: Mutex::new(HashMap::new()),
            held: Held::default(),
            pace: Mutex::new(Pace::new(limits)),
        })
    }

    fn pace(&self) -> std::sync::MutexGuard<'_, Pace> {
        self.pace.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Takes a slot for `webhook`, or `None` when it has as many deliveries in flight as
    /// it may.
    fn slot(&self, webhook: WebhookId) -> Option<Slot<'_>> {
        let mut counts = self
            .in_flight
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let limit = self.pace().limit(webhook);
        let count = counts.entry(webhook).or_insert(0);
        if *count >= limit {
            return None;
        }
        *count += 1;
        Some(Slot {
            dispatcher: self,
            webhook,
        })
    }

    /// What an outcome decides for a notification that had `attempts` before this one.
    fn judge(&self, outcome: &Outcome, attempts: u32, now: Timestamp) -> Settlement {
        match outcome.status {
            Some(status) if tidemark_domain::webhook::delivered(status.as_u16()) => {
                Settlement::Succeeded
            }
            Some(StatusCode::GONE) => {
                Settlement::DisableWebhook("the receiver answered 410 Gone".to_owned())
            }
            _ => {
                let spread = rand::random::<f64>().mul_add(2.0, -1.0);
                match self.sender.settings().schedule.wait(
                    attempts + 1,
                    spread,
                    outcome.retry_after,
                ) {
                    Some(wait) => Settlement::Retry(now + wait),
                    None => Settlement::Failed,
                }
            }
        }
    }

    async fn deliver(&self, delivery: Delivery) -> Result<(), WorkerError> {
        let Delivery { claimed, webhook } = delivery;
        let notification = &claimed.notification;
        let Some(webhook) = webhook else {
            // Deleted meanwhile; its notifications went with it.
            self.pace().forget(notification.webhook_id);
            return Ok(());
        };
        let Some(slot) = self.slot(webhook.id) else {
            let later = self.clock.now() + Duration::from_secs(1);
            self.store.release_notification(&claimed, later).await?;
            return Ok(());
        };
        let now = self.clock.now();
        let body = serde_json::to_vec(&payload::document(notification, &claimed.included))
            .map_err(|error| WorkerError::Setup(error.to_string()))?;
        let id = notification.id.to_string();
        let outcome = self
            .sender
            .post(&webhook, &id, now, body, AnswerHeaders::Dropped)
            .await;
        // The request is over: its slot frees before the settlement commits. The claim
        // counts this notification as held until then, so no claim in between can hand
        // this process more deliveries for the webhook than the slots it has.
        drop(slot);
        let settlement = self.judge(&outcome, notification.attempts, now);
        self.pace().answered(
            webhook.id,
            matches!(settlement, Settlement::Succeeded),
            outcome.latency,
        );
        let attempt = outcome.attempt(now);
        tracing::info!(
            notification = %notification.id,
            webhook = %webhook.id,
            event = %notification.event,
            status = attempt.status_code,
            latency_ms = attempt.latency_ms,
            outcome = ?settlement,
            "webhook delivery"
        );
        metrics::counter!(
            tidemark_wire::metrics::WEBHOOK_DELIVERIES.name,
            "webhook" => webhook.id.to_string(), "outcome" => settlement.label()
        )
        .increment(1);
        metrics::histogram!(tidemark_wire::metrics::WEBHOOK_DELIVERY_DURATION.name)
            .record(f64::from(u32::try_from(attempt.latency_ms).unwrap_or(u32::MAX)) / 1000.0);
        let cutoff = now - self.sender.settings().disable_after;
        let id = notification.id;
        if !self
            .settler
            .settle(claimed, attempt, settlement, cutoff)
            .await?
        {
            tracing::warn!(notification = %id, "lost the notification's lease; another dispatcher has it");
        }
        Ok(())
    }
}

#[async_trait]
impl Worker for Dispatcher {
    type Job = Delivery;

    fn name(&self) -> &'static str {
        "dispatcher"
    }

    async fn claim(&self, limit: usize, now: Timestamp) -> Result<Vec<Delivery>, WorkerError> {
        let limit = u32::try_from(limit).unwrap_or(u32::MAX);
        let per_webhook = u32::try_from(self.sender.settings().per_webhook).unwrap_or(u32::MAX);
        let lease = self.sender.settings().lease;
        let mut claims = self.pace().claims(now, false);
        let mut claimed = self
            .store
            .claim_notifications_after(limit, per_webhook, lease, now, &claims)
            .await?;
        if claimed.is_empty() && claims.iter().any(|claim| claim.after.is_some()) {
            claims = self.pace().claims(now, true);
            claimed = self
                .store
                .claim_notifications_after(limit, per_webhook, lease, now, &claims)
                .await?;
        }
        self.pace().claimed(&claims, &claimed, now);
        // Each webhook of the batch is read once, as it stands when claimed.
        let mut ids: Vec<WebhookId> = claimed.iter().map(|c| c.notification.webhook_id).collect();
        ids.sort_unstable();
        ids.dedup();
        let webhooks: HashMap<WebhookId, Arc<Webhook>> = self
            .store
            .webhooks_by_id(&ids)
            .await?
            .into_iter()
            .map(|webhook| (webhook.id, Arc::new(webhook)))
            .collect();
        for claimed in &claimed {
            self.held.add(claimed.lease_token);
        }
        Ok(claimed
            .into_iter()
            .map(|claimed| Delivery {
                webhook: webhooks.get(&claimed.notification.webhook_id).cloned(),
                claimed,
            })
            .collect())
    }

    async fn next_due(&self) -> Result<Option<Timestamp>, WorkerError> {
        Ok(self.store.next_notification_due().await?)
    }

    async fn work(&self, delivery: Delivery) {
        let id = delivery.claimed.notification.id;
        let token = delivery.claimed.lease_token;
        if let Err(error) = self.deliver(delivery).await {
            tracing::error!(notification = %id, %error, "webhook delivery failed; it is retried when its lease ends");
        }
        self.held.remove(token);
    }

    fn renew_every(&self) -> Option<Duration> {
        Some(renewal_interval(self.sender.settings().lease))
    }

    async fn renew(&self, now: Timestamp) -> Result<(), WorkerError> {
        let until = now + self.sender.settings().lease;
        self.store
            .renew_notification_leases(&self.held.all(), until)
            .await?;
        Ok(())
    }
}
