//! Custom fields (compat-api.md §10): an account's definitions, their options and the
//! values set on its records. Written once over [`Backend`]; a definition's values and
//! options go with it. The statements of definitions and options are in [`definitions`],
//! those of values in [`values`].

mod definitions;
pub(crate) mod staged;
pub(crate) mod values;

use async_trait::async_trait;
use tidemark_domain::custom_field::{
    ApiSlug, CustomField, DataType, Definition, EntityType, FieldOption,
};
use tidemark_domain::{AccountId, CustomFieldDefinitionId, CustomFieldId};
use uuid::Uuid;

use crate::db::Backend;
use crate::{Page, PageRequest, StoreError};

/// Which definitions a list holds; empty lists narrow nothing.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DefinitionFilter {
    /// Any of these entity types.
    pub entity_type: Vec<EntityType>,
    /// Any of these data types.
    pub data_type: Vec<DataType>,
    /// This display name, exactly.
    pub display_name: Option<String>,
}

/// Which values a list holds; empty lists narrow nothing.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CustomFieldFilter {
    /// On records of any of these types.
    pub entity_type: Vec<EntityType>,
    /// On any of these records.
    pub entity_id: Vec<Uuid>,
    /// Of any of these definitions.
    pub definition_id: Vec<CustomFieldDefinitionId>,
}

/// An account's custom fields.
#[async_trait]
pub trait CustomFieldStore: Send + Sync {
    /// Stores a new definition, when the account has fewer than `most`.
    ///
    /// # Errors
    /// `Conflict` when its slug is taken or the account has `most` definitions.
    async fn create_definition(
        &self,
        definition: &Definition,
        most: usize,
    ) -> Result<(), StoreError>;

    /// How many definitions `account` has.
    async fn count_definitions(&self, account: AccountId) -> Result<u64, StoreError>;

    /// A page of `account`'s definitions, newest first.
    async fn list_definitions(
        &self,
        account: AccountId,
        filter: &DefinitionFilter,
        page: PageRequest,
    ) -> Result<Page<Definition>, StoreError>;

    /// `account`'s definitions with these ids.
    async fn definitions(
        &self,
        account: AccountId,
        ids: &[CustomFieldDefinitionId],
    ) -> Result<Vec<Definition>, StoreError>;

    /// `account`'s definition `id`.
    async fn definition(
        &self,
        account: AccountId,
        id: CustomFieldDefinitionId,
    ) -> Result<Option<Definition>, StoreError> {
        Ok(self.definitions(account, &[id]).await?.into_iter().next())
    }

    /// `account`'s definition of `entity_type` with `slug`.
    async fn definition_by_slug(
        &self,
        account: AccountId,
        entity_type: EntityType,
        slug: &ApiSlug,
    ) -> Result<Option<Definition>, StoreError>;

    /// Replaces a definition's changeable members; false when there is no such definition.
    async fn update_definition(&self, definition: &Definition) -> Result<bool, StoreError>;

    /// Deletes a definition with its options and values; false when there is none.
    async fn delete_definition(
        &self,
        account: AccountId,
        id: CustomFieldDefinitionId,
    ) -> Result<bool, StoreError>;

    /// The options of these definitions of `account`, in position order (none last), then
    /// as made.
    async fn options(
        &self,
        account: AccountId,
        definitions: &[CustomFieldDefinitionId],
    ) -> Result<Vec<FieldOption>, StoreError>;

    /// Stores a new option.
    ///
    /// # Errors
    /// `Conflict` when its definition has an option of its value.
    async fn create_option(&self, option: &FieldOption) -> Result<(), StoreError>;

    /// Replaces an option's label and position; false when there is none.
    async fn update_option(&self, option: &FieldOption) -> Result<bool, StoreError>;

    /// Deletes an option; false when there is none.
    async fn delete_option(&self, option: &FieldOption) -> Result<bool, StoreError>;

    /// A page of `account`'s values, newest first.
    async fn list_custom_fields(
        &self,
        account: AccountId,
        filter: &CustomFieldFilter,
        page: PageRequest,
    ) -> Result<Page<CustomField>, StoreError>;

    /// `account`'s value `id`.
    async fn custom_field(
        &self,
        account: AccountId,
        id: CustomFieldId,
    ) -> Result<Option<CustomField>, StoreError>;

    /// Sets `field` on its record: replaces the value the record has of its definition
    /// (keeping that one's id and creation time), else adds it. The value as stored.
    async fn set_custom_field(&self, field: &CustomField) -> Result<CustomField, StoreError>;

    /// The values a create staged for the records request `request` finds.
    async fn staged_fields(
        &self,
        request: tidemark_domain::TrackingRequestId,
    ) -> Result<Vec<tidemark_domain::custom_field::Staged>, StoreError>;

    /// Deletes `account`'s value `id`; false when there is none.
    async fn delete_custom_field(
        &self,
        account: AccountId,
        id: CustomFieldId,
    ) -> Result<bool, StoreError>;
}

#[async_trait]
impl<B: Backend> CustomFieldStore for B {
    async fn staged_fields(
        &self,
        request: tidemark_domain::TrackingRequestId,
    ) -> Result<Vec<tidemark_domain::custom_field::Staged>, StoreError> {
        staged::of_request(self, request).await
    }

    async fn create_definition(
        &self,
        definition: &Definition,
        most: usize,
    ) -> Result<(), StoreError> {
        definitions::create_definition(self, definition, most).await
    }

    async fn count_definitions(&self, account: AccountId) -> Result<u64, StoreError> {
        definitions::count_definitions(self, account).await
    }

    async fn list_definitions(
        &self,
        account: AccountId,
        filter: &DefinitionFilter,
        page: PageRequest,
    ) -> Result<Page<Definition>, StoreError> {
        definitions::list_definitions(self, account, filter, page).await
    }

    async fn definitions(
        &self,
        account: AccountId,
        ids: &[CustomFieldDefinitionId],
    ) -> Result<Vec<Definition>, StoreError> {
        definitions::definitions(self, account, ids).await
    }

    async fn definition_by_slug(
        &self,
        account: AccountId,
        entity_type: EntityType,
        slug: &ApiSlug,
    ) -> Result<Option<Definition>, StoreError> {
        definitions::definition_by_slug(self, account, entity_type, slug).await
    }

    async fn update_definition(&self, definition: &Definition) -> Result<bool, StoreError> {
        definitions::update_definition(self, definition).await
    }

    async fn delete_definition(
        &self,
        account: AccountId,
        id: CustomFieldDefinitionId,
    ) -> Result<bool, StoreError> {
        definitions::delete_definition(self, account, id).await
    }

    async fn options(
        &self,
        account: AccountId,
        definitions: &[CustomFieldDefinitionId],
    ) -> Result<Vec<FieldOption>, StoreError> {
        definitions::options(self, account, definitions).await
    }

    async fn create_option(&self, option: &FieldOption) -> Result<(), StoreError> {
        definitions::create_option(self, option).await
    }

    async fn update_option(&self, option: &FieldOption) -> Result<bool, StoreError> {
        definitions::update_option(self, option).await
    }

    async fn delete_option(&self, option: &FieldOption) -> Result<bool, StoreError> {
        definitions::delete_option(self, option).await
    }

    async fn list_custom_fields(
        &self,
        account: AccountId,
        filter: &CustomFieldFilter,
        page: PageRequest,
    ) -> Result<Page<CustomField>, StoreError> {
        values::list_custom_fields(self, account, filter, page).await
    }

    async fn custom_field(
        &self,
        account: AccountId,
        id: CustomFieldId,
    ) -> Result<Option<CustomField>, StoreError> {
        values::custom_field(self, account, id).await
    }

    async fn set_custom_field(&self, field: &CustomField) -> Result<CustomField, StoreError> {
        values::set_custom_field(self, field).await
    }

    async fn delete_custom_field(
        &self,
        account: AccountId,
        id: CustomFieldId,
    ) -> Result<bool, StoreError> {
        values::delete_custom_field(self, account, id).await
    }
}
