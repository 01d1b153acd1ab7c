//! A create's `initial_custom_fields` (compat-api.md §1.8): values staged for the shipment
//! and its containers before they exist. Tidemark does not stage them yet, so a create
//! naming any is refused rather than taken and dropped: a list of another shape is
//! `invalid`, and so is each value, at its `api_slug`, with how to set it once the
//! shipment exists.

use serde_json::{Map, Value};
use tidemark_domain::ValidationCode;

use crate::body::{Problem, escape_pointer};

const AT: &str = "/data/attributes/initial_custom_fields";

/// The problems of a create's `initial_custom_fields` (absent, null or empty lists: none).
pub(crate) fn problems(given: Option<&Value>) -> Vec<Problem> {
    let invalid =
        |pointer: String, detail: &str| (pointer, ValidationCode::Invalid, detail.to_owned());
    let lists = match given {
        None | Some(Value::Null) => return Vec::new(),
        Some(Value::Object(lists)) => lists,
        Some(_) => {
            return vec![invalid(
                AT.to_owned(),
                "initial_custom_fields must be an object of shipment and containers lists",
            )];
        }
    };
    let mut problems = Vec::new();
    for (key, list) in lists {
        let at = format!("{AT}/{}", escape_pointer(key));
        match (key.as_str(), list) {
            ("shipment" | "containers", Value::Null) => {}
            ("shipment" | "containers", Value::Array(values)) => {
                for (index, value) in values.iter().enumerate() {
                    problems.push(one(&format!("{at}/{index}"), value));
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
    problems
}

/// The problem of one staged value at `at`.
fn one(at: &str, value: &Value) -> Problem {
    let slug = value
        .as_object()
        .and_then(|value: &Map<String, Value>| value.get("api_slug"));
    let pointer = format!("{at}/api_slug");
    match slug {
        Some(Value::String(slug)) if !slug.trim().is_empty() => (
            pointer,
            ValidationCode::Invalid,
            format!(
                "Tidemark does not stage custom field values at creation yet: create the \
                 request without {slug:?}, then set it with POST \
                 /v2/shipments/{{id}}/custom_fields (or a container's) once the shipment exists"
            ),
        ),
        _ => (
            pointer,
            ValidationCode::Blank,
            "each value names its definition's api_slug".to_owned(),
        ),
    }
}
