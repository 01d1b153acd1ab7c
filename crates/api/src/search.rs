//! `GET /v2/search?query=` (compat-api.md §3.9): the account's shipments, containers
//! (`cargo`) and tracking requests whose number or reference numbers hold the text, as
//! flat `search_result` records, at most [`MOST_RESULTS`].

pub use tidemark_wire::search as view;

use std::collections::HashMap;

use axum::Router;
use axum::routing::get;
use tidemark_domain::ShipmentId;
use tidemark_store::{ContainerFilter, PageRequest, ShipmentFilter, TrackingRequestFilter};

use crate::auth::Scope;
use crate::document::{JsonApi, ListDocument, Page};
use crate::error::ErrorCode;
use crate::extract::QueryParams;
use crate::params::{Paging, list_document, take_page_or};
use crate::{ApiError, AppState};
use view::SearchResultResource;

/// Most results a search answers, as the reference's does.
pub const MOST_RESULTS: u32 = 25;

/// Longest text searched for, in characters.
pub const QUERY_CHARS: usize = 128;

/// The routes of this resource.
pub fn routes() -> Router<AppState> {
    Router::new().route("/v2/search", get(search))
}

/// Reads `query`: required, at most [`QUERY_CHARS`] characters once trimmed.
fn take_query(query: &mut QueryParams) -> Result<String, ApiError> {
    let text = query.take("query").map(|text| text.trim().to_owned());
    match text {
        Some(text) if text.chars().count() > QUERY_CHARS => Err(ApiError::bad_parameter(
            ErrorCode::InvalidParameter,
            "query",
            format!("query is at most {QUERY_CHARS} characters long"),
        )),
        Some(text) if !text.is_empty() => Ok(text),
        _ => Err(ApiError::bad_parameter(
            ErrorCode::InvalidParameter,
            "query",
            "query is required: a bill of lading, booking, container or reference number, or part of one",
        )),
    }
}

/// Search shipments, containers and tracking requests by number or reference number.
///
/// Shipments come first, then containers, then tracking requests, each newest first;
/// at most 25 in all, paged (25 a page unless `page[size]` says otherwise).
#[utoipa::path(get, path = "/v2/search", operation_id = "search", tag = "Search",
    params(
        ("query" = String, Query, min_length = 1, max_length = 128, pattern = r"\S", description = "Part of a bill of lading, booking, container or reference number"),
        Paging,
    ),
    responses((status = 200, description = "What the text finds.", body = ListDocument<SearchResultResource>)),
)]
pub async fn search(scope: Scope, mut query: QueryParams) -> Page<SearchResultResource> {
    let text = take_query(&mut query)?;
    // The results are paged as the reference's links name them; there are 25 at most.
    let asked = take_page_or(&mut query, &scope.config, MOST_RESULTS)?;
    query.finish()?;
    let (store, account) = (&scope.store, scope.account());
    // Nothing shows the lists' totals: each is read without counting it.
    let page = PageRequest::first_rows(MOST_RESULTS);
    let search = Some(text);
    let shipments = ShipmentFilter {
        search: search.clone(),
        ..ShipmentFilter::default()
    };
    let shipments = store.list_shipments(account, &shipments, page).await?.items;
    let containers = ContainerFilter {
        search: search.clone(),
        ..ContainerFilter::default()
    };
    let containers = store
        .list_containers(account, &containers, page)
        .await?
        .items;
    let requests = TrackingRequestFilter {
        search,
        ..TrackingRequestFilter::default()
    };
    let requests = store
        .list_tracking_requests(account, &requests, page)
        .await?
        .items;

    let mut counts: HashMap<ShipmentId, u32> = HashMap::new();
    let ids: Vec<ShipmentId> = shipments.iter().map(|s| s.id).collect();
    for container in store.containers(account, &[], &ids).await? {
        *counts.entry(container.shipment_id).or_default() += 1;
    }
    let of_containers: Vec<ShipmentId> = containers.iter().map(|c| c.shipment_id).collect();
    let scacs: HashMap<ShipmentId, String> = store
        .shipments(account, &of_containers)
        .await?
        .into_iter()
        .map(|s| (s.id, s.scac.to_string()))
        .collect();
    let results: Vec<SearchResultResource> = shipments
        .iter()
        .map(|s| view::shipment(s, counts.get(&s.id).copied().unwrap_or(0)))
        .chain(
            containers
                .iter()
                .map(|c| view::cargo(c, scacs.get(&c.shipment_id).cloned())),
        )
        .chain(requests.iter().map(view::tracking_request))
        .take(MOST_RESULTS as usize)
        .collect();
    let total = results.len() as u64;
    let skip = usize::try_from(asked.offset()).unwrap_or(usize::MAX);
    let shown = results
        .into_iter()
        .skip(skip)
        .take(asked.size as usize)
        .collect();
    Ok(JsonApi::ok(list_document(
        "/v2/search",
        &query,
        asked,
        total,
        shown,
    )))
}
