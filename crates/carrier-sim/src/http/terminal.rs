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
use crate::timeline::timestamp;
use crate::{Simulator, lock};

/// Most boxes asked at once.
const MAX_CONTAINERS: usize = 100;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Ask {
    containers: Vec<String>,
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
    if !authorized(&sim, &headers) {
        return refusal(&Refusal::new(
            StatusCode::UNAUTHORIZED,
            "unauthorized",
            "send a valid API-Key header",
        ));
    }
    let Ok(ask) = serde_json::from_slice::<Ask>(&body) else {
        return bad_request("send {\"containers\": [container numbers]}");
    };
    if ask.containers.is_empty() || ask.containers.len() > MAX_CONTAINERS {
        return bad_request("ask about 1 to 100 containers");
    }
    let asked: Vec<&str> = ask.containers.iter().map(String::as_str).collect();
    let fault = lock(&sim.state.faults).take(Party::Terminal(&code), &asked);
    if let Some(Early::Refuse(refused)) = before_answering(fault.as_ref(), false).await {
        return refusal(&refused);
    }
    let now = sim.state.clock.now();
    let mut entries: Vec<Value> = {
        let index = lock(&sim.state.terminals);
        asked
            .iter()
            .map(|number| entry(&sim.state.world, &index, &code, number, now))
            .collect()
    };
    let answer = |entries: Vec<Value>| json!({"checkedAt": timestamp(now), "containers": entries});
    let text = |body: String| {
        (StatusCode::OK, [("Content-Type", "application/json")], body).into_response()
    };
    match fault {
        Some(Fault::MalformedJson) => text("<html>Terminal portal maintenance</html>".to_owned()),
        Some(Fault::TruncatedJson) => {
            let whole = answer(entries).to_string();
            text(whole[..whole.len() / 2].to_owned())
        }
        Some(Fault::SchemaInvalid) => {
            for entry in &mut entries {
                entry["holds"] = json!([{"type": "customs", "status": "maybe"}]);
                entry["known"] = json!(true);
            }
            axum::Json(answer(entries)).into_response()
        }
        Some(Fault::Huge { bytes }) => {
            let padding = "x".repeat(bytes);
            let mut body = answer(entries);
            body["padding"] = Value::String(padding);
            axum::Json(body).into_response()
        }
        _ => axum::Json(answer(entries)).into_response(),
    }
}
