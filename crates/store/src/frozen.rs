//! The records frozen with domain events (the `included` member of their notifications),
//! kept once by content: a record is stored under its owner (the event's shipment, or its
//! account) and a SHA-256 of its JSON text, and an event keeps the keys of its records, in
//! order. The events of one lookup share their shipment and container records, and a
//! record that did not change is shared by the shipment's later lookups, so each is
//! written once instead of once an event. Events recorded before migration 0021 hold
//! their records themselves; a reader takes either.

use std::collections::{BTreeMap, HashMap};

use serde_json::Value as Json;
use sha2::{Digest, Sha256};
use tidemark_domain::DomainEvent;
use uuid::Uuid;

use crate::StoreError;
use crate::db::{Backend, Cost, Query, Row, Value};

/// Keys one read statement asks for at most, far below either backend's limit of
/// parameters.
const KEYS_PER_READ: usize = 500;

/// The key of a record an event of `owner` froze: the owner (the event's shipment, or its
/// account), then the first 128 bits of the SHA-256 of the record's JSON text, in hex.
/// Owners' ids grow with time, so a lookup writes its keys near each other in the key's
/// index, not all over it; a record is shared by the events of its owner.
fn key(owner: Uuid, text: &str) -> String {
    let digest = Sha256::digest(text.as_bytes());
    format!("{owner}:{}", hex::encode(&digest[..16]))
}

/// What to write for `events`: the statements that keep their records (each once, in
/// key order, so concurrent changes take the rows' locks in one order), and each event's
/// `included` as the keys of its records.
pub(crate) fn freeze(events: &[DomainEvent]) -> (Vec<Query>, Vec<Json>) {
    let mut bodies: BTreeMap<String, String> = BTreeMap::new();
    let keys = events
        .iter()
        .map(|event| {
            let owner = event
                .shipment_id
                .map_or(event.account_id.as_uuid(), |id| id.as_uuid());
            let keys = event.included.iter().map(|record| {
                let text = record.to_string();
                let key = key(owner, &text);
                bodies.entry(key.clone()).or_insert(text);
                Json::String(key)
            });
            Json::Array(keys.collect())
        })
        .collect();
    let rows = bodies
        .into_iter()
        .map(|(key, text)| vec![Value::from(key), Value::Json(Some(text))]);
    let writes = Query::insert_rows(
        "INSERT INTO frozen_records (key, body) VALUES ",
        rows,
        " ON CONFLICT (key) DO NOTHING",
    );
    (writes, keys)
}

/// The `included` column of each of `rows` (keys, or records written before they were
/// kept by content), with every key replaced by its record.
pub(crate) async fn included<B: Backend + ?Sized>(
    backend: &B,
    rows: &[Row],
) -> Result<Vec<Vec<Json>>, StoreError> {
    let lists: Result<Vec<Vec<Json>>, StoreError> =
        rows.iter().map(|row| row.json("included")).collect();
    thaw(backend, lists?).await
}

async fn thaw<B: Backend + ?Sized>(
    backend: &B,
    mut lists: Vec<Vec<Json>>,
) -> Result<Vec<Vec<Json>>, StoreError> {
    let mut keys: Vec<&str> = lists.iter().flatten().filter_map(Json::as_str).collect();
    if keys.is_empty() {
        return Ok(lists);
    }
    keys.sort_unstable();
    keys.dedup();
    let queries: Vec<Query> = keys
        .chunks(KEYS_PER_READ)
        .map(|chunk| {
            let mut query = Query::new("SELECT key, body FROM frozen_records WHERE key IN ");
            query.bind_list(chunk.iter().map(|key| Value::from(*key)));
            query
        })
        .collect();
    let mut records: HashMap<String, Json> = HashMap::new();
    for rows in backend.read(&queries, Cost::Point).await? {
        for row in rows {
            records.insert(row.required_text("key")?, row.json("body")?);
        }
    }
    for item in lists.iter_mut().flatten() {
        if let Json::String(key) = item {
            *item = records
                .get(key.as_str())
                .cloned()
                .ok_or_else(|| StoreError::corrupt(format!("no frozen record {key}")))?;
        }
    }
    Ok(lists)
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use tidemark_domain::{
        Account, AccountId, AccountName, EventDetail, EventName, Subject, Timestamp,
        TrackingRequestId,
    };

    use super::*;
    use crate::{AccountStore as _, ChangeStore as _, ConnectOptions, SqliteStore};

    fn event(account: AccountId, key: &str, included: Vec<Json>) -> DomainEvent {
        let mut event = DomainEvent::new(
            account,
            EventName::parse("tracking_request.succeeded").expect("a name"),
            Subject::TrackingRequest(TrackingRequestId::new()),
            None,
            EventDetail::default(),
            key.to_owned(),
            Timestamp::from_datetime(time::OffsetDateTime::UNIX_EPOCH),
        );
        event.included = included;
        event
    }

    #[test]
    fn a_record_is_keyed_by_its_text() {
        assert_eq!(
            key(Uuid::nil(), "{}"),
            "00000000-0000-0000-0000-000000000000:44136fa355b3678a1146ad16f7e8649e"
        );
    }

    #[test]
    fn records_shared_by_events_are_written_once() {
        let account = AccountId::new();
        let shipment = json!({"type": "shipment", "id": "s"});
        let (first, second) = (json!({"type": "port", "id": "a"}), json!({"id": "b"}));
        let events = [
            event(account, "1", vec![shipment.clone(), first.clone()]),
            event(account, "2", vec![shipment.clone(), second.clone()]),
            event(account, "3", Vec::new()),
        ];
        let (writes, keys) = freeze(&events);
        assert_eq!(writes.len(), 1);
        assert_eq!(writes[0].values.len(), 6, "three records, each once");
        let key_of = |record: &Json| Json::String(key(account.as_uuid(), &record.to_string()));
        assert_eq!(
            keys,
            [
                json!([key_of(&shipment), key_of(&first)]),
                json!([key_of(&shipment), key_of(&second)]),
                json!([]),
            ]
        );
    }

    async fn store_with_account() -> (tempfile::TempDir, SqliteStore, Account) {
        let dir = tempfile::tempdir().expect("a directory");
        let url = format!("sqlite://{}", dir.path().join("t.db").display());
        let store = SqliteStore::connect(&ConnectOptions::new(url))
            .await
            .expect("store");
        let account = Account {
            id: AccountId::new(),
            name: AccountName::parse("frozen").expect("a name"),
            created_at: Timestamp::from_datetime(time::OffsetDateTime::UNIX_EPOCH),
        };
        store.create_account(&account).await.expect("written");
        (dir, store, account)
    }

    /// More keys than one read statement asks for read back, each in its place.
    #[tokio::test]
    async fn many_records_read_back_in_several_statements() {
        let (_dir, store, account) = store_with_account().await;
        let mut events: Vec<DomainEvent> = (0..KEYS_PER_READ + 50)
            .map(|n| event(account.id, &n.to_string(), vec![json!({"id": n})]))
            .collect();
        let writes = crate::domain_events::record_all(store.dialect(), &events);
        store.execute_all(writes).await.expect("recorded");
        let mut read = store.domain_events(account.id).await.expect("read");
        read.sort_by(|a, b| a.dedupe_key.cmp(&b.dedupe_key));
        events.sort_by(|a, b| a.dedupe_key.cmp(&b.dedupe_key));
        assert_eq!(read, events);
    }

    /// Events recorded before records were kept by content hold the records themselves.
    #[tokio::test]
    async fn events_recorded_before_read_back_beside_the_new() {
        let (_dir, store, account) = store_with_account().await;
        let (old, new) = (json!({"type": "port", "id": "old"}), json!({"id": "new"}));
        let mut events = vec![event(account.id, "new", vec![new.clone(), old.clone()])];
        let writes = crate::domain_events::record_all(store.dialect(), &events);
        store.execute_all(writes).await.expect("recorded");
        let before = event(account.id, "old", vec![old.clone()]);
        let inline = Query::with(
            "INSERT INTO domain_events (id, account_id, name, subject_type, subject_id, \
             detail, dedupe_key, included, created_at) VALUES ($1, $2, $3, $4, $5, '{}', $6, $7, $8)",
            vec![
                before.id.as_uuid().into(),
                account.id.as_uuid().into(),
                before.name.name().into(),
                before.subject.kind().into(),
                before.subject.id().into(),
                before.dedupe_key.as_str().into(),
                Value::json(&before.included),
                before.created_at.into(),
            ],
        );
        store.execute(inline).await.expect("an old row");
        events.push(before);
        let mut read = store.domain_events(account.id).await.expect("read");
        read.sort_by(|a, b| a.dedupe_key.cmp(&b.dedupe_key));
        events.sort_by(|a, b| a.dedupe_key.cmp(&b.dedupe_key));
        assert_eq!(read, events);
    }
}
