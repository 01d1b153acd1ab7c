//! The statements of staged custom field values (a create's `initial_custom_fields`) and
//! of the values they set when a tracking commit first finds their records.

use serde_json::Value as Json;
use tidemark_domain::custom_field::{CustomField, DataType, FieldValue, Staged, StagedTarget};
use tidemark_domain::{CustomFieldDefinitionId, TrackingRequestId};
use uuid::Uuid;

use super::definitions::corrupt;
use crate::StoreError;
use crate::db::{Backend, Query, Row, Value};

/// The inserts of `staged`, for request `request` (in its create's unit).
pub(crate) fn insert_all(request: TrackingRequestId, staged: &[Staged]) -> Vec<Query> {
    let rows = staged.iter().map(|entry| {
        let number = match &entry.target {
            StagedTarget::Container(number) => number.clone(),
            StagedTarget::Shipment => None,
        };
        vec![
            Uuid::now_v7().into(),
            request.as_uuid().into(),
            entry.definition_id.as_uuid().into(),
            entry.entity_type().as_str().into(),
            number.into(),
            Value::json(&entry.value.to_json()),
        ]
    });
    Query::insert_rows(
        "INSERT INTO custom_fields_staged (id, tracking_request_id, definition_id, entity_type, \
         container_number, value) VALUES ",
        rows,
        "",
    )
}

/// The inserts of values a tracking commit sets, each kept only where the record has no
/// value of its field yet.
pub(crate) fn set_new(fields: &[CustomField]) -> Vec<Query> {
    Query::insert_rows(
        super::values::INSERT,
        fields.iter().map(super::values::row),
        " ON CONFLICT (definition_id, entity_id) DO NOTHING",
    )
}

fn parse(row: &Row) -> Result<Staged, StoreError> {
    let data_type =
        DataType::parse(&row.required_text("data_type")?).ok_or_else(|| corrupt("data type"))?;
    let stored: Json =
        serde_json::from_str(&row.required_text("value")?).map_err(|_| corrupt("staged value"))?;
    let target = match row.required_text("entity_type")?.as_str() {
        "Shipment" => StagedTarget::Shipment,
        _ => StagedTarget::Container(row.text("container_number")?),
    };
    Ok(Staged {
        definition_id: CustomFieldDefinitionId::from_uuid(row.required_id("definition_id")?),
        target,
        value: FieldValue::from_stored(data_type, &stored)
            .ok_or_else(|| corrupt("staged value"))?,
    })
}

/// The values staged for request `request`, oldest first.
pub(super) async fn of_request<B: Backend + ?Sized>(
    backend: &B,
    request: TrackingRequestId,
) -> Result<Vec<Staged>, StoreError> {
    let mut query = Query::new(
        "SELECT s.definition_id, s.entity_type, s.container_number, s.value, d.data_type \
         FROM custom_fields_staged s JOIN custom_field_definitions d \
         ON d.id = s.definition_id WHERE s.tracking_request_id = ",
    );
    query.bind(request.as_uuid()).push(" ORDER BY s.id");
    crate::db::parse_all(backend.fetch(&query).await?, parse)
}
