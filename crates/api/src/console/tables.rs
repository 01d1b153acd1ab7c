//! The lists as tables to export ([`super::export`]): the same records, filters and order
//! the page shows, a column per fact, times in ISO 8601 with their zone (a place's time in
//! its own zone with its offset, a system time in UTC), and a column per custom field of the
//! records' kind, each value as it displays.

use std::sync::Arc;

use async_trait::async_trait;
use tidemark_domain::custom_field::{Definition, EntityType, FieldOption};
use tidemark_domain::local_time::iso_at;
use tidemark_domain::{AccountId, Container, Shipment, Timestamp, TrackingRequest};
use tidemark_store::{
    ContainerFilter, CustomFieldFilter, DefinitionFilter, PageRequest, ShipmentFilter, Store,
    StoreError, TimeRange, TrackingRequestFilter,
};
use uuid::Uuid;

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
    ($filter:ty, $item:ty, $kind:ident, $name:literal, [$($column:literal),* $(,)?], $list:ident, $row:ident) => {
        #[async_trait]
        impl Listing for $filter {
            type Item = $item;
            const NAME: &'static str = $name;
            const HEADER: &'static [&'static str] = &[$($column),*];
            const KIND: EntityType = EntityType::$kind;

            fn id(item: &Self::Item) -> Uuid {
                item.id.as_uuid()
            }

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
    type Item: Send + Sync;
    /// The file's name, without its extension.
    const NAME: &'static str;
    /// The header row.
    const HEADER: &'static [&'static str];
    /// The kind of record it holds, whose custom fields are columns after the header's.
    const KIND: EntityType;

    /// `item`'s id.
    fn id(item: &Self::Item) -> Uuid;

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
    /// The account's custom fields of the list's kind, a column each.
    fields: Vec<(Definition, Vec<FieldOption>)>,
}

impl<L: Listing> Export<L> {
    /// The records `filter` finds in `account`, as they were at `now`.
    async fn new(
        store: Arc<dyn Store>,
        account: AccountId,
        filter: L,
        now: Timestamp,
    ) -> Result<Self, StoreError> {
        let filter = filter.until(now);
        let kind = DefinitionFilter {
            entity_type: vec![L::KIND],
            ..DefinitionFilter::default()
        };
        let mut definitions = store.list_definitions(account, &kind, page(1)).await?.items;
        definitions.sort_by(|a, b| (&a.display_name, a.id).cmp(&(&b.display_name, b.id)));
        let ids: Vec<_> = definitions.iter().map(|d| d.id).collect();
        let options = store.options(account, &ids).await?;
        let fields = definitions
            .into_iter()
            .map(|definition| {
                let own = options
                    .iter()
                    .filter(|o| o.definition_id == definition.id)
                    .cloned()
                    .collect();
                (definition, own)
            })
            .collect();
        Ok(Self {
            store,
            account,
            filter,
            fields,
        })
    }

    /// The custom field columns of `items`' rows.
    async fn values(&self, items: &[L::Item]) -> Result<Vec<Vec<String>>, StoreError> {
        if self.fields.is_empty() || items.is_empty() {
            return Ok(vec![Vec::new(); items.len()]);
        }
        let ids: Vec<Uuid> = items.iter().map(L::id).collect();
        let filter = CustomFieldFilter {
            entity_id: ids.clone(),
            definition_id: self.fields.iter().map(|(d, _)| d.id).collect(),
            ..CustomFieldFilter::default()
        };
        let most = u32::try_from(ids.len() * self.fields.len()).unwrap_or(u32::MAX);
        let values = self
            .store
            .list_custom_fields(self.account, &filter, PageRequest::first_rows(most))
            .await?
            .items;
        Ok(ids
            .iter()
            .map(|id| {
                self.fields
                    .iter()
                    .map(|(definition, options)| {
                        values
                            .iter()
                            .find(|v| v.entity_id == *id && v.definition_id == definition.id)
                            .map(|v| v.value.display(options))
                            .unwrap_or_default()
                    })
                    .collect()
            })
            .collect())
    }
}

/// The records `filter` finds in `account` now, exported in `format`, with a column per
/// custom field of their kind.
///
/// # Errors
/// When the account's custom fields cannot be read.
pub async fn exported<L: Listing>(
    state: &crate::AppState,
    account: AccountId,
    format: super::export::Format,
    filter: L,
) -> Result<axum::response::Response, StoreError> {
    let table = Export::new(state.store.clone(), account, filter, state.clock.now()).await?;
    Ok(super::export::answer(format, table))
}

#[async_trait]
impl<L: Listing> Table for Export<L> {
    const NAME: &'static str = L::NAME;

    fn header(&self) -> Vec<String> {
        let fields = self.fields.iter().map(|(d, _)| d.display_name.clone());
        L::HEADER
            .iter()
            .map(|&name| name.to_owned())
            .chain(fields)
            .collect()
    }

    async fn rows(&mut self, number: u32) -> Result<Vec<Vec<String>>, StoreError> {
        let items = self
            .filter
            .list(self.store.as_ref(), self.account, page(number))
            .await?;
        let values = self.values(&items).await?;
        Ok(items
            .iter()
            .zip(values)
            .map(|(item, mut fields)| {
                let mut row = L::row(item);
                row.append(&mut fields);
                row
            })
            .collect())
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
