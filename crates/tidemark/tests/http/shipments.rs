//! Tracking end to end over HTTP (api.md §2 lifecycle, §4 read API): requests created
//! through the API are looked up at the carrier simulator by the tracker (queue drained,
//! clocks driven), and what it found is read back through every endpoint.

use reqwest::Method;
use serde_json::{Value, json};

use crate::common::{TestApp, codes, document, errors, tracking_request};

use crate::common::with_tracking;

tidemark_store::backends!(
    with_tracking,
    a_found_request_is_read_back_through_every_endpoint,
    shipment_edits_replace_the_clients_lists_only,
    a_shipment_edit_may_leave_the_type_out,
    bad_ids_filters_and_includes_are_clear_errors_and_accounts_are_separate,
);

/// Creates `number` at `scac` through the API and drains the queue; returns the request.
pub(crate) async fn track(t: &TestApp, number: &str, scac: &str) -> Value {
    let created = document(
        t.create(&tracking_request("bill_of_lading", number, scac))
            .await,
    )
    .await;
    assert_eq!(created["data"]["attributes"]["status"], "pending");
    t.drain().await;
    let id = created["data"]["id"].as_str().expect("id");
    document(
        t.get(&format!(
            "/v2/tracking_requests/{id}?include=tracked_object"
        ))
        .await,
    )
    .await
}

/// `PATCH /v2/shipments/{id}/{action}` (`stop_tracking`, `resume_tracking`) with the
/// app's key.
pub(crate) async fn shipment_action(
    t: &TestApp,
    shipment_id: &str,
    action: &str,
) -> reqwest::Response {
    t.call(
        Method::PATCH,
        &format!("/v2/shipments/{shipment_id}/{action}"),
    )
    .await
}

pub(crate) fn shipment_id(request: &Value) -> String {
    request["data"]["relationships"]["tracked_object"]["data"]["id"]
        .as_str()
        .expect("a tracked object")
        .to_owned()
}

async fn a_found_request_is_read_back_through_every_endpoint(t: TestApp) {
    let request = track(&t, "TEST-TR-SUCCEEDED", "TEST").await;
    assert_eq!(request["data"]["attributes"]["status"], "created");
    let shipment_id = shipment_id(&request);
    let included = request["included"].as_array().expect("included");
    assert_eq!(included.len(), 1);
    assert_eq!(included[0]["type"], "shipment");
    assert_eq!(included[0]["id"], shipment_id);

    let shipment = shipments_read_back(&t, &shipment_id).await;
    containers_read_back(&t, &shipment).await;
    reference_data_reads_back(&t, &shipment).await;
}

/// The tracked shipment, listed with its includes, by id and by every filter; answers it
/// as listed.
async fn shipments_read_back(t: &TestApp, shipment_id: &str) -> Value {
    let list = document(
        t.get("/v2/shipments?include=containers,port_of_lading,port_of_discharge,pod_terminal")
            .await,
    )
    .await;
    assert_eq!(list["meta"]["total"], 1);
    let shipment = &list["data"][0];
    let attributes = &shipment["attributes"];
    assert_eq!(attributes["line_tracking_source"], "sandbox");
    assert_eq!(attributes["bill_of_lading_number"], "TEST-TR-SUCCEEDED");
    assert_eq!(attributes["shipping_line_scac"], "TEST");
    assert!(attributes["port_of_lading_locode"].is_string());
    assert!(attributes["pod_eta_at"].is_string() || attributes["pod_ata_at"].is_string());
    assert!(attributes["line_tracking_stopped_at"].is_null());
    let containers = shipment["relationships"]["containers"]["data"]
        .as_array()
        .expect("containers");
    assert!(!containers.is_empty());
    let types: Vec<&str> = list["included"]
        .as_array()
        .expect("included")
        .iter()
        .filter_map(|r| r["type"].as_str())
        .collect();
    assert_eq!(
        types.iter().filter(|t| **t == "container").count(),
        containers.len()
    );
    assert!(types.contains(&"port"));
    let pol = shipment["relationships"]["port_of_lading"]["data"]["id"]
        .as_str()
        .expect("pol");
    assert!(
        list["included"]
            .as_array()
            .expect("included")
            .iter()
            .any(|r| r["id"] == pol)
    );

    let one = document(t.get(&format!("/v2/shipments/{shipment_id}")).await).await;
    assert_eq!(one["data"]["id"], shipment_id);
    assert!(one.get("included").is_none(), "no include, no included");
    for (query, total) in [
        ("number=TEST-TR-SUCCEEDED", 1),
        ("number=nope", 0),
        ("filter[tracking_stopped]=false", 1),
        ("filter[tracking_stopped]=true", 0),
        ("filter[scac]=TEST", 1),
        ("filter[scac]=MAEU", 0),
    ] {
        let page = document(t.get(&format!("/v2/shipments?{query}")).await).await;
        assert_eq!(page["meta"]["total"], total, "{query}");
    }
    let pod = attributes["port_of_discharge_locode"]
        .as_str()
        .expect("pod");
    let page = document(
        t.get(&format!("/v2/shipments?filter[pod_locode]={pod}"))
            .await,
    )
    .await;
    assert_eq!(page["meta"]["total"], 1);

    shipment.clone()
}

/// The shipment's first container by id and filter, and its transport events.
async fn containers_read_back(t: &TestApp, shipment: &Value) {
    let shipment_id = shipment["id"].as_str().expect("id");
    let containers = shipment["relationships"]["containers"]["data"]
        .as_array()
        .expect("containers");
    let container_id = containers[0]["id"].as_str().expect("id");
    let container = document(
        t.get(&format!(
            "/v2/containers/{container_id}?include=shipment,transport_events"
        ))
        .await,
    )
    .await;
    let number = container["data"]["attributes"]["number"]
        .as_str()
        .expect("number");
    assert_eq!(
        container["data"]["relationships"]["shipment"]["data"]["id"],
        shipment_id
    );
    assert!(container["data"]["attributes"]["current_status"].is_string());
    let included = container["included"].as_array().expect("included");
    assert!(included.iter().any(|r| r["type"] == "shipment"));
    let events_included = included
        .iter()
        .filter(|r| r["type"] == "transport_event")
        .count();
    let listed = document(
        t.get(&format!("/v2/containers?filter[number]={number}"))
            .await,
    )
    .await;
    assert_eq!(listed["meta"]["total"], 1);
    let all = document(t.get("/v2/containers").await).await;
    assert_eq!(all["meta"]["total"], containers.len());

    // Transport events, oldest first, with their places and vessels.
    let events = document(
        t.get(&format!(
            "/v2/containers/{container_id}/transport_events?include=location,vessel,terminal"
        ))
        .await,
    )
    .await;
    let data = events["data"].as_array().expect("events");
    assert_eq!(events["meta"]["total"], data.len());
    assert_eq!(data.len(), events_included);
    assert!(!data.is_empty(), "a sailing shipment has milestones");
    let times: Vec<&str> = data
        .iter()
        .filter_map(|e| e["attributes"]["timestamp"].as_str())
        .collect();
    let mut sorted = times.clone();
    sorted.sort_unstable();
    assert_eq!(times, sorted, "oldest first");
    assert!(data.iter().all(|e| {
        e["attributes"]["event"]
            .as_str()
            .is_some_and(|n| n.starts_with("container.transport."))
    }));
    let included = events["included"].as_array().expect("included");
    assert!(included.iter().any(|r| r["type"] == "port"));
}

/// The ports, vessel and terminal the shipment names, by id and by code.
async fn reference_data_reads_back(t: &TestApp, shipment: &Value) {
    let attributes = &shipment["attributes"];
    let pod = attributes["port_of_discharge_locode"]
        .as_str()
        .expect("pod");
    let port = document(t.get(&format!("/v2/ports/{pod}")).await).await;
    assert_eq!(port["data"]["attributes"]["code"], pod);
    let port_id = port["data"]["id"].as_str().expect("id");
    let again = document(t.get(&format!("/v2/ports/{port_id}")).await).await;
    assert_eq!(again["data"]["attributes"]["code"], pod);
    assert_eq!(again["data"]["attributes"]["country_code"], &pod[..2]);
    if let Some(imo) = attributes["pod_vessel_imo"].as_str() {
        let vessel = document(t.get(&format!("/v2/vessels/{imo}")).await).await;
        assert_eq!(vessel["data"]["attributes"]["imo"], imo);
    }
    if let Some(terminal) = shipment["relationships"]["pod_terminal"]["data"]["id"].as_str() {
        let found = document(t.get(&format!("/v2/terminals/{terminal}")).await).await;
        assert_eq!(found["data"]["type"], "terminal");
    }
}

/// The reference's PATCH body leaves `data.type` out.
async fn a_shipment_edit_may_leave_the_type_out(t: TestApp) {
    let request = track(&t, "TEST-TR-SUCCEEDED", "TEST").await;
    let path = format!("/v2/shipments/{}", shipment_id(&request));
    let untyped = document(
        t.patch(
            &path,
            &json!({"data": {"attributes": {"ref_numbers": ["PO-7"], "tags": ["blue"]}}}),
        )
        .await,
    )
    .await;
    assert_eq!(
        untyped["data"]["attributes"]["ref_numbers"],
        json!(["PO-7"])
    );
    assert_eq!(untyped["data"]["attributes"]["tags"], json!(["blue"]));
}

async fn shipment_edits_replace_the_clients_lists_only(t: TestApp) {
    let request = track(&t, "TEST-TR-SUCCEEDED", "TEST").await;
    let shipment_id = shipment_id(&request);
    let path = format!("/v2/shipments/{shipment_id}");
    let body = json!({"data": {"type": "shipment", "id": shipment_id,
        "attributes": {"tags": ["blue", "blue", "green"], "ref_numbers": ["PO-7"]}}});
    let updated = document(t.patch(&path, &body).await).await;
    assert_eq!(
        updated["data"]["attributes"]["tags"],
        json!(["blue", "green"])
    );
    assert_eq!(
        updated["data"]["attributes"]["ref_numbers"],
        json!(["PO-7"])
    );
    // A refresh keeps the client's lists.
    t.advance(time::Duration::days(1));
    t.drain().await;
    let after = document(t.get(&path).await).await;
    assert_eq!(
        after["data"]["attributes"]["tags"],
        json!(["blue", "green"])
    );
    // Without attributes, nothing changes (JSON:API makes them optional); null is refused.
    let same = document(
        t.patch(
            &path,
            &json!({"data": {"type": "shipment", "id": shipment_id}}),
        )
        .await,
    )
    .await;
    assert_eq!(same["data"]["attributes"]["tags"], json!(["blue", "green"]));

    for (body, status, code, pointer) in [
        (
            json!({"data": {"type": "shipment", "attributes": null}}),
            422,
            "invalid",
            "/data/attributes",
        ),
        (
            json!({"data": {"type": "container", "attributes": {}}}),
            409,
            "type_mismatch",
            "/data/type",
        ),
        (
            json!({"data": {"type": "shipment", "attributes": {"tags": ["x".repeat(129)]}}}),
            422,
            "too_long",
            "/data/attributes/tags/0",
        ),
        (
            json!({"data": {"type": "shipment", "attributes": {"tags": "x"}}}),
            422,
            "invalid",
            "/data/attributes/tags",
        ),
        (
            json!({"data": {"type": "shipment", "attributes": {"scac": "MAEU"}}}),
            422,
            "invalid",
            "/data/attributes/scac",
        ),
    ] {
        let problems = codes(&errors(t.patch(&path, &body).await, status).await);
        assert!(
            problems.contains(&(code.to_owned(), pointer.to_owned())),
            "{body}: {problems:?}"
        );
    }
}

async fn bad_ids_filters_and_includes_are_clear_errors_and_accounts_are_separate(t: TestApp) {
    let request = track(&t, "TEST-TR-SUCCEEDED", "TEST").await;
    let shipment_id = shipment_id(&request);
    for path in [
        "/v2/shipments/not-a-uuid".to_owned(),
        "/v2/shipments/0192a3b4-0000-7000-8000-000000000000".to_owned(),
        "/v2/containers/nope".to_owned(),
        "/v2/containers/nope/transport_events".to_owned(),
        "/v2/ports/ZZZZZ".to_owned(),
        "/v2/terminals/TRM1".to_owned(),
        "/v2/vessels/0000000".to_owned(),
    ] {
        errors(t.get(&path).await, 404).await;
    }
    for (query, parameter) in [
        ("include=account", "include"),
        ("filter[tracking_stopped]=maybe", "filter[tracking_stopped]"),
        ("filter[pol_locode]=NOPE!", "filter[pol_locode]"),
        ("filter[scac]=TOOLONG", "filter[scac]"),
        ("page[size]=500", "page[size]"),
        ("filter[colour]=red", "filter[colour]"),
    ] {
        let problems = codes(&errors(t.get(&format!("/v2/shipments?{query}")).await, 400).await);
        assert_eq!(problems[0].1, parameter, "{query}: {problems:?}");
    }
    errors(
        t.get("/v2/containers?filter[current_status]=flying").await,
        400,
    )
    .await;
    errors(t.get("/v2/containers?include=vessel").await, 400).await;

    let (_, stranger) = t.new_account("stranger").await;
    errors(
        t.get_as(&stranger, &format!("/v2/shipments/{shipment_id}"))
            .await,
        404,
    )
    .await;
    let theirs = document(t.get_as(&stranger, "/v2/shipments").await).await;
    assert_eq!(theirs["meta"]["total"], 0);
    let theirs = document(t.get_as(&stranger, "/v2/containers").await).await;
    assert_eq!(theirs["meta"]["total"], 0);
    let stop = t
        .request(
            Method::PATCH,
            &format!("/v2/shipments/{shipment_id}/stop_tracking"),
            Some(&stranger),
        )
        .send()
        .await
        .expect("request");
    errors(stop, 404).await;
    let unauthenticated = t
        .request(Method::GET, "/v2/shipments", None)
        .send()
        .await
        .expect("request");
    errors(unauthenticated, 401).await;
}
