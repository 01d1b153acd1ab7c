//! The outbox of domain events, and the subscription rule that fans each out to the
//! webhooks that want it, written once.

use tidemark_domain::{AccountId, DomainEvent, DomainEventId, EventName, ShipmentId, Subject};

use crate::StoreError;
use crate::db::{Backend, Dialect, Query, ROWS_PER_STATEMENT, Row, Value};

/// The columns of `domain_events`, in the order reads select and the insert writes them.
const COLUMNS: &str = "id, account_id, name, subject_type, subject_id, shipment_id, detail, \
     dedupe_key, included, created_at";

fn parse(row: &Row) -> Result<DomainEvent, StoreError> {
    let subject_id = row.required_id("subject_id")?;
    Ok(DomainEvent {
        id: DomainEventId::from_uuid(row.required_id("id")?),
        account_id: AccountId::from_uuid(row.required_id("account_id")?),
        name: row.parsed("name", EventName::parse)?,
        subject: row.parsed("subject_type", |kind| Subject::from_parts(kind, subject_id))?,
        shipment_id: row.id("shipment_id")?.map(ShipmentId::from_uuid),
        detail: row.json("detail")?,
        dedupe_key: row.required_text("dedupe_key")?,
        // Read with the records it names, by [`parse_rows`].
        included: Vec::new(),
        created_at: row.required_time("created_at")?,
    })
}

/// Parses rows of [`of_account`], with their frozen records.
pub(crate) async fn parse_rows<B: Backend + ?Sized>(
    backend: &B,
    rows: &[Row],
) -> Result<Vec<DomainEvent>, StoreError> {
    let mut events: Vec<DomainEvent> = rows.iter().map(parse).collect::<Result<_, _>>()?;
    for (event, included) in events
        .iter_mut()
        .zip(crate::frozen::included(backend, rows).await?)
    {
        event.included = included;
    }
    Ok(events)
}

/// Every domain event of an account, oldest first.
pub(crate) fn of_account(account: AccountId) -> Query {
    let mut query = Query::scoped(&format!("SELECT {COLUMNS} FROM domain_events"), account);
    query.push(" ORDER BY created_at, id");
    query
}

/// Records `events`, each unless its dedupe key is known (their frozen records kept by
/// content, [`crate::frozen`]), and fans each recorded one out:
/// one pending notification for each active webhook of its account that wants it (every
/// event, or this one among its events; Tidemark's own events only the latter), in the
/// same transaction. A duplicate event,
/// skipped by its dedupe key, fans out nothing. Every insert comes before every fan-out,
/// so each fan-out finds the events it names.
pub(crate) fn record_all(dialect: &Dialect, events: &[DomainEvent]) -> Vec<Query> {
    let (mut queries, included) = crate::frozen::freeze(events);
    let rows = events.iter().zip(included).map(|(event, included)| {
        vec![
            event.id.as_uuid().into(),
            event.account_id.as_uuid().into(),
            event.name.name().into(),
            event.subject.kind().into(),
            event.subject.id().into(),
            event.shipment_id.map(|id| id.as_uuid()).into(),
            Value::json(&event.detail),
            event.dedupe_key.as_str().into(),
            Value::json(&included),
            event.created_at.into(),
        ]
    });
    queries.extend(Query::insert_rows(
        &format!("INSERT INTO domain_events ({COLUMNS}) VALUES "),
        rows,
        " ON CONFLICT DO NOTHING",
    ));
    // Tidemark's own events go only to the webhooks that name them: a client of the
    // reference that asked for every event gets the reference's events.
    let (own, reference): (Vec<&DomainEvent>, Vec<&DomainEvent>) =
        events.iter().partition(|event| event.name.is_extension());
    let named = "EXISTS (SELECT 1 FROM webhook_events e WHERE e.webhook_id = w.id \
                 AND e.event = d.name)";
    for (group, wanted) in [
        (reference, format!("(w.all_events OR {named})")),
        (own, named.to_owned()),
    ] {
        for chunk in group.chunks(ROWS_PER_STATEMENT) {
            let mut fan_out = Query::new(&format!(
                "INSERT INTO webhook_notifications (id, account_id, webhook_id, \
                 domain_event_id, event, delivery_status, attempts, due_at, created_at, \
                 updated_at) \
                 SELECT {new_uuid}, w.account_id, w.id, d.id, d.name, 'pending', 0, \
                 d.created_at, d.created_at, d.created_at \
                 FROM webhooks w JOIN domain_events d ON d.account_id = w.account_id \
                 WHERE d.id IN ",
                new_uuid = dialect.new_uuid
            ));
            fan_out.bind_list(chunk.iter().map(|event| event.id.as_uuid()));
            fan_out.push(&format!(
                " AND w.active AND {wanted} \
                 ON CONFLICT (webhook_id, domain_event_id) DO NOTHING"
            ));
            queries.push(fan_out);
        }
    }
    queries
}
