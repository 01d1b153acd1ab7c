//! The lists' parameters as the configuration and the domain decide them, and the
//! `Idempotency-Key` header every authenticated POST takes.

use tidemark_domain::idempotency::{KEY_PATTERN, MAX_KEY_LENGTH};
use tidemark_domain::webhook::DeliveryStatus;
use tidemark_domain::{ContainerStatus, RequestStatus, RequestType};
use utoipa::openapi::path::{Operation, ParameterBuilder, ParameterIn};
use utoipa::openapi::{ObjectBuilder, RefOr, Required, Schema, Type};

use crate::ApiConfig;

/// States what the configuration and the domain decide of the lists' parameters: each
/// list's `page[size]` limit and default as configured (the carrier list and a container's
/// raw events default to a whole page, so clients reading only `data` get them all, every
/// other list to `page_size_default`), `page[number]`'s limit, and the values of each filter
/// whose values are a domain enumeration, from the enumeration itself.
pub fn list_parameters(openapi: &mut utoipa::openapi::OpenApi, config: &ApiConfig) {
    let container_statuses = ContainerStatus::ALL.map(ContainerStatus::as_str);
    let request_statuses = RequestStatus::ALL.each_ref().map(RequestStatus::as_str);
    let request_types = RequestType::ALL.each_ref().map(RequestType::as_str);
    let delivery_statuses = DeliveryStatus::ALL.map(DeliveryStatus::as_str);
    let enumerations: [(&str, &str, &[&str]); 4] = [
        (
            "/v2/containers",
            "filter[current_status]",
            &container_statuses,
        ),
        ("/v2/tracking_requests", "filter[status]", &request_statuses),
        (
            "/v2/tracking_requests",
            "filter[request_type]",
            &request_types,
        ),
        (
            "/v2/webhook_notifications",
            "filter[delivery_status]",
            &delivery_statuses,
        ),
    ];
    for (path, item) in &mut openapi.paths.paths {
        let default = if path.ends_with("/raw_events") || path == "/v2/shipping_lines" {
            config.page_size_max
        } else {
            config.page_size_default
        };
        let Some(get) = item.get.as_mut() else {
            continue;
        };
        for parameter in get.parameters.iter_mut().flatten() {
            let Some(RefOr::T(Schema::Object(object))) = parameter.schema.as_mut() else {
                continue;
            };
            match parameter.name.as_str() {
                "page[number]" => {
                    object.maximum = Some(f64::from(crate::params::MAX_PAGE_NUMBER).into());
                }
                "page[size]" => {
                    object.maximum = Some(f64::from(config.page_size_max).into());
                    object.default = Some(default.into());
                    parameter.description = Some(format!(
                        "Items per page (default {default}, at most {})",
                        config.page_size_max
                    ));
                }
                name => {
                    let values = enumerations
                        .iter()
                        .find(|(list, key, _)| list == path && *key == name);
                    if let Some((_, _, values)) = values {
                        object.pattern = Some(crate::params::list_pattern(values));
                    }
                }
            }
        }
    }
}

/// Adds the optional `Idempotency-Key` header (`api/src/idempotency.rs`) to an
/// authenticated POST.
pub fn idempotency_key(operation: &mut Operation) {
    let schema = ObjectBuilder::new()
        .schema_type(Type::String)
        .min_length(Some(1))
        .max_length(Some(MAX_KEY_LENGTH))
        .pattern(Some(KEY_PATTERN));
    let header = ParameterBuilder::new()
        .name(crate::idempotency::HEADER)
        .parameter_in(ParameterIn::Header)
        .required(Required::False)
        .description(Some(
            "A key of your choosing (a UUID, say) that makes a retry safe: the same key with \
             the same request replays the first answer for 24 hours, with \
             `Idempotent-Replayed: true`; with another request it is refused (422 \
             `idempotency_key_reused`); while the first is still being answered a retry waits, \
             then gets 409 `idempotency_in_progress`.",
        ))
        .schema(Some(schema))
        .build();
    operation
        .parameters
        .get_or_insert_with(Vec::new)
        .push(header);
}
