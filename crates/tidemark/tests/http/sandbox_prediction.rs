//! Tidemark's own arrival estimate of a sandbox shipment at sea (api.md §4, beyond the
//! reference): made from the vessel's AIS position over the sea routes, kept as the
//! shipment's `pod_predicted_eta_at`, its divergence from the carrier's estimate sent to
//! the webhooks that name the event (and not to those that take every event), and its
//! error measured against the arrival the simulator then reports.

use std::time::Duration;

use serde_json::{Value, json};
use tidemark_domain::Timestamp;
use tidemark_store::testing::Backend;

use crate::common::{TestApp, document};
use crate::sandbox_vessels::heard;
use crate::shipments::track;
use crate::webhook_delivery::{id_of, subscribed};

tidemark_store::backends!(
    spawn,
    a_sandbox_shipment_at_sea_gets_tidemarks_arrival_estimate_and_its_divergence,
);

/// The margin this test decides divergence by: a minute, so that any real difference
/// between the carrier's estimate and Tidemark's is a divergence.
const MARGIN: Duration = Duration::from_secs(60);

async fn spawn<F, Fut>(backend: Backend, case: F)
where
    F: FnOnce(TestApp) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    let t = TestApp::build(backend)
        .world_clock()
        .vessels_on_ais()
        .config(|config| config.sandbox.tracking.prediction_margin = MARGIN)
        .spawn()
        .await;
    case(t).await;
}

fn time(attributes: &Value, name: &str) -> Option<Timestamp> {
    attributes[name]
        .as_str()
        .map(|text| Timestamp::parse_rfc3339(text).expect("an RFC 3339 time"))
}

async fn shipment(t: &TestApp, id: &str) -> Value {
    document(t.get(&format!("/v2/shipments/{id}")).await).await["data"]["attributes"].clone()
}

async fn notifications(t: &TestApp, webhook: &str) -> Vec<Value> {
    let path = format!(
        "/v2/webhook_notifications?filter[webhook_id]={webhook}&filter[event]=shipment.predicted_arrival.diverged"
    );
    document(t.get(&path).await).await["data"]
        .as_array()
        .expect("notifications")
        .clone()
}

async fn a_sandbox_shipment_at_sea_gets_tidemarks_arrival_estimate_and_its_divergence(t: TestApp) {
    let named = id_of(
        &subscribed(
            &t,
            "https://hooks.example.com/diverged",
            json!(["shipment.predicted_arrival.diverged"]),
        )
        .await,
    );
    let everything = id_of(&subscribed(&t, "https://hooks.example.com/all", json!([])).await);
    let tracked = track(&t, "TEST-TR-JOURNEY", "TEST").await;
    let id = tracked["data"]["relationships"]["tracked_object"]["data"]["id"]
        .as_str()
        .expect("a shipment")
        .to_owned();
    assert!(
        shipment(&t, &id).await["pod_predicted_eta_at"].is_null(),
        "nothing predicted in port"
    );
    // A day at sea; once the feed has told of the vessel then, the next estimate reads it.
    t.advance(time::Duration::days(1));
    t.drain().await;
    let imo = shipment(&t, &id).await["pod_vessel_imo"]
        .as_str()
        .expect("a vessel")
        .to_owned();
    heard(&t, &imo).await;
    t.advance(time::Duration::minutes(1));
    t.drain().await;

    let attributes = shipment(&t, &id).await;
    let predicted = time(&attributes, "pod_predicted_eta_at").expect("Tidemark's estimate");
    let carrier = time(&attributes, "pod_eta_at").expect("the carrier's estimate");
    let now = tidemark_domain::Clock::now(t.clock.as_ref());
    assert!(predicted > now, "an arrival ahead: {predicted}");
    assert!(
        predicted.seconds_since(carrier).abs() > MARGIN.as_secs_f64(),
        "the two estimates differ ({predicted}, {carrier})"
    );
    let sent = notifications(&t, &named).await;
    assert_eq!(sent.len(), 1, "one divergence: {sent:?}");
    assert!(
        notifications(&t, &everything).await.is_empty(),
        "Tidemark's own event goes only to the webhooks that name it"
    );
    let path = format!(
        "/v2/webhook_notifications/{}?include=reference_object",
        id_of(&json!({"data": sent[0]}))
    );
    let notification = document(t.get(&path).await).await;
    assert_eq!(
        notification["data"]["relationships"]["reference_object"]["data"],
        json!({"type": "shipment", "id": id})
    );
    // The shipment as it stood when the estimates diverged: both, beyond the margin.
    let included = &notification["included"][0]["attributes"];
    let (then_predicted, then_carrier) = (
        time(included, "pod_predicted_eta_at").expect("Tidemark's estimate then"),
        time(included, "pod_eta_at").expect("the carrier's estimate then"),
    );
    assert!(
        then_predicted.seconds_since(then_carrier).abs() > MARGIN.as_secs_f64(),
        "diverged when sent ({then_predicted}, {then_carrier})"
    );

    // The estimate made again a minute on moves by seconds: kept, nothing sent again.
    t.advance(time::Duration::minutes(1));
    t.drain().await;
    assert_eq!(
        shipment(&t, &id).await["pod_predicted_eta_at"],
        attributes["pod_predicted_eta_at"]
    );
    assert_eq!(notifications(&t, &named).await.len(), 1);

    arrival_error(&t, &id, &imo, (predicted, carrier)).await;
}

/// Sails on, four days at a time, to the arrival the simulator reports, and prints how
/// far each estimate made on the way (Tidemark's and the carrier's, from a day out of port)
/// was from it.
async fn arrival_error(t: &TestApp, id: &str, imo: &str, estimate: (Timestamp, Timestamp)) {
    let mut estimates = vec![estimate];
    let mut arrived = None;
    for _ in 0..10 {
        t.advance(time::Duration::days(4));
        t.drain().await;
        arrived = time(&shipment(t, id).await, "pod_ata_at");
        if arrived.is_some() {
            break;
        }
        heard(t, imo).await;
        t.advance(time::Duration::minutes(1));
        t.drain().await;
        let attributes = shipment(t, id).await;
        if let (Some(ours), Some(theirs)) = (
            time(&attributes, "pod_predicted_eta_at"),
            time(&attributes, "pod_eta_at"),
        ) {
            estimates.push((ours, theirs));
        }
    }
    let arrived = arrived.expect("the vessel arrives within forty days");
    let hours = |at: Timestamp| at.seconds_since(arrived) / 3_600.0;
    let errors: Vec<String> = estimates
        .iter()
        .map(|(ours, theirs)| format!("{:+.1} h / {:+.1} h", hours(*ours), hours(*theirs)))
        .collect();
    eprintln!(
        "arrival {arrived}; Tidemark's / the carrier's estimate every four days from a day out: {}",
        errors.join(", ")
    );
    for (ours, _) in &estimates {
        assert!(
            hours(*ours).abs() < 12.0,
            "Tidemark's estimate {:+.1} h from the arrival",
            hours(*ours)
        );
    }
}
