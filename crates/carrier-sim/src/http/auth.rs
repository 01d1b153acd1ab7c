//! Who may read events: an `API-Key`, a set of header credentials as a real carrier takes
//! them (`keyId`, `X-IBM-Client-Id` and `X-IBM-Client-Secret`), or a bearer token from
//! `POST /oauth/token` (OAuth2 client credentials) or `POST /auth/token` (a line's own
//! exchange: `{"client_id", "client_secret"}` as JSON for `{"token": <a JWT>}`), tokens
//! living one simulated hour; and
//! on every call, the token request included, the headers the configuration requires
//! besides (a `Consumer-Key`).

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::json;

use crate::{Simulator, lock};

/// Whether `headers` carry `name: value`.
fn carries(headers: &HeaderMap, (name, value): &(String, String)) -> bool {
    headers
        .get(name.as_str())
        .and_then(|v| v.to_str().ok())
        .is_some_and(|given| given == value)
}

/// Whether the headers every call must carry are there.
fn required(sim: &Simulator, headers: &HeaderMap) -> bool {
    sim.state
        .config
        .required_headers
        .iter()
        .all(|header| carries(headers, header))
}

pub(super) fn authorized(sim: &Simulator, headers: &HeaderMap) -> bool {
    let state = &sim.state;
    if !required(sim, headers) {
        return false;
    }
    if state
        .config
        .header_credentials
        .iter()
        .any(|set| set.iter().all(|header| carries(headers, header)))
    {
        return true;
    }
    if headers
        .get("API-Key")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|key| key == state.config.api_key)
    {
        return true;
    }
    let bearer = headers
        .get("Authorization")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "));
    bearer.is_some_and(|token| {
        lock(&state.tokens)
            .get(token)
            .is_some_and(|expires| *expires > state.clock.now())
    })
}

struct TokenRequest {
    grant_type: String,
    client_id: Option<String>,
    client_secret: Option<String>,
}

/// OAuth2 client credentials (RFC 6749 §4.4), form-encoded; tokens live one simulated hour.
pub(super) async fn token(
    State(sim): State<Simulator>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let form: Result<TokenRequest, _> = token_request(&body);
    let oauth_error = |status: StatusCode, code: &str| {
        (status, axum::Json(json!({"error": code}))).into_response()
    };
    let Ok(form) = form else {
        return oauth_error(StatusCode::BAD_REQUEST, "invalid_request");
    };
    if form.grant_type != "client_credentials" {
        return oauth_error(StatusCode::BAD_REQUEST, "unsupported_grant_type");
    }
    if !required(&sim, &headers) {
        return oauth_error(StatusCode::UNAUTHORIZED, "invalid_client");
    }
    let basic = basic_credentials(&headers);
    let (id, secret) = match (form.client_id, form.client_secret, basic) {
        (Some(id), Some(secret), _) => (id, secret),
        (_, _, Some(pair)) => pair,
        _ => return oauth_error(StatusCode::UNAUTHORIZED, "invalid_client"),
    };
    if !known_client(&sim, &id, &secret) {
        return oauth_error(StatusCode::UNAUTHORIZED, "invalid_client");
    }
    let token = issue(&sim, uuid::Uuid::now_v7().simple().to_string());
    axum::Json(json!({"access_token": token, "token_type": "Bearer", "expires_in": 3600}))
        .into_response()
}

/// `token`, valid for one simulated hour.
fn issue(sim: &Simulator, token: String) -> String {
    let expires = sim.state.clock.now() + time::Duration::hours(1);
    lock(&sim.state.tokens).insert(token.clone(), expires);
    token
}

fn known_client(sim: &Simulator, id: &str, secret: &str) -> bool {
    sim.state
        .config
        .oauth_clients
        .iter()
        .any(|client| client.client_id == id && client.client_secret == secret)
}

/// A line's own token exchange: `{"client_id", "client_secret"}` as JSON answered with
/// `{"token": <a JWT>}` whose `exp` is an hour away by the wall clock (as an issuer's
/// would be; the simulator holds it to its own clock), and no `expires_in`.
pub(super) async fn exchange(State(sim): State<Simulator>, body: Bytes) -> Response {
    use base64::Engine as _;
    let error = |status: StatusCode, message: &str| {
        (status, axum::Json(json!({"message": message}))).into_response()
    };
    let Ok(asked) = serde_json::from_slice::<serde_json::Value>(&body) else {
        return error(StatusCode::BAD_REQUEST, "send JSON");
    };
    let text = |name: &str| asked.get(name).and_then(serde_json::Value::as_str);
    let (Some(id), Some(secret)) = (text("client_id"), text("client_secret")) else {
        return error(StatusCode::BAD_REQUEST, "send client_id and client_secret");
    };
    if !known_client(&sim, id, secret) {
        return error(StatusCode::UNAUTHORIZED, "unknown client");
    }
    let exp = time::OffsetDateTime::now_utc().unix_timestamp() + 3600;
    let part = |value: serde_json::Value| {
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(value.to_string())
    };
    let jwt = format!(
        "{}.{}.{}",
        part(json!({"alg": "none", "typ": "JWT"})),
        part(json!({"sub": id, "exp": exp, "jti": uuid::Uuid::now_v7().simple().to_string()})),
        "simulated"
    );
    axum::Json(json!({"token": issue(&sim, jwt)})).into_response()
}

fn token_request(body: &[u8]) -> Result<TokenRequest, ()> {
    let mut grant_type = None;
    let mut client_id = None;
    let mut client_secret = None;
    for (key, value) in form_urlencoded::parse(body) {
        match key.as_ref() {
            "grant_type" => grant_type = Some(value.into_owned()),
            "client_id" => client_id = Some(value.into_owned()),
            "client_secret" => client_secret = Some(value.into_owned()),
            _ => {}
        }
    }
    Ok(TokenRequest {
        grant_type: grant_type.ok_or(())?,
        client_id,
        client_secret,
    })
}

fn basic_credentials(headers: &HeaderMap) -> Option<(String, String)> {
    use base64::Engine as _;
    let value = headers.get("Authorization")?.to_str().ok()?;
    let encoded = value.strip_prefix("Basic ")?;
    let decoded = base64::engine::general_purpose::STANDARD
        .decode(encoded)
        .ok()?;
    let decoded = String::from_utf8(decoded).ok()?;
    let (id, secret) = decoded.split_once(':')?;
    Some((id.to_owned(), secret.to_owned()))
}
