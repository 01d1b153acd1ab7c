//! Shipments: their columns, rows and the tracker's upsert; and the API's reads of what
//! tracking found (api.md §4), always scoped by account, with the client's edits of
//! shipments. Containers, transport events and reference records have files of their own.

use async_trait::async_trait;
use tidemark_domain::{
    AccountId, Container, ContainerId, Reference, ReferenceKind, Scac, Shipment, ShipmentId,
    StopReason, Timestamp, TrackingRequestId, TrackingSource, TransportEvent,
};

use crate::db::{Backend, Paged, Query, Row, Value, parse_all};
use crate::{ContainerFilter, Page, PageRequest, ShipmentFilter, ShipmentOrder, StoreError};
use crate::{containers, references, transport_events};

/// The columns of `shipments`, in the order reads select and the upsert writes them.
pub(crate) const COLUMNS: &str = "id, account_id, tracking_request_id, bill_of_lading_number, \
     normalized_number, scac, ref_numbers, tags, pol_locode, pod_locode, route, source, \
     last_attempted_at, last_succeeded_at, last_changed_at, stopped_at, stopped_reason, \
     created_at, updated_at, pod_arrival_at, pod_predicted_eta_at, sailing_vessel_imo";

/// The carrier's push: read with `COLUMNS`, written only by [`crate::pushes`].
pub(crate) const PUSH_COLUMNS: &str =
    "carrier_subscription_id, carrier_push_secret, carrier_secret_set_at";

pub(crate) fn parse(row: &Row) -> Result<Shipment, StoreError> {
    Ok(Shipment {
        id: ShipmentId::from_uuid(row.required_id("id")?),
        account_id: AccountId::from_uuid(row.required_id("account_id")?),
        tracking_request_id: TrackingRequestId::from_uuid(row.required_id("tracking_request_id")?),
        bill_of_lading_number: row.required_text("bill_of_lading_number")?,
        normalized_number: row.required_text("normalized_number")?,
        scac: row.parsed("scac", |text| Scac::parse(text).ok())?,
        ref_numbers: row.json("ref_numbers")?,
        tags: row.json("tags")?,
        route: row.json("route")?,
        pod_predicted_eta_at: row.time("pod_predicted_eta_at")?,
        source: row.parsed("source", TrackingSource::parse)?,
        last_attempted_at: row.time("last_attempted_at")?,
        last_succeeded_at: row.time("last_succeeded_at")?,
        last_changed_at: row.required_time("last_changed_at")?,
        stopped_at: row.time("stopped_at")?,
        stopped_reason: row.parsed_opt("stopped_reason", StopReason::parse)?,
        carrier_push: crate::pushes::parse(row)?,
        created_at: row.required_time("created_at")?,
        updated_at: row.required_time("updated_at")?,
    })
}

/// Replaces the given lists of the client's (`ref_numbers`, `tags`) on `account`'s row `id`
/// of `table` (shipments, containers), touching its `updated_at`.
pub(crate) fn client_lists(
    table: &str,
    account: AccountId,
    id: uuid::Uuid,
    lists: &[(&str, Option<&[String]>)],
    at: Timestamp,
) -> Query {
    let mut update = Query::new(&format!("UPDATE {table} SET updated_at = "));
    update.bind(at);
    for (column, list) in lists {
        if let Some(list) = list {
            update
                .push(&format!(", {column} = "))
                .bind(Value::json(list));
        }
    }
    update
        .push(" WHERE id = ")
        .bind(id)
        .push(" AND account_id = ")
        .bind(account.as_uuid());
    update
}

/// Creates or updates a shipment; the client's `ref_numbers` and `tags` are never
/// overwritten by the tracker.
pub(crate) fn upsert(shipment: &Shipment) -> Query {
    let mut query = Query::new(&format!("INSERT INTO shipments ({COLUMNS}) VALUES "));
    query.bind_list(row(shipment)).push(UPSERT);
    query
}

/// Creates shipments, a hundred a statement (an import's; see [`crate::import`]).
pub(crate) fn insert_all<'a>(shipments: impl IntoIterator<Item = &'a Shipment>) -> Vec<Query> {
    Query::insert_rows(
        &format!("INSERT INTO shipments ({COLUMNS}) VALUES "),
        shipments.into_iter().map(row),
        "",
    )
}

/// What an upsert rewrites of a stored shipment.
const UPSERT: &str = " ON CONFLICT (id) DO UPDATE SET \
     bill_of_lading_number = excluded.bill_of_lading_number, \
     pol_locode = excluded.pol_locode, pod_locode = excluded.pod_locode, \
     route = excluded.route, source = excluded.source, \
     last_attempted_at = excluded.last_attempted_at, \
     last_succeeded_at = excluded.last_succeeded_at, \
     last_changed_at = excluded.last_changed_at, stopped_at = excluded.stopped_at, \
     stopped_reason = excluded.stopped_reason, updated_at = excluded.updated_at, \
     pod_arrival_at = excluded.pod_arrival_at, \
     pod_predicted_eta_at = excluded.pod_predicted_eta_at, \
     sailing_vessel_imo = excluded.sailing_vessel_imo";

/// A shipment's values, in the order of `COLUMNS`.
fn row(shipment: &Shipment) -> Vec<Value> {
    let route = &shipment.route;
    let locode = |place: &Option<tidemark_domain::Place>| place.as_ref().map(|p| p.locode.clone());
    vec![
        shipment.id.as_uuid().into(),
        shipment.account_id.as_uuid().into(),
        shipment.tracking_request_id.as_uuid().into(),
        shipment.bill_of_lading_number.as_str().into(),
        shipment.normalized_number.as_str().into(),
        shipment.scac.as_str().into(),
        Value::json(&shipment.ref_numbers),
        Value::json(&shipment.tags),
        locode(&route.port_of_lading).into(),
        locode(&route.port_of_discharge).into(),
        Value::json(route),
        shipment.source.as_str().into(),
        shipment.last_attempted_at.into(),
        shipment.last_succeeded_at.into(),
        shipment.last_changed_at.into(),
        shipment.stopped_at.into(),
        shipment.stopped_reason.map(|r| r.as_str()).into(),
        shipment.created_at.into(),
        shipment.updated_at.into(),
        route.pod_ata_at.or(route.pod_eta_at).into(),
        shipment.pod_predicted_eta_at.into(),
        shipment
            .sailing_vessel()
            .map(|vessel| vessel.imo.as_str())
            .into(),
    ]
}

/// The shipment a tracking request found.
pub(crate) fn of_request(request: TrackingRequestId) -> Query {
    let mut query = Query::new(&format!(
        "SELECT {COLUMNS}, {PUSH_COLUMNS} FROM shipments WHERE tracking_request_id = "
    ));
    query.bind(request.as_uuid());
    query
}

/// Parses a row of [`of_request`].
pub(crate) fn parse_row(row: &Row) -> Result<Shipment, StoreError> {
    parse(row)
}

/// Shipments, containers, transport events and reference data, for the API.
#[async_trait]
pub trait ShipmentStore: Send + Sync {
    /// One shipment of `account`.
    async fn shipment(
        &self,
        account: AccountId,
        id: ShipmentId,
    ) -> Result<Option<Shipment>, StoreError>;

    /// A page of `account`'s shipments, newest first.
    async fn list_shipments(
        &self,
        account: AccountId,
        filter: &ShipmentFilter,
        page: PageRequest,
    ) -> Result<Page<Shipment>, StoreError>;

    /// The shipments with these ids (for `include`).
    async fn shipments(
        &self,
        account: AccountId,
        ids: &[ShipmentId],
    ) -> Result<Vec<Shipment>, StoreError>;

    /// Replaces a shipment's `ref_numbers` and/or `tags`; `None` when there is no such
    /// shipment.
    async fn update_shipment(
        &self,
        account: AccountId,
        id: ShipmentId,
        ref_numbers: Option<&[String]>,
        tags: Option<&[String]>,
        at: tidemark_domain::Timestamp,
    ) -> Result<Option<Shipment>, StoreError>;

    /// One container of `account`.
    async fn container(
        &self,
        account: AccountId,
        id: ContainerId,
    ) -> Result<Option<Container>, StoreError>;

    /// Replaces a container's `ref_numbers`; `None` when there is no such container.
    async fn update_container(
        &self,
        account: AccountId,
        id: ContainerId,
        ref_numbers: &[String],
        at: tidemark_domain::Timestamp,
    ) -> Result<Option<Container>, StoreError>;

    /// A page of `account`'s containers, newest first.
    async fn list_containers(
        &self,
        account: AccountId,
        filter: &ContainerFilter,
        page: PageRequest,
    ) -> Result<Page<Container>, StoreError>;

    /// The containers with these ids, or of these shipments (for `include`), oldest first.
    async fn containers(
        &self,
        account: AccountId,
        ids: &[ContainerId],
        of_shipments: &[ShipmentId],
    ) -> Result<Vec<Container>, StoreError>;

    /// A page of a container's transport events, oldest first.
    async fn list_transport_events(
        &self,
        account: AccountId,
        container: ContainerId,
        page: PageRequest,
    ) -> Result<Page<TransportEvent>, StoreError>;

    /// Every transport event of these containers (for `include`), oldest first.
    async fn transport_events(
        &self,
        account: AccountId,
        containers: &[ContainerId],
    ) -> Result<Vec<TransportEvent>, StoreError>;

    /// A port (by id or UN/LOCODE), terminal (by id) or vessel (by id or IMO number).
    async fn reference(
        &self,
        kind: ReferenceKind,
        key: &str,
    ) -> Result<Option<Reference>, StoreError>;

    /// The records of `kind` with these codes (for `include`).
    async fn references(
        &self,
        kind: ReferenceKind,
        codes: &[String],
    ) -> Result<Vec<Reference>, StoreError>;

    /// The terminals known at these ports (by UN/LOCODE).
    async fn terminals_at(&self, ports: &[String]) -> Result<Vec<Reference>, StoreError>;
}

#[async_trait]
impl<B: Backend> ShipmentStore for B {
    async fn shipment(
        &self,
        account: AccountId,
        id: ShipmentId,
    ) -> Result<Option<Shipment>, StoreError> {
        Ok(self.shipments(account, &[id]).await?.into_iter().next())
    }

    async fn list_shipments(
        &self,
        account: AccountId,
        filter: &ShipmentFilter,
        page: PageRequest,
    ) -> Result<Page<Shipment>, StoreError> {
        let query = crate::lists::shipments_filtered(self, account, filter).await?;
        let select = format!("SELECT {COLUMNS}, {PUSH_COLUMNS}");
        let mut paged = Paged::newest_first(&select, query).ordered(match filter.order {
            ShipmentOrder::Newest => "created_at DESC, id DESC",
            ShipmentOrder::Number => "bill_of_lading_number, id",
            ShipmentOrder::Line => "scac, created_at DESC, id DESC",
            ShipmentOrder::Destination => "pod_locode, created_at DESC, id DESC",
        });
        if filter.is_whole_account() {
            // A whole account is counted from its kept counts, not by reading its rows.
            let kept = crate::counts::shipments(self.dialect(), account);
            paged.count = Some(crate::counts::total(kept));
        }
        paged.read(self, page, parse).await
    }

    async fn shipments(
        &self,
        account: AccountId,
        ids: &[ShipmentId],
    ) -> Result<Vec<Shipment>, StoreError> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        // Found by their ids (SQLite, without statistics, would rather walk the account's
        // index in the order asked for).
        let mut query = Query::scoped_unindexed(
            &format!("SELECT {COLUMNS}, {PUSH_COLUMNS} FROM shipments"),
            account,
            self.dialect().no_index,
        );
        query
            .push(" AND id IN ")
            .bind_list(ids.iter().map(ShipmentId::as_uuid))
            .push(" ORDER BY created_at, id");
        parse_all(self.fetch(&query).await?, parse)
    }

    async fn update_shipment(
        &self,
        account: AccountId,
        id: ShipmentId,
        ref_numbers: Option<&[String]>,
        tags: Option<&[String]>,
        at: Timestamp,
    ) -> Result<Option<Shipment>, StoreError> {
        let lists = [("ref_numbers", ref_numbers), ("tags", tags)];
        let update = client_lists("shipments", account, id.as_uuid(), &lists, at);
        if self.execute(update).await? == 0 {
            return Ok(None);
        }
        self.shipment(account, id).await
    }

    async fn container(
        &self,
        account: AccountId,
        id: ContainerId,
    ) -> Result<Option<Container>, StoreError> {
        Ok(self
            .containers(account, &[id], &[])
            .await?
            .into_iter()
            .next())
    }

    async fn update_container(
        &self,
        account: AccountId,
        id: ContainerId,
        ref_numbers: &[String],
        at: Timestamp,
    ) -> Result<Option<Container>, StoreError> {
        containers::update_ref_numbers(self, account, id, ref_numbers, at).await
    }

    async fn list_containers(
        &self,
        account: AccountId,
        filter: &ContainerFilter,
        page: PageRequest,
    ) -> Result<Page<Container>, StoreError> {
        crate::lists::containers(self, account, filter, page).await
    }

    async fn containers(
        &self,
        account: AccountId,
        ids: &[ContainerId],
        of_shipments: &[ShipmentId],
    ) -> Result<Vec<Container>, StoreError> {
        containers::by_id(self, account, ids, of_shipments).await
    }

    async fn list_transport_events(
        &self,
        account: AccountId,
        container: ContainerId,
        page: PageRequest,
    ) -> Result<Page<TransportEvent>, StoreError> {
        transport_events::list(self, account, container, page).await
    }

    async fn transport_events(
        &self,
        account: AccountId,
        containers: &[ContainerId],
    ) -> Result<Vec<TransportEvent>, StoreError> {
        transport_events::of_containers(self, account, containers).await
    }

    async fn reference(
        &self,
        kind: ReferenceKind,
        key: &str,
    ) -> Result<Option<Reference>, StoreError> {
        references::by_key(self, kind, key).await
    }

    async fn references(
        &self,
        kind: ReferenceKind,
        codes: &[String],
    ) -> Result<Vec<Reference>, StoreError> {
        references::by_code(self, kind, codes).await
    }

    async fn terminals_at(&self, ports: &[String]) -> Result<Vec<Reference>, StoreError> {
        references::terminals_at(self, ports).await
    }
}
