//! Values a create stages (`initial_custom_fields`) for the shipment and containers its
//! request will find: each is set once, when its record first appears. A value staged for
//! containers without a number goes to every container, including those a booking gains
//! later; one with a number only to that container.

use super::{CustomField, EntityType, FieldValue};
use crate::{Container, CustomFieldDefinitionId, CustomFieldId, Shipment, Timestamp, Tracked};

/// Which records a staged value is for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StagedTarget {
    /// The shipment.
    Shipment,
    /// Every container (`None`), or the one of this number.
    Container(Option<String>),
}

/// A value staged at creation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Staged {
    /// Its definition (of the target's entity type).
    pub definition_id: CustomFieldDefinitionId,
    /// Its records.
    pub target: StagedTarget,
    /// The value, checked against the definition when it was staged.
    pub value: FieldValue,
}

impl Staged {
    /// The entity type of its records.
    #[must_use]
    pub const fn entity_type(&self) -> EntityType {
        match self.target {
            StagedTarget::Shipment => EntityType::Shipment,
            StagedTarget::Container(_) => EntityType::Container,
        }
    }
}

/// A container number as a client may write it: compared without case or spaces.
fn same_number(given: &str, number: &str) -> bool {
    let plain = |text: &str| -> String {
        text.chars()
            .filter(|c| c.is_ascii_alphanumeric())
            .map(|c| c.to_ascii_uppercase())
            .collect()
    };
    plain(given) == plain(number)
}

/// The values `staged` sets on what a change brings: the shipment when it is new (no
/// `prior`), and each container of `containers` that `prior` did not have.
#[must_use]
pub fn staged_values(
    staged: &[Staged],
    prior: Option<&Tracked>,
    shipment: Option<&Shipment>,
    containers: &[Container],
    now: Timestamp,
) -> Vec<CustomField> {
    let Some(shipment) = shipment else {
        return Vec::new();
    };
    let value = |staged: &Staged, entity_id: uuid::Uuid| CustomField {
        id: CustomFieldId::new(),
        account_id: shipment.account_id,
        definition_id: staged.definition_id,
        entity_type: staged.entity_type(),
        entity_id,
        value: staged.value.clone(),
        created_at: now,
        updated_at: now,
    };
    let mut values = Vec::new();
    for entry in staged {
        match &entry.target {
            StagedTarget::Shipment if prior.is_none() => {
                values.push(value(entry, shipment.id.as_uuid()));
            }
            StagedTarget::Shipment => {}
            StagedTarget::Container(number) => {
                let new = containers.iter().filter(|container| {
                    prior.is_none_or(|p| p.containers.iter().all(|c| c.id != container.id))
                });
                for container in new {
                    if number
                        .as_deref()
                        .is_none_or(|n| same_number(n, &container.number))
                    {
                        values.push(value(entry, container.id.as_uuid()));
                    }
                }
            }
        }
    }
    values
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_compare_without_case_or_spaces() {
        assert!(same_number("mscu 123456-7", "MSCU1234567"));
        assert!(!same_number("MSCU1234567", "MSCU1234568"));
    }
}
