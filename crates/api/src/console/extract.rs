//! The console's extractors: a path segment and a form body whose refusals are the
//! console's own HTML pages (with the status the API would give), never the plain text
//! axum's extractors answer with: a segment that is not text (`%ff`) is a 404 page, a form
//! over the API's body limit or too slow a 413 or 408 page.

use axum::body::Bytes;
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::request::Parts;

use super::ConsoleError;
use crate::AppState;
use crate::extract::{BodyDeadlines, PathId, QueryParams, read_body};

/// The one variable segment of a console page's path (an id).
#[derive(Debug)]
pub struct Segment(pub String);

impl FromRequestParts<AppState> for Segment {
    type Rejection = ConsoleError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ConsoleError> {
        let PathId(segment) = PathId::from_request_parts(parts, state).await?;
        Ok(Self(segment))
    }
}

/// A page's query string, as the API reads one; a parameter of JSON:API's families given
/// twice is the console's 400 page.
#[derive(Debug)]
pub struct PageQuery(pub QueryParams);

impl FromRequestParts<AppState> for PageQuery {
    type Rejection = ConsoleError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ConsoleError> {
        Ok(Self(QueryParams::from_request_parts(parts, state).await?))
    }
}

/// A form's body, read as the API reads bodies: at most `limits.body_bytes`, within the
/// body deadlines.
#[derive(Debug)]
pub struct FormBody(pub Bytes);

impl FromRequest<AppState> for FormBody {
    type Rejection = ConsoleError;

    async fn from_request(request: Request, state: &AppState) -> Result<Self, ConsoleError> {
        let deadlines = BodyDeadlines::of(&state.config);
        let bytes = read_body(request, state.config.body_bytes, deadlines).await?;
        Ok(Self(Bytes::from(bytes)))
    }
}

/// A form posted by the signed-in viewer from their own page: who (signed out: to the
/// sign-in page) and the fields, once its CSRF token and its origin are checked (a 403
/// page otherwise).
#[derive(Debug)]
pub struct Posted {
    /// Who posted it.
    pub viewer: super::Viewer,
    /// Its fields.
    pub form: super::session::FormData,
}

impl Posted {
    /// The form of `request`, its body at most `limit` bytes.
    async fn read(
        request: Request,
        state: &AppState,
        limit: usize,
    ) -> Result<Self, axum::response::Response> {
        use axum::response::IntoResponse;
        let (mut parts, body) = request.into_parts();
        let viewer = super::Viewer::from_request_parts(&mut parts, state).await?;
        let headers = parts.headers.clone();
        let request = Request::from_parts(parts, body);
        let bytes = read_body(request, limit, BodyDeadlines::of(&state.config))
            .await
            .map_err(|error| ConsoleError::from(error).into_response())?;
        let form = viewer
            .form(&headers, &Bytes::from(bytes))
            .map_err(IntoResponse::into_response)?;
        Ok(Self { viewer, form })
    }
}

impl FromRequest<AppState> for Posted {
    type Rejection = axum::response::Response;

    async fn from_request(request: Request, state: &AppState) -> Result<Self, Self::Rejection> {
        Self::read(request, state, state.config.body_bytes).await
    }
}

/// A [`Posted`] form of a bulk tracking's rows: up to [`BULK_FORM_BYTES`].
#[derive(Debug)]
pub struct PostedRows(pub Posted);

/// The most bytes a bulk tracking's confirmed rows may take (5,000 rows of a number, a
/// type and a line).
pub const BULK_FORM_BYTES: usize = 2 * 1024 * 1024;

impl FromRequest<AppState> for PostedRows {
    type Rejection = axum::response::Response;

    async fn from_request(request: Request, state: &AppState) -> Result<Self, Self::Rejection> {
        Ok(Self(Posted::read(request, state, BULK_FORM_BYTES).await?))
    }
}
