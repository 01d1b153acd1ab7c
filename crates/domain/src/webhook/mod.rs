//! Webhooks: where deliveries may go, how they are signed, and when failures are retried.

mod address;
mod catalog;
mod model;
mod notification;
pub mod payload;
mod retention;
mod rotation;
pub mod sample;
mod schedule;
mod signing;
mod validate;

pub use address::{MAX_URL_LEN, NetworkError, Networks, UrlError, WebhookUrl, is_public};
pub use catalog::{Example, Subscribable, example_of, subscribable};
pub use model::{MAX_HEADERS, Webhook, WebhookDraft, WebhookHeader};
pub use notification::{
    Attempt, ClaimedNotification, DeliveryStatus, Exchange, LoggedAttempt, Settlement,
    WebhookNotification, delivered,
};
pub use retention::{DEFAULT_RETENTION, Retention, RetentionError};
pub use rotation::{DEFAULT_SECRET_GRACE, MAX_SECRET_GRACE, PreviousSecret, Signers};
pub use schedule::RetrySchedule;
pub use signing::{MAX_CHOSEN_SECRET, SECRET_PREFIX, SecretError, WebhookSecret};
