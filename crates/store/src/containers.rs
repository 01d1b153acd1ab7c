//! Containers: their columns, rows, the tracker's upsert and the API's reads, written once.

use tidemark_domain::{AccountId, Container, ContainerId, ContainerStatus, ShipmentId, Timestamp};

use crate::StoreError;
use crate::db::{Backend, Query, Row, Value, parse_all};

/// The columns of `containers`, in the order reads select and the upsert writes them.
pub(crate) const COLUMNS: &str = "id, account_id, shipment_id, number, current_status, ref_numbers, \
     details, terminal, available_for_pickup, pickup_lfd, has_holds, terminal_checked_at, \
     terminal_subscribed_until, created_at, updated_at";

pub(crate) fn parse(row: &Row) -> Result<Container, StoreError> {
    Ok(Container {
        id: ContainerId::from_uuid(row.required_id("id")?),
        account_id: AccountId::from_uuid(row.required_id("account_id")?),
        shipment_id: ShipmentId::from_uuid(row.required_id("shipment_id")?),
        number: row.required_text("number")?,
        current_status: row.parsed("current_status", ContainerStatus::parse)?,
        ref_numbers: row.json("ref_numbers")?,
        details: row.json("details")?,
        terminal: row.json("terminal")?,
        terminal_checked_at: row.time("terminal_checked_at")?,
        terminal_subscribed_until: row.time("terminal_subscribed_until")?,
        created_at: row.required_time("created_at")?,
        updated_at: row.required_time("updated_at")?,
    })
}

/// The columns the lists filter on that the domain derives from a container's view (migration
/// `0026_container_list_filters`), written with it.
const DERIVED: &str = "terminal_code, hold_names, pickup_lfd_day, pickup_lfd_order";

/// What `pickup_lfd_order` holds for a box without a last free day: after every real one.
fn no_last_free_day() -> Timestamp {
    Timestamp::from_datetime(time::macros::datetime!(9999-12-31 23:59:59 UTC))
}

/// The values of [`DERIVED`] for `container`: the names of the blocking holds as
/// `|customs|freight|` (`|` for none), so one name is found with `LIKE '%|customs|%'`.
fn derived(container: &Container) -> [Value; 4] {
    let standing = container.standing();
    let mut holds = String::from("|");
    for hold in standing.holds.iter().filter(|hold| hold.blocks()) {
        holds.push_str(hold.name.as_str());
        holds.push('|');
    }
    [
        container
            .terminal_code()
            .map(|code| code.as_str().to_owned())
            .into(),
        holds.into(),
        container.pickup_lfd_day().into(),
        standing.pickup_lfd.unwrap_or_else(no_last_free_day).into(),
    ]
}

/// Writes the [`DERIVED`] columns of `container` if still underived (`hold_names` null).
pub(crate) fn derive(container: &Container) -> Query {
    let [terminal, holds, day, order] = derived(container);
    let mut update = Query::new("UPDATE containers SET terminal_code = ");
    update
        .bind(terminal)
        .push(", hold_names = ")
        .bind(holds)
        .push(", pickup_lfd_day = ")
        .bind(day)
        .push(", pickup_lfd_order = ")
        .bind(order)
        .push(" WHERE id = ")
        .bind(container.id.as_uuid())
        .push(" AND hold_names IS NULL");
    update
}

/// Creates or updates containers, a hundred a statement; their `ref_numbers` belong to
/// the client. When a container's terminal was last checked, and until when the terminal
/// pushes, only move forward: a lookup read before a check that changed nothing else (and
/// so left the request as it was, raising no conflict) cannot take them back.
pub(crate) fn upsert_all(containers: &[Container]) -> Vec<Query> {
    let rows = containers.iter().map(|container| {
        let standing = container.standing();
        let row: Vec<Value> = vec![
            container.id.as_uuid().into(),
            container.account_id.as_uuid().into(),
            container.shipment_id.as_uuid().into(),
            container.number.as_str().into(),
            standing.status.as_str().into(),
            Value::json(&container.ref_numbers),
            Value::json(&container.details),
            // The view whole, and what the lists filter on: how the box stands, as the
            // domain decides it and every answer shows it.
            Value::json(&container.terminal),
            standing.available_for_pickup.into(),
            standing.pickup_lfd.into(),
            standing.on_hold().into(),
            container.terminal_checked_at.into(),
            container.terminal_subscribed_until.into(),
            container.created_at.into(),
            container.updated_at.into(),
        ];
        let row = row.into_iter().chain(derived(container)).collect();
        (container.id.as_uuid(), row)
    });
    Query::upsert_rows(
        &format!("INSERT INTO containers ({COLUMNS}, {DERIVED}) VALUES "),
        rows,
        " ON CONFLICT (id) DO UPDATE SET current_status = excluded.current_status, \
         details = excluded.details, terminal = excluded.terminal, \
         available_for_pickup = excluded.available_for_pickup, pickup_lfd = excluded.pickup_lfd, \
         has_holds = excluded.has_holds, terminal_checked_at = CASE \
         WHEN containers.terminal_checked_at IS NULL \
         OR excluded.terminal_checked_at > containers.terminal_checked_at \
         THEN excluded.terminal_checked_at ELSE containers.terminal_checked_at END, \
         terminal_subscribed_until = CASE WHEN containers.terminal_subscribed_until IS NULL \
         OR excluded.terminal_subscribed_until > containers.terminal_subscribed_until \
         THEN excluded.terminal_subscribed_until ELSE containers.terminal_subscribed_until END, \
         updated_at = excluded.updated_at, terminal_code = excluded.terminal_code, \
         hold_names = excluded.hold_names, pickup_lfd_day = excluded.pickup_lfd_day, \
         pickup_lfd_order = excluded.pickup_lfd_order",
    )
}

/// Every container of a shipment, oldest first.
pub(crate) fn of_shipment(shipment: ShipmentId) -> Query {
    let mut query = Query::new(&format!(
        "SELECT {COLUMNS} FROM containers WHERE shipment_id = "
    ));
    query
        .bind(shipment.as_uuid())
        .push(" ORDER BY created_at, id");
    query
}

/// Parses the rows of [`of_shipment`].
pub(crate) fn parse_rows(rows: Vec<Row>) -> Result<Vec<Container>, StoreError> {
    parse_all(rows, parse)
}

/// The containers with these ids or of these shipments, oldest first.
pub(crate) async fn by_id<B: Backend + ?Sized>(
    backend: &B,
    account: AccountId,
    ids: &[ContainerId],
    of_shipments: &[ShipmentId],
) -> Result<Vec<Container>, StoreError> {
    if ids.is_empty() && of_shipments.is_empty() {
        return Ok(Vec::new());
    }
    // Found by their ids and shipments' (SQLite, without statistics, would rather walk
    // the account's index in the order asked for).
    let mut query = Query::scoped_unindexed(
        &format!("SELECT {COLUMNS} FROM containers"),
        account,
        backend.dialect().no_index,
    );
    query
        .push(" AND (id IN ")
        .bind_list(ids.iter().map(ContainerId::as_uuid))
        .push(" OR shipment_id IN ")
        .bind_list(of_shipments.iter().map(ShipmentId::as_uuid))
        .push(") ORDER BY created_at, id");
    parse_all(backend.fetch(&query).await?, parse)
}

/// Replaces the client's `ref_numbers` of `account`'s container `id`; `None` when it has no
/// such container.
pub(crate) async fn update_ref_numbers<B: Backend + ?Sized>(
    backend: &B,
    account: AccountId,
    id: ContainerId,
    ref_numbers: &[String],
    at: Timestamp,
) -> Result<Option<Container>, StoreError> {
    let lists = [("ref_numbers", Some(ref_numbers))];
    let update = crate::shipments::client_lists("containers", account, id.as_uuid(), &lists, at);
    if backend.execute(update).await? == 0 {
        return Ok(None);
    }
    Ok(by_id(backend, account, &[id], &[])
        .await?
        .into_iter()
        .next())
}
