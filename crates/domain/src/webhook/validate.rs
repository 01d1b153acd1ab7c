//! The checks of a webhook's fields: its URL against the networks allowed, its events
//! against the catalog, its custom headers against the limits and reserved names.

use crate::validation::{Field, FieldError, ValidationCode};

use super::catalog::subscribable;
use super::model::{
    MAX_HEADER_NAME, MAX_HEADER_VALUE, MAX_HEADERS, RESERVED_HEADERS, WebhookHeader,
};
use super::{Networks, WebhookUrl};

pub(super) fn url(
    text: &str,
    networks: &Networks,
    errors: &mut Vec<FieldError>,
) -> Option<WebhookUrl> {
    WebhookUrl::parse(text, networks)
        .map_err(|error| {
            let code = match error {
                super::UrlError::TooLong => ValidationCode::TooLong,
                _ => ValidationCode::Invalid,
            };
            errors.push(FieldError::new(
                Field::Other("url"),
                code,
                error.to_string(),
            ));
        })
        .ok()
}

pub(super) fn check_events(events: Vec<String>, errors: &mut Vec<FieldError>) -> Vec<String> {
    let known = subscribable();
    let mut kept: Vec<String> = Vec::with_capacity(events.len());
    for (index, event) in events.into_iter().enumerate() {
        if !known.iter().any(|k| k.name == event) {
            errors.push(FieldError::new(
                Field::Item("events", index),
                ValidationCode::Invalid,
                "not an event of the catalog (GET /v2/webhooks/events)",
            ));
        } else if !kept.contains(&event) {
            kept.push(event);
        }
    }
    kept
}

fn is_token(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

pub(super) fn check_headers(
    headers: Vec<WebhookHeader>,
    errors: &mut Vec<FieldError>,
) -> Vec<WebhookHeader> {
    if headers.len() > MAX_HEADERS {
        errors.push(FieldError::new(
            Field::Other("headers"),
            ValidationCode::TooMany,
            format!("at most {MAX_HEADERS} headers"),
        ));
        return Vec::new();
    }
    for (index, header) in headers.iter().enumerate() {
        let field = Field::Item("headers", index);
        let lower = header.name.to_ascii_lowercase();
        if header.name.len() > MAX_HEADER_NAME || header.value.len() > MAX_HEADER_VALUE {
            errors.push(FieldError::new(
                field,
                ValidationCode::TooLong,
                format!(
                    "names are at most {MAX_HEADER_NAME} characters, values {MAX_HEADER_VALUE}"
                ),
            ));
        } else if !is_token(&header.name) {
            errors.push(FieldError::new(
                field,
                ValidationCode::Invalid,
                "a header name is letters, digits and !#$%&'*+-.^_`|~",
            ));
        } else if header.value.chars().any(|c| c.is_control() && c != '\t') {
            errors.push(FieldError::new(
                field,
                ValidationCode::Invalid,
                "a header value has no control characters",
            ));
        } else if RESERVED_HEADERS.contains(&lower.as_str()) {
            errors.push(FieldError::new(
                field,
                ValidationCode::Invalid,
                format!("{} is set by Tidemark", header.name),
            ));
        } else if headers[..index]
            .iter()
            .any(|earlier| earlier.name.eq_ignore_ascii_case(&header.name))
        {
            errors.push(FieldError::new(
                field,
                ValidationCode::Invalid,
                "a header name appears once",
            ));
        }
    }
    headers
}
