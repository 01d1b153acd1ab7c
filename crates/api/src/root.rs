//! `/` (and `/v2`), the front door: a browser (an `Accept` that names `text/html`) is sent to the
//! console; an API client gets a JSON:API document whose links point at the API (`/v2`),
//! its reference (`/docs`) and its OpenAPI document.

use axum::Router;
use axum::http::header::ACCEPT;
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde_json::{Value, json};

use tidemark_wire::links::absolute;

use crate::AppState;
use crate::document::JsonApi;

/// The route.
pub fn routes() -> Router<AppState> {
    Router::new().route("/", get(root)).route("/v2", get(root))
}

async fn root(headers: HeaderMap) -> Response {
    if wants_html(&headers) {
        let mut response = StatusCode::SEE_OTHER.into_response();
        response.headers_mut().insert(
            axum::http::header::LOCATION,
            HeaderValue::from_static("/console"),
        );
        return response;
    }
    JsonApi::ok(crate::public_links::render(document)).into_response()
}

/// Whether the caller is a browser: its `Accept` names `text/html` (browsers list it
/// first; API clients name JSON or nothing).
fn wants_html(headers: &HeaderMap) -> bool {
    headers
        .get_all(ACCEPT)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .any(|range| {
            range
                .split(';')
                .next()
                .is_some_and(|essence| essence.trim().eq_ignore_ascii_case("text/html"))
        })
}

fn document() -> Value {
    json!({
        "jsonapi": { "version": "1.1" },
        "meta": {
            "name": "Tidemark",
            "version": env!("CARGO_PKG_VERSION"),
            "description": "Ocean shipment tracking. The API is under /v2; its reference is at /docs.",
        },
        "links": {
            "self": absolute("/"),
            "api": absolute("/v2"),
            "docs": absolute("/docs"),
            "describedby": absolute("/v2/openapi.json"),
            "console": absolute("/console"),
        },
    })
}
