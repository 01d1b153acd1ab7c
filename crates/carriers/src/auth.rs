//! Per-carrier authentication plug-ins: a key in a header, or OAuth2 client credentials
//! (RFC 6749 §4.4) with the token cached until shortly before it expires.

use std::time::{Duration, Instant};

use reqwest::RequestBuilder;
use serde::Deserialize;
use tokio::sync::Mutex;

use crate::Secret;

/// How a carrier wants to be authenticated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Auth {
    /// Nothing (a carrier behind a private network, or the simulator without keys).
    None,
    /// A fixed header, e.g. `API-Key: …` or `Consumer-Key: …`.
    Header {
        /// Header name.
        name: String,
        /// Its value.
        value: Secret,
    },
    /// Several fixed headers on every call: a client id and secret pair
    /// (`X-IBM-Client-Id`, `X-IBM-Client-Secret`), say.
    Headers(Vec<(String, Secret)>),
    /// OAuth2 client credentials; the token is sent as `Authorization: Bearer …`.
    OAuth2 {
        /// The token endpoint.
        token_url: String,
        /// `client_id`.
        client_id: String,
        /// `client_secret`.
        client_secret: Secret,
        /// `scope`, when the carrier needs one.
        scope: Option<String>,
        /// Headers sent with the token too, on every call and on the token request (a
        /// `Consumer-Key`, a subscription key).
        headers: Vec<(String, Secret)>,
    },
}

/// `request` with each of `headers`.
fn with_headers(mut request: RequestBuilder, headers: &[(String, Secret)]) -> RequestBuilder {
    for (name, value) in headers {
        request = request.header(name.as_str(), value.expose());
    }
    request
}

/// Why no credentials could be attached.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AuthError {
    /// The token endpoint could not be reached.
    #[error("token endpoint unreachable: {0}")]
    Unreachable(String),
    /// The token endpoint refused our client.
    #[error("the token endpoint refused the client credentials")]
    Refused,
    /// The token endpoint answered something else than a token.
    #[error("the token endpoint's answer is not a token: {0}")]
    Unrecognized(String),
}

#[derive(Debug, Deserialize)]
struct TokenAnswer {
    access_token: String,
    #[serde(default)]
    expires_in: Option<u64>,
}

/// Attaches credentials to requests, fetching and caching OAuth2 tokens.
#[derive(Debug)]
pub struct Authenticator {
    auth: Auth,
    token: Mutex<Option<(String, Instant)>>,
}

/// Tokens are renewed this long before they expire.
const RENEW_MARGIN: Duration = Duration::from_secs(30);

impl Authenticator {
    /// An authenticator for `auth`.
    #[must_use]
    pub fn new(auth: Auth) -> Self {
        Self {
            auth,
            token: Mutex::new(None),
        }
    }

    /// Forgets a cached token (after the carrier refused it).
    pub async fn forget_token(&self) {
        *self.token.lock().await = None;
    }

    /// Whether a refused request is worth one retry with a fresh token.
    #[must_use]
    pub const fn renews_tokens(&self) -> bool {
        matches!(self.auth, Auth::OAuth2 { .. })
    }

    /// `request` with the credentials attached.
    ///
    /// # Errors
    /// When an OAuth2 token cannot be obtained.
    pub async fn apply(
        &self,
        client: &reqwest::Client,
        request: RequestBuilder,
    ) -> Result<RequestBuilder, AuthError> {
        match &self.auth {
            Auth::None => Ok(request),
            Auth::Header { name, value } => Ok(request.header(name.as_str(), value.expose())),
            Auth::Headers(headers) => Ok(with_headers(request, headers)),
            Auth::OAuth2 {
                token_url,
                client_id,
                client_secret,
                scope,
                headers,
            } => {
                let request = with_headers(request, headers);
                let mut cached = self.token.lock().await;
                if let Some((token, expires)) = cached.as_ref()
                    && Instant::now() + RENEW_MARGIN < *expires
                {
                    return Ok(request.bearer_auth(token));
                }
                let body = {
                    let mut form = form_urlencoded::Serializer::new(String::new());
                    form.append_pair("grant_type", "client_credentials");
                    form.append_pair("client_id", client_id);
                    form.append_pair("client_secret", client_secret.expose());
                    if let Some(scope) = scope {
                        form.append_pair("scope", scope);
                    }
                    form.finish()
                };
                let response = with_headers(client.post(token_url), headers)
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .body(body)
                    .send()
                    .await
                    .map_err(|error| AuthError::Unreachable(error.to_string()))?;
                let status = response.status();
                if status == reqwest::StatusCode::UNAUTHORIZED
                    || status == reqwest::StatusCode::BAD_REQUEST
                    || status == reqwest::StatusCode::FORBIDDEN
                {
                    return Err(AuthError::Refused);
                }
                if !status.is_success() {
                    return Err(AuthError::Unreachable(format!("status {status}")));
                }
                let answer: TokenAnswer = response
                    .json()
                    .await
                    .map_err(|error| AuthError::Unrecognized(error.to_string()))?;
                let lifetime = Duration::from_secs(answer.expires_in.unwrap_or(300));
                *cached = Some((answer.access_token.clone(), Instant::now() + lifetime));
                Ok(request.bearer_auth(answer.access_token))
            }
        }
    }
}
