//! `/v2/tracking_requests`: create, list, read and update tracking requests (api.md §2).

mod input;
pub use tidemark_wire::tracking_request as view;

use axum::Router;
use axum::extract::OriginalUri;
use axum::routing::get;
use tidemark_domain::request_number::matching_forms;
use tidemark_domain::{RequestStatus, RequestType, TrackingRequest};
use tidemark_store::TrackingRequestFilter;

use crate::auth::{Caller, Scope};
use crate::document::{Document, JsonApi, ListDocument, One, Page, request_link};
use crate::extract::{Input, QueryParams};
use crate::found::{Edit, Found, missing};
use crate::include::{self, Records, RequestIncludes};
use crate::params::{
    Include, IncludePaths, Paging, ScacFilter, list_document, take_include, take_list, take_page,
    take_range, take_scacs,
};
use crate::{ApiError, AppState};
use view::TrackingRequestResource;

/// Reads `include`: `tracked_object` unless the client says otherwise; `include=` for
/// nothing, which leaves `included` out, as the reference API does.
fn take_includes(query: &mut QueryParams) -> Result<Option<IncludePaths>, ApiError> {
    let paths = take_include::<RequestIncludes>(query)?
        .unwrap_or_else(|| IncludePaths::of(&["tracked_object"]));
    Ok((!paths.is_empty()).then_some(paths))
}

/// The routes of this resource.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/v2/tracking_requests", get(list).post(create))
        .route("/v2/tracking_requests/{id}", get(show).patch(update))
        .route("/v2/tracking_request/{id}", get(show))
}

/// The customer a body's `relationships` name (see [`crate::parties::customer`]).
async fn customer(
    state: &AppState,
    caller: Caller,
    document: &serde_json::Value,
) -> Result<Option<Option<tidemark_domain::PartyId>>, ApiError> {
    crate::parties::customer(state, caller.account_id, crate::body::data(document)?).await
}

/// Create a tracking request.
///
/// Answers at once with the new request, `pending`; the lookup with the carrier happens
/// in the background.
#[utoipa::path(post, path = "/v2/tracking_requests", operation_id = "createTrackingRequest", tag = "Tracking requests",
    request_body(content = view::CreateTrackingRequestDocument),
    responses(
        (status = 201, description = "Created, status `pending`.", body = Document<TrackingRequestResource>),
        (status = 422, description = "`duplicate`: an open request for this number and SCAC exists (`meta.existing_id`)."),
    ),
)]
pub async fn create(scope: Scope, Input(document): Input) -> One<TrackingRequestResource> {
    let (mut new, staged) = input::create(&document, &scope.requests)?;
    new.customer = customer(&scope, scope.caller, &document).await?.flatten();
    let staged = crate::custom_fields::initial::resolve(&scope, staged).await?;
    let request = scope
        .requests
        .open_staging(scope.account(), new, &staged)
        .await?;
    let location = view::path(request.id);
    Ok(JsonApi::created(
        location.clone(),
        Document::new(view::resource(&request), location),
    ))
}

/// List tracking requests, newest first.
#[utoipa::path(get, path = "/v2/tracking_requests", operation_id = "listTrackingRequests", tag = "Tracking requests",
    params(
        Paging,
        Include<RequestIncludes>,
        ("filter[status]" = Option<String>, Query, description = "Comma-separated statuses"),
        ScacFilter,
        ("filter[request_type]" = Option<String>, Query, description = "Comma-separated request types"),
        ("filter[request_number]" = Option<String>, Query, description = "A request number, in any spelling of it (case, spaces, a container's hyphens)"),
        ("q" = Option<String>, Query, description = "Free text: part of the request number, of a reference number, or of the number of a container it tracks"),
        ("filter[created_at][start]" = Option<String>, Query, format = DateTime, description = "Created at or after"),
        ("filter[created_at][end]" = Option<String>, Query, format = DateTime, description = "Created at or before"),
        ("filter[updated_at][start]" = Option<String>, Query, format = DateTime, description = "Updated at or after"),
        ("filter[updated_at][end]" = Option<String>, Query, format = DateTime, description = "Updated at or before"),
    ),
    responses((status = 200, description = "A page of tracking requests.", body = ListDocument<TrackingRequestResource>)),
)]
pub async fn list(scope: Scope, mut query: QueryParams) -> Page<TrackingRequestResource> {
    let page = take_page(&mut query, &scope.config)?;
    let include = take_includes(&mut query)?;
    let filter = TrackingRequestFilter {
        status: take_list(
            &mut query,
            "filter[status]",
            "pending, awaiting_manifest, created, failed or tracking_stopped",
            RequestStatus::parse,
        )?,
        scac: take_scacs(&mut query)?,
        request_type: take_list(
            &mut query,
            "filter[request_type]",
            "bill_of_lading, booking_number or container",
            RequestType::parse,
        )?,
        request_number: query
            .take("filter[request_number]")
            .map(|number| matching_forms(&number))
            .unwrap_or_default(),
        search: query.take("q").filter(|text| !text.trim().is_empty()),
        created_at: take_range(&mut query, "created_at")?,
        updated_at: take_range(&mut query, "updated_at")?,
    };
    query.finish()?;
    let result = scope
        .store
        .list_tracking_requests(scope.account(), &filter, page)
        .await?;
    let requests: Vec<&TrackingRequest> = result.items.iter().collect();
    let records = Records::TrackingRequests(&requests);
    let included = include::included(&scope, scope.account(), include.as_ref(), records)
        .await?
        .included;
    let data = result.items.iter().map(view::resource).collect();
    let path = "/v2/tracking_requests";
    Ok(JsonApi::ok(
        list_document(path, &query, page, result.total, data).including(included),
    ))
}

/// Get one tracking request (also at `/v2/tracking_request/{id}`).
#[utoipa::path(get, path = "/v2/tracking_requests/{id}", operation_id = "getTrackingRequest", tag = "Tracking requests",
    params(Found<TrackingRequest>, Include<RequestIncludes>),
    responses((status = 200, description = "The tracking request.", body = Document<TrackingRequestResource>)),
)]
pub async fn show(
    scope: Scope,
    request: Found<TrackingRequest>,
    uri: OriginalUri,
    mut query: QueryParams,
) -> One<TrackingRequestResource> {
    let include = take_includes(&mut query)?;
    query.finish()?;
    let request = request.read(&scope).await?;
    let records = Records::TrackingRequests(&[&request]);
    let included = include::included(&scope, scope.account(), include.as_ref(), records)
        .await?
        .included;
    Ok(JsonApi::ok(
        Document::new(view::resource(&request), request_link(&uri)).including(included),
    ))
}

/// Update a tracking request's `ref_numbers`, `shipment_tags` and customer.
#[utoipa::path(patch, path = "/v2/tracking_requests/{id}", operation_id = "updateTrackingRequest", tag = "Tracking requests",
    params(Edit<TrackingRequest>),
    request_body(content = view::UpdateTrackingRequestDocument),
    responses(
        (status = 200, description = "The updated tracking request.", body = Document<TrackingRequestResource>),
        (status = 422, description = "`immutable`: the attribute cannot change."),
    ),
)]
pub async fn update(
    scope: Scope,
    Edit {
        record: current,
        body: document,
    }: Edit<TrackingRequest>,
) -> One<TrackingRequestResource> {
    let id = current.id;
    let mut patch = input::update(&document, &current, &scope.config.limits)?;
    patch.customer = customer(&scope, scope.caller, &document).await?;
    let updated = scope
        .store
        .update_tracking_request(scope.account(), id, &patch, scope.clock.now())
        .await?
        .ok_or_else(missing::<TrackingRequest>)?;
    Ok(JsonApi::ok(Document::new(
        view::resource(&updated),
        view::path(id),
    )))
}
