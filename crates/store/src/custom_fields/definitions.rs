//! The statements of custom field definitions and their options.

use serde_json::Value as Json;
use tidemark_domain::custom_field::{
    ApiSlug, DataType, Definition, EntityType, FieldOption, FieldValue,
};
use tidemark_domain::{AccountId, CustomFieldDefinitionId, CustomFieldOptionId};

use crate::db::{Backend, Paged, Query, Row, Value, parse_all};
use crate::{Page, PageRequest, StoreError};

use super::DefinitionFilter;

const DEFINITION: &str = "SELECT id, account_id, entity_type, api_slug, display_name, \
     description, data_type, reference_type, validation, default_format, default_value, \
     reference_number, created_at, updated_at";

pub(super) fn corrupt(what: &str) -> StoreError {
    StoreError::corrupt(format!("custom field: {what}"))
}

fn parse_definition(row: &Row) -> Result<Definition, StoreError> {
    let data_type =
        DataType::parse(&row.required_text("data_type")?).ok_or_else(|| corrupt("data type"))?;
    let default_value = row
        .text("default_value")?
        .map(|text| serde_json::from_str::<Json>(&text).map_err(|_| corrupt("default")))
        .transpose()?
        .and_then(|stored| FieldValue::from_stored(data_type, &stored));
    let validation = row
        .text("validation")?
        .map(|text| serde_json::from_str::<Json>(&text).map_err(|_| corrupt("validation")))
        .transpose()?;
    Ok(Definition {
        id: CustomFieldDefinitionId::from_uuid(row.required_id("id")?),
        account_id: AccountId::from_uuid(row.required_id("account_id")?),
        entity_type: EntityType::parse(&row.required_text("entity_type")?)
            .ok_or_else(|| corrupt("entity type"))?,
        api_slug: ApiSlug::parse(&row.required_text("api_slug")?).map_err(|_| corrupt("slug"))?,
        display_name: row.required_text("display_name")?,
        description: row.text("description")?,
        data_type,
        reference_type: row.text("reference_type")?,
        validation,
        default_format: row.text("default_format")?,
        default_value,
        reference_number: row.bool("reference_number")?,
        created_at: row.required_time("created_at")?,
        updated_at: row.required_time("updated_at")?,
    })
}

fn parse_option(row: &Row) -> Result<FieldOption, StoreError> {
    Ok(FieldOption {
        id: CustomFieldOptionId::from_uuid(row.required_id("id")?),
        definition_id: CustomFieldDefinitionId::from_uuid(row.required_id("definition_id")?),
        label: row.required_text("label")?,
        value: row.required_text("value")?,
        position: row.int_opt("position")?,
    })
}

fn json_or_null(value: Option<Json>) -> Value {
    value.map_or(Value::Json(None), |value| Value::json(&value))
}

pub(super) async fn create_definition<B: Backend + ?Sized>(
    backend: &B,
    definition: &Definition,
    most: usize,
) -> Result<(), StoreError> {
    let mut insert = Query::new(
        "INSERT INTO custom_field_definitions (id, account_id, entity_type, api_slug, \
         display_name, description, data_type, reference_type, validation, default_format, \
         default_value, reference_number, created_at, updated_at) SELECT ",
    );
    let values: [Value; 14] = [
        definition.id.as_uuid().into(),
        definition.account_id.as_uuid().into(),
        definition.entity_type.as_str().into(),
        definition.api_slug.as_str().into(),
        definition.display_name.as_str().into(),
        definition.description.clone().into(),
        definition.data_type.as_str().into(),
        definition.reference_type.clone().into(),
        json_or_null(definition.validation.clone()),
        definition.default_format.clone().into(),
        json_or_null(definition.default_value.as_ref().map(FieldValue::to_json)),
        definition.reference_number.into(),
        definition.created_at.into(),
        definition.updated_at.into(),
    ];
    for (index, value) in values.into_iter().enumerate() {
        if index > 0 {
            insert.push(", ");
        }
        insert.bind(value);
    }
    insert
        .push(" WHERE (SELECT COUNT(*) FROM custom_field_definitions WHERE account_id = ")
        .bind(definition.account_id.as_uuid())
        .push(") < ")
        .bind(i64::try_from(most).unwrap_or(i64::MAX))
        .push(" ON CONFLICT (account_id, entity_type, api_slug) DO NOTHING");
    if backend.execute(insert).await? == 0 {
        return Err(StoreError::Conflict(
            "a definition of this api_slug, or the account's most definitions,",
        ));
    }
    Ok(())
}

pub(super) async fn count_definitions<B: Backend + ?Sized>(
    backend: &B,
    account: AccountId,
) -> Result<u64, StoreError> {
    let query = Query::scoped(
        "SELECT COUNT(*) AS count FROM custom_field_definitions",
        account,
    );
    let count = match backend.fetch_one(&query).await? {
        Some(row) => row.int("count")?,
        None => 0,
    };
    Ok(u64::try_from(count).unwrap_or(0))
}

pub(super) async fn list_definitions<B: Backend + ?Sized>(
    backend: &B,
    account: AccountId,
    filter: &DefinitionFilter,
    page: PageRequest,
) -> Result<Page<Definition>, StoreError> {
    let mut query = Query::scoped(" FROM custom_field_definitions", account);
    query
        .push_any("entity_type", filter.entity_type.iter().map(|t| t.as_str()))
        .push_any("data_type", filter.data_type.iter().map(|t| t.as_str()))
        .push_any("display_name", filter.display_name.iter().cloned());
    Paged::newest_first(DEFINITION, query)
        .read(backend, page, parse_definition)
        .await
}

pub(super) async fn definitions<B: Backend + ?Sized>(
    backend: &B,
    account: AccountId,
    ids: &[CustomFieldDefinitionId],
) -> Result<Vec<Definition>, StoreError> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let mut query = Query::scoped(
        &format!("{DEFINITION} FROM custom_field_definitions"),
        account,
    );
    query
        .push(" AND id IN ")
        .bind_list(ids.iter().map(CustomFieldDefinitionId::as_uuid));
    parse_all(backend.fetch(&query).await?, parse_definition)
}

pub(super) async fn definition_by_slug<B: Backend + ?Sized>(
    backend: &B,
    account: AccountId,
    entity_type: EntityType,
    slug: &ApiSlug,
) -> Result<Option<Definition>, StoreError> {
    let mut query = Query::scoped(
        &format!("{DEFINITION} FROM custom_field_definitions"),
        account,
    );
    query
        .push(" AND entity_type = ")
        .bind(entity_type.as_str())
        .push(" AND api_slug = ")
        .bind(slug.as_str());
    backend
        .fetch_one(&query)
        .await?
        .map(|row| parse_definition(&row))
        .transpose()
}

pub(super) async fn update_definition<B: Backend + ?Sized>(
    backend: &B,
    definition: &Definition,
) -> Result<bool, StoreError> {
    let mut update = Query::new("UPDATE custom_field_definitions SET display_name = ");
    update
        .bind(definition.display_name.as_str())
        .push(", description = ")
        .bind(definition.description.clone())
        .push(", validation = ")
        .bind(json_or_null(definition.validation.clone()))
        .push(", default_format = ")
        .bind(definition.default_format.clone())
        .push(", default_value = ")
        .bind(json_or_null(
            definition.default_value.as_ref().map(FieldValue::to_json),
        ))
        .push(", reference_number = ")
        .bind(definition.reference_number)
        .push(", updated_at = ")
        .bind(definition.updated_at)
        .push(" WHERE account_id = ")
        .bind(definition.account_id.as_uuid())
        .push(" AND id = ")
        .bind(definition.id.as_uuid());
    Ok(backend.execute(update).await? > 0)
}

pub(super) async fn delete_definition<B: Backend + ?Sized>(
    backend: &B,
    account: AccountId,
    id: CustomFieldDefinitionId,
) -> Result<bool, StoreError> {
    let scoped = |sql: &str| {
        let mut query = Query::new(sql);
        query
            .bind(id.as_uuid())
            .push(" AND account_id = ")
            .bind(account.as_uuid());
        query
    };
    let mut options = Query::new(
        "DELETE FROM custom_field_options WHERE definition_id IN \
         (SELECT id FROM custom_field_definitions WHERE id = ",
    );
    options
        .bind(id.as_uuid())
        .push(" AND account_id = ")
        .bind(account.as_uuid())
        .push(")");
    let affected = backend
        .execute_all(vec![
            scoped("DELETE FROM custom_fields WHERE definition_id = "),
            options,
            scoped("DELETE FROM custom_field_definitions WHERE id = "),
        ])
        .await?;
    Ok(affected.last().copied().unwrap_or(0) > 0)
}

pub(super) async fn options<B: Backend + ?Sized>(
    backend: &B,
    account: AccountId,
    definitions: &[CustomFieldDefinitionId],
) -> Result<Vec<FieldOption>, StoreError> {
    if definitions.is_empty() {
        return Ok(Vec::new());
    }
    let mut query = Query::new(
        "SELECT o.id, o.definition_id, o.label, o.value, o.position \
         FROM custom_field_options o JOIN custom_field_definitions d \
         ON d.id = o.definition_id WHERE d.account_id = ",
    );
    query
        .bind(account.as_uuid())
        .push(" AND o.definition_id IN ")
        .bind_list(definitions.iter().map(CustomFieldDefinitionId::as_uuid))
        .push(" ORDER BY o.definition_id, o.position IS NULL, o.position, o.id");
    parse_all(backend.fetch(&query).await?, parse_option)
}

pub(super) async fn create_option<B: Backend + ?Sized>(
    backend: &B,
    option: &FieldOption,
) -> Result<(), StoreError> {
    let mut insert = Query::new(
        "INSERT INTO custom_field_options (id, definition_id, label, value, position) VALUES ",
    );
    insert
        .bind_list::<Value>([
            option.id.as_uuid().into(),
            option.definition_id.as_uuid().into(),
            option.label.as_str().into(),
            option.value.as_str().into(),
            Value::int(option.position),
        ])
        .push(" ON CONFLICT (definition_id, value) DO NOTHING");
    if backend.execute(insert).await? == 0 {
        return Err(StoreError::Conflict("an option of this value"));
    }
    Ok(())
}

pub(super) async fn update_option<B: Backend + ?Sized>(
    backend: &B,
    option: &FieldOption,
) -> Result<bool, StoreError> {
    let mut update = Query::new("UPDATE custom_field_options SET label = ");
    update
        .bind(option.label.as_str())
        .push(", position = ")
        .bind(Value::int(option.position))
        .push(" WHERE id = ")
        .bind(option.id.as_uuid())
        .push(" AND definition_id = ")
        .bind(option.definition_id.as_uuid());
    Ok(backend.execute(update).await? > 0)
}

pub(super) async fn delete_option<B: Backend + ?Sized>(
    backend: &B,
    option: &FieldOption,
) -> Result<bool, StoreError> {
    let mut delete = Query::new("DELETE FROM custom_field_options WHERE id = ");
    delete
        .bind(option.id.as_uuid())
        .push(" AND definition_id = ")
        .bind(option.definition_id.as_uuid());
    Ok(backend.execute(delete).await? > 0)
}
