//! Reference records (ports, terminals, vessels): what lookups teach, and their reads.
//! Rows conflict on their id, which is derived from their code, so the one unique index
//! PostgreSQL arbitrates on is the only one concurrent lookups can collide on.

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

/// Learns a port and, when named, its terminal; a name replaces a missing or different
/// one, nothing else is rewritten.
pub(crate) fn learn_place(place: &Place, now: Timestamp) -> Vec<Query> {
    let mut queries = vec![Query::with(
        "INSERT INTO ports (id, locode, name, updated_at) VALUES ($1, $2, $3, $4) \
         ON CONFLICT (id) DO UPDATE SET name = excluded.name, updated_at = excluded.updated_at \
         WHERE excluded.name IS NOT NULL AND ports.name IS DISTINCT FROM excluded.name",
        vec![
            ReferenceKind::Port.id(&place.locode).into(),
            place.locode.as_str().into(),
            place.name.clone().into(),
            now.into(),
        ],
    )];
    if let Some(code) = &place.facility {
        queries.push(Query::with(
            "INSERT INTO terminals (id, code, port_locode, updated_at) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (id) DO NOTHING",
            vec![
                ReferenceKind::Terminal.id(code).into(),
                code.as_str().into(),
                place.locode.as_str().into(),
                now.into(),
            ],
        ));
    }
    queries
}

/// Learns a vessel; a name replaces a missing or different one.
pub(crate) fn learn_vessel(vessel: &VesselRef, now: Timestamp) -> Query {
    Query::with(
        "INSERT INTO vessels (id, imo, name, updated_at) VALUES ($1, $2, $3, $4) \
         ON CONFLICT (id) DO UPDATE SET name = excluded.name, updated_at = excluded.updated_at \
         WHERE excluded.name IS NOT NULL AND vessels.name IS DISTINCT FROM excluded.name",
        vec![
            ReferenceKind::Vessel.id(&vessel.imo).into(),
            vessel.imo.as_str().into(),
            vessel.name.clone().into(),
            now.into(),
        ],
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
