//! `GET /v2/webhook_notifications/examples?event=…`: what a delivery of an event carries,
//! rendered by the code that renders real deliveries from a made-up voyage
//! (compat-api.md §4.1). The sample's webhook is none of the account's: its relationship
//! is null.

use serde::Serialize;
use serde_json::Value;
use tidemark_domain::WebhookId;
use tidemark_domain::webhook::subscribable;
use utoipa::ToSchema;

use crate::ApiError;
use crate::auth::Scope;
use crate::document::JsonApi;
use crate::error::ErrorCode;
use crate::extract::QueryParams;
use std::sync::Arc;

use tidemark_app::webhooks::example_notification;
use tidemark_wire::EventRecords;

/// Sample notifications of one event, as deliveries carry them.
#[derive(Debug, Serialize, ToSchema)]
pub struct ExamplesDocument {
    /// The sample notifications (one per event).
    #[schema(value_type = Vec<Object>)]
    pub data: Vec<Value>,
    /// The records they concern, as a delivery includes them.
    #[schema(value_type = Vec<Object>)]
    pub included: Vec<Value>,
}

/// The events of the catalog, each of which has an example.
#[derive(Debug)]
pub struct CatalogEventName;

impl utoipa::PartialSchema for CatalogEventName {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        let names: Vec<String> = subscribable().into_iter().map(|event| event.name).collect();
        utoipa::openapi::ObjectBuilder::new()
            .schema_type(utoipa::openapi::Type::String)
            .enum_values(Some(names))
            .description(Some("An event of the catalog (GET /v2/webhooks/events)"))
            .into()
    }
}

impl ToSchema for CatalogEventName {
    fn name() -> std::borrow::Cow<'static, str> {
        "CatalogEventName".into()
    }
}

fn bad_event(detail: impl Into<String>) -> ApiError {
    ApiError::bad_parameter(ErrorCode::InvalidParameter, "event", detail)
}

/// A sample delivery body of an event of the catalog. An event Tidemark does not record
/// yet (`produced: false` in `GET /v2/webhooks/events`) has an example modelled on the
/// recorded event whose shape the reference gives it, marked in the notification's `meta`
/// (`produced: false`, `modelled_on`).
#[utoipa::path(get, path = "/v2/webhook_notifications/examples", operation_id = "getWebhookNotificationExamples", tag = "Webhooks",
    params(("event" = CatalogEventName, Query, description = "An event name from `GET /v2/webhooks/events`")),
    responses(
        (status = 200, description = "Samples of the event's notification.", body = ExamplesDocument),
        (status = 400, description = "`event` missing or not an event of the catalog."),
    ),
)]
pub async fn examples(
    scope: Scope,
    mut query: QueryParams,
) -> Result<JsonApi<ExamplesDocument>, ApiError> {
    let name = query.take("event");
    query.finish()?;
    let name = name.filter(|name| !name.trim().is_empty()).ok_or_else(|| {
        bad_event("event is required: an event name from GET /v2/webhooks/events")
    })?;
    let now = scope.clock.now();
    let render = EventRecords::new(Arc::clone(&scope.carriers));
    let (_, mut document) = crate::public_links::render(|| {
        example_notification(&render, scope.account(), WebhookId::new(), &name, now)
    })
    .ok_or_else(|| bad_event(crate::webhooks::test::unknown_event(&name)))?;
    let mut data = document["data"].take();
    data["relationships"]["webhook"]["data"] = Value::Null;
    let included = match document["included"].take() {
        Value::Array(items) => items,
        _ => Vec::new(),
    };
    Ok(JsonApi::ok(ExamplesDocument {
        data: vec![data],
        included,
    }))
}
