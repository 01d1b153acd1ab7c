//! The carrier events kept per container (the container's `raw_events`): a JSON document
//! per container (its own events) and per shipment (events listed with every container),
//! replaced whole when the domain says it changed. Their SQL, their
//! stored form and their reads, written once for both backends; a lookup's commit writes
//! them ([`crate::changes`]).

use async_trait::async_trait;
use serde::{Deserialize, Serialize};
use tidemark_domain::{
    AccountId, CarrierEvent, CarrierEventType, ContainerEvents, ContainerId, EventClassifier,
    Milestone, Place, RawEvent, RawEventId, ShipmentId, Timestamp, VesselRef,
};
use uuid::Uuid;

use crate::db::{Backend, Query, Row, Value};
use crate::{Page, PageRequest, StoreError};

/// Every kept-event document of the shipment `$1`.
const OF_SHIPMENT: &str = "SELECT container_id, account_id, shipment_id, events \
     FROM raw_event_documents WHERE shipment_id = $1";

/// One kept event as stored in the document.
#[derive(Debug, Serialize, Deserialize)]
struct Stored {
    id: Uuid,
    source_id: String,
    event_type: String,
    code: String,
    classifier: String,
    milestone: Option<String>,
    at: Timestamp,
    reported_at: Timestamp,
    place: Option<Place>,
    vessel: Option<VesselRef>,
    voyage: Option<String>,
    call_id: Option<String>,
    empty: Option<bool>,
    created_at: Timestamp,
    updated_at: Timestamp,
}

impl From<&RawEvent> for Stored {
    fn from(record: &RawEvent) -> Self {
        let event = &record.event;
        Self {
            id: record.id.as_uuid(),
            source_id: event.source_id.clone(),
            event_type: event.event_type.as_str().to_owned(),
            code: event.code.clone(),
            classifier: event.classifier.as_str().to_owned(),
            milestone: event.milestone.map(|m| m.as_str().to_owned()),
            at: event.at,
            reported_at: event.reported_at,
            place: event.place.clone(),
            vessel: event.vessel.clone(),
            voyage: event.voyage.clone(),
            call_id: event.call_id.clone(),
            empty: event.empty,
            created_at: record.created_at,
            updated_at: record.updated_at,
        }
    }
}

fn corrupt(field: &str, value: &str) -> StoreError {
    StoreError::corrupt(format!("raw event {field} {value:?}"))
}

impl Stored {
    fn record(
        self,
        owner: (AccountId, ShipmentId, Option<ContainerId>),
    ) -> Result<RawEvent, StoreError> {
        let milestone = self
            .milestone
            .map(|name| {
                Milestone::ALL
                    .into_iter()
                    .find(|m| m.as_str() == name)
                    .ok_or_else(|| corrupt("milestone", &name))
            })
            .transpose()?;
        Ok(RawEvent {
            id: RawEventId::from_uuid(self.id),
            account_id: owner.0,
            shipment_id: owner.1,
            container_id: owner.2,
            event: CarrierEvent {
                event_type: CarrierEventType::parse(&self.event_type)
                    .ok_or_else(|| corrupt("event_type", &self.event_type))?,
                classifier: EventClassifier::parse(&self.classifier)
                    .ok_or_else(|| corrupt("classifier", &self.classifier))?,
                source_id: self.source_id,
                code: self.code,
                at: self.at,
                reported_at: self.reported_at,
                place: self.place,
                vessel: self.vessel,
                voyage: self.voyage,
                call_id: self.call_id,
                empty: self.empty,
                milestone,
            },
            created_at: self.created_at,
            updated_at: self.updated_at,
        })
    }
}

/// Every kept-event document of `shipment`.
pub(crate) fn of_shipment(shipment: ShipmentId) -> Query {
    Query::with(OF_SHIPMENT, vec![shipment.as_uuid().into()])
}

/// Replaces the kept events of each owner in `changed` (the document's id is the
/// container's, or the shipment's for its own events), written at `now`, a hundred
/// documents a statement.
pub(crate) fn upsert_all(changed: &[ContainerEvents], now: Timestamp) -> Vec<Query> {
    let rows = changed.iter().map(|changed| {
        let stored: Vec<Stored> = changed.events.iter().map(Stored::from).collect();
        let owner = changed.owner;
        let document = owner
            .container_id
            .map_or(owner.shipment_id.as_uuid(), |c| c.as_uuid());
        let row = vec![
            document.into(),
            owner.account_id.as_uuid().into(),
            owner.shipment_id.as_uuid().into(),
            owner.container_id.map(|c| c.as_uuid()).into(),
            Value::json(&stored),
            now.into(),
        ];
        (document, row)
    });
    Query::upsert_rows(
        "INSERT INTO raw_event_documents \
         (id, account_id, shipment_id, container_id, events, updated_at) VALUES ",
        rows,
        " ON CONFLICT (id) DO UPDATE SET events = excluded.events, \
         updated_at = excluded.updated_at",
    )
}

/// The events of one row of [`OF_SHIPMENT`] (or of the list below), oldest first.
pub(crate) fn events(row: &Row) -> Result<Vec<RawEvent>, StoreError> {
    let owner = (
        AccountId::from_uuid(row.required_id("account_id")?),
        ShipmentId::from_uuid(row.required_id("shipment_id")?),
        row.id("container_id")?.map(ContainerId::from_uuid),
    );
    let stored: Vec<Stored> = row.json("events")?;
    stored.into_iter().map(|s| s.record(owner)).collect()
}

/// The carrier events kept per container, for the API.
#[async_trait]
pub trait RawEventStore: Send + Sync {
    /// A page of a container's kept carrier events, oldest first (by when they happen,
    /// then by when Tidemark kept them).
    async fn list_raw_events(
        &self,
        account: AccountId,
        container: ContainerId,
        page: PageRequest,
    ) -> Result<Page<RawEvent>, StoreError>;

    /// Every kept carrier event of each of `containers` (the account's), as listed with
    /// it ([`RawEvent::listed_with`]), oldest first; one statement for them all.
    async fn raw_events_of(
        &self,
        account: AccountId,
        containers: &[ContainerId],
    ) -> Result<Vec<RawEvent>, StoreError>;
}

#[async_trait]
impl<B: Backend> RawEventStore for B {
    async fn list_raw_events(
        &self,
        account: AccountId,
        container: ContainerId,
        page: PageRequest,
    ) -> Result<Page<RawEvent>, StoreError> {
        let mut query = Query::scoped(
            "SELECT container_id, account_id, shipment_id, events FROM raw_event_documents",
            account,
        );
        query
            .push(" AND (container_id = ")
            .bind(container.as_uuid())
            .push(" OR (container_id IS NULL AND shipment_id = ")
            .push("(SELECT shipment_id FROM containers WHERE id = ")
            .bind(container.as_uuid())
            .push(")))");
        let mut all = Vec::new();
        for row in self.fetch(&query).await? {
            all.extend(
                events(&row)?
                    .iter()
                    .map(|record| record.listed_with(container)),
            );
        }
        all.sort_by(tidemark_domain::raw_event::order);
        let total = u64::try_from(all.len()).unwrap_or(u64::MAX);
        let skip = usize::try_from(page.offset()).unwrap_or(usize::MAX);
        let take = usize::try_from(page.limit()).unwrap_or(usize::MAX);
        Ok(Page {
            items: all.into_iter().skip(skip).take(take).collect(),
            total,
        })
    }

    async fn raw_events_of(
        &self,
        account: AccountId,
        containers: &[ContainerId],
    ) -> Result<Vec<RawEvent>, StoreError> {
        if containers.is_empty() {
            return Ok(Vec::new());
        }
        // A container's own document, and its shipment's.
        let mut query = Query::new(
            "SELECT c.id AS listed_with, d.container_id, d.account_id, d.shipment_id, d.events \
             FROM containers c JOIN raw_event_documents d ON d.account_id = c.account_id \
             AND d.shipment_id = c.shipment_id \
             AND (d.container_id = c.id OR d.container_id IS NULL) WHERE c.account_id = ",
        );
        query
            .bind(account.as_uuid())
            .push(" AND c.id IN ")
            .bind_list(containers.iter().map(ContainerId::as_uuid));
        let mut all = Vec::new();
        for row in self.fetch(&query).await? {
            let container = ContainerId::from_uuid(row.required_id("listed_with")?);
            all.extend(events(&row)?.iter().map(|r| r.listed_with(container)));
        }
        all.sort_by(tidemark_domain::raw_event::order);
        Ok(all)
    }
}
