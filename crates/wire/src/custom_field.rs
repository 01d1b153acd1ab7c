//! The reference API's custom fields (compat-api.md §1.8, §10): values of an account's
//! custom field definitions on a tracking request, a shipment or a container, and the
//! shapes of what clients send.

use serde::Serialize;
use tidemark_domain::CustomFieldId;
use tidemark_domain::custom_field::{CustomField, Definition, FieldOption};
use utoipa::ToSchema;

use crate::document::{SelfLink, ToOne};

/// The JSON:API type of a custom field value.
pub const TYPE: &str = "custom_field";

/// A custom field's value on a record.
#[derive(Debug, Serialize, ToSchema)]
pub struct CustomFieldResource {
    /// Its id.
    pub id: String,
    /// Always `custom_field`.
    #[serde(rename = "type")]
    #[schema(pattern = "^custom_field$")]
    pub type_: &'static str,
    /// Its value.
    pub attributes: CustomFieldAttributes,
    /// The record it is on and the definition it is a value of.
    pub relationships: CustomFieldRelationships,
    /// Its own link.
    pub links: SelfLink,
}

/// Where a value lives.
#[must_use]
pub fn path(id: CustomFieldId) -> String {
    format!("/v2/custom_fields/{id}")
}

/// `field`, a value of `definition` (whose options are `options`), as a resource.
#[must_use]
pub fn resource(
    field: &CustomField,
    definition: &Definition,
    options: &[FieldOption],
) -> CustomFieldResource {
    CustomFieldResource {
        id: field.id.to_string(),
        type_: TYPE,
        attributes: CustomFieldAttributes {
            api_slug: definition.api_slug.to_string(),
            value: field.value.to_json(),
            display_value: Some(field.value.display(options)),
        },
        relationships: CustomFieldRelationships {
            entity: ToOne::of(field.entity_type.resource_type(), Some(field.entity_id)),
            definition: ToOne::of(crate::custom_field_definition::TYPE, Some(definition.id)),
        },
        links: SelfLink {
            self_: path(field.id),
        },
    }
}

/// A custom field value's attributes.
#[derive(Debug, Serialize, ToSchema)]
pub struct CustomFieldAttributes {
    /// The definition's key.
    pub api_slug: String,
    /// The value, of the definition's data type.
    pub value: serde_json::Value,
    /// The value as the definition shows it.
    pub display_value: Option<String>,
}

/// What a custom field value belongs to.
#[derive(Debug, Serialize, ToSchema)]
pub struct CustomFieldRelationships {
    /// The tracking request, shipment or container.
    pub entity: ToOne,
    /// The definition.
    pub definition: ToOne,
}

/// A custom field value as a client sends it.
#[derive(Debug, ToSchema)]
#[expect(
    dead_code,
    reason = "describes the request body in the OpenAPI document"
)]
pub struct CustomFieldInputAttributes {
    /// The key of one of the account's custom field definitions.
    #[schema(min_length = 1)]
    api_slug: String,
    /// The value, of the definition's data type.
    value: serde_json::Value,
}

/// The resource object of a custom field value sent.
#[derive(Debug, ToSchema)]
#[expect(
    dead_code,
    reason = "describes the request body in the OpenAPI document"
)]
pub struct CustomFieldInputData {
    /// Must be `custom_field`.
    #[schema(rename = "type", pattern = "^custom_field$")]
    type_: String,
    /// The value.
    attributes: CustomFieldInputAttributes,
}

/// The body of `POST …/custom_fields`.
#[derive(Debug, ToSchema)]
#[schema(example = json!({"data": {"type": "custom_field", "attributes": {"api_slug": "cost_center", "value": "CC-17"}}}))]
#[expect(
    dead_code,
    reason = "describes the request body in the OpenAPI document"
)]
pub struct CustomFieldDocument {
    /// The value.
    data: CustomFieldInputData,
}

/// A value a create stages for the shipment or its containers (`initial_custom_fields`).
#[derive(Debug, ToSchema)]
#[expect(
    dead_code,
    reason = "describes the request body in the OpenAPI document"
)]
pub struct InitialCustomField {
    /// The key of one of the account's custom field definitions.
    api_slug: String,
    /// The value, of the definition's data type.
    value: serde_json::Value,
    /// For `containers`: the container it is for; left out or empty, every container.
    number: Option<String>,
}

/// `initial_custom_fields` of a create: values staged for the shipment and its containers
/// (at most 100), each set when its record first appears. Each names a field of the
/// account (`Shipment` fields for `shipment`, `Container` fields for `containers`) and
/// holds a value of its data type; a container value without a `number` (or with an
/// empty one) goes to every container, one with a number only to that container.
#[derive(Debug, ToSchema)]
#[expect(
    dead_code,
    reason = "describes the request body in the OpenAPI document"
)]
pub struct InitialCustomFields {
    /// Values for the shipment.
    #[schema(max_items = 100)]
    shipment: Option<Vec<InitialCustomField>>,
    /// Values for its containers.
    #[schema(max_items = 100)]
    containers: Option<Vec<InitialCustomField>>,
}
