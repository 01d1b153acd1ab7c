//! One normalisation of request numbers (api.md §2): the duplicate rule, every filter and
//! the free-text searches agree on what "the same number" is.

use serde_json::{Value, json};

use crate::common::{TestApp, codes, document, errors, tracking_request};

use crate::common::with_app;

tidemark_store::backends!(
    with_app,
    a_container_spelled_with_hyphens_is_one_number_everywhere,
    q_searches_request_and_reference_numbers,
    shipping_lines_are_searched_by_scac_or_name,
);

fn ids(body: &Value) -> Vec<Value> {
    body["data"]
        .as_array()
        .expect("a list")
        .iter()
        .map(|r| r["id"].clone())
        .collect()
}

async fn a_container_spelled_with_hyphens_is_one_number_everywhere(app: TestApp) {
    let response = app
        .create(&tracking_request("container", "CSQU-305438-3", "HLCU"))
        .await;
    assert_eq!(response.status(), 201);
    let created = document(response).await;
    let id = created["data"]["id"].clone();
    assert_eq!(
        created["data"]["attributes"]["request_number"],
        "CSQU-305438-3"
    );

    let duplicate = app
        .create(&tracking_request("container", "CSQU3054383", "HLCU"))
        .await;
    let errors = errors(duplicate, 422).await;
    assert_eq!(
        codes(&errors),
        [(
            "duplicate".to_owned(),
            "/data/attributes/request_number".to_owned()
        )]
    );

    for spelling in [
        "CSQU-305438-3",
        "CSQU3054383",
        "csqu%20305438%203",
        "CSQU305438/3",
    ] {
        let path = format!("/v2/tracking_requests?filter[request_number]={spelling}");
        let body = document(app.get(&path).await).await;
        assert_eq!(ids(&body), std::slice::from_ref(&id), "{spelling}");
    }
    let path = "/v2/tracking_requests?filter[request_number]=CSQU3054384";
    assert!(ids(&document(app.get(path).await).await).is_empty());
}

async fn q_searches_request_and_reference_numbers(app: TestApp) {
    let body = json!({"data": {"type": "tracking_request", "attributes": {
        "request_type": "bill_of_lading", "request_number": "MEDU1234567", "scac": "MSCU",
        "ref_numbers": ["PO-4471", "50% deposit"]}}});
    let bill = document(app.create(&body).await).await["data"]["id"].clone();
    let container = document(
        app.create(&tracking_request("container", "CSQU3054383", "HLCU"))
            .await,
    )
    .await["data"]["id"]
        .clone();
    let search = |q: &str| format!("/v2/tracking_requests?q={q}");
    for (q, expected) in [
        ("medu123", vec![bill.clone()]),
        ("po-44", vec![bill.clone()]),
        ("50%25", vec![bill.clone()]),
        ("CSQU-3054", vec![container.clone()]),
        ("3054383", vec![container.clone()]),
        // `%` and `_` are literal, and a search never straddles two reference numbers.
        ("%25d", vec![]),
        ("_", vec![]),
        ("4471%22%2C%22", vec![]),
        ("nothing-like-it", vec![]),
    ] {
        let body = document(app.get(&search(q)).await).await;
        assert_eq!(ids(&body), expected, "q={q}");
    }
    // An empty q filters nothing.
    assert_eq!(ids(&document(app.get(&search("")).await).await).len(), 2);
}

async fn shipping_lines_are_searched_by_scac_or_name(app: TestApp) {
    let scacs = |body: &Value| -> Vec<String> {
        body["data"]
            .as_array()
            .expect("a list")
            .iter()
            .map(|r| {
                r["attributes"]["scac"]
                    .as_str()
                    .unwrap_or_default()
                    .to_owned()
            })
            .collect()
    };
    let body = document(app.get("/v2/shipping_lines?search=MAEU").await).await;
    assert_eq!(scacs(&body), ["MAEU"]);
    let body = document(app.get("/v2/shipping_lines?search=hapag").await).await;
    assert_eq!(scacs(&body), ["HLCU"]);
    let body = document(app.get("/v2/shipping_lines?search=zzzz-no-line").await).await;
    assert!(scacs(&body).is_empty());
}
