//! How a webhook looks on the wire (api.md §5, compat-api.md §4.1).

use serde::Serialize;
use tidemark_domain::WebhookId;
use tidemark_domain::webhook::{Subscribable, Webhook, subscribable};
use utoipa::ToSchema;

use crate::document::SelfLink;

/// The JSON:API type of a webhook.
pub const TYPE: &str = "webhook";

/// A custom header.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct HeaderView {
    /// Its name.
    pub name: String,
    /// Its value.
    pub value: String,
}

/// A webhook's attributes.
#[derive(Debug, Serialize, ToSchema)]
pub struct WebhookAttributes {
    /// Where deliveries go.
    #[schema(format = "uri")]
    pub url: String,
    /// Whether deliveries are made.
    pub active: bool,
    /// The events it receives. A webhook created without events (or with an empty list)
    /// receives every event, including those the catalog gains later; it is shown with
    /// every event of the catalog listed, as the reference API shows it.
    pub events: Vec<String>,
    /// The signing secret (`whsec_…`): verify `webhook-signature` with it.
    pub secret: String,
    /// Until when the secret the last rotation replaced signs deliveries beside `secret`
    /// (beyond the reference API); null when the secret was never rotated, or rotated
    /// without a grace.
    #[schema(format = DateTime)]
    pub previous_secret_expires_at: Option<String>,
    /// Custom headers sent with every delivery.
    pub headers: Vec<HeaderView>,
    /// Why Tidemark turned it off, if it did.
    pub disabled_reason: Option<String>,
    /// When it was created.
    #[schema(format = DateTime)]
    pub created_at: String,
    /// When it last changed.
    #[schema(format = DateTime)]
    pub updated_at: String,
}

/// A webhook resource.
#[derive(Debug, Serialize, ToSchema)]
pub struct WebhookResource {
    /// Its id.
    pub id: String,
    /// Always `webhook`.
    #[serde(rename = "type")]
    #[schema(rename = "type", pattern = "^webhook$")]
    pub type_: &'static str,
    /// Its attributes.
    pub attributes: WebhookAttributes,
    /// Its own link.
    pub links: SelfLink,
}

/// The path of a webhook.
#[must_use]
pub fn path(id: WebhookId) -> String {
    format!("/v2/webhooks/{id}")
}

/// A webhook as a resource.
#[must_use]
pub fn resource(webhook: &Webhook) -> WebhookResource {
    WebhookResource {
        id: webhook.id.to_string(),
        type_: TYPE,
        attributes: WebhookAttributes {
            url: webhook.url.to_string(),
            active: webhook.active,
            // Every event of the reference's: Tidemark's own go only to webhooks naming them.
            events: if webhook.events.is_empty() {
                subscribable()
                    .into_iter()
                    .filter(|event| !event.extension)
                    .map(|event| event.name)
                    .collect()
            } else {
                webhook.events.clone()
            },
            secret: webhook.secret.expose().to_owned(),
            previous_secret_expires_at: webhook
                .previous_secret
                .as_ref()
                .map(|previous| previous.until.to_string()),
            headers: webhook
                .headers
                .iter()
                .map(|h| HeaderView {
                    name: h.name.clone(),
                    value: h.value.clone(),
                })
                .collect(),
            disabled_reason: webhook.disabled_reason.clone(),
            created_at: webhook.created_at.to_string(),
            updated_at: webhook.updated_at.to_string(),
        },
        links: SelfLink {
            self_: path(webhook.id),
        },
    }
}

/// One event of the catalog.
#[derive(Debug, Serialize, ToSchema)]
pub struct CatalogEvent {
    /// Its name, to subscribe with.
    pub name: String,
    /// What it means.
    pub description: &'static str,
    /// Whether Tidemark records it today (some names are accepted for compatibility only).
    pub produced: bool,
    /// Whether it is Tidemark's own, beyond the reference API's catalog.
    pub extension: bool,
}

/// A category's attributes.
#[derive(Debug, Serialize, ToSchema)]
pub struct CategoryAttributes {
    /// The category's name.
    pub name: &'static str,
    /// Its events.
    pub events: Vec<CatalogEvent>,
}

/// A category of events.
#[derive(Debug, Serialize, ToSchema)]
pub struct CategoryResource {
    /// Its id.
    pub id: &'static str,
    /// Always `webhook_event_category`.
    #[serde(rename = "type")]
    #[schema(rename = "type", pattern = "^webhook_event_category$")]
    pub type_: &'static str,
    /// Its attributes.
    pub attributes: CategoryAttributes,
}

/// A category: its id, its name, and whether an event name belongs to it.
type Category = (&'static str, &'static str, fn(&str) -> bool);

/// The categories, in order.
const CATEGORIES: [Category; 5] = [
    ("tracking-request-events", "Tracking request", |name| {
        name.starts_with("tracking_request.")
    }),
    ("container-estimate-events", "Estimates", |name| {
        name.starts_with("container.transport.estimated.")
            || name.starts_with("shipment.estimated.")
            || name.starts_with("shipment.predicted_arrival.")
    }),
    (
        "container-transport-events",
        "Transport milestones",
        |name| name.starts_with("container.transport."),
    ),
    ("container-update-events", "Container updates", |name| {
        name.starts_with("container.")
    }),
    ("document-events", "Documents", |_| true),
];

/// The catalog, by category; each event is in the first category it fits.
#[must_use]
pub fn catalog(events: Vec<Subscribable>) -> Vec<CategoryResource> {
    let mut categories: Vec<CategoryResource> = CATEGORIES
        .iter()
        .map(|(id, name, _)| CategoryResource {
            id,
            type_: "webhook_event_category",
            attributes: CategoryAttributes {
                name,
                events: Vec::new(),
            },
        })
        .collect();
    for event in events {
        let index = CATEGORIES
            .iter()
            .position(|(_, _, fits)| fits(&event.name))
            .unwrap_or(CATEGORIES.len() - 1);
        if let Some(category) = categories.get_mut(index) {
            category.attributes.events.push(CatalogEvent {
                name: event.name,
                description: event.description,
                produced: event.produced,
                extension: event.extension,
            });
        }
    }
    categories.retain(|category| !category.attributes.events.is_empty());
    categories
}

/// A header in a request body.
#[derive(Debug, ToSchema)]
#[expect(
    dead_code,
    reason = "describes the request body in the OpenAPI document"
)]
pub struct HeaderInput {
    /// A header name (an HTTP token); not one Tidemark sets itself (`webhook-id`,
    /// `webhook-timestamp`, `webhook-signature`, `x-tidemark-signature`, `content-type`,
    /// `content-length`, `host`, `transfer-encoding`, `connection`, `user-agent`), and
    /// each name once.
    #[schema(
        min_length = 1,
        max_length = 64,
        pattern = r"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$"
    )]
    name: String,
    /// Its value: no control characters but tab.
    #[schema(max_length = 1024, pattern = r"^[^\x00-\x08\x0a-\x1f\x7f]*$")]
    value: String,
}

/// What a create or change may set.
#[derive(Debug, ToSchema)]
#[expect(
    dead_code,
    reason = "describes the request body in the OpenAPI document"
)]
pub struct WebhookInputAttributes {
    /// Where deliveries go: `http` or `https`; non-public addresses are refused unless
    /// allowed by the configuration. Required on create.
    #[schema(format = "uri", max_length = 2048)]
    url: Option<String>,
    /// Whether deliveries are made (default true). Setting it true clears `disabled_reason`.
    active: Option<bool>,
    /// Events to receive (`GET /v2/webhooks/events`); empty or absent means all.
    events: Option<Vec<String>>,
    /// Custom headers (at most 10); `null` or `[]` for none.
    #[schema(max_items = 10)]
    headers: Option<Vec<HeaderInput>>,
}

/// The resource object of a create or change.
#[derive(Debug, ToSchema)]
#[expect(
    dead_code,
    reason = "describes the request body in the OpenAPI document"
)]
pub struct WebhookInputData {
    /// Must be `webhook`.
    #[schema(rename = "type", pattern = "^webhook$")]
    type_: String,
    /// On a change, if given, the id in the path.
    #[schema(format = Uuid)]
    id: Option<String>,
    /// The attributes.
    #[schema(nullable = false)]
    attributes: Option<WebhookInputAttributes>,
}

/// The body of `POST /v2/webhooks` and `PATCH /v2/webhooks/{id}`.
#[derive(Debug, ToSchema)]
#[schema(example = json!({"data": {"type": "webhook", "attributes": {"url": "https://hooks.example.com/tidemark", "active": true, "events": ["tracking_request.succeeded", "container.transport.vessel_arrived"]}}}))]
#[expect(
    dead_code,
    reason = "describes the request body in the OpenAPI document"
)]
pub struct WebhookInputDocument {
    /// The webhook.
    data: WebhookInputData,
}
