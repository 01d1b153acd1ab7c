//! Reading what tracking found (api.md §4): shipments, containers, transport events and
//! reference data, always scoped by account; and the client's edits of shipments. Written
//! once over [`Neutral`] for both backends.

use async_trait::async_trait;
use tidemark_domain::{
    AccountId, Container, ContainerId, Reference, ReferenceKind, Shipment, ShipmentId,
    TransportEvent,
};
use uuid::Uuid;

use crate::neutral::{
    Neutral, Query, page_in_order, page_of, parse_all, push_any, push_range, scoped,
};
use crate::plan::Value;
use crate::references::{code_column, reference_row, reference_select, references_where};
use crate::rows::{self, container_columns, shipment_columns, transport_event_columns};
use crate::sql::Search;
use crate::{ContainerFilter, Page, PageRequest, ShipmentFilter, StoreError};

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
impl<B: Neutral> ShipmentStore for B {
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
        let mut query = scoped(" FROM shipments", account);
        if !filter.number.is_empty() {
            query
                .push(" AND (normalized_number IN ")
                .bind_list(filter.number.clone())
                .push(" OR UPPER(bill_of_lading_number) IN ")
                .bind_list(filter.number.clone())
                .push(")");
        }
        if let Some(text) = &filter.search {
            let search = Search::of(text);
            query.push(" AND (");
            for pattern in &search.numbers {
                query
                    .push("normalized_number LIKE ")
                    .bind(pattern.clone())
                    .push(" ESCAPE '\\' OR UPPER(bill_of_lading_number) LIKE ")
                    .bind(pattern.clone())
                    .push(" ESCAPE '\\' OR id IN (SELECT shipment_id FROM containers WHERE number LIKE ")
                    .bind(pattern.clone())
                    .push(" ESCAPE '\\') OR ");
            }
            query
                .push("UPPER(CAST(ref_numbers AS TEXT)) LIKE ")
                .bind(search.reference)
                .push(" ESCAPE '\\')");
        }
        match filter.tracking_stopped {
            Some(true) => {
                query.push(" AND stopped_at IS NOT NULL");
            }
            Some(false) => {
                query.push(" AND stopped_at IS NULL");
            }
            None => {}
        }
        push_any(
            &mut query,
            "scac",
            filter.scac.iter().map(ToString::to_string).collect(),
        );
        push_any(&mut query, "pol_locode", filter.pol_locode.clone());
        push_any(&mut query, "pod_locode", filter.pod_locode.clone());
        push_range(&mut query, "updated_at", filter.updated_at);
        let select = concat!("SELECT ", shipment_columns!());
        page_of(self, select, query, page, rows::shipment).await
    }

    async fn shipments(
        &self,
        account: AccountId,
        ids: &[ShipmentId],
    ) -> Result<Vec<Shipment>, StoreError> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let mut query = scoped(
            concat!("SELECT ", shipment_columns!(), " FROM shipments"),
            account,
        );
        query
            .push(" AND id IN ")
            .bind_list(ids.iter().map(ShipmentId::as_uuid))
            .push(" ORDER BY created_at, id");
        parse_all(self.fetch(&query).await?, rows::shipment)
    }

    async fn update_shipment(
        &self,
        account: AccountId,
        id: ShipmentId,
        ref_numbers: Option<&[String]>,
        tags: Option<&[String]>,
        at: tidemark_domain::Timestamp,
    ) -> Result<Option<Shipment>, StoreError> {
        let mut update = Query::new("UPDATE shipments SET updated_at = ");
        update.bind(at);
        let json = |list: &[String]| Value::Json(serde_json::to_string(list).unwrap_or_default());
        if let Some(list) = ref_numbers {
            update.push(", ref_numbers = ").bind(json(list));
        }
        if let Some(list) = tags {
            update.push(", tags = ").bind(json(list));
        }
        update
            .push(" WHERE id = ")
            .bind(id.as_uuid())
            .push(" AND account_id = ")
            .bind(account.as_uuid());
        if self.execute(&update).await? == 0 {
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

    async fn list_containers(
        &self,
        account: AccountId,
        filter: &ContainerFilter,
        page: PageRequest,
    ) -> Result<Page<Container>, StoreError> {
        let mut query = scoped(" FROM containers", account);
        push_any(&mut query, "number", filter.number.clone());
        push_any(
            &mut query,
            "current_status",
            filter
                .current_status
                .iter()
                .map(|s| s.as_str().to_owned())
                .collect(),
        );
        push_range(&mut query, "updated_at", filter.updated_at);
        let select = concat!("SELECT ", container_columns!());
        page_of(self, select, query, page, rows::container).await
    }

    async fn containers(
        &self,
        account: AccountId,
        ids: &[ContainerId],
        of_shipments: &[ShipmentId],
    ) -> Result<Vec<Container>, StoreError> {
        if ids.is_empty() && of_shipments.is_empty() {
            return Ok(Vec::new());
        }
        let mut query = scoped(
            concat!("SELECT ", container_columns!(), " FROM containers"),
            account,
        );
        query
            .push(" AND (id IN ")
            .bind_list(ids.iter().map(ContainerId::as_uuid))
            .push(" OR shipment_id IN ")
            .bind_list(of_shipments.iter().map(ShipmentId::as_uuid))
            .push(") ORDER BY created_at, id");
        parse_all(self.fetch(&query).await?, rows::container)
    }

    async fn list_transport_events(
        &self,
        account: AccountId,
        container: ContainerId,
        page: PageRequest,
    ) -> Result<Page<TransportEvent>, StoreError> {
        let mut filter = scoped(" FROM transport_events", account);
        filter
            .push(" AND container_id = ")
            .bind(container.as_uuid());
        let select = concat!("SELECT ", transport_event_columns!());
        page_in_order(
            self,
            select,
            filter,
            "timestamp, id",
            page,
            rows::transport_event,
        )
        .await
    }

    async fn transport_events(
        &self,
        account: AccountId,
        containers: &[ContainerId],
    ) -> Result<Vec<TransportEvent>, StoreError> {
        if containers.is_empty() {
            return Ok(Vec::new());
        }
        let mut query = scoped(
            concat!(
                "SELECT ",
                transport_event_columns!(),
                " FROM transport_events"
            ),
            account,
        );
        query
            .push(" AND container_id IN ")
            .bind_list(containers.iter().map(ContainerId::as_uuid))
            .push(" ORDER BY timestamp, id");
        parse_all(self.fetch(&query).await?, rows::transport_event)
    }

    async fn reference(
        &self,
        kind: ReferenceKind,
        key: &str,
    ) -> Result<Option<Reference>, StoreError> {
        let mut query = Query::new(reference_select(kind));
        match Uuid::try_parse(key) {
            Ok(id) => query.push("id = ").bind(id),
            Err(_) if kind == ReferenceKind::Terminal => return Ok(None),
            Err(_) => query
                .push(code_column(kind))
                .push(" = ")
                .bind(key.to_ascii_uppercase()),
        };
        let rows = self.fetch(&query).await?;
        rows.first().map(|row| reference_row(kind, row)).transpose()
    }

    async fn references(
        &self,
        kind: ReferenceKind,
        codes: &[String],
    ) -> Result<Vec<Reference>, StoreError> {
        references_where(self, kind, code_column(kind), codes).await
    }

    async fn terminals_at(&self, ports: &[String]) -> Result<Vec<Reference>, StoreError> {
        references_where(self, ReferenceKind::Terminal, "port_locode", ports).await
    }
}
