//! The shipments list: every shipment of the account, newest first, narrowed by the
//! filters a user combines (shipping line, ports of loading and discharge, customer,
//! tracking stopped or not, and a search), all of them in the URL so a list can be
//! bookmarked and shared.

use askama::Template;
use axum::extract::State;
use axum::response::Response;
use tidemark_domain::{PartyId, Scac, Shipment, Timestamp};
use tidemark_store::{PageRequest, ShipmentFilter, ShipmentOrder, ShipmentTally};

use super::export::Format;
use super::extract::PageQuery;
use super::filters::{Choice, Filters, counted, locode, yes_no};
use super::format::maybe_place;
use super::local::Moment;
use super::{Chrome, ConsoleError, Viewer, html, tables};
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
    /// Its custom field values, as one cell (the list's column).
    pub fields: String,
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
        fields: String::new(),
    }
}

/// The filters the list reads from its URL.
pub const NAMES: &[&str] = &["q", "line", "pol", "pod", "customer", "stopped", "sort"];

/// The orders offered: the URL's value, the words, the store's order.
const ORDERS: [(&str, &str, ShipmentOrder); 4] = [
    ("newest", "newest first", ShipmentOrder::Newest),
    ("number", "bill or booking number", ShipmentOrder::Number),
    ("line", "line", ShipmentOrder::Line),
    (
        "destination",
        "port of discharge",
        ShipmentOrder::Destination,
    ),
];

/// What the URL asks of the list: the store's filter without the two counted choices (line,
/// tracking stopped), and those apart, so each can be counted against the other.
#[derive(Debug)]
pub struct Asked {
    /// Every filter but the line and whether tracking stopped.
    pub rest: ShipmentFilter,
    line: Option<Scac>,
    stopped: Option<bool>,
}

impl Asked {
    /// Reads the list's filters from the URL (what the page shows and an export writes);
    /// a value it cannot read is said on the page and not applied.
    pub fn read(filters: &mut Filters) -> Self {
        let port = "a UN/LOCODE, five letters or digits";
        let (pol, pod) = (
            filters.parsed("pol", port, locode),
            filters.parsed("pod", port, locode),
        );
        let customer = filters.parsed("customer", "one of the account's customers", PartyId::parse);
        let order = filters.parsed("sort", "an order this list offers", |text| {
            ORDERS
                .iter()
                .find(|(value, ..)| *value == text)
                .map(|(.., order)| *order)
        });
        Self {
            rest: ShipmentFilter {
                search: filters.text("q"),
                pol_locode: pol.into_iter().collect(),
                pod_locode: pod.into_iter().collect(),
                customer_id: customer.into_iter().collect(),
                order: order.unwrap_or_default(),
                ..ShipmentFilter::default()
            },
            line: filters.parsed("line", "a SCAC, four letters", |text| {
                Scac::parse(text).ok()
            }),
            stopped: filters.parsed("stopped", "yes or no", yes_no),
        }
    }

    /// The whole filter, as the list reads it.
    #[must_use]
    pub fn filter(&self) -> ShipmentFilter {
        ShipmentFilter {
            scac: self.line.into_iter().collect(),
            tracking_stopped: self.stopped,
            ..self.rest.clone()
        }
    }

    fn keeps_line(&self, tally: &ShipmentTally) -> bool {
        self.line.as_ref().is_none_or(|line| &tally.scac == line)
    }

    fn keeps_stopped(&self, tally: &ShipmentTally) -> bool {
        self.stopped.is_none_or(|stopped| tally.stopped == stopped)
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
    /// Whether the account has shipment fields (a column of their values).
    show_fields: bool,
    total: u64,
    filters: Filters,
    lines: Vec<Choice>,
    customers: Vec<Choice>,
    stopped: Vec<Choice>,
    orders: Vec<Choice>,
    page: u32,
    pages: u32,
}

/// `GET /console/shipments?q=…&line=…&pol=…&pod=…&customer=…&stopped=yes|no&sort=…&page=N`.
pub async fn page(
    State(state): State<AppState>,
    viewer: Viewer,
    PageQuery(mut query): PageQuery,
) -> Result<Response, ConsoleError> {
    let format = Format::take(&mut query)?;
    let mut filters = Filters::read(query, NAMES);
    let asked = Asked::read(&mut filters);
    let account = viewer.account_id;
    if format != Format::Page {
        filters.refuse_unread()?;
        return Ok(tables::exported(&state, account, format, asked.filter()).await?);
    }
    let tallies = state.store.shipment_tallies(account, &asked.rest).await?;
    let count = |keep: &dyn Fn(&ShipmentTally) -> bool| -> u64 {
        tallies.iter().filter(|t| keep(t)).map(|t| t.count).sum()
    };
    // The total is the tallies' (one read fewer): the list itself is not counted.
    let page = PageRequest {
        counted: false,
        ..PageRequest::new(filters.page(), PAGE_SIZE)
    };
    let found = state
        .store
        .list_shipments(account, &asked.filter(), page)
        .await?;
    let total = count(&|t| asked.keeps_line(t) && asked.keeps_stopped(t));
    let mut lines: Vec<Scac> = tallies.iter().map(|t| t.scac).chain(asked.line).collect();
    lines.sort_by_key(ToString::to_string);
    lines.dedup();
    let parties = state
        .store
        .list_parties(account, PageRequest::new(1, CUSTOMERS))
        .await?;
    let mut rows: Vec<ShipmentRow> = found.items.iter().map(shipment_row).collect();
    let ids: Vec<_> = found.items.iter().map(|s| s.id.as_uuid()).collect();
    let kind = tidemark_domain::custom_field::EntityType::Shipment;
    let show_fields =
        super::custom_values::fill(&state, account, kind, &ids, &mut rows, |r| &mut r.fields)
            .await?;
    let page = Page {
        path: "/console/shipments",
        chrome: Chrome::new("Shipments", "shipments", &viewer),
        show_fields,
        rows,
        total,
        lines: lines
            .iter()
            .map(|line| {
                let found = count(&|t| &t.scac == line && asked.keeps_stopped(t));
                Choice::new(line.to_string(), counted(&line.to_string(), found))
            })
            .collect(),
        customers: parties
            .items
            .iter()
            .map(|party| Choice::new(party.id.to_string(), party.company_name.to_string()))
            .collect(),
        stopped: [("no", "tracked", false), ("yes", "stopped", true)]
            .into_iter()
            .map(|(value, label, stopped)| {
                let found = count(&|t| t.stopped == stopped && asked.keeps_line(t));
                Choice::new(value, counted(label, found))
            })
            .collect(),
        orders: ORDERS
            .iter()
            .map(|(value, label, _)| Choice::new(*value, *label))
            .collect(),
        page: filters.page(),
        pages: filters.pages(total, PAGE_SIZE),
        filters,
    };
    html(&page)
}
