//! Tidemark's wire format: the JSON:API documents of its resources (tracking requests,
//! shipments, containers, transport events, ports, terminals, vessels, parties) and the records a
//! webhook notification carries. Rendered once, here, for both the API's answers and the
//! notifications the workers freeze; neither reaches into the other.

pub mod container;
pub mod custom_field;
pub mod document;
pub mod event_records;
pub mod metrics;
pub mod party;
pub mod reference;
mod schema;
pub mod search;
pub mod shipment;
pub mod tracking_request;

pub use event_records::EventRecords;

/// A time as the wire shows it (RFC 3339, UTC), or null.
pub(crate) fn time(at: Option<tidemark_domain::Timestamp>) -> Option<String> {
    at.map(|at| at.to_string())
}
