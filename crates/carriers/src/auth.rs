//! Per-carrier authentication plug-ins: a key in a header, OAuth2 client credentials
//! (RFC 6749 §4.4), or a line's own exchange of a client id and secret for a token at a
//! token URL; a token is cached until shortly before it expires.

use std::time::{Duration, Instant};

use reqwest::RequestBuilder;
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
    /// A client id and secret posted as JSON to a token URL for a bearer token (a JWT,
    /// say): a line's own exchange, not OAuth2's form.
    TokenExchange {
        /// The token endpoint.
        token_url: String,
        /// The client id.
        client_id: String,
        /// The client secret.
        client_secret: Secret,
        /// What the exchange calls them.
        fields: ExchangeFields,
    },
}

/// The names a token exchange gives the client id and secret it is sent, and the token it
/// answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExchangeFields {
    /// The client id's member in the request (`client_id`).
    pub id: String,
    /// The client secret's member (`client_secret`).
    pub secret: String,
    /// The token's member in the answer; `None` takes the first of `access_token`,
    /// `token`, `jwt` and `id_token`.
    pub token: Option<String>,
}

impl ExchangeFields {
    /// The names given, the usual ones for those not.
    #[must_use]
    pub fn named(id: Option<String>, secret: Option<String>, token: Option<String>) -> Self {
        Self {
            id: id.unwrap_or_else(|| "client_id".to_owned()),
            secret: secret.unwrap_or_else(|| "client_secret".to_owned()),
            token,
        }
    }
}

/// The members a token is looked for in, when the exchange does not name one.
const TOKEN_MEMBERS: [&str; 4] = ["access_token", "token", "jwt", "id_token"];

/// How long a token whose lifetime its answer does not tell is kept.
const UNTOLD_LIFETIME: Duration = Duration::from_secs(300);

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
        matches!(self.auth, Auth::OAuth2 { .. } | Auth::TokenExchange { .. })
    }

    /// `request` with the credentials attached.
    ///
    /// # Errors
    /// When a token cannot be obtained.
    pub async fn apply(
        &self,
        client: &reqwest::Client,
        request: RequestBuilder,
    ) -> Result<RequestBuilder, AuthError> {
        match &self.auth {
            Auth::None => Ok(request),
            Auth::Header { name, value } => Ok(request.header(name.as_str(), value.expose())),
            Auth::Headers(headers) => Ok(with_headers(request, headers)),
            Auth::OAuth2 { headers, .. } => {
                let token = self.bearer(client).await?;
                Ok(with_headers(request, headers).bearer_auth(token))
            }
            Auth::TokenExchange { .. } => Ok(request.bearer_auth(self.bearer(client).await?)),
        }
    }

    /// The cached token, or a new one when it is about to expire.
    async fn bearer(&self, client: &reqwest::Client) -> Result<String, AuthError> {
        let mut cached = self.token.lock().await;
        if let Some((token, expires)) = cached.as_ref()
            && Instant::now() + RENEW_MARGIN < *expires
        {
            return Ok(token.clone());
        }
        let (token, lifetime) = match &self.auth {
            Auth::OAuth2 {
                token_url,
                client_id,
                client_secret,
                scope,
                headers,
            } => {
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
                let request = with_headers(client.post(token_url), headers)
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .body(body);
                let answer = answered(request).await?;
                (member(&answer, "access_token")?, lifetime(&answer, None))
            }
            Auth::TokenExchange {
                token_url,
                client_id,
                client_secret,
                fields,
            } => {
                let mut body = serde_json::Map::new();
                body.insert(fields.id.clone(), client_id.as_str().into());
                body.insert(fields.secret.clone(), client_secret.expose().into());
                let answer = answered(client.post(token_url).json(&body)).await?;
                let token = match &fields.token {
                    Some(name) => member(&answer, name)?,
                    None => TOKEN_MEMBERS
                        .iter()
                        .find_map(|name| member(&answer, name).ok())
                        .ok_or_else(|| {
                            AuthError::Unrecognized(format!(
                                "none of {} holds a token",
                                TOKEN_MEMBERS.join(", ")
                            ))
                        })?,
                };
                let lifetime = lifetime(&answer, Some(&token));
                (token, lifetime)
            }
            Auth::None | Auth::Header { .. } | Auth::Headers(_) => {
                return Err(AuthError::Unrecognized(
                    "this authentication has no token".to_owned(),
                ));
            }
        };
        *cached = Some((token.clone(), Instant::now() + lifetime));
        Ok(token)
    }
}

/// The token endpoint's JSON answer to `request`, or why there is none.
async fn answered(request: RequestBuilder) -> Result<serde_json::Value, AuthError> {
    let response = request
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
    response
        .json()
        .await
        .map_err(|error| AuthError::Unrecognized(error.to_string()))
}

/// The non-empty string member `name` of a token answer.
fn member(answer: &serde_json::Value, name: &str) -> Result<String, AuthError> {
    answer
        .get(name)
        .and_then(serde_json::Value::as_str)
        .filter(|token| !token.is_empty())
        .map(str::to_owned)
        .ok_or_else(|| AuthError::Unrecognized(format!("no {name}")))
}

/// How long a token lives: its answer's `expires_in`, else the `exp` of `token` when it
/// is a JWT (read, not verified: the carrier checks it), else five minutes.
fn lifetime(answer: &serde_json::Value, token: Option<&str>) -> Duration {
    if let Some(seconds) = answer.get("expires_in").and_then(serde_json::Value::as_u64) {
        return Duration::from_secs(seconds);
    }
    token
        .and_then(jwt_expiry)
        .and_then(|expiry| expiry.duration_since(std::time::SystemTime::now()).ok())
        .unwrap_or(UNTOLD_LIFETIME)
}

/// When a JWT says it expires (its payload's `exp`).
fn jwt_expiry(token: &str) -> Option<std::time::SystemTime> {
    use base64::Engine as _;
    let payload = token.split('.').nth(1)?;
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(payload.trim_end_matches('='))
        .ok()?;
    let claims: serde_json::Value = serde_json::from_slice(&bytes).ok()?;
    let exp = claims.get("exp")?.as_u64()?;
    std::time::UNIX_EPOCH.checked_add(Duration::from_secs(exp))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_jwt_s_expiry_is_read_and_other_tokens_live_five_minutes() {
        use base64::Engine as _;
        let exp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|now| now.as_secs() + 3600)
            .unwrap_or_default();
        let part = |json: &str| base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(json);
        let jwt = format!(
            "{}.{}.signature",
            part(r#"{"alg":"HS256"}"#),
            part(&format!(r#"{{"sub":"c","exp":{exp}}}"#))
        );
        let left = lifetime(&serde_json::json!({}), Some(&jwt));
        assert!(
            left > Duration::from_secs(3500) && left <= Duration::from_secs(3600),
            "{left:?}"
        );
        let told = lifetime(&serde_json::json!({"expires_in": 60}), Some(&jwt));
        assert_eq!(told, Duration::from_secs(60), "expires_in wins");
        assert_eq!(
            lifetime(&serde_json::json!({}), Some("opaque")),
            UNTOLD_LIFETIME
        );
        assert_eq!(
            lifetime(&serde_json::json!({}), Some("a.b%.c")),
            UNTOLD_LIFETIME
        );
        assert!(member(&serde_json::json!({"token": ""}), "token").is_err());
    }
}
