//! Reads of reference records (ports, terminals, vessels), for the shipment store.

use tidemark_domain::{Reference, ReferenceKind};

use crate::StoreError;
use crate::neutral::{Neutral, OwnedRow, Query};
use crate::rows::Columns;

pub(crate) fn reference_select(kind: ReferenceKind) -> &'static str {
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

pub(crate) fn code_column(kind: ReferenceKind) -> &'static str {
    match kind {
        ReferenceKind::Port => "locode",
        ReferenceKind::Terminal => "code",
        ReferenceKind::Vessel => "imo",
    }
}

pub(crate) fn reference_row(kind: ReferenceKind, row: &OwnedRow) -> Result<Reference, StoreError> {
    Ok(Reference {
        kind,
        id: row.required_id("id")?,
        code: row.required_text("code")?,
        name: row.text("name")?,
        port_locode: row.text("port_locode")?,
    })
}

/// The records of `kind` whose `column` is one of `values`.
pub(crate) async fn references_where<B: Neutral + ?Sized>(
    backend: &B,
    kind: ReferenceKind,
    column: &str,
    values: &[String],
) -> Result<Vec<Reference>, StoreError> {
    if values.is_empty() {
        return Ok(Vec::new());
    }
    let mut query = Query::new(reference_select(kind));
    query
        .push(column)
        .push(" IN ")
        .bind_list(values.iter().cloned())
        .push(" ORDER BY id");
    backend
        .fetch(&query)
        .await?
        .iter()
        .map(|row| reference_row(kind, row))
        .collect()
}
