//! The API reference at `/docs`: the generated OpenAPI document (`/v2/openapi.json`)
//! rendered in the browser by Redoc, whose script is built into the binary
//! (`vendor/redoc/`, vendored unchanged), so the page works with no network beyond
//! Tidemark.

use axum::Router;
use axum::http::HeaderValue;
use axum::http::header::{CACHE_CONTROL, CONTENT_SECURITY_POLICY, CONTENT_TYPE};
use axum::response::IntoResponse;
use axum::routing::get;

use crate::AppState;

/// Redoc's standalone bundle (npm `redoc` 2.5.2, `bundles/redoc.standalone.js`).
const REDOC: &str = include_str!("../../../vendor/redoc/redoc.standalone.js");

/// The page: Redoc pointed at the document this process serves.
const PAGE: &str = r#"<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Tidemark API reference</title>
</head>
<body>
<redoc spec-url="/v2/openapi.json" expand-responses="200,201,202" required-props-first="true" path-in-middle-panel="true"></redoc>
<script src="/docs/redoc.standalone.js"></script>
</body>
</html>
"#;

/// Redoc styles its pages inline and searches in a worker it makes from a blob; it
/// fetches only the document.
const POLICY: &str = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; \
                      img-src 'self' data:; font-src 'self' data:; worker-src 'self' blob:; \
                      connect-src 'self'; frame-ancestors 'none'; base-uri 'none'";

/// The routes of the reference.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route(
            "/docs",
            get(|| async {
                (
                    [
                        (
                            CONTENT_TYPE,
                            HeaderValue::from_static("text/html; charset=utf-8"),
                        ),
                        (CONTENT_SECURITY_POLICY, HeaderValue::from_static(POLICY)),
                    ],
                    PAGE,
                )
                    .into_response()
            }),
        )
        .route(
            "/docs/redoc.standalone.js",
            get(|| async {
                (
                    [
                        (
                            CONTENT_TYPE,
                            HeaderValue::from_static("text/javascript; charset=utf-8"),
                        ),
                        (
                            CACHE_CONTROL,
                            HeaderValue::from_static("public, max-age=86400"),
                        ),
                    ],
                    REDOC,
                )
                    .into_response()
            }),
        )
}

#[cfg(test)]
mod tests {
    use sha2::{Digest, Sha256};

    /// The bundle is the one `vendor/redoc/README.md` names, unchanged.
    #[test]
    fn the_bundle_is_redoc_s_own() {
        let digest = hex::encode(Sha256::digest(super::REDOC.as_bytes()));
        assert_eq!(
            digest,
            "6beb5aea23b71d09122ee35de8f326e38aec050e774f3bfba1f34e5c36608986"
        );
    }
}
