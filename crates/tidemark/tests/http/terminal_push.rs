//! A terminal that pushes (the terminal protocol's subscriptions), played by the
//! simulator: Tidemark subscribes with its first check and then polls only as a safety
//! net; a pushed answer is applied before the terminal gets its answer and heard once; a
//! terminal speaks only for the boxes discharged at it; the wrong token and a body out of
//! the protocol are refused.

use serde_json::{Value, json};
use tidemark_domain::{Clock, JobKind};
use tidemark_testkit::SIM_KEY;

use tidemark_store::testing::Backend;

use crate::common::{TestApp, document};
use crate::shipments::track;

tidemark_store::backends!(
    with_pushed,
    a_pushed_answer_is_heard_at_once_and_the_checks_slow_down,
    a_terminal_speaks_only_for_its_own_boxes_and_with_its_token,
);

async fn with_pushed<F, Fut>(backend: Backend, case: F)
where
    F: FnOnce(TestApp) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    case(TestApp::build(backend).world_clock().pushed().spawn().await).await;
}

/// [`TestApp::sim_pushes`] of `terminal-pushes`.
async fn push(t: &TestApp, fault: Option<&str>) -> Vec<Value> {
    t.sim_pushes("terminal-pushes", fault).await
}

async fn containers(t: &TestApp) -> Vec<Value> {
    document(t.get("/v2/containers?page[size]=100").await).await["data"]
        .as_array()
        .cloned()
        .expect("containers")
}

async fn heard(t: &TestApp, event: &str) -> usize {
    let path = format!("/v2/webhook_notifications?filter[event]={event}&page[size]=100");
    document(t.get(&path).await).await["data"]
        .as_array()
        .map_or(0, Vec::len)
}

/// Tracks `TEST-TR-HOLDS`: the first check asks the terminal and subscribes.
async fn tracked_and_subscribed(t: &TestApp) {
    t.subscribe("https://hooks.example.com/terminal-push").await;
    track(t, "TEST-TR-HOLDS", "TEST").await;
    let boxes = containers(t).await;
    assert!(
        boxes
            .iter()
            .all(|c| c["attributes"]["available_for_pickup"] == false)
    );
    let request = t
        .store
        .list_tracking_requests(
            t.account.id,
            &tidemark_store::TrackingRequestFilter::default(),
            tidemark_store::PageRequest::new(1, 1),
        )
        .await
        .expect("list")
        .items
        .remove(0);
    let tracked = t
        .store
        .tracked(request.id)
        .await
        .expect("read")
        .expect("tracked");
    assert!(
        tracked.containers.iter().all(|c| c
            .terminal_subscribed_until
            .is_some_and(|until| until > t.clock.now())),
        "every box subscribed to"
    );
    let next = t
        .store
        .next_due(JobKind::TerminalCheck)
        .await
        .expect("read");
    // The sandbox line's cadence (`[sandbox.tracking]`).
    let refresh = tidemark_domain::lifecycle::Policy::sandbox().refresh;
    assert_eq!(
        next,
        Some(t.clock.now() + refresh),
        "polled only as a safety net"
    );
}

async fn a_pushed_answer_is_heard_at_once_and_the_checks_slow_down(t: TestApp) {
    tracked_and_subscribed(&t).await;
    // At the terminal, two and a half days pass: discharged, released, available. Tidemark's
    // own checks are not due.
    t.sim.clock().advance(time::Duration::hours(60));
    assert_eq!(heard(&t, "container.pickup_lfd.changed").await, 0);
    let pushes = push(&t, None).await;
    assert_eq!(
        pushes.len(),
        1,
        "one subscriber of one terminal: {pushes:?}"
    );
    let answer = &pushes[0]["answer"];
    assert_eq!(answer["status"], 200, "{answer}");
    assert_eq!(answer["body"]["applied"], 1);
    let boxes = containers(&t).await;
    for container in &boxes {
        let attributes = &container["attributes"];
        // The terminal's holds cleared and it released the box; the line's word stands
        // until it is read again, and its freight hold in force keeps the box unavailable.
        let holds = attributes["holds_at_pod_terminal"]
            .as_array()
            .expect("holds");
        assert!(
            holds.iter().all(|h| h["description"]
                .as_str()
                .is_some_and(|d| d.ends_with("(arrival notice)"))),
            "{holds:?}"
        );
        assert!(holds.iter().any(|h| h["status"] == "hold"), "{holds:?}");
        assert_eq!(attributes["available_for_pickup"], false, "{attributes}");
        assert!(attributes["terminal_checked_at"].is_string());
    }
    assert_eq!(
        heard(&t, "container.pickup_lfd.changed").await,
        boxes.len(),
        "each box's last free day heard at once"
    );
    assert_eq!(heard(&t, "container.transport.available").await, 0);

    // The same answer again: taken, nothing heard again.
    assert_eq!(push(&t, None).await[0]["answer"]["status"], 200);
    assert_eq!(heard(&t, "container.pickup_lfd.changed").await, boxes.len());
}

async fn a_terminal_speaks_only_for_its_own_boxes_and_with_its_token(t: TestApp) {
    tracked_and_subscribed(&t).await;
    t.sim.clock().advance(time::Duration::hours(60));
    let refused = push(&t, Some("wrong_token")).await;
    assert_eq!(refused[0]["answer"]["status"], 401);
    let garbled = push(&t, Some("garbled")).await;
    assert_eq!(garbled[0]["answer"]["status"], 400);
    assert_eq!(
        garbled[0]["answer"]["body"]["errors"][0]["code"],
        "malformed_json"
    );

    // Another terminal's word on these boxes: authenticated, and applied to none.
    let numbers: Vec<String> = containers(&t)
        .await
        .iter()
        .map(|c| {
            c["attributes"]["number"]
                .as_str()
                .expect("number")
                .to_owned()
        })
        .collect();
    let entries: Vec<Value> = numbers
        .iter()
        .map(|n| json!({"containerNumber": n, "known": true, "available": true}))
        .collect();
    let elsewhere = reqwest::Client::new()
        .post(format!(
            "{}/terminal-callbacks/ZZNOTHERE/import-availability",
            t.base
        ))
        .bearer_auth(SIM_KEY)
        .json(&json!({"checkedAt": "2026-06-01T00:00:00Z", "containers": entries}))
        .send()
        .await
        .expect("request");
    assert_eq!(elsewhere.status(), 200);
    let receipt: Value = elsewhere.json().await.expect("json");
    assert_eq!(receipt["trackingRequests"], 1, "{receipt}");
    assert_eq!(receipt["applied"], 0, "not its boxes: {receipt}");
    let boxes = containers(&t).await;
    assert!(
        boxes
            .iter()
            .all(|c| c["attributes"]["available_for_pickup"] == false)
    );
}
