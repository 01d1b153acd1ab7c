//! The sandbox's terminal numbers played through the API with the real tracker and the
//! simulator's terminals (api.md §4a): each event recorded once with its exact changeset,
//! a repeated answer silent, a failing terminal leaving the request alone.

use serde_json::{Value, json};

use crate::common::{SIM_ADMIN_KEY, TestApp, document, with_tracking};
use crate::shipments::track;

tidemark_store::backends!(
    with_tracking,
    holds_are_heard_once_and_a_failing_terminal_changes_nothing,
    an_extended_last_free_day_is_heard_with_its_new_value,
    availability_a_hold_takes_back_and_a_box_that_left_are_told_as_they_are,
);

/// The notifications of `event` and the reference objects they include.
async fn heard(t: &TestApp, event: &str) -> (Vec<Value>, Vec<Value>) {
    let body = document(
        t
            .get(&format!(
                "/v2/webhook_notifications?filter[event]={event}&include=reference_object&page[size]=100"
            ))
            .await,
    )
    .await;
    let data = body["data"].as_array().cloned().unwrap_or_default();
    let included = body["included"].as_array().cloned().unwrap_or_default();
    (data, included)
}

async fn containers(t: &TestApp) -> Vec<Value> {
    document(t.get("/v2/containers?page[size]=100").await).await["data"]
        .as_array()
        .cloned()
        .expect("containers")
}

/// Plays `hours` an hour at a time, working what is due after each.
async fn play(t: &TestApp, hours: u32) {
    for _ in 0..hours {
        t.advance(time::Duration::hours(1));
        t.drain().await;
    }
}

async fn terminal_fault(t: &TestApp, times: u32) {
    let response = reqwest::Client::new()
        .post(format!("{}/admin/faults", t.sim_url))
        .header("Admin-Key", SIM_ADMIN_KEY)
        .json(&json!({"terminal": "*", "kind": "server_error", "status": 500, "times": times}))
        .send()
        .await
        .expect("request");
    assert!(response.status().is_success(), "{}", response.status());
}

fn checked_at(containers: &[Value]) -> Vec<Value> {
    containers
        .iter()
        .map(|c| c["attributes"]["terminal_checked_at"].clone())
        .collect()
}

async fn holds_are_heard_once_and_a_failing_terminal_changes_nothing(t: TestApp) {
    t.subscribe("https://hooks.example.com/terminal").await;
    let request = track(&t, "TEST-TR-HOLDS", "TEST").await;
    assert_eq!(request["data"]["attributes"]["status"], "created");
    let boxes = containers(&t).await;
    the_first_check_is_heard_once(&t, &boxes).await;

    // An hour on, the terminal says the same: checked, nothing heard.
    play(&t, 1).await;
    assert_eq!(heard(&t, "container.updated").await.0.len(), boxes.len());
    let checked = checked_at(&containers(&t).await);
    assert!(
        checked
            .iter()
            .all(|at| *at != boxes[0]["attributes"]["terminal_checked_at"])
    );

    // The terminal fails for an hour: the request and the containers stay as they were.
    terminal_fault(&t, 1).await;
    let path = format!(
        "/v2/tracking_requests/{}",
        request["data"]["id"].as_str().expect("id")
    );
    let before = document(t.get(&path).await).await;
    play(&t, 1).await;
    let after = document(t.get(&path).await).await;
    assert_eq!(after["data"]["attributes"], before["data"]["attributes"]);
    assert_eq!(
        checked_at(&containers(&t).await),
        checked,
        "no terminal answered"
    );

    released_after_discharge(&t, boxes.len()).await;
}

/// On the vessel's approach: not available, held for its freight, customs pending.
async fn the_first_check_is_heard_once(t: &TestApp, boxes: &[Value]) {
    for container in boxes {
        let attributes = &container["attributes"];
        assert_eq!(attributes["availability_known"], true);
        assert_eq!(attributes["available_for_pickup"], false);
        assert!(attributes["terminal_checked_at"].is_string());
        assert_eq!(attributes["current_status"], "on_ship", "still aboard");
        // The line's Arrival Notice: where and how to pick it up and return it.
        assert!(attributes["pickup_number"].is_string());
        assert!(attributes["empty_return_location"].is_string());
        assert!(attributes["empty_return_reference"].is_string());
        assert_eq!(
            container["relationships"]["pickup_facility"]["data"],
            Value::Null,
            "picked up at the terminal of discharge: no facility of its own"
        );
    }
    let (updates, records) = heard(t, "container.updated").await;
    assert_eq!(updates.len(), boxes.len());
    for record in &records {
        assert_eq!(record["type"], "container_updated_event");
        assert_eq!(record["attributes"]["data_source"], "terminal");
        assert_eq!(
            record["attributes"]["changeset"],
            json!({
                "available_for_pickup": [null, false],
                "holds_at_pod_terminal": [[], [
                    {"name": "freight", "status": "hold", "description": "Freight not released by the line"},
                    {"name": "customs", "status": "pending", "description": "Awaiting customs release"},
                ]],
            })
        );
    }
    let (not_available, _) = heard(t, "container.transport.not_available").await;
    assert_eq!(not_available.len(), boxes.len());
}

/// Discharged, held, examined, released: each change heard once per box.
async fn released_after_discharge(t: &TestApp, boxes: usize) {
    play(t, 60).await;
    let (available, _) = heard(t, "container.transport.available").await;
    assert_eq!(available.len(), boxes);
    assert_eq!(
        heard(t, "container.transport.not_available").await.0.len(),
        boxes
    );
    let (lfd, events) = heard(t, "container.pickup_lfd.changed").await;
    assert_eq!(
        lfd.len(),
        boxes,
        "the line's and the terminal's came in one check"
    );
    assert_eq!(
        heard(t, "container.pickup_lfd_line.changed").await.0.len(),
        boxes
    );
    for container in containers(t).await {
        let attributes = &container["attributes"];
        assert_eq!(attributes["current_status"], "available");
        assert_eq!(attributes["holds_at_pod_terminal"], json!([]));
        // The line's last free day (its arrival notice) counts before the terminal's.
        let deadlines = &attributes["import_deadlines"];
        assert!(deadlines["pickup_lfd_terminal"].is_string());
        let day = &deadlines["pickup_lfd_line"];
        assert_eq!(&attributes["pickup_lfd"], day);
        assert!(
            events
                .iter()
                .any(|event| event["attributes"]["value"] == *day),
            "the event's value is the box's last free day"
        );
    }
}

async fn an_extended_last_free_day_is_heard_with_its_new_value(t: TestApp) {
    t.subscribe("https://hooks.example.com/terminal").await;
    track(&t, "TEST-TR-LFD-EXTENDED", "TEST").await;
    let first: Vec<Value> = containers(&t)
        .await
        .iter()
        .map(|c| c["attributes"]["pickup_lfd"].clone())
        .collect();
    assert!(first.iter().all(Value::is_string), "{first:?}");
    play(&t, 26).await;
    let boxes = containers(&t).await;
    let (changes, events) = heard(&t, "container.pickup_lfd.changed").await;
    assert_eq!(changes.len(), 2 * boxes.len(), "set, then extended");
    assert_eq!(
        heard(&t, "container.pickup_lfd_terminal.changed")
            .await
            .0
            .len(),
        2 * boxes.len()
    );
    let (_, updates) = heard(&t, "container.updated").await;
    for (container, was) in boxes.iter().zip(&first) {
        let now = &container["attributes"]["pickup_lfd"];
        assert_ne!(now, was);
        let expected = json!({"pickup_lfd": [was, now]});
        assert_eq!(
            updates
                .iter()
                .filter(|u| u["attributes"]["changeset"] == expected)
                .count(),
            1,
            "the extension heard once, exactly: {updates:#?}"
        );
        assert!(events.iter().any(|e| e["attributes"]["value"] == *now));
    }
}

/// The statuses and availability of every box, with its hold names.
async fn standings(t: &TestApp) -> Vec<(Value, Value, Vec<Value>)> {
    containers(t)
        .await
        .iter()
        .map(|c| {
            let a = &c["attributes"];
            let holds = a["holds_at_pod_terminal"]
                .as_array()
                .map(|holds| holds.iter().map(|h| h["status"].clone()).collect())
                .unwrap_or_default();
            (
                a["current_status"].clone(),
                a["available_for_pickup"].clone(),
                holds,
            )
        })
        .collect()
}

async fn availability_a_hold_takes_back_and_a_box_that_left_are_told_as_they_are(t: TestApp) {
    t.subscribe("https://hooks.example.com/terminal").await;
    track(&t, "TEST-TR-RELEASE-TAKEN-BACK", "TEST").await;
    play(&t, 2).await;
    let boxes = standings(&t).await;
    assert!(!boxes.is_empty());
    for standing in &boxes {
        assert_eq!(standing, &(json!("available"), json!(true), vec![]));
    }
    // A box discharged late may have been told not available before its release.
    let count = async |event| heard(&t, event).await.0.len();
    let not_available = count("container.transport.not_available").await;
    let available = count("container.transport.available").await;
    assert_eq!(available, boxes.len());
    // Customs holds every box while the terminal's flag still says available.
    play(&t, 8).await;
    for standing in standings(&t).await {
        assert_eq!(
            standing,
            (json!("not_available"), json!(false), vec![json!("hold")]),
            "a hold in force is not available, whatever the flag says"
        );
    }
    assert_eq!(
        count("container.transport.not_available").await - not_available,
        boxes.len(),
        "the availability taken back is told once a box"
    );
    // The hold lifts, then each box leaves full: gone is never available or held.
    for _ in 0..30 {
        t.advance(time::Duration::hours(6));
        t.drain().await;
    }
    for (status, available, holds) in standings(&t).await {
        assert!(
            status == "picked_up" || status == "empty_returned",
            "{status}"
        );
        assert_eq!(available, false, "{status}: left the terminal");
        assert!(holds.is_empty(), "{status}: held by nothing");
    }
    assert_eq!(
        count("container.transport.available").await,
        2 * boxes.len(),
        "released, then released again"
    );
    let listed = document(
        t.get("/v2/containers?filter[available_for_pickup]=true")
            .await,
    )
    .await;
    assert_eq!(
        listed["data"],
        json!([]),
        "no box that left is listed available"
    );
}
