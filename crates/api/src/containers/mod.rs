//! `/v2/containers`: the containers of tracked shipments, their transport events and the
//! carrier's events as reported (api.md §4), and an on-demand refresh.

pub mod map;
pub mod raw_events;
pub use tidemark_wire::container as view;

use axum::extract::OriginalUri;
use axum::routing::{get, patch};
use axum::{Json, Router};
use serde::Serialize;
use tidemark_domain::request_number::matching_forms;
use tidemark_domain::{Container, ContainerStatus};
use tidemark_store::ContainerFilter;
use utoipa::ToSchema;

use crate::auth::Scope;
use crate::body;
use crate::document::{Document, JsonApi, ListDocument, One, Page, request_link};
use crate::extract::QueryParams;
use crate::found::{Edit, Found, Record, missing};
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
        .route("/v2/containers/{id}/map_geojson", get(map::container_map))
        .route("/v2/containers/{id}/refresh", patch(refresh))
}

/// List containers, newest first.
#[utoipa::path(get, path = "/v2/containers", operation_id = "listContainers", tag = "Containers",
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
pub async fn list(scope: Scope, mut query: QueryParams) -> Page<ContainerResource> {
    let page = take_page(&mut query, &scope.config)?;
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
        ..ContainerFilter::default()
    };
    query.finish()?;
    let result = scope
        .store
        .list_containers(scope.account(), &filter, page)
        .await?;
    let records = Records::Containers(&result.items);
    let compound = include::included(&scope, scope.account(), include.as_ref(), records).await?;
    let mut data = include::containers(&scope, scope.account(), &result.items).await?;
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
#[utoipa::path(get, path = "/v2/containers/{id}", operation_id = "getContainer", tag = "Containers",
    params(Found<Container>, Include<ContainerIncludes>),
    responses((status = 200, description = "The container.", body = Document<ContainerResource>)),
)]
pub async fn show(
    scope: Scope,
    container: Found<Container>,
    uri: OriginalUri,
    mut query: QueryParams,
) -> One<ContainerResource> {
    let include = take_include::<ContainerIncludes>(&mut query)?;
    query.finish()?;
    let container = container.read(&scope).await?;
    let records = Records::Containers(std::slice::from_ref(&container));
    let compound = include::included(&scope, scope.account(), include.as_ref(), records).await?;
    let mut data = include::containers(&scope, scope.account(), &[container]).await?;
    compound.link(&mut data);
    let data = data.pop().ok_or_else(missing::<Container>)?;
    Ok(JsonApi::ok(
        Document::new(data, request_link(&uri)).including(compound.included),
    ))
}

/// Replace a container's `ref_numbers`.
#[utoipa::path(patch, path = "/v2/containers/{id}", operation_id = "updateContainer", tag = "Containers",
    params(Edit<Container>),
    request_body(content = view::UpdateContainerDocument),
    responses((status = 200, description = "The updated container.", body = Document<ContainerResource>)),
)]
pub async fn update(
    scope: Scope,
    Edit {
        record: current,
        body,
    }: Edit<Container>,
) -> One<ContainerResource> {
    let lists = body::ClientLists::Container;
    let patch = body::client_lists(&body, lists, current.id, &scope.config.limits)?;
    let updated = match patch.ref_numbers {
        None => current,
        Some(refs) => scope
            .store
            .update_container(scope.account(), current.id, &refs, scope.clock.now())
            .await?
            .ok_or_else(missing::<Container>)?,
    };
    let link = view::path(updated.id);
    let data = include::containers(&scope, scope.account(), &[updated])
        .await?
        .pop()
        .ok_or_else(missing::<Container>)?;
    Ok(JsonApi::ok(Document::new(data, link)))
}

/// A container's transport events, oldest first.
#[utoipa::path(get, path = "/v2/containers/{id}/transport_events", operation_id = "listTransportEvents", tag = "Containers",
    params(Found<Container>, Paging, Include<EventIncludes>),
    responses((status = 200, description = "A page of transport events.", body = ListDocument<TransportEventResource>)),
)]
pub async fn transport_events(
    scope: Scope,
    container: Found<Container>,
    mut query: QueryParams,
) -> Page<TransportEventResource> {
    let page = take_page(&mut query, &scope.config)?;
    let include = take_include::<EventIncludes>(&mut query)?;
    query.finish()?;
    let container = container.read(&scope).await?;
    let result = scope
        .store
        .list_transport_events(scope.account(), container.id, page)
        .await?;
    let records = Records::TransportEvents(&result.items, &container);
    let included = include::included(&scope, scope.account(), include.as_ref(), records)
        .await?
        .included;
    let path = format!("{}/transport_events", view::path(container.id));
    let raw = scope
        .store
        .raw_events_of(scope.account(), &[container.id])
        .await?;
    let data = result
        .items
        .iter()
        .map(|event| view::transport_event(event, &raw))
        .collect();
    Ok(JsonApi::ok(
        list_document(&path, &query, page, result.total, data).including(included),
    ))
}

/// What a refresh answers: plain JSON, as the reference API answers it.
#[derive(Debug, Serialize, ToSchema)]
pub struct Refreshed {
    /// What happens now: which sources are asked.
    #[schema(example = "Started refresh for Shipping line")]
    pub message: String,
}

/// Ask the carrier about this container's shipment now, instead of at the next scheduled
/// refresh. Limited to 10 per minute per account. The terminal is asked on its own
/// schedule, which tightens as the vessel nears.
#[utoipa::path(patch, path = "/v2/containers/{id}/refresh", operation_id = "refreshContainer", tag = "Containers",
    params(Record<Container>),
    responses((status = 200, description = "A lookup is scheduled (plain JSON, as the reference API).", body = Refreshed, content_type = "application/json")),
)]
pub async fn refresh(
    scope: Scope,
    Record(container): Record<Container>,
) -> Result<Json<Refreshed>, ApiError> {
    let shipment = scope
        .store
        .shipment(scope.account(), container.shipment_id)
        .await?
        .ok_or_else(missing::<Container>)?;
    scope.tracking.refresh(&shipment).await?;
    Ok(Json(Refreshed {
        message: "Started refresh for Shipping line".to_owned(),
    }))
}
