//! `/v2/shipping_lines`, read from the carrier data matrix (api.md §4).

use reqwest::Method;
use serde_json::Value;

use crate::common::{TestApp, document, errors};

use crate::common::with_app;

tidemark_store::backends!(
    with_app,
    every_carrier_of_the_matrix_is_listed_on_the_default_page,
    a_line_is_found_by_id_scac_or_alternative_scac,
    unknown_lines_are_404_and_the_list_needs_a_key,
);

async fn every_carrier_of_the_matrix_is_listed_on_the_default_page(app: TestApp) {
    let list = document(app.get("/v2/shipping_lines").await).await;
    let lines = list["data"].as_array().expect("array");
    assert_eq!(lines.len(), 74);
    assert_eq!(list["meta"]["total"], 74);
    let msc = lines
        .iter()
        .find(|l| l["attributes"]["scac"] == "MSCU")
        .expect("MSC is listed");
    assert_eq!(msc["type"], "shipping_line");
    assert_eq!(
        msc["attributes"]["alternative_scacs"],
        serde_json::json!(["MEDU"])
    );
    assert_eq!(msc["attributes"]["bill_of_lading_tracking_support"], true);
    let evergreen = lines
        .iter()
        .find(|l| l["attributes"]["scac"] == "EGLV")
        .expect("listed");
    assert_eq!(
        evergreen["attributes"]["bill_of_lading_tracking_support"],
        false
    );
    assert_eq!(
        evergreen["attributes"]["container_number_tracking_support"],
        true
    );
    let second = document(
        app.get("/v2/shipping_lines?page[size]=30&page[number]=3")
            .await,
    )
    .await;
    assert_eq!(second["data"].as_array().map(Vec::len), Some(14));
}

async fn a_line_is_found_by_id_scac_or_alternative_scac(app: TestApp) {
    let by_scac = document(app.get("/v2/shipping_lines/MSCU").await).await;
    let id = by_scac["data"]["id"].as_str().expect("id").to_owned();
    for key in [id.as_str(), "mscu", "MEDU"] {
        let found: Value = document(app.get(&format!("/v2/shipping_lines/{key}")).await).await;
        assert_eq!(found["data"], by_scac["data"], "{key}");
    }
    let self_link = by_scac["data"]["links"]["self"].as_str().expect("link");
    assert_eq!(
        document(app.get(self_link).await).await["data"]["id"],
        id.as_str()
    );
}

async fn unknown_lines_are_404_and_the_list_needs_a_key(app: TestApp) {
    for key in ["ZZZZ", "not-a-scac", "00000000-0000-0000-0000-000000000000"] {
        errors(app.get(&format!("/v2/shipping_lines/{key}")).await, 404).await;
    }
    let anonymous = app
        .request(Method::GET, "/v2/shipping_lines", None)
        .send()
        .await
        .expect("request");
    errors(anonymous, 401).await;
    errors(app.get("/v2/shipping_lines?filter[scac]=MSCU").await, 400).await;
}
