//! Each sandbox number plays its own path within minutes at the sandbox line's cadence as
//! shipped (`[sandbox.tracking]`), whenever it is tracked: the README's table of timings.

use std::collections::BTreeMap;

use serde_json::Value;
use time::Duration;

use crate::common::{TestApp, document, tracking_request, with_tracking};

tidemark_store::backends!(
    with_tracking,
    each_sandbox_number_plays_its_path_within_minutes_whenever_it_is_tracked,
);

/// How long after its creation each number must have reached its outcome.
const BOUNDS: [(&str, i64); 5] = [
    ("TEST-TR-AWAITING-MANIFEST", 60),
    ("TEST-TR-NOT-FOUND", 5 * 60),
    ("TEST-TR-RETRIES-EXHAUSTED", 5 * 60),
    ("TEST-TR-LFD-EXTENDED", 5 * 60),
    ("TEST-TR-JOURNEY", 15 * 60),
];

/// The request `id` with its shipment and the shipment's containers.
async fn read(t: &TestApp, id: &str) -> (Value, Option<Value>, Vec<Value>) {
    let request = document(
        t.get(&format!(
            "/v2/tracking_requests/{id}?include=tracked_object"
        ))
        .await,
    )
    .await;
    let shipment_id = request["data"]["relationships"]["tracked_object"]["data"]["id"]
        .as_str()
        .map(str::to_owned);
    let Some(shipment_id) = shipment_id else {
        return (request["data"].clone(), None, Vec::new());
    };
    let shipment = document(
        t.get(&format!("/v2/shipments/{shipment_id}?include=containers"))
            .await,
    )
    .await;
    let containers = shipment["included"]
        .as_array()
        .map(|all| {
            all.iter()
                .filter(|r| r["type"] == "container")
                .cloned()
                .collect()
        })
        .unwrap_or_default();
    (
        request["data"].clone(),
        Some(shipment["data"].clone()),
        containers,
    )
}

fn last_free_days(containers: &[Value]) -> Vec<Value> {
    containers
        .iter()
        .map(|c| c["attributes"]["pickup_lfd"].clone())
        .collect()
}

async fn each_sandbox_number_plays_its_path_within_minutes_whenever_it_is_tracked(t: TestApp) {
    // A month after the service (and its simulator) started: each number's timeline is
    // its own, from when it is first asked about.
    t.advance(Duration::days(30));
    let mut ids = BTreeMap::new();
    for (number, _) in BOUNDS {
        let created = document(
            t.create(&tracking_request("bill_of_lading", number, "TEST"))
                .await,
        )
        .await;
        let id = created["data"]["id"].as_str().expect("id").to_owned();
        ids.insert(number, id);
    }
    t.drain().await;
    let (request, _, boxes) = read(&t, &ids["TEST-TR-AWAITING-MANIFEST"]).await;
    assert_eq!(request["attributes"]["status"], "awaiting_manifest");
    let (request, _, lfd_boxes) = read(&t, &ids["TEST-TR-LFD-EXTENDED"]).await;
    assert_eq!(request["attributes"]["status"], "created");
    assert!(boxes.is_empty());
    let first_lfd = last_free_days(&lfd_boxes);
    assert!(
        !first_lfd.is_empty() && first_lfd.iter().all(Value::is_string),
        "the terminal's last free day from the first check: {first_lfd:?}"
    );
    let (_, journey, _) = read(&t, &ids["TEST-TR-JOURNEY"]).await;
    let journey = journey.expect("the journey is found at once");
    assert_eq!(
        journey["attributes"]["pol_atd_at"],
        Value::Null,
        "not sailed yet"
    );

    let step = Duration::seconds(10);
    let mut elapsed = Duration::ZERO;
    let mut reached: BTreeMap<&str, Duration> = BTreeMap::new();
    while reached.len() < BOUNDS.len() && elapsed < Duration::minutes(20) {
        t.advance(step);
        elapsed += step;
        t.drain().await;
        for (number, _) in BOUNDS {
            if reached.contains_key(number) {
                continue;
            }
            let (request, shipment, containers) = read(&t, &ids[number]).await;
            let attributes = &request["attributes"];
            let there = match number {
                "TEST-TR-AWAITING-MANIFEST" => attributes["status"] == "created",
                "TEST-TR-NOT-FOUND" => {
                    attributes["status"] == "failed" && attributes["failed_reason"] == "expired"
                }
                "TEST-TR-RETRIES-EXHAUSTED" => {
                    attributes["status"] == "failed"
                        && attributes["failed_reason"] == "retries_exhausted"
                }
                "TEST-TR-LFD-EXTENDED" => {
                    let now = last_free_days(&containers);
                    now.len() == first_lfd.len()
                        && now.iter().zip(&first_lfd).all(|(now, was)| now != was)
                }
                _ => shipment.is_some_and(|s| s["attributes"]["pol_atd_at"].is_string()),
            };
            if there {
                reached.insert(number, elapsed);
            }
        }
    }
    for (number, bound) in BOUNDS {
        let at = reached
            .get(number)
            .unwrap_or_else(|| panic!("{number} never reached its outcome: {reached:?}"));
        assert!(
            *at <= Duration::seconds(bound),
            "{number} took {at}, more than {bound} s"
        );
    }
}
