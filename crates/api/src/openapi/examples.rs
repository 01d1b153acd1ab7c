//! An example for every body the document describes: each request body and each answer,
//! errors included, gets one where the handlers did not give their own.
//!
//! Resources come from the webhook samples (a made-up voyage run through the real
//! lifecycle and rendered by the code that renders real answers, [`super::deliveries`]);
//! errors are error documents of the code the answer's description names; anything else is
//! built from its schema. The linter in CI checks every example against its schema.

use std::collections::HashMap;

use axum::http::StatusCode;
use serde_json::{Map, Value, json};

use crate::ApiError;

/// How deep a schema is followed (nested references) before an example stops.
const DEPTH: usize = 24;

/// Real resources (from the samples), by JSON:API type.
pub type Samples = HashMap<String, Value>;

/// The methods an OpenAPI path item can hold.
const METHODS: [&str; 8] = [
    "get", "put", "post", "delete", "options", "head", "patch", "trace",
];

/// Gives every media type of every request body and answer in `document` (paths and
/// webhooks) an example, unless it has one. The samples stand for resources in answers
/// only: a request body has fewer members.
pub fn fill(document: &mut Value, samples: &Samples) {
    let Some(schemas) = document.pointer("/components/schemas").cloned() else {
        return;
    };
    let maker = Maker {
        schemas: &schemas,
        samples,
    };
    for section in ["paths", "webhooks"] {
        let Some(items) = document.get_mut(section).and_then(Value::as_object_mut) else {
            continue;
        };
        for (path, item) in items.iter_mut() {
            for method in METHODS {
                if let Some(operation) = item.get_mut(method) {
                    maker.operation(operation);
                    link_to(operation, path);
                }
            }
        }
    }
}

#[derive(Clone, Copy)]
struct Maker<'a> {
    schemas: &'a Value,
    samples: &'a Samples,
}

impl Maker<'_> {
    fn operation(&self, operation: &mut Value) {
        if let Some(content) = operation
            .pointer_mut("/requestBody/content")
            .and_then(Value::as_object_mut)
        {
            for media in content.values_mut() {
                Maker {
                    samples: &Samples::new(),
                    ..*self
                }
                .give(media, None);
            }
        }
        let Some(responses) = super::responses_of(operation) else {
            return;
        };
        for (status, response) in responses.iter_mut() {
            let description = response
                .get("description")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned();
            let error = status
                .parse::<u16>()
                .ok()
                .and_then(|code| StatusCode::from_u16(code).ok())
                .filter(|code| code.is_client_error() || code.is_server_error());
            let Some(content) = response.get_mut("content").and_then(Value::as_object_mut) else {
                continue;
            };
            for media in content.values_mut() {
                self.give(media, error.map(|code| (code, description.as_str())));
            }
        }
    }

    /// Gives `media` an example: an error document for an error answer, else one built
    /// from its schema.
    fn give(&self, media: &mut Value, error: Option<(StatusCode, &str)>) {
        if media.get("example").is_some() || media.get("examples").is_some() {
            return;
        }
        let is_error_document = media
            .pointer("/schema/$ref")
            .and_then(Value::as_str)
            .is_some_and(|name| name.ends_with("/ErrorDocument"));
        let example = match error {
            Some((status, description)) if is_error_document => error_example(status, description),
            _ => match media.get("schema") {
                Some(schema) => self.example(schema, 0),
                None => return,
            },
        };
        if let Some(media) = media.as_object_mut() {
            media.insert("example".into(), example);
        }
    }

    /// An example of `schema`.
    fn example(&self, schema: &Value, depth: usize) -> Value {
        if depth > DEPTH {
            return Value::Null;
        }
        if let Some(reference) = schema.get("$ref").and_then(Value::as_str) {
            let name = reference.trim_start_matches("#/components/schemas/");
            return self
                .schemas
                .get(name)
                .map_or(Value::Null, |named| self.example(named, depth + 1));
        }
        if let Some(given) = schema
            .get("example")
            .or_else(|| schema.pointer("/examples/0"))
            .or_else(|| schema.get("const"))
            .or_else(|| schema.pointer("/default").filter(|value| !value.is_null()))
        {
            return given.clone();
        }
        if let Some(values) = schema.get("enum").and_then(Value::as_array) {
            return values
                .iter()
                .find(|value| !value.is_null())
                .cloned()
                .unwrap_or(Value::Null);
        }
        for key in ["oneOf", "anyOf"] {
            if let Some(choices) = schema.get(key).and_then(Value::as_array) {
                let chosen = choices
                    .iter()
                    .find(|choice| choice.get("type").and_then(Value::as_str) != Some("null"));
                return chosen.map_or(Value::Null, |choice| self.example(choice, depth + 1));
            }
        }
        if let Some(parts) = schema.get("allOf").and_then(Value::as_array) {
            let mut merged = Map::new();
            for part in parts {
                if let Value::Object(object) = self.example(part, depth + 1) {
                    merged.extend(object);
                }
            }
            return Value::Object(merged);
        }
        self.typed(schema, depth)
    }

    /// An example of a schema by its `type` (the first that is not `null`).
    fn typed(&self, schema: &Value, depth: usize) -> Value {
        let kind = match schema.get("type") {
            Some(Value::String(kind)) => kind.as_str(),
            Some(Value::Array(kinds)) => kinds
                .iter()
                .filter_map(Value::as_str)
                .find(|kind| *kind != "null")
                .unwrap_or("null"),
            _ if schema.get("properties").is_some() => "object",
            _ => return json!({}),
        };
        match kind {
            "object" => {
                if let Some(sample) = self.resource(schema) {
                    return sample;
                }
                let mut object = Map::new();
                if let Some(properties) = schema.get("properties").and_then(Value::as_object) {
                    for (name, property) in properties {
                        object.insert(name.clone(), self.example(property, depth + 1));
                    }
                }
                Value::Object(object)
            }
            "array" => {
                let empty = schema.get("maxItems").and_then(Value::as_u64) == Some(0);
                // A list of any objects (`included`) is shown empty rather than as `[{}]`.
                let bare = schema.get("items").is_some_and(|items| {
                    ["$ref", "properties", "enum", "const"]
                        .iter()
                        .all(|key| items.get(key).is_none())
                        && items.get("type").is_none_or(|kind| kind == "object")
                });
                match schema.get("items") {
                    Some(items) if !empty && !bare => json!([self.example(items, depth + 1)]),
                    _ => json!([]),
                }
            }
            "string" => string(schema),
            "integer" => json!(number(schema, 1.0).round() as i64),
            "number" => json!(number(schema, 1.5)),
            "boolean" => json!(true),
            _ => Value::Null,
        }
    }
}

impl Maker<'_> {
    /// The sample of the resource `schema` describes, known by its `type` member's one
    /// value.
    fn resource(&self, schema: &Value) -> Option<Value> {
        let kind = schema.pointer("/properties/type")?;
        let word = kind
            .get("pattern")
            .and_then(Value::as_str)
            .and_then(pattern_word)
            .or_else(|| kind.get("const").and_then(Value::as_str).map(str::to_owned))?;
        self.samples.get(&word).cloned()
    }
}

/// Points the `links` of each answer's example at `path` (made from their schema, they
/// hold a placeholder): `self` to the path with the example's own id, the pages' links to
/// its first page.
fn link_to(operation: &mut Value, path: &str) {
    let Some(responses) = super::responses_of(operation) else {
        return;
    };
    for media in responses
        .values_mut()
        .filter_map(|response| response.get_mut("content").and_then(Value::as_object_mut))
        .flat_map(|content| content.values_mut())
    {
        let Some(example) = media.get_mut("example") else {
            continue;
        };
        let id = example
            .pointer("/data/id")
            .and_then(Value::as_str)
            .map(str::to_owned);
        let own = id.map_or_else(|| path.to_owned(), |id| path.replace("{id}", &id));
        let Some(links) = example.get_mut("links").and_then(Value::as_object_mut) else {
            continue;
        };
        for (name, link) in links.iter_mut() {
            if link == "text" {
                *link = match name.as_str() {
                    "self" => Value::String(own.clone()),
                    _ => Value::String(format!("{own}?page[number]=1")),
                };
            }
        }
    }
}

/// A number within the schema's bounds, near `fallback`.
fn number(schema: &Value, fallback: f64) -> f64 {
    let minimum = schema.get("minimum").and_then(Value::as_f64);
    let maximum = schema.get("maximum").and_then(Value::as_f64);
    let value = minimum.map_or(fallback, |low| low.max(fallback));
    maximum.map_or(value, |high| value.min(high))
}

/// A string of the schema's format, or the one word its pattern admits.
fn string(schema: &Value) -> Value {
    let format = schema.get("format").and_then(Value::as_str);
    let text = match format {
        Some("date-time") => "2026-11-24T09:30:00Z".to_owned(),
        Some("date") => "2026-11-24".to_owned(),
        Some("uuid") => "01938f3c-6a1e-7b2d-9c4f-5e6a7b8c9d0e".to_owned(),
        Some("uri") => "https://hooks.example.com/tidemark".to_owned(),
        Some("ipv4" | "ip") => "203.0.113.10".to_owned(),
        _ => schema
            .get("pattern")
            .and_then(Value::as_str)
            .and_then(pattern_word)
            .unwrap_or_else(|| "text".to_owned()),
    };
    Value::String(text)
}

/// The word a pattern such as `^shipment$` or `vessel` admits, or the first choice of
/// `^(poll|push)$`.
fn pattern_word(pattern: &str) -> Option<String> {
    let inner = pattern.trim_start_matches('^').trim_end_matches('$');
    let inner = inner
        .strip_prefix('(')
        .and_then(|rest| rest.strip_suffix(')'))
        .map_or(inner, |group| group.split('|').next().unwrap_or(group));
    let word = inner
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '.');
    (word && !inner.is_empty()).then(|| inner.to_owned())
}

/// The error document of an answer described as `description`: its code is the first
/// backquoted word of the description when that is a code, else the status's own.
fn error_example(status: StatusCode, description: &str) -> Value {
    let named = description.split('`').nth(1).filter(|word| {
        !word.is_empty() && word.bytes().all(|b| b.is_ascii_lowercase() || b == b'_')
    });
    let code = named.unwrap_or_else(|| default_code(status));
    let detail = description
        .strip_prefix(&format!("`{code}`: "))
        .unwrap_or(description)
        .replace('`', "");
    let error = ApiError::example(status, code, detail.trim());
    serde_json::to_value(error.document()).unwrap_or(Value::Null)
}

/// The code an answer of `status` carries when its description names none.
fn default_code(status: StatusCode) -> &'static str {
    match status.as_u16() {
        400 => "bad_request",
        401 => "unauthorized",
        403 => "forbidden",
        404 => "not_found",
        405 => "method_not_allowed",
        406 => "not_acceptable",
        408 => "request_timeout",
        409 => "conflict",
        413 => "payload_too_large",
        415 => "unsupported_media_type",
        422 => "invalid",
        429 => "rate_limited",
        503 => "unavailable",
        _ => "internal_error",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_give_their_word() {
        assert_eq!(pattern_word("^shipment$").as_deref(), Some("shipment"));
        assert_eq!(pattern_word("vessel").as_deref(), Some("vessel"));
        assert_eq!(pattern_word("^(poll|push)$").as_deref(), Some("poll"));
        assert_eq!(pattern_word("[^ \\t\\r\\n]"), None);
    }

    #[test]
    fn errors_carry_the_code_their_description_names() {
        let named = error_example(
            StatusCode::CONFLICT,
            "`in_flight`: a delivery is under way.",
        );
        assert_eq!(named["errors"][0]["code"], "in_flight");
        assert_eq!(named["errors"][0]["status"], "409");
        assert_eq!(named["errors"][0]["title"], "Conflict");
        let unnamed = error_example(
            StatusCode::UNPROCESSABLE_ENTITY,
            "Validation failed: `errors[].source.pointer` names each member.",
        );
        assert_eq!(unnamed["errors"][0]["code"], "invalid");
    }
}
