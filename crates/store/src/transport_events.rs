//! Transport events: their columns, rows, the tracker's insert and the API's reads, written
//! once.

use tidemark_domain::{
    AccountId, ContainerId, Place, ShipmentId, TransportEvent, TransportEventId,
    TransportEventKind, VesselRef, shipment::locode,
};

use crate::db::{Backend, Paged, Query, Row, parse_all};
use crate::{Page, PageRequest, StoreError};

/// The columns of `transport_events`, in the order reads select and the insert writes them.
const COLUMNS: &str = "id, account_id, shipment_id, container_id, event, timestamp, \
     location_locode, location_name, facility, vessel_imo, vessel_name, voyage_number, \
     created_at";

fn parse(row: &Row) -> Result<TransportEvent, StoreError> {
    let locode = row.required_text("location_locode")?;
    let location = if locode.is_empty() {
        None
    } else {
        Some(Place {
            locode,
            name: row.text("location_name")?,
            facility: row.text("facility")?,
        })
    };
    let vessel = match row.text("vessel_imo")? {
        Some(imo) => Some(VesselRef {
            imo,
            name: row.text("vessel_name")?,
        }),
        None => None,
    };
    Ok(TransportEvent {
        id: TransportEventId::from_uuid(row.required_id("id")?),
        account_id: AccountId::from_uuid(row.required_id("account_id")?),
        shipment_id: ShipmentId::from_uuid(row.required_id("shipment_id")?),
        container_id: ContainerId::from_uuid(row.required_id("container_id")?),
        kind: row.parsed("event", TransportEventKind::parse)?,
        timestamp: row.required_time("timestamp")?,
        location,
        vessel,
        voyage_number: row.text("voyage_number")?,
        created_at: row.required_time("created_at")?,
    })
}

/// Records transport events, each unless the same (container, event, location, time) is
/// known.
pub(crate) fn insert_all(events: &[TransportEvent]) -> Vec<Query> {
    let rows = events.iter().map(|event| {
        let place = event.location.as_ref();
        vec![
            event.id.as_uuid().into(),
            event.account_id.as_uuid().into(),
            event.shipment_id.as_uuid().into(),
            event.container_id.as_uuid().into(),
            event.kind.name().into(),
            event.timestamp.into(),
            locode(place).into(),
            place.and_then(|p| p.name.clone()).into(),
            place.and_then(|p| p.facility.clone()).into(),
            event.vessel.as_ref().map(|v| v.imo.clone()).into(),
            event.vessel.as_ref().and_then(|v| v.name.clone()).into(),
            event.voyage_number.clone().into(),
            event.created_at.into(),
        ]
    });
    Query::insert_rows(
        &format!("INSERT INTO transport_events ({COLUMNS}) VALUES "),
        rows,
        " ON CONFLICT DO NOTHING",
    )
}

/// Every transport event of a shipment, in time order.
pub(crate) fn of_shipment(shipment: ShipmentId) -> Query {
    let mut query = Query::new(&format!(
        "SELECT {COLUMNS} FROM transport_events WHERE shipment_id = "
    ));
    query
        .bind(shipment.as_uuid())
        .push(" ORDER BY timestamp, id");
    query
}

/// Parses the rows of [`of_shipment`].
pub(crate) fn parse_rows(rows: Vec<Row>) -> Result<Vec<TransportEvent>, StoreError> {
    parse_all(rows, parse)
}

/// A page of a container's transport events, in time order.
pub(crate) async fn list<B: Backend + ?Sized>(
    backend: &B,
    account: AccountId,
    container: ContainerId,
    page: PageRequest,
) -> Result<Page<TransportEvent>, StoreError> {
    let mut filter = Query::scoped(" FROM transport_events", account);
    filter
        .push(" AND container_id = ")
        .bind(container.as_uuid());
    let select = format!("SELECT {COLUMNS}");
    let mut paged = Paged::newest_first(&select, filter);
    paged.order = "timestamp, id";
    paged.read(backend, page, parse).await
}

/// Every transport event of these containers, in time order.
pub(crate) async fn of_containers<B: Backend + ?Sized>(
    backend: &B,
    account: AccountId,
    containers: &[ContainerId],
) -> Result<Vec<TransportEvent>, StoreError> {
    if containers.is_empty() {
        return Ok(Vec::new());
    }
    let mut query = Query::scoped(&format!("SELECT {COLUMNS} FROM transport_events"), account);
    query
        .push(" AND container_id IN ")
        .bind_list(containers.iter().map(ContainerId::as_uuid))
        .push(" ORDER BY timestamp, id");
    parse_all(backend.fetch(&query).await?, parse)
}
