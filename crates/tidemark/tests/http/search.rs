//! `GET /v2/search?query=` (compat-api.md §3.9): the account's shipments, containers and
//! tracking requests whose number or reference numbers hold the text, each as the
//! reference's flat `search_result`.

use serde_json::{Value, json};

use crate::common::{TestApp, codes, document, errors, with_tracking};
use crate::shipments::track;

tidemark_store::backends!(
    with_tracking,
    a_search_finds_shipments_containers_and_requests_by_number,
    a_search_is_paged_as_the_reference_links_it,
    a_search_without_text_or_with_too_much_is_refused,
);

/// The `(entity_type, id)` of each result of searching `text`.
async fn found(t: &TestApp, text: &str) -> Vec<(String, String)> {
    let body = document(t.get(&format!("/v2/search?query={text}")).await).await;
    body["data"]
        .as_array()
        .expect("data")
        .iter()
        .map(|r| {
            assert_eq!(r["type"], "search_result");
            (
                r["attributes"]["entity_type"]
                    .as_str()
                    .expect("kind")
                    .to_owned(),
                r["id"].as_str().expect("id").to_owned(),
            )
        })
        .collect()
}

async fn a_search_finds_shipments_containers_and_requests_by_number(t: TestApp) {
    let tracked = track(&t, "TEST-TR-SUCCEEDED", "TEST").await;
    let request = tracked["data"]["id"].as_str().expect("id").to_owned();
    let shipment = &tracked["included"][0];
    let shipment_id = shipment["id"].as_str().expect("id").to_owned();
    let container_id = shipment["relationships"]["containers"]["data"][0]["id"]
        .as_str()
        .expect("a container")
        .to_owned();
    let container = document(t.get(&format!("/v2/containers/{container_id}")).await).await;
    let number = container["data"]["attributes"]["number"]
        .as_str()
        .expect("number")
        .to_owned();

    // The bill finds the shipment and the request; the request's reference number finds it.
    let by_bill = found(&t, "tr-succeeded").await;
    assert_eq!(
        by_bill,
        vec![
            ("shipment".to_owned(), shipment_id.clone()),
            ("tracking_request".to_owned(), request.clone()),
        ]
    );
    let body = document(t.get("/v2/search?query=TEST-TR-SUCCEEDED").await).await;
    let attributes = &body["data"][0]["attributes"];
    assert_eq!(
        attributes["number"],
        shipment["attributes"]["bill_of_lading_number"]
    );
    assert_eq!(attributes["scac"], "TEST");
    assert_eq!(attributes["shipment_id"], Value::Null);
    assert_eq!(attributes["tracking_stopped"], false);
    assert_eq!(
        attributes["containers_count"],
        json!(
            shipment["relationships"]["containers"]["data"]
                .as_array()
                .expect("list")
                .len()
        )
    );
    assert_eq!(
        attributes["port_of_discharge_name"],
        shipment["attributes"]["port_of_discharge_name"]
    );
    let attributes = &body["data"][1]["attributes"];
    assert_eq!(attributes["status"], "created");
    assert_eq!(attributes["shipment_id"], shipment_id.as_str());

    // A container number finds the box (`cargo`) and the shipment it is in.
    let by_box = found(&t, &number).await;
    assert!(
        by_box.contains(&("cargo".to_owned(), container_id.clone())),
        "{by_box:?}"
    );
    assert!(
        by_box.contains(&("shipment".to_owned(), shipment_id.clone())),
        "{by_box:?}"
    );
    let body = document(t.get(&format!("/v2/search?query={number}")).await).await;
    let cargo = body["data"]
        .as_array()
        .expect("data")
        .iter()
        .find(|r| r["attributes"]["entity_type"] == "cargo")
        .expect("the box")
        .clone();
    assert_eq!(cargo["attributes"]["shipment_id"], shipment_id.as_str());
    assert_eq!(cargo["attributes"]["scac"], "TEST");

    // A container's reference number finds it; nothing else does; another account sees
    // none of it.
    let edit =
        json!({"data": {"type": "container", "attributes": {"ref_numbers": ["PO-SEARCH-7"]}}});
    t.patch(&format!("/v2/containers/{container_id}"), &edit)
        .await;
    assert_eq!(
        found(&t, "search-7").await,
        vec![("cargo".to_owned(), container_id)]
    );
    assert_eq!(found(&t, "NOTHING-LIKE-IT").await, vec![]);
    let (_, other) = t.new_account("globex").await;
    let theirs = document(t.get_as(&other, "/v2/search?query=TR-SUCCEEDED").await).await;
    assert_eq!(theirs["data"], json!([]));
}

async fn a_search_is_paged_as_the_reference_links_it(t: TestApp) {
    let tracked = track(&t, "TEST-TR-SUCCEEDED", "TEST").await;
    let request = tracked["data"]["id"].as_str().expect("id");
    let second = "/v2/search?query=TEST-TR-SUCCEEDED&page[number]=2&page[size]=1";
    let second = document(t.get(second).await).await;
    assert_eq!(second["data"].as_array().map(Vec::len), Some(1));
    assert_eq!(second["data"][0]["id"], request);
    assert_eq!(second["meta"]["pagination"]["records"], 2);
    let beyond = "/v2/search?query=TEST-TR-SUCCEEDED&page[number]=3&page[size]=1";
    assert_eq!(document(t.get(beyond).await).await["data"], json!([]));
}

async fn a_search_without_text_or_with_too_much_is_refused(t: TestApp) {
    let long = "x".repeat(129);
    for path in [
        "/v2/search".to_owned(),
        "/v2/search?query=".to_owned(),
        "/v2/search?query=%20%20".to_owned(),
        format!("/v2/search?query={long}"),
    ] {
        let refused = codes(&errors(t.get(&path).await, 400).await);
        assert_eq!(
            refused,
            [("invalid_parameter".to_owned(), "query".to_owned())],
            "{path}"
        );
    }
    let longest = "x".repeat(128);
    let answer = t.get(&format!("/v2/search?query={longest}")).await;
    assert_eq!(answer.status(), 200);
    let refused = codes(&errors(t.get("/v2/search?query=a&query=b").await, 400).await);
    assert_eq!(refused[0].1, "query");
    // Text no number holds (a NUL, which PostgreSQL's text cannot hold) finds nothing.
    for path in [
        "/v2/search?query=a%00b",
        "/v2/shipments?q=a%00b",
        "/v2/tracking_requests?q=%00",
        "/v2/containers?filter[customer_name]=a%00",
        "/v2/containers?filter[number]=MSCU%00",
        "/v2/shipments?number=a%00",
        "/v2/tracking_requests?filter[request_number]=%00",
    ] {
        let answer = document(t.get(path).await).await;
        assert_eq!(answer["data"], json!([]), "{path}");
    }
}
