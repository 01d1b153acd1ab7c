//! A carrier that pushes (DCSA 2.2 event subscriptions), played by the simulator: Tidemark
//! subscribes once a lookup finds the shipment, with a secret of its own; refreshes slow
//! to the safety net; a signed push of new events has the shipment read again at once; a
//! replay or a wrong signature changes nothing, a batch out of order and a retraction are
//! news; a stopped shipment's subscription is ended at the carrier.

use serde_json::Value;
use tidemark_domain::{Clock, JobKind, Timestamp, TrackingRequestId};
use tidemark_store::testing::Backend;

use crate::common::{TestApp, document};
use crate::shipments::{shipment_action, shipment_id, track};

tidemark_store::backends!(
    with_pushing_carrier,
    a_signed_push_has_the_shipment_read_at_once_and_polling_slows,
    a_stopped_shipment_s_subscription_ends_and_strangers_are_refused,
);

const ENDPOINTS: &str = r#"
callback_base_url = "{app}"

[endpoints.MAEU]
base_url = "{sim}/MAEU"
auth = { kind = "header", name = "API-Key", value = "sim-key" }
push = "dcsa_2_2"
"#;

async fn with_pushing_carrier<F, Fut>(backend: Backend, case: F)
where
    F: FnOnce(TestApp) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    let app = TestApp::build(backend).world_clock().carriers(ENDPOINTS);
    case(app.spawn().await).await;
}

/// [`TestApp::sim_pushes`] of `event-pushes`.
async fn push(t: &TestApp, fault: Option<&str>) -> Vec<Value> {
    t.sim_pushes("event-pushes", fault).await
}

async fn refresh_due(t: &TestApp) -> Timestamp {
    t.store
        .next_due(JobKind::Refresh)
        .await
        .expect("read")
        .expect("a refresh is queued")
}

async fn events_of(t: &TestApp, request: &Value) -> usize {
    let id = TrackingRequestId::parse(request["data"]["id"].as_str().expect("id")).expect("id");
    let tracked = t.store.tracked(id).await.expect("read").expect("tracked");
    tracked.raw_events.len()
}

/// A bill at MAEU the carrier records an event of between 7 and 23 hours from now, and
/// when.
fn bill_with_news(t: &TestApp) -> (String, time::OffsetDateTime) {
    let now = t.sim.clock().now();
    (0..500)
        .map(|n| format!("MAEU2405{n:05}"))
        .find_map(|bill| {
            let reference = carrier_sim::world::Reference::TransportDocument(bill.clone());
            let shipment = t.sim.world().shipment(
                "MAEU",
                &reference,
                carrier_sim::world::Placement::Seeded,
                None,
            )?;
            let news = carrier_sim::timeline::events(&shipment)
                .into_iter()
                .map(|event| event.created)
                .find(|at| {
                    *at > now + time::Duration::hours(7) && *at < now + time::Duration::hours(23)
                })?;
            (shipment.manifested_at < now).then_some((bill, news))
        })
        .expect("some bill has news soon")
}

async fn a_signed_push_has_the_shipment_read_at_once_and_polling_slows(t: TestApp) {
    let line = document(t.get("/v2/shipping_lines/MAEU").await).await;
    assert_eq!(line["data"]["attributes"]["tracking_mode"], "push");
    t.advance(time::Duration::days(3));
    let (bill, news) = bill_with_news(&t);
    let request = track(&t, &bill, "MAEU").await;
    assert_eq!(request["data"]["attributes"]["status"], "created");
    // The refresh decided with the lookup that found it keeps its time; from the next
    // one on, polling is the safety net while the carrier pushes.
    let first = refresh_due(&t).await;
    assert!(first < t.clock.now() + std::time::Duration::from_secs(12 * 3600));
    let wait = first.unix_seconds() - t.clock.now().unix_seconds();
    t.advance(time::Duration::seconds(wait + 1));
    t.drain().await;
    assert!(
        refresh_due(&t).await >= t.clock.now() + std::time::Duration::from_secs(23 * 3600),
        "polling is the safety net while the carrier pushes"
    );
    let before = events_of(&t, &request).await;
    // The carrier records news, well before the next refresh.
    let until_news = news - t.sim.clock().now() + time::Duration::minutes(1);
    assert!(until_news.is_positive());
    t.advance(until_news);
    let pushes = push(&t, None).await;
    assert_eq!(pushes.len(), 1, "{pushes:?}");
    assert_eq!(pushes[0]["status"], 204, "{pushes:?}");
    assert!(pushes[0]["events"].as_u64().is_some_and(|n| n > 0));
    assert!(refresh_due(&t).await <= t.clock.now(), "read again at once");
    let asked = t.sim.lookups("MAEU", &bill);
    t.drain().await;
    assert_eq!(
        t.sim.lookups("MAEU", &bill),
        asked + 1,
        "the carrier is asked again"
    );
    let after = events_of(&t, &request).await;
    assert!(after > before, "{before} → {after} carrier events");
    assert!(refresh_due(&t).await > t.clock.now());

    // A replay is no news; a wrong signature is refused.
    assert_eq!(push(&t, Some("replay")).await[0]["status"], 204);
    assert!(
        refresh_due(&t).await > t.clock.now(),
        "a replay is heard once"
    );
    t.sim.clock().advance(time::Duration::days(2));
    assert_eq!(push(&t, Some("wrong_signature")).await[0]["status"], 401);
    assert!(refresh_due(&t).await > t.clock.now());
    // The same events, signed and out of order, are news; then a retraction is.
    assert_eq!(push(&t, Some("out_of_order")).await[0]["status"], 204);
    assert!(refresh_due(&t).await <= t.clock.now());
    t.drain().await;
    assert_eq!(push(&t, Some("retracted")).await[0]["status"], 204);
    assert!(
        refresh_due(&t).await <= t.clock.now(),
        "a retraction is news"
    );
    t.drain().await;
}

async fn a_stopped_shipment_s_subscription_ends_and_strangers_are_refused(t: TestApp) {
    t.advance(time::Duration::days(3));
    let request = track(&t, "MAEU240529132", "MAEU").await;
    // A push without a subscription of ours, or unsigned, is refused.
    for headers in [
        vec![
            ("Subscription-ID", "not-ours"),
            ("Notification-Signature", "sha256=00"),
        ],
        vec![("Notification-Signature", "sha256=00")],
    ] {
        let mut call = reqwest::Client::new()
            .post(format!("{}/carrier-callbacks/MAEU", t.base))
            .header("Content-Type", "application/json")
            .body("[]");
        for (name, value) in headers {
            call = call.header(name, value);
        }
        let response = call.send().await.expect("request");
        assert_eq!(response.status(), 401);
        let problem = document(response).await;
        assert_eq!(problem["errors"][0]["code"], "unauthorized");
    }
    let stopped = shipment_action(&t, &shipment_id(&request), "stop_tracking").await;
    assert_eq!(stopped.status(), 200);
    t.clock.advance(time::Duration::minutes(2));
    t.drain().await;
    t.sim.clock().advance(time::Duration::days(4));
    assert!(
        push(&t, None).await.is_empty(),
        "the subscription is gone at the carrier"
    );
}
