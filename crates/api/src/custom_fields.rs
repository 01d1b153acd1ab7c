//! The reference API's custom fields (compat-api.md §1.8): values of an account's custom
//! field definitions on tracking requests, shipments and containers, and a create's
//! `initial_custom_fields`. Tidemark has no custom field definitions, so a record's list
//! is always empty and every value is refused as the reference refuses a value of a
//! definition the account does not have: 422 `unknown_custom_field`. A client that reads
//! a record's custom fields finds none, where a 404 would tell it the record is gone.

pub use tidemark_wire::custom_field as view;

use axum::Router;
use axum::extract::State;
use axum::routing::get;
use serde_json::{Map, Value};
use tidemark_domain::ValidationCode;

use crate::auth::Caller;
use crate::body::{self, Attributes, Problem, escape_pointer};
use crate::document::{JsonApi, ListDocument, Page};
use crate::extract::{JsonBody, PathId, QueryParams};
use crate::found::find;
use crate::params::{Paging, list_document, take_page};
use crate::{ApiError, AppState};
use view::CustomFieldResource;

/// The routes of custom field values.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route(
            "/v2/tracking_requests/{id}/custom_fields",
            get(list_of_tracking_request).post(add_to_tracking_request),
        )
        .route(
            "/v2/shipments/{id}/custom_fields",
            get(list_of_shipment).post(add_to_shipment),
        )
        .route(
            "/v2/containers/{id}/custom_fields",
            get(list_of_container).post(add_to_container),
        )
}

/// A record custom field values are on.
#[derive(Debug, Clone, Copy)]
enum Entity {
    TrackingRequest,
    Shipment,
    Container,
}

impl Entity {
    /// The path of the record's custom fields; 404 when the account has no such record.
    async fn custom_fields(
        self,
        state: &AppState,
        caller: Caller,
        id: &str,
    ) -> Result<String, ApiError> {
        let record = match self {
            Self::TrackingRequest => crate::tracking_requests::view::path(
                find::<tidemark_domain::TrackingRequest>(state, caller, id)
                    .await?
                    .id,
            ),
            Self::Shipment => crate::shipments::view::path(
                find::<tidemark_domain::Shipment>(state, caller, id)
                    .await?
                    .id,
            ),
            Self::Container => crate::containers::view::path(
                find::<tidemark_domain::Container>(state, caller, id)
                    .await?
                    .id,
            ),
        };
        Ok(format!("{record}/custom_fields"))
    }

    /// A page of the record's custom field values: none.
    async fn list(
        self,
        state: &AppState,
        caller: Caller,
        id: &str,
        mut query: QueryParams,
    ) -> Page<CustomFieldResource> {
        let page = take_page(&mut query, &state.config)?;
        query.finish()?;
        let path = self.custom_fields(state, caller, id).await?;
        Ok(JsonApi::ok(list_document(
            &path,
            &query,
            page,
            0,
            Vec::new(),
        )))
    }

    /// A value for the record: checked, then refused, as no definition has its slug.
    async fn add(
        self,
        state: &AppState,
        caller: Caller,
        id: &str,
        query: QueryParams,
        document: &Value,
    ) -> Result<(), ApiError> {
        query.finish()?;
        self.custom_fields(state, caller, id).await?;
        let data = body::data(document)?;
        body::check_type(data, view::TYPE)?;
        body::check_no_id(data)?;
        let mut attributes = Attributes::of(data);
        let slug = attributes.raw("api_slug");
        let value = attributes.raw("value");
        attributes.reject_unknown();
        let mut problems = attributes.problems;
        if value.is_none() {
            problems.push(blank("/data/attributes/value", "value is required"));
        }
        let at = "/data/attributes/api_slug";
        problems.push(match slug {
            None | Some(Value::Null) => blank(at, "api_slug is required"),
            Some(Value::String(slug)) if slug.trim().is_empty() => {
                blank(at, "api_slug must not be blank")
            }
            Some(Value::String(slug)) => unknown(at.to_owned(), slug),
            Some(_) => (
                at.to_owned(),
                ValidationCode::Invalid,
                "api_slug must be a string".to_owned(),
            ),
        });
        Err(ApiError::unprocessable(problems))
    }
}

fn blank(pointer: &str, detail: &str) -> Problem {
    (pointer.to_owned(), ValidationCode::Blank, detail.to_owned())
}

/// `unknown_custom_field` for `slug` at `pointer`.
fn unknown(pointer: String, slug: &str) -> Problem {
    (
        pointer,
        ValidationCode::UnknownCustomField,
        format!(
            "no custom field definition has the api_slug {slug:?}: Tidemark has no custom field definitions"
        ),
    )
}

/// The problems of a create's `initial_custom_fields` (absent or null: none): every value
/// is `unknown_custom_field`, at its `api_slug`; a list of another shape is `invalid`.
pub(crate) fn initial_values(given: Option<&Value>) -> Vec<Problem> {
    const AT: &str = "/data/attributes/initial_custom_fields";
    let invalid =
        |pointer: String, detail: &str| (pointer, ValidationCode::Invalid, detail.to_owned());
    let lists = match given {
        None | Some(Value::Null) => return Vec::new(),
        Some(Value::Object(lists)) => lists,
        Some(_) => {
            return vec![invalid(
                AT.to_owned(),
                "initial_custom_fields must be an object of shipment and containers lists",
            )];
        }
    };
    let mut problems = Vec::new();
    for (key, list) in lists {
        let at = format!("{AT}/{}", escape_pointer(key));
        match (key.as_str(), list) {
            ("shipment" | "containers", Value::Null) => {}
            ("shipment" | "containers", Value::Array(values)) => {
                for (index, value) in values.iter().enumerate() {
                    problems.push(initial_value(&format!("{at}/{index}"), value));
                }
            }
            ("shipment" | "containers", _) => {
                problems.push(invalid(at, "must be an array of custom field values"))
            }
            _ => problems.push(invalid(
                at,
                "initial_custom_fields holds only shipment and containers",
            )),
        }
    }
    problems
}

/// The problem of one staged value at `at`.
fn initial_value(at: &str, value: &Value) -> Problem {
    let slug = value
        .as_object()
        .and_then(|value: &Map<String, Value>| value.get("api_slug"));
    match slug {
        Some(Value::String(slug)) if !slug.trim().is_empty() => {
            unknown(format!("{at}/api_slug"), slug)
        }
        _ => blank(
            &format!("{at}/api_slug"),
            "each value names its definition's api_slug",
        ),
    }
}

macro_rules! handlers {
    ($entity:ident, $tag:literal, $what:literal, $list:ident, $list_path:literal, $list_op:literal, $add:ident, $add_op:literal) => {
        #[doc = concat!("A ", $what, "'s custom field values: none, as Tidemark has no custom field definitions.")]
        #[utoipa::path(
            get,
            path = $list_path,
            summary = concat!("A ", $what, "'s custom field values: none, as Tidemark has no custom field definitions."),
            operation_id = $list_op,
            tag = $tag,
            params(("id" = String, Path, description = concat!("The ", $what, "'s id")), Paging),
            responses(
                (status = 200, description = "An empty page: Tidemark has no custom field definitions.", body = ListDocument<CustomFieldResource>,
                    example = json!({
                        "data": [],
                        "links": {
                            "self": concat!($list_path, "?page%5Bnumber%5D=1&page%5Bsize%5D=30"),
                            "current": concat!($list_path, "?page%5Bnumber%5D=1&page%5Bsize%5D=30"),
                            "first": concat!($list_path, "?page%5Bnumber%5D=1&page%5Bsize%5D=30"),
                            "last": concat!($list_path, "?page%5Bnumber%5D=1&page%5Bsize%5D=30"),
                        },
                        "meta": {"size": 30, "total": 0, "pagination": {"records": 0, "current": 1, "last": 1, "next": null}},
                    })),
            ),
        )]
        pub async fn $list(
            State(state): State<AppState>,
            caller: Caller,
            PathId(id): PathId,
            query: QueryParams,
        ) -> Page<CustomFieldResource> {
            Entity::$entity.list(&state, caller, &id, query).await
        }

        #[doc = concat!("Set a custom field value on a ", $what, ": refused, as no definition has its `api_slug`.")]
        #[utoipa::path(
            post,
            path = $list_path,
            summary = concat!("Set a custom field value on a ", $what, ": refused, as no definition has its `api_slug`."),
            operation_id = $add_op,
            tag = $tag,
            params(("id" = String, Path, description = concat!("The ", $what, "'s id"))),
            request_body(content = view::CustomFieldDocument),
            responses((status = 422, description = "`unknown_custom_field`: no custom field definition has this api_slug (Tidemark has none); or the value is missing.")),
        )]
        pub async fn $add(
            State(state): State<AppState>,
            caller: Caller,
            PathId(id): PathId,
            query: QueryParams,
            JsonBody(document): JsonBody,
        ) -> Result<(), ApiError> {
            Entity::$entity.add(&state, caller, &id, query, &document).await
        }
    };
}

handlers!(
    TrackingRequest,
    "Tracking requests",
    "tracking request",
    list_of_tracking_request,
    "/v2/tracking_requests/{id}/custom_fields",
    "listTrackingRequestCustomFields",
    add_to_tracking_request,
    "createTrackingRequestCustomField"
);
handlers!(
    Shipment,
    "Shipments",
    "shipment",
    list_of_shipment,
    "/v2/shipments/{id}/custom_fields",
    "listShipmentCustomFields",
    add_to_shipment,
    "createShipmentCustomField"
);
handlers!(
    Container,
    "Containers",
    "container",
    list_of_container,
    "/v2/containers/{id}/custom_fields",
    "listContainerCustomFields",
    add_to_container,
    "createContainerCustomField"
);
