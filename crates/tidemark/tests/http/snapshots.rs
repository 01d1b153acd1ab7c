//! Whole documents as a client reads them, compared with the snapshots in `snapshots/`
//! (insta): any change to the wire shape shows as a diff to review, not as a field some
//! assertion forgot. The simulated world and the clocks are fixed, so only ids (random
//! UUIDs) and the server's port in links change from run to run; they are replaced by
//! placeholders. Both backends must
//! produce the same documents.

use serde_json::Value;

use crate::common::{TestApp, document, tracking_request, with_tracking};
use crate::shipments::{shipment_id, track};

tidemark_store::backends!(
    with_tracking,
    a_tracked_shipment_reads_the_same_everywhere,
    a_refused_create_reads_the_same,
);

/// Compares `document` with the snapshot `name`.
fn same_as_before(name: &str, document: &Value) {
    let mut settings = insta::Settings::clone_current();
    settings.add_filter(
        r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}",
        "[id]",
    );
    // Links are absolute on the test server's address, whose port changes.
    settings.add_filter(r"http://127\.0\.0\.1:[0-9]+", "[base]");
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    settings.bind(|| insta::assert_json_snapshot!(name, document));
}

async fn get(t: &TestApp, path: &str) -> Value {
    document(t.get(path).await).await
}

async fn a_tracked_shipment_reads_the_same_everywhere(t: TestApp) {
    let request = track(&t, "TEST-TR-SUCCEEDED", "TEST").await;
    same_as_before("tracking_request", &request);
    let shipment = shipment_id(&request);
    let shipment = get(
        &t,
        &format!(
            "/v2/shipments/{shipment}?include=containers,port_of_lading,port_of_discharge,\
             pod_terminal,destination,destination_terminal"
        ),
    )
    .await;
    same_as_before("shipment", &shipment);
    let container = shipment["data"]["relationships"]["containers"]["data"][0]["id"]
        .as_str()
        .expect("a container")
        .to_owned();
    let container = get(
        &t,
        &format!("/v2/containers/{container}?include=shipment,pod_terminal,transport_events"),
    )
    .await;
    same_as_before("container", &container);
    let events = get(
        &t,
        &format!(
            "/v2/containers/{}/transport_events?include=location,terminal,vessel",
            container["data"]["id"].as_str().expect("id")
        ),
    )
    .await;
    same_as_before("transport_events", &events);
}

async fn a_refused_create_reads_the_same(t: TestApp) {
    let refused = t
        .create(&tracking_request("bill_of_lading", "", "NOPE1"))
        .await;
    assert_eq!(refused.status(), 422);
    let body: Value = refused.json().await.expect("a JSON body");
    same_as_before("refused_create", &body);
}
