//! The base of the links an answer carries (api.md §1 "Links"): the configured public URL
//! (`[http] public_url`), else the scheme and host the request came to: its `Host` (or
//! HTTP/2 authority), and `X-Forwarded-Proto` / `X-Forwarded-Host` only when the operator
//! says a proxy in front sets them (`[http] trust_forwarded_headers`), since anyone can
//! send them. A host that is no `name[:port]` gives no base: links stay paths.
//!
//! The base holds for the handling of one request ([`scope`]); documents are serialized
//! under it ([`render`]), so the link types write absolute URLs (`tidemark_wire::links`).

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::header::HOST;
use axum::http::uri::Authority;
use axum::http::{HeaderMap, Uri};
use axum::middleware::Next;
use axum::response::Response;

use crate::AppState;

tokio::task_local! {
    static BASE: Option<Arc<str>>;
}

/// Where links point, as the operator set it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PublicLinks {
    /// The URL clients reach Tidemark at (scheme, host, any path prefix; no trailing
    /// `/`), when configured.
    pub public_url: Option<String>,
    /// Whether `X-Forwarded-Proto` and `X-Forwarded-Host` come from a trusted proxy.
    pub trust_forwarded_headers: bool,
}

/// Why a configured public URL is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{0:?} is not a public URL: give the http or https URL clients reach Tidemark at, \
     e.g. https://track.example.com or https://example.com/tidemark, without query or fragment"
)]
pub struct PublicUrlError(pub String);

impl PublicLinks {
    /// Reads a configured public URL: `http` or `https`, with a host, no credentials, query
    /// or fragment; a trailing `/` is dropped.
    ///
    /// # Errors
    /// When `text` is not such a URL.
    pub fn parse_public_url(text: &str) -> Result<String, PublicUrlError> {
        let refused = || PublicUrlError(text.to_owned());
        let url = url::Url::parse(text.trim()).map_err(|_| refused())?;
        let fine = matches!(url.scheme(), "http" | "https")
            && url.host().is_some()
            && url.username().is_empty()
            && url.password().is_none()
            && url.query().is_none()
            && url.fragment().is_none();
        if !fine {
            return Err(refused());
        }
        Ok(url.as_str().trim_end_matches('/').to_owned())
    }

    /// The base of the links of an answer to a request with `headers` and `uri`.
    #[must_use]
    pub fn base(&self, headers: &HeaderMap, uri: &Uri) -> Option<String> {
        if let Some(url) = &self.public_url {
            return Some(url.clone());
        }
        let forwarded = |name: &str| {
            self.trust_forwarded_headers
                .then(|| headers.get(name)?.to_str().ok())
                .flatten()
                // A chain of proxies lists the client's first.
                .and_then(|value| value.split(',').next())
                .map(str::trim)
        };
        let scheme = match forwarded("x-forwarded-proto") {
            Some(proto) if proto.eq_ignore_ascii_case("https") => "https",
            _ => "http",
        };
        let host = forwarded("x-forwarded-host")
            .or_else(|| headers.get(HOST)?.to_str().ok())
            .or_else(|| uri.authority().map(Authority::as_str))?;
        is_host(host).then(|| format!("{scheme}://{}", host.to_ascii_lowercase()))
    }
}

/// Whether `text` is a host and optional port and nothing else.
fn is_host(text: &str) -> bool {
    !text.is_empty()
        && text.len() <= 255
        && !text.contains('@')
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-.:[]".contains(&b))
        && text.parse::<Authority>().is_ok()
}

/// Handles the request with its links' base in scope.
pub async fn scope(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let base = state
        .config
        .links
        .base(request.headers(), request.uri())
        .map(Arc::from);
    BASE.scope(base, next.run(request)).await
}

/// Runs `render` (a document's serialization) with links under the base of the request
/// being handled.
pub fn render<R>(render: impl FnOnce() -> R) -> R {
    let base = BASE.try_with(Clone::clone).ok().flatten();
    tidemark_wire::links::with_base(base.as_deref(), render)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&str, &str)]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for (name, value) in pairs {
            headers.append(
                axum::http::HeaderName::from_bytes(name.as_bytes()).expect("a name"),
                value.parse().expect("a value"),
            );
        }
        headers
    }

    #[test]
    fn the_base_is_the_configured_url_else_the_host_asked() {
        let uri: Uri = "/v2/shipments".parse().expect("a path");
        let plain = PublicLinks::default();
        assert_eq!(
            plain.base(&headers(&[("host", "Track.Example.com:8080")]), &uri),
            Some("http://track.example.com:8080".to_owned())
        );
        // Forwarded headers count only from a trusted proxy.
        let forwarded = headers(&[
            ("host", "10.0.0.5:8080"),
            ("x-forwarded-proto", "https"),
            ("x-forwarded-host", "track.example.com, proxy.internal"),
        ]);
        assert_eq!(
            plain.base(&forwarded, &uri),
            Some("http://10.0.0.5:8080".to_owned())
        );
        let trusting = PublicLinks {
            trust_forwarded_headers: true,
            ..PublicLinks::default()
        };
        assert_eq!(
            trusting.base(&forwarded, &uri),
            Some("https://track.example.com".to_owned())
        );
        // A host that is not one gives no base; HTTP/2's authority stands in for Host.
        for bad in ["evil.com/x", "a b", "user@host", ""] {
            assert_eq!(
                plain.base(&headers(&[("host", bad)]), &uri),
                None,
                "{bad:?}"
            );
        }
        let absolute: Uri = "http://[::1]:8080/v2".parse().expect("a URI");
        assert_eq!(
            plain.base(&HeaderMap::new(), &absolute),
            Some("http://[::1]:8080".to_owned())
        );
        let configured = PublicLinks {
            public_url: Some("https://example.com/tidemark".to_owned()),
            trust_forwarded_headers: true,
        };
        assert_eq!(
            configured.base(&forwarded, &uri),
            Some("https://example.com/tidemark".to_owned())
        );
    }

    #[test]
    fn a_public_url_is_http_with_a_host_and_nothing_after_its_path() {
        assert_eq!(
            PublicLinks::parse_public_url("https://example.com/tidemark/"),
            Ok("https://example.com/tidemark".to_owned())
        );
        assert_eq!(
            PublicLinks::parse_public_url("http://track.example.com"),
            Ok("http://track.example.com".to_owned())
        );
        for bad in [
            "track.example.com",
            "ftp://example.com",
            "https://u:p@example.com",
            "https://example.com/?x=1",
            "https://example.com/#x",
        ] {
            assert!(PublicLinks::parse_public_url(bad).is_err(), "{bad}");
        }
    }
}
