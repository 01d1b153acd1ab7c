//! The lists people work from: a containers list's filters (on the box, on its shipment,
//! on its terminal), the orders both lists are read in, and the counts a list shows beside
//! its choices (kept as the rows are written for a whole account, [`crate::counts`];
//! counted from the rows a filter keeps otherwise). And the one derivation, when the store opens, of the columns the filters
//! read for containers written before those columns were (migration
//! `0026_container_list_filters`).

use async_trait::async_trait;
use tidemark_domain::terminal::HoldName;
use tidemark_domain::{AccountId, Container, ContainerStatus, Scac};

use crate::containers::{self, COLUMNS};
use crate::counts;
use crate::db::{Backend, Paged, Query, Row, Value, parse_all};
use crate::parties::{self, Customers};
use crate::search::{self, Searched};
use crate::{
    ContainerFilter, ContainerOrder, ContainerTally, Page, PageRequest, ShipmentFilter,
    ShipmentTally, StoreError,
};

/// The counts of the lists.
#[async_trait]
pub trait ListStore: Send + Sync {
    /// How many of `account`'s containers matching `filter` stand each way (status,
    /// availability, hold), a tally per combination found.
    async fn container_tallies(
        &self,
        account: AccountId,
        filter: &ContainerFilter,
    ) -> Result<Vec<ContainerTally>, StoreError>;

    /// How many of `account`'s shipments matching `filter` are with each line, tracked or
    /// stopped.
    async fn shipment_tallies(
        &self,
        account: AccountId,
        filter: &ShipmentFilter,
    ) -> Result<Vec<ShipmentTally>, StoreError>;

    /// Folds the kept counts' pending changes into them (a no-op where there are none to
    /// fold); returns how many counts changed.
    async fn fold_counts(&self) -> Result<u64, StoreError>;
}

/// `FROM shipments WHERE …`: `account`'s shipments that `filter` matches.
pub(crate) async fn shipments_filtered<B: Backend + ?Sized>(
    backend: &B,
    account: AccountId,
    filter: &ShipmentFilter,
) -> Result<Query, StoreError> {
    let text = filter.search.as_deref();
    let mut query = search::scoped(backend, Searched::Shipments, account, text).await?;
    if !filter.number.is_empty() {
        query
            .push(" AND (normalized_number IN ")
            .bind_list(filter.number.iter().cloned().map(Value::sought))
            .push(" OR ")
            .push(&backend.dialect().upper("bill_of_lading_number"))
            .push(" IN ")
            .bind_list(filter.number.iter().cloned().map(Value::sought))
            .push(")");
    }
    if let Some(stopped) = filter.tracking_stopped {
        query.push(if stopped {
            " AND stopped_at IS NOT NULL"
        } else {
            " AND stopped_at IS NULL"
        });
    }
    parties::narrow_to_customers(&mut query, Customers::OfShipments, &filter.customer_id, &[]);
    query
        .push_any("scac", filter.scac.iter().map(ToString::to_string))
        .push_any("pol_locode", filter.pol_locode.iter().cloned())
        .push_any("pod_locode", filter.pod_locode.iter().cloned())
        .push_range("updated_at", filter.updated_at)
        .push_range("created_at", filter.created_at)
        .push_range("pod_arrival_at", filter.arrival);
    Ok(query)
}

/// `FROM containers WHERE …`: `account`'s containers that `filter` matches.
async fn filtered<B: Backend + ?Sized>(
    backend: &B,
    account: AccountId,
    filter: &ContainerFilter,
) -> Result<Query, StoreError> {
    let text = filter.search.as_deref();
    let mut query = search::scoped(backend, Searched::Containers, account, text).await?;
    query
        .push_any("number", filter.number.iter().cloned())
        .push_any(
            "current_status",
            filter.current_status.iter().map(|s| s.as_str()),
        )
        .push_eq("available_for_pickup", filter.available_for_pickup)
        .push_eq("has_holds", filter.has_holds)
        .push_range("pickup_lfd", filter.pickup_lfd)
        .push_range("updated_at", filter.updated_at)
        .push_range("created_at", filter.created_at)
        .push_any("terminal_code", filter.terminal_code.iter().cloned());
    if let Some(day) = filter.pickup_lfd_before {
        query.push(" AND pickup_lfd_day < ").bind(day.to_string());
    }
    if !filter.hold_name.is_empty() {
        query.push(" AND (1 = 0");
        for name in &filter.hold_name {
            query
                .push(" OR hold_names LIKE ")
                .bind(format!("%|{}|%", name.as_str()));
        }
        query.push(")");
    }
    let (scac, pol, pod) = (&filter.scac, &filter.pol_locode, &filter.pod_locode);
    if !(scac.is_empty() && pol.is_empty() && pod.is_empty()) {
        query
            .push(" AND shipment_id IN (SELECT id FROM shipments WHERE account_id = ")
            .bind(account.as_uuid())
            .push_any("scac", scac.iter().map(ToString::to_string))
            .push_any("pol_locode", pol.iter().cloned())
            .push_any("pod_locode", pod.iter().cloned())
            .push(")");
    }
    let (ids, names) = (&filter.customer_id, &filter.customer_name);
    parties::narrow_to_customers(&mut query, Customers::OfContainers, ids, names);
    Ok(query)
}

/// A page of `account`'s containers matching `filter`, in its order.
pub(crate) async fn containers<B: Backend + ?Sized>(
    backend: &B,
    account: AccountId,
    filter: &ContainerFilter,
    page: PageRequest,
) -> Result<Page<Container>, StoreError> {
    let query = filtered(backend, account, filter).await?;
    let select = format!("SELECT {COLUMNS}");
    let mut paged = Paged::newest_first(&select, query).ordered(match filter.order {
        ContainerOrder::Newest => "created_at DESC, id DESC",
        ContainerOrder::Number => "number, id",
        // None last: `pickup_lfd_order` holds the far future for them (indexed).
        ContainerOrder::LastFreeDay => "pickup_lfd_order, id",
        ContainerOrder::Status => "current_status, created_at DESC, id DESC",
    });
    if filter.is_whole_account() {
        // A whole account is counted from its kept counts, not by reading its rows.
        paged.count = Some(counts::total(counts::containers(
            backend.dialect(),
            account,
        )));
    }
    paged.read(backend, page, containers::parse).await
}

/// What a containers list is counted by.
const TALLIED: &str = "current_status, available_for_pickup, has_holds, hold_names";

fn container_tally(row: &Row) -> Result<ContainerTally, StoreError> {
    Ok(ContainerTally {
        status: row.parsed("current_status", ContainerStatus::parse)?,
        available: row.int_opt("available_for_pickup")?.map(|flag| flag != 0),
        on_hold: row.bool("has_holds")?,
        holds: row
            .text("hold_names")?
            .unwrap_or_default()
            .split('|')
            .filter_map(HoldName::parse)
            .collect(),
        count: u64::try_from(row.int("count")?).unwrap_or(0),
    })
}

fn shipment_tally(row: &Row) -> Result<ShipmentTally, StoreError> {
    Ok(ShipmentTally {
        scac: row.parsed("scac", |text| Scac::parse(text).ok())?,
        stopped: row.int("stopped")? != 0,
        count: u64::try_from(row.int("count")?).unwrap_or(0),
    })
}

#[async_trait]
impl<B: Backend> ListStore for B {
    async fn container_tallies(
        &self,
        account: AccountId,
        filter: &ContainerFilter,
    ) -> Result<Vec<ContainerTally>, StoreError> {
        if filter.is_whole_account() {
            let kept = counts::containers(self.dialect(), account);
            return parse_all(self.fetch(&kept).await?, container_tally);
        }
        let filter = filtered(self, account, filter).await?;
        let mut query = Query::new(&format!("SELECT {TALLIED}, COUNT(*) AS count"));
        query.push(&filter.sql);
        query.values = filter.values;
        query.push(" GROUP BY ").push(TALLIED);
        parse_all(self.fetch(&query).await?, container_tally)
    }

    async fn shipment_tallies(
        &self,
        account: AccountId,
        filter: &ShipmentFilter,
    ) -> Result<Vec<ShipmentTally>, StoreError> {
        if filter.is_whole_account() {
            let kept = counts::shipments(self.dialect(), account);
            return parse_all(self.fetch(&kept).await?, shipment_tally);
        }
        let filter = shipments_filtered(self, account, filter).await?;
        let stopped = "CASE WHEN stopped_at IS NULL THEN 0 ELSE 1 END";
        let mut query = Query::new(&format!(
            "SELECT scac, {stopped} AS stopped, COUNT(*) AS count"
        ));
        query.push(&filter.sql);
        query.values = filter.values;
        query.push(&format!(" GROUP BY scac, {stopped}"));
        parse_all(self.fetch(&query).await?, shipment_tally)
    }

    async fn fold_counts(&self) -> Result<u64, StoreError> {
        let folds = counts::fold(self.dialect());
        if folds.is_empty() {
            return Ok(0);
        }
        let written = self.write(crate::db::Unit::of(folds)).await?;
        Ok(written.affected().iter().sum())
    }
}

/// Containers derived a statement at a time.
const DERIVED_AT_ONCE: i64 = 500;

/// Derives the list columns of containers written before they existed; the count derived.
/// A row a writer rewrites meanwhile keeps what the writer derived: only a row still
/// underived is updated.
pub(crate) async fn derive_underived<B: Backend + ?Sized>(backend: &B) -> Result<u64, StoreError> {
    let mut derived = 0;
    loop {
        let mut read = Query::new(&format!(
            "SELECT {COLUMNS} FROM containers WHERE hold_names IS NULL LIMIT "
        ));
        read.bind(DERIVED_AT_ONCE);
        let rows = parse_all(backend.fetch(&read).await?, containers::parse)?;
        if rows.is_empty() {
            return Ok(derived);
        }
        let updates = rows.iter().map(containers::derive).collect();
        let written = backend.write(crate::db::Unit::of(updates)).await?;
        // Every row read is derived now, by this or by a writer, and drops out of the next
        // read.
        derived += written.done.iter().map(|done| done.affected).sum::<u64>();
    }
}
