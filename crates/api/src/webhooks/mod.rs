//! `/v2/webhooks`: subscriptions (api.md §5): create, list, read, change, delete, and the
//! event catalog.

pub mod ips;
pub mod rotate;
pub mod test;
pub mod trigger;
pub mod view;

use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::{get, post};
use serde_json::Value;
use tidemark_domain::WebhookId;
use tidemark_domain::webhook::{self, Webhook, WebhookDraft, WebhookHeader};

use crate::auth::{Caller, Scope};
use crate::body::{self, Attributes, Problem};
use crate::document::{Document, JsonApi, ListDocument, One, Page};
use crate::extract::{Input, PathId, QueryParams};
use crate::found::{Edit, Found, Record, missing};
use crate::params::{Paging, page_of, take_page};
use crate::{ApiError, AppState};
use tidemark_domain::ValidationCode;
use view::{CategoryResource, WebhookResource};

/// The routes of this resource.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/v2/webhooks", get(list).post(create))
        .route("/v2/webhooks/events", get(events))
        .route("/v2/webhooks/ips", get(ips::ips))
        .route("/v2/webhooks/trigger", post(trigger::trigger))
        .route("/v2/webhooks/{id}", get(show).patch(update).delete(remove))
        .route("/v2/webhooks/{id}/test", post(test::test))
        .route(
            "/v2/webhooks/{id}/rotate_secret",
            post(rotate::rotate_secret),
        )
}

/// Reads `headers`: an array of `{name, value}` objects; `null` is none (it clears them on
/// an update), as the schema allows.
fn headers(attributes: &mut Attributes<'_>) -> Option<Vec<WebhookHeader>> {
    let raw = attributes.raw("headers")?;
    if raw.is_null() {
        return Some(Vec::new());
    }
    let mut problems: Vec<Problem> = Vec::new();
    let Value::Array(items) = raw else {
        attributes.problems.push((
            "/data/attributes/headers".into(),
            ValidationCode::Invalid,
            "headers must be an array of {name, value} objects".into(),
        ));
        return None;
    };
    let mut headers = Vec::with_capacity(items.len());
    for (index, item) in items.iter().enumerate() {
        let pair = item.as_object().and_then(|object| {
            let name = object.get("name")?.as_str()?;
            let value = object.get("value")?.as_str()?;
            (object.len() == 2).then(|| WebhookHeader {
                name: name.to_owned(),
                value: value.to_owned(),
            })
        });
        match pair {
            Some(header) => headers.push(header),
            None => problems.push((
                format!("/data/attributes/headers/{index}"),
                ValidationCode::Invalid,
                "a header is an object with a string name and a string value, nothing else".into(),
            )),
        }
    }
    attributes.problems.extend(problems);
    Some(headers)
}

/// Reads a create or change body into a draft.
fn draft(
    document: &Value,
    id: Option<WebhookId>,
) -> Result<(WebhookDraft, Vec<Problem>), ApiError> {
    let data = body::data(document)?;
    body::check_type(data, view::TYPE)?;
    match id {
        Some(id) => body::check_id(data, &id.to_string())?,
        None => body::check_no_id(data)?,
    }
    let mut attributes = Attributes::of(data);
    let draft = WebhookDraft {
        url: attributes.string("url"),
        active: attributes.boolean("active"),
        events: attributes.strings("events"),
        headers: headers(&mut attributes),
    };
    attributes.reject_unknown();
    Ok((draft, attributes.problems))
}

fn document(webhook: &Webhook) -> Document<WebhookResource> {
    Document::new(view::resource(webhook), view::path(webhook.id))
}

/// Subscribe a URL to events.
///
/// The answer holds the generated `secret`; deliveries are signed with it.
#[utoipa::path(post, path = "/v2/webhooks", operation_id = "createWebhook", tag = "Webhooks",
    request_body(content = view::WebhookInputDocument),
    responses(
        (status = 201, description = "Created.", body = Document<WebhookResource>),
        (status = 422, description = "A non-public address is `invalid` at `/data/attributes/url`."),
    ),
)]
pub async fn create(scope: Scope, Input(body): Input) -> One<WebhookResource> {
    let (draft, problems) = draft(&body, None)?;
    let networks = &scope.config.webhook_networks;
    if !problems.is_empty() {
        // Said together with what the domain finds, and nothing made.
        let errors = draft
            .create(scope.account(), networks, scope.clock.now())
            .err();
        return Err(body::merge(problems, errors.unwrap_or_default()));
    }
    let webhook = scope
        .webhooks
        .create(scope.account(), draft, networks)
        .await?;
    Ok(JsonApi::created(view::path(webhook.id), document(&webhook)))
}

/// List webhooks, newest first.
#[utoipa::path(get, path = "/v2/webhooks", operation_id = "listWebhooks", tag = "Webhooks",
    params(Paging),
    responses((status = 200, description = "A page of webhooks.", body = ListDocument<WebhookResource>)),
)]
pub async fn list(scope: Scope, mut query: QueryParams) -> Page<WebhookResource> {
    let page = take_page(&mut query, &scope.config)?;
    query.finish()?;
    let result = scope.store.list_webhooks(scope.account(), page).await?;
    let document = page_of("/v2/webhooks", &query, page, &result, view::resource);
    Ok(JsonApi::ok(document))
}

/// Get one webhook.
#[utoipa::path(get, path = "/v2/webhooks/{id}", operation_id = "getWebhook", tag = "Webhooks",
    params(Record<Webhook>),
    responses((status = 200, description = "The webhook.", body = Document<WebhookResource>)),
)]
pub async fn show(Record(webhook): Record<Webhook>) -> One<WebhookResource> {
    Ok(JsonApi::ok(document(&webhook)))
}

/// Change a webhook's `url`, `active`, `events` or `headers`.
#[utoipa::path(patch, path = "/v2/webhooks/{id}", operation_id = "updateWebhook", tag = "Webhooks",
    params(Edit<Webhook>),
    request_body(content = view::WebhookInputDocument),
    responses((status = 200, description = "The changed webhook.", body = Document<WebhookResource>)),
)]
pub async fn update(
    State(state): State<AppState>,
    Edit {
        record: current,
        body,
    }: Edit<Webhook>,
) -> One<WebhookResource> {
    let (draft, problems) = draft(&body, Some(current.id))?;
    let networks = &state.config.webhook_networks;
    if !problems.is_empty() {
        let errors = draft.apply(&current, networks, state.clock.now()).err();
        return Err(body::merge(problems, errors.unwrap_or_default()));
    }
    let changed = state.webhooks.change(&current, draft, networks).await?;
    Ok(JsonApi::ok(document(&changed)))
}

/// Delete a webhook and its delivery log. Answers 200 without a body, as the reference
/// documents it (compat-api.md §4.1).
#[utoipa::path(delete, path = "/v2/webhooks/{id}", operation_id = "deleteWebhook", tag = "Webhooks",
    params(Found<Webhook>),
    responses((status = 200, description = "Deleted (no body, as the reference API).")),
)]
pub async fn remove(
    scope: Scope,
    PathId(id): PathId,
    query: QueryParams,
) -> Result<StatusCode, ApiError> {
    query.finish()?;
    let id = WebhookId::parse(&id).ok_or_else(missing::<Webhook>)?;
    scope.webhooks.delete(scope.account(), id).await?;
    Ok(StatusCode::OK)
}

/// The events a webhook can subscribe to, by category, with what each means.
#[utoipa::path(get, path = "/v2/webhooks/events", operation_id = "listWebhookEvents", tag = "Webhooks",
    responses((status = 200, description = "The catalog.", body = CatalogDocument)),
)]
pub async fn events(
    _caller: Caller,
    query: QueryParams,
) -> Result<JsonApi<CatalogDocument>, ApiError> {
    query.finish()?;
    Ok(JsonApi::ok(CatalogDocument {
        data: view::catalog(webhook::subscribable()),
    }))
}

/// The event catalog.
#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
pub struct CatalogDocument {
    /// The categories.
    pub data: Vec<CategoryResource>,
}
