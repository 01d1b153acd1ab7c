//! `/v2/custom_field_definitions`: the fields an account defines (compat-api.md §10):
//! list with the reference's filters, create, read, change, delete (its options and
//! values go with it).

use axum::http::StatusCode;
use serde_json::Value;
use tidemark_domain::ValidationCode;
use tidemark_domain::custom_field::{
    DataType, Definition, DefinitionChange, DefinitionDraft, EntityType,
};
use tidemark_store::DefinitionFilter;
use tidemark_wire::custom_field_definition::{self as view, DefinitionResource};

use crate::auth::Scope;
use crate::body::{self, Attributes, Problem};
use crate::document::{Document, JsonApi, ListDocument, One, Page};
use crate::extract::{Input, QueryParams};
use crate::found::{Edit, Found, Record};
use crate::params::{Paging, list_document, take_list, take_page};
use crate::{ApiError, AppState};

/// `definition` as a document, with its options.
pub(super) async fn document(
    state: &AppState,
    definition: &Definition,
) -> Result<Document<DefinitionResource>, ApiError> {
    let options = state
        .store
        .options(definition.account_id, &[definition.id])
        .await?;
    Ok(Document::new(
        view::resource(definition, &options),
        view::path(definition.id),
    ))
}

fn draft(document: &Value) -> Result<DefinitionDraft, ApiError> {
    let data = body::data(document)?;
    body::check_type(data, view::TYPE)?;
    body::check_no_id(data)?;
    let mut attributes = Attributes::of(data);
    let draft = DefinitionDraft {
        entity_type: attributes.string("entity_type"),
        api_slug: attributes.string("api_slug"),
        display_name: attributes.string("display_name"),
        description: attributes.string("description"),
        data_type: attributes.string("data_type"),
        reference_type: attributes.string("reference_type"),
        validation: attributes.raw("validation").cloned(),
        default_format: attributes.string("default_format"),
        default_value: attributes.raw("default_value").cloned(),
        reference_number: attributes.boolean("reference_number"),
    };
    attributes.reject_unknown();
    if attributes.problems.is_empty() {
        Ok(draft)
    } else {
        Err(ApiError::unprocessable(attributes.problems))
    }
}

/// Reads a change to `current`: what never changes may be repeated as it is.
fn change(document: &Value, current: &Definition) -> Result<DefinitionChange, ApiError> {
    let data = body::data(document)?;
    body::check_type(data, view::TYPE)?;
    body::check_id(data, &current.id.to_string())?;
    let mut attributes = Attributes::of(data);
    let mut problems: Vec<Problem> = Vec::new();
    if data.get("attributes").is_none() {
        problems.push((
            "/data/attributes".into(),
            ValidationCode::Blank,
            "attributes are required: the members to change".into(),
        ));
    }
    for (key, now) in [
        ("entity_type", current.entity_type.as_str()),
        ("api_slug", current.api_slug.as_str()),
        ("data_type", current.data_type.as_str()),
    ] {
        if let Some(given) = attributes.raw(key)
            && given.as_str() != Some(now)
        {
            problems.push((
                format!("/data/attributes/{key}"),
                ValidationCode::Immutable,
                format!("{key} cannot change: the field's values are held to it"),
            ));
        }
    }
    let change = DefinitionChange {
        display_name: attributes.string("display_name"),
        description: attributes.nullable_string("description"),
        validation: attributes.raw("validation").map(|v| Some(v.clone())),
        default_format: attributes.nullable_string("default_format"),
        default_value: attributes.raw("default_value").map(|v| Some(v.clone())),
        reference_number: attributes.boolean("reference_number"),
    };
    attributes.reject_unknown();
    problems.extend(attributes.problems);
    if problems.is_empty() {
        Ok(change)
    } else {
        Err(ApiError::unprocessable(problems))
    }
}

/// List the account's custom field definitions, newest first.
#[utoipa::path(get, path = "/v2/custom_field_definitions", operation_id = "listCustomFieldDefinitions", tag = "Custom fields",
    params(
        Paging,
        ("filter[entity_type]" = Option<String>, Query, pattern = r"^((Shipment|Container|TrackingRequest|shipment|container|tracking_request)(,(Shipment|Container|TrackingRequest|shipment|container|tracking_request))*)?$", description = "Comma-separated: `Shipment`, `Container`, `TrackingRequest`"),
        ("filter[data_type]" = Option<String>, Query, pattern = r"^((short_text|number|date|datetime|boolean|enum|enum_multi|reference)(,(short_text|number|date|datetime|boolean|enum|enum_multi|reference))*)?$", description = "Comma-separated data types"),
        ("filter[display_name]" = Option<String>, Query, description = "A display name, exactly"),
    ),
    responses((status = 200, description = "A page of definitions.", body = ListDocument<DefinitionResource>)),
)]
pub async fn list(scope: Scope, mut query: QueryParams) -> Page<DefinitionResource> {
    let page = take_page(&mut query, &scope.config)?;
    let filter = DefinitionFilter {
        entity_type: take_list(
            &mut query,
            "filter[entity_type]",
            "Shipment, Container or TrackingRequest",
            EntityType::parse,
        )?,
        data_type: take_list(
            &mut query,
            "filter[data_type]",
            "a data type",
            DataType::parse,
        )?,
        display_name: query.take("filter[display_name]"),
    };
    query.finish()?;
    let result = scope
        .store
        .list_definitions(scope.account(), &filter, page)
        .await?;
    let ids: Vec<_> = result.items.iter().map(|d| d.id).collect();
    let options = scope.store.options(scope.account(), &ids).await?;
    let data = result
        .items
        .iter()
        .map(|definition| view::resource(definition, &options))
        .collect();
    Ok(JsonApi::ok(list_document(
        "/v2/custom_field_definitions",
        &query,
        page,
        result.total,
        data,
    )))
}

/// Define a custom field.
#[utoipa::path(post, path = "/v2/custom_field_definitions", operation_id = "createCustomFieldDefinition", tag = "Custom fields",
    request_body(content = view::DefinitionInput),
    responses(
        (status = 201, description = "Defined.", body = Document<DefinitionResource>),
        (status = 422, description = "A member missing or invalid, an `api_slug` the account has for the entity type (`duplicate`), or the account's most definitions (`too_many`)."),
    ),
)]
pub async fn create(scope: Scope, Input(body): Input) -> One<DefinitionResource> {
    let draft = draft(&body)?;
    let definition = scope.custom_fields.define(scope.account(), draft).await?;
    let document = document(&scope, &definition).await?;
    Ok(JsonApi::created(view::path(definition.id), document))
}

/// Get one custom field definition.
#[utoipa::path(get, path = "/v2/custom_field_definitions/{id}", operation_id = "getCustomFieldDefinition", tag = "Custom fields",
    params(Record<Definition>),
    responses((status = 200, description = "The definition.", body = Document<DefinitionResource>)),
)]
pub async fn show(scope: Scope, Record(definition): Record<Definition>) -> One<DefinitionResource> {
    Ok(JsonApi::ok(document(&scope, &definition).await?))
}

/// Change a definition's display name, description, validation, default format or
/// value, or whether it is a reference number; its entity type, slug and data type never
/// change.
#[utoipa::path(patch, path = "/v2/custom_field_definitions/{id}", operation_id = "updateCustomFieldDefinition", tag = "Custom fields",
    params(Edit<Definition>),
    request_body(content = view::DefinitionInput),
    responses(
        (status = 200, description = "Changed.", body = Document<DefinitionResource>),
        (status = 422, description = "A member invalid, or one that cannot change (`immutable`)."),
    ),
)]
pub async fn update(
    scope: Scope,
    Edit {
        record: definition,
        body,
    }: Edit<Definition>,
) -> One<DefinitionResource> {
    let change = change(&body, &definition)?;
    let changed = scope.custom_fields.redefine(&definition, change).await?;
    Ok(JsonApi::ok(document(&scope, &changed).await?))
}

/// Delete a definition, and with it its options and every value of it (as the reference
/// does). Answers 200 without a body, as the reference documents it.
#[utoipa::path(delete, path = "/v2/custom_field_definitions/{id}", operation_id = "deleteCustomFieldDefinition", tag = "Custom fields",
    params(Found<Definition>),
    responses((status = 200, description = "Deleted, with its options and values (no body, as the reference API).")),
)]
pub async fn remove(
    scope: Scope,
    definition: Found<Definition>,
    query: QueryParams,
) -> Result<StatusCode, ApiError> {
    query.finish()?;
    let definition = definition.read(&scope).await?;
    scope
        .store
        .delete_definition(scope.account(), definition.id)
        .await?;
    Ok(StatusCode::OK)
}
