//! The sandbox line `TEST` and its scripted numbers (api.md §6), over HTTP against the
//! carrier simulator.

use serde_json::{Value, json};

use crate::common::{TestApp, codes, document, errors, tracking_request};

use crate::common::with_tracking;

tidemark_store::backends!(
    with_tracking,
    the_failed_test_number_fails_at_its_first_lookup_whatever_its_type
);

/// The same, with the sandbox as shipped: `TEST` only.
mod default_settings {
    use super::*;

    async fn with_test_only<F, Fut>(backend: tidemark_store::testing::Backend, case: F)
    where
        F: FnOnce(TestApp) -> Fut,
        Fut: std::future::Future<Output = ()>,
    {
        let app = TestApp::build(backend)
            .world_clock()
            .config(|config| config.sandbox.all_carriers = false);
        case(app.spawn().await).await;
    }

    tidemark_store::backends!(
        with_test_only,
        a_line_without_an_endpoint_is_refused_and_never_invented,
        auto_detection_landing_on_an_unconfigured_line_fails_the_request,
    );
}

async fn a_line_without_an_endpoint_is_refused_and_never_invented(t: TestApp) {
    let response = t
        .create(&tracking_request("bill_of_lading", "MEDU1234567", "MEDU"))
        .await;
    let errors = errors(response, 422).await;
    assert_eq!(
        codes(&errors),
        [(
            "carrier_not_configured".to_owned(),
            "/data/attributes/scac".to_owned()
        )]
    );
    let detail = errors[0]["detail"].as_str().unwrap_or_default();
    assert!(detail.contains("[carriers.endpoints.MSCU]"), "{detail}");

    let line = |scac: &str| format!("/v2/shipping_lines/{scac}");
    let msc = document(t.get(&line("MSCU")).await).await;
    assert_eq!(msc["data"]["attributes"]["tracking_available"], false);
    assert_eq!(msc["data"]["attributes"]["tracking_source"], Value::Null);
    let test = document(t.get(&line("TEST")).await).await;
    assert_eq!(test["data"]["attributes"]["tracking_available"], true);
    assert_eq!(test["data"]["attributes"]["tracking_source"], "sandbox");
    assert!(
        t.store
            .domain_events(t.account.id)
            .await
            .expect("events")
            .is_empty()
    );
}

async fn auto_detection_landing_on_an_unconfigured_line_fails_the_request(t: TestApp) {
    let body = json!({"data": {"type": "tracking_request", "attributes": {
        "request_type": "container", "request_number": "MSKU1234565",
        "auto_detect_vocc_scac": true}}});
    let created = document(t.create(&body).await).await;
    let id = created["data"]["id"].as_str().expect("id");
    t.drain().await;
    let body = document(t.get(&format!("/v2/tracking_requests/{id}")).await).await;
    let attributes = &body["data"]["attributes"];
    assert_eq!(attributes["status"], "failed", "{body}");
    assert_eq!(attributes["failed_reason"], "scac_auto_detect_failed");
    assert_eq!(attributes["scac"], Value::Null);
    assert_eq!(
        t.sim.lookups("MAEU", "MSKU1234565"),
        0,
        "the simulator was never asked"
    );
}

async fn the_failed_test_number_fails_at_its_first_lookup_whatever_its_type(t: TestApp) {
    for kind in ["bill_of_lading", "booking_number"] {
        let created = document(
            t.create(&tracking_request(kind, "TEST-TR-FAILED", "TEST"))
                .await,
        )
        .await;
        let id = created["data"]["id"].as_str().expect("id");
        t.drain().await;
        let body = document(t.get(&format!("/v2/tracking_requests/{id}")).await).await;
        let attributes = &body["data"]["attributes"];
        assert_eq!(attributes["status"], "failed", "{body}");
        assert_eq!(attributes["failed_reason"], "not_found");
        assert_eq!(
            attributes["retry_count"],
            Value::Null,
            "at the first lookup"
        );
    }
    let events: Vec<String> = t
        .store
        .domain_events(t.account.id)
        .await
        .expect("events")
        .iter()
        .map(|event| event.name.name())
        .collect();
    assert_eq!(
        events,
        ["tracking_request.failed", "tracking_request.failed"]
    );
}
