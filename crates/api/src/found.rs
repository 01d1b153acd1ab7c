//! A record of the caller's account named by the id in the path, or the JSON:API 404: the
//! [`Found`] extractor, for every `/{id}` route of an account's records. A malformed id is
//! as unknown as another account's record (api.md §1).

use std::marker::PhantomData;

use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::request::Parts;
use tidemark_domain::custom_field::{CustomField, Definition};
use tidemark_domain::webhook::{Webhook, WebhookNotification};
use tidemark_domain::{
    AccountId, Container, ContainerId, CustomFieldDefinitionId, CustomFieldId, Party, PartyId,
    Shipment, ShipmentId, TrackingRequest, TrackingRequestId, WebhookId, WebhookNotificationId,
};
use tidemark_store::{Store, StoreError};

use crate::auth::Caller;
use crate::extract::{Input, PathId, QueryParams};
use crate::{ApiError, AppState};

/// A kind of record an account owns, read by the id a path gives.
#[async_trait::async_trait]
pub trait Owned: Sized + Send {
    /// What it is called, in words ("tracking request").
    const WHAT: &'static str;

    /// Record `id` (as the path spells it) of `account`; `None` when there is none, or when
    /// `id` is not an id of this kind.
    async fn read(
        store: &dyn Store,
        account: AccountId,
        id: &str,
    ) -> Result<Option<Self>, StoreError>;
}

/// Implements [`Owned`] for a record read by `Store::$read(account, $Id)`.
macro_rules! owned {
    ($($record:ty => $id:ty, $read:ident, $what:literal;)*) => {$(
        #[async_trait::async_trait]
        impl Owned for $record {
            const WHAT: &'static str = $what;

            async fn read(
                store: &dyn Store,
                account: AccountId,
                id: &str,
            ) -> Result<Option<Self>, StoreError> {
                match <$id>::parse(id) {
                    Some(id) => store.$read(account, id).await,
                    None => Ok(None),
                }
            }
        }
    )*};
}

owned! {
    TrackingRequest => TrackingRequestId, tracking_request, "tracking request";
    Shipment => ShipmentId, shipment, "shipment";
    Container => ContainerId, container, "container";
    Party => PartyId, party, "party";
    Definition => CustomFieldDefinitionId, definition, "custom field definition";
    CustomField => CustomFieldId, custom_field, "custom field";
    Webhook => WebhookId, webhook, "webhook";
    WebhookNotification => WebhookNotificationId, webhook_notification, "webhook notification";
}

/// The 404 of a record of kind `T` that the account does not have.
#[must_use]
pub fn missing<T: Owned>() -> ApiError {
    ApiError::not_found(format!("no {} has this id in this account", T::WHAT))
}

/// Record `id` of `T` of the caller's account, or the 404.
///
/// # Errors
/// The 404, or the store's failure.
pub async fn find<T: Owned>(state: &AppState, caller: Caller, id: &str) -> Result<T, ApiError> {
    T::read(state.store.as_ref(), caller.account_id, id)
        .await?
        .ok_or_else(missing::<T>)
}

/// The record of kind `T` the path's id names in the caller's account, read when the
/// handler asks ([`Found::read`]): after it has checked its query, so a bad parameter is a
/// 400 whether or not the record exists.
#[derive(Debug)]
pub struct Found<T> {
    caller: Caller,
    id: String,
    kind: PhantomData<fn() -> T>,
}

impl<T: Owned> Found<T> {
    /// The record, or the 404.
    ///
    /// # Errors
    /// The 404, or the store's failure.
    pub async fn read(self, state: &AppState) -> Result<T, ApiError> {
        find(state, self.caller, &self.id).await
    }
}

impl<T: Owned> FromRequestParts<AppState> for Found<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let caller = Caller::from_request_parts(parts, state).await?;
        let PathId(id) = PathId::from_request_parts(parts, state).await?;
        Ok(Self {
            caller,
            id,
            kind: PhantomData,
        })
    }
}

/// The record of kind `T` the path's id names in the caller's account, for an operation
/// that takes no query parameter and no body: the query is checked (a 400) before the record
/// is read (a 404), as a handler with [`Found`] does.
#[derive(Debug)]
pub struct Record<T>(pub T);

impl<T: Owned> FromRequestParts<AppState> for Record<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let found = Found::<T>::from_request_parts(parts, state).await?;
        QueryParams::from_request_parts(parts, state)
            .await?
            .finish()?;
        Ok(Self(found.read(state).await?))
    }
}

/// The record of kind `T` the path's id names in the caller's account and the JSON body
/// that changes it, for an operation that takes no query parameter: checked in the order
/// a handler with [`Found`], [`QueryParams`] and a body checks them (the body's media type
/// and syntax, the query, then the record).
#[derive(Debug)]
pub struct Edit<T> {
    /// The record as it stands.
    pub record: T,
    /// The body, parsed as JSON.
    pub body: serde_json::Value,
}

impl<T: Owned> FromRequest<AppState> for Edit<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &AppState) -> Result<Self, ApiError> {
        let (mut parts, body) = request.into_parts();
        let found = Found::<T>::from_request_parts(&mut parts, state).await?;
        let Input(body) = Input::from_request(Request::from_parts(parts, body), state).await?;
        let record = found.read(state).await?;
        Ok(Self { record, body })
    }
}

/// The path's `id` of [`Record`] and [`Edit`], described as [`Found`]'s.
macro_rules! described_as_found {
    ($($wrapper:ident),*) => {$(
        impl<T: Owned> utoipa::IntoParams for $wrapper<T> {
            fn into_params(
                parameter_in: impl Fn() -> Option<utoipa::openapi::path::ParameterIn>,
            ) -> Vec<utoipa::openapi::path::Parameter> {
                Found::<T>::into_params(parameter_in)
            }
        }
    )*};
}

described_as_found!(Record, Edit);

/// The path's `id`, for `#[utoipa::path(params(Found<T>, …))]`: described once, from
/// what `T` is called.
impl<T: Owned> utoipa::IntoParams for Found<T> {
    fn into_params(
        _: impl Fn() -> Option<utoipa::openapi::path::ParameterIn>,
    ) -> Vec<utoipa::openapi::path::Parameter> {
        use utoipa::openapi::path::{ParameterBuilder, ParameterIn};
        use utoipa::openapi::{ObjectBuilder, Required, Type};
        vec![
            ParameterBuilder::new()
                .name("id")
                .parameter_in(ParameterIn::Path)
                .required(Required::True)
                .description(Some(format!("The {}'s id", T::WHAT)))
                .schema(Some(ObjectBuilder::new().schema_type(Type::String)))
                .build(),
        ]
    }
}
