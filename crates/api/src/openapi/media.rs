//! Media types, error bodies and a creation's `Location`, stated once for the whole
//! document instead of in every operation's annotation: an operation's bodies are JSON:API
//! (`application/vnd.api+json`, and the same document as `application/json`, which the
//! reference's clients send and ask for) unless it is one of the few that speak plain JSON
//! as the reference does, every error answer that names no body of its own carries the JSON:API
//! error document, and every 201 names the new resource in `Location` (as
//! [`crate::document::JsonApi::created`] does).

use serde_json::{Map, Value, json};

use crate::document::JSON_API;

/// The operations under `/v2` whose bodies are plain JSON, as the reference's are; the
/// routes outside `/v2` (health, the carriers' and terminals' pushes) are plain JSON too.
const PLAIN_JSON: [&str; 4] = [
    "inferNumber",
    "listWebhookIps",
    "triggerWebhook",
    "refreshContainer",
];

/// The media type utoipa gives a body whose annotation names none.
const UNSTATED: &str = "application/json";

/// Whether the operation `id` at `path` speaks JSON:API (else plain JSON).
pub fn json_api(path: &str, id: Option<&str>) -> bool {
    path.starts_with("/v2/") && !id.is_some_and(|id| PLAIN_JSON.contains(&id))
}

/// States every body's media type, every error's body and every creation's `Location` in
/// `document`.
pub fn apply(document: &mut Value) {
    super::each_operation(document, |path, _, operation| {
        let json_api = json_api(path, operation["operationId"].as_str());
        if json_api && let Some(content) = operation.pointer_mut("/requestBody/content") {
            restate(content);
        }
        let Some(responses) = super::responses_of(operation) else {
            return;
        };
        for (status, response) in responses.iter_mut() {
            if status == "201" {
                response["headers"]["Location"] = json!({
                    "description": "The new resource's URL",
                    "schema": {"type": "string"}
                });
            }
            let error = status.parse::<u16>().is_ok_and(|code| code >= 400);
            match response.get_mut("content") {
                Some(content) if json_api => restate(content),
                Some(_) => {}
                None if error => {
                    let body = json!({"schema": {"$ref": "#/components/schemas/ErrorDocument"}});
                    let mut content = json!({JSON_API: body.clone()});
                    if json_api {
                        content[UNSTATED] = body;
                    }
                    response["content"] = content;
                }
                None => {}
            }
        }
    });
}

/// States a body stated as plain JSON by default as JSON:API first, and as the same
/// document in plain JSON beside it.
fn restate(content: &mut Value) {
    let Some(content) = content.as_object_mut() else {
        return;
    };
    if let Some(body) = content.remove(UNSTATED) {
        let mut both = Map::new();
        both.insert(JSON_API.to_owned(), body.clone());
        both.insert(UNSTATED.to_owned(), body);
        content.extend(both);
    }
}
