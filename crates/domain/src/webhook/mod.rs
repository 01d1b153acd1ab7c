//! Webhooks: where deliveries may go, how they are signed, and when failures are retried.

mod address;
mod model;
mod notification;
pub mod payload;
pub mod sample;
mod schedule;
mod signing;
mod validate;

pub use address::{MAX_URL_LEN, NetworkError, Networks, UrlError, WebhookUrl, is_public};
pub use model::{MAX_HEADERS, Subscribable, Webhook, WebhookDraft, WebhookHeader, subscribable};
pub use notification::{
    Attempt, ClaimedNotification, DeliveryStatus, LoggedAttempt, Settlement, WebhookNotification,
};
pub use schedule::RetrySchedule;
pub use signing::{SECRET_PREFIX, SecretError, WebhookSecret};
