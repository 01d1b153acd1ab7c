//! Conformance cases of custom fields: definitions unique by slug within their account
//! and entity type and bounded in number, options unique by value in position order,
//! values one per field and record, filtered, and gone with their definition; nothing seen
//! from another account.

use std::sync::Arc;

use serde_json::json;
use tidemark_domain::custom_field::{
    CustomField, DataType, Definition, DefinitionDraft, EntityType, FieldOption, FieldValue,
    OptionDraft, Staged, StagedTarget,
};
use tidemark_domain::{Account, CustomFieldId};
use tidemark_store::{CustomFieldFilter, DefinitionFilter, Store, StoreError};
use uuid::Uuid;

use super::{account, at, page, request};

fn definition(owner: &Account, entity: &str, slug: &str, data_type: &str) -> Definition {
    DefinitionDraft {
        entity_type: Some(entity.into()),
        api_slug: Some(slug.into()),
        display_name: Some(format!("The {slug}")),
        data_type: Some(data_type.into()),
        validation: Some(json!({"max_length": 20})),
        ..DefinitionDraft::default()
    }
    .create(owner.id, 0, at(1))
    .expect("a valid definition")
}

fn option(definition: &Definition, value: &str, position: Option<i64>) -> FieldOption {
    OptionDraft {
        label: Some(value.to_uppercase()),
        value: Some(value.into()),
        position,
    }
    .create(definition, &[])
    .expect("a valid option")
}

fn value(definition: &Definition, entity: Uuid, value: FieldValue) -> CustomField {
    CustomField {
        id: CustomFieldId::new(),
        account_id: definition.account_id,
        definition_id: definition.id,
        entity_type: definition.entity_type,
        entity_id: entity,
        value,
        created_at: at(2),
        updated_at: at(2),
    }
}

pub async fn custom_fields_are_kept_per_account_field_and_record(store: Arc<dyn Store>) {
    let owner = account(&store, "fields").await;
    let stranger = account(&store, "stranger").await;
    let mode = definition(&owner, "Shipment", "mode", "enum");
    store.create_definition(&mode, 10).await.expect("created");
    let again = definition(&owner, "Shipment", "mode", "short_text");
    assert!(matches!(
        store.create_definition(&again, 10).await,
        Err(StoreError::Conflict(_))
    ));
    let po = definition(&owner, "Container", "mode", "short_text");
    store
        .create_definition(&po, 10)
        .await
        .expect("another entity type");
    let third = definition(&owner, "Container", "po", "short_text");
    assert!(
        matches!(
            store.create_definition(&third, 2).await,
            Err(StoreError::Conflict(_))
        ),
        "at the account's most"
    );
    assert_eq!(store.count_definitions(owner.id).await.expect("count"), 2);
    assert_eq!(
        store.count_definitions(stranger.id).await.expect("count"),
        0
    );

    let read = store.definitions(owner.id, &[mode.id]).await.expect("read");
    assert_eq!(read, std::slice::from_ref(&mode), "every member reads back");
    let by_slug = store
        .definition_by_slug(owner.id, EntityType::Container, &po.api_slug)
        .await
        .expect("read");
    assert_eq!(by_slug.as_ref().map(|d| d.id), Some(po.id));
    assert!(
        store
            .definitions(stranger.id, &[mode.id])
            .await
            .expect("read")
            .is_empty()
    );
    for (filter, expected) in [
        (DefinitionFilter::default(), 2),
        (
            DefinitionFilter {
                entity_type: vec![EntityType::Shipment],
                ..DefinitionFilter::default()
            },
            1,
        ),
        (
            DefinitionFilter {
                data_type: vec![DataType::Enum, DataType::Number],
                ..DefinitionFilter::default()
            },
            1,
        ),
        (
            DefinitionFilter {
                display_name: Some("The mode".into()),
                ..DefinitionFilter::default()
            },
            2,
        ),
    ] {
        let listed = store
            .list_definitions(owner.id, &filter, page(1, 10))
            .await
            .expect("list");
        assert_eq!(listed.total, expected, "{filter:?}");
    }
    options_keep_their_values_unique_and_their_order(&store, &owner, &mode).await;
    values_are_one_per_field_and_record(&store, &owner, &stranger, &mode, &po).await;
}

async fn options_keep_their_values_unique_and_their_order(
    store: &Arc<dyn Store>,
    owner: &Account,
    mode: &Definition,
) {
    let sea = option(mode, "sea", None);
    let air = option(mode, "air", Some(1));
    store.create_option(&sea).await.expect("created");
    store.create_option(&air).await.expect("created");
    assert!(matches!(
        store.create_option(&option(mode, "sea", Some(0))).await,
        Err(StoreError::Conflict(_))
    ));
    let options = store.options(owner.id, &[mode.id]).await.expect("read");
    assert_eq!(options, [air.clone(), sea.clone()], "positioned first");
    let renamed = FieldOption {
        label: "Ocean".into(),
        position: Some(0),
        ..sea.clone()
    };
    assert!(store.update_option(&renamed).await.expect("updated"));
    let options = store.options(owner.id, &[mode.id]).await.expect("read");
    assert_eq!(options, [renamed, air.clone()]);
    assert!(store.delete_option(&air).await.expect("deleted"));
    assert!(!store.delete_option(&air).await.expect("gone"));

    let changed = Definition {
        display_name: "Transport mode".into(),
        default_value: Some(FieldValue::Choice("sea".into())),
        reference_number: true,
        updated_at: at(3),
        ..mode.clone()
    };
    assert!(store.update_definition(&changed).await.expect("updated"));
    let read = store.definitions(owner.id, &[mode.id]).await.expect("read");
    assert_eq!(read, [changed]);
}

async fn values_are_one_per_field_and_record(
    store: &Arc<dyn Store>,
    owner: &Account,
    stranger: &Account,
    mode: &Definition,
    po: &Definition,
) {
    let (shipment, container) = (Uuid::now_v7(), Uuid::now_v7());
    let set = store
        .set_custom_field(&value(mode, shipment, FieldValue::Choice("sea".into())))
        .await
        .expect("set");
    let replaced = store
        .set_custom_field(&CustomField {
            updated_at: at(5),
            ..value(mode, shipment, FieldValue::Choice("air".into()))
        })
        .await
        .expect("set again");
    assert_eq!(replaced.id, set.id, "one value per field and record");
    assert_eq!(replaced.created_at, set.created_at);
    let read = store
        .custom_field(owner.id, set.id)
        .await
        .expect("read")
        .expect("there");
    assert_eq!(read.value, FieldValue::Choice("air".into()));
    assert_eq!(read.updated_at, at(5));
    store
        .set_custom_field(&value(po, container, FieldValue::Text("PO-7".into())))
        .await
        .expect("set");
    values_are_filtered(store, owner, mode, po, shipment).await;
    let theirs = store
        .list_custom_fields(stranger.id, &CustomFieldFilter::default(), page(1, 10))
        .await
        .expect("list");
    assert_eq!(theirs.total, 0);
    assert!(
        store
            .custom_field(stranger.id, set.id)
            .await
            .expect("read")
            .is_none()
    );
    assert!(
        !store
            .delete_custom_field(stranger.id, set.id)
            .await
            .expect("not theirs")
    );

    // A definition goes with its options and values.
    assert!(
        !store
            .delete_definition(stranger.id, mode.id)
            .await
            .expect("not theirs")
    );
    assert!(
        store
            .delete_definition(owner.id, mode.id)
            .await
            .expect("deleted")
    );
    assert!(
        store
            .custom_field(owner.id, set.id)
            .await
            .expect("read")
            .is_none()
    );
    assert!(
        store
            .options(owner.id, &[mode.id])
            .await
            .expect("read")
            .is_empty()
    );
    assert_eq!(store.count_definitions(owner.id).await.expect("count"), 1);
}

async fn values_are_filtered(
    store: &Arc<dyn Store>,
    owner: &Account,
    mode: &Definition,
    po: &Definition,
    shipment: Uuid,
) {
    assert_eq!(mode.entity_type, EntityType::Shipment);
    for (filter, expected) in [
        (CustomFieldFilter::default(), 2),
        (
            CustomFieldFilter {
                entity_id: vec![shipment],
                ..CustomFieldFilter::default()
            },
            1,
        ),
        (
            CustomFieldFilter {
                entity_type: vec![EntityType::Container],
                definition_id: vec![po.id],
                ..CustomFieldFilter::default()
            },
            1,
        ),
        (
            CustomFieldFilter {
                definition_id: vec![po.id],
                entity_id: vec![shipment],
                ..CustomFieldFilter::default()
            },
            0,
        ),
    ] {
        let listed = store
            .list_custom_fields(owner.id, &filter, page(1, 10))
            .await
            .expect("list");
        assert_eq!(listed.total, expected, "{filter:?}");
    }
}

pub async fn staged_values_are_kept_with_their_request(store: Arc<dyn Store>) {
    let owner = account(&store, "staging").await;
    let po = definition(&owner, "Shipment", "po", "short_text");
    let seal = definition(&owner, "Container", "seal", "short_text");
    for made in [&po, &seal] {
        store.create_definition(made, 10).await.expect("created");
    }
    let staged = vec![
        Staged {
            definition_id: po.id,
            target: StagedTarget::Shipment,
            value: FieldValue::Text("PO-1".into()),
        },
        Staged {
            definition_id: seal.id,
            target: StagedTarget::Container(Some("MSKU1234565".into())),
            value: FieldValue::Text("S-1".into()),
        },
        Staged {
            definition_id: seal.id,
            target: StagedTarget::Container(None),
            value: FieldValue::Text("S-0".into()),
        },
    ];
    let pending = request(&owner, "bill_of_lading", "586118841", "MAEU", 1);
    store
        .insert_tracking_request_staging(&pending, &staged)
        .await
        .expect("created with its staged values");
    assert_eq!(store.staged_fields(pending.id).await.expect("read"), staged);
    // A duplicate create keeps nothing of its own.
    let twin = request(&owner, "bill_of_lading", "586118841", "MAEU", 2);
    assert!(matches!(
        store.insert_tracking_request_staging(&twin, &staged).await,
        Err(StoreError::Duplicate { .. })
    ));
    assert!(store.staged_fields(twin.id).await.expect("read").is_empty());
    // A definition's delete takes what was staged of it.
    assert!(
        store
            .delete_definition(owner.id, po.id)
            .await
            .expect("deleted")
    );
    assert_eq!(
        store.staged_fields(pending.id).await.expect("read"),
        staged[1..]
    );
}
