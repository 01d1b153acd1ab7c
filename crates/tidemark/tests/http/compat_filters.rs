//! Every filter the reference documents for a list (its OpenAPI document, its changelog,
//! its clients' calls; compat-api.md §1.6, §3.1, §3.2) is taken and filters; an unknown
//! one is 400 naming the filters the list takes.

use uuid::Uuid;

use crate::common::{TestApp, codes, document, errors, with_tracking};
use crate::shipments::track;

tidemark_store::backends!(
    with_tracking,
    every_documented_filter_filters,
    an_unknown_filter_names_the_supported_ones,
);

/// How many records `path` lists.
async fn total(t: &TestApp, path: &str) -> u64 {
    let response = t.get(path).await;
    assert_eq!(response.status(), 200, "{path}");
    let body = document(response).await;
    body["meta"]["total"]
        .as_u64()
        .unwrap_or_else(|| panic!("{path}: {body}"))
}

async fn every_documented_filter_filters(t: TestApp) {
    track(&t, "TEST-TR-SUCCEEDED", "TEST").await;
    let containers = document(t.get("/v2/containers").await).await;
    let number = containers["data"][0]["attributes"]["number"]
        .as_str()
        .expect("a number")
        .to_owned();
    let nobody = Uuid::new_v4();
    let cases: Vec<(String, u64)> = vec![
        // GET /shipments
        ("/v2/shipments?number=TEST-TR-SUCCEEDED".into(), 1),
        ("/v2/shipments?number=TEST-TR-OTHER".into(), 0),
        ("/v2/shipments?filter[tracking_stopped]=false".into(), 1),
        ("/v2/shipments?filter[tracking_stopped]=true".into(), 0),
        ("/v2/shipments?q=TEST-TR-SUCC".into(), 1),
        (format!("/v2/shipments?q={number}"), 1),
        (format!("/v2/shipments?filter[customer_id]={nobody}"), 0),
        // Named in the reference's own example of its errors: arrival days, ports.
        ("/v2/shipments?filter[arrival_from]=2026-06-20".into(), 1),
        ("/v2/shipments?filter[arrival_to]=2026-06-19".into(), 0),
        (
            "/v2/shipments?filter[arrival_from]=2026-06-01&filter[arrival_to]=2026-06-20".into(),
            1,
        ),
        ("/v2/shipments?filter[port_of_discharge]=USSAV".into(), 1),
        ("/v2/shipments?filter[port_of_lading]=NLRTM".into(), 0),
        // GET /tracking_requests
        (
            "/v2/tracking_requests?filter[request_number]=TEST-TR-SUCCEEDED".into(),
            1,
        ),
        ("/v2/tracking_requests?filter[status]=created".into(), 1),
        ("/v2/tracking_requests?filter[status]=failed".into(), 0),
        ("/v2/tracking_requests?filter[scac]=TEST".into(), 1),
        ("/v2/tracking_requests?filter[scac]=MAEU".into(), 0),
        (
            "/v2/tracking_requests?filter[request_type]=bill_of_lading".into(),
            1,
        ),
        (
            "/v2/tracking_requests?filter[created_at][start]=2000-01-01T00:00:00Z".into(),
            1,
        ),
        (
            "/v2/tracking_requests?filter[created_at][end]=2000-01-01T00:00:00Z".into(),
            0,
        ),
        (
            "/v2/tracking_requests?filter[updated_at][start]=2000-01-01T00:00:00Z".into(),
            1,
        ),
        (
            "/v2/tracking_requests?filter[updated_at][end]=2000-01-01T00:00:00Z".into(),
            0,
        ),
        ("/v2/tracking_requests?q=TEST-TR-SUCC".into(), 1),
        // GET /containers
        (format!("/v2/containers?filter[number]={number}"), 1),
        ("/v2/containers?filter[number]=MSCU1234566".into(), 0),
        (format!("/v2/containers?filter[customer_id]={nobody}"), 0),
        (
            "/v2/containers?filter[customer_name]=Nobody%20Ltd".into(),
            0,
        ),
    ];
    for (path, expected) in cases {
        assert_eq!(total(&t, &path).await, expected, "{path}");
    }
    let found = document(t.get(&format!("/v2/search?query={number}")).await).await;
    assert!(
        found["data"].as_array().is_some_and(|d| !d.is_empty()),
        "{found}"
    );
}

async fn an_unknown_filter_names_the_supported_ones(t: TestApp) {
    for (path, supported) in [
        (
            "/v2/shipments?filter[pol_code]=NLRTM",
            "filter[tracking_stopped]",
        ),
        (
            "/v2/tracking_requests?filter[line_scac]=MAEU",
            "filter[request_number]",
        ),
        ("/v2/containers?filter[status]=available", "filter[number]"),
    ] {
        let refused = errors(t.get(path).await, 400).await;
        let (code, parameter) = codes(&refused)[0].clone();
        assert_eq!(code, "invalid_filter", "{path}");
        assert!(path.contains(&parameter), "{path}: {parameter}");
        let detail = refused[0]["detail"].as_str().unwrap_or_default();
        assert!(detail.contains(supported), "{path}: {detail}");
    }
    for path in [
        "/v2/shipments?filter[arrival_from]=20-06-2026",
        "/v2/shipments?filter[port_of_lading]=Rotterdam",
    ] {
        let refused = errors(t.get(path).await, 400).await;
        assert_eq!(codes(&refused)[0].0, "invalid_filter", "{path}");
    }
}
