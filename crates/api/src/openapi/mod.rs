//! The OpenAPI 3.1 document, generated from the handlers and served at `/v2/openapi.json`.
//!
//! Error answers every operation can give (401, 406, 429, 500, and for bodies 400, 413,
//! 415) are added to each operation here once, instead of on every handler.

mod deliveries;
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
use utoipa::openapi::path::Operation;
use utoipa::openapi::schema::AdditionalProperties;
use utoipa::openapi::security::{ApiKey, ApiKeyValue, HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::openapi::{
    Content, Header, ObjectBuilder, Ref, RefOr, Response, ResponseBuilder, Schema, Type,
};
use utoipa::{Modify, OpenApi};

use crate::{
    callbacks, containers, custom_fields, health, infer_number, parties, reference_data,
    routing_data, search, shipments, shipping_lines, tracking_requests, webhook_notifications,
    webhooks,
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
        reference_data::show_vessel,
        routing_data::container_map,
        routing_data::future_positions,
        routing_data::future_positions_with_coordinates,
        custom_fields::list_of_tracking_request,
        custom_fields::add_to_tracking_request,
        custom_fields::list_of_shipment,
        custom_fields::add_to_shipment,
        custom_fields::list_of_container,
        custom_fields::add_to_container,
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
        webhook_notifications::examples::RecordedEvent
    )),
    security(("api_key" = [])),
    modifiers(&CommonResponses),
)]
struct ApiDoc;

struct CommonResponses;

fn error_response(description: &str, headers: &[(&str, &str)]) -> RefOr<Response> {
    let mut builder = ResponseBuilder::new().description(description).content(
        crate::document::JSON_API,
        Content::new(Some(Ref::from_schema_name("ErrorDocument"))),
    );
    for (name, about) in headers {
        let mut header = Header::new(ObjectBuilder::new().schema_type(Type::String));
        header.description = Some((*about).to_owned());
        builder = builder.header(*name, header);
    }
    RefOr::T(builder.build())
}

fn add(operation: &mut Operation, status: &str, response: RefOr<Response>) {
    operation
        .responses
        .responses
        .entry(status.to_owned())
        .or_insert(response);
}

/// Adds `text` to the description of the answer of `status`, or adds that answer.
fn mention(operation: &mut Operation, status: &str, text: &str) {
    match operation.responses.responses.get_mut(status) {
        Some(RefOr::T(response)) => {
            response.description = format!("{} Or {text}", response.description)
        }
        Some(RefOr::Ref(_)) => {}
        None => add(operation, status, error_response(text, &[])),
    }
}

impl Modify for CommonResponses {
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
            // Health answers anyone; the callbacks of lines and terminals answer for themselves.
            let public = path == "/healthz" || path == "/readyz" || path.contains("-callbacks/");
            let patch = item.patch.iter_mut().map(|operation| (true, operation));
            let others = [
                &mut item.get,
                &mut item.post,
                &mut item.delete,
                &mut item.put,
            ]
            .into_iter()
            .flatten()
            .map(|operation| (false, operation));
            for (is_patch, operation) in patch.chain(others) {
                add(
                    operation,
                    "500",
                    error_response("`internal_error`: an unexpected failure, logged.", &[]),
                );
                add(
                    operation,
                    "406",
                    error_response(
                        "`not_acceptable`: Accept names JSON:API only with unsupported parameters.",
                        &[],
                    ),
                );
                if !public {
                    let names_a_resource = path.contains('{');
                    add_caller_errors(operation, names_a_resource);
                    let json_api = media::json_api(path, operation.operation_id.as_deref());
                    add_body_errors(operation, is_patch, !names_a_resource, json_api);
                }
            }
            if let Some(post) = item.post.as_mut().filter(|_| !public) {
                parameters::idempotency_key(post);
                mention(
                    post,
                    "409",
                    "`idempotency_in_progress`: the first request with this `Idempotency-Key` is still being answered.",
                );
                mention(
                    post,
                    "422",
                    "`idempotency_key_reused`: this `Idempotency-Key` was sent with another request.",
                );
            }
        }
    }
}

/// What any authenticated operation can answer: a bad parameter, a bad key, the rate
/// limit, and on a resource's path, an id that is not there.
fn add_caller_errors(operation: &mut Operation, names_a_resource: bool) {
    add(
        operation,
        "400",
        error_response(
            "`malformed_json`, `invalid_parameter`, `invalid_filter` or `invalid_include`.",
            &[],
        ),
    );
    add(
        operation,
        "401",
        error_response(
            "`unauthorized`: the API key is missing, malformed, unknown or revoked.",
            &[("WWW-Authenticate", "Token")],
        ),
    );
    let rate_limit_headers = [
        ("Retry-After", "Seconds to wait"),
        ("RateLimit-Limit", "Requests allowed per minute"),
        ("RateLimit-Remaining", "Requests left"),
        (
            "RateLimit-Reset",
            "Seconds until the limit is fully restored",
        ),
    ];
    add(
        operation,
        "429",
        error_response(
            "`rate_limited`: over this account's limit.",
            &rate_limit_headers,
        ),
    );
    if names_a_resource {
        add(
            operation,
            "404",
            error_response("`not_found`: no such resource in this account.", &[]),
        );
    }
}

/// What an operation with a body can answer: its size and media type, and for a JSON:API
/// document, the resource's type (and a change's id), a client-chosen id on a create, and
/// the validation of its members. An operation that says more about one keeps its own.
fn add_body_errors(operation: &mut Operation, is_patch: bool, creates: bool, json_api: bool) {
    if operation.request_body.is_none() {
        return;
    }
    if json_api {
        let mismatch = if is_patch {
            "`type_mismatch` or `id_mismatch`: `data.type` or `data.id` is not this resource's."
        } else {
            "`type_mismatch`: `data.type` is not this resource's."
        };
        add(operation, "409", error_response(mismatch, &[]));
        if creates {
            add(
                operation,
                "403",
                error_response("`client_id_not_allowed`: the body carried `data.id`.", &[]),
            );
        }
        add(
            operation,
            "422",
            error_response(
                "Validation failed: `errors[].source.pointer` names each member.",
                &[],
            ),
        );
    }
    add(
        operation,
        "413",
        error_response("`payload_too_large`: the body is over the limit.", &[]),
    );
    add(
        operation,
        "415",
        error_response("`unsupported_media_type`.", &[]),
    );
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
