//! The admin API (`/admin/…`, behind `Admin-Key`): the clock, faults, injected events,
//! lookup counts and reset.

use axum::body::Bytes;
use axum::extract::{Path, RawQuery, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::{Value, json};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use crate::faults::FaultRule;
use crate::timeline::{TimedEvent, timestamp};
use crate::{ClockMode, Simulator, lock};

/// The admin API answers only with the admin key, and not at all without one configured.
pub(super) async fn require_admin(
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

pub(super) async fn read_clock(State(sim): State<Simulator>) -> Response {
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
pub(super) async fn move_clock(State(sim): State<Simulator>, body: Bytes) -> Response {
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

pub(super) async fn list_faults(State(sim): State<Simulator>) -> Response {
    let faults: Vec<Value> = lock(&sim.state.faults)
        .list()
        .into_iter()
        .map(|(id, rule)| json!({"id": id, "rule": rule}))
        .collect();
    axum::Json(faults).into_response()
}

pub(super) async fn add_fault(State(sim): State<Simulator>, body: Bytes) -> Response {
    match serde_json::from_slice::<FaultRule>(&body) {
        Ok(rule) => {
            let id = sim.add_fault(rule);
            (StatusCode::CREATED, axum::Json(json!({"id": id}))).into_response()
        }
        Err(error) => bad_request(error.to_string()),
    }
}

pub(super) async fn clear_faults(State(sim): State<Simulator>) -> Response {
    sim.clear_faults();
    StatusCode::NO_CONTENT.into_response()
}

pub(super) async fn remove_fault(State(sim): State<Simulator>, Path(id): Path<u64>) -> Response {
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
pub(super) async fn inject(State(sim): State<Simulator>, body: Bytes) -> Response {
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

pub(super) async fn clear_injected(State(sim): State<Simulator>) -> Response {
    lock(&sim.state.injected).clear();
    StatusCode::NO_CONTENT.into_response()
}

pub(super) async fn lookups(State(sim): State<Simulator>, RawQuery(raw): RawQuery) -> Response {
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

/// `GET /admin/calls?scac=…`: when each call to the line's events was made (Unix
/// milliseconds, wall clock).
pub(super) async fn calls(State(sim): State<Simulator>, RawQuery(raw): RawQuery) -> Response {
    let scac = form_urlencoded::parse(raw.unwrap_or_default().as_bytes())
        .find(|(key, _)| key == "scac")
        .map(|(_, value)| value.into_owned());
    let Some(scac) = scac else {
        return bad_request("give scac");
    };
    let calls = sim.calls(&scac);
    axum::Json(json!({"scac": scac, "calls": calls})).into_response()
}

/// Clears faults, injected events, lookup counts, tokens and when the scripted numbers
/// were first asked about, and puts the clock back at the epoch in its configured mode.
pub(super) async fn reset(State(sim): State<Simulator>) -> Response {
    sim.clear_faults();
    lock(&sim.state.injected).clear();
    lock(&sim.state.lookups).clear();
    lock(&sim.state.calls).clear();
    *lock(&sim.state.terminals) = crate::terminal::Index::default();
    *lock(&sim.state.subscriptions) = crate::terminal::subscriptions::Subscriptions::default();
    lock(&sim.state.tokens).clear();
    *lock(&sim.state.fleet) = crate::ais::Fleet::default();
    lock(&sim.state.first_asked).clear();
    sim.state.clock.set(sim.state.config.epoch);
    sim.state.clock.set_mode(sim.state.config.clock);
    axum::Json(clock_document(&sim)).into_response()
}
