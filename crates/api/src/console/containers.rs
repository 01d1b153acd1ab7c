//! The containers list: every box of the account, narrowed by the filters a user combines
//! (status, available for pickup, on hold or held by whom, the shipment's line and ports,
//! the terminal, a last free day before a date at the terminal, the customer, and a search
//! by container or reference number), in the order chosen, all of it in the URL. Beside
//! each status, availability and hold choice, how many boxes it would find. Each row is the
//! overview's (`container::row`), so a box reads the same on every page.

use askama::Template;
use axum::extract::State;
use axum::response::Response;
use tidemark_domain::terminal::HoldName;
use tidemark_domain::{ContainerStatus, Scac};
use tidemark_store::{ContainerFilter, ContainerOrder, ContainerTally, PageRequest};

use super::container::{ContainerRow, row};
use super::export::Format;
use super::extract::PageQuery;
use super::filters::{Choice, Filters, counted, date, locode, yes_no};
use super::format::words;
use super::{Chrome, ConsoleError, Viewer, html, tables};
use crate::AppState;

/// Containers per page.
const PAGE_SIZE: u32 = 50;

/// The filters the list reads from its URL.
pub const NAMES: &[&str] = &[
    "q",
    "status",
    "available",
    "hold",
    "line",
    "pol",
    "pod",
    "terminal",
    "lfd_before",
    "customer",
    "sort",
];

/// The orders offered: the URL's value, the words, the store's order.
const ORDERS: [(&str, &str, ContainerOrder); 4] = [
    ("newest", "newest first", ContainerOrder::Newest),
    ("number", "container number", ContainerOrder::Number),
    (
        "last_free_day",
        "last free day, soonest first",
        ContainerOrder::LastFreeDay,
    ),
    ("status", "status", ContainerOrder::Status),
];

/// The hold filter: any hold or none (`yes`, `no`), or a hold of one name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Held {
    Any(bool),
    Named(HoldName),
}

impl Held {
    fn parse(text: &str) -> Option<Self> {
        yes_no(text)
            .map(Self::Any)
            .or_else(|| HoldName::parse(text).map(Self::Named))
    }

    fn keeps(self, tally: &ContainerTally) -> bool {
        match self {
            Self::Any(held) => tally.on_hold == held,
            Self::Named(name) => tally.holds.contains(&name),
        }
    }
}

/// What the URL asks of the list: the store's filter without the three counted choices,
/// and those choices apart, so each can be counted against the others.
#[derive(Debug)]
pub struct Asked {
    /// Every filter but status, availability and hold.
    pub rest: ContainerFilter,
    status: Option<ContainerStatus>,
    available: Option<bool>,
    held: Option<Held>,
}

impl Asked {
    /// Reads the list's filters from the URL (what the page shows and an export writes);
    /// a value it cannot read is said on the page and not applied.
    pub fn read(filters: &mut Filters) -> Self {
        let line = filters.parsed("line", "a SCAC, four letters", |text| {
            Scac::parse(text).ok()
        });
        let port = "a UN/LOCODE, five letters or digits";
        let (pol, pod) = (
            filters.parsed("pol", port, locode),
            filters.parsed("pod", port, locode),
        );
        let order = filters.parsed("sort", "an order this list offers", |text| {
            ORDERS
                .iter()
                .find(|(value, ..)| *value == text)
                .map(|(.., order)| *order)
        });
        let rest = ContainerFilter {
            search: filters.text("q"),
            scac: line.into_iter().collect(),
            pol_locode: pol.into_iter().collect(),
            pod_locode: pod.into_iter().collect(),
            terminal_code: filters
                .text("terminal")
                .map(|code| code.to_ascii_uppercase())
                .into_iter()
                .collect(),
            pickup_lfd_before: filters.parsed("lfd_before", "a date", date),
            customer_name: filters.text("customer").into_iter().collect(),
            order: order.unwrap_or_default(),
            ..ContainerFilter::default()
        };
        Self {
            rest,
            status: filters.parsed("status", "a container status", ContainerStatus::parse),
            available: filters.parsed("available", "yes or no", yes_no),
            held: filters.parsed("hold", "yes, no or a hold's name", Held::parse),
        }
    }

    /// The whole filter, as the list reads it.
    #[must_use]
    pub fn filter(&self) -> ContainerFilter {
        let (has_holds, hold_name) = match self.held {
            Some(Held::Any(held)) => (Some(held), Vec::new()),
            Some(Held::Named(name)) => (None, vec![name]),
            None => (None, Vec::new()),
        };
        ContainerFilter {
            current_status: self.status.into_iter().collect(),
            available_for_pickup: self.available,
            has_holds,
            hold_name,
            ..self.rest.clone()
        }
    }

    fn keeps_status(&self, tally: &ContainerTally) -> bool {
        self.status.is_none_or(|status| tally.status == status)
    }

    fn keeps_available(&self, tally: &ContainerTally) -> bool {
        self.available
            .is_none_or(|free| tally.available == Some(free))
    }

    fn keeps_held(&self, tally: &ContainerTally) -> bool {
        self.held.is_none_or(|held| held.keeps(tally))
    }
}

/// How many of `tallies` `keep` keeps.
fn count(tallies: &[ContainerTally], keep: impl Fn(&ContainerTally) -> bool) -> u64 {
    tallies
        .iter()
        .filter(|tally| keep(tally))
        .map(|tally| tally.count)
        .sum()
}

/// The containers page.
#[derive(Template)]
#[template(path = "console/containers.html")]
struct Page {
    chrome: Chrome,
    /// The list's own path, for its form, its pager and its "clear" link.
    path: &'static str,
    rows: Vec<ContainerRow>,
    /// Whether the account has container fields (a column of their values).
    show_fields: bool,
    total: u64,
    filters: Filters,
    statuses: Vec<Choice>,
    availability: Vec<Choice>,
    holds: Vec<Choice>,
    orders: Vec<Choice>,
    page: u32,
    pages: u32,
}

/// `GET /console/containers?q=…&status=…&available=yes|no&hold=yes|no|<name>&line=…&pol=…
/// &pod=…&terminal=…&lfd_before=YYYY-MM-DD&customer=…&sort=…&page=N`.
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
    let tallies = state.store.container_tallies(account, &asked.rest).await?;
    // The total is the tallies' (one read fewer): the list itself is not counted.
    let page = PageRequest {
        counted: false,
        ..PageRequest::new(filters.page(), PAGE_SIZE)
    };
    let found = state
        .store
        .list_containers(account, &asked.filter(), page)
        .await?;
    let total = count(&tallies, |t| {
        asked.keeps_status(t) && asked.keeps_available(t) && asked.keeps_held(t)
    });
    let by_status = |status| {
        count(&tallies, |t| {
            t.status == status && asked.keeps_available(t) && asked.keeps_held(t)
        })
    };
    let by_availability = |free| {
        count(&tallies, |t| {
            t.available == Some(free) && asked.keeps_status(t) && asked.keeps_held(t)
        })
    };
    let by_hold = |held: Held| {
        count(&tallies, |t| {
            held.keeps(t) && asked.keeps_status(t) && asked.keeps_available(t)
        })
    };
    let now = state.clock.now();
    let mut rows: Vec<ContainerRow> = found.items.iter().map(|c| row(c, now)).collect();
    let ids: Vec<_> = found.items.iter().map(|c| c.id.as_uuid()).collect();
    let kind = tidemark_domain::custom_field::EntityType::Container;
    let show_fields =
        super::custom_values::fill(&state, account, kind, &ids, &mut rows, |r| &mut r.fields)
            .await?;
    let page = Page {
        path: "/console/containers",
        chrome: Chrome::new("Containers", "containers", &viewer),
        show_fields,
        rows,
        total,
        statuses: ContainerStatus::ALL
            .into_iter()
            .map(|status| {
                let label = counted(&words(status.as_str()), by_status(status));
                Choice::new(status.as_str(), label)
            })
            .collect(),
        availability: [("yes", true), ("no", false)]
            .into_iter()
            .map(|(value, free)| Choice::new(value, counted(value, by_availability(free))))
            .collect(),
        holds: [
            ("yes", "any hold", Held::Any(true)),
            ("no", "none", Held::Any(false)),
        ]
        .into_iter()
        .chain(HoldName::ALL.map(|name| (name.as_str(), name.as_str(), Held::Named(name))))
        .map(|(value, label, held)| Choice::new(value, counted(label, by_hold(held))))
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
