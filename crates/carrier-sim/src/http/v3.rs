//! `GET /{SCAC}/v3/events`: the same shipments in DCSA 3.0's shape ([`crate::v3`]): pages
//! named by `Next-Page-Cursor`, errors as `feedbackElements`.

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use super::events::answer_as_2_2;
use super::{LineCall, with_api_version};
use crate::Simulator;

pub(super) async fn events_v3_route(State(sim): State<Simulator>, call: LineCall) -> Response {
    let query = crate::v3::query(&call.query);
    let (mut parts, read) = answer_as_2_2(sim.clone(), call, query).await;
    let status = parts.status;
    let Some(read) = read else {
        // A fault's damaged page goes out as damaged.
        return (status, "<html>Service temporarily degraded</html>").into_response();
    };
    let body = if status == StatusCode::OK {
        let now = sim.state.clock.now();
        let pod = |number: &str| -> Option<&'static str> {
            let index = crate::lock(&sim.state.terminals);
            let visit = index.visit(number)?;
            let shipment = visit.shipment(&sim.state.world)?;
            Some(shipment.destination().locode)
        };
        let events: Vec<Value> = read
            .as_array()
            .map(|events| {
                events
                    .iter()
                    .map(crate::v3::event)
                    .flat_map(|event| {
                        let release = crate::v3::release_events(&event, pod, now);
                        std::iter::once(event).chain(release)
                    })
                    .collect()
            })
            .unwrap_or_default();
        json!({ "events": events })
    } else {
        let message = read["errors"][0]["message"]
            .as_str()
            .unwrap_or("the request failed")
            .to_owned();
        json!({"feedbackElements": [{"severity": "ERROR", "message": message}]})
    };
    if let Some(next) = parts.headers.remove("Next-Page") {
        parts.headers.insert("Next-Page-Cursor", next);
    }
    parts.headers.remove("Current-Page");
    parts.headers.remove("content-length");
    let response = Response::from_parts(parts, axum::Json(body).into_response().into_body());
    with_api_version(response, crate::v3::API_VERSION)
}
