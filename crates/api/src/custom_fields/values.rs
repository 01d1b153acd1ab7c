//! Custom field values (compat-api.md §1.8, §10): the flat list at `/v2/custom_fields`
//! (list with the reference's filters, create naming the record, read, change, delete),
//! rendered with their definitions.

use axum::http::StatusCode;
use serde_json::{Map, Value};
use tidemark_domain::CustomFieldDefinitionId;
use tidemark_domain::ValidationCode;
use tidemark_domain::custom_field::{CustomField, EntityType, FieldOption};
use tidemark_store::CustomFieldFilter;
use tidemark_wire::custom_field::{self as view, CustomFieldResource};
use uuid::Uuid;

use crate::auth::Scope;
use crate::body::{self, Attributes};
use crate::document::{Document, JsonApi, ListDocument, One, Page};
use crate::extract::{Input, QueryParams};
use crate::found::{Edit, Found, Record, missing};
use crate::params::{Paging, list_document, take_list, take_page};
use crate::{ApiError, AppState};

/// `fields` as resources, each with its definition and options.
pub(super) async fn resources(
    state: &AppState,
    fields: &[CustomField],
) -> Result<Vec<CustomFieldResource>, ApiError> {
    let Some(account) = fields.first().map(|f| f.account_id) else {
        return Ok(Vec::new());
    };
    let mut ids: Vec<CustomFieldDefinitionId> = fields.iter().map(|f| f.definition_id).collect();
    ids.sort_unstable();
    ids.dedup();
    let definitions = state.store.definitions(account, &ids).await?;
    let options = state.store.options(account, &ids).await?;
    Ok(fields
        .iter()
        .filter_map(|field| {
            let definition = definitions.iter().find(|d| d.id == field.definition_id)?;
            let own: Vec<FieldOption> = options
                .iter()
                .filter(|o| o.definition_id == definition.id)
                .cloned()
                .collect();
            Some(view::resource(field, definition, &own))
        })
        .collect())
}

/// `field` as a document.
pub(super) async fn document(
    state: &AppState,
    field: &CustomField,
) -> Result<Document<CustomFieldResource>, ApiError> {
    let resource = resources(state, std::slice::from_ref(field))
        .await?
        .into_iter()
        .next()
        .ok_or_else(missing::<CustomField>)?;
    Ok(Document::new(resource, view::path(field.id)))
}

/// The `value` of a value's body (`api_slug` too, when `with_slug`), its `data` checked
/// (`id` must be `id`, when given).
pub(super) fn value_of<'a>(
    data: &'a Map<String, Value>,
    with_slug: bool,
    id: Option<&str>,
) -> Result<(Option<String>, &'a Value), ApiError> {
    body::check_type(data, view::TYPE)?;
    match id {
        Some(id) => body::check_id(data, id)?,
        None => body::check_no_id(data)?,
    }
    let mut attributes = Attributes::of(data);
    let slug = if with_slug {
        attributes.string("api_slug")
    } else {
        attributes.raw("api_slug");
        None
    };
    let value = attributes.raw("value");
    attributes.reject_unknown();
    let mut problems = attributes.problems;
    if value.is_none() {
        problems.push((
            "/data/attributes/value".into(),
            ValidationCode::Blank,
            "value is required".into(),
        ));
    }
    let slug_blank = slug.as_deref().is_none_or(|s| s.trim().is_empty());
    if with_slug && slug_blank && !problems.iter().any(|p| p.0.ends_with("/api_slug")) {
        problems.push((
            "/data/attributes/api_slug".into(),
            ValidationCode::Blank,
            "api_slug is required".into(),
        ));
    }
    match value {
        Some(value) if problems.is_empty() => Ok((slug, value)),
        _ => Err(ApiError::unprocessable(problems)),
    }
}

/// Every value of the account, newest first.
#[utoipa::path(get, path = "/v2/custom_fields", operation_id = "listCustomFields", tag = "Custom fields",
    params(
        Paging,
        ("filter[entity_type]" = Option<String>, Query, pattern = r"^((Shipment|Container|TrackingRequest|shipment|container|tracking_request)(,(Shipment|Container|TrackingRequest|shipment|container|tracking_request))*)?$", description = "Comma-separated: `Shipment`, `Container`, `TrackingRequest` (or their JSON:API types)"),
        ("filter[entity_id]" = Option<String>, Query, pattern = r"^([0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}(,[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12})*)?$", description = "Comma-separated record ids"),
        ("filter[definition_id]" = Option<String>, Query, pattern = r"^([0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}(,[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12})*)?$", description = "Comma-separated definition ids"),
    ),
    responses((status = 200, description = "A page of values.", body = ListDocument<CustomFieldResource>)),
)]
pub async fn list(scope: Scope, mut query: QueryParams) -> Page<CustomFieldResource> {
    let page = take_page(&mut query, &scope.config)?;
    let filter = CustomFieldFilter {
        entity_type: take_list(
            &mut query,
            "filter[entity_type]",
            "Shipment, Container or TrackingRequest",
            EntityType::parse,
        )?,
        entity_id: take_list(&mut query, "filter[entity_id]", "a record's id", |id| {
            Uuid::try_parse(id).ok()
        })?,
        definition_id: take_list(
            &mut query,
            "filter[definition_id]",
            "a definition's id",
            CustomFieldDefinitionId::parse,
        )?,
    };
    query.finish()?;
    let result = scope
        .store
        .list_custom_fields(scope.account(), &filter, page)
        .await?;
    let data = resources(&scope, &result.items).await?;
    Ok(JsonApi::ok(list_document(
        "/v2/custom_fields",
        &query,
        page,
        result.total,
        data,
    )))
}

/// The record `relationships.entity` names, found in the account.
async fn entity(scope: &Scope, data: &Map<String, Value>) -> Result<(EntityType, Uuid), ApiError> {
    let pointer = "/data/relationships/entity/data";
    let linkage = data
        .get("relationships")
        .and_then(|r| r.get("entity"))
        .and_then(|e| e.get("data"))
        .and_then(Value::as_object);
    let kind = linkage
        .and_then(|l| l.get("type"))
        .and_then(Value::as_str)
        .and_then(EntityType::parse);
    let id = linkage.and_then(|l| l.get("id")).and_then(Value::as_str);
    let (Some(kind), Some(id)) = (kind, id) else {
        return Err(ApiError::unprocessable(vec![(
            pointer.to_owned(),
            ValidationCode::Invalid,
            "relationships.entity.data names the record: {\"type\": \"shipment\" | \
             \"container\" | \"tracking_request\", \"id\": …}"
                .to_owned(),
        )]));
    };
    let found = super::Entity::of(kind)
        .record(scope, scope.caller, id)
        .await?;
    Ok((kind, found))
}

/// Set a value on a record named by `relationships.entity`; a value the record has of the
/// field is replaced.
#[utoipa::path(post, path = "/v2/custom_fields", operation_id = "createCustomField", tag = "Custom fields",
    request_body(content = view::CustomFieldDocument),
    responses(
        (status = 201, description = "Set.", body = Document<CustomFieldResource>),
        (status = 404, description = "The account has no such record."),
        (status = 422, description = "No field of the record's kind has the `api_slug` (`unknown_custom_field`), or the value does not fit its data type (`invalid`)."),
    ),
)]
pub async fn create(scope: Scope, Input(body): Input) -> One<CustomFieldResource> {
    let data = body::data(&body)?;
    let (slug, value) = value_of(data, true, None)?;
    let (kind, id) = entity(&scope, data).await?;
    let slug = slug.unwrap_or_default();
    let set = scope
        .custom_fields
        .set(scope.account(), kind, id, &slug, value)
        .await?;
    let document = Document::new(
        view::resource(&set.field, &set.definition, &set.options),
        view::path(set.field.id),
    );
    Ok(JsonApi::created(view::path(set.field.id), document))
}

/// Get one value.
#[utoipa::path(get, path = "/v2/custom_fields/{id}", operation_id = "getCustomField", tag = "Custom fields",
    params(Record<CustomField>),
    responses((status = 200, description = "The value.", body = Document<CustomFieldResource>)),
)]
pub async fn show(scope: Scope, Record(field): Record<CustomField>) -> One<CustomFieldResource> {
    Ok(JsonApi::ok(document(&scope, &field).await?))
}

/// Change a value.
#[utoipa::path(patch, path = "/v2/custom_fields/{id}", operation_id = "updateCustomField", tag = "Custom fields",
    params(Edit<CustomField>),
    request_body(content = view::CustomFieldDocument),
    responses(
        (status = 200, description = "Changed.", body = Document<CustomFieldResource>),
        (status = 422, description = "The value does not fit the field's data type."),
    ),
)]
pub async fn update(
    scope: Scope,
    Edit {
        record: field,
        body,
    }: Edit<CustomField>,
) -> One<CustomFieldResource> {
    let data = body::data(&body)?;
    let (_, value) = value_of(data, false, Some(&field.id.to_string()))?;
    let definition = scope
        .store
        .definition(scope.account(), field.definition_id)
        .await?
        .ok_or_else(missing::<CustomField>)?;
    let set = scope
        .custom_fields
        .set(
            scope.account(),
            field.entity_type,
            field.entity_id,
            definition.api_slug.as_str(),
            value,
        )
        .await?;
    Ok(JsonApi::ok(Document::new(
        view::resource(&set.field, &set.definition, &set.options),
        view::path(set.field.id),
    )))
}

/// Delete a value. Answers 200 without a body, as the reference documents it.
#[utoipa::path(delete, path = "/v2/custom_fields/{id}", operation_id = "deleteCustomField", tag = "Custom fields",
    params(Found<CustomField>),
    responses((status = 200, description = "Deleted (no body, as the reference API).")),
)]
pub async fn remove(
    scope: Scope,
    field: Found<CustomField>,
    query: QueryParams,
) -> Result<StatusCode, ApiError> {
    query.finish()?;
    let field = field.read(&scope).await?;
    scope
        .store
        .delete_custom_field(scope.account(), field.id)
        .await?;
    Ok(StatusCode::OK)
}
