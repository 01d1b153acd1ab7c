//! The overview: requests by status, containers available or on hold, last free days in
//! the next three days, recent failures, how each webhook is doing, and the vessels at
//! sea carrying the account's shipments. The lists read how
//! each box stands (`terminal::Standing`), so they never overlap: available means released
//! with no hold in force and not gone; a box that has left is in none of them.

use std::time::Duration;

use askama::Template;
use axum::extract::State;
use axum::response::Response;
use tidemark_domain::{ContainerStatus, RequestStatus};
use tidemark_store::{ContainerFilter, PageRequest, TimeRange, TrackingRequestFilter};

use super::container::{ContainerRow, row};
use super::fleet_map::{self, FleetMap};
use super::format::words;
use super::requests::{RequestRow, request_row};
use super::webhooks::{WebhookRow, webhook_rows};
use super::{Chrome, ConsoleError, Viewer, html};
use crate::AppState;

/// How many rows each list of the overview shows.
const ROWS: u32 = 10;

/// How far ahead last free days are shown.
const LFD_AHEAD: Duration = Duration::from_secs(3 * 86_400);

/// A count that links to the list it counts.
#[derive(Debug)]
struct Count {
    label: String,
    value: u64,
    link: String,
}

/// The overview page.
#[derive(Template)]
#[template(path = "console/overview.html")]
struct Page {
    chrome: Chrome,
    statuses: Vec<Count>,
    available: (u64, Vec<ContainerRow>),
    on_hold: (u64, Vec<ContainerRow>),
    due_soon: (u64, Vec<ContainerRow>),
    failures: Vec<RequestRow>,
    webhooks: Vec<WebhookRow>,
    fleet: Option<FleetMap>,
}

/// `GET /console`.
pub async fn page(State(state): State<AppState>, viewer: Viewer) -> Result<Response, ConsoleError> {
    let account = viewer.account_id;
    let store = state.store.as_ref();
    let now = state.clock.now();
    let mut statuses = Vec::new();
    for status in RequestStatus::ALL {
        let filter = TrackingRequestFilter {
            status: vec![status],
            ..TrackingRequestFilter::default()
        };
        let found = store
            .list_tracking_requests(account, &filter, PageRequest::new(1, 1))
            .await?;
        statuses.push(Count {
            label: words(status.as_str()),
            value: found.total,
            link: format!("/console/requests?status={}", status.as_str()),
        });
    }
    let containers = async |filter: ContainerFilter| -> Result<_, ConsoleError> {
        let page = PageRequest::new(1, ROWS);
        let found = store.list_containers(account, &filter, page).await?;
        Ok((
            found.total,
            found.items.iter().map(|c| row(c, now)).collect::<Vec<_>>(),
        ))
    };
    let available = containers(ContainerFilter {
        available_for_pickup: Some(true),
        has_holds: Some(false),
        ..ContainerFilter::default()
    })
    .await?;
    let on_hold = containers(ContainerFilter {
        has_holds: Some(true),
        ..ContainerFilter::default()
    })
    .await?;
    // A box that has left keeps its last free day, but is nobody's to pick up any more.
    let due_soon = containers(ContainerFilter {
        pickup_lfd: TimeRange {
            start: Some(now),
            end: Some(now + LFD_AHEAD),
        },
        current_status: ContainerStatus::ALL
            .into_iter()
            .filter(|status| !status.gone())
            .collect(),
        ..ContainerFilter::default()
    })
    .await?;
    let failed = TrackingRequestFilter {
        status: vec![RequestStatus::Failed],
        ..TrackingRequestFilter::default()
    };
    let failures = store
        .list_tracking_requests(account, &failed, PageRequest::first_rows(ROWS))
        .await?
        .items
        .iter()
        .map(|request| request_row(request, now))
        .collect();
    let page = Page {
        chrome: Chrome::new("Overview", "overview", &viewer),
        statuses,
        available,
        on_hold,
        due_soon,
        failures,
        webhooks: webhook_rows(&state, account).await?,
        fleet: fleet_map::draw(
            &store
                .vessels_at_sea(account, now - fleet_map::HEARD_WITHIN, fleet_map::MOST)
                .await?,
            now,
        ),
    };
    html(&page)
}
