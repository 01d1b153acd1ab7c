//! `POST /v2/webhooks/{id}/test` (beyond the reference API): sends a sample of a chosen
//! event to one webhook, signed and sent exactly as a delivery is, and answers with what
//! the receiver did. Nothing is stored: a test is not in the delivery log and is never
//! retried.

use axum::extract::State;
use serde::Serialize;
use serde_json::Value;
use tidemark_domain::ValidationCode;
use tidemark_domain::webhook::{Webhook, example_of};
use utoipa::ToSchema;

use crate::body::{self, Attributes};
use crate::document::{JsonApi, ResourceIdentifier, ToOne};

use crate::found::Edit;
use crate::webhook_notifications::view::AttemptAttributes;
use crate::{ApiError, AppState};

/// The JSON:API type of a test.
pub const TYPE: &str = "webhook_test";

/// What a test sent and what came back.
#[derive(Debug, Serialize, ToSchema)]
pub struct TestAttributes {
    /// The event sampled.
    pub event: String,
    /// Where it went.
    #[schema(format = "uri")]
    pub url: String,
    /// Whether the receiver answered 2xx.
    pub delivered: bool,
    /// What came of it, as the delivery log shows an attempt.
    #[serde(flatten)]
    pub attempt: AttemptAttributes,
    /// The body sent: a `webhook_notification` document, as deliveries carry.
    #[schema(value_type = Object)]
    pub request_body: Value,
}

/// The webhook a test went to.
#[derive(Debug, Serialize, ToSchema)]
pub struct TestRelationships {
    /// The webhook.
    pub webhook: ToOne,
}

/// A test delivery.
#[derive(Debug, Serialize, ToSchema)]
pub struct TestResource {
    /// The message id sent as `webhook-id` (it names no stored notification).
    pub id: String,
    /// Always `webhook_test`.
    #[serde(rename = "type")]
    #[schema(rename = "type", pattern = "^webhook_test$")]
    pub type_: &'static str,
    /// What happened.
    pub attributes: TestAttributes,
    /// The webhook.
    pub relationships: TestRelationships,
}

/// The answer of a test.
#[derive(Debug, Serialize, ToSchema)]
pub struct TestDocument {
    /// The test.
    pub data: TestResource,
}

/// What a test may ask.
#[derive(Debug, ToSchema)]
#[expect(
    dead_code,
    reason = "describes the request body in the OpenAPI document"
)]
pub struct TestInputAttributes {
    /// The event to sample: a name from `GET /v2/webhooks/events` that Tidemark records.
    #[schema(max_length = 128)]
    event: String,
}

/// The resource object of a test request.
#[derive(Debug, ToSchema)]
#[expect(
    dead_code,
    reason = "describes the request body in the OpenAPI document"
)]
pub struct TestInputData {
    /// Must be `webhook_test`.
    #[schema(rename = "type", pattern = "^webhook_test$")]
    type_: String,
    /// The attributes.
    attributes: TestInputAttributes,
}

/// The body of `POST /v2/webhooks/{id}/test`.
#[derive(Debug, ToSchema)]
#[schema(example = json!({"data": {"type": "webhook_test", "attributes": {"event": "container.transport.vessel_arrived"}}}))]
#[expect(
    dead_code,
    reason = "describes the request body in the OpenAPI document"
)]
pub struct TestInputDocument {
    /// The test.
    data: TestInputData,
}

const EVENT: &str = "/data/attributes/event";

/// What to say of `name`, which no event of the catalog has.
pub(crate) fn unknown_event(name: &str) -> String {
    format!("{name:?} is not an event of the catalog: a name from GET /v2/webhooks/events")
}

/// Reads the event to sample: any event of the catalog.
fn event(document: &Value) -> Result<String, ApiError> {
    let data = body::data(document)?;
    body::check_type(data, TYPE)?;
    let mut attributes = Attributes::of(data);
    let name = attributes.string("event");
    attributes.reject_unknown();
    let mut problems = attributes.problems;
    let event = match name {
        None if problems.iter().any(|(pointer, _, _)| pointer == EVENT) => None,
        None => {
            problems.push((
                EVENT.into(),
                ValidationCode::Blank,
                "event is required: the event to send a sample of".into(),
            ));
            None
        }
        Some(name) if example_of(&name).is_some() => Some(name),
        Some(name) => {
            problems.push((EVENT.into(), ValidationCode::Invalid, unknown_event(&name)));
            None
        }
    };
    match event {
        Some(event) if problems.is_empty() => Ok(event),
        _ => Err(ApiError::unprocessable(problems)),
    }
}

/// Send a sample of an event to a webhook now, and see what it answered (beyond the
/// reference API).
///
/// The sample is signed and sent exactly as a delivery, whether or not the webhook is
/// active or subscribed to the event; it is not stored and never retried.
#[utoipa::path(post, path = "/v2/webhooks/{id}/test", operation_id = "testWebhook", tag = "Webhooks",
    params(Edit<Webhook>),
    request_body(content = TestInputDocument),
    responses(
        (status = 200, description = "Sent; `delivered` says whether the receiver answered 2xx.", body = TestDocument),
        (status = 422, description = "`event` missing, unknown, or not recorded by Tidemark."),
    ),
)]
pub async fn test(
    State(state): State<AppState>,
    Edit {
        record: webhook,
        body,
    }: Edit<Webhook>,
) -> Result<JsonApi<TestDocument>, ApiError> {
    let name = event(&body)?;
    let (notification, exchange, document) = state.webhooks.send_sample(&webhook, &name).await?;
    let attempt = exchange.attempt;
    let message = notification.id.to_string();
    Ok(JsonApi::ok(TestDocument {
        data: TestResource {
            id: message,
            type_: TYPE,
            attributes: TestAttributes {
                event: notification.event,
                url: webhook.url.to_string(),
                delivered: attempt.delivered(),
                attempt: AttemptAttributes::of(attempt),
                request_body: document,
            },
            relationships: TestRelationships {
                webhook: ToOne {
                    data: Some(ResourceIdentifier {
                        id: webhook.id.to_string(),
                        type_: super::view::TYPE.to_owned(),
                    }),
                },
            },
        },
    }))
}
