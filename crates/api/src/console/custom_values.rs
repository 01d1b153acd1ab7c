//! A record's custom fields on its console page (shipments and containers): every field
//! the account defines for the record's kind with its value (or the field's default, or
//! none), each editable in place by the use case the API sets values with. Empty text
//! deletes the record's value.

use axum::extract::State;
use axum::response::Response;
use tidemark_domain::custom_field::{Definition, EntityType, FieldOption, FieldValue};
use tidemark_domain::{AccountId, Container, Shipment};
use tidemark_store::{CustomFieldFilter, DefinitionFilter, PageRequest};
use uuid::Uuid;

use super::extract::{Posted, Segment};
use super::session::see_other;
use super::{ConsoleError, answered_as};
use crate::{ApiError, AppState};

/// One field of a record, as its page shows it.
#[derive(Debug, Clone)]
pub struct FieldRow {
    /// Its slug, which the form posts.
    pub slug: String,
    /// Its display name.
    pub name: String,
    /// What the record shows: its value, else the field's default (marked), else a dash.
    pub shown: String,
    /// The value as the form edits it.
    pub current: String,
    /// How to type a value: the data type, and an enum's options.
    pub hint: String,
}

/// The most fields a page lists (the account's most definitions).
const MOST: u32 = 200;

/// The account's fields of `kind`, by display name, and their options.
async fn fields_of(
    state: &AppState,
    account: AccountId,
    kind: EntityType,
) -> Result<(Vec<Definition>, Vec<FieldOption>), ConsoleError> {
    let store = state.store.as_ref();
    let filter = DefinitionFilter {
        entity_type: vec![kind],
        ..DefinitionFilter::default()
    };
    let mut definitions = store
        .list_definitions(account, &filter, PageRequest::new(1, MOST))
        .await?
        .items;
    definitions.sort_by(|a, b| a.display_name.cmp(&b.display_name));
    let ids: Vec<_> = definitions.iter().map(|d| d.id).collect();
    let options = store.options(account, &ids).await?;
    Ok((definitions, options))
}

/// The fields of `kind` in `account`, with the values of record `entity`.
pub async fn rows(
    state: &AppState,
    account: AccountId,
    kind: EntityType,
    entity: Uuid,
) -> Result<Vec<FieldRow>, ConsoleError> {
    let store = state.store.as_ref();
    let (definitions, options) = fields_of(state, account, kind).await?;
    let values = CustomFieldFilter {
        entity_id: vec![entity],
        ..CustomFieldFilter::default()
    };
    let values = store
        .list_custom_fields(account, &values, PageRequest::new(1, MOST))
        .await?
        .items;
    Ok(definitions
        .iter()
        .map(|definition| {
            let own: Vec<_> = options
                .iter()
                .filter(|o| o.definition_id == definition.id)
                .cloned()
                .collect();
            let value = values
                .iter()
                .find(|v| v.definition_id == definition.id)
                .map(|v| &v.value);
            let shown = match (value, &definition.default_value) {
                (Some(value), _) => value.display(&own),
                (None, Some(default)) => format!("{} (default)", default.display(&own)),
                (None, None) => "—".to_owned(),
            };
            let choices: Vec<&str> = own.iter().map(|o| o.value.as_str()).collect();
            let hint = if choices.is_empty() {
                definition.data_type.as_str().replace('_', " ")
            } else {
                format!(
                    "{}: {}",
                    definition.data_type.as_str().replace('_', " "),
                    choices.join(", ")
                )
            };
            FieldRow {
                slug: definition.api_slug.to_string(),
                name: definition.display_name.clone(),
                shown,
                current: value.map(FieldValue::to_text).unwrap_or_default(),
                hint,
            }
        })
        .collect())
}

/// The set values of records `ids` (of `kind`), each record's as one cell (`Name: value;
/// …`), for a list's column; `None` when the account has no field of the kind (no column).
async fn summaries(
    state: &AppState,
    account: AccountId,
    kind: EntityType,
    ids: &[Uuid],
) -> Result<Option<std::collections::HashMap<Uuid, String>>, ConsoleError> {
    let store = state.store.as_ref();
    let (definitions, options) = fields_of(state, account, kind).await?;
    if definitions.is_empty() {
        return Ok(None);
    }
    let filter = CustomFieldFilter {
        entity_id: ids.to_vec(),
        definition_id: definitions.iter().map(|d| d.id).collect(),
        ..CustomFieldFilter::default()
    };
    let most = u32::try_from(ids.len() * definitions.len()).unwrap_or(u32::MAX);
    let values = store
        .list_custom_fields(account, &filter, PageRequest::first_rows(most))
        .await?
        .items;
    let mut cells = std::collections::HashMap::new();
    for id in ids {
        let parts: Vec<String> = definitions
            .iter()
            .filter_map(|definition| {
                let value = values
                    .iter()
                    .find(|v| v.entity_id == *id && v.definition_id == definition.id)?;
                let own: Vec<_> = options
                    .iter()
                    .filter(|o| o.definition_id == definition.id)
                    .cloned()
                    .collect();
                Some(format!(
                    "{}: {}",
                    definition.display_name,
                    value.value.display(&own)
                ))
            })
            .collect();
        cells.insert(*id, parts.join("; "));
    }
    Ok(Some(cells))
}

/// Fills the custom field cell of each of `rows` (the records `ids`, in order) with `cell`;
/// whether the account has fields of `kind` (a column to show).
pub async fn fill<R>(
    state: &AppState,
    account: AccountId,
    kind: EntityType,
    ids: &[Uuid],
    rows: &mut [R],
    cell: impl Fn(&mut R) -> &mut String,
) -> Result<bool, ConsoleError> {
    let Some(cells) = summaries(state, account, kind, ids).await? else {
        return Ok(false);
    };
    for (row, id) in rows.iter_mut().zip(ids) {
        *cell(row) = cells.get(id).cloned().unwrap_or_default();
    }
    Ok(true)
}

/// Sets the field the form names on record `entity` of `kind`.
async fn set(
    state: &AppState,
    account: AccountId,
    kind: EntityType,
    entity: Uuid,
    form: &super::session::FormData,
) -> Result<(), ApiError> {
    let slug = form.get("slug").unwrap_or_default();
    let text = form.get("value").unwrap_or_default();
    state
        .custom_fields
        .set_text(account, kind, entity, slug, text)
        .await?;
    Ok(())
}

/// `POST /console/shipments/{id}/custom_fields`.
pub async fn set_on_shipment(
    State(state): State<AppState>,
    Segment(id): Segment,
    Posted { viewer, form }: Posted,
) -> Result<Response, ConsoleError> {
    let shipment: Shipment =
        ConsoleError::found(state.store.as_ref(), viewer.account_id, &id).await?;
    let entity = shipment.id.as_uuid();
    match set(
        &state,
        viewer.account_id,
        EntityType::Shipment,
        entity,
        &form,
    )
    .await
    {
        Ok(()) => Ok(see_other(&format!(
            "/console/shipments/{}#custom-fields",
            shipment.id
        ))),
        Err(error) if error.status().is_client_error() => {
            let (status, why) = (error.status(), error.details().join(" "));
            let notice = super::shipment::Notice::Refused(why);
            answered_as(
                super::shipment::render(&state, &viewer, shipment, notice).await,
                status,
            )
        }
        Err(error) => Err(error.into()),
    }
}

/// `POST /console/containers/{id}/custom_fields`.
pub async fn set_on_container(
    State(state): State<AppState>,
    Segment(id): Segment,
    Posted { viewer, form }: Posted,
) -> Result<Response, ConsoleError> {
    let container: Container =
        ConsoleError::found(state.store.as_ref(), viewer.account_id, &id).await?;
    let entity = container.id.as_uuid();
    match set(
        &state,
        viewer.account_id,
        EntityType::Container,
        entity,
        &form,
    )
    .await
    {
        Ok(()) => Ok(see_other(&format!(
            "/console/containers/{}#custom-fields",
            container.id
        ))),
        Err(error) if error.status().is_client_error() => {
            let (status, why) = (error.status(), error.details().join(" "));
            answered_as(
                super::container::render(&state, &viewer, container, Some(why)).await,
                status,
            )
        }
        Err(error) => Err(error.into()),
    }
}
