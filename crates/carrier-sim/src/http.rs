//! The routes: `GET /{SCAC}/v2/events` (and 1.1.0's `/{SCAC}/v1/events`), `GET /{SCAC}/arrival-notices`,
//! `POST /terminals/{CODE}/import-availability`,
//! `POST /oauth/token`, and the admin API (with the line's Arrival Notice pushes).

use axum::Router;
use axum::extract::{FromRequestParts, Path};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post};
use serde_json::json;
use time::OffsetDateTime;

use crate::timeline::timestamp;
use crate::{API_VERSION, Simulator};

mod admin;
mod auth;
mod event_subscriptions;
mod events;
mod listing;
mod notices;
mod push;
mod terminal;
mod v1;
mod v3;

use admin::{
    add_fault, clear_faults, clear_injected, inject, list_faults, lookups, move_clock, read_clock,
    remove_fault, require_admin, reset,
};
use auth::token;
use events::events_route;

pub fn router(sim: Simulator) -> Router {
    let admin = Router::new()
        .route("/admin/clock", get(read_clock).post(move_clock))
        .route(
            "/admin/faults",
            get(list_faults).post(add_fault).delete(clear_faults),
        )
        .route("/admin/faults/{id}", delete(remove_fault))
        .route("/admin/events", post(inject).delete(clear_injected))
        .route("/admin/lookups", get(lookups))
        .route("/admin/calls", get(admin::calls))
        .route("/admin/reset", post(reset))
        .route("/admin/arrival-notice-pushes", post(push::push_route))
        .route("/admin/terminal-pushes", post(push::terminal_push_route))
        .route("/admin/event-pushes", post(event_subscriptions::push_route))
        .route_layer(axum::middleware::from_fn_with_state(
            sim.clone(),
            require_admin,
        ));
    Router::new()
        .route("/{scac}/v2/events", get(events_route))
        .route("/{scac}/v1/events", get(v1::events_v1_route))
        .route("/{scac}/v3/events", get(v3::events_v3_route))
        .route(
            "/{scac}/v2/event-subscriptions",
            post(event_subscriptions::create_route),
        )
        .route(
            "/{scac}/v2/event-subscriptions/{id}",
            get(event_subscriptions::read_route).delete(event_subscriptions::delete_route),
        )
        .route(
            "/{scac}/v2/event-subscriptions/{id}/secret",
            axum::routing::put(event_subscriptions::secret_route),
        )
        .route("/{scac}/arrival-notices", get(notices::notices_route))
        .route(
            "/terminals/{code}/import-availability",
            post(terminal::availability_route),
        )
        .route(
            "/terminals/{code}/import-availability/subscriptions",
            post(terminal::subscribe_route),
        )
        .route("/oauth/token", post(token))
        .route("/auth/token", post(auth::exchange))
        .merge(admin)
        .fallback(not_found)
        .with_state(sim)
}

/// What a route of a line's API (`/{SCAC}/…`) reads of a call: the line's code in the
/// path, the query as sent, and the method, URI and headers (an error names the first
/// two; the credentials are in the headers).
pub(super) struct LineCall {
    scac: String,
    query: String,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
}

impl LineCall {
    /// A DCSA error answer to this call.
    fn error(&self, status: StatusCode, reason: &str, message: &str) -> Response {
        dcsa_error(&self.method, &self.uri, status, reason, message)
    }
}

impl<S: Send + Sync> FromRequestParts<S> for LineCall {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Response> {
        let Path(scac) = Path::<String>::from_request_parts(parts, state)
            .await
            .map_err(IntoResponse::into_response)?;
        Ok(Self {
            scac,
            query: parts.uri.query().unwrap_or_default().to_owned(),
            method: parts.method.clone(),
            uri: parts.uri.clone(),
            headers: parts.headers.clone(),
        })
    }
}

/// A DCSA error answer (ERROR_DOMAIN 1.0.0).
fn dcsa_error(
    method: &Method,
    uri: &Uri,
    status: StatusCode,
    reason: &str,
    message: &str,
) -> Response {
    let body = json!({
        "httpMethod": method.as_str(),
        "requestUri": uri.to_string(),
        "statusCode": status.as_u16(),
        "statusCodeText": status.canonical_reason().unwrap_or("Error"),
        "errorDateTime": timestamp(OffsetDateTime::now_utc()),
        "errors": [{"reason": reason, "message": message}],
    });
    with_version((status, axum::Json(body)).into_response())
}

fn with_version(response: Response) -> Response {
    with_api_version(response, API_VERSION)
}

/// `response` saying which version of the standard answered.
fn with_api_version(mut response: Response, version: &'static str) -> Response {
    response
        .headers_mut()
        .insert("API-Version", HeaderValue::from_static(version));
    response
}

async fn not_found(method: Method, uri: Uri) -> Response {
    dcsa_error(
        &method,
        &uri,
        StatusCode::NOT_FOUND,
        "notFound",
        "no such resource",
    )
}
