//! `GET /{SCAC}/arrival-notices?transportDocumentReferences=…`: the line's Arrival
//! Notices (DCSA AN 1.0.1, publisher side) of the bills asked, in two types each, one a
//! page (`Next-Page-Cursor`), behind the carriers' credentials, with the faults asked for.

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;

use super::LineCall;
use super::auth::authorized;
use super::events::{Early, before_answering, shipment_of};
use crate::faults::{Fault, Party};
use crate::terminal::notice::{arrival_notice, first_issued};
use crate::world::{Fate, Reference};
use crate::{Simulator, lock};

/// The API version of the Arrival Notice standard served.
const AN_VERSION: &str = "1.0.1";

pub(super) async fn notices_route(State(sim): State<Simulator>, call: LineCall) -> Response {
    let error = |status, reason: &str, message: &str| call.error(status, reason, message);
    if !authorized(&sim, &call.headers) {
        return error(
            StatusCode::UNAUTHORIZED,
            "unauthorized",
            "send a valid API-Key header",
        );
    }
    let scac = call.scac.to_ascii_uppercase();
    let query: Vec<(String, String)> = form_urlencoded::parse(call.query.as_bytes())
        .into_owned()
        .collect();
    let bills: Vec<String> = query
        .iter()
        .filter(|(key, _)| key == "transportDocumentReferences")
        .flat_map(|(_, value)| {
            value
                .split(',')
                .map(|bill| bill.trim().to_owned())
                .filter(|bill| !bill.is_empty())
                .collect::<Vec<_>>()
        })
        .collect();
    if bills.is_empty() || bills.len() > 20 {
        return error(
            StatusCode::BAD_REQUEST,
            "invalidQuery",
            "name 1 to 20 transportDocumentReferences",
        );
    }
    let asked: Vec<&str> = bills.iter().map(String::as_str).collect();
    let fault = lock(&sim.state.faults).take(Party::Carrier(&scac), &asked);
    if let Some(Early::Refuse(refused)) = before_answering(fault.as_ref(), false).await {
        return refused.with_retry_after(error(refused.status, refused.reason, refused.message));
    }
    if matches!(fault, Some(Fault::MalformedJson)) {
        return (
            StatusCode::OK,
            "<html>Arrival notices are being regenerated</html>",
        )
            .into_response();
    }
    let now = sim.state.clock.now();
    // Each notice in two types, as a line publishes them (with and without charges).
    let notices: Vec<serde_json::Value> = bills
        .iter()
        .filter_map(|bill| notice_of(&sim, &scac, bill, Issue::AsOf(now)))
        .flat_map(|notice| {
            let mut plain = notice.clone();
            plain["typeLabel"] = json!("No charges, English");
            [notice, plain]
        })
        .collect();
    let offset: usize = query
        .iter()
        .find(|(key, _)| key == "cursor")
        .and_then(|(_, value)| value.parse().ok())
        .unwrap_or(0);
    page(&notices, offset)
}

/// Which version of a notice.
#[derive(Debug, Clone, Copy)]
pub(super) enum Issue {
    /// As it stands at this time.
    AsOf(time::OffsetDateTime),
    /// Its first version.
    First,
}

/// The notice of line `scac`'s bill `bill`, if its vessel sails and it is issued.
pub(super) fn notice_of(
    sim: &Simulator,
    scac: &str,
    bill: &str,
    issue: Issue,
) -> Option<serde_json::Value> {
    let (outcome, placement, _) = shipment_of(scac, bill, u32::MAX).ok()?;
    let reference = Reference::TransportDocument(bill.to_owned());
    let world = sim.world_of(scac, bill);
    let shipment = world.shipment(scac, &reference, placement, outcome)?;
    (shipment.fate == Fate::Sails).then_some(())?;
    let at = match issue {
        Issue::AsOf(at) => at,
        Issue::First => first_issued(&shipment),
    };
    arrival_notice(&world, &shipment, &reference, at)
}

/// One notice a page (the publisher's own page size): clients follow the cursor.
fn page(notices: &[serde_json::Value], offset: usize) -> Response {
    let page: Vec<serde_json::Value> = notices.iter().skip(offset).take(1).cloned().collect();
    let mut response = axum::Json(json!({"arrivalNotices": page})).into_response();
    if offset + 1 < notices.len()
        && let Ok(value) = axum::http::HeaderValue::from_str(&(offset + 1).to_string())
    {
        response.headers_mut().insert("Next-Page-Cursor", value);
    }
    if let Ok(value) = axum::http::HeaderValue::from_str(AN_VERSION) {
        response.headers_mut().insert("API-Version", value);
    }
    response
}
