//! The console's stylesheet and script, built into the binary.

use axum::http::HeaderValue;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::response::Response;

use super::extract::Segment;
use super::{ConsoleError, with_headers};

/// Every asset: its name, media type and bytes.
const ASSETS: [(&str, &str, &str); 2] = [
    (
        "console.css",
        "text/css; charset=utf-8",
        include_str!("../../assets/console/console.css"),
    ),
    (
        "console.js",
        "text/javascript; charset=utf-8",
        include_str!("../../assets/console/console.js"),
    ),
];

/// `GET /console/assets/{name}`.
pub async fn serve(Segment(name): Segment) -> Result<Response, ConsoleError> {
    let (_, media, body) = ASSETS
        .iter()
        .find(|(known, _, _)| *known == name)
        .ok_or_else(|| ConsoleError::not_found("asset"))?;
    let mut response = with_headers(([(CONTENT_TYPE, HeaderValue::from_static(media))], *body));
    response.headers_mut().insert(
        CACHE_CONTROL,
        HeaderValue::from_static("public, max-age=300"),
    );
    Ok(response)
}
