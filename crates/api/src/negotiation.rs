//! JSON:API content negotiation (api.md §1; `reference/jsonapi.md` JA-01 to JA-06).
//!
//! Bodies may be `application/vnd.api+json` (with at most `profile`; we support no `ext`)
//! or `application/json`, which clients of the reference API send. An `Accept` header whose
//! every JSON:API instance carries another parameter is answered 406. A client that asks
//! for `application/json` rather than JSON:API (listed, and weighted above JSON:API if that
//! is listed too) gets the same document, errors included, as `application/json`;
//! JSON:API stays the default. Either way the answer says it varies with `Accept`.

use axum::extract::Request;
use axum::http::header::{ACCEPT, CONTENT_TYPE, VARY};
use axum::http::{HeaderMap, HeaderValue};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
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

/// The plain JSON media type, which some clients ask for.
const PLAIN_JSON: &str = "application/json";

/// Answers 406 when `Accept` lists JSON:API only with parameters we cannot honour; sends
/// a JSON:API document as `application/json` to a client that prefers it.
pub async fn check_accept(request: Request, next: Next) -> Response {
    let plain = prefers_plain_json(request.headers());
    let response = if accepts_json_api(request.headers()) {
        next.run(request).await
    } else {
        let refusal: ApiError = ErrorCode::NotAcceptable.at(
            format!(
                "every {JSON_API} in Accept carries a parameter other than profile; send \
                 Accept: {JSON_API} without parameters"
            ),
            ErrorSource::Header("Accept".into()),
        );
        refusal.into_response()
    };
    negotiated(response, plain)
}

/// `response`, a JSON:API document as `application/json` when `plain`, and saying that it
/// varies with `Accept`; any other answer (a page, a file) as it is.
fn negotiated(mut response: Response, plain: bool) -> Response {
    let headers = response.headers_mut();
    let is_json_api = headers
        .get(CONTENT_TYPE)
        .is_some_and(|value| value.as_bytes().eq_ignore_ascii_case(JSON_API.as_bytes()));
    if !is_json_api {
        return response;
    }
    if plain {
        headers.insert(CONTENT_TYPE, HeaderValue::from_static(PLAIN_JSON));
    }
    headers.append(VARY, HeaderValue::from_static("Accept"));
    response
}

/// The weight `Accept` gives each of JSON:API and plain JSON, when it names them.
fn weights(headers: &HeaderMap) -> (Option<f32>, Option<f32>) {
    let (mut json_api, mut plain) = (None::<f32>, None::<f32>);
    for value in headers.get_all(ACCEPT) {
        let Ok(text) = value.to_str() else { continue };
        for range in text.split(',') {
            let Ok(media) = range.trim().parse::<Mime>() else {
                continue;
            };
            let weight = media
                .get_param("q")
                .and_then(|q| q.as_str().parse::<f32>().ok())
                .unwrap_or(1.0);
            let essence = media.essence_str();
            let slot = if essence.eq_ignore_ascii_case(JSON_API) {
                &mut json_api
            } else if essence.eq_ignore_ascii_case(PLAIN_JSON) {
                &mut plain
            } else {
                continue;
            };
            *slot = Some(slot.map_or(weight, |kept| kept.max(weight)));
        }
    }
    (json_api, plain)
}

/// Whether `Accept` asks for plain JSON over JSON:API: it names `application/json` with a
/// weight above zero, and JSON:API not at all or with a lower weight (a tie is JSON:API's).
fn prefers_plain_json(headers: &HeaderMap) -> bool {
    match weights(headers) {
        (_, None) => false,
        (None, Some(plain)) => plain > 0.0,
        (Some(json_api), Some(plain)) => plain > 0.0 && plain > json_api,
    }
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
    fn plain_json_is_sent_to_a_client_that_prefers_it() {
        for (accept, plain) in [
            ("application/json", true),
            ("application/json, */*", true),
            ("application/json; charset=utf-8", true),
            ("application/json;q=0", false),
            ("application/vnd.api+json", false),
            ("application/vnd.api+json, application/json", false),
            ("application/json, application/vnd.api+json", false),
            ("application/vnd.api+json;q=0.5, application/json", true),
            (
                "application/json;q=0.4, application/vnd.api+json;q=0.8",
                false,
            ),
            ("*/*", false),
            ("text/html", false),
        ] {
            assert_eq!(
                prefers_plain_json(&headers(ACCEPT, accept)),
                plain,
                "{accept}"
            );
        }
        assert!(!prefers_plain_json(&HeaderMap::new()));
    }

    #[test]
    fn only_a_json_api_answer_is_sent_as_plain_json() {
        let answer = |content_type: &'static str| {
            let mut response = Response::new(axum::body::Body::empty());
            response
                .headers_mut()
                .insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
            response
        };
        let sent = negotiated(answer(JSON_API), true);
        assert_eq!(sent.headers()[CONTENT_TYPE], PLAIN_JSON);
        assert_eq!(sent.headers()[VARY], "Accept");
        let kept = negotiated(answer(JSON_API), false);
        assert_eq!(kept.headers()[CONTENT_TYPE], JSON_API);
        assert_eq!(kept.headers()[VARY], "Accept");
        let page = negotiated(answer("text/html; charset=utf-8"), true);
        assert_eq!(page.headers()[CONTENT_TYPE], "text/html; charset=utf-8");
        assert!(page.headers().get(VARY).is_none());
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
