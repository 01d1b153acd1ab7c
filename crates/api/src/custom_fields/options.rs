//! `/v2/custom_field_definitions/{id}/options`: the choices of an `enum` or `enum_multi`
//! field (compat-api.md §10). An option a value or the default chooses is not deleted.

use axum::extract::Path;
use axum::http::StatusCode;
use serde_json::Value;
use tidemark_domain::custom_field::{Definition, FieldOption, OptionChange, OptionDraft};
use tidemark_domain::{CustomFieldDefinitionId, CustomFieldOptionId};
use tidemark_wire::custom_field_definition::{self as view, OptionResource};

use crate::ApiError;
use crate::auth::Scope;
use crate::body::{self, Attributes};
use crate::document::{Document, JsonApi, ListDocument, One, Page};
use crate::error::ErrorCode;
use crate::extract::{Input, QueryParams};
use crate::found::{Found, Record, missing};
use crate::params::{Paging, page_of, take_page};

/// The option `option` of `definition` (both as the path spells them) in the caller's
/// account, with its definition.
async fn find(
    scope: &Scope,
    definition: &str,
    option: &str,
) -> Result<(Definition, FieldOption), ApiError> {
    let gone = || ErrorCode::NotFound.error("no custom field option has this id in this field");
    let definition =
        CustomFieldDefinitionId::parse(definition).ok_or_else(missing::<Definition>)?;
    let definition = scope
        .store
        .definition(scope.account(), definition)
        .await?
        .ok_or_else(missing::<Definition>)?;
    let id = CustomFieldOptionId::parse(option).ok_or_else(gone)?;
    let option = scope
        .store
        .options(scope.account(), &[definition.id])
        .await?
        .into_iter()
        .find(|o| o.id == id)
        .ok_or_else(gone)?;
    Ok((definition, option))
}

fn document(option: &FieldOption) -> Document<OptionResource> {
    Document::new(
        view::option(option),
        view::option_path(option.definition_id, option.id),
    )
}

fn attributes_of(
    document: &Value,
    id: Option<CustomFieldOptionId>,
) -> Result<Attributes<'_>, ApiError> {
    let data = body::data(document)?;
    body::check_type(data, view::OPTION_TYPE)?;
    match id {
        Some(id) => body::check_id(data, &id.to_string())?,
        None => body::check_no_id(data)?,
    }
    Ok(Attributes::of(data))
}

/// A field's options, in position order (none last).
#[utoipa::path(get, path = "/v2/custom_field_definitions/{id}/options", operation_id = "listCustomFieldOptions", tag = "Custom fields",
    params(Found<Definition>, Paging),
    responses((status = 200, description = "A page of options.", body = ListDocument<OptionResource>)),
)]
pub async fn list(
    scope: Scope,
    definition: Found<Definition>,
    mut query: QueryParams,
) -> Page<OptionResource> {
    let page = take_page(&mut query, &scope.config)?;
    query.finish()?;
    let definition = definition.read(&scope).await?;
    let options = scope
        .store
        .options(scope.account(), &[definition.id])
        .await?;
    let total = u64::try_from(options.len()).unwrap_or(u64::MAX);
    let skip = usize::try_from(page.offset()).unwrap_or(usize::MAX);
    let take = usize::try_from(page.limit()).unwrap_or(usize::MAX);
    let items = options.into_iter().skip(skip).take(take).collect();
    let path = format!("{}/options", view::path(definition.id));
    let result = tidemark_store::Page { items, total };
    Ok(JsonApi::ok(page_of(
        &path,
        &query,
        page,
        &result,
        view::option,
    )))
}

/// Add an option to an `enum` or `enum_multi` field.
#[utoipa::path(post, path = "/v2/custom_field_definitions/{id}/options", operation_id = "createCustomFieldOption", tag = "Custom fields",
    params(Record<Definition>),
    request_body(content = view::OptionInput),
    responses(
        (status = 201, description = "Added.", body = Document<OptionResource>),
        (status = 422, description = "A field of another data type, a label or value missing or too long, a value the field has (`duplicate`), or its most options (`too_many`)."),
    ),
)]
pub async fn create(
    scope: Scope,
    Record(definition): Record<Definition>,
    Input(body): Input,
) -> One<OptionResource> {
    let mut attributes = attributes_of(&body, None)?;
    let draft = OptionDraft {
        label: attributes.string("label"),
        value: attributes.string("value"),
        position: attributes.nullable_integer("position").flatten(),
    };
    attributes.reject_unknown();
    if !attributes.problems.is_empty() {
        return Err(ApiError::unprocessable(attributes.problems));
    }
    let option = scope.custom_fields.add_option(&definition, draft).await?;
    Ok(JsonApi::created(
        view::option_path(definition.id, option.id),
        document(&option),
    ))
}

/// Get one option.
#[utoipa::path(get, path = "/v2/custom_field_definitions/{id}/options/{option_id}", operation_id = "getCustomFieldOption", tag = "Custom fields",
    params(("id" = String, Path, description = "The definition's id"), ("option_id" = String, Path, description = "The option's id")),
    responses((status = 200, description = "The option.", body = Document<OptionResource>)),
)]
pub async fn show(
    scope: Scope,
    Path((definition, option)): Path<(String, String)>,
    query: QueryParams,
) -> One<OptionResource> {
    query.finish()?;
    let (_, option) = find(&scope, &definition, &option).await?;
    Ok(JsonApi::ok(document(&option)))
}

/// Change an option's label or position (its value is what values hold: it never changes).
#[utoipa::path(patch, path = "/v2/custom_field_definitions/{id}/options/{option_id}", operation_id = "updateCustomFieldOption", tag = "Custom fields",
    params(("id" = String, Path, description = "The definition's id"), ("option_id" = String, Path, description = "The option's id")),
    request_body(content = view::OptionInput),
    responses(
        (status = 200, description = "Changed.", body = Document<OptionResource>),
        (status = 422, description = "A blank or too long label, or a changed value (`immutable`)."),
    ),
)]
pub async fn update(
    scope: Scope,
    Path((definition, option)): Path<(String, String)>,
    Input(body): Input,
) -> One<OptionResource> {
    let (_, option) = find(&scope, &definition, &option).await?;
    let mut attributes = attributes_of(&body, Some(option.id))?;
    if body::data(&body)?.get("attributes").is_none() {
        attributes.problems.push((
            "/data/attributes".into(),
            tidemark_domain::ValidationCode::Blank,
            "attributes are required: the members to change".into(),
        ));
    }
    if let Some(value) = attributes.raw("value")
        && value.as_str() != Some(option.value.as_str())
    {
        attributes.problems.push((
            "/data/attributes/value".into(),
            tidemark_domain::ValidationCode::Immutable,
            "an option's value cannot change: values hold it".into(),
        ));
    }
    let change = OptionChange {
        label: attributes.string("label"),
        position: attributes.nullable_integer("position"),
    };
    attributes.reject_unknown();
    if !attributes.problems.is_empty() {
        return Err(ApiError::unprocessable(attributes.problems));
    }
    let changed = scope.custom_fields.change_option(&option, change).await?;
    Ok(JsonApi::ok(document(&changed)))
}

/// Delete an option that no value and not the default chooses. Answers 200 without a
/// body, as the reference documents its deletes.
#[utoipa::path(delete, path = "/v2/custom_field_definitions/{id}/options/{option_id}", operation_id = "deleteCustomFieldOption", tag = "Custom fields",
    params(("id" = String, Path, description = "The definition's id"), ("option_id" = String, Path, description = "The option's id")),
    responses(
        (status = 200, description = "Deleted (no body)."),
        (status = 409, description = "A value or the field's default chooses it."),
    ),
)]
pub async fn remove(
    scope: Scope,
    Path((definition, option)): Path<(String, String)>,
    query: QueryParams,
) -> Result<StatusCode, ApiError> {
    query.finish()?;
    let (definition, option) = find(&scope, &definition, &option).await?;
    scope
        .custom_fields
        .remove_option(&definition, &option)
        .await?;
    Ok(StatusCode::OK)
}
