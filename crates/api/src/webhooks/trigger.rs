//! `POST /v2/webhooks/trigger` (compat-api.md §4.1): the reference API's way to try a
//! receiver before subscribing it: a sample of an event, sent to a URL with a secret of the
//! client's choosing, signed and sent exactly as deliveries are, and the whole exchange
//! answered in the reference's plain JSON. Nothing is stored and nothing is retried.

use axum::Json;
use serde::Serialize;
use serde_json::{Map, Value};
use tidemark_domain::ValidationCode;
use tidemark_domain::webhook::{MAX_CHOSEN_SECRET, WebhookDraft, WebhookSecret, example_of};
use utoipa::ToSchema;

use crate::ApiError;
use crate::auth::Scope;
use crate::extract::Input;

/// What a trigger asks (plain JSON, as the reference API).
#[derive(Debug, ToSchema)]
#[schema(example = json!({"url": "https://hooks.example.com/tidemark", "event": "tracking_request.succeeded", "secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"}))]
#[expect(
    dead_code,
    reason = "describes the request body in the OpenAPI document"
)]
pub struct TriggerInput {
    /// Where to send the sample: a public address, as a webhook's.
    #[schema(format = "uri", max_length = 2048)]
    url: String,
    /// The event to sample: a name from `GET /v2/webhooks/events` that Tidemark records.
    #[schema(max_length = 128)]
    event: String,
    /// The secret to sign with, any text of at most 1,024 bytes, as the reference takes
    /// it: the hex signature (`X-Tidemark-Signature`) is keyed with the text as given; the
    /// Standard Webhooks signature with a `whsec_…` secret's decoded bytes, else with the
    /// text's bytes. A new secret when absent, so the signatures then verify with no
    /// secret the receiver holds.
    secret: Option<String>,
}

/// What a trigger sent and what came back (plain JSON, as the reference API).
#[derive(Debug, Serialize, ToSchema)]
pub struct TriggerResult {
    /// Where it went.
    #[schema(format = "uri")]
    pub url: String,
    /// Whether the receiver answered 2xx.
    pub succeeded: bool,
    /// What went wrong before an answer: timeout, refused address, connection error.
    pub error: Option<String>,
    /// The receiver's status code, when it answered.
    pub status_code: Option<u16>,
    /// The headers sent, signatures included.
    #[schema(value_type = Object)]
    pub request_headers: Map<String, Value>,
    /// The body sent: a `webhook_notification` document, as text.
    pub request_body: String,
    /// The headers of the answer, when there was one.
    #[schema(value_type = Option<Object>)]
    pub response_headers: Option<Map<String, Value>>,
    /// The first 4 KiB of the answer.
    pub response_body: Option<String>,
    /// **(beyond)** The event sampled.
    pub event: String,
    /// **(beyond)** How long it took, in milliseconds.
    pub latency_ms: u64,
}

/// Headers as an object; a name given twice has its values joined as HTTP joins them.
fn header_object(headers: Vec<(String, String)>) -> Map<String, Value> {
    let mut object = Map::new();
    for (name, value) in headers {
        match object.get_mut(&name) {
            Some(Value::String(joined)) => {
                joined.push_str(", ");
                joined.push_str(&value);
            }
            _ => {
                object.insert(name, Value::String(value));
            }
        }
    }
    object
}

/// What a trigger asks, read.
struct Ask {
    url: String,
    event: String,
    secret: Option<WebhookSecret>,
}

/// Reads a trigger's members (the URL is checked with the webhook's rules when it is used).
///
/// # Errors
/// 400 for a body that is no object; 422 with every problem at its pointer.
fn read(body: &Value) -> Result<Ask, ApiError> {
    let Some(members) = body.as_object() else {
        return Err(ApiError::malformed_json(
            "the body must be a JSON object: {\"url\", \"event\", \"secret\"}",
            None,
        ));
    };
    let mut problems = Vec::new();
    let mut text = |name: &str, required: bool| match members.get(name) {
        None | Some(Value::Null) if required => {
            problems.push((
                format!("/{name}"),
                ValidationCode::Blank,
                format!("{name} is required"),
            ));
            None
        }
        None | Some(Value::Null) => None,
        Some(Value::String(text)) => Some(text.clone()),
        Some(_) => {
            problems.push((
                format!("/{name}"),
                ValidationCode::Invalid,
                format!("{name} must be a string"),
            ));
            None
        }
    };
    let url = text("url", true);
    let event = text("event", true);
    let secret = text("secret", false);
    let event = event.and_then(|name| {
        if example_of(&name).is_some() {
            return Some(name);
        }
        let detail = super::test::unknown_event(&name);
        problems.push(("/event".to_owned(), ValidationCode::Invalid, detail));
        None
    });
    let secret = secret.and_then(|text| match WebhookSecret::chosen(&text) {
        Ok(secret) => Some(secret),
        Err(_) => {
            problems.push((
                "/secret".to_owned(),
                ValidationCode::TooLong,
                format!("a secret is at most {MAX_CHOSEN_SECRET} bytes"),
            ));
            None
        }
    });
    for name in members.keys() {
        if !["url", "event", "secret"].contains(&name.as_str()) {
            let detail = format!("{name:?} is not a member of a trigger: url, event, secret");
            let pointer = format!("/{}", crate::body::escape_pointer(name));
            problems.push((pointer, ValidationCode::Invalid, detail));
        }
    }
    match (url, event) {
        (Some(url), Some(event)) if problems.is_empty() => Ok(Ask { url, event, secret }),
        // A missing or unreadable member said so.
        _ => Err(ApiError::unprocessable(problems)),
    }
}

/// Send a sample of an event to any URL now, and see the whole exchange (the reference
/// API's trigger).
///
/// The sample is signed and sent exactly as a delivery, from the same addresses and with
/// the same guards; nothing is stored or retried.
#[utoipa::path(post, path = "/v2/webhooks/trigger", operation_id = "triggerWebhook", tag = "Webhooks",
    request_body(content = TriggerInput, content_type = "application/json"),
    responses(
        (status = 200, description = "Sent; `succeeded` says whether the receiver answered 2xx (plain JSON, as the reference API).", body = TriggerResult, content_type = "application/json"),
        (status = 422, description = "`url`, `event` or `secret` missing or invalid (a non-public address is `invalid` at `/url`)."),
    ),
)]
pub async fn trigger(scope: Scope, Input(body): Input) -> Result<Json<TriggerResult>, ApiError> {
    let Ask { url, event, secret } = read(&body)?;
    let draft = WebhookDraft {
        url: Some(url),
        ..WebhookDraft::default()
    };
    let networks = &scope.config.webhook_networks;
    let mut webhook = draft
        .create(scope.account(), networks, scope.clock.now())
        .map_err(|errors| {
            let problems = errors
                .into_iter()
                .map(|e| (format!("/{}", e.field.attribute()), e.code, e.detail))
                .collect();
            ApiError::unprocessable(problems)
        })?;
    if let Some(secret) = secret {
        webhook.secret = secret;
    }
    let (notification, exchange, document) = scope.webhooks.send_sample(&webhook, &event).await?;
    let attempt = exchange.attempt;
    let answered = attempt.status_code.is_some();
    Ok(Json(TriggerResult {
        url: webhook.url.to_string(),
        succeeded: attempt.delivered(),
        error: attempt.error,
        status_code: attempt.status_code,
        request_headers: header_object(exchange.request_headers),
        request_body: document.to_string(),
        response_headers: answered.then(|| header_object(exchange.response_headers)),
        response_body: attempt.response_body,
        event: notification.event,
        latency_ms: attempt.latency_ms,
    }))
}
