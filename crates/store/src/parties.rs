//! Parties: an account's customers, named by its tracking requests (`customer_id`), by
//! which its shipments and containers are found. Written once over [`Backend`].

use async_trait::async_trait;
use tidemark_domain::{AccountId, CompanyName, Party, PartyId, ShipmentId, TrackingRequest};

use crate::db::{Backend, Paged, Query, Row, parse_all};
use crate::{Page, PageRequest, StoreError};

/// The columns of `parties`, in the order reads select them.
const COLUMNS: &str = "SELECT id, account_id, company_name, created_at, updated_at";

/// An account's customers.
#[async_trait]
pub trait PartyStore: Send + Sync {
    /// Stores a new party.
    async fn create_party(&self, party: &Party) -> Result<(), StoreError>;

    /// One party of `account`.
    async fn party(&self, account: AccountId, id: PartyId) -> Result<Option<Party>, StoreError>;

    /// The parties of `account` with these ids (for `include`).
    async fn parties(&self, account: AccountId, ids: &[PartyId]) -> Result<Vec<Party>, StoreError>;

    /// A page of `account`'s parties, newest first.
    async fn list_parties(
        &self,
        account: AccountId,
        page: PageRequest,
    ) -> Result<Page<Party>, StoreError>;

    /// Replaces a party's name; false when its account has no such party.
    async fn update_party(&self, party: &Party) -> Result<bool, StoreError>;

    /// The name of `request`'s customer, when it names one (for the records its events
    /// carry).
    async fn customer_name(&self, request: &TrackingRequest) -> Result<Option<String>, StoreError> {
        let Some(id) = request.customer else {
            return Ok(None);
        };
        let party = self.party(request.account_id, id).await?;
        Ok(party.map(|party| party.company_name.to_string()))
    }

    /// The customer of each of these shipments that has one: its tracking request's.
    async fn customers_of_shipments(
        &self,
        account: AccountId,
        shipments: &[ShipmentId],
    ) -> Result<Vec<(ShipmentId, Party)>, StoreError>;
}

fn parse(row: &Row) -> Result<Party, StoreError> {
    Ok(Party {
        id: PartyId::from_uuid(row.required_id("id")?),
        account_id: AccountId::from_uuid(row.required_id("account_id")?),
        company_name: CompanyName::from_stored(row.required_text("company_name")?),
        created_at: row.required_time("created_at")?,
        updated_at: row.required_time("updated_at")?,
    })
}

/// The records a list narrows to customers: each names its tracking request its own way.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Customers {
    /// Shipments, by their `tracking_request_id`.
    OfShipments,
    /// Containers, by their shipment's.
    OfContainers,
}

impl Customers {
    /// The list's column, and the ids it may hold (each joined to its request as `r`).
    const fn via(self) -> (&'static str, &'static str) {
        match self {
            Self::OfShipments => (
                "tracking_request_id",
                "SELECT r.id FROM tracking_requests r",
            ),
            Self::OfContainers => (
                "shipment_id",
                "SELECT s.id FROM shipments s JOIN tracking_requests r ON r.id = s.tracking_request_id",
            ),
        }
    }
}

/// Narrows a query of shipments or containers to those of customers with any of `ids`
/// and any of `names` (exact); an empty list narrows nothing.
pub(crate) fn narrow_to_customers(
    query: &mut Query,
    of: Customers,
    ids: &[PartyId],
    names: &[String],
) {
    if ids.is_empty() && names.is_empty() {
        return;
    }
    let (column, via) = of.via();
    query.push(&format!(
        " AND {column} IN ({via} JOIN parties p ON p.id = r.customer_id WHERE 1 = 1"
    ));
    query
        .push_any("p.id", ids.iter().map(PartyId::as_uuid))
        .push_any("p.company_name", names.iter().cloned())
        .push(")");
}

#[async_trait]
impl<B: Backend> PartyStore for B {
    async fn create_party(&self, party: &Party) -> Result<(), StoreError> {
        let mut insert = Query::new(
            "INSERT INTO parties (id, account_id, company_name, created_at, updated_at) VALUES ",
        );
        insert.bind_list::<crate::db::Value>([
            party.id.as_uuid().into(),
            party.account_id.as_uuid().into(),
            party.company_name.as_str().into(),
            party.created_at.into(),
            party.updated_at.into(),
        ]);
        self.execute(insert).await?;
        Ok(())
    }

    async fn party(&self, account: AccountId, id: PartyId) -> Result<Option<Party>, StoreError> {
        Ok(self.parties(account, &[id]).await?.into_iter().next())
    }

    async fn parties(&self, account: AccountId, ids: &[PartyId]) -> Result<Vec<Party>, StoreError> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let mut query = Query::scoped(&format!("{COLUMNS} FROM parties"), account);
        query
            .push(" AND id IN ")
            .bind_list(ids.iter().map(PartyId::as_uuid));
        parse_all(self.fetch(&query).await?, parse)
    }

    async fn list_parties(
        &self,
        account: AccountId,
        page: PageRequest,
    ) -> Result<Page<Party>, StoreError> {
        Paged::newest_first(COLUMNS, Query::scoped(" FROM parties", account))
            .read(self, page, parse)
            .await
    }

    async fn update_party(&self, party: &Party) -> Result<bool, StoreError> {
        let mut update = Query::new("UPDATE parties SET company_name = ");
        update
            .bind(party.company_name.as_str())
            .push(", updated_at = ")
            .bind(party.updated_at)
            .push(" WHERE account_id = ")
            .bind(party.account_id.as_uuid())
            .push(" AND id = ")
            .bind(party.id.as_uuid());
        Ok(self.execute(update).await? > 0)
    }

    async fn customers_of_shipments(
        &self,
        account: AccountId,
        shipments: &[ShipmentId],
    ) -> Result<Vec<(ShipmentId, Party)>, StoreError> {
        if shipments.is_empty() {
            return Ok(Vec::new());
        }
        let mut query = Query::new(
            "SELECT s.id AS shipment_id, p.id, p.account_id, p.company_name, p.created_at, \
             p.updated_at FROM shipments s JOIN tracking_requests r \
             ON r.id = s.tracking_request_id JOIN parties p ON p.id = r.customer_id \
             WHERE p.account_id = ",
        );
        query
            .bind(account.as_uuid())
            .push(" AND s.id IN ")
            .bind_list(shipments.iter().map(ShipmentId::as_uuid));
        parse_all(self.fetch(&query).await?, |row| {
            Ok((
                ShipmentId::from_uuid(row.required_id("shipment_id")?),
                parse(row)?,
            ))
        })
    }
}
