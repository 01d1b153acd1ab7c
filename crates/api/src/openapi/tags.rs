//! The sections (tags) of the OpenAPI document, each with what it is for.

use serde_json::{Value, json};

/// The sections of the reference, in the order a newcomer reads them.
pub(super) fn tags() -> Value {
    let tag = |name: &str, description: &str| json!({"name": name, "description": description});
    json!([
        tag(
            "Tracking requests",
            "Ask Tidemark to track a bill of lading, booking or container number with a shipping line; infer a number's type and line."
        ),
        tag(
            "Shipments",
            "What a tracking request found: the route, the vessel and the dates; stop and resume tracking."
        ),
        tag(
            "Containers",
            "Each container's status, milestones (transport events), terminal data and the carrier's raw events."
        ),
        tag(
            "Parties",
            "The account's customers: a tracking request names one as its customer, and the lists find shipments and containers by them."
        ),
        tag(
            "Custom fields",
            "Fields the account defines for its shipments, containers and tracking requests, their options, and their values on each record."
        ),
        tag(
            "Search",
            "Find shipments, containers and tracking requests by part of a number or reference number."
        ),
        tag(
            "Shipping lines",
            "The lines Tidemark knows, and which it tracks here."
        ),
        tag(
            "Reference data",
            "Ports, terminals and vessels the resources refer to."
        ),
        tag(
            "Webhooks",
            "Subscribe to events, read the delivery log, redeliver and test."
        ),
        tag(
            "Webhook deliveries",
            "What Tidemark POSTs to your webhooks, one entry per event, signed with Standard Webhooks headers."
        ),
        tag(
            "Operations",
            "Health and readiness, for load balancers and orchestrators."
        ),
        tag(
            "Carrier callbacks",
            "Where shipping lines and terminals push to Tidemark, each with its own token."
        ),
    ])
}
