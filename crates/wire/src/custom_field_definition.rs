//! Custom field definitions and their options as resources (compat-api.md §10).

use serde::Serialize;
use serde_json::Value;
use tidemark_domain::custom_field::{Definition, FieldOption};
use tidemark_domain::{CustomFieldDefinitionId, CustomFieldOptionId};
use utoipa::ToSchema;

use crate::document::{RelatedLink, ResourceIdentifier, SelfLink, ToMany, ToOne};

/// The JSON:API type of a definition.
pub const TYPE: &str = "custom_field_definition";

/// The JSON:API type of an option.
pub const OPTION_TYPE: &str = "custom_field_option";

/// Where a definition lives.
#[must_use]
pub fn path(id: CustomFieldDefinitionId) -> String {
    format!("/v2/custom_field_definitions/{id}")
}

/// Where an option lives.
#[must_use]
pub fn option_path(definition: CustomFieldDefinitionId, id: CustomFieldOptionId) -> String {
    format!("{}/options/{id}", path(definition))
}

/// A definition's attributes.
#[derive(Debug, Serialize, ToSchema)]
pub struct DefinitionAttributes {
    /// `Shipment`, `Container` or `TrackingRequest`.
    #[schema(pattern = "^(Shipment|Container|TrackingRequest)$")]
    pub entity_type: &'static str,
    /// How clients name it in values and paths.
    pub api_slug: String,
    /// What people read.
    pub display_name: String,
    /// What it is for.
    pub description: Option<String>,
    /// `short_text`, `number`, `date`, `datetime`, `boolean`, `enum`, `enum_multi` or
    /// `reference`.
    pub data_type: &'static str,
    /// What a `reference` value names, as the client wrote it.
    pub reference_type: Option<String>,
    /// The client's validation settings, kept as given.
    #[schema(value_type = Option<Object>)]
    pub validation: Option<Value>,
    /// The client's display format, kept as given.
    pub default_format: Option<String>,
    /// What a record without a value of its own shows: a value of the data type.
    pub default_value: Option<Value>,
    /// **(beyond)** Whether its values are reference numbers, found by `GET /v2/search`
    /// and the console's search.
    pub reference_number: bool,
    /// The reference's templates: none in Tidemark.
    pub template_id: Option<String>,
    /// When it was made.
    #[schema(format = DateTime)]
    pub created_at: String,
    /// When it last changed.
    #[schema(format = DateTime)]
    pub updated_at: String,
}

/// A definition's relationships.
#[derive(Debug, Serialize, ToSchema)]
pub struct DefinitionRelationships {
    /// Its options (`enum` and `enum_multi`), in order.
    pub options: ToMany,
    /// Its values, listed at `GET /v2/custom_fields?filter[definition_id]=…`.
    pub fields: RelatedLink,
}

/// A `custom_field_definition` resource.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = CustomFieldDefinition)]
pub struct DefinitionResource {
    /// Its id.
    #[schema(format = Uuid)]
    pub id: String,
    /// Always `custom_field_definition`.
    #[serde(rename = "type")]
    #[schema(pattern = "^custom_field_definition$")]
    pub type_: &'static str,
    /// Its attributes.
    pub attributes: DefinitionAttributes,
    /// Its relationships.
    pub relationships: DefinitionRelationships,
    /// Its own link.
    pub links: SelfLink,
}

/// `definition`, whose options are `options`, as a resource.
#[must_use]
pub fn resource(definition: &Definition, options: &[FieldOption]) -> DefinitionResource {
    DefinitionResource {
        id: definition.id.to_string(),
        type_: TYPE,
        attributes: DefinitionAttributes {
            entity_type: definition.entity_type.as_str(),
            api_slug: definition.api_slug.to_string(),
            display_name: definition.display_name.clone(),
            description: definition.description.clone(),
            data_type: definition.data_type.as_str(),
            reference_type: definition.reference_type.clone(),
            validation: definition.validation.clone(),
            default_format: definition.default_format.clone(),
            default_value: definition.default_value.as_ref().map(|v| v.to_json()),
            reference_number: definition.reference_number,
            template_id: None,
            created_at: definition.created_at.to_string(),
            updated_at: definition.updated_at.to_string(),
        },
        relationships: DefinitionRelationships {
            options: ToMany {
                data: options
                    .iter()
                    .filter(|o| o.definition_id == definition.id)
                    .map(|o| ResourceIdentifier::new(OPTION_TYPE, o.id))
                    .collect(),
            },
            fields: RelatedLink::at(format!(
                "/v2/custom_fields?filter%5Bdefinition_id%5D={}",
                definition.id
            )),
        },
        links: SelfLink {
            self_: path(definition.id),
        },
    }
}

/// An option's attributes.
#[derive(Debug, Serialize, ToSchema)]
pub struct OptionAttributes {
    /// What people read.
    pub label: String,
    /// What values hold.
    pub value: String,
    /// Where it stands among the others (lowest first; none last).
    pub position: Option<i64>,
}

/// An option's relationships.
#[derive(Debug, Serialize, ToSchema)]
pub struct OptionRelationships {
    /// Its definition.
    pub definition: ToOne,
}

/// A `custom_field_option` resource.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = CustomFieldOption)]
pub struct OptionResource {
    /// Its id.
    #[schema(format = Uuid)]
    pub id: String,
    /// Always `custom_field_option`.
    #[serde(rename = "type")]
    #[schema(pattern = "^custom_field_option$")]
    pub type_: &'static str,
    /// Its attributes.
    pub attributes: OptionAttributes,
    /// Its relationships.
    pub relationships: OptionRelationships,
    /// Its own link.
    pub links: SelfLink,
}

/// `option` as a resource.
#[must_use]
pub fn option(option: &FieldOption) -> OptionResource {
    OptionResource {
        id: option.id.to_string(),
        type_: OPTION_TYPE,
        attributes: OptionAttributes {
            label: option.label.clone(),
            value: option.value.clone(),
            position: option.position,
        },
        relationships: OptionRelationships {
            definition: ToOne::of(TYPE, Some(option.definition_id)),
        },
        links: SelfLink {
            self_: option_path(option.definition_id, option.id),
        },
    }
}

/// The body of a definition's create or change (a change takes `display_name`,
/// `description`, `validation`, `default_format`, `default_value`, `reference_number`).
#[derive(Debug, ToSchema)]
#[schema(example = json!({"data": {"type": "custom_field_definition", "attributes": {
    "entity_type": "Shipment", "api_slug": "purchase_order_number",
    "display_name": "Purchase order number", "data_type": "short_text",
    "reference_number": true}}}))]
#[expect(
    dead_code,
    reason = "describes the request body in the OpenAPI document"
)]
pub struct DefinitionInput {
    /// The definition.
    data: DefinitionInputData,
}

/// A definition as a client sends it.
#[derive(Debug, ToSchema)]
#[expect(
    dead_code,
    reason = "describes the request body in the OpenAPI document"
)]
pub struct DefinitionInputData {
    /// Must be `custom_field_definition`.
    #[schema(rename = "type", pattern = "^custom_field_definition$")]
    type_: String,
    /// Its members.
    attributes: DefinitionInputAttributes,
}

/// A definition's members as a client sends them.
#[derive(Debug, ToSchema)]
#[expect(
    dead_code,
    reason = "describes the request body in the OpenAPI document"
)]
pub struct DefinitionInputAttributes {
    /// `Shipment`, `Container` or `TrackingRequest` (create only).
    #[schema(pattern = "^(Shipment|Container|TrackingRequest)$")]
    entity_type: Option<String>,
    /// A lowercase letter, then lowercase letters, digits and underscores, at most 64
    /// (create only).
    #[schema(pattern = "^[a-z][a-z0-9_]{0,63}$")]
    api_slug: Option<String>,
    /// At most 255 characters.
    #[schema(max_length = 255)]
    display_name: Option<String>,
    /// At most 1,000 characters.
    #[schema(max_length = 1000)]
    description: Option<String>,
    /// The data type (create only).
    #[schema(pattern = "^(short_text|number|date|datetime|boolean|enum|enum_multi|reference)$")]
    data_type: Option<String>,
    /// What a `reference` value names.
    reference_type: Option<String>,
    /// Kept as given (an object of at most 2,048 bytes of JSON).
    #[schema(value_type = Option<Object>)]
    validation: Option<Value>,
    /// Kept as given.
    default_format: Option<String>,
    /// A value of the data type; an enum's is one of its options (so set once they exist).
    default_value: Option<Value>,
    /// **(beyond)** Whether its values are found by search.
    reference_number: Option<bool>,
}

/// The body of an option's create or change (a change takes `label` and `position`).
#[derive(Debug, ToSchema)]
#[schema(example = json!({"data": {"type": "custom_field_option", "attributes": {
    "label": "Ocean", "value": "ocean", "position": 1}}}))]
#[expect(
    dead_code,
    reason = "describes the request body in the OpenAPI document"
)]
pub struct OptionInput {
    /// The option.
    data: OptionInputData,
}

/// An option as a client sends it.
#[derive(Debug, ToSchema)]
#[expect(
    dead_code,
    reason = "describes the request body in the OpenAPI document"
)]
pub struct OptionInputData {
    /// Must be `custom_field_option`.
    #[schema(rename = "type", pattern = "^custom_field_option$")]
    type_: String,
    /// Its members.
    attributes: OptionInputAttributes,
}

/// An option's members as a client sends them.
#[derive(Debug, ToSchema)]
#[expect(
    dead_code,
    reason = "describes the request body in the OpenAPI document"
)]
pub struct OptionInputAttributes {
    /// What people read, at most 255 characters.
    #[schema(max_length = 255)]
    label: Option<String>,
    /// What values hold, unique within the field, at most 255 characters (create only).
    #[schema(max_length = 255)]
    value: Option<String>,
    /// Where it stands among the others.
    position: Option<i64>,
}
