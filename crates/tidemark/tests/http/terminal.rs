//! A container's terminal data over HTTP (api.md §4a): the attributes as the reference
//! API names them, and the filters an importer's morning lists use.

use serde_json::{Value, json};
use tidemark_domain::terminal::{
    Amount, Currency, Fee, FeeType, Hold, HoldName, HoldStatus, LastFreeDays, TerminalView,
};
use tidemark_domain::tracking::Change;
use tidemark_domain::{ContainerStatus, Timestamp};

use crate::common::{TestApp, document, errors, with_tracking};
use crate::shipments::track;

tidemark_store::backends!(
    with_tracking,
    terminal_data_shows_as_the_reference_names_it_and_filters_the_lists,
    bad_terminal_filters_are_clear_errors,
);

fn day(text: &str) -> Timestamp {
    Timestamp::parse_rfc3339(text).expect("a time")
}

/// The terminal's view of the tracked container, committed as the tracker commits.
async fn report(t: &TestApp, request: &Value, view: TerminalView) {
    let read = t.stored_request(request).await;
    let store = &t.store;
    let tracked = store
        .tracked(read.id)
        .await
        .expect("read")
        .expect("tracked");
    let mut change = Change::to(&read, read.clone());
    change.delta.containers = tracked
        .containers
        .into_iter()
        .map(|mut container| {
            container.current_status = view.standing(ContainerStatus::Grounded).status;
            container.terminal = view.clone();
            container
        })
        .collect();
    store.commit_tracking(None, &change).await.expect("commit");
}

fn held() -> TerminalView {
    TerminalView {
        availability_known: true,
        available_for_pickup: Some(true),
        holds: vec![Hold {
            name: HoldName::Usda,
            status: HoldStatus::Hold,
            description: Some("Fumigation required".to_owned()),
        }],
        fees: vec![Fee {
            kind: FeeType::Demurrage,
            amount: Amount::parse("150.00").expect("amount"),
            currency: Currency::parse("USD").expect("currency"),
        }],
        last_free_days: LastFreeDays {
            line: Some(day("2026-12-08T00:00:00Z")),
            terminal: Some(day("2026-12-05T00:00:00Z")),
            rail: None,
        },
        pickup_appointment_at: Some(day("2026-12-06T09:30:00Z")),
        location: Some("Row 12".to_owned()),
        ..TerminalView::default()
    }
}

async fn total(t: &TestApp, query: &str) -> Value {
    document(t.get(&format!("/v2/containers?{query}")).await).await["meta"]["total"].clone()
}

async fn terminal_data_shows_as_the_reference_names_it_and_filters_the_lists(t: TestApp) {
    let request = track(&t, "TEST-TR-SUCCEEDED", "TEST").await;
    let all = total(&t, "").await;
    assert_eq!(total(&t, "filter[available_for_pickup]=true").await, 0);
    assert_eq!(
        total(&t, "filter[has_holds]=false").await,
        all,
        "none held yet"
    );
    report(&t, &request, held()).await;

    let listed = document(t.get("/v2/containers?filter[has_holds]=true").await).await;
    assert_eq!(listed["meta"]["total"], all);
    let attributes = &listed["data"][0]["attributes"];
    assert_eq!(attributes["current_status"], "not_available", "held");
    assert_eq!(attributes["availability_known"], true);
    assert_eq!(
        attributes["available_for_pickup"], false,
        "the terminal's flag says available, but a hold in force takes it back"
    );
    assert_eq!(
        attributes["holds_at_pod_terminal"],
        json!([{"name": "USDA", "status": "hold", "description": "Fumigation required"}])
    );
    assert_eq!(
        attributes["fees_at_pod_terminal"],
        json!([{"type": "demurrage", "amount": 150, "currency_code": "USD"}])
    );
    assert_eq!(
        attributes["pickup_lfd"], "2026-12-08T00:00:00Z",
        "the line's"
    );
    assert_eq!(
        attributes["import_deadlines"],
        json!({"pickup_lfd_line": "2026-12-08T00:00:00Z", "pickup_lfd_terminal": "2026-12-05T00:00:00Z", "pickup_lfd_rail": null})
    );
    assert_eq!(attributes["pickup_appointment_at"], "2026-12-06T09:30:00Z");
    assert_eq!(attributes["location_at_pod_terminal"], "Row 12");
    for (query, expected) in [
        ("filter[available_for_pickup]=true", json!(0)),
        ("filter[available_for_pickup]=false", all.clone()),
        ("filter[has_holds]=false", json!(0)),
        (
            "filter[pickup_lfd][start]=2026-12-07T00:00:00Z&filter[pickup_lfd][end]=2026-12-09T00:00:00Z",
            all.clone(),
        ),
        ("filter[pickup_lfd][end]=2026-12-06T00:00:00Z", json!(0)),
        ("filter[current_status]=not_available", all.clone()),
        ("filter[current_status]=available", json!(0)),
    ] {
        assert_eq!(total(&t, query).await, expected, "{query}");
    }
}

async fn bad_terminal_filters_are_clear_errors(t: TestApp) {
    for (query, parameter) in [
        (
            "filter[available_for_pickup]=yes",
            "filter[available_for_pickup]",
        ),
        ("filter[has_holds]=1", "filter[has_holds]"),
        (
            "filter[pickup_lfd][start]=tomorrow",
            "filter[pickup_lfd][start]",
        ),
        ("filter[current_status]=held", "filter[current_status]"),
    ] {
        let problems = errors(t.get(&format!("/v2/containers?{query}")).await, 400).await;
        assert_eq!(problems[0]["source"]["parameter"], parameter, "{query}");
        assert_eq!(problems[0]["code"], "invalid_filter", "{query}");
    }
}
