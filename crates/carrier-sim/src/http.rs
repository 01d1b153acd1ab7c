//! The routes: `GET /{SCAC}/v2/events`, `POST /oauth/token`, and the admin API.

use std::time::Duration as StdDuration;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post};
use serde::Deserialize;
use serde_json::{Value, json};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use crate::faults::{Fault, FaultRule};
use crate::query::{EventQuery, cursor};
use crate::scenario::{Script, script};
use crate::timeline::{TimedEvent, events, timestamp};
use crate::world::{Outcome, Placement};
use crate::{API_VERSION, ClockMode, NextPage, Simulator, lock};

pub fn router(sim: Simulator) -> Router {
    let admin = Router::new()
        .route("/admin/clock", get(read_clock).post(move_clock))
        .route(
            "/admin/faults",
            get(list_faults).post(add_fault).delete(clear_faults),
        )
        .route("/admin/faults/{id}", delete(remove_fault))
        .route("/admin/events", post(inject).delete(clear_injected))
        .route("/admin/lookups", get(lookups))
        .route("/admin/reset", post(reset))
        .route_layer(axum::middleware::from_fn_with_state(
            sim.clone(),
            require_admin,
        ));
    Router::new()
        .route("/{scac}/v2/events", get(events_route))
        .route("/oauth/token", post(token))
        .merge(admin)
        .fallback(not_found)
        .with_state(sim)
}

/// A DCSA error answer (ERROR_DOMAIN 1.0.0).
fn dcsa_error(
    method: &Method,
    uri: &Uri,
    status: StatusCode,
    reason: &str,
    message: &str,
) -> Response {
    let body = json!({
        "httpMethod": method.as_str(),
        "requestUri": uri.to_string(),
        "statusCode": status.as_u16(),
        "statusCodeText": status.canonical_reason().unwrap_or("Error"),
        "errorDateTime": timestamp(OffsetDateTime::now_utc()),
        "errors": [{"reason": reason, "message": message}],
    });
    with_version((status, axum::Json(body)).into_response())
}

fn with_version(mut response: Response) -> Response {
    response
        .headers_mut()
        .insert("API-Version", HeaderValue::from_static(API_VERSION));
    response
}

async fn not_found(method: Method, uri: Uri) -> Response {
    dcsa_error(
        &method,
        &uri,
        StatusCode::NOT_FOUND,
        "notFound",
        "no such resource",
    )
}

fn authorized(sim: &Simulator, headers: &HeaderMap) -> bool {
    let state = &sim.state;
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

fn valid_scac(scac: &str) -> bool {
    (2..=4).contains(&scac.len()) && scac.bytes().all(|b| b.is_ascii_alphanumeric())
}

#[allow(clippy::too_many_lines)]
async fn events_route(
    State(sim): State<Simulator>,
    Path(scac): Path<String>,
    RawQuery(raw): RawQuery,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
) -> Response {
    let error =
        |status, reason: &str, message: &str| dcsa_error(&method, &uri, status, reason, message);
    if !valid_scac(&scac) {
        return error(
            StatusCode::NOT_FOUND,
            "notFound",
            "no carrier has this code",
        );
    }
    let scac = scac.to_ascii_uppercase();
    if !authorized(&sim, &headers) {
        return error(
            StatusCode::UNAUTHORIZED,
            "unauthorized",
            "send a valid API-Key header",
        );
    }
    let query = match EventQuery::parse(raw.as_deref().unwrap_or_default()) {
        Ok(query) => query,
        Err(invalid) => return error(StatusCode::BAD_REQUEST, invalid.reason, &invalid.message),
    };
    let Some(reference) = query.references.first().cloned() else {
        return error(StatusCode::BAD_REQUEST, "invalidQuery", "name the shipment");
    };
    let state = &sim.state;
    let lookup = if query.has_cursor {
        lock(&state.lookups)
            .get(&(scac.clone(), reference.value().to_owned()))
            .copied()
            .unwrap_or(1)
    } else {
        let mut lookups = lock(&state.lookups);
        let count = lookups
            .entry((scac.clone(), reference.value().to_owned()))
            .or_insert(0);
        *count += 1;
        *count
    };

    let fault = lock(&state.faults).take(&scac, reference.value());
    match &fault {
        Some(Fault::ServerError {
            status,
            retry_after_seconds,
        }) => {
            let status = StatusCode::from_u16(*status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
            let mut response = error(status, "internalError", "the carrier's system failed");
            if let Some(value) = retry_after_seconds
                .and_then(|seconds| HeaderValue::from_str(&seconds.to_string()).ok())
            {
                response.headers_mut().insert("Retry-After", value);
            }
            return response;
        }
        Some(Fault::RateLimited {
            retry_after_seconds,
        }) => {
            let mut response = error(
                StatusCode::TOO_MANY_REQUESTS,
                "tooManyRequests",
                "slow down",
            );
            if let Ok(value) = HeaderValue::from_str(&retry_after_seconds.to_string()) {
                response.headers_mut().insert("Retry-After", value);
            }
            return response;
        }
        Some(Fault::Unauthorized) => {
            return error(
                StatusCode::UNAUTHORIZED,
                "unauthorized",
                "the key was refused",
            );
        }
        Some(Fault::Forbidden) => {
            return error(
                StatusCode::FORBIDDEN,
                "forbidden",
                "this shipment is not shared with you",
            );
        }
        Some(Fault::BadReference) => {
            return error(
                StatusCode::BAD_REQUEST,
                "invalidQuery",
                "the reference is not valid for this carrier",
            );
        }
        Some(Fault::Timeout) => {
            tokio::time::sleep(StdDuration::from_secs(3600)).await;
            return error(StatusCode::GATEWAY_TIMEOUT, "timeout", "gave up");
        }
        Some(Fault::Slow { delay_ms }) => {
            tokio::time::sleep(StdDuration::from_millis(*delay_ms)).await
        }
        Some(Fault::EmptyPage) if !query.has_cursor => {
            return page_response(&sim, &uri, &query, Vec::new(), Some(0));
        }
        _ => {}
    }

    let scripted = script(&scac, reference.value());
    let mut only_booking = false;
    let (outcome, placement) = match scripted {
        Some(Script::Unknown) => {
            return error(
                StatusCode::NOT_FOUND,
                "notFound",
                "no shipment has this reference",
            );
        }
        Some(Script::AlwaysFail) => {
            return error(
                StatusCode::SERVICE_UNAVAILABLE,
                "serviceUnavailable",
                "try again later",
            );
        }
        Some(Script::FailFirstLookups(n)) if lookup <= n => {
            return error(
                StatusCode::SERVICE_UNAVAILABLE,
                "serviceUnavailable",
                "try again later",
            );
        }
        Some(Script::ManifestedFromLookup(n)) => {
            only_booking = lookup < n;
            (
                Some(Outcome::Sails),
                Placement::Before(time::Duration::days(20)),
            )
        }
        Some(Script::Shipment(outcome, placement)) => (Some(outcome), placement),
        Some(Script::FailFirstLookups(_)) => (
            Some(Outcome::Sails),
            Placement::Before(time::Duration::days(20)),
        ),
        None => (None, Placement::Seeded),
    };

    let now = state.clock.now();
    let mut visible: Vec<Value> = state
        .world
        .shipment(&scac, &reference, placement, outcome)
        .map(|shipment| events(&shipment))
        .unwrap_or_default()
        .into_iter()
        .chain(
            lock(&state.injected)
                .get(&scac)
                .cloned()
                .unwrap_or_default(),
        )
        .filter(|event| event.created <= now)
        .map(|event| event.body)
        .filter(|event| !only_booking || event["eventType"] == "SHIPMENT")
        .filter(|event| query.matches(event))
        .collect();
    query.sort(&mut visible);

    match fault {
        Some(Fault::Duplicate) => {
            visible = visible.into_iter().flat_map(|e| [e.clone(), e]).collect();
        }
        Some(Fault::Retract) => {
            let latest = visible
                .iter()
                .enumerate()
                .filter(|(_, e)| e["eventClassifierCode"] == "ACT")
                .max_by_key(|(_, e)| e["eventDateTime"].as_str().map(str::to_owned))
                .map(|(i, _)| i);
            if let Some(index) = latest {
                visible.remove(index);
            }
        }
        _ => {}
    }

    let total = visible.len();
    let start = query.offset.min(total);
    let end = start.saturating_add(query.limit).min(total);
    let mut page: Vec<Value> = visible[start..end].to_vec();
    let next = (end < total).then_some(end);
    match fault {
        Some(Fault::SchemaInvalid) => {
            for event in &mut page {
                if let Some(object) = event.as_object_mut() {
                    object.remove("eventClassifierCode");
                    object.remove("eventDateTime");
                    object.insert("eventType".into(), json!("PARCEL"));
                }
            }
        }
        Some(Fault::MalformedJson) => {
            return with_version(
                (
                    StatusCode::OK,
                    [("Content-Type", "application/json")],
                    "<html>Service temporarily degraded</html>",
                )
                    .into_response(),
            );
        }
        Some(Fault::TruncatedJson) => {
            let text = serde_json::to_string(&page).unwrap_or_default();
            let cut = text.len() / 2;
            return with_version(
                (
                    StatusCode::OK,
                    [("Content-Type", "application/json")],
                    text[..cut].to_owned(),
                )
                    .into_response(),
            );
        }
        Some(Fault::Huge { bytes }) => {
            let template = page
                .first()
                .cloned()
                .unwrap_or_else(|| json!({"padding": "x".repeat(1024)}));
            let size = serde_json::to_string(&template).map_or(1, |t| t.len().max(1));
            page.extend(std::iter::repeat_n(template, bytes / size + 1));
        }
        _ => {}
    }
    page_response(&sim, &uri, &query, page, next)
}

fn page_response(
    sim: &Simulator,
    uri: &Uri,
    query: &EventQuery,
    page: Vec<Value>,
    next: Option<usize>,
) -> Response {
    let mut response = axum::Json(page).into_response();
    if let Some(next) = next {
        let value = match sim.state.config.next_page {
            NextPage::Token => cursor(next),
            NextPage::Url => {
                let mut params = form_urlencoded::Serializer::new(String::new());
                for (key, value) in &query.passthrough {
                    params.append_pair(key, value);
                }
                params.append_pair("cursor", &cursor(next));
                format!("{}?{}", uri.path(), params.finish())
            }
        };
        if let Ok(value) = HeaderValue::from_str(&value) {
            response.headers_mut().insert("Next-Page", value);
        }
    }
    if let Ok(value) = HeaderValue::from_str(&cursor(query.offset)) {
        response.headers_mut().insert("Current-Page", value);
    }
    with_version(response)
}

struct TokenRequest {
    grant_type: String,
    client_id: Option<String>,
    client_secret: Option<String>,
}

/// OAuth2 client credentials (RFC 6749 §4.4), form-encoded; tokens live one simulated hour.
async fn token(State(sim): State<Simulator>, headers: HeaderMap, body: Bytes) -> Response {
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
    let basic = basic_credentials(&headers);
    let (id, secret) = match (form.client_id, form.client_secret, basic) {
        (Some(id), Some(secret), _) => (id, secret),
        (_, _, Some(pair)) => pair,
        _ => return oauth_error(StatusCode::UNAUTHORIZED, "invalid_client"),
    };
    let known = sim
        .state
        .config
        .oauth_clients
        .iter()
        .any(|client| client.client_id == id && client.client_secret == secret);
    if !known {
        return oauth_error(StatusCode::UNAUTHORIZED, "invalid_client");
    }
    let token = uuid::Uuid::now_v7().simple().to_string();
    let expires = sim.state.clock.now() + time::Duration::hours(1);
    lock(&sim.state.tokens).insert(token.clone(), expires);
    axum::Json(json!({"access_token": token, "token_type": "Bearer", "expires_in": 3600}))
        .into_response()
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

/// The admin API answers only with the admin key, and not at all without one configured.
async fn require_admin(
    State(sim): State<Simulator>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let expected = sim.state.config.admin_key.as_deref();
    let given = request
        .headers()
        .get("Admin-Key")
        .and_then(|v| v.to_str().ok());
    match (expected, given) {
        (Some(expected), Some(given)) if expected == given => next.run(request).await,
        (None, _) => (
            StatusCode::NOT_FOUND,
            axum::Json(json!({"error": "the admin API is off"})),
        )
            .into_response(),
        _ => (
            StatusCode::UNAUTHORIZED,
            axum::Json(json!({"error": "send a valid Admin-Key header"})),
        )
            .into_response(),
    }
}

fn clock_document(sim: &Simulator) -> Value {
    json!({"now": timestamp(sim.state.clock.now()), "clock": sim.state.clock.mode(),
           "epoch": timestamp(sim.state.config.epoch)})
}

async fn read_clock(State(sim): State<Simulator>) -> Response {
    axum::Json(clock_document(&sim)).into_response()
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ClockChange {
    #[serde(default)]
    advance_seconds: Option<i64>,
    #[serde(default)]
    set: Option<String>,
    #[serde(default)]
    clock: Option<ClockMode>,
}

fn bad_request(message: impl Into<String>) -> Response {
    (
        StatusCode::BAD_REQUEST,
        axum::Json(json!({"error": message.into()})),
    )
        .into_response()
}

/// `{"advance_seconds": N}`, `{"set": "<RFC 3339>"}` and/or `{"clock": {"mode": …}}`.
async fn move_clock(State(sim): State<Simulator>, body: Bytes) -> Response {
    let change: ClockChange = match serde_json::from_slice(&body) {
        Ok(change) => change,
        Err(error) => return bad_request(error.to_string()),
    };
    let clock = &sim.state.clock;
    if let Some(mode) = change.clock {
        clock.set_mode(mode);
    }
    if let Some(text) = change.set {
        match OffsetDateTime::parse(&text, &Rfc3339) {
            Ok(at) => clock.set(at),
            Err(_) => return bad_request("set is not an RFC 3339 date-time"),
        }
    }
    if let Some(seconds) = change.advance_seconds {
        if seconds < 0 {
            return bad_request("advance_seconds must not be negative; use set to go back");
        }
        clock.advance(time::Duration::seconds(seconds));
    }
    axum::Json(clock_document(&sim)).into_response()
}

async fn list_faults(State(sim): State<Simulator>) -> Response {
    let faults: Vec<Value> = lock(&sim.state.faults)
        .list()
        .into_iter()
        .map(|(id, rule)| json!({"id": id, "rule": rule}))
        .collect();
    axum::Json(faults).into_response()
}

async fn add_fault(State(sim): State<Simulator>, body: Bytes) -> Response {
    match serde_json::from_slice::<FaultRule>(&body) {
        Ok(rule) => {
            let id = sim.add_fault(rule);
            (StatusCode::CREATED, axum::Json(json!({"id": id}))).into_response()
        }
        Err(error) => bad_request(error.to_string()),
    }
}

async fn clear_faults(State(sim): State<Simulator>) -> Response {
    sim.clear_faults();
    StatusCode::NO_CONTENT.into_response()
}

async fn remove_fault(State(sim): State<Simulator>, Path(id): Path<u64>) -> Response {
    if lock(&sim.state.faults).remove(id) {
        StatusCode::NO_CONTENT.into_response()
    } else {
        (
            StatusCode::NOT_FOUND,
            axum::Json(json!({"error": "no such fault"})),
        )
            .into_response()
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Injection {
    scac: String,
    events: Vec<Value>,
}

/// Adds events as sent to a carrier's answers; each needs an RFC 3339
/// `eventCreatedDateTime`, and is visible from then on.
async fn inject(State(sim): State<Simulator>, body: Bytes) -> Response {
    let injection: Injection = match serde_json::from_slice(&body) {
        Ok(injection) => injection,
        Err(error) => return bad_request(error.to_string()),
    };
    let mut timed = Vec::with_capacity(injection.events.len());
    for (index, body) in injection.events.into_iter().enumerate() {
        let Some(created) = body
            .get("eventCreatedDateTime")
            .and_then(Value::as_str)
            .and_then(|t| OffsetDateTime::parse(t, &Rfc3339).ok())
        else {
            return bad_request(format!(
                "events[{index}] has no RFC 3339 eventCreatedDateTime"
            ));
        };
        timed.push(TimedEvent { created, body });
    }
    let count = timed.len();
    lock(&sim.state.injected)
        .entry(injection.scac.to_ascii_uppercase())
        .or_default()
        .extend(timed);
    (StatusCode::CREATED, axum::Json(json!({"injected": count}))).into_response()
}

async fn clear_injected(State(sim): State<Simulator>) -> Response {
    lock(&sim.state.injected).clear();
    StatusCode::NO_CONTENT.into_response()
}

async fn lookups(State(sim): State<Simulator>, RawQuery(raw): RawQuery) -> Response {
    let mut scac = None;
    let mut reference = None;
    for (key, value) in form_urlencoded::parse(raw.unwrap_or_default().as_bytes()) {
        match key.as_ref() {
            "scac" => scac = Some(value.into_owned()),
            "reference" => reference = Some(value.into_owned()),
            _ => {}
        }
    }
    let (Some(scac), Some(reference)) = (scac, reference) else {
        return bad_request("give scac and reference");
    };
    let count = sim.lookups(&scac, &reference);
    axum::Json(json!({"scac": scac, "reference": reference, "lookups": count})).into_response()
}

/// Clears faults, injected events, lookup counts and tokens, and puts the clock back at
/// the epoch in its configured mode.
async fn reset(State(sim): State<Simulator>) -> Response {
    sim.clear_faults();
    lock(&sim.state.injected).clear();
    lock(&sim.state.lookups).clear();
    lock(&sim.state.tokens).clear();
    sim.state.clock.set(sim.state.config.epoch);
    sim.state.clock.set_mode(sim.state.config.clock);
    axum::Json(clock_document(&sim)).into_response()
}
