//! The lists as tables to export ([`super::export`]): the same records, filters and order
//! the page shows, a column per fact, times in ISO 8601 with their zone (a place's time in
//! its own zone with its offset, a system time in UTC).

use std::sync::Arc;

use async_trait::async_trait;
use tidemark_domain::local_time::iso_at;
use tidemark_domain::{AccountId, Container, Shipment, Timestamp, TrackingRequest};
use tidemark_store::{
    ContainerFilter, PageRequest, ShipmentFilter, Store, StoreError, TimeRange,
    TrackingRequestFilter,
};

use super::export::{EXPORT_PAGE, Table};

/// Page `number` of an export, uncounted.
fn page(number: u32) -> PageRequest {
    PageRequest {
        counted: false,
        ..PageRequest::new(number, EXPORT_PAGE)
    }
}

/// What existed at `now`: an export's pages do not shift as records arrive.
fn until(now: Timestamp) -> TimeRange {
    TimeRange {
        start: None,
        end: Some(now),
    }
}

fn text(value: Option<impl ToString>) -> String {
    value.map(|value| value.to_string()).unwrap_or_default()
}

fn flag(value: Option<bool>) -> String {
    text(value.map(|yes| if yes { "yes" } else { "no" }))
}

/// A client's list in one cell: `PO-1; PO-2`.
fn joined(values: &[String]) -> String {
    values.join("; ")
}

/// A list's [`Listing`]: its filter, item, file name, header, the store's read and the row.
macro_rules! listing {
    ($filter:ty, $item:ty, $name:literal, [$($column:literal),* $(,)?], $list:ident, $row:ident) => {
        #[async_trait]
        impl Listing for $filter {
            type Item = $item;
            const NAME: &'static str = $name;
            const HEADER: &'static [&'static str] = &[$($column),*];

            fn until(self, now: Timestamp) -> Self {
                Self {
                    created_at: until(now),
                    ..self
                }
            }

            async fn list(
                &self,
                store: &dyn Store,
                account: AccountId,
                page: PageRequest,
            ) -> Result<Vec<Self::Item>, StoreError> {
                Ok(store.$list(account, self, page).await?.items)
            }

            fn row(item: &Self::Item) -> Vec<String> {
                $row(item)
            }
        }
    };
}

/// A list's filter, and what reading it as a table takes.
#[async_trait]
pub trait Listing: Send + Sync + 'static {
    /// What the list holds.
    type Item: Send;
    /// The file's name, without its extension.
    const NAME: &'static str;
    /// The header row.
    const HEADER: &'static [&'static str];

    /// This filter, narrowed to records created by `now`.
    #[must_use]
    fn until(self, now: Timestamp) -> Self;

    /// Page `page` of the list.
    async fn list(
        &self,
        store: &dyn Store,
        account: AccountId,
        page: PageRequest,
    ) -> Result<Vec<Self::Item>, StoreError>;

    /// `item` as a row.
    fn row(item: &Self::Item) -> Vec<String>;
}

/// A list to export: the records `filter` finds in `account`, as they were when the export
/// began.
pub struct Export<L> {
    store: Arc<dyn Store>,
    account: AccountId,
    filter: L,
}

impl<L: Listing> Export<L> {
    /// The records `filter` finds in `account`, as they were at `now`.
    fn new(store: Arc<dyn Store>, account: AccountId, filter: L, now: Timestamp) -> Self {
        let filter = filter.until(now);
        Self {
            store,
            account,
            filter,
        }
    }
}

/// The records `filter` finds in `account` now, exported in `format`.
pub fn exported<L: Listing>(
    state: &crate::AppState,
    account: AccountId,
    format: super::export::Format,
    filter: L,
) -> axum::response::Response {
    let table = Export::new(state.store.clone(), account, filter, state.clock.now());
    super::export::answer(format, table)
}

#[async_trait]
impl<L: Listing> Table for Export<L> {
    const NAME: &'static str = L::NAME;

    fn header(&self) -> &'static [&'static str] {
        L::HEADER
    }

    async fn rows(&mut self, number: u32) -> Result<Vec<Vec<String>>, StoreError> {
        let items = self
            .filter
            .list(self.store.as_ref(), self.account, page(number))
            .await?;
        Ok(items.iter().map(L::row).collect())
    }
}

fn container(container: &Container) -> Vec<String> {
    let standing = container.standing();
    let pod = container.details.pod_locode.as_deref();
    let holds: Vec<String> = standing
        .holds
        .iter()
        .filter(|hold| hold.blocks())
        .map(|hold| hold.name.as_str().to_owned())
        .collect();
    vec![
        container.number.clone(),
        standing.status.as_str().to_owned(),
        flag(standing.available_for_pickup),
        joined(&holds),
        text(
            container
                .terminal_code()
                .map(|code| code.as_str().to_owned()),
        ),
        text(pod),
        text(standing.pickup_lfd.map(|lfd| iso_at(lfd, pod))),
        text(container.pickup_lfd_day()),
        joined(&container.ref_numbers),
        container.updated_at.to_string(),
        container.id.to_string(),
    ]
}

listing!(
    ContainerFilter,
    Container,
    "containers",
    [
        "number",
        "current_status",
        "available_for_pickup",
        "holds",
        "terminal",
        "port_of_discharge",
        "pickup_lfd",
        "pickup_lfd_date",
        "ref_numbers",
        "updated_at",
        "id"
    ],
    list_containers,
    container
);

fn shipment(shipment: &Shipment) -> Vec<String> {
    let route = &shipment.route;
    let pol = route
        .port_of_lading
        .as_ref()
        .map(|place| place.locode.as_str());
    let pod = route
        .port_of_discharge
        .as_ref()
        .map(|place| place.locode.as_str());
    vec![
        shipment.bill_of_lading_number.clone(),
        shipment.scac.to_string(),
        text(pol),
        text(pod),
        text(route.pol_etd_at.map(|at| iso_at(at, pol))),
        text(route.pod_eta_at.map(|at| iso_at(at, pod))),
        text(route.pod_ata_at.map(|at| iso_at(at, pod))),
        flag(Some(shipment.stopped_at.is_some())),
        joined(&shipment.ref_numbers),
        joined(&shipment.tags),
        shipment.created_at.to_string(),
        shipment.id.to_string(),
    ]
}

listing!(
    ShipmentFilter,
    Shipment,
    "shipments",
    [
        "bill_of_lading_number",
        "shipping_line_scac",
        "port_of_lading",
        "port_of_discharge",
        "pol_etd_at",
        "pod_eta_at",
        "pod_ata_at",
        "tracking_stopped",
        "ref_numbers",
        "tags",
        "created_at",
        "id"
    ],
    list_shipments,
    shipment
);

fn request(request: &TrackingRequest) -> Vec<String> {
    vec![
        request.request_number.to_string(),
        request.request_type.as_str().to_owned(),
        text(request.scac),
        request.status.as_str().to_owned(),
        text(request.failed_reason.map(|reason| reason.as_str())),
        joined(&request.ref_numbers),
        request.created_at.to_string(),
        text(request.tracked_object),
        request.id.to_string(),
    ]
}

listing!(
    TrackingRequestFilter,
    TrackingRequest,
    "tracking_requests",
    [
        "request_number",
        "request_type",
        "scac",
        "status",
        "failed_reason",
        "ref_numbers",
        "created_at",
        "shipment_id",
        "id"
    ],
    list_tracking_requests,
    request
);
