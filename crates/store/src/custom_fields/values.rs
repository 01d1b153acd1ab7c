//! The statements of custom field values.

use serde_json::Value as Json;
use tidemark_domain::custom_field::{CustomField, DataType, EntityType, FieldValue};
use tidemark_domain::{AccountId, CustomFieldDefinitionId, CustomFieldId};

use crate::db::{Backend, Paged, Query, Row, Value};
use crate::{Page, PageRequest, StoreError};

use super::CustomFieldFilter;
use super::definitions::corrupt;

/// The insert of values, before their rows.
pub(super) const INSERT: &str = "INSERT INTO custom_fields (id, account_id, definition_id, \
     entity_type, entity_id, value, created_at, updated_at) VALUES ";

/// A value's row, in [`INSERT`]'s order.
pub(super) fn row(field: &CustomField) -> Vec<Value> {
    vec![
        field.id.as_uuid().into(),
        field.account_id.as_uuid().into(),
        field.definition_id.as_uuid().into(),
        field.entity_type.as_str().into(),
        field.entity_id.into(),
        Value::json(&field.value.to_json()),
        field.created_at.into(),
        field.updated_at.into(),
    ]
}

/// A value's row with its definition's data type, which reads it.
const FIELD: &str = "SELECT f.id, f.account_id, f.definition_id, f.entity_type, f.entity_id, \
     f.value, f.created_at, f.updated_at, d.data_type";

const FIELD_FROM: &str =
    " FROM custom_fields f JOIN custom_field_definitions d ON d.id = f.definition_id";

fn parse_field(row: &Row) -> Result<CustomField, StoreError> {
    let data_type =
        DataType::parse(&row.required_text("data_type")?).ok_or_else(|| corrupt("data type"))?;
    let stored: Json =
        serde_json::from_str(&row.required_text("value")?).map_err(|_| corrupt("value"))?;
    Ok(CustomField {
        id: CustomFieldId::from_uuid(row.required_id("id")?),
        account_id: AccountId::from_uuid(row.required_id("account_id")?),
        definition_id: CustomFieldDefinitionId::from_uuid(row.required_id("definition_id")?),
        entity_type: EntityType::parse(&row.required_text("entity_type")?)
            .ok_or_else(|| corrupt("entity type"))?,
        entity_id: row.required_id("entity_id")?,
        value: FieldValue::from_stored(data_type, &stored).ok_or_else(|| corrupt("value"))?,
        created_at: row.required_time("created_at")?,
        updated_at: row.required_time("updated_at")?,
    })
}

pub(super) async fn list_custom_fields<B: Backend + ?Sized>(
    backend: &B,
    account: AccountId,
    filter: &CustomFieldFilter,
    page: PageRequest,
) -> Result<Page<CustomField>, StoreError> {
    let mut query = Query::new(FIELD_FROM);
    query
        .push(" WHERE f.account_id = ")
        .bind(account.as_uuid())
        .push_any(
            "f.entity_type",
            filter.entity_type.iter().map(|t| t.as_str()),
        )
        .push_any("f.entity_id", filter.entity_id.iter().copied())
        .push_any(
            "f.definition_id",
            filter
                .definition_id
                .iter()
                .map(CustomFieldDefinitionId::as_uuid),
        );
    Paged::newest_first(FIELD, query)
        .ordered("f.created_at DESC, f.id DESC")
        .read(backend, page, parse_field)
        .await
}

pub(super) async fn custom_field<B: Backend + ?Sized>(
    backend: &B,
    account: AccountId,
    id: CustomFieldId,
) -> Result<Option<CustomField>, StoreError> {
    let mut query = Query::new(&format!("{FIELD}{FIELD_FROM} WHERE f.account_id = "));
    query
        .bind(account.as_uuid())
        .push(" AND f.id = ")
        .bind(id.as_uuid());
    backend
        .fetch_one(&query)
        .await?
        .map(|row| parse_field(&row))
        .transpose()
}

pub(super) async fn set_custom_field<B: Backend + ?Sized>(
    backend: &B,
    field: &CustomField,
) -> Result<CustomField, StoreError> {
    let mut upsert = Query::new(INSERT);
    upsert.bind_list::<Value>(row(field)).push(
        " ON CONFLICT (definition_id, entity_id) DO UPDATE SET value = excluded.value, \
             updated_at = excluded.updated_at RETURNING id, created_at",
    );
    let row = backend
        .returning(upsert)
        .await?
        .into_iter()
        .next()
        .ok_or_else(|| corrupt("the set value was not returned"))?;
    Ok(CustomField {
        id: CustomFieldId::from_uuid(row.required_id("id")?),
        created_at: row.required_time("created_at")?,
        ..field.clone()
    })
}

pub(super) async fn delete_custom_field<B: Backend + ?Sized>(
    backend: &B,
    account: AccountId,
    id: CustomFieldId,
) -> Result<bool, StoreError> {
    let mut delete = Query::new("DELETE FROM custom_fields WHERE id = ");
    delete
        .bind(id.as_uuid())
        .push(" AND account_id = ")
        .bind(account.as_uuid());
    Ok(backend.execute(delete).await? > 0)
}
