//! The carrier events kept per container (the container's `raw_events`): their SQL, their
//! rows and their reads, written once for both backends. They are written by a lookup's
//! commit ([`crate::plan`]).

use async_trait::async_trait;
use tidemark_domain::{
    AccountId, CarrierEvent, CarrierEventType, ContainerId, EventClassifier, Milestone, Place,
    RawEvent, RawEventId, RawEventVersion, ShipmentId,
};

use crate::neutral::Neutral;
use crate::plan::Value;
use crate::rows::{self, Columns, parsed};
use crate::shipments::{page_in_order, scoped};
use crate::{Page, PageRequest, StoreError};

/// The columns of `raw_events`.
macro_rules! raw_event_columns {
    () => {
        "id, account_id, shipment_id, container_id, source_id, event_type, code, classifier, \
         milestone, occurred_at, reported_at, location_locode, location_name, facility, \
         vessel_imo, vessel_name, voyage_number, call_id, empty_indicator, created_at, \
         updated_at"
    };
}

/// Keeps a carrier event for a container: inserted when new, replaced when this version
/// was recorded later than the kept one (its id and `created_at` stay).
pub(crate) const UPSERT: &str = concat!(
    "INSERT INTO raw_events (",
    raw_event_columns!(),
    ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, \
     $18, $19, $20, $21) ON CONFLICT (container_id, source_id) DO UPDATE SET \
     event_type = excluded.event_type, code = excluded.code, \
     classifier = excluded.classifier, milestone = excluded.milestone, \
     occurred_at = excluded.occurred_at, reported_at = excluded.reported_at, \
     location_locode = excluded.location_locode, location_name = excluded.location_name, \
     facility = excluded.facility, vessel_imo = excluded.vessel_imo, \
     vessel_name = excluded.vessel_name, voyage_number = excluded.voyage_number, \
     call_id = excluded.call_id, empty_indicator = excluded.empty_indicator, \
     updated_at = excluded.updated_at \
     WHERE raw_events.reported_at < excluded.reported_at"
);

/// Which version of each event is kept, for the shipment `$1`.
pub(crate) const VERSIONS_OF_SHIPMENT: &str =
    "SELECT container_id, source_id, reported_at FROM raw_events WHERE shipment_id = $1";

/// DCSA's `emptyIndicatorCode` of a flag.
fn empty_indicator(empty: Option<bool>) -> Option<&'static str> {
    empty.map(|empty| if empty { "EMPTY" } else { "LADEN" })
}

/// The values of [`UPSERT`].
pub(crate) fn upsert_values(record: &RawEvent) -> Vec<Value> {
    let event = &record.event;
    let place = event.place.as_ref();
    vec![
        record.id.as_uuid().into(),
        record.account_id.as_uuid().into(),
        record.shipment_id.as_uuid().into(),
        record.container_id.as_uuid().into(),
        event.source_id.clone().into(),
        event.event_type.as_str().into(),
        event.code.clone().into(),
        event.classifier.as_str().into(),
        event.milestone.map(Milestone::as_str).into(),
        event.at.into(),
        event.reported_at.into(),
        place.map(|p| p.locode.clone()).into(),
        place.and_then(|p| p.name.clone()).into(),
        place.and_then(|p| p.facility.clone()).into(),
        event.vessel.as_ref().map(|v| v.imo.clone()).into(),
        event.vessel.as_ref().and_then(|v| v.name.clone()).into(),
        event.voyage.clone().into(),
        event.call_id.clone().into(),
        empty_indicator(event.empty).into(),
        record.created_at.into(),
        record.updated_at.into(),
    ]
}

/// A row of [`VERSIONS_OF_SHIPMENT`].
pub(crate) fn version(row: &impl Columns) -> Result<RawEventVersion, StoreError> {
    Ok(RawEventVersion {
        container_id: ContainerId::from_uuid(row.required_id("container_id")?),
        source_id: row.required_text("source_id")?,
        reported_at: row.required_time("reported_at")?,
    })
}

fn raw_event(row: &impl Columns) -> Result<RawEvent, StoreError> {
    let event_type = row.required_text("event_type")?;
    let classifier = row.required_text("classifier")?;
    let place = row
        .text("location_locode")?
        .map(|locode| -> Result<Place, StoreError> {
            Ok(Place {
                locode,
                name: row.text("location_name")?,
                facility: row.text("facility")?,
            })
        })
        .transpose()?;
    let vessel = rows::vessel(row)?;
    let empty = row
        .text("empty_indicator")?
        .map(|code| {
            parsed("empty_indicator", &code, |c| match c {
                "EMPTY" => Some(true),
                "LADEN" => Some(false),
                _ => None,
            })
        })
        .transpose()?;
    let milestone = row
        .text("milestone")?
        .map(|name| {
            parsed("milestone", &name, |n| {
                Milestone::ALL.into_iter().find(|m| m.as_str() == n)
            })
        })
        .transpose()?;
    Ok(RawEvent {
        id: RawEventId::from_uuid(row.required_id("id")?),
        account_id: AccountId::from_uuid(row.required_id("account_id")?),
        shipment_id: ShipmentId::from_uuid(row.required_id("shipment_id")?),
        container_id: ContainerId::from_uuid(row.required_id("container_id")?),
        event: CarrierEvent {
            source_id: row.required_text("source_id")?,
            event_type: parsed("event_type", &event_type, CarrierEventType::parse)?,
            code: row.required_text("code")?,
            classifier: parsed("classifier", &classifier, EventClassifier::parse)?,
            at: row.required_time("occurred_at")?,
            reported_at: row.required_time("reported_at")?,
            place,
            vessel,
            voyage: row.text("voyage_number")?,
            call_id: row.text("call_id")?,
            empty,
            milestone,
        },
        created_at: row.required_time("created_at")?,
        updated_at: row.required_time("updated_at")?,
    })
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
}

#[async_trait]
impl<B: Neutral> RawEventStore for B {
    async fn list_raw_events(
        &self,
        account: AccountId,
        container: ContainerId,
        page: PageRequest,
    ) -> Result<Page<RawEvent>, StoreError> {
        let mut filter = scoped(" FROM raw_events", account);
        filter
            .push(" AND container_id = ")
            .bind(container.as_uuid());
        let select = concat!("SELECT ", raw_event_columns!());
        page_in_order(self, select, filter, "occurred_at, id", page, raw_event).await
    }
}
