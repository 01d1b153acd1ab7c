//! Custom fields, for the API and the console alike: defining a field (its slug unique
//! among the account's of its entity type, the account's count bounded), its options, and
//! setting a value on a record, checked against its definition by the domain.

use std::sync::Arc;

use serde_json::Value;
use tidemark_domain::custom_field::{
    ApiSlug, CustomField, Definition, DefinitionChange, DefinitionDraft, EntityType, FieldOption,
    FieldValue, MAX_DEFINITIONS, OptionChange, OptionDraft,
};
use tidemark_domain::{AccountId, Clock, CustomFieldId, Field, FieldError, ValidationCode};
use tidemark_store::{CustomFieldFilter, PageRequest, Store, StoreError};
use uuid::Uuid;

use crate::Error;

/// A value as set: the value, its definition and the definition's options.
#[derive(Debug, Clone)]
pub struct SetValue {
    /// The value as stored.
    pub field: CustomField,
    /// Its definition.
    pub definition: Definition,
    /// The definition's options.
    pub options: Vec<FieldOption>,
}

/// The custom field use cases.
#[derive(Debug, Clone)]
pub struct CustomFields {
    store: Arc<dyn Store>,
    clock: Arc<dyn Clock>,
}

fn invalid(field: &'static str, code: ValidationCode, detail: impl Into<String>) -> Error {
    Error::Invalid(vec![FieldError::new(Field::Other(field), code, detail)])
}

fn slug_taken(slug: &str, entity_type: EntityType) -> Error {
    invalid(
        "api_slug",
        ValidationCode::Duplicate,
        format!("the account already has a {entity_type} field with the api_slug {slug:?}"),
    )
}

impl CustomFields {
    /// Over `store`, at `clock`'s time.
    #[must_use]
    pub fn new(store: Arc<dyn Store>, clock: Arc<dyn Clock>) -> Self {
        Self { store, clock }
    }

    /// Defines a field for `account`.
    ///
    /// # Errors
    /// `Invalid` for the draft's problems, a slug taken or the account's most definitions.
    pub async fn define(
        &self,
        account: AccountId,
        draft: DefinitionDraft,
    ) -> Result<Definition, Error> {
        let existing = self.store.count_definitions(account).await?;
        let existing = usize::try_from(existing).unwrap_or(usize::MAX);
        let definition = draft
            .create(account, existing, self.clock.now())
            .map_err(Error::Invalid)?;
        let taken = self
            .store
            .definition_by_slug(account, definition.entity_type, &definition.api_slug)
            .await?;
        if taken.is_some() {
            return Err(slug_taken(
                definition.api_slug.as_str(),
                definition.entity_type,
            ));
        }
        match self
            .store
            .create_definition(&definition, MAX_DEFINITIONS)
            .await
        {
            Ok(()) => Ok(definition),
            // Another definition of the slug, or the last free place, was taken meanwhile.
            Err(StoreError::Conflict(_)) => Err(slug_taken(
                definition.api_slug.as_str(),
                definition.entity_type,
            )),
            Err(error) => Err(error.into()),
        }
    }

    /// Changes `definition`.
    ///
    /// # Errors
    /// `Invalid` for the change's problems; `Missing` when it was deleted meanwhile.
    pub async fn redefine(
        &self,
        definition: &Definition,
        change: DefinitionChange,
    ) -> Result<Definition, Error> {
        let options = self
            .store
            .options(definition.account_id, &[definition.id])
            .await?;
        let changed = change
            .apply(definition, &options, self.clock.now())
            .map_err(Error::Invalid)?;
        if !self.store.update_definition(&changed).await? {
            return Err(Error::Missing("custom field definition"));
        }
        Ok(changed)
    }

    /// Adds an option to `definition`.
    ///
    /// # Errors
    /// `Invalid` for the draft's problems and a value taken.
    pub async fn add_option(
        &self,
        definition: &Definition,
        draft: OptionDraft,
    ) -> Result<FieldOption, Error> {
        let existing = self
            .store
            .options(definition.account_id, &[definition.id])
            .await?;
        let option = draft
            .create(definition, &existing)
            .map_err(Error::Invalid)?;
        match self.store.create_option(&option).await {
            Ok(()) => Ok(option),
            Err(StoreError::Conflict(_)) => Err(invalid(
                "value",
                ValidationCode::Duplicate,
                format!(
                    "the field already has an option of value {:?}",
                    option.value
                ),
            )),
            Err(error) => Err(error.into()),
        }
    }

    /// Changes `option`'s label or position.
    ///
    /// # Errors
    /// `Invalid` for a bad label.
    pub async fn change_option(
        &self,
        option: &FieldOption,
        change: OptionChange,
    ) -> Result<FieldOption, Error> {
        let changed = change.apply(option).map_err(Error::Invalid)?;
        if !self.store.update_option(&changed).await? {
            return Err(Error::Missing("custom field option"));
        }
        Ok(changed)
    }

    /// Removes `option` of `definition`, unless a value or the default chooses it.
    ///
    /// # Errors
    /// `Conflict` while it is chosen.
    pub async fn remove_option(
        &self,
        definition: &Definition,
        option: &FieldOption,
    ) -> Result<(), Error> {
        let chosen = |value: &FieldValue| value.chooses(&option.value);
        if definition.default_value.as_ref().is_some_and(chosen) {
            return Err(Error::Conflict(
                "the field's default_value is this option: change it first",
            ));
        }
        let filter = CustomFieldFilter {
            definition_id: vec![definition.id],
            ..CustomFieldFilter::default()
        };
        let mut number = 1;
        loop {
            let page = self
                .store
                .list_custom_fields(
                    definition.account_id,
                    &filter,
                    PageRequest::new(number, 100),
                )
                .await?;
            if page.items.iter().any(|field| chosen(&field.value)) {
                return Err(Error::Conflict(
                    "values of the field choose this option: change or delete them first",
                ));
            }
            if page.items.len() < 100 {
                break;
            }
            number += 1;
        }
        self.store.delete_option(option).await?;
        Ok(())
    }

    /// The definition of `entity_type` named `slug` in `account`, with its options.
    ///
    /// # Errors
    /// `Invalid` (`unknown_custom_field` at `api_slug`) when there is none.
    pub async fn definition(
        &self,
        account: AccountId,
        entity_type: EntityType,
        slug: &str,
    ) -> Result<(Definition, Vec<FieldOption>), Error> {
        let unknown = || {
            invalid(
                "api_slug",
                ValidationCode::UnknownCustomField,
                format!("no {entity_type} custom field definition has the api_slug {slug:?}"),
            )
        };
        let slug = ApiSlug::parse(slug).map_err(|_| unknown())?;
        let definition = self
            .store
            .definition_by_slug(account, entity_type, &slug)
            .await?
            .ok_or_else(unknown)?;
        let options = self.store.options(account, &[definition.id]).await?;
        Ok((definition, options))
    }

    /// Sets `value` of the field `slug` on the record `entity` (of `entity_type`, which the
    /// caller found in `account`): replaces the value it has, else adds one.
    ///
    /// # Errors
    /// `Invalid`: the slug names no field of the record's kind (`unknown_custom_field`), or
    /// the value does not fit the field (`invalid` at `value`).
    pub async fn set(
        &self,
        account: AccountId,
        entity_type: EntityType,
        entity: Uuid,
        slug: &str,
        value: &Value,
    ) -> Result<SetValue, Error> {
        let (definition, options) = self.definition(account, entity_type, slug).await?;
        let value = FieldValue::parse(definition.data_type, value, &options)
            .map_err(|error| invalid("value", ValidationCode::Invalid, error.0))?;
        self.keep(definition, options, entity, value).await
    }

    /// Sets the field `slug` on the record from `text` as a person typed it in the console
    /// ([`FieldValue::from_text`]); empty text deletes the record's value.
    ///
    /// # Errors
    /// As [`CustomFields::set`].
    pub async fn set_text(
        &self,
        account: AccountId,
        entity_type: EntityType,
        entity: Uuid,
        slug: &str,
        text: &str,
    ) -> Result<Option<SetValue>, Error> {
        let (definition, options) = self.definition(account, entity_type, slug).await?;
        if text.trim().is_empty() {
            let filter = CustomFieldFilter {
                entity_id: vec![entity],
                definition_id: vec![definition.id],
                ..CustomFieldFilter::default()
            };
            let found = self
                .store
                .list_custom_fields(account, &filter, PageRequest::new(1, 1))
                .await?;
            if let Some(field) = found.items.first() {
                self.store.delete_custom_field(account, field.id).await?;
            }
            return Ok(None);
        }
        let value = FieldValue::from_text(definition.data_type, text, &options)
            .map_err(|error| invalid("value", ValidationCode::Invalid, error.0))?;
        self.keep(definition, options, entity, value)
            .await
            .map(Some)
    }

    /// Stores `value` of `definition` on `entity`.
    async fn keep(
        &self,
        definition: Definition,
        options: Vec<FieldOption>,
        entity: Uuid,
        value: FieldValue,
    ) -> Result<SetValue, Error> {
        let now = self.clock.now();
        let field = self
            .store
            .set_custom_field(&CustomField {
                id: CustomFieldId::new(),
                account_id: definition.account_id,
                definition_id: definition.id,
                entity_type: definition.entity_type,
                entity_id: entity,
                value,
                created_at: now,
                updated_at: now,
            })
            .await?;
        Ok(SetValue {
            field,
            definition,
            options,
        })
    }
}
