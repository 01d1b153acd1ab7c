//! A create's `initial_custom_fields` (compat-api.md §1.8): values staged for the shipment
//! and its containers before they exist, set on each when it first appears. Read in two
//! steps: the shape with the rest of the body ([`read`]), then each value against the
//! account's field of its slug ([`resolve`]), every problem at its pointer.

use serde_json::{Map, Value};
use tidemark_domain::ValidationCode;
use tidemark_domain::custom_field::{EntityType, FieldValue, Staged, StagedTarget};

use crate::ApiError;
use crate::auth::Scope;
use crate::body::{Problem, escape_pointer};

const AT: &str = "/data/attributes/initial_custom_fields";

/// The most values a create stages.
pub const MAX_STAGED: usize = 100;

/// One staged value as given.
#[derive(Debug, Clone)]
pub(crate) struct Entry {
    at: String,
    target: StagedTarget,
    slug: String,
    value: Value,
}

/// The entries of a create's `initial_custom_fields` (absent or null: none), and the
/// problems of their shape.
pub(crate) fn read(given: Option<&Value>) -> (Vec<Entry>, Vec<Problem>) {
    let invalid =
        |pointer: String, detail: &str| (pointer, ValidationCode::Invalid, detail.to_owned());
    let lists = match given {
        None | Some(Value::Null) => return (Vec::new(), Vec::new()),
        Some(Value::Object(lists)) => lists,
        Some(_) => {
            return (
                Vec::new(),
                vec![invalid(
                    AT.to_owned(),
                    "initial_custom_fields must be an object of shipment and containers lists",
                )],
            );
        }
    };
    let (mut entries, mut problems) = (Vec::new(), Vec::new());
    for (key, list) in lists {
        let at = format!("{AT}/{}", escape_pointer(key));
        match (key.as_str(), list) {
            ("shipment" | "containers", Value::Null) => {}
            ("shipment" | "containers", Value::Array(values)) => {
                for (index, value) in values.iter().enumerate() {
                    match entry(&format!("{at}/{index}"), key == "shipment", value) {
                        Ok(entry) => entries.push(entry),
                        Err(problem) => problems.push(problem),
                    }
                }
            }
            ("shipment" | "containers", _) => {
                problems.push(invalid(at, "must be an array of custom field values"));
            }
            _ => problems.push(invalid(
                at,
                "initial_custom_fields holds only shipment and containers",
            )),
        }
    }
    if entries.len() > MAX_STAGED {
        problems.push((
            AT.to_owned(),
            ValidationCode::TooMany,
            format!("a create stages at most {MAX_STAGED} values"),
        ));
    }
    (entries, problems)
}

/// One entry at `at`: `{api_slug, value}`, and for containers an optional `number`.
fn entry(at: &str, shipment: bool, given: &Value) -> Result<Entry, Problem> {
    let object: Option<&Map<String, Value>> = given.as_object();
    let slug = match object.and_then(|o| o.get("api_slug")) {
        Some(Value::String(slug)) if !slug.trim().is_empty() => slug.clone(),
        _ => {
            return Err((
                format!("{at}/api_slug"),
                ValidationCode::Blank,
                "each value names its field's api_slug".to_owned(),
            ));
        }
    };
    let Some(value) = object.and_then(|o| o.get("value")).cloned() else {
        return Err((
            format!("{at}/value"),
            ValidationCode::Blank,
            "each value has a value".to_owned(),
        ));
    };
    let target = if shipment {
        StagedTarget::Shipment
    } else {
        match object.and_then(|o| o.get("number")) {
            None | Some(Value::Null) => StagedTarget::Container(None),
            Some(Value::String(n)) if n.trim().is_empty() => StagedTarget::Container(None),
            Some(Value::String(n)) if n.chars().count() <= 32 => {
                StagedTarget::Container(Some(n.clone()))
            }
            Some(_) => {
                return Err((
                    format!("{at}/number"),
                    ValidationCode::Invalid,
                    "number is a container number (or empty: every container)".to_owned(),
                ));
            }
        }
    };
    Ok(Entry {
        at: at.to_owned(),
        target,
        slug,
        value,
    })
}

/// Each entry checked against the account's field of its slug (a `Shipment` field for the
/// shipment, a `Container` field for containers).
///
/// # Errors
/// 422 with every problem: `unknown_custom_field` at an `api_slug` no such field has,
/// `invalid` at a `value` that does not fit its field.
pub(crate) async fn resolve(scope: &Scope, entries: Vec<Entry>) -> Result<Vec<Staged>, ApiError> {
    let (mut staged, mut problems) = (Vec::new(), Vec::new());
    for entry in entries {
        let kind = match entry.target {
            StagedTarget::Shipment => EntityType::Shipment,
            StagedTarget::Container(_) => EntityType::Container,
        };
        let found = scope
            .custom_fields
            .definition(scope.account(), kind, &entry.slug)
            .await;
        let Ok((definition, options)) = found else {
            problems.push((
                format!("{}/api_slug", entry.at),
                ValidationCode::UnknownCustomField,
                format!(
                    "no {kind} custom field definition has the api_slug {:?}",
                    entry.slug
                ),
            ));
            continue;
        };
        match FieldValue::parse(definition.data_type, &entry.value, &options) {
            Ok(value) => staged.push(Staged {
                definition_id: definition.id,
                target: entry.target,
                value,
            }),
            Err(error) => problems.push((
                format!("{}/value", entry.at),
                ValidationCode::Invalid,
                error.0,
            )),
        }
    }
    if problems.is_empty() {
        Ok(staged)
    } else {
        Err(ApiError::unprocessable(problems))
    }
}
