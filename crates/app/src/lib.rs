//! Tidemark's use cases, between the adapters (the API, the console, the workers) and what
//! they use (the domain's decisions, the store, the wire format).
//!
//! A use case reads what it needs, lets the domain decide, and commits the decision in one
//! transaction; the adapters parse, call one, and render.
//!
//! - [`callbacks::CarrierCallbacks`]: the port the lines' and terminals' pushes arrive by.
//! - [`Requests`]: a tracking request is created one way, from the API or the console.
//! - [`CustomFields`]: defining custom fields and their options, setting values.
//! - [`Webhooks`]: rotating a webhook's secret, sending a sample (a test), redelivering.
//! - [`Tracking::apply`]: the one way a tracking request changes after it was created: a
//!   lookup's answer, a terminal's, a pushed notice, Tidemark's arrival estimate, a
//!   client's stop or resume.
//! - [`voyage::VoyageView`]: a shipment's voyage as the maps draw it and the arrival
//!   estimate reads it.

pub mod callbacks;
pub mod custom_fields;
mod error;
mod requests;
mod tracking;
pub mod voyage;
pub mod webhooks;

pub use custom_fields::CustomFields;
pub use error::Error;
pub use requests::Requests;
pub use tracking::{Applied, CONFLICT_RETRIES, Current, Observation, Tracking};
pub use webhooks::{WebhookSender, Webhooks};
