//! The HTTP side of JSON:API documents: the media type and the response wrapper. The
//! documents themselves are `tidemark_wire::document`'s.

use axum::http::header::{CONTENT_TYPE, LOCATION};
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
pub use tidemark_wire::document::*;

/// The JSON:API media type, which every response but infer-number carries.
pub const JSON_API: &str = "application/vnd.api+json";

/// The link of the request being answered, its query included: a read's own link.
#[must_use]
pub fn request_link(uri: &axum::extract::OriginalUri) -> String {
    uri.0
        .path_and_query()
        .map_or_else(|| uri.0.path().to_owned(), ToString::to_string)
}

/// A handler's answer of one resource, or its error.
pub type One<R> = Result<JsonApi<Document<R>>, crate::ApiError>;

/// A handler's answer of a page of resources, or its error.
pub type Page<R> = Result<JsonApi<ListDocument<R>>, crate::ApiError>;

/// A JSON:API answer: status, body and, for a creation, `Location`.
#[derive(Debug)]
pub struct JsonApi<T> {
    status: StatusCode,
    location: Option<String>,
    body: T,
}

impl<T: Serialize> JsonApi<T> {
    /// 200 with `body`.
    pub fn ok(body: T) -> Self {
        Self {
            status: StatusCode::OK,
            location: None,
            body,
        }
    }

    /// 202 with `body`: accepted, the work happens in the background.
    pub fn accepted(body: T) -> Self {
        Self {
            status: StatusCode::ACCEPTED,
            location: None,
            body,
        }
    }

    /// 201 with `body`, and `Location` set to the new resource.
    pub fn created(location: String, body: T) -> Self {
        Self {
            status: StatusCode::CREATED,
            location: Some(location),
            body,
        }
    }
}

impl<T: Serialize> IntoResponse for JsonApi<T> {
    fn into_response(self) -> Response {
        let (body, location) = crate::public_links::render(|| {
            let location = self.location.as_deref().map(tidemark_wire::links::absolute);
            (serde_json::to_vec(&self.body), location)
        });
        match body {
            Ok(body) => {
                let mut response = (self.status, [(CONTENT_TYPE, JSON_API)], body).into_response();
                if let Some(location) = location.and_then(|l| HeaderValue::try_from(l).ok()) {
                    response.headers_mut().insert(LOCATION, location);
                }
                response
            }
            Err(error) => crate::ApiError::internal(&error).into_response(),
        }
    }
}
