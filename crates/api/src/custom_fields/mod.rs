//! The reference API's custom fields (compat-api.md §1.8, §10): the fields an account
//! defines ([`definitions`]) and their options ([`options`]), their values, flat
//! ([`values`]) and by slug on tracking requests, shipments and containers (here), and a
//! create's `initial_custom_fields` ([`initial`]).

pub mod definitions;
pub(crate) mod initial;
pub mod options;
pub mod values;

pub use tidemark_wire::custom_field as view;

use axum::Router;
use axum::extract::Path;
use axum::http::StatusCode;
use axum::routing::{get, patch};
use tidemark_domain::custom_field::EntityType;
use tidemark_store::CustomFieldFilter;
use uuid::Uuid;

use crate::auth::{Caller, Scope};
use crate::body;
use crate::document::{Document, JsonApi, ListDocument, One, Page};
use crate::error::ErrorCode;
use crate::extract::{Input, PathId, QueryParams};
use crate::found::find;
use crate::params::{Paging, list_document, take_page};
use crate::{ApiError, AppState};
use view::CustomFieldResource;

/// The routes of custom fields.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route(
            "/v2/custom_field_definitions",
            get(definitions::list).post(definitions::create),
        )
        .route(
            "/v2/custom_field_definitions/{id}",
            get(definitions::show)
                .patch(definitions::update)
                .delete(definitions::remove),
        )
        .route(
            "/v2/custom_field_definitions/{id}/options",
            get(options::list).post(options::create),
        )
        .route(
            "/v2/custom_field_definitions/{id}/options/{option_id}",
            get(options::show)
                .patch(options::update)
                .delete(options::remove),
        )
        .route("/v2/custom_fields", get(values::list).post(values::create))
        .route(
            "/v2/custom_fields/{id}",
            get(values::show)
                .patch(values::update)
                .delete(values::remove),
        )
        .route(
            "/v2/tracking_requests/{id}/custom_fields",
            get(list_of_tracking_request).post(add_to_tracking_request),
        )
        .route(
            "/v2/tracking_requests/{id}/custom_fields/{api_slug}",
            patch(change_on_tracking_request).delete(remove_from_tracking_request),
        )
        .route(
            "/v2/shipments/{id}/custom_fields",
            get(list_of_shipment).post(add_to_shipment),
        )
        .route(
            "/v2/shipments/{id}/custom_fields/{api_slug}",
            patch(change_on_shipment).delete(remove_from_shipment),
        )
        .route(
            "/v2/containers/{id}/custom_fields",
            get(list_of_container).post(add_to_container),
        )
        .route(
            "/v2/containers/{id}/custom_fields/{api_slug}",
            patch(change_on_container).delete(remove_from_container),
        )
}

/// A kind of record custom field values are on.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Entity(EntityType);

impl Entity {
    pub(crate) const fn of(kind: EntityType) -> Self {
        Self(kind)
    }

    /// The id of the record `id` of this kind in `caller`'s account; 404 when there is none.
    pub(crate) async fn record(
        self,
        state: &AppState,
        caller: Caller,
        id: &str,
    ) -> Result<Uuid, ApiError> {
        Ok(match self.0 {
            EntityType::TrackingRequest => {
                find::<tidemark_domain::TrackingRequest>(state, caller, id)
                    .await?
                    .id
                    .as_uuid()
            }
            EntityType::Shipment => find::<tidemark_domain::Shipment>(state, caller, id)
                .await?
                .id
                .as_uuid(),
            EntityType::Container => find::<tidemark_domain::Container>(state, caller, id)
                .await?
                .id
                .as_uuid(),
        })
    }

    /// The path of the record's values.
    fn path(self, id: Uuid) -> String {
        format!("/v2/{}s/{id}/custom_fields", self.0.resource_type())
    }

    /// A page of the record's values.
    async fn list(
        self,
        scope: &Scope,
        id: &str,
        mut query: QueryParams,
    ) -> Page<CustomFieldResource> {
        let page = take_page(&mut query, &scope.config)?;
        query.finish()?;
        let id = self.record(scope, scope.caller, id).await?;
        let filter = CustomFieldFilter {
            entity_id: vec![id],
            ..CustomFieldFilter::default()
        };
        let result = scope
            .store
            .list_custom_fields(scope.account(), &filter, page)
            .await?;
        let data = values::resources(scope, &result.items).await?;
        Ok(JsonApi::ok(list_document(
            &self.path(id),
            &query,
            page,
            result.total,
            data,
        )))
    }

    /// Sets the value of the field named in the body (`slug` given: that one's).
    async fn set(
        self,
        scope: &Scope,
        id: &str,
        slug: Option<&str>,
        document: &serde_json::Value,
    ) -> Result<Document<CustomFieldResource>, ApiError> {
        let data = body::data(document)?;
        let (given, value) = values::value_of(data, slug.is_none(), None)?;
        let id = self.record(scope, scope.caller, id).await?;
        let slug = slug.map(str::to_owned).or(given).unwrap_or_default();
        let set = scope
            .custom_fields
            .set(scope.account(), self.0, id, &slug, value)
            .await?;
        Ok(Document::new(
            view::resource(&set.field, &set.definition, &set.options),
            view::path(set.field.id),
        ))
    }

    /// Deletes the record's value of the field `slug`.
    async fn remove(self, scope: &Scope, id: &str, slug: &str) -> Result<StatusCode, ApiError> {
        let id = self.record(scope, scope.caller, id).await?;
        let no_value = || {
            ErrorCode::NotFound.error(format!(
                "the record has no value of a custom field {slug:?}"
            ))
        };
        let (definition, _) = scope
            .custom_fields
            .definition(scope.account(), self.0, slug)
            .await
            .map_err(|_| no_value())?;
        let filter = CustomFieldFilter {
            entity_id: vec![id],
            definition_id: vec![definition.id],
            ..CustomFieldFilter::default()
        };
        let found = scope
            .store
            .list_custom_fields(
                scope.account(),
                &filter,
                tidemark_store::PageRequest::new(1, 1),
            )
            .await?;
        let Some(field) = found.items.first() else {
            return Err(no_value());
        };
        scope
            .store
            .delete_custom_field(scope.account(), field.id)
            .await?;
        Ok(StatusCode::NO_CONTENT)
    }
}

macro_rules! handlers {
    ($kind:ident, $tag:literal, $what:literal, $path:literal,
     $list:ident, $list_op:literal, $add:ident, $add_op:literal,
     $change:ident, $change_op:literal, $remove:ident, $remove_op:literal) => {
        #[doc = concat!("A ", $what, "'s custom field values.")]
        #[utoipa::path(get, path = $path, operation_id = $list_op, tag = $tag,
            summary = concat!("A ", $what, "'s custom field values."),
            params(("id" = String, Path, description = concat!("The ", $what, "'s id")), Paging),
            responses((status = 200, description = "A page of the record's values.", body = ListDocument<CustomFieldResource>)),
        )]
        pub async fn $list(scope: Scope, PathId(id): PathId, query: QueryParams) -> Page<CustomFieldResource> {
            Entity(EntityType::$kind).list(&scope, &id, query).await
        }

        #[doc = concat!("Set a custom field value on a ", $what, " (one it has of the field is replaced).")]
        #[utoipa::path(post, path = $path, operation_id = $add_op, tag = $tag,
            summary = concat!("Set a custom field value on a ", $what, " (one it has of the field is replaced)."),
            params(("id" = String, Path, description = concat!("The ", $what, "'s id"))),
            request_body(content = view::CustomFieldDocument),
            responses(
                (status = 201, description = "Set.", body = Document<CustomFieldResource>),
                (status = 422, description = "No field of this kind of record has the `api_slug` (`unknown_custom_field`), or the value does not fit its data type (`invalid`)."),
            ),
        )]
        pub async fn $add(scope: Scope, PathId(id): PathId, Input(body): Input) -> One<CustomFieldResource> {
            let document = Entity(EntityType::$kind).set(&scope, &id, None, &body).await?;
            let location = document.data.links.self_.clone();
            Ok(JsonApi::created(location, document))
        }

        #[doc = concat!("Set the value of the field `api_slug` on a ", $what, ".")]
        #[utoipa::path(patch, path = concat!($path, "/{api_slug}"), operation_id = $change_op, tag = $tag,
            summary = concat!("Set the value of the field `api_slug` on a ", $what, "."),
            params(("id" = String, Path, description = concat!("The ", $what, "'s id")), ("api_slug" = String, Path, description = "The field's api_slug")),
            request_body(content = view::CustomFieldDocument),
            responses(
                (status = 200, description = "Set.", body = Document<CustomFieldResource>),
                (status = 422, description = "No such field, or the value does not fit its data type."),
            ),
        )]
        pub async fn $change(
            scope: Scope,
            Path((id, slug)): Path<(String, String)>,
            Input(body): Input,
        ) -> One<CustomFieldResource> {
            Ok(JsonApi::ok(Entity(EntityType::$kind).set(&scope, &id, Some(&slug), &body).await?))
        }

        #[doc = concat!("Delete a ", $what, "'s value of the field `api_slug`.")]
        #[utoipa::path(delete, path = concat!($path, "/{api_slug}"), operation_id = $remove_op, tag = $tag,
            summary = concat!("Delete a ", $what, "'s value of the field `api_slug`."),
            params(("id" = String, Path, description = concat!("The ", $what, "'s id")), ("api_slug" = String, Path, description = "The field's api_slug")),
            responses(
                (status = 204, description = "Deleted."),
                (status = 404, description = "The record has no value of the field."),
            ),
        )]
        pub async fn $remove(
            scope: Scope,
            Path((id, slug)): Path<(String, String)>,
            query: QueryParams,
        ) -> Result<StatusCode, ApiError> {
            query.finish()?;
            Entity(EntityType::$kind).remove(&scope, &id, &slug).await
        }
    };
}

handlers!(
    TrackingRequest,
    "Tracking requests",
    "tracking request",
    "/v2/tracking_requests/{id}/custom_fields",
    list_of_tracking_request,
    "listTrackingRequestCustomFields",
    add_to_tracking_request,
    "createTrackingRequestCustomField",
    change_on_tracking_request,
    "updateTrackingRequestCustomField",
    remove_from_tracking_request,
    "deleteTrackingRequestCustomField"
);
handlers!(
    Shipment,
    "Shipments",
    "shipment",
    "/v2/shipments/{id}/custom_fields",
    list_of_shipment,
    "listShipmentCustomFields",
    add_to_shipment,
    "createShipmentCustomField",
    change_on_shipment,
    "updateShipmentCustomField",
    remove_from_shipment,
    "deleteShipmentCustomField"
);
handlers!(
    Container,
    "Containers",
    "container",
    "/v2/containers/{id}/custom_fields",
    list_of_container,
    "listContainerCustomFields",
    add_to_container,
    "createContainerCustomField",
    change_on_container,
    "updateContainerCustomField",
    remove_from_container,
    "deleteContainerCustomField"
);
