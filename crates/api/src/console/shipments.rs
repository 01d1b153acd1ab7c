//! The shipments list: every shipment of the account, newest first, narrowed by the
//! filters a user combines (shipping line, ports of loading and discharge, customer,
//! tracking stopped or not, and a search), all of them in the URL so a list can be
//! bookmarked and shared.

use askama::Template;
use axum::extract::State;
use axum::response::Response;
use tidemark_domain::{PartyId, Scac, Shipment, Timestamp};
use tidemark_store::{PageRequest, ShipmentFilter};

use super::extract::PageQuery;
use super::filters::{Choice, Filters, yes_no};
use super::format::maybe_place;
use super::local::Moment;
use super::{Chrome, ConsoleError, Viewer, html};
use crate::AppState;

/// Shipments per page.
const PAGE_SIZE: u32 = 50;

/// Customers offered in the customer filter.
const CUSTOMERS: u32 = 200;

/// A shipment as the list shows it.
#[derive(Debug)]
pub struct ShipmentRow {
    /// Its id, for the link.
    pub id: String,
    /// The bill of lading or booking number tracked.
    pub number: String,
    /// The line's SCAC.
    pub scac: String,
    /// Port of loading, named.
    pub from: String,
    /// Port of discharge, named.
    pub to: String,
    /// `Arrived` or `Expected`, with the time at the port of discharge; empty when the line
    /// gave neither.
    pub arrival: Option<(&'static str, Moment)>,
    /// Whether tracking has stopped.
    pub stopped: bool,
}

/// The summary of `shipment`.
#[must_use]
pub fn shipment_row(shipment: &Shipment) -> ShipmentRow {
    let route = &shipment.route;
    let pod = route.port_of_discharge.as_ref();
    let at = |label, at: Option<Timestamp>| {
        at.map(|at| (label, Moment::at(at, pod.map(|p| p.locode.as_str()))))
    };
    ShipmentRow {
        id: shipment.id.to_string(),
        number: shipment.bill_of_lading_number.clone(),
        scac: shipment.scac.to_string(),
        from: maybe_place(route.port_of_lading.as_ref()),
        to: maybe_place(pod),
        arrival: at("Arrived", route.pod_ata_at).or_else(|| at("Expected", route.pod_eta_at)),
        stopped: shipment.stopped_at.is_some(),
    }
}

/// The shipments page.
#[derive(Template)]
#[template(path = "console/shipments.html")]
struct Page {
    chrome: Chrome,
    /// The list's own path, for its form, its pager and its "clear" link.
    path: &'static str,
    rows: Vec<ShipmentRow>,
    total: u64,
    filters: Filters,
    customers: Vec<Choice>,
    stopped: Vec<Choice>,
    page: u32,
    pages: u32,
}

/// A port's UN/LOCODE as a filter takes it: five letters or digits, upper-cased.
fn locode(text: &str) -> Option<String> {
    let ok = text.len() == 5 && text.chars().all(|c| c.is_ascii_alphanumeric());
    ok.then(|| text.to_ascii_uppercase())
}

/// `GET /console/shipments?q=…&line=…&pol=…&pod=…&customer=…&stopped=yes|no&page=N`.
pub async fn page(
    State(state): State<AppState>,
    viewer: Viewer,
    PageQuery(query): PageQuery,
) -> Result<Response, ConsoleError> {
    let mut filters = Filters::read(query, &["q", "line", "pol", "pod", "customer", "stopped"]);
    let line = filters.parsed("line", "a SCAC, four letters", |text| {
        Scac::parse(text).ok()
    });
    let pol = filters.parsed("pol", "a UN/LOCODE, five letters or digits", locode);
    let pod = filters.parsed("pod", "a UN/LOCODE, five letters or digits", locode);
    let customer = filters.parsed("customer", "one of the account's customers", PartyId::parse);
    let stopped = filters.parsed("stopped", "yes or no", yes_no);
    let filter = ShipmentFilter {
        search: filters.text("q"),
        scac: line.into_iter().collect(),
        pol_locode: pol.into_iter().collect(),
        pod_locode: pod.into_iter().collect(),
        customer_id: customer.into_iter().collect(),
        tracking_stopped: stopped,
        ..ShipmentFilter::default()
    };
    let account = viewer.account_id;
    let page = PageRequest::new(filters.page(), PAGE_SIZE);
    let found = state.store.list_shipments(account, &filter, page).await?;
    let parties = state
        .store
        .list_parties(account, PageRequest::new(1, CUSTOMERS))
        .await?;
    let customers = parties
        .items
        .iter()
        .map(|party| Choice::new(party.id.to_string(), party.company_name.to_string()))
        .collect();
    let page = Page {
        path: "/console/shipments",
        chrome: Chrome::new("Shipments", "shipments", &viewer),
        rows: found.items.iter().map(shipment_row).collect(),
        total: found.total,
        customers,
        stopped: vec![Choice::new("no", "tracked"), Choice::new("yes", "stopped")],
        page: filters.page(),
        pages: filters.pages(found.total, PAGE_SIZE),
        filters,
    };
    html(&page)
}
