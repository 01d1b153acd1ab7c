//! `GET /{SCAC}/v1/events`: the same shipments in DCSA 1.1.0's shape ([`crate::v1`]).

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use super::LineCall;
use super::events::answer_as_2_2;
use crate::Simulator;

pub(super) async fn events_v1_route(State(sim): State<Simulator>, call: LineCall) -> Response {
    let query = match crate::v1::query(&call.query) {
        Ok(query) => query,
        Err(message) => return call.error(StatusCode::BAD_REQUEST, "invalidQuery", &message),
    };
    let (mut parts, read) = answer_as_2_2(sim, call, query).await;
    if parts.status != StatusCode::OK {
        let body = read.map_or_else(String::new, |v| v.to_string());
        parts.headers.remove("content-length");
        return Response::from_parts(parts, body.into());
    }
    let Some(events) = read.and_then(|v| v.as_array().cloned()) else {
        // A fault's damaged page (not JSON) goes out as it was damaged: cut, or garbled.
        return (StatusCode::OK, "<html>Service temporarily degraded</html>").into_response();
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
