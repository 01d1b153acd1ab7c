//! Reference records (ports, terminals, vessels): what lookups teach, and their reads.
//! Rows conflict on their id, which is derived from their code, so the one unique index
//! PostgreSQL arbitrates on is the only one concurrent lookups can collide on.

use std::collections::BTreeMap;

use tidemark_domain::{Place, Reference, ReferenceKind, Timestamp, VesselRef};
use uuid::Uuid;

use crate::StoreError;
use crate::db::{Backend, Query, Row};

fn select(kind: ReferenceKind) -> &'static str {
    match kind {
        ReferenceKind::Port => {
            "SELECT id, locode AS code, name, CAST(NULL AS TEXT) AS port_locode FROM ports WHERE "
        }
        ReferenceKind::Terminal => {
            "SELECT id, code, CAST(NULL AS TEXT) AS name, port_locode FROM terminals WHERE "
        }
        ReferenceKind::Vessel => {
            "SELECT id, imo AS code, name, CAST(NULL AS TEXT) AS port_locode FROM vessels WHERE "
        }
    }
}

fn code_column(kind: ReferenceKind) -> &'static str {
    match kind {
        ReferenceKind::Port => "locode",
        ReferenceKind::Terminal => "code",
        ReferenceKind::Vessel => "imo",
    }
}

fn parse(kind: ReferenceKind, row: &Row) -> Result<Reference, StoreError> {
    Ok(Reference {
        kind,
        id: row.required_id("id")?,
        code: row.required_text("code")?,
        name: row.text("name")?,
        port_locode: row.text("port_locode")?,
    })
}

/// What a change teaches: its ports and vessels, each once, with the last name given (a
/// name replaces a missing or different one, nothing else is rewritten), and its places'
/// terminals, each at the first port it is named at. One statement a table, each in code
/// order, so every change locks the shared reference rows in one order.
pub(crate) fn learn(places: &[Place], vessels: &[VesselRef], now: Timestamp) -> Vec<Query> {
    let mut places: Vec<&Place> = places.iter().collect();
    places.sort_by(|a, b| a.locode.cmp(&b.locode));
    let mut ports: BTreeMap<&str, Option<&str>> = BTreeMap::new();
    let mut terminals: BTreeMap<&str, &str> = BTreeMap::new();
    for place in places {
        let name = ports.entry(&place.locode).or_default();
        *name = place.name.as_deref().or(*name);
        if let Some(code) = &place.facility {
            terminals.entry(code).or_insert(&place.locode);
        }
    }
    let mut names: BTreeMap<&str, Option<&str>> = BTreeMap::new();
    for vessel in vessels {
        let name = names.entry(&vessel.imo).or_default();
        *name = vessel.name.as_deref().or(*name);
    }
    let mut queries = named(ReferenceKind::Port, ("ports", "locode"), ports, now);
    queries.extend(Query::insert_rows(
        "INSERT INTO terminals (id, code, port_locode, updated_at) VALUES ",
        terminals.into_iter().map(|(code, port)| {
            vec![
                ReferenceKind::Terminal.id(code).into(),
                code.into(),
                port.into(),
                now.into(),
            ]
        }),
        " ON CONFLICT (id) DO NOTHING",
    ));
    queries.extend(named(ReferenceKind::Vessel, ("vessels", "imo"), names, now));
    queries
}

/// The upserts of ports or vessels (`table`, keyed by `code`) with their names: a name
/// replaces a missing or different one, nothing else is rewritten.
fn named(
    kind: ReferenceKind,
    (table, code): (&str, &str),
    rows: BTreeMap<&str, Option<&str>>,
    now: Timestamp,
) -> Vec<Query> {
    Query::insert_rows(
        &format!("INSERT INTO {table} (id, {code}, name, updated_at) VALUES "),
        rows.into_iter()
            .map(|(key, name)| vec![kind.id(key).into(), key.into(), name.into(), now.into()]),
        &format!(
            " ON CONFLICT (id) DO UPDATE SET name = excluded.name, updated_at = excluded.updated_at \
             WHERE excluded.name IS NOT NULL AND {table}.name IS DISTINCT FROM excluded.name"
        ),
    )
}

/// A port (by id or UN/LOCODE), terminal (by id) or vessel (by id or IMO number).
pub(crate) async fn by_key<B: Backend + ?Sized>(
    backend: &B,
    kind: ReferenceKind,
    key: &str,
) -> Result<Option<Reference>, StoreError> {
    let mut query = Query::new(select(kind));
    match Uuid::try_parse(key) {
        Ok(id) => query.push("id = ").bind(id),
        Err(_) if kind == ReferenceKind::Terminal => return Ok(None),
        Err(_) => query
            .push(code_column(kind))
            .push(" = ")
            .bind(key.to_ascii_uppercase()),
    };
    backend
        .fetch_one(&query)
        .await?
        .map(|row| parse(kind, &row))
        .transpose()
}

/// The records of `kind` with these codes.
pub(crate) async fn by_code<B: Backend + ?Sized>(
    backend: &B,
    kind: ReferenceKind,
    codes: &[String],
) -> Result<Vec<Reference>, StoreError> {
    where_in(backend, kind, code_column(kind), codes).await
}

/// The terminals known at these ports (by UN/LOCODE).
pub(crate) async fn terminals_at<B: Backend + ?Sized>(
    backend: &B,
    ports: &[String],
) -> Result<Vec<Reference>, StoreError> {
    where_in(backend, ReferenceKind::Terminal, "port_locode", ports).await
}

async fn where_in<B: Backend + ?Sized>(
    backend: &B,
    kind: ReferenceKind,
    column: &str,
    values: &[String],
) -> Result<Vec<Reference>, StoreError> {
    if values.is_empty() {
        return Ok(Vec::new());
    }
    let mut query = Query::new(select(kind));
    query
        .push(column)
        .push(" IN ")
        .bind_list(values.iter().cloned())
        .push(" ORDER BY id");
    backend
        .fetch(&query)
        .await?
        .iter()
        .map(|row| parse(kind, row))
        .collect()
}
