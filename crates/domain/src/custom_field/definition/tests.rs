//! The definition's rules.

use serde_json::json;

use super::*;

fn now() -> Timestamp {
    Timestamp::from_unix_micros(1_700_000_000_000_000).expect("time")
}

fn draft() -> DefinitionDraft {
    DefinitionDraft {
        entity_type: Some("Shipment".into()),
        api_slug: Some("po_number".into()),
        display_name: Some("PO number".into()),
        data_type: Some("short_text".into()),
        ..DefinitionDraft::default()
    }
}

fn fields(errors: &[FieldError]) -> Vec<&'static str> {
    errors.iter().map(|e| e.field.attribute()).collect()
}

#[test]
fn a_definition_takes_what_is_required_and_checks_the_rest() {
    let made = draft().create(AccountId::new(), 0, now()).expect("valid");
    assert_eq!(made.api_slug.as_str(), "po_number");
    assert_eq!(made.entity_type, EntityType::Shipment);
    assert!(!made.reference_number);
    let refused = DefinitionDraft::default()
        .create(AccountId::new(), 0, now())
        .expect_err("nothing given");
    assert_eq!(
        fields(&refused),
        ["entity_type", "data_type", "api_slug", "display_name"]
    );
    let bad = DefinitionDraft {
        entity_type: Some("Vessel".into()),
        api_slug: Some("PO".into()),
        validation: Some(json!([1])),
        default_value: Some(json!(7)),
        ..draft()
    }
    .create(AccountId::new(), 0, now())
    .expect_err("bad members");
    assert_eq!(
        fields(&bad),
        ["entity_type", "api_slug", "validation", "default_value"]
    );
    let full = draft()
        .create(AccountId::new(), MAX_DEFINITIONS, now())
        .expect_err("the account is full");
    assert_eq!(full[0].code, ValidationCode::TooMany);
}

#[test]
fn an_enum_default_is_one_of_its_options_once_they_exist() {
    let enum_draft = || DefinitionDraft {
        data_type: Some("enum".into()),
        default_value: Some(json!("sea")),
        ..draft()
    };
    let refused = enum_draft()
        .create(AccountId::new(), 0, now())
        .expect_err("no options yet");
    assert!(refused[0].detail.contains("add them first"));
    let made = DefinitionDraft {
        default_value: None,
        ..enum_draft()
    }
    .create(AccountId::new(), 0, now())
    .expect("without a default");
    let sea = FieldOption {
        id: crate::CustomFieldOptionId::new(),
        definition_id: made.id,
        label: "Sea".into(),
        value: "sea".into(),
        position: None,
    };
    let change = || DefinitionChange {
        default_value: Some(Some(json!("sea"))),
        display_name: Some("Mode".into()),
        ..DefinitionChange::default()
    };
    let changed = change().apply(&made, &[sea], now()).expect("an option");
    assert_eq!(
        changed.default_value,
        Some(FieldValue::Choice("sea".into()))
    );
    assert_eq!(changed.display_name, "Mode");
    assert_eq!(changed.api_slug, made.api_slug);
    assert!(change().apply(&made, &[], now()).is_err());
    let cleared = DefinitionChange {
        default_value: Some(None),
        description: Some(None),
        ..DefinitionChange::default()
    }
    .apply(&changed, &[], now())
    .expect("cleared");
    assert_eq!(cleared.default_value, None);
}
