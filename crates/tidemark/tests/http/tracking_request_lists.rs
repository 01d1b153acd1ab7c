//! Lists of tracking requests over HTTP (api.md §1 "Lists"): newest first, paginated with
//! links and meta, filtered by every attribute, and `include=tracked_object`.

use crate::common::with_app;
use crate::common::{TestApp, document, tracking_request};
use crate::tracking_requests::created;
use serde_json::{Value, json};

tidemark_store::backends!(
    with_app,
    lists_are_paginated_newest_first_with_links_and_meta,
    lists_filter_by_status_scac_type_number_and_time,
    include_tracked_object_adds_an_included_member,
);

async fn lists_are_paginated_newest_first_with_links_and_meta(app: TestApp) {
    let mut ids = Vec::new();
    for i in 0..5 {
        let body = created(
            &app,
            &tracking_request("booking_number", &format!("{i:09}"), "MAEU"),
        )
        .await;
        ids.push(body["data"]["id"].clone());
    }
    ids.reverse();
    let page = document(
        app.get("/v2/tracking_requests?page[size]=2&page[number]=2")
            .await,
    )
    .await;
    let got: Vec<_> = page["data"]
        .as_array()
        .expect("array")
        .iter()
        .map(|r| r["id"].clone())
        .collect();
    assert_eq!(got, ids[2..4]);
    assert_eq!(
        page["meta"],
        json!({"size": 2, "total": 5,
            "pagination": {"current": 2, "next": 3, "last": 3, "records": 5}})
    );
    let links = &page["links"];
    assert_eq!(links["current"], links["self"]);
    for (name, number) in [
        ("self", 2),
        ("first", 1),
        ("prev", 1),
        ("next", 3),
        ("last", 3),
    ] {
        let link = links[name]
            .as_str()
            .unwrap_or_else(|| panic!("{name} missing"));
        assert!(
            link.contains(&format!("page%5Bnumber%5D={number}")),
            "{name}: {link}"
        );
        let followed = document(app.get(link).await).await;
        assert_eq!(followed["meta"]["total"], 5, "{name} is fetchable");
    }
    let encoded = document(app.get("/v2/tracking_requests?page%5Bsize%5D=2").await).await;
    assert_eq!(
        encoded["data"].as_array().map(Vec::len),
        Some(2),
        "percent-encoded brackets work"
    );
    let last = document(
        app.get("/v2/tracking_requests?page[size]=2&page[number]=3")
            .await,
    )
    .await;
    assert!(last["links"].get("next").is_none());
    let first = document(app.get("/v2/tracking_requests").await).await;
    assert!(first["links"].get("prev").is_none());
    assert_eq!(first["meta"]["size"], 30);
}

async fn lists_filter_by_status_scac_type_number_and_time(app: TestApp) {
    let bl = created(
        &app,
        &tracking_request("bill_of_lading", "MEDU1234567", "MSCU"),
    )
    .await;
    let container = created(&app, &tracking_request("container", "CSQU3054383", "HLCU")).await;
    let ids = |body: Value| -> Vec<Value> {
        body["data"]
            .as_array()
            .expect("array")
            .iter()
            .map(|r| r["id"].clone())
            .collect()
    };
    let by = |query: &str| format!("/v2/tracking_requests?{query}");
    assert_eq!(
        ids(document(app.get(&by("filter[scac]=mscu")).await).await),
        [bl["data"]["id"].clone()]
    );
    assert_eq!(
        ids(document(app.get(&by("filter[request_type]=container")).await).await),
        [container["data"]["id"].clone()]
    );
    assert_eq!(
        ids(document(app.get(&by("filter[request_number]=csqu%203054383")).await).await),
        [container["data"]["id"].clone()]
    );
    assert_eq!(
        ids(document(app.get(&by("filter[status]=pending,failed")).await).await).len(),
        2
    );
    assert!(ids(document(app.get(&by("filter[status]=failed")).await).await).is_empty());
    let created_at = container["data"]["attributes"]["created_at"]
        .as_str()
        .expect("time");
    let since = by(&format!(
        "filter[created_at][start]={}",
        created_at.replace('+', "%2B")
    ));
    assert_eq!(
        ids(document(app.get(&since).await).await),
        [container["data"]["id"].clone()]
    );
    assert!(
        ids(document(
            app.get(&by("filter[updated_at][end]=2000-01-01T00:00:00Z"))
                .await
        )
        .await)
        .is_empty()
    );
}

async fn include_tracked_object_adds_an_included_member(app: TestApp) {
    let body = created(
        &app,
        &tracking_request("bill_of_lading", "MEDU1234567", "MSCU"),
    )
    .await;
    let id = body["data"]["id"].as_str().expect("id");
    let one = document(
        app.get(&format!(
            "/v2/tracking_requests/{id}?include=tracked_object"
        ))
        .await,
    )
    .await;
    assert_eq!(one["included"], json!([]));
    // tracked_object is the default include; `include=` asks for nothing.
    let plain = document(app.get(&format!("/v2/tracking_requests/{id}")).await).await;
    assert_eq!(plain["included"], json!([]));
    let nothing = document(
        app.get(&format!("/v2/tracking_requests/{id}?include="))
            .await,
    )
    .await;
    assert!(nothing.get("included").is_none());
    let list = document(
        app.get("/v2/tracking_requests?include=tracked_object")
            .await,
    )
    .await;
    assert_eq!(list["included"], json!([]));
}
