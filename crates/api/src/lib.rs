//! Tidemark's HTTP API: the axum router, JSON:API documents and errors, authentication,
//! rate limits and the OpenAPI document (api.md §1–§2).
//!
//! [`router`] builds the whole application from an [`AppState`]; the binary and the tests
//! serve the very same router.

mod api_docs;
mod auth;
mod body;
pub mod callbacks;
mod console;
mod containers;
mod custom_fields;
mod document;
pub mod error;
mod extract;
mod fallback;
mod found;
mod gate;
pub mod health;
pub mod idempotency;
mod include;
pub mod infer_number;
pub mod metrics;
mod negotiation;
pub mod openapi;
mod params;
mod parties;
pub mod public_links;
pub mod rate_limit;
mod reference_data;
mod root;
mod search;
mod shipments;
mod shipping_lines;
mod tracking_requests;
mod vessels;
mod webhook_notifications;
mod webhooks;

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::http::{HeaderName, Request};
use axum::middleware::{from_fn, from_fn_with_state, map_response};
use axum::response::{IntoResponse, Response};
use tidemark_domain::webhook::Networks;
use tidemark_domain::{CarrierMatrix, Clock, Coverage, Limits};
use tidemark_store::Store;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::trace::TraceLayer;
use tracing::Span;

pub use callbacks::{Callback, CallbackReply, CarrierCallbacks, Credential};
pub use error::{ApiError, ErrorCode};
pub use rate_limit::{RateLimitConfig, RateLimiter};
pub use tidemark_app::WebhookSender;
pub use tidemark_wire::EventRecords;

/// Settings of the API layer; defaults are the contract's (api.md §1 "Limits").
#[derive(Debug, Clone)]
pub struct ApiConfig {
    /// Field limits of tracking requests.
    pub limits: Limits,
    /// Largest request body, in bytes.
    pub body_bytes: usize,
    /// Longest pause while a client sends a body (408 after).
    pub body_idle_timeout: Duration,
    /// Longest time a client may take to send a whole body (408 after).
    pub body_total_timeout: Duration,
    /// Page size when `page[size]` is absent.
    pub page_size_default: u32,
    /// Largest `page[size]`.
    pub page_size_max: u32,
    /// Per-account rate limits.
    pub rate_limits: RateLimitConfig,
    /// Networks beyond the public internet that webhook URLs may name.
    pub webhook_networks: Networks,
    /// The addresses webhook deliveries leave from, as the operator configured them.
    pub webhook_source_ips: Vec<std::net::IpAddr>,
    /// The lines this instance tracks (creates for others are refused).
    pub coverage: Coverage,
    /// How long the delivery log keeps a settled notification (the pruner's; the console
    /// says it).
    pub webhook_retention: tidemark_domain::webhook::Retention,
    /// Where the links of answers point.
    pub links: public_links::PublicLinks,
}

impl Default for ApiConfig {
    fn default() -> Self {
        Self {
            limits: Limits::default(),
            body_bytes: 64 * 1024,
            body_idle_timeout: Duration::from_secs(30),
            body_total_timeout: Duration::from_secs(60),
            page_size_default: 30,
            page_size_max: 100,
            rate_limits: RateLimitConfig::default(),
            webhook_networks: Networks::public_only(),
            webhook_source_ips: Vec::new(),
            coverage: Coverage::default(),
            webhook_retention: tidemark_domain::webhook::Retention::default(),
            links: public_links::PublicLinks::default(),
        }
    }
}

/// What every handler shares: one reference-counted [`Shared`], so that the clone each
/// layer and extractor makes per request is one counter, not one per member (measured:
/// cloning and dropping the members' dozen counters took a seventh of infer-number's
/// time under load).
#[derive(Debug, Clone)]
pub struct AppState(Arc<Shared>);

impl std::ops::Deref for AppState {
    type Target = Shared;

    fn deref(&self) -> &Shared {
        &self.0
    }
}

/// The members of [`AppState`].
#[derive(Debug, Clone)]
pub struct Shared {
    /// The database.
    pub store: Arc<dyn Store>,
    /// Known carriers.
    pub carriers: Arc<CarrierMatrix>,
    /// Settings.
    pub config: Arc<ApiConfig>,
    /// Per-account rate limits.
    pub limiter: Arc<RateLimiter>,
    /// Where "now" comes from.
    pub clock: Arc<dyn Clock>,
    /// Creates tracking requests (the API's and the console's).
    pub requests: tidemark_app::Requests,
    /// Defines custom fields and sets their values (the API's and the console's).
    pub custom_fields: tidemark_app::CustomFields,
    /// Changes tracking requests (the client's stop and resume).
    pub tracking: tidemark_app::Tracking,
    /// Rotates webhooks' secrets, sends their tests, redelivers notifications.
    pub webhooks: tidemark_app::Webhooks,
    /// Receives the lines' pushes, when this process does.
    pub callbacks: Option<Arc<dyn CarrierCallbacks>>,
    /// When this process read its settings.
    pub started_at: tidemark_domain::Timestamp,
    /// The API keys this process verified.
    pub keys: Arc<auth::keys::KeyCache>,
    /// The workers this process runs, for readiness.
    pub workers: Option<Arc<dyn health::Workers>>,
    /// Whether rate limits are kept in the database (PostgreSQL, which several API
    /// processes may share) rather than in this process's memory (SQLite: one process).
    pub shared_rate_limits: bool,
    /// The database's last readiness check, reused for a moment (`/readyz`).
    pub database_check: Arc<health::DatabaseCheck>,
}

/// What the application builder hands the API: its store, settings and seams, and the use
/// cases that need more than the API's own settings.
pub struct Parts {
    /// The database.
    pub store: Arc<dyn Store>,
    /// Known carriers.
    pub carriers: Arc<CarrierMatrix>,
    /// The API's settings.
    pub config: ApiConfig,
    /// Where "now" comes from.
    pub clock: Arc<dyn Clock>,
    /// Changes tracking requests, with the tracker's policy.
    pub tracking: tidemark_app::Tracking,
    /// Rotates webhooks' secrets, sends their tests, redelivers notifications.
    pub webhooks: tidemark_app::Webhooks,
    /// Receives the lines' pushes, when this process does (else the callback routes
    /// answer 404).
    pub callbacks: Option<Arc<dyn CarrierCallbacks>>,
    /// The workers this process runs, for readiness.
    pub workers: Option<Arc<dyn health::Workers>>,
}

impl AppState {
    /// The state every handler shares, over `parts`.
    #[must_use]
    pub fn new(parts: Parts) -> Self {
        let Parts {
            store,
            carriers,
            config,
            clock,
            tracking,
            webhooks,
            callbacks,
            workers,
        } = parts;
        Self(Arc::new(Shared {
            webhooks,
            tracking,
            callbacks,
            started_at: clock.now(),
            keys: Arc::default(),
            workers,
            shared_rate_limits: store.backend() == "postgres",
            database_check: Arc::default(),
            limiter: Arc::new(RateLimiter::new(config.rate_limits)),
            custom_fields: tidemark_app::CustomFields::new(Arc::clone(&store), Arc::clone(&clock)),
            requests: tidemark_app::Requests::new(
                Arc::clone(&store),
                Arc::clone(&clock),
                Arc::clone(&carriers),
                config.coverage.clone(),
                config.limits,
            ),
            store,
            carriers,
            config: Arc::new(config),
            clock,
        }))
    }
}

const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// A handler's panic, caught: logged once as an internal error and answered as one.
#[derive(Debug, thiserror::Error)]
#[error("a handler panicked")]
struct Panicked;

fn panic_response(_: Box<dyn std::any::Any + Send + 'static>) -> Response {
    ApiError::internal(&Panicked).into_response()
}

fn request_span<B>(request: &Request<B>) -> Span {
    let request_id = request
        .headers()
        .get(&REQUEST_ID)
        .and_then(|value| value.to_str().ok())
        .unwrap_or("-");
    tracing::info_span!(
        "request",
        method = %request.method(),
        path = %request.uri().path(),
        request_id,
        account = tracing::field::Empty,
    )
}

/// What a process without the API role answers on its health port: `/healthz`,
/// `/readyz` and `/metrics`.
pub fn operations_router(state: AppState) -> Router {
    health::routes()
        .route("/metrics", axum::routing::get(metrics::scrape))
        .route_layer(from_fn(metrics::record))
        .fallback(fallback::not_found)
        .with_state(state)
}

/// The whole HTTP application.
pub fn router(state: AppState) -> Router {
    let authenticated = tracking_requests::routes()
        .merge(infer_number::routes())
        .merge(shipping_lines::routes())
        .merge(shipments::routes())
        .merge(containers::routes())
        .merge(reference_data::routes())
        .merge(vessels::routes())
        .merge(custom_fields::routes())
        .merge(webhooks::routes())
        .merge(webhook_notifications::routes())
        .merge(parties::routes())
        .merge(search::routes())
        .route_layer(from_fn_with_state(state.clone(), gate::gate));
    Router::new()
        .merge(authenticated)
        .merge(callbacks::routes())
        .merge(console::routes())
        .merge(api_docs::routes())
        .merge(health::routes())
        .merge(root::routes())
        .route(
            "/v2/openapi.json",
            openapi::route(&state.config, &state.carriers),
        )
        .route("/metrics", axum::routing::get(metrics::scrape))
        .route_layer(from_fn(metrics::record))
        .fallback(fallback::not_found)
        .layer(map_response(fallback::method_not_allowed))
        .layer(from_fn(negotiation::check_accept))
        .layer(from_fn_with_state(state.clone(), public_links::scope))
        .layer(CatchPanicLayer::custom(panic_response))
        .layer(
            TraceLayer::new_for_http()
                .make_span_with(request_span)
                .on_request(())
                // The "served" line says every status; an error is logged where it arises
                // (ApiError::internal), once, and a refusal the store counts (a full disk,
                // a database out of reach) is logged there once a minute, not per request.
                .on_failure(())
                .on_response(|response: &Response, latency: Duration, _: &Span| {
                    tracing::info!(
                        status = response.status().as_u16(),
                        latency_us = latency.as_micros(),
                        "served"
                    );
                }),
        )
        .layer(PropagateRequestIdLayer::new(REQUEST_ID))
        .layer(SetRequestIdLayer::new(REQUEST_ID, MakeRequestUuid))
        .with_state(state)
}
