//! `[http]`: how the API is reached from outside, for the absolute links of its answers.

use serde::{Deserialize, Serialize};

/// How clients reach the API.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct HttpConfig {
    /// The URL clients reach Tidemark at (`https://track.example.com`, or with a path
    /// prefix); links are built on it. Unset: on the scheme and host each request names.
    pub public_url: Option<String>,
    /// Whether a proxy in front sets `X-Forwarded-Proto` and `X-Forwarded-Host` (and
    /// strips clients' own); only then are they used for links.
    pub trust_forwarded_headers: bool,
}
