//! `/v2/tracking_requests` (api.md §2).

use serde_json::{Value, json};
use tidemark_domain::{RequestStatus, TrackingRequestId};

use crate::common::{TestApp, codes, document, errors, tracking_request};

use crate::common::with_app;

tidemark_store::backends!(
    with_app,
    a_new_request_is_pending_with_location_and_empty_state,
    a_created_request_is_in_the_database,
    one_request_reads_at_the_plural_and_singular_paths,
    alternative_scacs_and_spellings_are_stored_normalized,
    every_create_problem_is_reported_at_once_with_pointers,
    a_bad_container_check_digit_names_the_expected_digit,
    an_open_duplicate_is_rejected_with_the_existing_id,
    twenty_concurrent_identical_creates_admit_exactly_one,
    a_failed_request_no_longer_blocks_a_new_one,
    patch_replaces_ref_numbers_and_tags,
    patch_refuses_immutable_attributes_and_mismatched_ids,
    auto_detect_accepts_a_missing_scac,
);

pub(crate) async fn created(app: &TestApp, body: &Value) -> Value {
    let response = app.create(body).await;
    assert_eq!(response.status(), 201, "{:?}", response.text().await);
    document(response).await
}

/// A bill of lading of MSC, created: its id and path.
async fn an_msc_bill(app: &TestApp) -> (String, String) {
    let body = created(
        app,
        &tracking_request("bill_of_lading", "MEDU1234567", "MSCU"),
    )
    .await;
    let id = body["data"]["id"].as_str().expect("id").to_owned();
    let path = format!("/v2/tracking_requests/{id}");
    (id, path)
}

async fn a_new_request_is_pending_with_location_and_empty_state(app: TestApp) {
    let response = app
        .create(&tracking_request("bill_of_lading", "MEDU1234567", "MSCU"))
        .await;
    assert_eq!(response.status(), 201);
    let location = response.headers()["location"]
        .to_str()
        .expect("text")
        .to_owned();
    let body = document(response).await;
    let data = &body["data"];
    let id = data["id"].as_str().expect("id");
    assert!(TrackingRequestId::parse(id).is_some(), "a UUID id");
    assert_eq!(location, app.link(&format!("/v2/tracking_requests/{id}")));
    assert_eq!(data["links"]["self"], location);
    assert_eq!(data["type"], "tracking_request");
    let attributes = &data["attributes"];
    assert_eq!(attributes["status"], "pending");
    assert_eq!(attributes["request_number"], "MEDU1234567");
    assert_eq!(attributes["request_type"], "bill_of_lading");
    assert_eq!(attributes["scac"], "MSCU");
    assert_eq!(attributes["ref_numbers"], json!([]));
    assert_eq!(attributes["shipment_tags"], json!([]));
    assert_eq!(attributes["failed_reason"], Value::Null);
    assert_eq!(attributes["is_retrying"], false);
    assert_eq!(attributes["retry_count"], Value::Null);
    assert!(
        attributes["created_at"]
            .as_str()
            .is_some_and(|t| t.ends_with('Z'))
    );
    assert_eq!(data["relationships"]["tracked_object"]["data"], Value::Null);
}

async fn a_created_request_is_in_the_database(app: TestApp) {
    let body = created(&app, &tracking_request("container", "CSQU3054383", "HLCU")).await;
    let stored = app.stored_request(&body).await;
    assert_eq!(stored.status, RequestStatus::Pending);
    assert_eq!(stored.request_number.normalized(), "CSQU3054383");
}

async fn one_request_reads_at_the_plural_and_singular_paths(app: TestApp) {
    let body = created(
        &app,
        &tracking_request("booking_number", "123456789", "MAEU"),
    )
    .await;
    let id = body["data"]["id"].as_str().expect("id");
    for path in [
        format!("/v2/tracking_requests/{id}"),
        format!("/v2/tracking_request/{id}"),
    ] {
        let read = document(app.get(&path).await).await;
        assert_eq!(read["data"], body["data"], "{path}");
        assert_eq!(read["links"]["self"], app.link(&path));
    }
}

async fn alternative_scacs_and_spellings_are_stored_normalized(app: TestApp) {
    let mut body = tracking_request("bill_of_lading", "  medu1234567 ", "medu");
    body["data"]["attributes"]["ref_numbers"] = json!(["PO-1", "PO-1", " PO-1 ", "Ünïcødé ✓"]);
    let created = created(&app, &body).await;
    let attributes = &created["data"]["attributes"];
    assert_eq!(attributes["scac"], "MSCU");
    assert_eq!(attributes["request_number"], "medu1234567");
    assert_eq!(
        attributes["ref_numbers"],
        json!(["PO-1", " PO-1 ", "Ünïcødé ✓"]),
        "items are kept as sent, once each"
    );
}

async fn every_create_problem_is_reported_at_once_with_pointers(app: TestApp) {
    let body = json!({"data": {"type": "tracking_request", "attributes": {
        "request_type": "parcel", "request_number": "", "scac": "ZZZZ",
        "ref_numbers": ["ok", 7], "shipment_tags": "nope", "colour": "red"}}});
    let errors = errors(app.create(&body).await, 422).await;
    let mut found = codes(&errors);
    found.sort();
    let mut expected: Vec<(String, String)> = [
        ("invalid", "/data/attributes/request_type"),
        ("blank", "/data/attributes/request_number"),
        ("unknown_scac", "/data/attributes/scac"),
        ("invalid", "/data/attributes/ref_numbers/1"),
        ("invalid", "/data/attributes/shipment_tags"),
        ("invalid", "/data/attributes/colour"),
    ]
    .into_iter()
    .map(|(c, p)| (c.to_owned(), p.to_owned()))
    .collect();
    expected.sort();
    assert_eq!(found, expected);
    assert!(errors.iter().all(|e| e["title"] == "Unprocessable Entity"));

    let unsupported = errors_of(
        &app,
        tracking_request("bill_of_lading", "123456789012", "EGLV"),
    )
    .await;
    assert_eq!(
        unsupported,
        [(
            "unsupported_request_type".to_owned(),
            "/data/attributes/scac".to_owned()
        )]
    );
    let too_long = errors_of(
        &app,
        tracking_request("bill_of_lading", &"A".repeat(65), "MAEU"),
    )
    .await;
    assert_eq!(
        too_long,
        [(
            "too_long".to_owned(),
            "/data/attributes/request_number".to_owned()
        )]
    );
}

async fn errors_of(app: &TestApp, body: Value) -> Vec<(String, String)> {
    codes(&errors(app.create(&body).await, 422).await)
}

async fn a_bad_container_check_digit_names_the_expected_digit(app: TestApp) {
    let errors = errors(
        app.create(&tracking_request("container", "CSQU3054384", "HLCU"))
            .await,
        422,
    )
    .await;
    assert_eq!(
        codes(&errors),
        [(
            "invalid_number".to_owned(),
            "/data/attributes/request_number".to_owned()
        )]
    );
    let detail = errors[0]["detail"].as_str().expect("detail");
    assert!(detail.contains("expected 3"), "{detail}");
}

async fn an_open_duplicate_is_rejected_with_the_existing_id(app: TestApp) {
    let first = created(
        &app,
        &tracking_request("bill_of_lading", "MEDU1234567", "MSCU"),
    )
    .await;
    let errors = errors(
        app.create(&tracking_request("bill_of_lading", "medu 1234567", "MEDU"))
            .await,
        422,
    )
    .await;
    assert_eq!(errors.len(), 1);
    let error = &errors[0];
    assert_eq!(error["code"], "duplicate");
    assert_eq!(error["title"], "Unprocessable Entity");
    assert_eq!(
        error["source"]["pointer"],
        "/data/attributes/request_number"
    );
    assert_eq!(error["meta"]["existing_id"], first["data"]["id"]);
}

async fn twenty_concurrent_identical_creates_admit_exactly_one(app: TestApp) {
    let body = tracking_request("bill_of_lading", "MAEU123456789", "MAEU");
    let responses = futures::future::join_all((0..20).map(|_| app.create(&body))).await;
    let mut created_ids = Vec::new();
    let mut existing_ids = Vec::new();
    for response in responses {
        match response.status().as_u16() {
            201 => created_ids.push(document(response).await["data"]["id"].clone()),
            422 => {
                let errors = errors(response, 422).await;
                assert_eq!(errors[0]["code"], "duplicate");
                existing_ids.push(errors[0]["meta"]["existing_id"].clone());
            }
            other => panic!("unexpected status {other}"),
        }
    }
    assert_eq!(created_ids.len(), 1);
    assert_eq!(existing_ids.len(), 19);
    assert!(existing_ids.iter().all(|id| *id == created_ids[0]));
}

async fn a_failed_request_no_longer_blocks_a_new_one(app: TestApp) {
    let first = created(
        &app,
        &tracking_request("bill_of_lading", "MEDU1234567", "MSCU"),
    )
    .await;
    let stored = app.stored_request(&first).await;
    tidemark_store::testing::commit_status(app.store.as_ref(), &stored, RequestStatus::Failed)
        .await;
    created(
        &app,
        &tracking_request("bill_of_lading", "MEDU1234567", "MSCU"),
    )
    .await;
}

async fn patch_replaces_ref_numbers_and_tags(app: TestApp) {
    let (id, path) = an_msc_bill(&app).await;
    let patch = json!({"data": {"type": "tracking_request", "id": id, "attributes": {"ref_numbers": ["PO-9"], "shipment_tags": ["hot"]}}});
    let response = app.patch(&path, &patch).await;
    assert_eq!(response.status(), 200);
    let updated = document(response).await;
    assert_eq!(
        updated["data"]["attributes"]["ref_numbers"],
        json!(["PO-9"])
    );
    assert_eq!(
        updated["data"]["attributes"]["shipment_tags"],
        json!(["hot"])
    );
    let only_tags =
        json!({"data": {"type": "tracking_request", "attributes": {"shipment_tags": []}}});
    let again = document(app.patch(&path, &only_tags).await).await;
    assert_eq!(
        again["data"]["attributes"]["ref_numbers"],
        json!(["PO-9"]),
        "absent means unchanged"
    );
    assert_eq!(again["data"]["attributes"]["shipment_tags"], json!([]));
    let read = document(app.get(&path).await).await;
    assert_eq!(read["data"], again["data"]);
}

async fn patch_refuses_immutable_attributes_and_mismatched_ids(app: TestApp) {
    let (_id, path) = an_msc_bill(&app).await;
    let change = json!({"data": {"type": "tracking_request", "attributes": {"scac": "MAEU", "status": "created", "request_number": "MEDU1234567"}}});
    let found = codes(&errors(app.patch(&path, &change).await, 422).await);
    assert_eq!(
        found,
        [
            ("immutable".to_owned(), "/data/attributes/scac".to_owned()),
            ("immutable".to_owned(), "/data/attributes/status".to_owned())
        ],
        "an unchanged value is accepted; changed ones are immutable"
    );
    let wrong_id = json!({"data": {"type": "tracking_request", "id": TrackingRequestId::new().to_string(), "attributes": {}}});
    assert_eq!(
        codes(&errors(app.patch(&path, &wrong_id).await, 409).await),
        [("id_mismatch".to_owned(), "/data/id".to_owned())]
    );
    let wrong_type = json!({"data": {"type": "shipment", "attributes": {}}});
    assert_eq!(
        codes(&errors(app.patch(&path, &wrong_type).await, 409).await),
        [("type_mismatch".to_owned(), "/data/type".to_owned())]
    );
    let missing = format!("/v2/tracking_requests/{}", TrackingRequestId::new());
    errors(
        app.patch(
            &missing,
            &json!({"data": {"type": "tracking_request", "attributes": {}}}),
        )
        .await,
        404,
    )
    .await;
}

async fn auto_detect_accepts_a_missing_scac(app: TestApp) {
    let body = json!({"data": {"type": "tracking_request", "attributes": {
        "request_type": "container", "request_number": "CSQU3054383", "auto_detect_vocc_scac": true}}});
    let created = created(&app, &body).await;
    assert_eq!(created["data"]["attributes"]["scac"], Value::Null);
    assert_eq!(created["data"]["attributes"]["status"], "pending");
    let no_scac = json!({"data": {"type": "tracking_request", "attributes": {
        "request_type": "container", "request_number": "CSQU3054383"}}});
    assert_eq!(
        codes(&errors(app.create(&no_scac).await, 422).await),
        [("blank".to_owned(), "/data/attributes/scac".to_owned())]
    );
}
