//! Every operation's error answers, derived from the codes it can answer: each code's
//! status and meaning are [`ErrorCode`]'s, so an answer is never restated beside a handler.
//! What every operation, every authenticated one, every one with a body or on a resource
//! answers follows from its path and method; what only some answer is named per operation
//! below. An operation's own annotation may say more at a status (its validation rules, a
//! body of its own): the codes are added to what it says.

use serde_json::{Map, Value, json};

use crate::document::JSON_API;
use crate::error::ErrorCode::{self, *};

/// What every operation can answer.
const EVERY: &[ErrorCode] = &[NotAcceptable, InternalError];

/// What every operation behind an API key can answer.
const AUTHENTICATED: &[ErrorCode] = &[
    InvalidParameter,
    InvalidFilter,
    InvalidInclude,
    Unauthorized,
    RateLimited,
    DatabaseUnavailable,
];

/// What an operation that changes something can answer.
const WRITES: &[ErrorCode] = &[StorageFull];

/// What an authenticated `POST` can answer (its `Idempotency-Key`).
const IDEMPOTENT: &[ErrorCode] = &[InvalidHeader, IdempotencyInProgress, IdempotencyKeyReused];

/// What an operation with a body can answer, whatever its media type.
const BODY: &[ErrorCode] = &[
    MalformedJson,
    RequestTimeout,
    PayloadTooLarge,
    UnsupportedMediaType,
];

/// What a pushed callback (a line's or a terminal's) can answer: its credential is the
/// party's own, and a push that could not be stored is asked again.
const PUSHED: &[ErrorCode] = &[
    MalformedJson,
    Unauthorized,
    RequestTimeout,
    PayloadTooLarge,
    UnsupportedMediaType,
    Unavailable,
];

/// The codes only some operations answer, by operation id.
const OPERATIONS: &[(&str, &[ErrorCode])] = &[
    ("createTrackingRequest", &[NotFound]),
    ("stopTrackingShipment", &[Conflict, InvalidState]),
    ("resumeTrackingShipment", &[Conflict]),
    ("refreshContainer", &[TrackingStopped]),
    ("rotateWebhookSecret", &[Conflict]),
    ("redeliverWebhookNotification", &[InFlight]),
];

/// A JSON:API body's members are validated: the domain's validation codes, all 422.
const VALIDATION: &str = "Validation failed: `errors[].source.pointer` names each member.";

/// The headers that come with a code's answer.
fn headers(code: ErrorCode) -> &'static [(&'static str, &'static str)] {
    match code {
        Unauthorized => &[("WWW-Authenticate", "Token")],
        RateLimited => &[
            ("Retry-After", "Seconds to wait"),
            ("RateLimit-Limit", "Requests allowed per minute"),
            ("RateLimit-Remaining", "Requests left"),
            (
                "RateLimit-Reset",
                "Seconds until the limit is fully restored",
            ),
        ],
        DatabaseUnavailable | Unavailable => &[("Retry-After", "Seconds to wait, when known")],
        _ => &[],
    }
}

/// Adds each operation's error answers to `document`.
pub fn derive(document: &mut Value) {
    super::each_operation(document, |path, method, operation| {
        let codes = codes(path, method, operation);
        // A push's credential is the party's own: no `WWW-Authenticate` challenge, and
        // its body is the protocol's, not a JSON:API document to validate.
        let pushed = path.contains("-callbacks/");
        let validated = !pushed
            && operation.get("requestBody").is_some()
            && super::media::json_api(path, operation["operationId"].as_str());
        let Some(responses) = super::responses_of(operation) else {
            return;
        };
        if validated {
            say(responses, "422", VALIDATION, &[]);
        }
        for code in codes {
            if answers_its_own(responses, code.status().as_str()) {
                continue;
            }
            let meaning = format!("`{}`: {}", code.as_str(), code.meaning());
            let headers = match code {
                Unauthorized if pushed => &[],
                _ => headers(code),
            };
            say(responses, code.status().as_str(), &meaning, headers);
        }
    });
}

/// The codes the operation `method` at `path` can answer, beyond its validation.
fn codes(path: &str, method: &str, operation: &Value) -> Vec<ErrorCode> {
    let mut codes = EVERY.to_vec();
    let has_body = operation.get("requestBody").is_some();
    if path.contains("-callbacks/") {
        codes.extend(PUSHED);
        return codes;
    }
    if path == "/healthz" || path == "/readyz" {
        return codes;
    }
    codes.extend(AUTHENTICATED);
    let on_resource = path.contains('{');
    if on_resource {
        codes.push(NotFound);
    }
    if method != "get" {
        codes.extend(WRITES);
    }
    if method == "post" {
        codes.extend(IDEMPOTENT);
    }
    if has_body {
        codes.extend(BODY);
        if super::media::json_api(path, operation["operationId"].as_str()) {
            codes.push(TypeMismatch);
            if method == "patch" {
                codes.push(IdMismatch);
            }
            if !on_resource {
                codes.push(ClientIdNotAllowed);
            }
        }
    }
    let id = operation["operationId"].as_str().unwrap_or_default();
    for (_, own) in OPERATIONS.iter().filter(|(operation, _)| *operation == id) {
        codes.extend(*own);
    }
    let mut seen = Vec::new();
    codes.retain(|code| {
        let first = !seen.contains(code);
        seen.push(*code);
        first
    });
    codes
}

/// Whether the operation answers `status` with a body of its own (a push's feedback), not
/// an error document: then no code is answered with it.
fn answers_its_own(responses: &Map<String, Value>, status: &str) -> bool {
    responses
        .get(status)
        .and_then(|answer| answer["content"].as_object())
        .is_some_and(|content| {
            content.values().all(|media| {
                media["schema"]["$ref"]
                    .as_str()
                    .is_some_and(|schema| !schema.ends_with("/ErrorDocument"))
            })
        })
}

/// Adds `text` to the answer of `status` (and `headers` to it), or makes that answer.
fn say(responses: &mut Map<String, Value>, status: &str, text: &str, headers: &[(&str, &str)]) {
    let answer = responses.entry(status.to_owned()).or_insert_with(|| {
        json!({
            "description": "",
            "content": {JSON_API: {"schema": {"$ref": "#/components/schemas/ErrorDocument"}}},
        })
    });
    let description = answer["description"].as_str().unwrap_or_default();
    if !description.contains(text) {
        answer["description"] = if description.is_empty() {
            json!(text)
        } else {
            json!(format!("{description} Or {text}"))
        };
    }
    for (name, about) in headers {
        answer["headers"][*name] = json!({"description": about, "schema": {"type": "string"}});
    }
}
