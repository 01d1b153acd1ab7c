//! `/v2/containers`: the containers of tracked shipments, their transport events and the
//! carrier's events as reported (api.md §4), and an on-demand refresh.

pub mod raw_events;
pub use tidemark_wire::container as view;

use axum::Router;
use axum::extract::{OriginalUri, State};
use axum::routing::{get, patch};
use serde::Serialize;
use tidemark_domain::request_number::matching_forms;
use tidemark_domain::{Container, ContainerStatus};
use tidemark_store::ContainerFilter;
use utoipa::ToSchema;

use crate::auth::Caller;
use crate::body;
use crate::document::{Document, JsonApi, ListDocument, request_link};
use crate::extract::{JsonBody, QueryParams};
use crate::found::{Found, Record, missing};
use crate::include::{self, ContainerIncludes, EventIncludes, Records};
use crate::params::{
    Include, Paging, list_document, one_of, take_flag, take_include, take_list, take_page,
    take_range,
};
use crate::parties::CustomerFilter;
use crate::{ApiError, AppState};
use view::{ContainerResource, TransportEventResource};

/// The routes of this resource.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/v2/containers", get(list))
        .route("/v2/containers/{id}", get(show).patch(update))
        .route(
            "/v2/containers/{id}/transport_events",
            get(transport_events),
        )
        .route("/v2/containers/{id}/raw_events", get(raw_events::list))
        .route("/v2/containers/{id}/refresh", patch(refresh))
}

/// List containers, newest first.
#[utoipa::path(
    get,
    path = "/v2/containers",
    operation_id = "listContainers",
    tag = "Containers",
    params(
        Paging,
        Include<ContainerIncludes>,
        ("filter[number]" = Option<String>, Query, description = "A container number, in any spelling of it (case, spaces, hyphens)"),
        ("filter[current_status]" = Option<String>, Query, description = "Comma-separated statuses"),
        ("filter[available_for_pickup]" = Option<bool>, Query, description = "Available for pickup (true): the terminal released it, no hold in force blocks it and it has not left; or known not to be (false)"),
        ("filter[has_holds]" = Option<bool>, Query, description = "A hold blocks the pickup (true), or none does (false)"),
        ("filter[pickup_lfd][start]" = Option<String>, Query, format = DateTime, description = "Last free day at or after"),
        ("filter[pickup_lfd][end]" = Option<String>, Query, format = DateTime, description = "Last free day at or before"),
        ("filter[updated_at][start]" = Option<String>, Query, format = DateTime, description = "Updated at or after"),
        ("filter[updated_at][end]" = Option<String>, Query, format = DateTime, description = "Updated at or before"),
        CustomerFilter,
        ("filter[customer_name]" = Option<String>, Query, description = "A customer's exact `company_name`"),
    ),
    responses((status = 200, description = "A page of containers.", body = ListDocument<ContainerResource>)),
)]
pub async fn list(
    State(state): State<AppState>,
    caller: Caller,
    mut query: QueryParams,
) -> Result<JsonApi<ListDocument<ContainerResource>>, ApiError> {
    let page = take_page(&mut query, &state.config)?;
    let include = take_include::<ContainerIncludes>(&mut query)?;
    let filter = ContainerFilter {
        number: query
            .take("filter[number]")
            .map(|number| matching_forms(&number))
            .unwrap_or_default(),
        current_status: take_list(
            &mut query,
            "filter[current_status]",
            &STATUSES,
            ContainerStatus::parse,
        )?,
        available_for_pickup: take_flag(&mut query, "filter[available_for_pickup]")?,
        has_holds: take_flag(&mut query, "filter[has_holds]")?,
        pickup_lfd: take_range(&mut query, "pickup_lfd")?,
        updated_at: take_range(&mut query, "updated_at")?,
        customer_id: crate::parties::take_customer_ids(&mut query)?,
        customer_name: query
            .take("filter[customer_name]")
            .map(|name| name.trim().to_owned())
            .into_iter()
            .filter(|name| !name.is_empty())
            .collect(),
        search: None,
    };
    query.finish()?;
    let result = state
        .store
        .list_containers(caller.account_id, &filter, page)
        .await?;
    let records = Records::Containers(&result.items);
    let compound = include::included(&state, caller.account_id, include.as_ref(), records).await?;
    let mut data = include::containers(&state, caller.account_id, &result.items).await?;
    compound.link(&mut data);
    Ok(JsonApi::ok(
        list_document("/v2/containers", &query, page, result.total, data)
            .including(compound.included),
    ))
}

/// The statuses `filter[current_status]` takes, as prose for its error.
static STATUSES: std::sync::LazyLock<String> =
    std::sync::LazyLock::new(|| one_of(&ContainerStatus::ALL.map(ContainerStatus::as_str)));

/// Get one container.
#[utoipa::path(
    get,
    path = "/v2/containers/{id}",
    operation_id = "getContainer",
    tag = "Containers",
    params(
        Found<Container>,
        Include<ContainerIncludes>,
    ),
    responses((status = 200, description = "The container.", body = Document<ContainerResource>)),
)]
pub async fn show(
    State(state): State<AppState>,
    caller: Caller,
    container: Found<Container>,
    uri: OriginalUri,
    mut query: QueryParams,
) -> Result<JsonApi<Document<ContainerResource>>, ApiError> {
    let include = take_include::<ContainerIncludes>(&mut query)?;
    query.finish()?;
    let container = container.read(&state).await?;
    let records = Records::Containers(std::slice::from_ref(&container));
    let compound = include::included(&state, caller.account_id, include.as_ref(), records).await?;
    let mut data = include::containers(&state, caller.account_id, &[container]).await?;
    compound.link(&mut data);
    let data = data.pop().ok_or_else(missing::<Container>)?;
    Ok(JsonApi::ok(
        Document::new(data, request_link(&uri)).including(compound.included),
    ))
}

/// Replace a container's `ref_numbers`.
#[utoipa::path(
    patch,
    path = "/v2/containers/{id}",
    operation_id = "updateContainer",
    tag = "Containers",
    params(Found<Container>),
    request_body(content = view::UpdateContainerDocument),
    responses(
        (status = 200, description = "The updated container.", body = Document<ContainerResource>),
    ),
)]
pub async fn update(
    State(state): State<AppState>,
    caller: Caller,
    current: Found<Container>,
    query: QueryParams,
    JsonBody(body): JsonBody,
) -> Result<JsonApi<Document<ContainerResource>>, ApiError> {
    query.finish()?;
    let current = current.read(&state).await?;
    let lists = body::ClientLists::Container;
    let patch = body::client_lists(&body, lists, current.id, &state.config.limits)?;
    let updated = match patch.ref_numbers {
        None => current,
        Some(refs) => state
            .store
            .update_container(caller.account_id, current.id, &refs, state.clock.now())
            .await?
            .ok_or_else(missing::<Container>)?,
    };
    let link = view::path(updated.id);
    let data = include::containers(&state, caller.account_id, &[updated])
        .await?
        .pop()
        .ok_or_else(missing::<Container>)?;
    Ok(JsonApi::ok(Document::new(data, link)))
}

/// A container's transport events, oldest first.
#[utoipa::path(
    get,
    path = "/v2/containers/{id}/transport_events",
    operation_id = "listTransportEvents",
    tag = "Containers",
    params(
        Found<Container>,
        Paging,
        Include<EventIncludes>,
    ),
    responses((status = 200, description = "A page of transport events.", body = ListDocument<TransportEventResource>)),
)]
pub async fn transport_events(
    State(state): State<AppState>,
    caller: Caller,
    container: Found<Container>,
    mut query: QueryParams,
) -> Result<JsonApi<ListDocument<TransportEventResource>>, ApiError> {
    let page = take_page(&mut query, &state.config)?;
    let include = take_include::<EventIncludes>(&mut query)?;
    query.finish()?;
    let container = container.read(&state).await?;
    let result = state
        .store
        .list_transport_events(caller.account_id, container.id, page)
        .await?;
    let records = Records::TransportEvents(&result.items, &container);
    let included = include::included(&state, caller.account_id, include.as_ref(), records)
        .await?
        .included;
    let path = format!("{}/transport_events", view::path(container.id));
    let data = result.items.iter().map(view::transport_event).collect();
    Ok(JsonApi::ok(
        list_document(&path, &query, page, result.total, data).including(included),
    ))
}

/// What a refresh answers.
#[derive(Debug, Serialize, ToSchema)]
pub struct RefreshMeta {
    /// What happens now.
    pub message: String,
}

/// The body of a refresh's answer.
#[derive(Debug, Serialize, ToSchema)]
pub struct RefreshDocument {
    /// What happens now.
    pub meta: RefreshMeta,
}

/// Ask the carrier about this container's shipment now, instead of at the next scheduled
/// refresh. Limited to 10 per minute per account.
#[utoipa::path(
    patch,
    path = "/v2/containers/{id}/refresh",
    operation_id = "refreshContainer",
    tag = "Containers",
    params(Record<Container>),
    responses(
        (status = 202, description = "A lookup is scheduled.", body = RefreshDocument),
    ),
)]
pub async fn refresh(
    State(state): State<AppState>,
    caller: Caller,
    Record(container): Record<Container>,
) -> Result<JsonApi<RefreshDocument>, ApiError> {
    let shipment = state
        .store
        .shipment(caller.account_id, container.shipment_id)
        .await?
        .ok_or_else(missing::<Container>)?;
    state.tracking.refresh(&shipment).await?;
    Ok(JsonApi::accepted(RefreshDocument {
        meta: RefreshMeta {
            message: "Started refresh for Shipping line".to_owned(),
        },
    }))
}
