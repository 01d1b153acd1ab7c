//! The web console (`/console`): HTML pages over the same store and domain calls as the
//! API, for people who want to look rather than curl.
//!
//! Signed in with an API key, kept in an `HttpOnly`, `SameSite=Strict` session cookie
//! ([`session`]); the key's account scopes every page, as in the API. Every form that
//! changes something carries a token bound to the key (CSRF). The pages are rendered on
//! the server ([askama] templates under `templates/console/`); the stylesheet and the one
//! script are built into the binary ([`assets`]), so the console works with no network
//! beyond Tidemark itself.

mod assets;
mod bulk;
mod bulk_create;
mod bulk_read;
mod container;
mod containers;
mod custom_values;
mod error;
mod export;
mod extract;
mod filters;
mod fleet_map;
mod format;
mod keys;
mod local;
mod map_frame;
mod overview;
mod requests;
mod session;
mod shipment;
mod shipment_actions;
mod shipments;
mod tables;
mod voyage_map;
mod webhook_forms;
mod webhook_list;
mod webhooks;

use askama::Template;
use axum::Router;
use axum::http::header::{CACHE_CONTROL, CONTENT_SECURITY_POLICY, CONTENT_TYPE};
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};

pub use error::ConsoleError;
pub use session::Viewer;

use crate::AppState;

/// What every page shows around its content: its title, the section it belongs to and the
/// token its forms carry.
#[derive(Debug, Clone)]
pub struct Chrome {
    /// The page's title.
    pub title: String,
    /// The navigation entry to mark: `overview`, `requests`, `shipments`, `containers`,
    /// `webhooks` or `keys`.
    pub section: &'static str,
    /// The CSRF token of the signed-in key, for forms; empty when signed out.
    pub csrf: String,
}

impl Chrome {
    /// The chrome of a page in `section` for `viewer`.
    #[must_use]
    pub fn new(title: impl Into<String>, section: &'static str, viewer: &Viewer) -> Self {
        Self {
            title: title.into(),
            section,
            csrf: viewer.csrf.clone(),
        }
    }
}

/// The console's headers: no caching of account data, nothing from elsewhere, no framing.
const POLICY: &str = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
                      connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/// Renders `page` as an HTML answer with the console's headers.
///
/// # Errors
/// When the template fails to render (a 500 page).
pub fn html(page: &impl Template) -> Result<Response, ConsoleError> {
    let body = page.render().map_err(ConsoleError::render)?;
    Ok(html_answer(StatusCode::OK, body))
}

/// `page` answered with `status` instead of 200: a form shown again with what is wrong.
///
/// # Errors
/// The page's own error.
pub fn answered_as(
    page: Result<Response, ConsoleError>,
    status: StatusCode,
) -> Result<Response, ConsoleError> {
    let mut response = page?;
    *response.status_mut() = status;
    Ok(response)
}

/// An HTML answer with `status` and the console's headers.
fn html_answer(status: StatusCode, body: String) -> Response {
    let mut response = with_headers((
        [(
            CONTENT_TYPE,
            HeaderValue::from_static("text/html; charset=utf-8"),
        )],
        body,
    ));
    *response.status_mut() = status;
    response
}

/// Adds the console's security and caching headers to any answer.
fn with_headers(response: impl IntoResponse) -> Response {
    let mut response = response.into_response();
    let headers = response.headers_mut();
    headers.insert(CONTENT_SECURITY_POLICY, HeaderValue::from_static(POLICY));
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert(
        axum::http::header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        axum::http::HeaderName::from_static("referrer-policy"),
        HeaderValue::from_static("same-origin"),
    );
    response
}

/// The console's routes.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/console", get(overview::page))
        .route(
            "/console/sign-in",
            get(session::sign_in_page).post(session::sign_in),
        )
        .route("/console/sign-out", post(session::sign_out))
        .route(
            "/console/requests",
            get(requests::page).post(requests::create),
        )
        .route("/console/infer", get(requests::infer_suggestion))
        .route("/console/requests/bulk", post(bulk::upload))
        .route("/console/requests/bulk/track", post(bulk_create::track_all))
        .route("/console/shipments", get(shipments::page))
        .route("/console/shipments/{id}", get(shipment::page))
        .route("/console/shipments/{id}/stop", post(shipment_actions::act))
        .route(
            "/console/shipments/{id}/resume",
            post(shipment_actions::act),
        )
        .route(
            "/console/shipments/{id}/refresh",
            post(shipment_actions::act),
        )
        .route("/console/containers", get(containers::page))
        .route("/console/containers/{id}", get(container::page))
        .route(
            "/console/containers/{id}/custom_fields",
            post(custom_values::set_on_container),
        )
        .route(
            "/console/shipments/{id}/custom_fields",
            post(custom_values::set_on_shipment),
        )
        .route(
            "/console/webhooks",
            get(webhook_list::list).post(webhook_forms::create),
        )
        .route("/console/webhooks/{id}", get(webhooks::page))
        .route("/console/webhooks/{id}/edit", post(webhook_forms::edit))
        .route(
            "/console/webhooks/{id}/pause",
            post(webhook_forms::set_active),
        )
        .route(
            "/console/webhooks/{id}/resume",
            post(webhook_forms::set_active),
        )
        .route("/console/webhooks/{id}/delete", post(webhook_forms::delete))
        .route("/console/webhooks/{id}/test", post(webhooks::test))
        .route("/console/webhooks/{id}/rotate", post(webhooks::rotate))
        .route(
            "/console/notifications/{id}/redeliver",
            post(webhooks::redeliver),
        )
        .route("/console/keys", get(keys::page).post(keys::create))
        .route("/console/keys/{prefix}/revoke", post(keys::revoke))
        .route("/console/assets/{name}", get(assets::serve))
        .layer(axum::middleware::map_response(error::method_not_allowed))
}
