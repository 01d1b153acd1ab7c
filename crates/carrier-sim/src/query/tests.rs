use super::*;
use serde_json::json;

#[test]
fn bad_queries_are_refused_with_a_reason() {
    for raw in [
        "",
        "eventType=SHIPMENT",
        "carrierBookingReference=B1&eventType=PARCEL",
        "carrierBookingReference=B1&limit=0",
        "carrierBookingReference=B1&limit=x",
        "carrierBookingReference=B1&cursor=zz",
        "carrierBookingReference=B1&sort=documentID",
        "carrierBookingReference=B1&eventCreatedDateTime:gte=yesterday",
        "carrierBookingReference=B1&carrierBookingReference=B2",
        "equipmentReference=ABCDEFGHIJKLMNOP",
        "carrierBookingReference=",
    ] {
        let error = EventQuery::parse(raw).expect_err(raw);
        assert_eq!(error.reason, "invalidQuery");
        assert!(!error.message.is_empty());
    }
}

#[test]
fn filters_combine_with_and_and_lists_with_or() {
    let query = EventQuery::parse(
        "transportDocumentReference=TD1&eventType=TRANSPORT,EQUIPMENT&UNLocationCode=NLRTM&eventCreatedDateTime:gte=2026-01-01T00:00:00Z",
    )
    .expect("valid");
    let transport = json!({"eventType": "TRANSPORT", "eventCreatedDateTime": "2026-02-01T00:00:00Z",
        "transportCall": {"UNLocationCode": "NLRTM"},
        "documentReferences": [{"documentReferenceType": "TRD", "documentReferenceValue": "TD1"}]});
    assert!(query.matches(&transport));
    let mut elsewhere = transport.clone();
    elsewhere["transportCall"]["UNLocationCode"] = json!("DEHAM");
    assert!(!query.matches(&elsewhere));
    let mut earlier = transport.clone();
    earlier["eventCreatedDateTime"] = json!("2025-12-31T23:59:59Z");
    assert!(!query.matches(&earlier));
    let mut other_document = transport.clone();
    other_document["documentReferences"][0]["documentReferenceValue"] = json!("TD2");
    assert!(!query.matches(&other_document));
    let shipment = json!({"eventType": "SHIPMENT", "documentTypeCode": "TRD", "documentID": "TD1",
        "eventCreatedDateTime": "2026-02-01T00:00:00Z"});
    assert!(!query.matches(&shipment), "not a requested type");
}

#[test]
fn cursors_round_trip_and_parameters_pass_through() {
    let query =
        EventQuery::parse("equipmentReference=CSQU3054383&limit=5&cursor=o10").expect("valid");
    assert_eq!((query.limit, query.offset, query.has_cursor), (5, 10, true));
    assert_eq!(cursor(10), "o10");
    assert_eq!(query.passthrough.len(), 2);
}
