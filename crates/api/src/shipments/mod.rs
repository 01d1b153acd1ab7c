//! `/v2/shipments`: what tracking requests found (api.md §4): list, read, edit the client's
//! fields, and stop or resume tracking.

mod stop_resume;

pub use stop_resume::{
    __path_resume_tracking, __path_stop_tracking, resume_tracking, stop_tracking,
};
pub use tidemark_wire::shipment as view;

use axum::Router;
use axum::extract::OriginalUri;
use axum::routing::{get, patch};
use tidemark_domain::Shipment;
use tidemark_domain::request_number::matching_forms;
use tidemark_store::ShipmentFilter;

use crate::ApiError;
use crate::AppState;
use crate::auth::{Caller, Scope};
use crate::body;
use crate::document::{Document, JsonApi, ListDocument, One, Page, request_link};
use crate::extract::QueryParams;
use crate::found::{Edit, Found, missing};
use crate::include::{self, Records, ShipmentIncludes};
use crate::params::{
    Include, IncludePaths, Paging, ScacFilter, list_document, take_arrival, take_flag,
    take_include, take_list, take_page, take_range, take_scacs,
};
use crate::parties::CustomerFilter;
use view::ShipmentResource;

/// The routes of this resource.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/v2/shipments", get(list))
        .route("/v2/shipments/{id}", get(show).patch(update))
        .route("/v2/shipments/{id}/stop_tracking", patch(stop_tracking))
        .route("/v2/shipments/{id}/resume_tracking", patch(resume_tracking))
}

async fn document(
    state: &AppState,
    caller: Caller,
    shipment: Shipment,
    include: Option<&IncludePaths>,
    link: String,
) -> One<ShipmentResource> {
    let records = Records::Shipments(std::slice::from_ref(&shipment));
    let included = include::included(state, caller.account_id, include, records)
        .await?
        .included;
    let mut resources = include::shipments(state, caller.account_id, &[shipment]).await?;
    let data = resources.pop().ok_or_else(missing::<Shipment>)?;
    Ok(JsonApi::ok(Document::new(data, link).including(included)))
}

/// The ports of the filters `names` (Tidemark's name and the reference's), together.
fn take_ports(query: &mut QueryParams, names: [&str; 2]) -> Result<Vec<String>, ApiError> {
    let mut ports = Vec::new();
    for name in names {
        ports.extend(take_list(
            query,
            name,
            "a UN/LOCODE",
            crate::params::locode,
        )?);
    }
    Ok(ports)
}

/// List shipments, newest first.
#[utoipa::path(get, path = "/v2/shipments", operation_id = "listShipments", tag = "Shipments",
    params(
        Paging,
        Include<ShipmentIncludes>,
        ("number" = Option<String>, Query, description = "The tracked bill of lading or booking number (spaces and case ignored)"),
        ("q" = Option<String>, Query, description = "Free text: part of the tracked number, a reference number or a container number"),
        ("filter[tracking_stopped]" = Option<bool>, Query, description = "Stopped (true) or still tracked (false)"),
        ScacFilter,
        ("filter[pol_locode]" = Option<String>, Query, pattern = r"^([A-Za-z]{2}[A-Za-z0-9]{3}(,[A-Za-z]{2}[A-Za-z0-9]{3})*)?$", description = "Comma-separated ports of loading (UN/LOCODE)"),
        ("filter[pod_locode]" = Option<String>, Query, pattern = r"^([A-Za-z]{2}[A-Za-z0-9]{3}(,[A-Za-z]{2}[A-Za-z0-9]{3})*)?$", description = "Comma-separated ports of discharge (UN/LOCODE)"),
        ("filter[port_of_lading]" = Option<String>, Query, pattern = r"^([A-Za-z]{2}[A-Za-z0-9]{3}(,[A-Za-z]{2}[A-Za-z0-9]{3})*)?$", description = "The reference's name of `filter[pol_locode]`"),
        ("filter[port_of_discharge]" = Option<String>, Query, pattern = r"^([A-Za-z]{2}[A-Za-z0-9]{3}(,[A-Za-z]{2}[A-Za-z0-9]{3})*)?$", description = "The reference's name of `filter[pod_locode]`"),
        ("filter[arrival_from]" = Option<String>, Query, format = Date, description = "Arrives or arrived at the port of discharge on or after this UTC day (the actual arrival, else the estimate)"),
        ("filter[arrival_to]" = Option<String>, Query, format = Date, description = "Arrives or arrived at the port of discharge on or before this UTC day"),
        ("filter[updated_at][start]" = Option<String>, Query, format = DateTime, description = "Updated at or after"),
        ("filter[updated_at][end]" = Option<String>, Query, format = DateTime, description = "Updated at or before"),
        CustomerFilter,
    ),
    responses((status = 200, description = "A page of shipments.", body = ListDocument<ShipmentResource>)),
)]
pub async fn list(scope: Scope, mut query: QueryParams) -> Page<ShipmentResource> {
    let page = take_page(&mut query, &scope.config)?;
    let include = take_include::<ShipmentIncludes>(&mut query)?;
    let filter = ShipmentFilter {
        number: query
            .take("number")
            .map(|number| matching_forms(&number))
            .unwrap_or_default(),
        search: query.take("q").filter(|text| !text.trim().is_empty()),
        tracking_stopped: take_flag(&mut query, "filter[tracking_stopped]")?,
        scac: take_scacs(&mut query)?,
        pol_locode: take_ports(&mut query, ["filter[pol_locode]", "filter[port_of_lading]"])?,
        pod_locode: take_ports(
            &mut query,
            ["filter[pod_locode]", "filter[port_of_discharge]"],
        )?,
        arrival: take_arrival(&mut query)?,
        updated_at: take_range(&mut query, "updated_at")?,
        customer_id: crate::parties::take_customer_ids(&mut query)?,
        ..ShipmentFilter::default()
    };
    query.finish()?;
    let result = scope
        .store
        .list_shipments(scope.account(), &filter, page)
        .await?;
    let records = Records::Shipments(&result.items);
    let included = include::included(&scope, scope.account(), include.as_ref(), records)
        .await?
        .included;
    let data = include::shipments(&scope, scope.account(), &result.items).await?;
    Ok(JsonApi::ok(
        list_document("/v2/shipments", &query, page, result.total, data).including(included),
    ))
}

/// Get one shipment.
#[utoipa::path(get, path = "/v2/shipments/{id}", operation_id = "getShipment", tag = "Shipments",
    params(Found<Shipment>, Include<ShipmentIncludes>),
    responses((status = 200, description = "The shipment.", body = Document<ShipmentResource>)),
)]
pub async fn show(
    scope: Scope,
    shipment: Found<Shipment>,
    uri: OriginalUri,
    mut query: QueryParams,
) -> One<ShipmentResource> {
    let include = take_include::<ShipmentIncludes>(&mut query)?;
    query.finish()?;
    let shipment = shipment.read(&scope).await?;
    document(
        &scope,
        scope.caller,
        shipment,
        include.as_ref(),
        request_link(&uri),
    )
    .await
}

/// Replace a shipment's `ref_numbers` and/or `tags`.
#[utoipa::path(patch, path = "/v2/shipments/{id}", operation_id = "updateShipment", tag = "Shipments",
    params(Edit<Shipment>),
    request_body(content = view::UpdateShipmentDocument),
    responses((status = 200, description = "The updated shipment.", body = Document<ShipmentResource>)),
)]
pub async fn update(
    scope: Scope,
    Edit {
        record: current,
        body,
    }: Edit<Shipment>,
) -> One<ShipmentResource> {
    let lists = body::ClientLists::Shipment;
    let patch = body::client_lists(&body, lists, current.id, &scope.config.limits)?;
    let updated = scope
        .store
        .update_shipment(
            scope.account(),
            current.id,
            patch.ref_numbers.as_deref(),
            patch.shipment_tags.as_deref(),
            scope.clock.now(),
        )
        .await?
        .ok_or_else(missing::<Shipment>)?;
    let link = view::path(updated.id);
    document(&scope, scope.caller, updated, None, link).await
}
