//! One domain event's delivery to one webhook: the delivery log clients read.

use crate::{AccountId, DomainEventId, Subject, Timestamp, WebhookId, WebhookNotificationId};

/// Where a notification's delivery stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DeliveryStatus {
    /// Not delivered yet; attempts may have failed and more are scheduled.
    Pending,
    /// A receiver answered 2xx.
    Succeeded,
    /// Every attempt failed, or the webhook was disabled.
    Failed,
}

impl DeliveryStatus {
    /// Every status.
    pub const ALL: [Self; 3] = [Self::Pending, Self::Succeeded, Self::Failed];

    /// The wire and storage form.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Pending => "pending",
            Self::Succeeded => "succeeded",
            Self::Failed => "failed",
        }
    }

    /// Parses the wire form.
    #[must_use]
    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|status| status.as_str() == text)
    }
}

/// A notification.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WebhookNotification {
    /// Its id: the `webhook-id` header of every attempt, for receivers to dedupe on.
    pub id: WebhookNotificationId,
    /// The account.
    pub account_id: AccountId,
    /// The webhook it goes to.
    pub webhook_id: WebhookId,
    /// The domain event it carries.
    pub domain_event_id: DomainEventId,
    /// The event's name.
    pub event: String,
    /// The record the event is about.
    pub subject: Subject,
    /// Where delivery stands.
    pub delivery_status: DeliveryStatus,
    /// Attempts made.
    pub attempts: u32,
    /// When the next attempt is due, while pending.
    pub due_at: Option<Timestamp>,
    /// When it was recorded (with its event).
    pub created_at: Timestamp,
    /// When it last changed.
    pub updated_at: Timestamp,
}

/// A notification claimed for delivery: held until `lease_until` under `lease_token`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClaimedNotification {
    /// The notification as claimed.
    pub notification: WebhookNotification,
    /// Proves the claim when the attempt is recorded.
    pub lease_token: uuid::Uuid,
    /// The records frozen with its event, for the body's `included` member.
    pub included: Vec<serde_json::Value>,
}

/// One delivery attempt, as recorded in the log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attempt {
    /// When it started.
    pub at: Timestamp,
    /// The receiver's status code, if it answered.
    pub status_code: Option<u16>,
    /// What went wrong before an answer (timeout, refused address, connection error).
    pub error: Option<String>,
    /// How long it took, in milliseconds.
    pub latency_ms: u64,
    /// The first 4 KiB of the answer.
    pub response_body: Option<String>,
}

/// Whether a receiver that answered `status_code` took the delivery: any 2xx, as Standard
/// Webhooks and the reference say.
#[must_use]
pub const fn delivered(status_code: u16) -> bool {
    status_code >= 200 && status_code < 300
}

impl Attempt {
    /// Whether the receiver took it ([`delivered`]).
    #[must_use]
    pub fn delivered(&self) -> bool {
        self.status_code.is_some_and(delivered)
    }
}

/// One request sent to a receiver, as a webhook test shows it: the attempt, and the
/// headers each way (as text; a value that is not text is shown lossily).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exchange {
    /// What happened.
    pub attempt: Attempt,
    /// The headers sent, signatures included.
    pub request_headers: Vec<(String, String)>,
    /// The headers of the answer, when there was one.
    pub response_headers: Vec<(String, String)>,
}

/// An attempt as the delivery log keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoggedAttempt {
    /// Its id.
    pub id: uuid::Uuid,
    /// The notification it delivered.
    pub notification_id: WebhookNotificationId,
    /// What happened.
    pub attempt: Attempt,
}

/// What an attempt decides.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Settlement {
    /// Delivered.
    Succeeded,
    /// Try again at this time.
    Retry(Timestamp),
    /// No more attempts.
    Failed,
    /// No more attempts, and the webhook is turned off for this reason (410 Gone, days
    /// of failures).
    DisableWebhook(String),
}

impl Settlement {
    /// Its name in metrics and logs: `succeeded`, `retry`, `failed`, `webhook_disabled`.
    #[must_use]
    pub const fn label(&self) -> &'static str {
        match self {
            Self::Succeeded => "succeeded",
            Self::Retry(_) => "retry",
            Self::Failed => "failed",
            Self::DisableWebhook(_) => "webhook_disabled",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_read_back_their_wire_form() {
        for status in DeliveryStatus::ALL {
            assert_eq!(DeliveryStatus::parse(status.as_str()), Some(status));
        }
        assert_eq!(DeliveryStatus::parse("delivered"), None);
    }

    #[test]
    fn any_2xx_is_delivered_and_nothing_else() {
        for (code, taken) in [
            (199, false),
            (200, true),
            (204, true),
            (299, true),
            (300, false),
            (410, false),
        ] {
            assert_eq!(delivered(code), taken, "{code}");
        }
    }
}
