//! `POST /terminals/{CODE}/import-availability`: a terminal of discharge answering what it
//! knows of up to 100 boxes, in Tidemark's terminal protocol, behind the same credentials
//! as the carriers, with the faults asked for.

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::{Value, json};

use super::auth::authorized;
use super::events::{Early, Refusal, before_answering};
use crate::faults::{Fault, Party};
use crate::terminal::entry;
use crate::terminal::subscriptions::Target;
use crate::timeline::timestamp;
use crate::{Simulator, lock};

/// Most boxes asked at once.
const MAX_CONTAINERS: usize = 100;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Ask {
    containers: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Subscribe {
    containers: Vec<String>,
    callback_url: String,
    callback_token: String,
}

/// `POST /terminals/{CODE}/import-availability/subscriptions`: the terminal pushes its
/// answers of the boxes to `callbackUrl` with `callbackToken` (when the admin API asks it
/// to), for thirty days.
pub(super) async fn subscribe_route(
    State(sim): State<Simulator>,
    Path(code): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let usage = "send {\"containers\": [...], \"callbackUrl\": ..., \"callbackToken\": ...}";
    let (ask, _) =
        match admit::<Subscribe>(&sim, &code, &headers, &body, usage, |s| &s.containers).await {
            Ok(admitted) => admitted,
            Err(refused) => return refused,
        };
    let target = Target {
        code: code.to_ascii_uppercase(),
        url: ask.callback_url,
        token: ask.callback_token,
    };
    let now = sim.state.clock.now();
    let until = lock(&sim.state.subscriptions).subscribe(&target, &ask.containers, now);
    match until {
        Some(until) => (
            StatusCode::CREATED,
            axum::Json(json!({"expiresAt": timestamp(until)})),
        )
            .into_response(),
        None => refusal(&Refusal::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "full",
            "this terminal takes no more subscriptions",
        )),
    }
}

/// The protocol's answer for `numbers` at terminal `code` at `now`.
pub(super) fn answer(
    sim: &Simulator,
    code: &str,
    numbers: &[String],
    now: time::OffsetDateTime,
) -> Value {
    let index = lock(&sim.state.terminals);
    let entries: Vec<Value> = numbers
        .iter()
        .map(|number| entry(&sim.state.world, &index, code, number, now))
        .collect();
    json!({"checkedAt": timestamp(now), "containers": entries})
}

fn refusal(refusal: &Refusal) -> Response {
    refusal.with_retry_after(
        (
            refusal.status,
            axum::Json(json!({"error": refusal.reason, "message": refusal.message})),
        )
            .into_response(),
    )
}

/// A terminal request's body once the caller, its shape, its number of boxes and the
/// faults asked for let it through; else the refusal to answer with.
async fn admit<T: serde::de::DeserializeOwned>(
    sim: &Simulator,
    code: &str,
    headers: &HeaderMap,
    body: &[u8],
    usage: &'static str,
    boxes: impl Fn(&T) -> &Vec<String>,
) -> Result<(T, Option<Fault>), Response> {
    if !authorized(sim, headers) {
        return Err(refusal(&Refusal::new(
            StatusCode::UNAUTHORIZED,
            "unauthorized",
            "send a valid API-Key header",
        )));
    }
    let Ok(ask) = serde_json::from_slice::<T>(body) else {
        return Err(bad_request(usage));
    };
    let numbers = boxes(&ask);
    if numbers.is_empty() || numbers.len() > MAX_CONTAINERS {
        return Err(bad_request("name 1 to 100 containers"));
    }
    let asked: Vec<&str> = numbers.iter().map(String::as_str).collect();
    let fault = lock(&sim.state.faults).take(Party::Terminal(code), &asked);
    if let Some(Early::Refuse(refused)) = before_answering(fault.as_ref(), false).await {
        return Err(refusal(&refused));
    }
    Ok((ask, fault))
}

fn bad_request(message: &'static str) -> Response {
    refusal(&Refusal::new(
        StatusCode::BAD_REQUEST,
        "badRequest",
        message,
    ))
}

pub(super) async fn availability_route(
    State(sim): State<Simulator>,
    Path(code): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let usage = "send {\"containers\": [container numbers]}";
    let (ask, fault) =
        match admit::<Ask>(&sim, &code, &headers, &body, usage, |a| &a.containers).await {
            Ok(admitted) => admitted,
            Err(refused) => return refused,
        };
    let mut body = answer(&sim, &code, &ask.containers, sim.state.clock.now());
    let text = |body: String| {
        (StatusCode::OK, [("Content-Type", "application/json")], body).into_response()
    };
    match fault {
        Some(Fault::MalformedJson) => text("<html>Terminal portal maintenance</html>".to_owned()),
        Some(Fault::TruncatedJson) => {
            let whole = body.to_string();
            text(whole[..whole.len() / 2].to_owned())
        }
        Some(Fault::SchemaInvalid) => {
            for entry in body["containers"].as_array_mut().into_iter().flatten() {
                entry["holds"] = json!([{"type": "customs", "status": "maybe"}]);
                entry["known"] = json!(true);
            }
            axum::Json(body).into_response()
        }
        Some(Fault::Huge { bytes }) => {
            body["padding"] = Value::String("x".repeat(bytes));
            axum::Json(body).into_response()
        }
        _ => axum::Json(body).into_response(),
    }
}
