//! The OpenAPI 3.1 document, generated from the handlers and served at `/v2/openapi.json`.
//!
//! Error answers are derived from the codes each operation can answer (`errors.rs`), not
//! written on the handlers; media types are stated once (`media.rs`).

mod deliveries;
mod errors;
mod examples;
mod limits;
mod media;
mod parameters;
mod stable_ids;
mod tags;

use std::sync::Arc;

use serde_json::{Value, json};
use tidemark_domain::CarrierMatrix;

use crate::ApiConfig;

use axum::http::header::CONTENT_TYPE;
use utoipa::openapi::schema::AdditionalProperties;
use utoipa::openapi::security::{ApiKey, ApiKeyValue, HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::openapi::{RefOr, Schema};
use utoipa::{Modify, OpenApi};

use crate::{
    callbacks, containers, custom_fields, health, infer_number, parties, reference_data, search,
    shipments, shipping_lines, tracking_requests, vessels, webhook_notifications, webhooks,
};

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Tidemark",
        description = "Self-hosted ocean shipment tracking. JSON:API documents; authenticate with `Authorization: Token <key>`.",
        license(name = "Apache-2.0", identifier = "Apache-2.0"),
    ),
    paths(
        tracking_requests::create,
        tracking_requests::list,
        tracking_requests::show,
        tracking_requests::update,
        infer_number::infer_number,
        shipping_lines::list,
        shipping_lines::show,
        shipments::list,
        shipments::show,
        shipments::update,
        shipments::stop_tracking,
        shipments::resume_tracking,
        containers::list,
        containers::show,
        containers::update,
        containers::transport_events,
        containers::raw_events::list,
        containers::refresh,
        reference_data::show_port,
        reference_data::show_terminal,
        reference_data::show_metro_area,
        vessels::show_vessel,
        containers::map::container_map,
        vessels::future::future_positions,
        vessels::future::future_positions_with_coordinates,
        custom_fields::list_of_tracking_request,
        custom_fields::add_to_tracking_request,
        custom_fields::change_on_tracking_request,
        custom_fields::remove_from_tracking_request,
        custom_fields::list_of_shipment,
        custom_fields::add_to_shipment,
        custom_fields::change_on_shipment,
        custom_fields::remove_from_shipment,
        custom_fields::list_of_container,
        custom_fields::add_to_container,
        custom_fields::change_on_container,
        custom_fields::remove_from_container,
        custom_fields::definitions::list,
        custom_fields::definitions::create,
        custom_fields::definitions::show,
        custom_fields::definitions::update,
        custom_fields::definitions::remove,
        custom_fields::options::list,
        custom_fields::options::create,
        custom_fields::options::show,
        custom_fields::options::update,
        custom_fields::options::remove,
        custom_fields::values::list,
        custom_fields::values::create,
        custom_fields::values::show,
        custom_fields::values::update,
        custom_fields::values::remove,
        webhooks::create,
        webhooks::list,
        webhooks::events,
        webhooks::show,
        webhooks::update,
        webhooks::remove,
        webhooks::test::test,
        webhooks::rotate::rotate_secret,
        webhooks::ips::ips,
        webhooks::trigger::trigger,
        webhook_notifications::examples::examples,
        webhook_notifications::list,
        webhook_notifications::show,
        webhook_notifications::redeliver,
        parties::create,
        parties::list,
        parties::show,
        parties::update,
        search::search,
        health::healthz,
        health::readyz,
        callbacks::carrier_events,
        callbacks::carrier_events_v3,
        callbacks::arrival_notices,
        callbacks::arrival_notice_notifications,
        callbacks::terminal_availability,
    ),
    components(schemas(
        crate::error::ErrorDocument,
        webhook_notifications::view::LogResource,
        webhook_notifications::examples::CatalogEventName
    )),
    security(("api_key" = [])),
    modifiers(&Security),
)]
struct ApiDoc;

/// The security schemes, and the `Idempotency-Key` of the authenticated `POST`s.
struct Security;

impl Modify for Security {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "api_key",
            SecurityScheme::ApiKey(ApiKey::Header(ApiKeyValue::with_description(
                "Authorization",
                "`Token <key>` (or `Bearer <key>`)",
            ))),
        );
        components.add_security_scheme(
            "callback_token",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .description(Some(
                        "The party's own: `[arrival_notices.callbacks.SCAC]`, `[terminals.callbacks.CODE]`, `[carriers.callbacks.SCAC]`",
                    ))
                    .build(),
            ),
        );
        components.add_security_scheme(
            "notification_signature",
            SecurityScheme::ApiKey(ApiKey::Header(ApiKeyValue::with_description(
                "Notification-Signature",
                "DCSA 2.2: `sha256=<hex HMAC-SHA256 of the raw body>`, keyed with the secret Tidemark gave the carrier's subscription (with `Subscription-ID`)",
            ))),
        );
        for (path, item) in &mut openapi.paths.paths {
            // The callbacks of lines and terminals answer for themselves.
            if let Some(post) = item.post.as_mut().filter(|_| !path.contains("-callbacks/")) {
                parameters::idempotency_key(post);
            }
        }
    }
}

/// Calls `visit` with the path, the method and the operation object of every operation in
/// `document`'s `paths`.
/// An operation's answers by status, when it has any.
fn responses_of(operation: &mut Value) -> Option<&mut serde_json::Map<String, Value>> {
    operation
        .get_mut("responses")
        .and_then(Value::as_object_mut)
}

fn each_operation(document: &mut Value, mut visit: impl FnMut(&str, &str, &mut Value)) {
    let Some(paths) = document.get_mut("paths").and_then(Value::as_object_mut) else {
        return;
    };
    for (path, item) in paths.iter_mut() {
        let Some(operations) = item.as_object_mut() else {
            continue;
        };
        for (method, operation) in operations.iter_mut() {
            visit(path, method, operation);
        }
    }
}

/// Attribute objects accept only their documented members (others are answered 422).
fn close_attribute_objects(openapi: &mut utoipa::openapi::OpenApi) {
    let Some(components) = openapi.components.as_mut() else {
        return;
    };
    for name in [
        "CreateTrackingRequestAttributes",
        "UpdateTrackingRequestAttributes",
        "UpdateShipmentAttributes",
        "PartyInputAttributes",
        "InferNumberRequest",
    ] {
        if let Some(RefOr::T(Schema::Object(object))) = components.schemas.get_mut(name) {
            object.additional_properties = Some(Box::new(AdditionalProperties::FreeForm(false)));
        }
    }
}

/// The OpenAPI document of an API configured as `config`: the page sizes it states are the
/// configured ones, not literals beside the handlers; the deliveries are under `webhooks`,
/// and every body has an example, whose ids are the same at every rendering.
#[must_use]
pub fn document(config: &ApiConfig, carriers: &Arc<CarrierMatrix>) -> Value {
    let mut openapi = ApiDoc::openapi();
    close_attribute_objects(&mut openapi);
    parameters::list_parameters(&mut openapi, config);
    let mut document = serde_json::to_value(&openapi).unwrap_or(Value::Null);
    errors::derive(&mut document);
    media::apply(&mut document);
    if let Some(object) = document.as_object_mut() {
        // Relative: the API is where this document was fetched from.
        object.insert(
            "servers".into(),
            json!([{"url": "/", "description": "This Tidemark (the host that served this document)"}]),
        );
    }
    if let Some(object) = document.as_object_mut() {
        object.insert("tags".into(), tags::tags());
    }
    limits::write(&mut document, &config.limits);
    let samples = deliveries::add(&mut document, carriers);
    examples::fill(&mut document, &samples);
    if let Some(at) = deliveries::sampled_at() {
        stable_ids::renumber(&mut document, at);
    }
    document
}

/// `GET /v2/openapi.json`: the document rendered once, when the router is built.
pub fn route(
    config: &ApiConfig,
    carriers: &Arc<CarrierMatrix>,
) -> axum::routing::MethodRouter<crate::AppState> {
    // Rendered once; each answer shares the bytes instead of copying them.
    let document = bytes::Bytes::from(
        serde_json::to_vec_pretty(&document(config, carriers)).unwrap_or_default(),
    );
    axum::routing::get(move || {
        let document = document.clone();
        async move { ([(CONTENT_TYPE, "application/json")], document) }
    })
}
