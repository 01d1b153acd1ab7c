//! JSON:API content negotiation (api.md §1; `reference/jsonapi.md` JA-01 to JA-06).
//!
//! Bodies may be `application/vnd.api+json` (with at most `profile`; we support no `ext`)
//! or `application/json`, which clients of the reference API send. An `Accept` header whose
//! every JSON:API instance carries another parameter is answered 406.

use axum::extract::Request;
use axum::http::HeaderMap;
use axum::http::header::{ACCEPT, CONTENT_TYPE};
use axum::middleware::Next;
use axum::response::Response;
use mime::Mime;

use crate::ApiError;
use crate::document::JSON_API;
use crate::error::{ErrorCode, ErrorSource};

/// Whether a JSON:API media type's parameters are acceptable: only `profile` (ignored),
/// and no `ext`, since Tidemark implements no extension. `q` is an Accept weight.
fn acceptable_parameters(media: &Mime) -> bool {
    media.params().all(|(name, _)| {
        name.as_str().eq_ignore_ascii_case("profile") || name.as_str().eq_ignore_ascii_case("q")
    })
}

/// Answers 406 when `Accept` lists JSON:API only with parameters we cannot honour.
pub async fn check_accept(request: Request, next: Next) -> Result<Response, ApiError> {
    if !accepts_json_api(request.headers()) {
        return Err(ErrorCode::NotAcceptable.at(
            format!(
                "every {JSON_API} in Accept carries a parameter other than profile; send \
                 Accept: {JSON_API} without parameters"
            ),
            ErrorSource::Header("Accept".into()),
        ));
    }
    Ok(next.run(request).await)
}

fn accepts_json_api(headers: &HeaderMap) -> bool {
    let mut json_api_instances = 0;
    let mut acceptable = 0;
    for value in headers.get_all(ACCEPT) {
        let Ok(text) = value.to_str() else { continue };
        for range in text.split(',') {
            let Ok(media) = range.trim().parse::<Mime>() else {
                continue;
            };
            if media.essence_str().eq_ignore_ascii_case(JSON_API) {
                json_api_instances += 1;
                if acceptable_parameters(&media) {
                    acceptable += 1;
                }
            }
        }
    }
    json_api_instances == 0 || acceptable > 0
}

/// Checks the `Content-Type` of a request that carries a body.
///
/// # Errors
/// 415 when it is missing, not JSON, or JSON:API with parameters we do not support.
pub fn check_content_type(headers: &HeaderMap) -> Result<(), ApiError> {
    let unsupported = |detail: String| {
        ErrorCode::UnsupportedMediaType.at(detail, ErrorSource::Header("Content-Type".into()))
    };
    let Some(value) = headers.get(CONTENT_TYPE) else {
        return Err(unsupported(format!(
            "send the body with Content-Type: {JSON_API}"
        )));
    };
    let media = value
        .to_str()
        .ok()
        .and_then(|text| text.parse::<Mime>().ok())
        .ok_or_else(|| unsupported("the Content-Type header is not a media type".to_owned()))?;
    if media.essence_str().eq_ignore_ascii_case(JSON_API) {
        let only_profile = media
            .params()
            .all(|(name, _)| name.as_str().eq_ignore_ascii_case("profile"));
        if only_profile {
            return Ok(());
        }
        return Err(unsupported(format!(
            "{JSON_API} takes no parameters here other than profile (no ext is supported)"
        )));
    }
    if media.essence_str().eq_ignore_ascii_case("application/json") {
        return Ok(());
    }
    Err(unsupported(format!(
        "the body must be {JSON_API} or application/json"
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(name: axum::http::HeaderName, value: &'static str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(name, HeaderValue::from_static(value));
        headers
    }

    #[test]
    fn accept_follows_the_json_api_rules() {
        for (accept, ok) in [
            ("application/vnd.api+json", true),
            ("*/*", true),
            ("application/json", true),
            ("application/vnd.api+json; q=0.9", true),
            (
                "application/vnd.api+json; profile=\"https://example.com/p\"",
                true,
            ),
            ("application/vnd.api+json; charset=utf-8", false),
            (
                "application/vnd.api+json; ext=\"https://example.com/e\"",
                false,
            ),
            (
                "application/vnd.api+json; charset=utf-8, application/vnd.api+json",
                true,
            ),
            ("application/vnd.api+json; charset=utf-8, */*", false),
        ] {
            assert_eq!(accepts_json_api(&headers(ACCEPT, accept)), ok, "{accept}");
        }
        assert!(accepts_json_api(&HeaderMap::new()));
    }

    #[test]
    fn content_types_follow_the_json_api_rules() {
        for (content_type, ok) in [
            ("application/vnd.api+json", true),
            ("application/json", true),
            ("application/json; charset=utf-8", true),
            ("application/vnd.api+json; charset=utf-8", false),
            (
                "application/vnd.api+json; ext=\"https://example.com/e\"",
                false,
            ),
            ("text/plain", false),
            ("nonsense", false),
        ] {
            assert_eq!(
                check_content_type(&headers(CONTENT_TYPE, content_type)).is_ok(),
                ok,
                "{content_type}"
            );
        }
        assert!(check_content_type(&HeaderMap::new()).is_err());
    }
}
