//! `GET /{SCAC}/v1/events`: the same shipments in DCSA 1.1.0's shape ([`crate::v1`]).

use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use super::dcsa_error;
use super::events::events_route;
use crate::Simulator;

/// The largest 2.2 answer rewritten.
const MAX_BODY: usize = 64 * 1024 * 1024;

pub(super) async fn events_v1_route(
    State(sim): State<Simulator>,
    Path(scac): Path<String>,
    RawQuery(raw): RawQuery,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
) -> Response {
    let query = match crate::v1::query(raw.as_deref().unwrap_or_default()) {
        Ok(query) => query,
        Err(message) => {
            return dcsa_error(
                &method,
                &uri,
                StatusCode::BAD_REQUEST,
                "invalidQuery",
                &message,
            );
        }
    };
    let answer = events_route(
        State(sim),
        Path(scac),
        RawQuery(Some(query)),
        method,
        uri,
        headers,
    )
    .await;
    if answer.status() != StatusCode::OK {
        return answer;
    }
    let (mut parts, body) = answer.into_parts();
    let events: Vec<Value> = match axum::body::to_bytes(body, MAX_BODY)
        .await
        .ok()
        .and_then(|bytes| serde_json::from_slice(&bytes).ok())
    {
        Some(events) => events,
        // A fault's damaged page (not JSON) goes out as it was damaged: cut, or garbled.
        None => {
            return (StatusCode::OK, "<html>Service temporarily degraded</html>").into_response();
        }
    };
    let old: Vec<Value> = events.iter().map(crate::v1::event).collect();
    parts.headers.remove("Next-Page");
    parts.headers.remove("Current-Page");
    parts.headers.remove("content-length");
    let body = axum::Json(json!({ "events": old }))
        .into_response()
        .into_body();
    Response::from_parts(parts, body)
}
