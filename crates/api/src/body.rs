//! Reading JSON:API request documents field by field, so that every problem of a body is
//! reported at once with its pointer (api.md §1), instead of stopping at the first.

use serde_json::{Map, Value};
use tidemark_domain::{FieldError, Limits, TrackingRequestPatch, ValidationCode};

use crate::ApiError;
use crate::error::{ErrorCode, ErrorSource};

/// A problem at a JSON pointer.
pub type Problem = (String, ValidationCode, String);

/// Adds the domain's field errors to the body's problems (a field whose JSON type was
/// already wrong is reported once) as one 422.
pub fn merge(mut problems: Vec<Problem>, field_errors: Vec<FieldError>) -> ApiError {
    for field_error in field_errors {
        let pointer = crate::error::field_pointer(&field_error.field);
        let attribute = format!("/data/attributes/{}", field_error.field.attribute());
        // A field whose JSON type was already wrong is reported once, for that.
        if !problems
            .iter()
            .any(|(p, _, _)| p == &attribute || p.starts_with(&format!("{attribute}/")))
        {
            problems.push((pointer, field_error.code, field_error.detail));
        }
    }
    ApiError::unprocessable(problems)
}

/// A tracked record whose lists the client keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClientLists {
    /// A container: `ref_numbers` only.
    Container,
    /// A shipment: `ref_numbers` and `tags`.
    Shipment,
}

impl ClientLists {
    /// The record's JSON:API type.
    const fn type_(self) -> &'static str {
        match self {
            Self::Container => tidemark_wire::container::TYPE,
            Self::Shipment => tidemark_wire::shipment::TYPE,
        }
    }
}

/// Reads the body of a `PATCH` to the client's lists of record `id` (of kind `lists`),
/// each checked like a tracking request's and tags kept once each. Nothing else can change.
///
/// # Errors
/// 400 for a body that is no document of the record's type and `id`; 422 for the lists.
pub fn client_lists(
    document: &Value,
    lists: ClientLists,
    id: impl std::fmt::Display,
    limits: &Limits,
) -> Result<TrackingRequestPatch, ApiError> {
    let with_tags = lists == ClientLists::Shipment;
    let data = data(document)?;
    if with_tags {
        // The reference's shipment PATCH does not require `data.type`.
        check_type_if_given(data, lists.type_())?;
    } else {
        check_type(data, lists.type_())?;
    }
    check_id(data, &id.to_string())?;
    let mut attributes = Attributes::of(data);
    let patch = TrackingRequestPatch {
        ref_numbers: attributes.strings("ref_numbers"),
        shipment_tags: if with_tags {
            attributes.strings("tags")
        } else {
            None
        },
        customer: None,
    };
    attributes.reject_unknown();
    let mut problems = attributes.problems;
    match patch.validate(limits) {
        Ok(patch) if problems.is_empty() => Ok(TrackingRequestPatch {
            shipment_tags: patch.shipment_tags.map(|mut tags| {
                let mut seen = std::collections::HashSet::new();
                tags.retain(|tag| seen.insert(tag.clone()));
                tags
            }),
            ..patch
        }),
        Ok(_) => Err(ApiError::unprocessable(problems)),
        Err(errors) => {
            for error in errors {
                // The request's `shipment_tags` are the record's `tags`.
                let pointer =
                    crate::error::field_pointer(&error.field).replace("/shipment_tags", "/tags");
                if !problems
                    .iter()
                    .any(|(p, _, _)| pointer.starts_with(p.as_str()))
                {
                    problems.push((pointer, error.code, error.detail));
                }
            }
            Err(ApiError::unprocessable(problems))
        }
    }
}

/// The `data` object of a JSON:API document.
///
/// # Errors
/// 400 `malformed_json` when the body is not `{"data": {…}}`.
pub fn data(body: &Value) -> Result<&Map<String, Value>, ApiError> {
    body.get("data").and_then(Value::as_object).ok_or_else(|| {
        ApiError::malformed_json(
            "the body must be a JSON:API document: {\"data\": {…}}",
            Some("/data"),
        )
    })
}

/// Checks `data.type`.
///
/// # Errors
/// 422 `blank` when missing, 409 `type_mismatch` when it names another type.
pub fn check_type(data: &Map<String, Value>, expected: &str) -> Result<(), ApiError> {
    match data.get("type") {
        None | Some(Value::Null) => Err(ApiError::unprocessable(vec![(
            "/data/type".into(),
            ValidationCode::Blank,
            format!("data.type must be {expected:?}"),
        )])),
        Some(Value::String(given)) if given == expected => Ok(()),
        Some(_) => Err(ErrorCode::TypeMismatch.at(
            format!("data.type must be {expected:?} at this endpoint"),
            ErrorSource::Pointer("/data/type".into()),
        )),
    }
}

/// Checks `data.type` where the reference lets a client leave it out: absent or null is
/// fine, else it must be `expected`.
///
/// # Errors
/// 409 `type_mismatch` at `/data/type`.
pub fn check_type_if_given(data: &Map<String, Value>, expected: &str) -> Result<(), ApiError> {
    match data.get("type") {
        None | Some(Value::Null) => Ok(()),
        Some(_) => check_type(data, expected),
    }
}

/// Checks `data.id` on an update: absent or null is fine, else it must be `expected`.
///
/// # Errors
/// 409 `id_mismatch` at `/data/id`.
pub fn check_id(data: &Map<String, Value>, expected: &str) -> Result<(), ApiError> {
    match data.get("id") {
        None | Some(Value::Null) => Ok(()),
        Some(Value::String(id)) if id == expected => Ok(()),
        Some(_) => Err(ErrorCode::IdMismatch.at(
            "data.id must be the id in the path",
            ErrorSource::Pointer("/data/id".into()),
        )),
    }
}

/// Checks that a create's `data` carries no `id`: Tidemark assigns them.
///
/// # Errors
/// 403 `client_id_not_allowed` at `/data/id`.
pub fn check_no_id(data: &Map<String, Value>) -> Result<(), ApiError> {
    if data.contains_key("id") {
        return Err(ErrorCode::ClientIdNotAllowed.at(
            "ids are assigned by Tidemark; omit data.id",
            ErrorSource::Pointer("/data/id".into()),
        ));
    }
    Ok(())
}

/// Reads the attributes of `data`, collecting problems.
#[derive(Debug)]
pub struct Attributes<'a> {
    map: Option<&'a Map<String, Value>>,
    seen: Vec<&'static str>,
    /// Problems found so far.
    pub problems: Vec<Problem>,
}

fn pointer(key: &str) -> String {
    format!("/data/attributes/{key}")
}

impl<'a> Attributes<'a> {
    /// The attributes of `data` (absent counts as empty; anything but an object, null
    /// included, is a problem).
    #[must_use]
    pub fn of(data: &'a Map<String, Value>) -> Self {
        let mut problems = Vec::new();
        let map = match data.get("attributes") {
            None => None,
            Some(Value::Object(map)) => Some(map),
            Some(_) => {
                problems.push((
                    "/data/attributes".into(),
                    ValidationCode::Invalid,
                    "attributes must be an object".into(),
                ));
                None
            }
        };
        Self {
            map,
            seen: Vec::new(),
            problems,
        }
    }

    fn get(&mut self, key: &'static str) -> Option<&'a Value> {
        self.seen.push(key);
        self.map
            .and_then(|map| map.get(key))
            .filter(|value| !value.is_null())
    }

    /// The raw value of an attribute, marking it as known.
    pub fn raw(&mut self, key: &'static str) -> Option<&'a Value> {
        self.seen.push(key);
        self.map.and_then(|map| map.get(key))
    }

    /// A string attribute.
    pub fn string(&mut self, key: &'static str) -> Option<String> {
        match self.get(key)? {
            Value::String(text) => Some(text.clone()),
            _ => {
                self.problems.push((
                    pointer(key),
                    ValidationCode::Invalid,
                    format!("{key} must be a string"),
                ));
                None
            }
        }
    }

    /// A string attribute that may be null: `None` when absent, `Some(None)` for null.
    pub fn nullable_string(&mut self, key: &'static str) -> Option<Option<String>> {
        match self.raw(key)? {
            Value::Null => Some(None),
            _ => self.string(key).map(Some),
        }
    }

    /// An integer attribute that may be null: `None` when absent, `Some(None)` for null.
    pub fn nullable_integer(&mut self, key: &'static str) -> Option<Option<i64>> {
        match self.raw(key)? {
            Value::Null => Some(None),
            Value::Number(number) if number.as_i64().is_some() => Some(number.as_i64()),
            _ => {
                self.problems.push((
                    pointer(key),
                    ValidationCode::Invalid,
                    format!("{key} must be an integer"),
                ));
                None
            }
        }
    }

    /// A boolean attribute.
    pub fn boolean(&mut self, key: &'static str) -> Option<bool> {
        match self.get(key)? {
            Value::Bool(flag) => Some(*flag),
            _ => {
                self.problems.push((
                    pointer(key),
                    ValidationCode::Invalid,
                    format!("{key} must be true or false"),
                ));
                None
            }
        }
    }

    /// An attribute that is an array of strings.
    pub fn strings(&mut self, key: &'static str) -> Option<Vec<String>> {
        let Value::Array(items) = self.get(key)? else {
            self.problems.push((
                pointer(key),
                ValidationCode::Invalid,
                format!("{key} must be an array of strings"),
            ));
            return None;
        };
        let mut strings = Vec::with_capacity(items.len());
        for (index, item) in items.iter().enumerate() {
            match item {
                Value::String(text) => strings.push(text.clone()),
                _ => self.problems.push((
                    format!("{}/{index}", pointer(key)),
                    ValidationCode::Invalid,
                    format!("items of {key} must be strings"),
                )),
            }
        }
        Some(strings)
    }

    /// Records every attribute nobody asked for as a problem.
    pub fn reject_unknown(&mut self) {
        let Some(map) = self.map else { return };
        for key in map.keys() {
            if !self.seen.contains(&key.as_str()) {
                self.problems.push((
                    format!("/data/attributes/{}", escape_pointer(key)),
                    ValidationCode::Invalid,
                    format!("{key:?} is not an attribute that can be written here"),
                ));
            }
        }
    }
}

/// Escapes a member name for use in a JSON pointer (RFC 6901).
#[must_use]
pub fn escape_pointer(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}
