//! The console's shipments and containers lists: every record of the account, narrowed by
//! filters the URL carries, a container number finding its box and no other, and a filter
//! the page cannot read said on the page instead of silently dropped.

use serde_json::Value;

use crate::common::{TestApp, document, with_tracking};
use crate::console_truth::page;
use crate::shipments::{shipment_action, shipment_id, track};

tidemark_store::backends!(
    with_tracking,
    the_lists_show_the_account_s_records_and_filter_by_the_url,
    a_container_number_finds_its_box_and_no_other,
    an_unreadable_filter_is_said_and_not_applied,
    each_choice_is_counted_and_boxes_are_found_by_hold_sorted_and_dated,
);

/// The values of `attribute` of every record the API lists at `path`.
async fn listed(t: &TestApp, path: &str, attribute: &str) -> Vec<String> {
    document(t.get(path).await).await["data"]
        .as_array()
        .expect("a list")
        .iter()
        .map(|record| {
            record["attributes"][attribute]
                .as_str()
                .expect("text")
                .to_owned()
        })
        .collect()
}

async fn the_lists_show_the_account_s_records_and_filter_by_the_url(t: TestApp) {
    let stopped = track(&t, "TEST-TR-SUCCEEDED", "TEST").await;
    track(&t, "TEST-TR-HOLDS", "TEST").await;
    let bills = listed(&t, "/v2/shipments", "bill_of_lading_number").await;
    assert_eq!(bills.len(), 2);
    let shipments = page(&t, "/console/shipments").await;
    assert!(shipments.contains("2 found"), "{shipments}");
    for bill in &bills {
        assert!(shipments.contains(bill.as_str()), "{bill} in {shipments}");
    }
    assert!(shipments.contains(r#"href="/console/containers""#));

    let id = shipment_id(&stopped);
    assert_eq!(
        shipment_action(&t, &id, "stop_tracking").await.status(),
        200
    );
    let stopped_bill = listed(
        &t,
        "/v2/shipments?filter[tracking_stopped]=true",
        "bill_of_lading_number",
    )
    .await;
    let only_stopped = page(&t, "/console/shipments?stopped=yes").await;
    assert!(only_stopped.contains("1 found"), "{only_stopped}");
    for bill in &bills {
        assert_eq!(
            only_stopped.contains(bill.as_str()),
            stopped_bill.contains(bill)
        );
    }
    assert!(
        only_stopped.contains(r#"<option value="yes" selected>"#),
        "the form keeps the filter"
    );

    let numbers = listed(&t, "/v2/containers?page[size]=100", "number").await;
    let containers = page(&t, "/console/containers").await;
    assert!(containers.contains(&format!("{} found", numbers.len())));
    for number in &numbers {
        assert!(containers.contains(number.as_str()), "{number}");
    }
    let held = listed(&t, "/v2/containers?filter[has_holds]=true", "number").await;
    let on_hold = page(&t, "/console/containers?hold=yes").await;
    assert!(
        on_hold.contains(&format!("{} found", held.len())),
        "{on_hold}"
    );
    for number in &numbers {
        assert_eq!(on_hold.contains(number.as_str()), held.contains(number));
    }
}

async fn a_container_number_finds_its_box_and_no_other(t: TestApp) {
    track(&t, "TEST-TR-HOLDS", "TEST").await;
    track(&t, "TEST-TR-SUCCEEDED", "TEST").await;
    let numbers = listed(&t, "/v2/containers?page[size]=100", "number").await;
    assert!(numbers.len() >= 2, "{numbers:?}");
    let one = &numbers[0];
    let found = page(&t, &format!("/console/containers?q={one}")).await;
    assert!(found.contains("1 found"), "{found}");
    assert!(found.contains(one.as_str()));
    for other in &numbers[1..] {
        assert!(!found.contains(other.as_str()), "{other} shown for {one}");
    }
    assert!(
        found.contains(&format!(r#"value="{one}""#)),
        "the search box keeps the number"
    );

    // The request that tracks the box is found by the box's number, in the API and the
    // console alike.
    let tracking = listed(
        &t,
        &format!("/v2/tracking_requests?q={one}"),
        "request_number",
    )
    .await;
    assert_eq!(tracking.len(), 1, "{tracking:?}");
    let requests = page(&t, &format!("/console/requests?q={one}")).await;
    assert!(requests.contains("1 found"), "{requests}");
    assert!(requests.contains(tracking[0].as_str()), "{requests}");
}

async fn an_unreadable_filter_is_said_and_not_applied(t: TestApp) {
    track(&t, "TEST-TR-SUCCEEDED", "TEST").await;
    let shipments = page(&t, "/console/shipments?line=not-a-line&pod=x").await;
    assert!(shipments.contains("1 found"), "{shipments}");
    assert!(shipments.contains("is not a SCAC"), "{shipments}");
    assert!(shipments.contains("is not a UN/LOCODE"), "{shipments}");
    let containers = page(&t, "/console/containers?status=sunk&page=abc").await;
    assert!(
        containers.contains("is not a container status"),
        "{containers}"
    );
    let filtered: Value = document(t.get("/v2/containers").await).await["meta"].clone();
    let total = filtered["total"].as_u64().expect("a total");
    assert!(
        containers.contains(&format!("{total} found")),
        "{containers}"
    );
}

/// The numbers of the containers the API lists, with what the console filters them by.
async fn boxes(t: &TestApp) -> Vec<(String, Vec<String>, Option<String>)> {
    let listed = document(t.get("/v2/containers?page[size]=100").await).await;
    listed["data"]
        .as_array()
        .expect("a list")
        .iter()
        .map(|record| {
            let attributes = &record["attributes"];
            let holds = attributes["holds_at_pod_terminal"]
                .as_array()
                .expect("holds")
                .iter()
                .filter(|hold| hold["status"] == "hold")
                .map(|hold| hold["name"].as_str().expect("a name").to_owned())
                .collect();
            let lfd = attributes["pickup_lfd"].as_str().map(str::to_owned);
            (
                attributes["number"].as_str().expect("a number").to_owned(),
                holds,
                lfd,
            )
        })
        .collect()
}

async fn each_choice_is_counted_and_boxes_are_found_by_hold_sorted_and_dated(t: TestApp) {
    track(&t, "TEST-TR-HOLDS", "TEST").await;
    track(&t, "TEST-TR-LFD-EXTENDED", "TEST").await;
    let boxes = boxes(&t).await;
    let held: Vec<_> = boxes
        .iter()
        .filter(|(_, holds, _)| !holds.is_empty())
        .collect();
    assert!(!held.is_empty(), "the sandbox holds a box: {boxes:?}");

    let all = page(&t, "/console/containers").await;
    assert!(
        all.contains(&format!(">any hold ({})</option>", held.len())),
        "{all}"
    );
    let free = boxes.len() - held.len();
    assert!(all.contains(&format!(">none ({free})</option>")), "{all}");

    let name = held[0].1[0].clone();
    let named: Vec<_> = boxes
        .iter()
        .filter(|(_, holds, _)| holds.contains(&name))
        .collect();
    let by_name = page(&t, &format!("/console/containers?hold={name}")).await;
    assert!(
        by_name.contains(&format!("{} found", named.len())),
        "{by_name}"
    );
    for (number, holds, _) in &boxes {
        assert_eq!(
            by_name.contains(number.as_str()),
            holds.contains(&name),
            "{number}"
        );
    }
    assert!(
        by_name.contains(&format!(r#"<option value="{name}" selected>"#)),
        "the form keeps the hold's name"
    );

    // Soonest last free day first, boxes without one last.
    let mut dated: Vec<_> = boxes.iter().filter(|(.., lfd)| lfd.is_some()).collect();
    assert!(!dated.is_empty(), "a box has a last free day: {boxes:?}");
    dated.sort_by_key(|(.., lfd)| lfd.clone());
    let sorted = page(&t, "/console/containers?sort=last_free_day").await;
    let at = |number: &str| sorted.find(&format!(">{number}</a>")).expect("listed");
    let undated = boxes.iter().filter(|(.., lfd)| lfd.is_none());
    for (number, ..) in undated {
        assert!(
            at(&dated[0].0) < at(number),
            "{number} after the dated boxes"
        );
    }

    // A date well after every last free day finds every dated box; one before, none.
    let before = |day: &str| format!("/console/containers?lfd_before={day}");
    let later = page(&t, &before("2999-01-01")).await;
    assert!(later.contains(&format!("{} found", dated.len())), "{later}");
    let earlier = page(&t, &before("2000-01-01")).await;
    assert!(earlier.contains("0 found"), "{earlier}");
    let elsewhere = page(&t, "/console/containers?terminal=ZZZZ&pod=DEHAM&line=CMDU").await;
    assert!(elsewhere.contains("0 found"), "{elsewhere}");

    let shipments = page(&t, "/console/shipments?sort=number").await;
    assert!(shipments.contains(">TEST (2)</option>"), "{shipments}");
    assert!(shipments.contains(">tracked (2)</option>"), "{shipments}");
    let bad_sort = page(&t, "/console/shipments?sort=sideways").await;
    assert!(
        bad_sort.contains("is not an order this list offers"),
        "{bad_sort}"
    );
}
