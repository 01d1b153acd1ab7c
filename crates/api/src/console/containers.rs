//! The containers list: every box of the account, newest first, narrowed by the filters a
//! user combines (status, available for pickup, on hold, customer, and a search by
//! container or reference number), all of them in the URL. Each row is the overview's
//! (`container::row`), so a box reads the same on every page.

use askama::Template;
use axum::extract::State;
use axum::response::Response;
use tidemark_domain::ContainerStatus;
use tidemark_store::{ContainerFilter, PageRequest};

use super::container::{ContainerRow, row};
use super::extract::PageQuery;
use super::filters::{Choice, Filters, yes_no};
use super::format::words;
use super::{Chrome, ConsoleError, Viewer, html};
use crate::AppState;

/// Containers per page.
const PAGE_SIZE: u32 = 50;

/// The containers page.
#[derive(Template)]
#[template(path = "console/containers.html")]
struct Page {
    chrome: Chrome,
    /// The list's own path, for its form, its pager and its "clear" link.
    path: &'static str,
    rows: Vec<ContainerRow>,
    total: u64,
    filters: Filters,
    statuses: Vec<Choice>,
    flags: Vec<Choice>,
    page: u32,
    pages: u32,
}

/// `GET /console/containers?q=…&status=…&available=yes|no&hold=yes|no&customer=…&page=N`.
pub async fn page(
    State(state): State<AppState>,
    viewer: Viewer,
    PageQuery(query): PageQuery,
) -> Result<Response, ConsoleError> {
    let names = ["q", "status", "available", "hold", "customer"];
    let mut filters = Filters::read(query, &names);
    let status = filters.parsed("status", "a container status", ContainerStatus::parse);
    let filter = ContainerFilter {
        search: filters.text("q"),
        current_status: status.into_iter().collect(),
        available_for_pickup: filters.parsed("available", "yes or no", yes_no),
        has_holds: filters.parsed("hold", "yes or no", yes_no),
        customer_name: filters.text("customer").into_iter().collect(),
        ..ContainerFilter::default()
    };
    let page = PageRequest::new(filters.page(), PAGE_SIZE);
    let found = state
        .store
        .list_containers(viewer.account_id, &filter, page)
        .await?;
    let now = state.clock.now();
    let page = Page {
        path: "/console/containers",
        chrome: Chrome::new("Containers", "containers", &viewer),
        rows: found.items.iter().map(|c| row(c, now)).collect(),
        total: found.total,
        statuses: ContainerStatus::ALL
            .into_iter()
            .map(|status| Choice::new(status.as_str(), words(status.as_str())))
            .collect(),
        flags: vec![Choice::new("yes", "yes"), Choice::new("no", "no")],
        page: filters.page(),
        pages: filters.pages(found.total, PAGE_SIZE),
        filters,
    };
    html(&page)
}
